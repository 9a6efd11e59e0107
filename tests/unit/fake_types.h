/*
 * Resource types for tests, without discovery: one call adds a type that
 * can be listed, watched, got and deleted (what a scan and a cascade need)
 * to a table. Used by the unit tests and the fuzz targets alike.
 */
#ifndef OWNERS_TEST_FAKE_TYPES_H
#define OWNERS_TEST_FAKE_TYPES_H

#include <stdio.h>
#include <string.h>

#include "resource.h"

/* A type in one initializer: group "" is the core group; short_name may be NULL. */
struct fake_type {
	const char *group, *version, *plural, *singular, *kind, *short_name;
	int namespaced, preferred;
};

/* The table copies every string. */
static inline int fake_type_add(struct owners_resource_table *t, const struct fake_type *ft)
{
	struct owners_resource r;
	char api[128];
	char *shorts[1];

	memset(&r, 0, sizeof(r));
	snprintf(api, sizeof(api), "%s%s%s", ft->group, *ft->group ? "/" : "", ft->version);
	r.group = (char *)ft->group;
	r.version = (char *)ft->version;
	r.api_version = api;
	r.resource = (char *)ft->plural;
	r.singular = (char *)ft->singular;
	r.kind = (char *)ft->kind;
	shorts[0] = (char *)ft->short_name;
	r.short_names = ft->short_name ? shorts : NULL;
	r.n_short_names = ft->short_name ? 1 : 0;
	r.verbs = OWNERS_VERB_LIST | OWNERS_VERB_WATCH | OWNERS_VERB_DELETE | OWNERS_VERB_GET;
	r.namespaced = ft->namespaced;
	r.preferred = ft->preferred;
	if (owners_resource_table_add(t, &r))
		return -1;
	/* What the GC tracks depends on every version: marked afresh. */
	owners_resource_table_mark_tracked(t);
	return 0;
}

#endif
