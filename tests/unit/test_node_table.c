/* The graph's indexes (lib/graph/node_table.c): every node put in is
 * found again, whatever the table's size, however its hashes collide,
 * and a search ends at an empty slot; slots keep an index and a tag
 * apart. */
#include <stdlib.h>

#include "node_table.h"
#include "owners_error.h"
#include "tap.h"

/* A node's hash: the real ones are mixed; `clash` gives every one the
 * last slot first (the probe wraps to the start) and half of them one
 * tag, as colliding keys do. */
static uint64_t hash_of(uint32_t node, int clash)
{
	uint64_t h = (uint64_t)node * 0x9e3779b97f4a7c15ULL;

	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 32;
	if (clash)
		h = (h & 0xffffffff00000000ULL & (node % 2 ? ~0ULL : 0xff00000000000000ULL)) |
		    0xffffffffULL;
	return h;
}

/* Fills a table of cap slots with count nodes; 1 when each is found by
 * its hash exactly once, and a hash never put in finds none of them. */
static int round_trip(size_t cap, uint32_t count, int clash)
{
	struct owners_node_table t = { 0 };
	uint32_t i, node, *seen = calloc(count + 1, sizeof(*seen));
	int good = seen != NULL;

	if (!good || owners_node_table_reset(&t, cap)) {
		free(seen);
		return 0;
	}
	for (i = 0; i < count; i++)
		owners_node_table_insert(&t, hash_of(i, clash), i);
	for (i = 0; good && i < count; i++) {
		uint64_t h = hash_of(i, clash);
		size_t j = owners_node_table_first(&t, h);
		int found = 0;

		while (owners_node_table_next(&t, h, &j, &node)) {
			good = good && node < count;
			/* the caller compares keys: here the key is the node */
			found += node == i;
		}
		good = good && found == 1;
	}
	/* a search for a hash that is not there ends at an empty slot */
	{
		uint64_t h = hash_of(count + 12345, clash);
		size_t j = owners_node_table_first(&t, h);

		while (owners_node_table_next(&t, h, &j, &node))
			good = good && node < count && hash_of(node, clash) != h;
	}
	owners_node_table_clear(&t);
	free(seen);
	return good;
}

int main(void)
{
	struct owners_node_table t = { 0 };
	size_t cap;

	ok(round_trip(1024, 768, 0), "a table of 1024 slots holds 768 nodes, each found once");
	ok(round_trip(1537, 1152, 0), "any size (1537 slots), filled to three in four");
	ok(round_trip(3000, 2000, 1),
	   "keys that share a first slot and a tag: found, the probe wrapping past the end");
	ok(round_trip(owners_node_table_cap_for(100000), 100000, 0),
	   "100,000 nodes at cap_for()'s size");
	cap = owners_node_table_cap_for(1000000);
	ok(cap * 3 >= 1000000 * 4 && cap < 1000000 * 4 / 3 + 16,
	   "cap_for(1,000,000) is what three in four needs (%zu), not the next power of two", cap);
	is_int((long)owners_node_table_cap_for(3), 1024, "1024 slots at least");
	ok(owners_node_table_reset(&t, 1536) == 0, "reset to 1536 slots");
	is_int((long)t.index_mask, 2047, "its indexes take 11 bits");
	is_int((long)owners_node_table_grown_cap(&t), 2304, "it grows by half");
	ok(!owners_node_table_full(&t, 1150) && owners_node_table_full(&t, 1152),
	   "full at three slots in four");
	owners_node_table_insert(&t, 0xabcd000000000000ULL, 5);
	{
		size_t j = owners_node_table_first(&t, 0xabcd000000000000ULL);
		uint32_t node = 0;

		ok(owners_node_table_next(&t, 0xabcd000000000000ULL, &j, &node) && node == 5,
		   "a node comes back from its slot whole (index and tag kept apart)");
		j = owners_node_table_first(&t, 0x1234000000000000ULL);
		ok(!owners_node_table_next(&t, 0x1234000000000000ULL, &j, &node),
		   "another tag at the same first slot is not it");
	}
	ok(owners_node_table_reset(&t, (size_t)UINT32_MAX + 1) == OWNERS_ENOMEM,
	   "more slots than 32 bits of hash can reach: refused");
	owners_node_table_clear(&t);
	ok(t.slots == NULL && t.cap == 0, "cleared");
	return tap_done();
}
