/*
 * owners tree --watch and --until: the tree kept current by watches
 * (lib/graph/watch.h) and shown as it changes: redrawn in place on a
 * terminal with the rows that changed marked for a moment; elsewhere the
 * first tree, then one line per row that changed (as kubectl get -w), or
 * one JSON/YAML document per change.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "grow.h"
#include "output.h"
#include "screen.h"
#include "status_fetch.h"
#include "strset.h"
#include "strv.h"
#include "tree.h"
#include "tree_watch.h"
#include "watch.h"

/* At most this many redraws (or batches of lines) a second. */
#define FRAME_MS 100
/* How long a row stays marked as added, changed or going. */
#define MARK_MS 2000

enum mark { MARK_NONE, MARK_ADDED, MARK_CHANGED, MARK_GOING };

/* A row marked for a moment; a going one keeps its last line. */
struct marked {
	char *uid;
	enum mark mark;
	int64_t until_ms;
	char *line;   /* MARK_GOING: the row as last drawn */
	size_t at;    /* MARK_GOING: where it was */
};


struct tree_watch {
	struct session *s;
	const struct owners_object_arg *objs; /* as typed, for the header */
	const struct owners_selection_arg *args; /* their types resolved */
	size_t n_objs;
	struct owners_selection_target *targets; /* where each argument is */
	size_t n_targets;
	struct owners_selection roots;            /* this frame's */
	const char *format;
	int all;
	int tty, document, yaml, names;
	struct owners_watch *w;
	struct tree_listed *listed;
	struct owners_tree tree;
	/* The last frame, per node index (stable for the graph's life): 0
	 * when the node was not a row, else its signature's hash (never 0).
	 * Arrays by node, not strings by UID: a tree of 10,000 rows is
	 * compared each frame without allocating per row. */
	uint64_t *shown;
	size_t n_shown;
	char **shown_lines;  /* the last frame's text lines (header first) */
	size_t n_shown_lines;
	size_t shown_header;
	struct marked *marks;
	size_t n_marks, cap_marks;
	struct owners_strset mark_index;  /* uid: flag = its index in marks + 1 */
	struct owners_strset root_uids; /* every root seen: --until=gone follows them */
	char **warnings;
	size_t n_warnings, cap_warnings;
	int64_t started_ms, last_frame_ms;
	size_t frames;
};

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- the types listed, and where their watches start ----------------- */

int tree_listed_record(void *ctx, const struct owners_resource *r, const char *ns, const char *rv)
{
	struct tree_listed *l = ctx;
	struct tree_listed_type *t;

	if (!r) {
		/* discovery refreshed: the scan lists everything again */
		tree_listed_clear(l);
		return 0;
	}
	if (OWNERS_GROW(l->items, l->cap, l->count + 1))
		return OWNERS_ENOMEM;
	t = &l->items[l->count];
	t->resource = r;
	t->ns = ns ? owners_strdup(ns) : NULL;
	t->rv = owners_strdup(rv);
	t->watched = 0;
	if ((ns && !t->ns) || !t->rv) {
		free(t->ns);
		free(t->rv);
		return OWNERS_ENOMEM;
	}
	l->count++;
	return 0;
}

void tree_listed_clear(struct tree_listed *l)
{
	size_t i;

	for (i = 0; i < l->count; i++) {
		free(l->items[i].ns);
		free(l->items[i].rv);
	}
	free(l->items);
	memset(l, 0, sizeof(*l));
}

static int prints_status(const struct tree_watch *tw)
{
	return strcmp(tw->format, "name") != 0;
}

/* One watch per listed type that can hold part of the answer, started
 * where its list left off; asked again as the graph changes (a new
 * reference can bring a cluster-scoped owner's type in). */
static int watch_types(struct tree_watch *tw)
{
	const struct owners_resource **types = calloc(tw->listed->count + 1, sizeof(*types));
	unsigned char *can = calloc(tw->listed->count + 1, 1);
	size_t i;
	int rc = 0;

	if (!types || !can) {
		free(types);
		free(can);
		return OWNERS_ENOMEM;
	}
	for (i = 0; i < tw->listed->count; i++)
		types[i] = tw->listed->items[i].resource;
	owners_graph_types_can_hold_answer(tw->s->graph, types, tw->listed->count, tw->s->answer_namespaced_only, can);
	for (i = 0; !rc && i < tw->listed->count; i++) {
		struct tree_listed_type *t = &tw->listed->items[i];

		if (t->watched || !can[i])
			continue;
		t->watched = 1;
		rc = owners_watch_add(tw->w, t->resource, t->ns, t->rv,
				      t->resource->has_status && prints_status(tw), NULL);
	}
	free(types);
	free(can);
	return rc;
}

/* ---- roots, each frame, from the graph as it is now ----------------- */

/* A root that was seen and is gone, while what hung from it is still
 * there: the view keeps it (virtual), so its dependents keep their place
 * and --until=gone waits for them. */
