/*
 * Optimal string alignment distance (Damerau-Levenshtein without
 * repeated edits of a substring): a swapped pair of letters, the most
 * common typo ("deploymnet"), counts as one edit.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "similar.h"

#define WORD_MAX 63 /* longer words are never suggested: no allocation */

static int same(char x, char y)
{
	return tolower((unsigned char)x) == tolower((unsigned char)y);
}

size_t owners_similar_distance(const char *a, const char *b, size_t limit)
{
	size_t n = strlen(a), m = strlen(b), i, j;
	size_t rows[3][WORD_MAX + 2];
	size_t *prev2 = rows[0], *prev = rows[1], *cur = rows[2];

	if (n > WORD_MAX || m > WORD_MAX)
		return limit + 1;
	if ((n > m ? n - m : m - n) > limit)
		return limit + 1;
	for (j = 0; j <= m; j++)
		prev[j] = j;
	for (i = 1; i <= n; i++) {
		size_t best = cur[0] = i, *t;

		for (j = 1; j <= m; j++) {
			size_t cost = same(a[i - 1], b[j - 1]) ? 0 : 1;
			size_t d = prev[j] + 1;

			if (cur[j - 1] + 1 < d)
				d = cur[j - 1] + 1;
			if (prev[j - 1] + cost < d)
				d = prev[j - 1] + cost;
			if (i > 1 && j > 1 && same(a[i - 1], b[j - 2]) && same(a[i - 2], b[j - 1]) &&
			    prev2[j - 2] + 1 < d)
				d = prev2[j - 2] + 1;
			cur[j] = d;
			if (d < best)
				best = d;
		}
		if (best > limit)
			return limit + 1;
		t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	return prev[m] > limit ? limit + 1 : prev[m];
}

int owners_similar_close(const char *typed, const char *candidate)
{
	size_t allowed = strlen(typed) <= 4 ? 1 : 2;
	size_t d = owners_similar_distance(typed, candidate, allowed);

	return d > 0 && d <= allowed;
}
