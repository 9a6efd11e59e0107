/*
 * A test hook: a list source that hands on what another one lists in an
 * order drawn from a seed, so that a test can show an answer does not
 * follow the order in which lists happen to arrive.
 *
 * Live, a scan's lists run at once and finish in any order; a page's
 * objects come in the server's order (etcd's key order), and a snapshot
 * or a dump holds them as they were written. Every answer must be a
 * function of what the lists hold, never of that order. This source reads
 * everything the inner one lists into a graph of its own, then adds the
 * objects to the caller's graph in a permutation of the seed (every type's
 * objects mixed with every other's), notes the listings and reports the
 * failed lists permuted too, and links. Given on_object instead of a graph,
 * it calls on_object for each object in that order.
 *
 * The same seed over the same lists gives the same order, so a difference
 * it shows can be replayed.
 *
 * Ownership: the struct borrows the inner source (which must outlive it)
 * and holds nothing to free.
 */
#ifndef OWNERS_LIST_SHUFFLE_H
#define OWNERS_LIST_SHUFFLE_H

#include <stdint.h>

#include "list_source.h"

struct owners_list_shuffle {
	struct owners_list_source inner;
	uint64_t seed;
	/* Scans so far: each scan of a session draws another permutation. */
	uint64_t scans;
};

/* Makes *out a source that reads through sh (filled by the caller: the
 * inner source and the seed). */
void owners_list_shuffle_source(struct owners_list_source *out, struct owners_list_shuffle *sh);

/* The next number of the sequence at *state (splitmix64): the one
 * generator of the hook, also for a test's own permutations. */
uint64_t owners_list_shuffle_next(uint64_t *state);

#endif