static int gone_with_dependents(const struct owners_graph *g, const char *uid, uint32_t *node)
{
	*node = owners_graph_find_uid(g, uid);
	return *node != OWNERS_NO_NODE && g->nodes[*node].virtual_ && g->nodes[*node].n_dependents;
}

/* -l: what the selector's own watch says matches now. */
static int selected_now(void *ctx, unsigned char *marks, const struct owners_selection_target *t,
			struct owners_error *err)
{
	const struct tree_watch *tw = ctx;
	const struct owners_graph *g = tw->s->graph;
	uint32_t i;

	(void)t;
	(void)err;
	for (i = 0; i < g->count; i++)
		marks[i] = !g->nodes[i].virtual_ && owners_watch_selected(tw->w, g->nodes[i].uid);
	return 0;
}

/* The roots in the graph as it is now, into tw->roots. A named object not
 * there (yet, or any more) is no error: the watch goes on. */
static int find_roots(struct tree_watch *tw)
{
	const struct owners_selection_options o = {
		.missing = OWNERS_SELECTION_MISSING_IGNORED,
		.skip_listing_checks = 1,
		.match = tw->s->cli->selector ? selected_now : NULL,
		.match_ctx = tw,
	};
	struct owners_graph *g = tw->s->graph;
	struct owners_error err = OWNERS_ERROR_INIT;
	size_t i, k;
	int rc;

	rc = owners_selection_find(&tw->roots, g, tw->targets, tw->n_targets, &o, &err);
	owners_error_clear(&err);
	/* Roots that were there keep their place when they go (--until=gone
	 * waits for their dependents too). */
	for (i = 0; !rc && i < tw->roots.count; i++)
		if (!owners_strset_add(&tw->root_uids, g->nodes[tw->roots.nodes[i]].uid, NULL))
			rc = OWNERS_ENOMEM;
	for (k = 0; !rc && k < tw->root_uids.cap; k++) {
		const char *uid = tw->root_uids.slots[k].key;
		uint32_t node;

		if (uid && gone_with_dependents(g, uid, &node))
			rc = owners_selection_add(&tw->roots, node);
	}
	return rc;
}

/* ---- a frame: the tree now, and what changed since the last --------- */

static int render_setup(struct tree_watch *tw, struct owners_render *render, const struct owners_tree *tree,
			const char **keys, size_t n_keys, int color)
{
	size_t n_status = 0;

	memset(render, 0, sizeof(*render));
	render->g = tw->s->graph;
	render->tree = tree;
	render->status = owners_watch_status(tw->w, &n_status);
	render->now = (int64_t)time(NULL);
	render->color = color;
	render->wide = !strcmp(tw->format, "wide");
	render->no_headers = tw->s->cli->table.no_headers;
	render->show_labels = tw->s->cli->table.show_labels;
	render->label_keys = keys;
	render->n_label_keys = n_keys;
	return render->status ? 0 : OWNERS_ENOMEM;
}

/* The text table split into lines: header (unless --no-headers), then
 * one per row. */
static int render_lines(struct tree_watch *tw, const struct owners_tree *tree, int color, char ***lines,
			size_t *n)
{
	struct owners_render render;
	struct owners_buf out = OWNERS_BUF_INIT;
	const char **keys = NULL;
	char *storage = NULL, *p, *nl;
	size_t n_keys = 0, cap = 0;
	int rc;

	*lines = NULL;
	*n = 0;
	if (owners_cli_label_keys(tw->s->cli, &storage, &keys, &n_keys))
		return OWNERS_ENOMEM;
	rc = render_setup(tw, &render, tree, keys, n_keys, color);
	if (!rc && tree->count)
		rc = owners_tree_render_text(&out, &render);
	for (p = out.ptr; !rc && p && *p; p = nl + 1) {
		if (!(nl = strchr(p, '\n')))
			nl = p + strlen(p) - 1;
		rc = owners_strv_push(lines, n, &cap, owners_strndup(p, (size_t)(nl - p) + (*nl != '\n')));
	}
	owners_buf_clear(&out);
	free(keys);
	free(storage);
	return rc;
}

static void lines_free(char **lines, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
}

/* What a row shows that can change, as a hash (never 0): READY, STATUS,
 * whether it is there, in deletion, its finalizers and owners (not its
 * resourceVersion alone: a status heartbeat that changes nothing shown is
 * not a change). */
static int signature(struct owners_buf *out, const struct tree_watch *tw, const struct owners_tree_row *row,
		     const struct owners_object_status *st, size_t count, uint64_t *hash)
{
	const struct owners_node *n = &tw->s->graph->nodes[row->node];
	int rc;

	owners_buf_reset(out);
	rc = owners_buf_addf(out, "%d|%d|%u|%u|%u|%d|%s|%s", n->virtual_, n->deleted != 0, n->n_finalizers,
			     n->n_refs, row->depth, (int)row->via_class,
			     st && row->node < count && st[row->node].ready ? st[row->node].ready : "",
			     st && row->node < count && st[row->node].status ? st[row->node].status : "");
	*hash = rc ? 0 : owners_arena_hash(out->ptr, out->len) | 1;
	return rc;
}

