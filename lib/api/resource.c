#include "resource.h"
#include "strv.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "buf.h"
#include "grow.h"
#include "sort.h"

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
static void resource_clear(struct owners_resource *r)
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

void owners_resource_table_clear(struct owners_resource_table *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->count; i++)
		resource_clear(&t->items[i]);
	free(t->items);
	free(t->gvk_index);
	for (i = 0; i < t->n_failed; i++) {
		free(t->failed_groups[i]);
		free(t->failed_reasons[i]);
	}
	free(t->failed_groups);
	free(t->failed_reasons);
	free(t->failed_stale);
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
	if (OWNERS_GROW(t->items, t->cap, t->count + 1))
		goto out;
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
		owners_buf_clear(&b);
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
	c.has_scale = r->has_scale;
	c.gc_tracked = r->gc_tracked;
	t->items[t->count++] = c;
	/* Keep the index at most half full. */
	if (t->count * 2 > t->gvk_cap)
		return gvk_index_build(t);
	gvk_index_insert_last(t);
	return 0;
out:
	resource_clear(&c);
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
	if (OWNERS_GROW(t->failed_groups, t->cap_failed_groups, t->n_failed + 1) ||
	    OWNERS_GROW(t->failed_reasons, t->cap_failed_reasons, t->n_failed + 1) ||
	    OWNERS_GROW(t->failed_stale, t->cap_failed_stale, t->n_failed + 1))
		return OWNERS_ENOMEM;
	g = owners_strdup(group);
	why = dup_or_empty(reason);
	if (!g || !why) {
		free(g);
		free(why);
		return OWNERS_ENOMEM;
	}
	t->failed_groups[t->n_failed] = g;
	t->failed_reasons[t->n_failed] = why;
	t->failed_stale[t->n_failed] = 0;
	t->n_failed++;
	return 0;
}

int owners_resource_table_add_stale(struct owners_resource_table *t, const char *group)
{
	return owners_resource_table_add_failed(t, group, "stale", 1);
}

int owners_resource_table_add_failed(struct owners_resource_table *t, const char *group, const char *reason,
				     int stale)
{
	size_t n = t->n_failed;
	int rc = owners_resource_table_add_failure(t, group, reason);

	if (!rc && t->n_failed > n)
		t->failed_stale[n] = stale ? 1 : 0;
	return rc;
}

