/*
 * What `owners tree --until` waits for, read off a tree and the READY of
 * its objects: every object ready, or everything gone. Pure: no watch, no
 * clock, no server; the watch loop asks after each frame.
 *
 * Ownership: everything is borrowed from the caller for the call; nothing
 * is kept.
 */
#ifndef OWNERS_TREE_STATE_H
#define OWNERS_TREE_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "graph.h"
#include "object_status.h"
#include "tree.h"

/* Whether every object of tree is there, not in deletion, and ready as
 * its kind says (owners_object_status.is_ready, for types with a status;
 * others are ready by being there). An owner not found is ready only on
 * the way up (tree->up: owners the cluster never had do not hold a
 * rollout up); a root that is gone never is. An empty tree, or no status
 * (status NULL), is not ready.
 *
 * status: per node index, n_status of them (a node past the end has no
 * READY yet). *first: the deepest row's node that is not ready (the first
 * of them in the tree's order), or OWNERS_NO_NODE: a StatefulSet waits for
 * its Pod, which waits for its claim; the one at the bottom is the one to
 * look at. Returns 1 or 0 (it cannot fail). */
int owners_tree_state_ready(uint32_t *first, const struct owners_graph *g,
			    const struct owners_tree *tree,
			    const struct owners_object_status *status, size_t n_status);

/* The objects that hold the tree up: each row not ready with nothing
 * below it (in its subtree) not ready, each object once, in the tree's
 * order: the four Pending Pods of a Deployment, not the Deployment and
 * ReplicaSet that wait for them. nodes: tree->count entries, the
 * caller's. Returns how many were written; 0 when no status (as
 * owners_tree_state_ready(), the tree is then not ready, but no row is to
 * blame) or the tree is ready. */
size_t owners_tree_state_not_ready_holders(uint32_t *nodes, const struct owners_graph *g,
					   const struct owners_tree *tree,
					   const struct owners_object_status *status,
					   size_t n_status);

/* Why node is not ready, appended to out: "not there", "in deletion", "no
 * status read yet", or its STATUS with its READY ("Pending", "Running
 * (READY 0/1)"), else "not ready". 0, or OWNERS_ENOMEM. */
int owners_tree_state_not_ready_why(struct owners_buf *out, const struct owners_graph *g,
				    uint32_t node, const struct owners_object_status *status,
				    size_t n_status);

/* Whether the roots and everything that hung from them are gone: no row
 * of tree is an object the graph has observed (a root that went keeps
 * its row, virtual, while dependents remain). An empty tree is gone.
 * *first: the first row's node still there, or OWNERS_NO_NODE. Returns 1
 * or 0 (it cannot fail). */
int owners_tree_state_gone(uint32_t *first, const struct owners_graph *g,
			   const struct owners_tree *tree);

#endif
