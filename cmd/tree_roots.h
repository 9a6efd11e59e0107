/*
 * The roots of a watched tree (owners tree --watch / --until), found
 * again each frame in the graph as the watches keep it: the arguments'
 * targets, what -l's own watch says matches now, and every root seen
 * once that went while what hung from it is still there.
 *
 * Ownership: struct tree_roots owns its targets, its selection and the
 * UIDs it saw (tree_roots_clear() frees them); it borrows the arguments
 * it was opened with, the graph and the watch.
 */
#ifndef OWNERS_CMD_TREE_ROOTS_H
#define OWNERS_CMD_TREE_ROOTS_H

#include <stddef.h>

#include "object_args.h"
#include "selection.h"
#include "strset.h"
#include "watch.h"

struct tree_roots {
	struct owners_selection_target *targets; /* where each argument is */
	size_t n_targets;
	struct owners_selection now;             /* this frame's */
	struct owners_strset seen;               /* every root seen (UID -> its name): --until=gone follows them */
	char **seen_order;                       /* their UIDs, in the order first seen */
	size_t n_seen, cap_seen;
	/* This frame's: the names of the roots seen once that are gone with
	 * nothing left hanging from them ("deployment.apps/web"), in the
	 * order they were first seen. The view says "NAME was deleted"
	 * rather than that there is nothing to show yet. */
	char **gone;
	size_t n_gone, cap_gone;
};

/* The targets of args (checked by the first selection already). 0, or
 * OWNERS_ENOMEM. */
int tree_roots_open(struct tree_roots *r, const struct owners_selection_arg *args, size_t n_args,
		    const struct owners_selection_scope *scope);
void tree_roots_clear(struct tree_roots *r);

/* The roots in g as it is now, into r->now, and the roots gone, into
 * r->gone. A named object not there
 * (yet, or any more) is no error: the watch goes on. selector: -l (the
 * objects w's selector watch says match), or NULL. 0, or OWNERS_ENOMEM. */
int tree_roots_find(struct tree_roots *r, struct owners_graph *g, const struct owners_watch *w,
		    const char *selector);

/* When every argument is a TYPE alone (owners tree all, tree pods -l
 * app=web), the selected objects that hang below others selected are
 * shown under them, not again as roots (owners_tree_fold_roots()); named
 * objects stay roots, as named. 0, or OWNERS_ENOMEM. */
int tree_roots_fold(struct owners_selection *sel, struct owners_graph *g,
		    const struct owners_object_arg *objs, size_t n_objs, int up);

#endif
