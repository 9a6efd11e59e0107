/*
 * owners tree --watch / --until (cmd/tree_watch.c: the watches, the
 * clock, the signals and the frames; the view of each frame is
 * cmd/tree_view.c, --until's states lib/graph/tree_state.c), entered from
 * cmd_tree once the scan is made: the types the scan listed, with the
 * resourceVersion of each list, are where the watches start.
 */
#ifndef OWNERS_CMD_TREE_WATCH_H
#define OWNERS_CMD_TREE_WATCH_H

#include "object_args.h"
#include "listed_types.h"
#include "session.h"
#include "tree_options.h"

/* What cmd_tree hands the watch, borrowed for its run. */
struct tree_watch_args {
	const struct owners_object_arg *objs;    /* as typed (the title says them) */
	const struct owners_selection_arg *args; /* their types resolved */
	size_t n_objs;
	enum output_kind kind;                   /* tree (text), wide, json, yaml or name */
	const struct owners_print_options *print;/* -o wide, --no-headers, -L... */
	const struct tree_options *opts;         /* --up, --depth, --until, --timeout */
	int all;                                 /* the scan was of every namespace */
	struct listed_types *listed;              /* where the watches start */
};

/* Runs the watch until Ctrl-C, --until's state or its --timeout; the
 * exit code. Lets go of the session's HTTP client on the way out
 * (session_disconnect()). */
enum exit_code tree_watch_run(struct session *s, const struct tree_watch_args *a);

#endif
