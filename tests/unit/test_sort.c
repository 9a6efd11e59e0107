/* owners_qsort_r: sorts by a comparison that needs a context, stably
 * (ties keep their order), at every size around its run length, and with
 * elements of any size. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sort.h"
#include "tap.h"

struct rec {
	int key;
	int seq;   /* position before sorting: shows stability */
	char pad[5]; /* an odd size, not a multiple of a word */
};

struct order {
	int descending;
	size_t calls;
};

static int by_key(const void *pa, const void *pb, void *ctx)
{
	const struct rec *a = pa, *b = pb;
	struct order *o = ctx;

	o->calls++;
	if (a->key == b->key)
		return 0;
	return (a->key < b->key) != o->descending ? -1 : 1;
}

/* A small deterministic generator: the same inputs on every run. */
static uint32_t next(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 16;
}

/* Sorted by key as ctx says, and equal keys in their original order. */
static int sorted_stably(const struct rec *v, size_t n, int descending)
{
	size_t i;

	for (i = 1; i < n; i++) {
		if (v[i - 1].key == v[i].key ? v[i - 1].seq > v[i].seq
					     : (v[i - 1].key > v[i].key) != descending)
			return 0;
	}
	return 1;
}

/* The same multiset of (key, seq) pairs, whatever the order. */
static int same_elements(const struct rec *v, size_t n)
{
	unsigned char *seen = calloc(n + 1, 1);
	size_t i;
	int ok_ = seen != NULL;

	for (i = 0; ok_ && i < n; i++) {
		if (v[i].seq < 0 || (size_t)v[i].seq >= n || seen[v[i].seq])
			ok_ = 0;
		else
			seen[v[i].seq] = 1;
	}
	free(seen);
	return ok_;
}

static void sizes(void)
{
	static const size_t ns[] = { 0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 33, 100, 1000, 4097 };
	size_t k, i;

	for (k = 0; k < sizeof(ns) / sizeof(ns[0]); k++) {
		size_t n = ns[k];
		struct rec *v = calloc(n + 1, sizeof(*v));
		struct order o = { 0, 0 };
		uint32_t seed = (uint32_t)n + 1;
		int good;

		if (!v) {
			ok(0, "memory for %zu elements", n);
			continue;
		}
		for (i = 0; i < n; i++) {
			v[i].key = (int)(next(&seed) % 10); /* many ties */
			v[i].seq = (int)i;
		}
		owners_qsort_r(v, n, sizeof(*v), by_key, &o);
		good = sorted_stably(v, n, 0) && same_elements(v, n);
		ok(good, "%zu elements with many equal keys: sorted, ties in their first order", n);
		free(v);
	}
}

static void context_is_used(void)
{
	struct rec v[40];
	struct order o = { 1, 0 };
	size_t i;

	for (i = 0; i < 40; i++) {
		v[i].key = (int)(i % 7);
		v[i].seq = (int)i;
	}
	owners_qsort_r(v, 40, sizeof(*v), by_key, &o);
	ok(sorted_stably(v, 40, 1), "the context decides the order (descending here)");
	is_int(v[0].key, 6, "the greatest key first");
	is_int(v[0].seq, 6, "and of the equal ones, the first in the input");
	is_int(v[39].seq, 35, "the last of the smallest key is the last in the input");
	ok(o.calls > 0, "the comparison received the context (%zu calls)", o.calls);
}

static void already_sorted_and_reversed(void)
{
	struct rec v[300];
	struct order o = { 0, 0 };
	size_t i;

	for (i = 0; i < 300; i++) {
		v[i].key = (int)i;
		v[i].seq = (int)i;
	}
	owners_qsort_r(v, 300, sizeof(*v), by_key, &o);
	ok(sorted_stably(v, 300, 0), "already sorted: unchanged");
	for (i = 0; i < 300; i++) {
		v[i].key = (int)(300 - i);
		v[i].seq = (int)i;
	}
	owners_qsort_r(v, 300, sizeof(*v), by_key, &o);
	ok(sorted_stably(v, 300, 0) && same_elements(v, 300), "reversed: sorted");
	is_int(v[0].key, 1, "smallest first");
	is_int(v[299].key, 300, "greatest last");
}

static int by_byte(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	return *(const unsigned char *)a - *(const unsigned char *)b;
}

static void one_byte_elements(void)
{
	char s[] = "the quick brown fox jumps over the lazy dog";

	owners_qsort_r(s, strlen(s), 1, by_byte, NULL);
	is_str(s, "        abcdeeefghhijklmnoooopqrrsttuuvwxyz", "single bytes, NULL context");
}

int main(void)
{
	sizes();
	context_is_used();
	already_sorted_and_reversed();
	one_byte_elements();
	return tap_done();
}
