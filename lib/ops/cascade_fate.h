/*
 * What a cascading delete from a tree's roots would do to each of its
 * rows, planned by the planner `owners delete` uses (cascade.c), so that
 * `owners tree` says which rows the cascade keeps and why, and its -o
 * name lists exactly what the cascade deletes.
 *
 * Ownership: the fates array and its messages are the caller's, freed
 * with owners_cascade_fates_free(); the graph and tree are borrowed.
 */
#ifndef OWNERS_CASCADE_FATE_H
#define OWNERS_CASCADE_FATE_H

#include <stdint.h>

#include "graph.h"
#include "tree.h"

/* *out: one fate per node of g (g->count), for a background cascade (as
 * kubectl delete's default) from the tree's roots (its rows at depth 0),
 * all at once, as `owners delete` plans several named objects; a row's
 * fate says why the cascade keeps it, or nothing when it deletes it. A
 * node outside the tree, or not there (an owner not found), has no
 * reason. 0, or OWNERS_ENOMEM with *out NULL. */
int owners_cascade_fates_new(struct owners_tree_fate **out, struct owners_graph *g,
			     const struct owners_tree *t);
void owners_cascade_fates_free(struct owners_tree_fate *fates, uint32_t count);

#endif
