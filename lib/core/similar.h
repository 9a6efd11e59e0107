/*
 * "Did you mean": how far apart two words are, for suggesting the word a
 * user most likely meant (a mistyped command, a mistyped type).
 *
 * Ownership: inputs borrowed; nothing allocated that outlives a call.
 */
#ifndef OWNERS_SIMILAR_H
#define OWNERS_SIMILAR_H

#include <stddef.h>

/* Edits (insert, delete, substitute, swap two neighbours) from a to b,
 * case-insensitive; past limit, limit + 1 (the comparison stops early). */
size_t owners_similar_distance(const char *a, const char *b, size_t limit);
/* Whether typed is close enough to candidate to be suggested: at most
 * one edit in a word of up to four letters, two in longer ones (git's
 * help.autocorrect is similar), and never the word itself. */
int owners_similar_close(const char *typed, const char *candidate);

#endif
