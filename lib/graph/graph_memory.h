/*
 * Where a graph's bytes go (what tests/bench/REPORT.md's memory breakdown
 * is made of): the node array, the references, the strings by what they
 * are, the indexes, and what the arena took from malloc beyond what it
 * handed out. Counted from the graph itself, not sampled.
 *
 * Ownership: plain numbers.
 */
#ifndef OWNERS_GRAPH_MEMORY_H
#define OWNERS_GRAPH_MEMORY_H

#include <stddef.h>

#include "graph.h"

struct owners_graph_memory {
	size_t nodes;       /* nodes in use (count x sizeof) */
	size_t nodes_spare; /* the array's room not yet used */
	size_t refs;        /* ownerReference structs */
	size_t uids;        /* UID strings (those not kept as 16 bytes): the
			       objects' and the references' */
	size_t names;       /* names: the objects' and the references' */
	size_t versions;    /* resourceVersions */
	size_t labels;      /* label arrays and values */
	size_t finalizers;  /* finalizer arrays */
	size_t extras;      /* the records of nodes with finalizers or labels */
	size_t places;      /* the places nodes share, and their table */
	size_t interned;    /* interned strings and their table */
	size_t uid_index;   /* by UID */
	size_t name_index;  /* by name, when built */
	size_t edges;       /* every node's dependents */
	size_t arena_slack; /* arena chunks' bytes not handed out */
	size_t total;       /* all of the above */
};

void owners_graph_memory(const struct owners_graph *g, struct owners_graph_memory *out);

#endif
