#include "resource.h"
#include "strv.h"

#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "buf.h"

/*
 * Every string of a resource in the table is non-NULL (absent ones are ""),
 * so lookups and renderers never test for NULL.
 *
 * apiVersion/kind lookups go through a hash index, since every
 * ownerReference of every object is resolved there; the rarer lookups
 * are linear over the few hundred resources a cluster serves.
 */

void owners_resource_table_init(struct owners_resource_table *t)
{
	memset(t, 0, sizeof(*t));
}

/* Accepts a half-built resource (NULL fields). */
static void resource_release(struct owners_resource *r)
{
	free(r->group);
	free(r->version);
	free(r->api_version);
	free(r->resource);
	free(r->singular);
	free(r->kind);
	owners_strv_free(r->short_names, r->n_short_names);
	owners_strv_free(r->categories, r->n_categories);
	memset(r, 0, sizeof(*r));
}

void owners_resource_table_free(struct owners_resource_table *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->count; i++)
		resource_release(&t->items[i]);
	free(t->items);
	free(t->gvk_index);
	for (i = 0; i < t->n_failed; i++) {
		free(t->failed_groups[i]);
		free(t->failed_reasons[i]);
	}
	free(t->failed_groups);
	free(t->failed_reasons);
	owners_resource_table_init(t);
}

static char *dup_or_empty(const char *s)
{
	return owners_strdup(s ? s : "");
}

static int copy_strings(char ***out, size_t *n_out, char *const *v, size_t n)
{
	size_t i;

	*out = NULL;
	*n_out = 0;
	if (!n)
		return 0;
	*out = calloc(n, sizeof(**out));
	if (!*out)
		return OWNERS_ENOMEM;
	/* Count as we go, so a failure leaves a consistent half-built list. */
	for (i = 0; i < n; i++) {
		(*out)[i] = dup_or_empty(v[i]);
		if (!(*out)[i])
			return OWNERS_ENOMEM;
		(*n_out)++;
	}
	return 0;
}

static uint64_t gvk_hash(const char *api_version, const char *kind)
{
	return owners_arena_hash(api_version, strlen(api_version)) * 31 +
	       owners_arena_hash(kind, strlen(kind));
}

/* (Re)builds the index with room for the table to double. The first item
 * with a given apiVersion/kind wins, as the linear search did. */
static int gvk_index_build(struct owners_resource_table *t)
{
	size_t cap = 64, i;
	uint32_t *idx;

	while (cap < t->count * 2 + 2)
		cap *= 2;
	idx = calloc(cap, sizeof(*idx));
	if (!idx)
		return OWNERS_ENOMEM;
	for (i = 0; i < t->count; i++) {
		const struct owners_resource *r = &t->items[i];
		size_t j = gvk_hash(r->api_version, r->kind) & (cap - 1);
		int dup = 0;

		while (idx[j]) {
			const struct owners_resource *o = &t->items[idx[j] - 1];

			if (!strcmp(o->kind, r->kind) && !strcmp(o->api_version, r->api_version)) {
				dup = 1;
				break;
			}
			j = (j + 1) & (cap - 1);
		}
		if (!dup)
			idx[j] = (uint32_t)i + 1;
	}
	free(t->gvk_index);
	t->gvk_index = idx;
	t->gvk_cap = cap;
	return 0;
}

/* Adds the table's last item to the index (unless an earlier item has
 * the same apiVersion/kind: the first one wins). */
static void gvk_index_insert_last(struct owners_resource_table *t)
{
	const struct owners_resource *r = &t->items[t->count - 1];
	size_t j = gvk_hash(r->api_version, r->kind) & (t->gvk_cap - 1);

	while (t->gvk_index[j]) {
		const struct owners_resource *o = &t->items[t->gvk_index[j] - 1];

		if (!strcmp(o->kind, r->kind) && !strcmp(o->api_version, r->api_version))
			return;
		j = (j + 1) & (t->gvk_cap - 1);
	}
	t->gvk_index[j] = (uint32_t)t->count;
}

