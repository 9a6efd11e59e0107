/*
 * Trees over the owner graph, as `owners tree` prints them: the
 * dependents of some roots (or, with up, their owners, recursively), in
 * depth-first order, cycle-safe, and rendered to text, JSON, YAML, dot or
 * names into a buffer (lib never prints).
 *
 * Ownership: a tree owns its rows; it borrows the graph.
 */
#ifndef OWNERS_TREE_H
#define OWNERS_TREE_H

#include <stddef.h>
#include <stdint.h>

#include "print_options.h"
#include "buf.h"
#include "graph.h"
#include "object_status.h"
#include "relations.h"

struct owners_tree_row {
	uint32_t node;
	uint32_t depth;
	/* The reference that links this row to its parent row: the child's
	 * reference to the parent (down) or this node's owner reference (up).
	 * NULL for roots. */
	const struct owners_ref *via;
	uint32_t via_from;             /* the node that holds `via` */
	enum owners_ref_class via_class;
	unsigned cycle : 1;            /* already on the path: not expanded again */
	unsigned last : 1;             /* last child of its parent */
	unsigned cut : 1;              /* has children beyond --depth */
	/* A relation, not a reference, links this row to its parent: down,
	 * the parent uses it (node OWNERS_NO_NODE when it does not exist);
	 * up, it uses the parent. relation indexes the tree's rel->items. */
	unsigned related : 1;
	size_t relation;
	/* Every relation of the parent and this row's object, relation the
	 * first: n_relations indexes of rel->items. */
	const size_t *relations;
	uint32_t n_relations;
};

struct owners_tree {
	struct owners_tree_row *rows;
	size_t count;
	size_t cap;
	int up;
	/* The relations the tree was built with (NULL: ownership only). */
	const struct owners_relations *rel;
};

/* Folds roots that hang below other roots: a root reached from another
 * root (its dependents, recursively; its owners with up) is dropped, for
 * it shows under that one. Roots that reach each other only round a cycle
 * keep the first of them. What a TYPE alone selects (owners tree all:
 * Deployments, their ReplicaSets and their Pods) then shows each object
 * once. The order of the roots kept is theirs. 0, or OWNERS_ENOMEM (roots
 * untouched). */
int owners_tree_fold_roots(uint32_t *roots, size_t *n, struct owners_graph *g, int up);

/* max_depth < 0: unlimited. Roots are node indexes. */
int owners_tree_build(struct owners_tree *t, struct owners_graph *g, const uint32_t *roots,
		      size_t n_roots, int up, int max_depth);
/* The same, with relations (tree --related): down, each row is followed
 * by what it uses (leaves, a missing object included); up, each root by
 * its users, each with its own owners up to the roots. rel resolved, and
 * borrowed by the tree. */
int owners_tree_build_related(struct owners_tree *t, struct owners_graph *g,
			      const struct owners_relations *rel, const uint32_t *roots,
			      size_t n_roots, int up, int max_depth);
void owners_tree_clear(struct owners_tree *t);

/* What a cascading delete from a tree's roots does to one object, as the
 * caller's planner decides it (lib/ops/cascade_fate.c: the graph layer
 * cannot plan). reason NULL: the cascade deletes it; else a word for
 * documents ("AnotherOwner") and message the words for NOTES ("kept:
 * ConfigMap/keeper owns it too"). */
struct owners_tree_fate {
	const char *reason;
	char *message;
};

struct owners_render {
	struct owners_graph *g;
	const struct owners_tree *tree;
	/* READY/STATUS per node index (entries may be empty); may be NULL. */
	const struct owners_object_status *status;
	/* per node index (the graph's count); NULL: not said (--up, a
	 * watch). Set: NOTES and documents say which rows the cascade keeps
	 * and why, and -o name lists only the rows it deletes. */
	const struct owners_tree_fate *fates;
	/* wide: adds REFERENCE and UID, and the group to NAME */
	struct owners_print_options print;
};

int owners_tree_render_text(struct owners_buf *out, const struct owners_render *r);
/* {apiVersion, kind: OwnersTree, metadata, items, warnings}: every row an
 * item, depth first (as kubectl lists objects: {.items[*]...} reaches
 * them all), its owners.depth and owners.owner (owners.dependent with up)
 * the row it hangs from. */
int owners_tree_render_json(struct owners_buf *out, const struct owners_render *r);
/* One row as a watch event ({apiVersion, kind: OwnersTreeEvent, type,
 * object}): type is ADDED, MODIFIED or DELETED (the row left the tree:
 * the object is gone, or no longer hangs from it); object is the item as
 * -o json writes it, without its children, its owners.owner
 * (owners.dependent with up) naming the row it hangs from. pretty:
 * kubectl's indented document, else one line. */
int owners_tree_render_event_json(struct owners_buf *out, const struct owners_render *r, size_t row,
				  const char *type, int pretty);
int owners_tree_render_dot(struct owners_buf *out, const struct owners_render *r);
/* kind.group/name lines, each object once, in the tree's order; with
 * fates, only the objects the cascade deletes. */
int owners_tree_render_names(struct owners_buf *out, const struct owners_render *r);

#endif
