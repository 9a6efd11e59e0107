#include "arena.h"

#include <stdlib.h>
#include <string.h>

/* Big chunks keep the number of mallocs tiny even at 100k objects. */
#define ARENA_CHUNK (256 * 1024)

struct owners_arena_chunk {
	struct owners_arena_chunk *next;
	size_t size;
	size_t used;
	max_align_t data[];
};

void owners_arena_init(struct owners_arena *a)
{
	memset(a, 0, sizeof(*a));
}

void owners_arena_clear(struct owners_arena *a)
{
	struct owners_arena_chunk *c, *next;

	for (c = a->chunks; c; c = next) {
		next = c->next;
		free(c);
	}
	free(a->interned);
	owners_arena_init(a);
}

void *owners_arena_alloc(struct owners_arena *a, size_t size)
{
	struct owners_arena_chunk *c = a->chunks;
	/* Eight, not max_align_t's sixteen: nothing the graph keeps needs more
	 * (pointers, 64-bit integers), and a reference (40 bytes) would
	 * otherwise take 48. */
	size_t align = sizeof(uint64_t) > sizeof(void *) ? sizeof(uint64_t) : sizeof(void *), need, chunk_size;
	char *p;

	need = (size + align - 1) & ~(align - 1);
	if (need < size)
		return NULL;
	/* Strings are packed byte-tight (see owners_arena_strndup), so the
	 * next object starts at the next aligned offset. */
	if (c)
		c->used = (c->used + align - 1) & ~(align - 1);
	if (!c || c->used > c->size || c->size - c->used < need) {
		chunk_size = need > ARENA_CHUNK ? need : ARENA_CHUNK;
		c = malloc(sizeof(*c) + chunk_size);
		if (!c)
			return NULL;
		c->size = chunk_size;
		c->used = 0;
		c->next = a->chunks;
		a->chunks = c;
	}
	p = (char *)c->data + c->used;
	c->used += need;
	a->used_bytes += need;
	memset(p, 0, size);
	return p;
}

char *owners_arena_strndup(struct owners_arena *a, const char *s, size_t len)
{
	char *p;
	struct owners_arena_chunk *c = a->chunks;

	/* Strings need no alignment: pack them byte-tight when they fit. */
	if (c && c->size - c->used >= len + 1) {
		p = (char *)c->data + c->used;
		c->used += len + 1;
		a->used_bytes += len + 1;
	} else {
		p = owners_arena_alloc(a, len + 1);
		if (!p)
			return NULL;
	}
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

char *owners_arena_strdup(struct owners_arena *a, const char *s)
{
	return owners_arena_strndup(a, s, strlen(s));
}

uint64_t owners_arena_hash(const char *s, size_t len)
{
	/* Eight bytes a step (UIDs are 36 characters, hashed once per object
	 * and per reference), mixed with a multiply and a final avalanche. */
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ len, w;

	while (len >= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
		s += 8;
		len -= 8;
	}
	w = 0;
	memcpy(&w, s, len);
	h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 29;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 32;
	return h;
}

static int intern_grow(struct owners_arena *a)
{
	size_t cap = a->intern_cap ? a->intern_cap * 2 : 256, i;
	const char **table = calloc(cap, sizeof(*table));

	if (!table)
		return -1;
	for (i = 0; i < a->intern_cap; i++) {
		const char *s = a->interned[i];
		size_t j;

		if (!s)
			continue;
		j = owners_arena_hash(s, strlen(s)) & (cap - 1);
		while (table[j])
			j = (j + 1) & (cap - 1);
		table[j] = s;
	}
	free(a->interned);
	a->interned = table;
	a->intern_cap = cap;
	return 0;
}

const char *owners_arena_internn(struct owners_arena *a, const char *s, size_t len)
{
	size_t j;
	char *copy;

	if ((a->intern_count + 1) * 2 > a->intern_cap && intern_grow(a))
		return NULL;
	j = owners_arena_hash(s, len) & (a->intern_cap - 1);
	while (a->interned[j]) {
		const char *t = a->interned[j];

		if (!strncmp(t, s, len) && t[len] == '\0')
			return t;
		j = (j + 1) & (a->intern_cap - 1);
	}
	copy = owners_arena_strndup(a, s, len);
	if (!copy)
		return NULL;
	a->interned[j] = copy;
	a->intern_count++;
	return copy;
}

const char *owners_arena_intern(struct owners_arena *a, const char *s)
{
	return owners_arena_internn(a, s, strlen(s));
}

size_t owners_arena_allocated(const struct owners_arena *a)
{
	const struct owners_arena_chunk *c;
	size_t n = 0;

	for (c = a->chunks; c; c = c->next)
		n += sizeof(*c) + c->size;
	return n;
}

size_t owners_arena_interned_bytes(const struct owners_arena *a)
{
	size_t n = 0, i;

	for (i = 0; i < a->intern_cap; i++)
		if (a->interned[i])
			n += strlen(a->interned[i]) + 1;
	return n;
}
