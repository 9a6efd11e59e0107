#include "resource_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static int gen_strv(struct owners_json_gen *j, const char *key, char **v, size_t n)
{
	size_t i;

	owners_json_gen_string(j, key);
	owners_json_gen_array_open(j);
	for (i = 0; i < n; i++)
		owners_json_gen_string(j, v[i]);
	owners_json_gen_array_close(j);
	return owners_json_gen_error(j);
}

void owners_resource_json_gen(struct owners_json_gen *j, const struct owners_resource_table *t,
			      int format)
{
	size_t i;

	owners_json_gen_map_open(j);
	owners_json_gen_string(j, "format");
	owners_json_gen_int(j, format);
	owners_json_gen_string(j, "resources");
	owners_json_gen_array_open(j);
	for (i = 0; i < t->count; i++) {
		const struct owners_resource *r = &t->items[i];

		owners_json_gen_map_open(j);
		owners_json_gen_kv(j, "group", r->group);
		owners_json_gen_kv(j, "version", r->version);
		owners_json_gen_kv(j, "resource", r->resource);
		owners_json_gen_kv(j, "singular", r->singular ? r->singular : "");
		owners_json_gen_kv(j, "kind", r->kind);
		gen_strv(j, "shortNames", r->short_names, r->n_short_names);
		gen_strv(j, "categories", r->categories, r->n_categories);
		owners_json_gen_string(j, "verbs");
		owners_json_gen_int(j, (long long)r->verbs);
		owners_json_gen_string(j, "namespaced");
		owners_json_gen_bool(j, r->namespaced);
		owners_json_gen_string(j, "preferred");
		owners_json_gen_bool(j, r->preferred);
		owners_json_gen_string(j, "hasStatus");
		owners_json_gen_bool(j, r->has_status);
		owners_json_gen_string(j, "hasScale");
		owners_json_gen_bool(j, r->has_scale);
		owners_json_gen_map_close(j);
	}
	owners_json_gen_array_close(j);
	owners_json_gen_string(j, "failed");
	owners_json_gen_array_open(j);
	for (i = 0; i < t->n_failed; i++) {
		owners_json_gen_map_open(j);
		owners_json_gen_kv(j, "group", t->failed_groups[i]);
		owners_json_gen_kv(j, "reason", t->failed_reasons[i]);
		owners_json_gen_string(j, "stale");
		owners_json_gen_bool(j, owners_resource_table_failed_stale(t, i));
		owners_json_gen_map_close(j);
	}
	owners_json_gen_array_close(j);
	owners_json_gen_map_close(j);
}

static char **strv_of(const struct owners_json_value *a, size_t *n)
{
	char **v;
	size_t i;

	*n = 0;
	if (!a || a->type != OWNERS_JSON_ARRAY || !a->count)
		return NULL;
	v = calloc(a->count, sizeof(*v));
	if (!v)
		return NULL;
	for (i = 0; i < a->count; i++)
		v[i] = (char *)owners_json_string(a->items[i]);
	for (i = 0; i < a->count && v[i]; i++)
		;
	*n = i;
	return v;
}

int owners_resource_json_read(struct owners_resource_table *t, const struct owners_json_value *doc)
{
	const struct owners_json_value *res, *failed;
	size_t i;
	int rc = -1;

	res = owners_json_get(doc, "resources");
	failed = owners_json_get(doc, "failed");
	if (!res || res->type != OWNERS_JSON_ARRAY || !failed || failed->type != OWNERS_JSON_ARRAY)
		goto out;
	for (i = 0; i < res->count; i++) {
		const struct owners_json_value *e = res->items[i];
		struct owners_resource r;
		char api[512];
		int bad;

		memset(&r, 0, sizeof(r));
		r.group = (char *)owners_json_string(owners_json_get(e, "group"));
		r.version = (char *)owners_json_string(owners_json_get(e, "version"));
		r.resource = (char *)owners_json_string(owners_json_get(e, "resource"));
		r.singular = (char *)owners_json_string(owners_json_get(e, "singular"));
		r.kind = (char *)owners_json_string(owners_json_get(e, "kind"));
		if (!r.group || !r.version || !r.resource || !r.singular || !r.kind)
			goto out;
		snprintf(api, sizeof(api), "%s%s%s", r.group, *r.group ? "/" : "", r.version);
		r.api_version = api;
		r.short_names = strv_of(owners_json_get(e, "shortNames"), &r.n_short_names);
		r.categories = strv_of(owners_json_get(e, "categories"), &r.n_categories);
		r.verbs = (unsigned)owners_json_int(owners_json_get(e, "verbs"), 0);
		r.namespaced = owners_json_bool(owners_json_get(e, "namespaced"), 0);
		r.preferred = owners_json_bool(owners_json_get(e, "preferred"), 0);
		r.has_status = owners_json_bool(owners_json_get(e, "hasStatus"), 0);
		r.has_scale = owners_json_bool(owners_json_get(e, "hasScale"), 0);
		bad = owners_resource_table_add(t, &r);
		free(r.short_names);
		free(r.categories);
		if (bad)
			goto out;
	}
	for (i = 0; i < failed->count; i++) {
		const char *g = owners_json_string(owners_json_get(failed->items[i], "group"));
		const char *why = owners_json_string(owners_json_get(failed->items[i], "reason"));

		if (!g || !why)
			goto out;
		/* a stale group keeps its typed flag and the words that explain it */
		if (owners_resource_table_add_failed(t, g, why,
						     owners_json_bool(owners_json_get(failed->items[i], "stale"), 0)))
			goto out;
	}
	rc = 0;
out:
	return rc;
}

