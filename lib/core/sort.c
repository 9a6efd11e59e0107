/* Sorting with a context argument (see sort.h): a bottom-up merge sort
 * over runs first sorted by insertion. */
#include <stdlib.h>
#include <string.h>

#include "sort.h"

/* Short runs are sorted by insertion before merging: fewer passes, and
 * insertion is the fastest sort for a handful of elements. */
#define RUN 8

/* The element size and the order, as every step needs them. */
struct sorter {
	size_t size;
	owners_cmp_fn cmp;
	void *ctx;
};

static void swap(unsigned char *a, unsigned char *b, size_t size)
{
	size_t i;

	for (i = 0; i < size; i++) {
		unsigned char t = a[i];

		a[i] = b[i];
		b[i] = t;
	}
}

/* Stable: an element moves left only past ones that are greater. Needs
 * no memory, so it is also the whole sort when the merge buffer cannot be
 * had. */
static void insertion_sort(unsigned char *base, size_t n, const struct sorter *s)
{
	size_t i, j, size = s->size;

	for (i = 1; i < n; i++)
		for (j = i; j > 0 && s->cmp(base + (j - 1) * size, base + j * size, s->ctx) > 0; j--)
			swap(base + (j - 1) * size, base + j * size, size);
}

/* Merges the sorted runs [0, mid) and [mid, n) of from into to. Stable: on
 * a tie the left run's element goes first. */
static void merge(unsigned char *to, const unsigned char *from, size_t mid, size_t n,
		  const struct sorter *s)
{
	size_t i = 0, j = mid, k = 0, size = s->size;

	while (i < mid && j < n) {
		if (s->cmp(from + i * size, from + j * size, s->ctx) <= 0)
			memcpy(to + k++ * size, from + i++ * size, size);
		else
			memcpy(to + k++ * size, from + j++ * size, size);
	}
	memcpy(to + k * size, from + i * size, (mid - i) * size);
	k += mid - i;
	memcpy(to + k * size, from + j * size, (n - j) * size);
}

void owners_qsort_r(void *base, size_t n, size_t size, owners_cmp_fn cmp, void *ctx)
{
	const struct sorter s = { size, cmp, ctx };
	unsigned char *a = base, *tmp, *from, *to, *t;
	size_t width, start;

	if (n < 2 || !size)
		return;
	if (n <= RUN || n > (size_t)-1 / size || !(tmp = malloc(n * size))) {
		insertion_sort(a, n, &s);
		return;
	}
	for (start = 0; start < n; start += RUN)
		insertion_sort(a + start * size, n - start < RUN ? n - start : RUN, &s);
	/* Each pass merges pairs of runs from one array into the other; the
	 * arrays swap roles after it. */
	from = a;
	to = tmp;
	for (width = RUN; width < n; width *= 2) {
		for (start = 0; start < n; start += 2 * width) {
			size_t len = n - start < 2 * width ? n - start : 2 * width;
			size_t mid = len < width ? len : width;

			merge(to + start * size, from + start * size, mid, len, &s);
		}
		t = from;
		from = to;
		to = t;
	}
	if (from != a)
		memcpy(a, from, n * size);
	free(tmp);
}