/* What the index says of uid (flag 0: absent), as an index, or -1. Big
 * trees (a Deployment of 10,000 pods) are compared row by row each frame:
 * no linear searches. */
static long index_of(const struct owners_strset *index, const char *uid)
{
	const struct owners_strset_entry *e = owners_strset_get(index, uid);

	return e && e->flag ? (long)e->flag - 1 : -1;
}

/* Sets uid's index (i + 1 in its flag). 0, or OWNERS_ENOMEM. */
static int index_set(struct owners_strset *index, const char *uid, size_t i)
{
	struct owners_strset_entry *e = owners_strset_add(index, uid, NULL);

	if (!e)
		return OWNERS_ENOMEM;
	e->flag = (int)i + 1;
	return 0;
}


static int mark(struct tree_watch *tw, const char *uid, enum mark m, const char *line, size_t at)
{
	struct marked *k = NULL;
	long at_index = index_of(&tw->mark_index, uid);

	if (at_index >= 0)
		k = &tw->marks[at_index];
	if (!k) {
		if (OWNERS_GROW(tw->marks, tw->cap_marks, tw->n_marks + 1))
			return OWNERS_ENOMEM;
		k = &tw->marks[tw->n_marks];
		memset(k, 0, sizeof(*k));
		if (!(k->uid = owners_strdup(uid)) || index_set(&tw->mark_index, uid, tw->n_marks)) {
			free(k->uid);
			return OWNERS_ENOMEM;
		}
		tw->n_marks++;
	}
	/* A row added and changed within the moment stays "added", for the
	 * moment it got when it came (a row that keeps changing is not new
	 * for ever). */
	if (k->mark == MARK_ADDED && m == MARK_CHANGED && k->until_ms > now_ms())
		return 0;
	k->mark = m;
	k->until_ms = now_ms() + MARK_MS;
	free(k->line);
	k->line = line ? owners_strdup(line) : NULL;
	k->at = at;
	return line && !k->line ? OWNERS_ENOMEM : 0;
}

static int marks_expire(struct tree_watch *tw, int64_t now)
{
	size_t i = 0, kept = 0;
	int expired = 0;

	for (i = 0; i < tw->n_marks; i++) {
		if (tw->marks[i].until_ms > now) {
			tw->marks[kept++] = tw->marks[i];
			continue;
		}
		free(tw->marks[i].uid);
		free(tw->marks[i].line);
		expired = 1;
	}
	tw->n_marks = kept;
	if (!expired)
		return 0;
	owners_strset_clear(&tw->mark_index);
	owners_strset_init(&tw->mark_index);
	for (i = 0; i < tw->n_marks; i++)
		if (index_set(&tw->mark_index, tw->marks[i].uid, i))
			return OWNERS_ENOMEM;
	return 0;
}

static const struct marked *find_mark(const struct tree_watch *tw, const char *uid)
{
	long i = index_of(&tw->mark_index, uid);

	return i >= 0 ? &tw->marks[i] : NULL;
}

/* A line of change for the non-terminal forms. */
static int say_change(struct tree_watch *tw, const struct owners_tree *tree, size_t row, const char *type,
		      const char *line)
{
	struct owners_buf out = OWNERS_BUF_INIT;
	int rc = 0;

	if (tw->document) {
		struct owners_render render;

		rc = render_setup(tw, &render, tree, NULL, 0, 0);
		if (!rc)
			rc = owners_tree_render_event_json(&out, &render, row, type, 1);
		if (!rc)
			rc = output_document(&out, tw->yaml) ? OWNERS_EIO : 0;
	} else if (tw->names) {
		rc = owners_graph_node_name(&out, &tw->s->graph->nodes[tree->rows[row].node]);
		if (!rc)
			printf("%s\n", out.ptr);
	} else {
		size_t len = strlen(line);

		while (len && line[len - 1] == ' ')
			len--;
		printf("%-9s%.*s\n", type, (int)len, line);
	}
	owners_buf_clear(&out);
	fflush(stdout);
	return rc;
}

/* The line the last frame drew for row i of the last tree ("" when it
 * was not rendered: below the window). */
static const char *shown_line(const struct tree_watch *tw, size_t i)
{
	return tw->shown_header + i < tw->n_shown_lines ? tw->shown_lines[tw->shown_header + i] : "";
}

/* Compares the tree now with the last frame: marks (terminal) or change
 * lines (otherwise); then remembers this frame's rows (its lines are kept
 * by keep_lines(), after they are drawn). */
