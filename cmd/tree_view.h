/*
 * The view of `owners tree --watch`: what changed between two frames of
 * the tree, and how that is shown. On a terminal, rows are marked for a
 * moment (+ added, ~ changed, - going, the going ones struck through where
 * they were) and the screen's lines are drawn here; elsewhere, each change
 * is handed to a hook (tree_view_event_line() writes the line kubectl get
 * -w would print).
 *
 * Lines in, lines out: a frame is the rows (an id and what they show,
 * hashed) and the text lines rendered for them; the clock is a value the
 * caller passes. No terminal, cluster, graph or clock is read here, so
 * every behaviour is unit-tested (tests/unit/test_tree_view.c). It lives
 * in cmd/, not lib/: what it writes is the terminal's (escape sequences,
 * the words of the screen's title), which lib/ never produces.
 *
 * Ownership: the view owns the frames it is given (rows and lines, from
 * tree_view_update() on) and its marks; tree_view_clear() frees them.
 * The lines tree_view_draw() returns are the caller's (owners_strv_free).
 * Strings a change points to are the view's, valid during the hook.
 */
#ifndef OWNERS_CMD_TREE_VIEW_H
#define OWNERS_CMD_TREE_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

/* How long a row stays marked as added, changed or going. */
#define TREE_VIEW_MARK_MS 2000

enum tree_view_mark { TREE_VIEW_NONE, TREE_VIEW_ADDED, TREE_VIEW_CHANGED, TREE_VIEW_GOING };

/* A row of a frame. id: the same object in every frame, and only it (the
 * graph's node index: stable for the graph's life, one per UID), below
 * the frame's n_ids. sig: what the row shows that can change, hashed,
 * never 0 (two frames with one sig for a row: unchanged). */
struct tree_view_row {
	uint32_t id;
	uint64_t sig;
};

/* A frame: rows in the tree's order; lines as rendered, the header's
 * first (header of them), then one per row, perhaps fewer than the rows
 * (a terminal renders only what fits its window). */
struct tree_view_frame {
	struct tree_view_row *rows;
	size_t n_rows;
	char **lines;
	size_t n_lines;
	size_t header;
	size_t n_ids;
};

/* A row that changed since the last frame, for the hook. type: "ADDED",
 * "MODIFIED" or "DELETED"; row: its index in this frame, or for DELETED
 * (previous = 1) in the last; line: as rendered ("" when it was not). */
struct tree_view_change {
	const char *type;
	int previous;
	size_t row;
	const char *line;
};

/* Says one change; 0, or an error code that ends the update. */
typedef int tree_view_change_fn(void *ctx, const struct tree_view_change *c);

/* A row marked for a moment; a going one keeps its last line. */
struct tree_view_marked {
	uint32_t id;
	enum tree_view_mark mark;
	int64_t until_ms;
	char *line;   /* TREE_VIEW_GOING: the row as last drawn */
	size_t at;    /* TREE_VIEW_GOING: where it was */
};

struct tree_view {
	/* 1: changes are marks (a terminal); 0: they go to on_change. */
	int marking;
	tree_view_change_fn *on_change;
	void *change_ctx;
	struct tree_view_frame last; /* the last frame given (none yet: zeroed) */
	size_t frames;
	/* The last frame's sig per id (0: not a row). Arrays by id, not
	 * strings by UID: a tree of 10,000 rows is compared each frame
	 * without allocating per row. */
	uint64_t *shown;
	size_t n_shown;
	struct tree_view_marked *marks;
	size_t n_marks, cap_marks;
	uint32_t *mark_of;   /* per id: its index in marks + 1, 0 none */
	size_t cap_mark_of;
	char **warnings;     /* the three latest, said once each */
	size_t n_warnings, cap_warnings;
};

/* What the screen shows above the tree. what: the title's arguments,
 * each with a space first (" deployment/web"); where: "all namespaces"
 * or the namespace; rows: the window's height; gone: the roots that were
 * shown once and are deleted ("deployment.apps/web"), said when nothing
 * is left to show. */
struct tree_view_chrome {
	const char *program; /* the title's: as the user runs owners */
	const char *what;
	const char *where;
	size_t watches, events;
	int rows;
	int color;
	char *const *gone;
	size_t n_gone;
};

/* A view with nothing shown; marking as above. */
void tree_view_init(struct tree_view *v, int marking, tree_view_change_fn *on_change, void *ctx);
void tree_view_clear(struct tree_view *v);
/* Frees a frame's rows and lines (one not given to the view); zeroes it. */
void tree_view_frame_clear(struct tree_view_frame *f);

/* Takes f's rows and lines (always: on failure too; f is zeroed) and
 * compares them with the last frame's, at now_ms: rows that left (deepest
 * first: within one frame dependents go before their owners, as the
 * garbage collector removes them), then rows that came or changed. The
 * first frame only sets what the next is compared with. 0, OWNERS_ENOMEM,
 * or what the hook returned. */
int tree_view_update(struct tree_view *v, struct tree_view_frame *f, int64_t now_ms);

/* Drops the marks whose moment passed by now_ms. */
void tree_view_expire(struct tree_view *v, int64_t now_ms);
/* When the soonest mark passes (ms, the clock of the marks), -1: none. */
int64_t tree_view_next_expiry(const struct tree_view *v);
/* The mark of a row of the last frame (TREE_VIEW_NONE: none). */
enum tree_view_mark tree_view_mark_of(const struct tree_view *v, size_t row);

/* A warning for the screen: kept (the three latest), unless it is one of
 * them already. 0, or OWNERS_ENOMEM. */
int tree_view_warn(struct tree_view *v, const char *line);

/* The screen's lines for the last frame: title, warnings, the header,
 * each row after its mark, going rows where they were; cut to c->rows
 * with a last line that counts what is below. 0, or OWNERS_ENOMEM. */
int tree_view_draw(const struct tree_view *v, const struct tree_view_chrome *c, char ***out, size_t *n);

/* The line kubectl get -w prints for a change: the type in 9 columns,
 * then the row, trailing spaces dropped (appended to out). */
int tree_view_event_line(struct owners_buf *out, const struct tree_view_change *c);

#endif
