/*
 * The lists a scan made, each with the resourceVersion it was read at:
 * where a watch of that type starts (tree --watch, gc --watch), so that
 * nothing between the list and the watch is missed.
 *
 * Ownership: a listed_types owns its strings (listed_types_clear() frees
 * them) and borrows the resources from the session's table.
 */
#ifndef OWNERS_CMD_LISTED_TYPES_H
#define OWNERS_CMD_LISTED_TYPES_H

#include <stddef.h>

#include "resource.h"

struct listed_type {
	const struct owners_resource *resource;
	char *ns;   /* NULL: everywhere, or cluster-scoped */
	char *rv;
	int watched;
};

struct listed_types {
	struct listed_type *items;
	size_t count, cap;
};

/* session.on_listed: records each list (r NULL: forgets them all). */
int listed_types_record(void *ctx, const struct owners_resource *r, const char *ns, const char *rv);
void listed_types_clear(struct listed_types *l);

#endif
