/*
 * Sorting with a context argument: the one sort in lib/ and cmd/ whose
 * comparison needs more than the two elements (a graph to look nodes up
 * in, a table to look types up in). qsort() has no such argument, and
 * qsort_r() takes its arguments in one order on glibc and another on the
 * BSDs, so a file-level variable was the usual way around it; this takes
 * the context as an argument instead (git's QSORT_S).
 *
 *	static int by_name(const void *a, const void *b, void *ctx)
 *	{
 *		const struct owners_graph *g = ctx;
 *		...
 *	}
 *	owners_qsort_r(v, n, sizeof(*v), by_name, g);
 *
 * The sort is stable: elements that compare equal keep their order. That
 * is what glibc's qsort() does in practice (a merge sort whenever it can
 * allocate), so orders that leave ties to the sort came out the same
 * before this; it is now promised rather than a property of one libc.
 *
 * It cannot fail: without memory for its merge buffer it sorts in place
 * (slower, the same result), so callers need no error path.
 *
 * Ownership: the array is the caller's and is sorted in place; ctx is
 * handed to cmp untouched.
 */
#ifndef OWNERS_SORT_H
#define OWNERS_SORT_H

#include <stddef.h>

/* Negative, zero or positive as a sorts before, with or after b. */
typedef int (*owners_cmp_fn)(const void *a, const void *b, void *ctx);

/* Sorts the n elements of size bytes at base, stably, by cmp with ctx. */
void owners_qsort_r(void *base, size_t n, size_t size, owners_cmp_fn cmp, void *ctx);

#endif
