/*
 * Where watches start (see listed_types.h).
 */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "grow.h"
#include "listed_types.h"
#include "owners_error.h"

int listed_types_record(void *ctx, const struct owners_resource *r, const char *ns, const char *rv)
{
	struct listed_types *l = ctx;
	struct listed_type *t;

	if (!r) {
		/* discovery refreshed: the scan lists everything again */
		listed_types_clear(l);
		return 0;
	}
	if (OWNERS_GROW(l->items, l->cap, l->count + 1))
		return OWNERS_ENOMEM;
	t = &l->items[l->count];
	t->resource = r;
	t->ns = ns ? owners_strdup(ns) : NULL;
	t->rv = owners_strdup(rv);
	t->watched = 0;
	if ((ns && !t->ns) || !t->rv) {
		free(t->ns);
		free(t->rv);
		return OWNERS_ENOMEM;
	}
	l->count++;
	return 0;
}

void listed_types_clear(struct listed_types *l)
{
	size_t i;

	for (i = 0; i < l->count; i++) {
		free(l->items[i].ns);
		free(l->items[i].rv);
	}
	free(l->items);
	memset(l, 0, sizeof(*l));
}