static int diff(struct tree_watch *tw, struct owners_tree *tree, char **lines, size_t n_lines, size_t header)
{
	struct owners_buf sig = OWNERS_BUF_INIT;
	size_t count = tw->s->graph->count, i, n_status = 0;
	uint64_t *now = calloc(count ? count : 1, sizeof(*now));
	int rc = 0;

	/* The status array is looked up once a frame, not once a row. */
	const struct owners_object_status *st = owners_watch_status(tw->w, &n_status);

	if (!now || !st) {
		free(now);
		return OWNERS_ENOMEM;
	}
	for (i = 0; !rc && i < tree->count; i++)
		rc = signature(&sig, tw, &tree->rows[i], st, n_status, &now[tree->rows[i].node]);
	/* Rows that left, deepest first: within one frame, dependents go
	 * before their owners, as the garbage collector removes them. */
	for (i = tw->tree.count; !rc && tw->frames && i-- > 0;) {
		uint32_t node = tw->tree.rows[i].node;
		const char *uid = tw->s->graph->nodes[node].uid;

		if (now[node])
			continue;
		if (tw->tty)
			rc = *shown_line(tw, i) ? mark(tw, uid, MARK_GOING, shown_line(tw, i), i) : 0;
		else
			rc = say_change(tw, &tw->tree, i, "DELETED", shown_line(tw, i));
	}
	for (i = 0; !rc && tw->frames && i < tree->count; i++) {
		uint32_t node = tree->rows[i].node;
		uint64_t was = node < tw->n_shown ? tw->shown[node] : 0;
		const char *type = !was ? "ADDED" : was != now[node] ? "MODIFIED" : NULL;

		if (!type)
			continue;
		if (tw->tty)
			rc = mark(tw, tw->s->graph->nodes[node].uid, *type == 'A' ? MARK_ADDED : MARK_CHANGED, NULL, 0);
		else
			rc = say_change(tw, tree, i, type, header + i < n_lines ? lines[header + i] : "");
	}
	owners_buf_clear(&sig);
	if (rc) {
		free(now);
		return rc;
	}
	free(tw->shown);
	tw->shown = now;
	tw->n_shown = count;
	return 0;
}

/* This frame's lines, for the rows that leave in the next one. */
static void keep_lines(struct tree_watch *tw, char ***lines, size_t *n_lines, size_t header)
{
	lines_free(tw->shown_lines, tw->n_shown_lines);
	tw->shown_lines = *lines;
	tw->n_shown_lines = *n_lines;
	tw->shown_header = header;
	*lines = NULL;
	*n_lines = 0;
}

/* ---- the terminal view ------------------------------------------------ */

static const char *mark_text(enum mark m, int color)
{
	static const char *const plain[] = { "  ", "+ ", "~ ", "- " };
	static const char *const coloured[] = { "  ", "\x1b[32m+\x1b[0m ", "\x1b[33m~\x1b[0m ",
						"\x1b[31m-\x1b[0m " };

	return color ? coloured[m] : plain[m];
}

/* Moves b's text to the end of lines v (b is left empty). */
static int push_line(char ***v, size_t *n, size_t *cap, struct owners_buf *b)
{
	return owners_strv_push(v, n, cap, owners_buf_detach(b));
}

/* Title, warnings, then the table with a mark before each row; rows that
 * went stay a moment where they were, struck through. */
