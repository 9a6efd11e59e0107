#ifndef OWNERS_NODE_TABLE_H
#define OWNERS_NODE_TABLE_H

#include <stddef.h>
#include <stdint.h>

/*
 * An open-addressing hash table of node indexes: the graph's UID index
 * and its name index. A slot holds a node's index + 1 (0: empty) in its
 * low bits and, in the bits the index does not need, a few bits of the
 * key's hash (its tag). A probe compares the tag first and reads the
 * node only when the tags agree: at ten million objects each node read
 * is a cache miss, and a search that ends at an empty slot passes
 * several full ones. The table is filled to three slots in four at most,
 * so its indexes are below its size, and the tag has the bits above
 * (8 at ten million objects: one read in 256 wasted).
 *
 * Any size, not only powers of two: a key's first slot is its hash's low
 * 32 bits scaled to the size (a multiply and a shift), so the table
 * grows by half and an index built once is as large as its count needs
 * (a power of two would leave it half empty at a million).
 *
 * The table owns its slots (owners_node_table_clear() frees them).
 */
struct owners_node_table {
	uint32_t *slots;
	size_t cap;          /* 0 before the first reset */
	uint32_t index_mask; /* the bits of a slot that hold index + 1 */
};

/* An empty table of cap slots, the old slots freed. 0, or OWNERS_ENOMEM
 * with the table left as it was. */
int owners_node_table_reset(struct owners_node_table *t, size_t cap);
void owners_node_table_clear(struct owners_node_table *t);

/* The size that holds count at three slots in four (1024 at least). */
size_t owners_node_table_cap_for(size_t count);
/* Whether one more node fits; the size to grow to when not. */
static inline int owners_node_table_full(const struct owners_node_table *t, size_t count)
{
	return (count + 1) * 4 > t->cap * 3;
}
size_t owners_node_table_grown_cap(const struct owners_node_table *t);

/* The slot's tag bits for hash h. */
static inline uint32_t owners_node_table_tag(const struct owners_node_table *t, uint64_t h)
{
	return (uint32_t)(h >> 32) & ~t->index_mask;
}

/* A search: j starts at owners_node_table_first(); each call to
 * owners_node_table_next() gives the next node whose tag matches h's
 * (the caller compares its key), 0 at the empty slot that ends it (j is
 * then that slot). */
static inline size_t owners_node_table_first(const struct owners_node_table *t, uint64_t h)
{
	return (size_t)(((uint64_t)(uint32_t)h * t->cap) >> 32);
}

static inline size_t owners_node_table_step(const struct owners_node_table *t, size_t j)
{
	return j + 1 == t->cap ? 0 : j + 1;
}

/* Asks for the cache line of h's first slot ahead of a search or an
 * insert: at millions of nodes the table is far out of the processor's
 * caches, and a batch of lines asked for at once costs about what one
 * does (OWNERS_NODE_TABLE_BATCH of them). */
#define OWNERS_NODE_TABLE_BATCH 16
static inline void owners_node_table_prefetch(const struct owners_node_table *t, uint64_t h)
{
#if defined(__GNUC__) || defined(__clang__)
	__builtin_prefetch(&t->slots[owners_node_table_first(t, h)], 1);
#else
	(void)t;
	(void)h;
#endif
}

/* Puts node at slot j, the empty slot where a search for h ended. */
static inline void owners_node_table_put_at(struct owners_node_table *t, size_t j, uint64_t h,
					    uint32_t node)
{
	t->slots[j] = owners_node_table_tag(t, h) | (node + 1);
}

/* Adds node (its key's hash h) to a table with room for it. */
static inline void owners_node_table_insert(struct owners_node_table *t, uint64_t h, uint32_t node)
{
	size_t j = owners_node_table_first(t, h);

	while (t->slots[j])
		j = owners_node_table_step(t, j);
	owners_node_table_put_at(t, j, h, node);
}

static inline int owners_node_table_next(const struct owners_node_table *t, uint64_t h, size_t *j,
					 uint32_t *node)
{
	uint32_t tag = owners_node_table_tag(t, h), s;

	if (!t->cap)
		return 0;
	while ((s = t->slots[*j])) {
		*j = owners_node_table_step(t, *j);
		if ((s & ~t->index_mask) == tag) {
			*node = (s & t->index_mask) - 1;
			return 1;
		}
	}
	return 0;
}

#endif
