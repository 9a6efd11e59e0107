/*
 * One run of tree --watch, shared by its loop (tree_watch.c) and --until
 * (tree_until.c).
 */
#ifndef OWNERS_CMD_TREE_WATCH_STATE_H
#define OWNERS_CMD_TREE_WATCH_STATE_H

#include <stdint.h>

#include "output.h"
#include "session.h"
#include "tree.h"
#include "tree_roots.h"
#include "tree_view.h"
#include "tree_watch.h"
#include "watch.h"

/* At most this many redraws (or batches of lines) a second. */
#define FRAME_MS 100

/* One run of the watch: what it was asked, the watches, the last frame's
 * tree and the view of it. */
struct tree_watch {
	struct session *s;
	const struct tree_watch_args *a;
	enum owners_until until;
	int tty;                         /* the form: a terminal */
	struct output_format format;     /* else -o's: text, wide, json, yaml or name */
	struct owners_watch *w;
	struct tree_roots roots;
	struct owners_tree tree;         /* the last frame's */
	const struct owners_tree *next;  /* the frame's, while the view compares */
	struct tree_view view;
	char *what;                      /* the title's arguments */
	int64_t started_ms, last_frame_ms;
	size_t frames;
};


/* Whether the last frame's tree is in --until's state; *first: the first
 * object that keeps it from it. */
int tree_watch_until_reached(struct tree_watch *tw, uint32_t *first);
/* --until's outcome, said; the exit code. */
enum exit_code tree_watch_outcome(struct tree_watch *tw, int reached);

#endif