static int draw(struct tree_watch *tw, const struct owners_tree *tree, char **lines, size_t n_lines,
		size_t header)
{
	struct owners_buf b = OWNERS_BUF_INIT;
	char **out = NULL;
	size_t n = 0, cap = 0, i, g, skipped = 0;
	int color = output_color(), rows, cols, rc;
	struct owners_watch_stats stats;

	screen_size(&rows, &cols);
	owners_watch_get_stats(tw->w, &stats);
	rc = owners_buf_addf(&b, "%sowners tree", color ? "\x1b[1m" : "");
	for (i = 0; !rc && i < tw->n_objs; i++)
		rc = tw->objs[i].name ? owners_buf_addf(&b, " %s/%s", tw->objs[i].type, tw->objs[i].name)
				      : owners_buf_addf(&b, " %s", tw->objs[i].type);
	if (!rc)
		rc = owners_buf_addf(&b, "%s  %s · watching %zu type%s · %zu change%s · Ctrl-C ends",
				     color ? "\x1b[0m" : "", tw->all ? "all namespaces" : tw->s->namespace_,
				     stats.watches, stats.watches == 1 ? "" : "s", stats.events,
				     stats.events == 1 ? "" : "s");
	if (!rc)
		rc = push_line(&out, &n, &cap, &b);
	for (i = 0; !rc && i < tw->n_warnings; i++)
		if (!(rc = owners_buf_addf(&b, "%swarning: %s%s", color ? "\x1b[33m" : "", tw->warnings[i],
					   color ? "\x1b[0m" : "")))
			rc = push_line(&out, &n, &cap, &b);
	if (!rc && !tree->count && !n_lines && (rc = owners_buf_adds(&b, "  (nothing to show yet)")) == 0)
		rc = push_line(&out, &n, &cap, &b);
	for (i = 0; !rc && i < header && i < n_lines; i++)
		if (!(rc = owners_buf_addf(&b, "  %s", lines[i])))
			rc = push_line(&out, &n, &cap, &b);
	for (i = 0, g = 0; !rc && i <= tree->count; i++) {
		const struct marked *m;

		if (n > (size_t)rows) {
			/* Below the window: counted, not drawn. */
			skipped = tree->count - i;
			break;
		}

		/* Rows that went, at the place they had. */
		for (; !rc && g < tw->n_marks; g++) {
			m = &tw->marks[g];
			if (m->mark != MARK_GOING || !m->line || m->at != i)
				continue;
			if (!(rc = owners_buf_addf(&b, "%s%s%s%s", mark_text(MARK_GOING, color), color ? "\x1b[9;2m" : "",
						   m->line, color ? "\x1b[0m" : "")))
				rc = push_line(&out, &n, &cap, &b);
		}
		g = 0;
		if (i == tree->count || rc)
			break;
		m = find_mark(tw, tw->s->graph->nodes[tree->rows[i].node].uid);
		if (!(rc = owners_buf_addf(&b, "%s%s", mark_text(m ? m->mark : MARK_NONE, color),
					   header + i < n_lines ? lines[header + i] : "")))
			rc = push_line(&out, &n, &cap, &b);
	}
	/* Going rows past the end of a shorter tree. */
	for (g = 0; !rc && g < tw->n_marks; g++)
		if (tw->marks[g].mark == MARK_GOING && tw->marks[g].line && tw->marks[g].at > tree->count &&
		    !(rc = owners_buf_addf(&b, "%s%s", mark_text(MARK_GOING, color), tw->marks[g].line)))
			rc = push_line(&out, &n, &cap, &b);
	if (!rc && n > (size_t)rows && rows > 1) {
		/* Too short a window: the last line says how much is below. */
		size_t hidden = n - (size_t)rows + 1 + skipped;

		free(out[rows - 1]);
		out[rows - 1] = NULL;
		rc = owners_buf_addf(&b, "  ... %zu more row%s (a taller window shows them)", hidden,
				     hidden == 1 ? "" : "s");
		if (!rc && !(out[rows - 1] = owners_buf_detach(&b)))
			rc = OWNERS_ENOMEM;
		for (i = (size_t)rows; i < n; i++)
			free(out[i]);
		n = (size_t)rows;
	}
	(void)cols;
	if (!rc && screen_draw(out, n))
		rc = OWNERS_EIO;
	lines_free(out, n);
	owners_buf_clear(&b);
	return rc;
}

/* ---- --until ---------------------------------------------------------- */

/* Every object of the tree is there, not in deletion, and ready as its
 * kind says (object_status.h); *first: the first that is not. */
static int tree_ready(struct tree_watch *tw, const struct owners_tree *tree, uint32_t *first)
{
	size_t count = 0, i;
	const struct owners_object_status *st = owners_watch_status(tw->w, &count);

	*first = OWNERS_NO_NODE;
	if (!tw->roots.count || !st)
		return 0;
	for (i = 0; i < tree->count; i++) {
		uint32_t node = tree->rows[i].node;
		const struct owners_node *n = &tw->s->graph->nodes[node];
		int ok;

		if (n->virtual_) /* an owner not found (up), or a root gone */
			ok = !tree->rows[i].depth ? 0 : tree->up;
		else if (n->deleted)
			ok = 0;
		else if (n->resource && n->resource->has_status)
			ok = node < count && st[node].ready && st[node].is_ready;
		else
			ok = 1;
		if (!ok) {
			*first = node;
			return 0;
		}
	}
	return 1;
}

/* The roots and everything that hung from them are gone. */
static int tree_gone(struct tree_watch *tw, const struct owners_tree *tree, uint32_t *first)
{
	size_t i;

	*first = OWNERS_NO_NODE;
	for (i = 0; i < tree->count; i++)
		if (!tw->s->graph->nodes[tree->rows[i].node].virtual_) {
			*first = tree->rows[i].node;
			return 0;
		}
	return 1;
}

/* ---- the loop ---------------------------------------------------------- */

static void on_warning(void *ctx, const char *line)
{
	struct tree_watch *tw = ctx;
	size_t i;

	for (i = 0; i < tw->n_warnings; i++)
		if (!strcmp(tw->warnings[i], line))
			return; /* said once */
	if (!tw->tty) {
		warning_msg("%s", line);
		return;
	}
	/* On the view: its own lines, the three latest. */
	if (tw->n_warnings == 3) {
		free(tw->warnings[0]);
		memmove(tw->warnings, tw->warnings + 1, 2 * sizeof(*tw->warnings));
		tw->n_warnings--;
	}
	(void)owners_strv_push(&tw->warnings, &tw->n_warnings, &tw->cap_warnings, owners_strdup(line));
}

