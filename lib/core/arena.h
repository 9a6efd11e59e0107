/*
 * A bump allocator for the graph: objects, strings and small arrays that
 * all live exactly as long as the graph. One free releases everything,
 * and nothing pays malloc's per-allocation header (the graph holds up to
 * hundreds of thousands of small strings).
 *
 * Interning: strings that repeat across objects (kinds, apiVersions,
 * namespaces, finalizer names) are stored once; the same text always
 * returns the same pointer, so they can be compared by address.
 *
 * Ownership: everything returned belongs to the arena.
 */
#ifndef OWNERS_ARENA_H
#define OWNERS_ARENA_H

#include <stddef.h>
#include <stdint.h>

struct owners_arena_chunk;

struct owners_arena {
	struct owners_arena_chunk *chunks;
	size_t used_bytes;
	/* intern table: open addressing, power-of-two size */
	const char **interned;
	size_t intern_count;
	size_t intern_cap;
};

void owners_arena_init(struct owners_arena *a);
void owners_arena_clear(struct owners_arena *a);
/* Zeroed memory aligned for pointers and 64-bit integers (not for
 * long double or vector types), or NULL. */
void *owners_arena_alloc(struct owners_arena *a, size_t size);
char *owners_arena_strndup(struct owners_arena *a, const char *s, size_t len);
char *owners_arena_strdup(struct owners_arena *a, const char *s);
/* The one stored copy of s; NULL only when out of memory. */
const char *owners_arena_intern(struct owners_arena *a, const char *s);
const char *owners_arena_internn(struct owners_arena *a, const char *s, size_t len);

uint64_t owners_arena_hash(const char *s, size_t len);
/* What the arena took from malloc (its chunks, headers included), and
 * what its interned strings hold of that. */
size_t owners_arena_allocated(const struct owners_arena *a);
size_t owners_arena_interned_bytes(const struct owners_arena *a);

#endif
