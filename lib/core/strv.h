/*
 * String vectors: arrays of malloc'd strings, with their count or ending
 * in NULL. One module so that every list of names (short names,
 * categories, exec arguments, context names) is made and freed alike.
 *
 * Ownership: a vector owns its strings; owners_strv_free() (counted) and
 * owners_strv_free_terminated() (NULL-terminated) free both.
 */
#ifndef OWNERS_STRV_H
#define OWNERS_STRV_H

#include <stddef.h>

/* Appends s to the counted vector v (*n used, *cap allocated, grown
 * with OWNERS_GROW), taking it: on failure s is freed and v is as it
 * was. s NULL (an allocation that failed) is OWNERS_ENOMEM too, so that
 * owners_strv_push(&v, &n, &cap, owners_strdup(x)) needs one check.
 * Returns 0 or OWNERS_ENOMEM. */
int owners_strv_push(char ***v, size_t *n, size_t *cap, char *s);
/* Frees the n strings of v, then v; NULL is fine. */
void owners_strv_free(char **v, size_t n);
/* Frees a NULL-terminated vector; NULL is fine. */
void owners_strv_free_terminated(char **v);

#endif