/* The tree now: roots, rows, what changed, and the view or the lines. */
static int frame(struct tree_watch *tw)
{
	struct owners_tree tree = { NULL, 0, 0, 0 };
	char **lines = NULL;
	size_t n_lines = 0, header = tw->s->cli->table.no_headers ? 0 : 1;
	int rc;

	rc = find_roots(tw);
	if (!rc)
		rc = owners_tree_build(&tree, tw->s->graph, tw->roots.nodes, tw->roots.count, tw->s->cli->tree.up,
				       (int)tw->s->cli->tree.depth);
	if (!rc && !tw->document && !tw->names) {
		/* On a terminal only what fits the window is rendered: a tree
		 * of 10,000 rows costs a screenful per redraw, not 10,000. */
		struct owners_tree shown = tree;
		int rows, cols;

		if (tw->tty) {
			screen_size(&rows, &cols);
			if (shown.count > (size_t)rows)
				shown.count = (size_t)rows;
		}
		rc = render_lines(tw, &shown, tw->tty ? output_color() : 0, &lines, &n_lines);
	}
	if (!rc && !tw->frames && !tw->tty) {
		/* The first tree whole, as tree prints it. */
		size_t i;

		if (tw->document || tw->names) {
			struct owners_render render;
			struct owners_buf out = OWNERS_BUF_INIT;

			rc = render_setup(tw, &render, &tree, NULL, 0, 0);
			if (!rc)
				rc = tw->names ? owners_tree_render_names(&out, &render)
					       : owners_tree_render_json(&out, &render);
			if (!rc && tw->names)
				fputs(out.ptr ? out.ptr : "", stdout);
			else if (!rc)
				rc = output_document(&out, tw->yaml) ? OWNERS_EIO : 0;
			owners_buf_clear(&out);
		} else {
			for (i = 0; i < n_lines; i++)
				printf("%s\n", lines[i]);
		}
		fflush(stdout);
	}
	if (!rc)
		rc = diff(tw, &tree, lines, n_lines, header);
	if (!rc && tw->tty)
		rc = draw(tw, &tree, lines, n_lines, header);
	keep_lines(tw, &lines, &n_lines, header);
	lines_free(lines, n_lines);
	owners_tree_clear(&tw->tree);
	tw->tree = tree;
	tw->frames++;
	return rc;
}

/* Once the graph's arena holds more strings left behind by updates than
 * live ones, it is copied anew (memory stays flat through hours of
 * churn); the last frame's tree points into the old strings, so it is
 * built again, from the same roots. */
static int compact(struct tree_watch *tw)
{
	struct owners_graph *g = tw->s->graph;
	struct owners_tree again = { NULL, 0, 0, 0 };
	int rc;

	if (g->edits < (size_t)g->count + 4096)
		return 0;
	/* Node indexes outlive the copy: the frame's roots stay valid. */
	if ((rc = owners_graph_compact(g)))
		return rc;
	rc = owners_tree_build(&again, g, tw->roots.nodes, tw->roots.count, tw->s->cli->tree.up,
			       (int)tw->s->cli->tree.depth);
	owners_tree_clear(&tw->tree);
	tw->tree = again;
	return rc;
}

/* The sooner of two waits in ms (-1: none); a wait already due is 0,
 * never -1 (which would wait for the next event). */
static int64_t earliest(int64_t wake, int64_t in)
{
	if (in < 0)
		in = 0;
	return wake < 0 || in < wake ? in : wake;
}

/* When the next frame is due for the clock alone: ages shown in seconds
 * move each second, older ones each minute; marks fade. */
static int64_t next_tick(const struct tree_watch *tw, int64_t now)
{
	int64_t next = -1, wall = (int64_t)time(NULL);
	size_t i;
	int rows, cols;

	if (!tw->tty)
		return -1;
	/* Only the ages on the screen matter. */
	screen_size(&rows, &cols);
	for (i = 0; i < tw->n_marks; i++)
		if (next < 0 || tw->marks[i].until_ms < next)
			next = tw->marks[i].until_ms;
	for (i = 0; i < tw->tree.count && i < (size_t)rows; i++) {
		const struct owners_node *n = &tw->s->graph->nodes[tw->tree.rows[i].node];
		int64_t step = n->created && wall - n->created < 600 ? 1000 : 60000;

		if (next < 0 || now + step < next)
			next = now + step;
	}
	return next;
}

static enum exit_code say_outcome(struct tree_watch *tw, const char *until, int reached, uint32_t first)
{
	struct owners_buf name = OWNERS_BUF_INIT;
	long secs = (long)((now_ms() - tw->started_ms) / 1000);