int owners_resource_table_add(struct owners_resource_table *t, const struct owners_resource *r)
{
	struct owners_resource c;
	const char *group = r->group ? r->group : "";
	const char *version = r->version ? r->version : "";
	int rc = OWNERS_ENOMEM;

	memset(&c, 0, sizeof(c));
	if (!r->resource || !*r->resource)
		return OWNERS_EINVAL;
	if (t->count == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		struct owners_resource *items = realloc(t->items, cap * sizeof(*items));

		if (!items)
			goto out;
		t->items = items;
		t->cap = cap;
	}
	c.group = owners_strdup(group);
	c.version = owners_strdup(version);
	c.resource = owners_strdup(r->resource);
	c.singular = dup_or_empty(r->singular);
	c.kind = dup_or_empty(r->kind);
	if (r->api_version) {
		c.api_version = owners_strdup(r->api_version);
	} else {
		struct owners_buf b = OWNERS_BUF_INIT;

		/* The core group's apiVersion is the bare version: "v1". */
		if (!(*group ? owners_buf_addf(&b, "%s/%s", group, version)
			     : owners_buf_adds(&b, version)))
			c.api_version = owners_buf_detach(&b);
		owners_buf_release(&b);
	}
	if (!c.group || !c.version || !c.resource || !c.singular || !c.kind || !c.api_version)
		goto out;
	if (copy_strings(&c.short_names, &c.n_short_names, r->short_names, r->n_short_names) ||
	    copy_strings(&c.categories, &c.n_categories, r->categories, r->n_categories))
		goto out;
	c.verbs = r->verbs;
	c.namespaced = r->namespaced;
	c.preferred = r->preferred;
	c.has_status = r->has_status;
	t->items[t->count++] = c;
	/* Keep the index at most half full. */
	if (t->count * 2 > t->gvk_cap)
		return gvk_index_build(t);
	gvk_index_insert_last(t);
	return 0;
out:
	resource_release(&c);
	return rc;
}

int owners_resource_table_add_failure(struct owners_resource_table *t, const char *group,
				      const char *reason)
{
	char *g = NULL, *why = NULL;
	size_t i;

	if (!group)
		return OWNERS_EINVAL;
	/* One entry per group/version: the first reason is the one reported. */
	for (i = 0; i < t->n_failed; i++)
		if (!strcmp(t->failed_groups[i], group))
			return 0;
	if (t->n_failed == t->cap_failed) {
		size_t cap = t->cap_failed ? t->cap_failed * 2 : 8;
		char **groups = realloc(t->failed_groups, cap * sizeof(*groups));
		char **reasons;

		if (!groups)
			return OWNERS_ENOMEM;
		t->failed_groups = groups;
		reasons = realloc(t->failed_reasons, cap * sizeof(*reasons));
		if (!reasons)
			return OWNERS_ENOMEM;
		t->failed_reasons = reasons;
		t->cap_failed = cap;
	}
	g = owners_strdup(group);
	why = dup_or_empty(reason);
	if (!g || !why) {
		free(g);
		free(why);
		return OWNERS_ENOMEM;
	}
	t->failed_groups[t->n_failed] = g;
	t->failed_reasons[t->n_failed] = why;
	t->n_failed++;
	return 0;
}

const struct owners_resource *owners_resource_by_gvk(const struct owners_resource_table *t,
						     const char *api_version, const char *kind)
{
	size_t j;

	if (!t || !api_version || !kind || !t->gvk_cap)
		return NULL;
	/* Exact and case-sensitive, as the garbage collector compares them. */
	j = gvk_hash(api_version, kind) & (t->gvk_cap - 1);
	while (t->gvk_index[j]) {
		const struct owners_resource *r = &t->items[t->gvk_index[j] - 1];

		if (!strcmp(r->kind, kind) && !strcmp(r->api_version, api_version))
			return r;
		j = (j + 1) & (t->gvk_cap - 1);
	}
	return NULL;
}

int owners_resource_group_failed(const struct owners_resource_table *t, const char *api_version)
{
	const char *slash;
	size_t i, glen;

	if (!t || !api_version)
		return 0;
	slash = strchr(api_version, '/');
	glen = slash ? (size_t)(slash - api_version) : 0;
	for (i = 0; i < t->n_failed; i++) {
		const char *f = t->failed_groups[i];

		if (!strcmp(f, api_version))
			return 1;
		/* An entry without a version ("metrics.k8s.io") is the whole
		 * group: every version of it is unknown. */
		if (slash && !strchr(f, '/') && strlen(f) == glen && !strncmp(f, api_version, glen))
			return 1;
	}
	return 0;
}

int owners_resource_same_type(const struct owners_resource *a, const struct owners_resource *b)
{
	return a && b && !strcmp(a->group, b->group) && !strcmp(a->resource, b->resource);
}

int owners_resource_is_deletable(const struct owners_resource *r)
{
	const unsigned need = OWNERS_VERB_LIST | OWNERS_VERB_WATCH | OWNERS_VERB_DELETE;

	return r && (r->verbs & need) == need;
}