int owners_resource_table_failed_stale(const struct owners_resource_table *t, size_t i)
{
	return i < t->n_failed && t->failed_stale && t->failed_stale[i];
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

/* ---- what the garbage collector tracks ------------------------------ */

/* By group, then resource, then position in the table (discovery's order
 * of versions). */
static int cmp_group_resource(const void *pa, const void *pb, void *ctx)
{
	const struct owners_resource_table *t = ctx;
	const struct owners_resource *a = &t->items[*(const size_t *)pa];
	const struct owners_resource *b = &t->items[*(const size_t *)pb];
	int c = strcmp(a->group, b->group);

	if (!c)
		c = strcmp(a->resource, b->resource);
	if (!c)
		c = *(const size_t *)pa < *(const size_t *)pb ? -1 : 1;
	return c;
}

/* The GC's DefaultIgnoredResources: events of both groups. */
static int ignored_by_gc(const struct owners_resource *r)
{
	return !strcmp(r->resource, "events") && (!*r->group || !strcmp(r->group, "events.k8s.io"));
}

void owners_resource_table_mark_tracked(struct owners_resource_table *t)
{
	size_t *order, i, j;

	for (i = 0; i < t->count; i++)
		t->items[i].gc_tracked = 0;
	if (!t->count || !(order = malloc(t->count * sizeof(*order)))) {
		/* Out of memory: the preferred versions alone, a subset of the
		 * GC's choice (what is not marked reads as unknown, never absent). */
		for (i = 0; i < t->count; i++)
			t->items[i].gc_tracked = t->items[i].preferred &&
						 owners_resource_is_deletable(&t->items[i]) &&
						 !ignored_by_gc(&t->items[i]);
		return;
	}
	for (i = 0; i < t->count; i++)
		order[i] = i;
	owners_qsort_r(order, t->count, sizeof(*order), cmp_group_resource, t);
	for (i = 0; i < t->count; i = j) {
		const struct owners_resource *first = &t->items[order[i]];
		struct owners_resource *chosen = &t->items[order[i]];

		/* ServerPreferredResources(): the preferred version when it
		 * serves the resource, else the first version that does; the
		 * verbs are checked on that version only (FilteredBy after). */
		for (j = i; j < t->count && !strcmp(t->items[order[j]].group, first->group) &&
			    !strcmp(t->items[order[j]].resource, first->resource);
		     j++)
			if (t->items[order[j]].preferred && !chosen->preferred)
				chosen = &t->items[order[j]];
		chosen->gc_tracked = owners_resource_is_deletable(chosen) && !ignored_by_gc(chosen);
	}
	free(order);
}

const struct owners_resource *owners_resource_tracked(const struct owners_resource_table *t,
						      const struct owners_resource *r)
{
	size_t i;

	if (!r || r->gc_tracked)
		return r && r->gc_tracked ? r : NULL;
	for (i = 0; i < t->count; i++)
		if (t->items[i].gc_tracked && owners_resource_same_type(&t->items[i], r))
			return &t->items[i];
	return NULL;
}

/* ---- references, as the GC's REST mapper reads them ------------------- */

/* schema.ParseGroupVersion(), with FromAPIVersionAndKind()'s fallback:
 * "" and "/" are the empty group version, "v1" the core group's, "g/v" a
 * group's, and anything with more slashes the empty group version too. */
static void parse_group_version(const char *api_version, const char **group, size_t *group_len,
				const char **version)
{
	const char *slash = strchr(api_version, '/');

	*group = "";
	*group_len = 0;
	*version = "";
	if (!slash) {
		*version = api_version;
	} else if (!strchr(slash + 1, '/')) {
		*group = api_version;
		*group_len = (size_t)(slash - api_version);
		*version = slash + 1;
	}
}

/* The mapper registers each kind as served and in lowercase. */
static int kind_matches(const char *written, const char *kind)
{
	size_t i;

	if (!strcmp(written, kind))
		return 1;
	for (i = 0; kind[i] && written[i] == (char)tolower((unsigned char)kind[i]); i++)
		;
	return !kind[i] && !written[i];
}

/* "<Kind>List", which the mapper also registers (with a guessed plural). */
static int kind_list_matches(const char *written, const char *kind)
{
	size_t n = strlen(kind);

	return !strncmp(written, kind, n) && !strcmp(written + n, "List");
}

/* The served resource of this group and version (any version of the group,
 * the preferred first, when version is "") whose kind matches. */
static const struct owners_resource *find_kind(const struct owners_resource_table *t,
					       const char *group, size_t glen, const char *version,
					       const char *kind, int (*matches)(const char *, const char *))
{
	const struct owners_resource *other = NULL;
	size_t i;

	for (i = 0; i < t->count; i++) {
		const struct owners_resource *r = &t->items[i];

		if (strlen(r->group) != glen || strncmp(r->group, group, glen) ||
		    (*version && strcmp(r->version, version)) || !matches(kind, r->kind))
			continue;
		if (*version || r->preferred)
			return r;
		if (!other)
			other = r;
	}
	return other;
}

enum owners_ref_mapping owners_resource_map_ref(const struct owners_resource_table *t,
						const char *api_version, const char *kind,
						const struct owners_resource **out)
{
	const char *group, *version;
	size_t glen;
	struct owners_buf gv = OWNERS_BUF_INIT;
	int blind;

	*out = NULL;
	if (!t || !api_version || !kind)
		return OWNERS_REF_UNMAPPED;
	/* Nearly every reference is written as the type's own apiVersion and
	 * kind: one hash lookup. */
	if ((*out = owners_resource_by_gvk(t, api_version, kind)))
		return OWNERS_REF_MAPPED;
	parse_group_version(api_version, &group, &glen, &version);
	if ((*out = find_kind(t, group, glen, version, kind, kind_matches)))
		return OWNERS_REF_MAPPED;
	if ((*out = find_kind(t, group, glen, version, kind, kind_list_matches)))
		return OWNERS_REF_MAPPED_MISSING;
	blind = !(glen ? owners_buf_addf(&gv, "%.*s/%s", (int)glen, group, version)
		       : owners_buf_adds(&gv, version)) &&
		owners_resource_group_failed(t, gv.ptr);
	owners_buf_clear(&gv);
	return blind || t->built_from_objects ? OWNERS_REF_MAPPING_BLIND : OWNERS_REF_UNMAPPED;
}