	if (reached) {
		fprintf(stderr, "%s after %lds\n", !strcmp(until, "ready") ? "every object of the tree is ready"
									   : "the tree is gone", secs);
		return EXIT_OK;
	}
	if (first != OWNERS_NO_NODE)
		owners_graph_node_name(&name, &tw->s->graph->nodes[first]);
	error_msg("timed out after %lds waiting for the tree to be %s%s%s", secs, until,
		  name.len ? ": " : "", name.len ? name.ptr : "");
	if (name.len && !strcmp(until, "ready"))
		fprintf(stderr, "  (%s is not %s yet)\n", name.ptr,
			tw->s->graph->nodes[first].virtual_ ? "there" : "ready");
	owners_buf_clear(&name);
	return EXIT_TIMEOUT;
}

/* READY/STATUS of the first tree, as tree fetches it; after that the
 * full-object watches keep it. A fetch that fails leaves "-". */
static int first_status(struct tree_watch *tw)
{
	struct session *s = tw->s;
	struct owners_status_fetch_options so = { s->cli->chunk_size, 0 };
	struct owners_error err = OWNERS_ERROR_INIT;
	struct owners_tree first = { NULL, 0, 0, 0 };
	struct owners_object_status *st;
	uint32_t *nodes = NULL;
	size_t count = 0, i;
	int rc;

	if ((rc = owners_watch_service(tw->w, &err)) == 0 && (rc = find_roots(tw)) == 0 &&
	    (rc = owners_tree_build(&first, s->graph, tw->roots.nodes, tw->roots.count, s->cli->tree.up,
				    (int)s->cli->tree.depth)) == 0 &&
	    prints_status(tw) && (st = owners_watch_status(tw->w, &count)) &&
	    (nodes = calloc(first.count + 1, sizeof(*nodes)))) {
		for (i = 0; i < first.count; i++)
			nodes[i] = first.rows[i].node;
		owners_status_fetch(st, s->graph, &(const struct owners_node_list){ nodes, first.count },
				    s->http, &so, &err);
	}
	owners_error_clear(&err);
	free(nodes);
	owners_tree_clear(&first);
	return rc;
}

/* Everything a watch needs before its first frame: the targets of the
 * arguments, the watches (with a selector's own), READY/STATUS of the
 * first tree. 0, or an error code (OWNERS_ENOMEM; else said already). */
static int tree_watch_open(struct tree_watch *tw)
{
	struct session *s = tw->s;
	const struct owners_selection_scope scope = {
		.namespace_ = s->namespace_,
		.all_namespaces = s->cli->all_namespaces,
		.selector = s->cli->selector,
	};
	struct owners_watch_options wo;
	struct owners_error err = OWNERS_ERROR_INIT;
	size_t i;
	int rc;

	memset(&wo, 0, sizeof(wo));
	session_scan_options(s, &wo.list);
	wo.list.on_listed = NULL;
	wo.warn = on_warning;
	wo.warn_ctx = tw;
	/* The arguments were checked by the first selection: this cannot
	 * fail but for memory. */
	rc = owners_selection_targets(&tw->targets, &tw->n_targets, tw->args, tw->n_objs, &scope, &err);
	owners_error_clear(&err);
	if (rc || owners_watch_new(&tw->w, s->graph, s->http, &s->types, &wo))
		return OWNERS_ENOMEM;
	for (i = 0; i < tw->n_targets; i++) {
		const struct owners_selection_target *t = &tw->targets[i];

		if (!t->name && s->cli->selector &&
		    owners_watch_add(tw->w, t->type, t->type->namespaced && !tw->all ? s->namespace_ : NULL,
				     NULL, 0, s->cli->selector))
			return OWNERS_ENOMEM;
	}
	if (watch_types(tw))
		return OWNERS_ENOMEM;
	return first_status(tw);
}

/* Frames until Ctrl-C, --until's state or the deadline; *reached and
 * *timed_out say which. Returns 0 or the exit code. */
