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

/* Frees the n strings of v, then v; NULL is fine. */
void owners_strv_free(char **v, size_t n);
/* Frees a NULL-terminated vector; NULL is fine. */
void owners_strv_free_terminated(char **v);

#endif
