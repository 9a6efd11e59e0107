#include "orphan_release.h"

#include <stdlib.h>
#include <string.h>

#include "node_json.h"
#include "object_io.h"
#include "patch.h"

#define DEFAULT_ATTEMPTS 5

const char *owners_release_result_name(enum owners_release_result r)
{
	switch (r) {
	case OWNERS_RELEASE_RELEASED: return "released";
	case OWNERS_RELEASE_DRY_RUN: return "dry-run";
	case OWNERS_RELEASE_GONE: return "gone";
	case OWNERS_RELEASE_NOT_REFERENCING: return "not-referencing";
	case OWNERS_RELEASE_FAILED: return "failed";
	}
	return "failed";
}

/* The failure's message is decoration: out of memory loses it, never the
 * outcome. */
static void fail(struct owners_release_item *it, const struct owners_error *err)
{
	it->result = OWNERS_RELEASE_FAILED;
	it->message = owners_strdup(owners_error_message(err));
}

/* One attempt: 0 when the outcome is settled, OWNERS_ECONFLICT to read
 * again, OWNERS_ENOMEM. */
static int attempt(struct owners_release_item *it, struct owners_http_client *c,
		   const struct owners_node *dep, const char *owner_uid, enum owners_dry_run dry_run)
{
	struct owners_error err = OWNERS_ERROR_INIT;
	struct owners_json_value *doc = NULL;
	struct owners_buf body = OWNERS_BUF_INIT;
	const struct owners_object_get_request get = {
		.key = { dep->place->resource, dep->place->namespace_, dep->name },
		.uid = OWNERS_NODE_UID(dep),
	};
	const struct owners_object_write_request patch = {
		.method = "PATCH",
		.content_type = OWNERS_MERGE_PATCH_TYPE,
		.key = get.key,
		.body = &body,
		.dry_run = dry_run,
	};
	const struct owners_json_value *refs;
	unsigned char *keep = NULL;
	size_t i, dropped = 0;
	int rc;

	rc = owners_object_get(&doc, c, &get, &err);
	if (rc == OWNERS_ENOTFOUND) {
		it->result = OWNERS_RELEASE_GONE;
		rc = 0;
		goto out;
	}
	if (rc) {
		if (rc != OWNERS_ENOMEM)
			fail(it, &err);
		goto out;
	}
	refs = owners_json_path(doc, "metadata", "ownerReferences", NULL);
	if (refs && refs->type != OWNERS_JSON_ARRAY)
		refs = NULL;
	keep = calloc(refs && refs->count ? refs->count : 1, 1);
	if (!keep) {
		rc = OWNERS_ENOMEM;
		goto out;
	}
	for (i = 0; refs && i < refs->count; i++) {
		const char *uid = owners_json_string(owners_json_get(refs->items[i], "uid"));

		keep[i] = !uid || strcmp(uid, owner_uid);
		dropped += !keep[i];
	}
	if (!dropped) {
		it->result = OWNERS_RELEASE_NOT_REFERENCING;
		goto out;
	}
	rc = owners_patch_owner_refs(&body, owners_object_io_meta_string(doc, "resourceVersion"),
				     refs, keep, NULL, &err);
	if (rc) {
		if (rc != OWNERS_ENOMEM)
			fail(it, &err);
		goto out;
	}
	it->writes++;
	rc = owners_object_write(NULL, c, &patch, &err);
	if (!rc)
		it->result = dry_run ? OWNERS_RELEASE_DRY_RUN : OWNERS_RELEASE_RELEASED;
	else if (rc == OWNERS_ENOTFOUND) {
		it->result = OWNERS_RELEASE_GONE;
		rc = 0;
	} else if (rc == OWNERS_ECONFLICT) {
		fail(it, &err); /* stays the outcome if this was the last attempt */
	} else if (rc != OWNERS_ENOMEM) {
		fail(it, &err);
		rc = 0;
	}
out:
	free(keep);
	owners_buf_clear(&body);
	owners_json_value_free(doc);
	owners_error_clear(&err);
	return rc;
}

static int listed(const struct owners_orphan_release *r, uint32_t node)
{
	size_t i;

	for (i = 0; i < r->count; i++)
		if (r->items[i].dependent == node)
			return 1;
	return 0;
}

int owners_orphan_release(struct owners_orphan_release *out, struct owners_http_client *c,
			  const struct owners_graph *g, uint32_t owner,
			  const struct owners_orphan_release_options *opt, struct owners_error *err)
{
	const struct owners_node *o = &g->nodes[owner];
	enum owners_dry_run dry_run = opt->dry_run;
	int max_attempts = opt->max_attempts;
	uint32_t i;
	int n, rc;

	memset(out, 0, sizeof(*out));
	if (max_attempts <= 0)
		max_attempts = DEFAULT_ATTEMPTS;
	out->items = calloc(o->n_dependents ? o->n_dependents : 1, sizeof(*out->items));
	if (!out->items)
		return owners_error_oom(err);
	for (i = 0; i < o->n_dependents; i++) {
		uint32_t d = owners_graph_dependents(g, o)[i];
		const struct owners_node *dep = &g->nodes[d];
		struct owners_release_item *it;

		/* A dependent that names the owner twice is one object; a
		 * virtual one was never seen, so there is nothing to patch. */
		if (dep->virtual_ || !dep->place->resource || listed(out, d))
			continue;
		it = &out->items[out->count++];
		it->dependent = d;
		for (n = 0; n < max_attempts; n++) {
			free(it->message);
			it->message = NULL;
			rc = attempt(it, c, dep, OWNERS_NODE_UID(o), dry_run);
			if (rc == OWNERS_ENOMEM)
				return owners_error_oom(err);
			if (rc != OWNERS_ECONFLICT)
				break;
		}
		out->failed += it->result == OWNERS_RELEASE_FAILED;
	}
	return 0;
}

void owners_orphan_release_clear(struct owners_orphan_release *r)
{
	size_t i;

	for (i = 0; i < r->count; i++)
		free(r->items[i].message);
	free(r->items);
	memset(r, 0, sizeof(*r));
}

int owners_orphan_release_json(struct owners_json_gen *j, const struct owners_graph *g,
			       const struct owners_orphan_release *r)
{
	size_t i;

	owners_json_gen_array_open(j);
	for (i = 0; i < r->count; i++) {
		const struct owners_release_item *it = &r->items[i];
		const struct owners_node *n = &g->nodes[it->dependent];

		/* the generator keeps its first error: checked once per item */
		owners_json_gen_map_open(j);
		owners_node_json_identity(j, n);
		owners_json_gen_kv(j, "result", owners_release_result_name(it->result));
		if (it->message)
			owners_json_gen_kv(j, "message", it->message);
		owners_json_gen_kv_int(j, "writes", it->writes);
		owners_json_gen_map_close(j);
	}
	owners_json_gen_array_close(j);
	return owners_json_gen_error(j);
}