static int tree_watch_loop(struct tree_watch *tw, int64_t deadline, int *reached, int *timed_out, int *quit)
{
	const char *until = tw->s->cli->tree.until;
	int rc = 0, dirty = 1;

	for (;;) {
		struct owners_error err = OWNERS_ERROR_INIT;
		int64_t now = now_ms(), wake = -1, tick;
		int resized = 0, changed;
		uint32_t first;

		if (dirty && now - tw->last_frame_ms >= FRAME_MS) {
			if ((rc = marks_expire(tw, now)) || (rc = frame(tw)) || (rc = compact(tw)))
				return rc == OWNERS_EIO ? EXIT_ERROR : error_oom();
			tw->last_frame_ms = now;
			dirty = 0;
			if (until && (!strcmp(until, "ready") ? tree_ready(tw, &tw->tree, &first)
							       : tree_gone(tw, &tw->tree, &first))) {
				*reached = 1;
				return 0;
			}
		}
		if (deadline >= 0 && now >= deadline) {
			*timed_out = 1;
			return 0;
		}
		/* Sleep until an event, a signal, a timer of the watches, the
		 * next frame (when one is held back), the clock or the end. */
		if (dirty)
			wake = earliest(wake, tw->last_frame_ms + FRAME_MS - now);
		if ((tick = next_tick(tw, now)) >= 0)
			wake = earliest(wake, tick - now);
		if (owners_watch_next_ms(tw->w) >= 0)
			wake = earliest(wake, owners_watch_next_ms(tw->w));
		if (deadline >= 0)
			wake = earliest(wake, deadline - now);
		if (owners_http_wait(tw->s->http, wake < 0 ? -1 : wake, signals_fd(), &err) ||
		    owners_watch_service(tw->w, &err)) {
			screen_close();
			error_msg("%s", owners_error_message(&err));
			owners_error_clear(&err);
			return EXIT_ERROR;
		}
		signals_take(&resized, quit);
		if (*quit)
			return 0;
		/* A change can bring a reference to a type not watched yet. */
		if ((changed = owners_watch_take_changes(tw->w)) < 0 || (changed && watch_types(tw)))
			return error_oom();
		if (tick >= 0 && now_ms() >= tick)
			dirty = 1;
		dirty |= changed || resized;
	}
}

/* --until's outcome: the tree reached stays on the terminal (the view
 * went with the alternate screen); the exit code. */
static enum exit_code tree_watch_outcome(struct tree_watch *tw, int reached)
{
	const char *until = tw->s->cli->tree.until;
	uint32_t first = OWNERS_NO_NODE;
	size_t i;

	if (!reached)
		(void)(!strcmp(until, "ready") ? tree_ready(tw, &tw->tree, &first)
					       : tree_gone(tw, &tw->tree, &first));
	if (tw->tty && reached) {
		char **lines = NULL;
		size_t n = 0;

		if (!render_lines(tw, &tw->tree, output_color(), &lines, &n))
			for (i = 0; i < n; i++)
				printf("%s\n", lines[i]);
		lines_free(lines, n);
		fflush(stdout);
	}
	return say_outcome(tw, until, reached, first);
}

static void tree_watch_clear(struct tree_watch *tw)
{
	size_t i;

	/* Watches still in flight are the client's: it lets go of them
	 * before the watch that owns their requests is freed. */
	owners_http_client_free(tw->s->http);
	tw->s->http = NULL;
	owners_watch_free(tw->w);
	owners_tree_clear(&tw->tree);
	free(tw->shown);
	lines_free(tw->shown_lines, tw->n_shown_lines);
	for (i = 0; i < tw->n_marks; i++) {
		free(tw->marks[i].uid);
		free(tw->marks[i].line);
	}
	free(tw->marks);
	for (i = 0; i < tw->n_warnings; i++)
		free(tw->warnings[i]);
	free(tw->warnings);
	owners_strset_clear(&tw->root_uids);
	owners_strset_clear(&tw->mark_index);
	owners_selection_targets_free(tw->targets);
	owners_selection_clear(&tw->roots);
}

int tree_watch_run(struct session *s, const struct owners_object_arg *objs,
		   const struct owners_selection_arg *args, size_t n_objs, const char *format, int all,
		   struct tree_listed *listed)
{
	struct tree_watch tw;
	const char *until = s->cli->tree.until;
	int64_t deadline = -1;
	int rc, quit = 0, reached = 0, timed_out = 0;

	memset(&tw, 0, sizeof(tw));
	tw.s = s;
	tw.objs = objs;
	tw.args = args;
	tw.n_objs = n_objs;
	tw.format = format;
	tw.all = all;
	tw.listed = listed;
	tw.document = !strcmp(format, "json") || !strcmp(format, "yaml");
	tw.yaml = !strcmp(format, "yaml");
	tw.names = !strcmp(format, "name");
	tw.tty = !tw.document && !tw.names && isatty(STDOUT_FILENO);
	tw.started_ms = now_ms();
	owners_strset_init(&tw.root_uids);
	owners_strset_init(&tw.mark_index);
	if ((rc = tree_watch_open(&tw))) {
		rc = error_oom();
	} else if (signals_open() || (tw.tty && screen_open())) {
		error_msg("cannot watch: %s", strerror(errno));
		rc = EXIT_ERROR;
	} else {
		if (until && s->cli->timeout_ms > 0)
			deadline = tw.started_ms + s->cli->timeout_ms;
		rc = tree_watch_loop(&tw, deadline, &reached, &timed_out, &quit);
		screen_close();
		if (quit)
			signals_die(quit);
		if (!rc && until && (reached || timed_out))
			rc = tree_watch_outcome(&tw, reached);
	}
	screen_close();
	tree_watch_clear(&tw);
	return rc;
}
