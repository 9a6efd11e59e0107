/*
 * The Graphviz DOT pieces `graph -o dot` and `tree -o dot` write alike:
 * the document's head, an object as a box labelled with its kind,
 * namespace and name (red and dashed when it does not exist, khaki while
 * in deletion), and an ownerReference as an edge from owner to dependent
 * (bold for a controller, red and dashed when it does not resolve). An
 * object a tree's cascade would keep is drawn with a double border and
 * its note ("kept: why") under its name, as the text tree's NOTES say it.
 *
 * Ownership: appends to the caller's buffer; nodes are borrowed.
 */
#ifndef OWNERS_NODE_DOT_H
#define OWNERS_NODE_DOT_H

#include "buf.h"
#include "graph.h"

#define OWNERS_NODE_DOT_HEAD                                                                       \
	"digraph owners {\n  rankdir=LR;\n  node [shape=box, fontname=\"Helvetica\"];\n"
#define OWNERS_NODE_DOT_TAIL "}\n"

int owners_node_dot(struct owners_buf *out, const struct owners_node *n);
/* The same, marked as kept by a cascade; why is the tree's note ("kept: ..."). */
int owners_node_dot_kept(struct owners_buf *out, const struct owners_node *n, const char *why);
/* A relation: a dashed edge from user to used, labelled how. */
int owners_node_dot_use_edge(struct owners_buf *out, const struct owners_node *user,
			     const struct owners_node *used, const char *how);
int owners_node_dot_edge(struct owners_buf *out, const struct owners_node *owner,
			 const struct owners_node *dependent, int controller, int resolved);

#endif
