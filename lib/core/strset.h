/*
 * A set of strings (UIDs) with a value slot, for remembering objects
 * across scans. Open addressing; keys and values are copied.
 *
 * Ownership: the set owns its keys and values (owners_strset_clear()).
 */
#ifndef OWNERS_STRSET_H
#define OWNERS_STRSET_H

#include <stddef.h>

struct owners_strset_entry {
	char *key;
	char *value;
	int flag;   /* free for the caller's use */
};

struct owners_strset {
	struct owners_strset_entry *slots;
	size_t cap;
	size_t count;
};

void owners_strset_init(struct owners_strset *s);
void owners_strset_clear(struct owners_strset *s);
/* Adds key (with value, may be NULL) unless present; returns the entry
 * either way, or NULL when out of memory. */
struct owners_strset_entry *owners_strset_add(struct owners_strset *s, const char *key,
					      const char *value);
struct owners_strset_entry *owners_strset_get(const struct owners_strset *s, const char *key);

#endif
