#include "finalizer_remove_render.h"

#include "document_json.h"

#include <string.h>

#include "api_path.h"
#include "document_json.h"
#include "json.h"

/* ---- text ------------------------------------------------------------------- */

/* "pod/web", "deployment.apps/web": how kubectl names an object. */
static int object_ref(struct owners_buf *out, const struct owners_resource *r, const char *name)
{
	return owners_api_object_name(out, r->kind, r->group, name);
}

/* "a, kubernetes (spec.finalizers)"; removed ones say how they went. */
static int add_names(struct owners_buf *b, const struct owners_finalizer_remove_finalizer *a,
		     size_t n, int removed)
{
	size_t i;
	int rc = 0;

	for (i = 0; !rc && i < n; i++)
		rc = owners_buf_addf(b, "%s%s%s", i ? ", " : "", a[i].name,
				     !a[i].spec ? ""
				     : removed  ? " (spec.finalizers, through finalize)"
						: " (spec.finalizers)");
	return rc;
}

/* After "removed ...": the end state of an object written to. */
static int end_state(struct owners_buf *b, const struct owners_finalizer_remove_outcome *o)
{
	int rc;

	if (o->result == OWNERS_FINALIZER_REMOVE_GONE)
		return owners_buf_adds(b, "; gone\n");
	rc = owners_buf_adds(b, "; still there, ");
	if (!rc && !o->deleting)
		rc = owners_buf_adds(b, "not being deleted");
	else if (!rc && o->n_left)
		rc = owners_buf_adds(b, "being deleted, waiting for ");
	else if (!rc)
		rc = owners_buf_adds(b, "being deleted, no finalizers left");
	if (!rc && o->deleting && o->n_left)
		rc = add_names(b, o->left, o->n_left, 0);
	else if (!rc && o->n_left) {
		rc = owners_buf_adds(b, ", finalizers: ");
		if (!rc)
			rc = add_names(b, o->left, o->n_left, 0);
	}
	return rc ? rc : owners_buf_addc(b, '\n');
}

/* One line per object: what was done, and the end state. */
static int describe(struct owners_buf *b, const struct owners_finalizer_remove_target *t,
		    const struct owners_finalizer_remove_outcome *o)
{
	int rc;

	switch (o->result) {
	case OWNERS_FINALIZER_REMOVE_DRY_RUN:
		rc = object_ref(b, t->resource, t->name);
		if (!rc)
			rc = owners_buf_adds(b, ": would remove ");
		if (!rc)
			rc = add_names(b, o->removed, o->n_removed, 1);
		if (!rc && o->n_left)
			rc = owners_buf_adds(b, "; it would keep ");
		if (!rc && o->n_left)
			rc = add_names(b, o->left, o->n_left, 0);
		if (!rc && !o->n_left && o->deleting)
			rc = owners_buf_adds(b,
					     "; with no finalizers left it would then be deleted");
		return rc ? rc : owners_buf_adds(b, " (dry run: nothing was changed)\n");
	case OWNERS_FINALIZER_REMOVE_NOTHING:
		rc = object_ref(b, t->resource, t->name);
		if (!rc && t->n_uids && o->message) /* --uid: "already done: ..." */
			return owners_buf_addf(b, ": %s\n", o->message);
		return rc ? rc : owners_buf_adds(b, ": no finalizers to remove\n");
	case OWNERS_FINALIZER_REMOVE_GONE:
	case OWNERS_FINALIZER_REMOVE_FREED:
	case OWNERS_FINALIZER_REMOVE_LEFT:
		rc = object_ref(b, t->resource, t->name);
		if (!rc && !o->n_removed && t->n_uids && o->message)
			return owners_buf_addf(b, ": %s\n", o->message);
		if (!rc && o->n_removed) {
			rc = owners_buf_adds(b, ": removed ");
			if (!rc)
				rc = add_names(b, o->removed, o->n_removed, 1);
		} else if (!rc) {
			rc = owners_buf_adds(b, ": nothing removed");
		}
		return rc ? rc : end_state(b, o);
	case OWNERS_FINALIZER_REMOVE_NOT_FOUND:
	case OWNERS_FINALIZER_REMOVE_REFUSED:
	case OWNERS_FINALIZER_REMOVE_FAILED:
		break; /* said by the caller, from the outcome's message */
	}
	return 0;
}

/* "configmap/o: released its dependents first: configmap/a, pod/b" (or
 * would, or could not), before the object's own line. */
static int describe_release(struct owners_buf *b, const struct owners_graph *g,
			    const struct owners_finalizer_remove_target *t,
			    const struct owners_orphan_release *r)
{
	static const char *const heads[] = {
		[OWNERS_RELEASE_RELEASED] = "released its dependents first",
		[OWNERS_RELEASE_DRY_RUN] = "would release its dependents first (dry run)",
		[OWNERS_RELEASE_FAILED] = "could not release its dependents",
	};
	static const enum owners_release_result shown[] = { OWNERS_RELEASE_RELEASED,
							    OWNERS_RELEASE_DRY_RUN,
							    OWNERS_RELEASE_FAILED };
	size_t i, k, n;
	int rc = 0;

	for (k = 0; !rc && k < sizeof(shown) / sizeof(shown[0]); k++) {
		for (i = n = 0; !rc && i < r->count; i++) {
			const struct owners_release_item *it = &r->items[i];
			const struct owners_node *d = &g->nodes[it->dependent];

			if (it->result != shown[k])
				continue;
			if (!n++) {
				rc = object_ref(b, t->resource, t->name);
				if (!rc)
					rc = owners_buf_addf(b, ": %s: ", heads[shown[k]]);
			} else {
				rc = owners_buf_adds(b, ", ");
			}
			if (!rc)
				rc = object_ref(b, d->place->resource, d->name);
			if (!rc && *d->place->namespace_ &&
			    strcmp(d->place->namespace_, t->namespace_ ? t->namespace_ : ""))
				rc = owners_buf_addf(b, " (namespace %s)", d->place->namespace_);
			if (!rc && it->message)
				rc = owners_buf_addf(b, " (%s)", it->message);
		}
		if (!rc && n)
			rc = owners_buf_addc(b, '\n');
	}
	return rc;
}

int owners_finalizer_remove_render_text(struct owners_buf *out,
					const struct owners_finalizer_remove_render *r)
{
	size_t i;
	int rc = 0;

	for (i = 0; !rc && i < r->n; i++) {
		if (r->releases && r->releases[i].count)
			rc = describe_release(out, r->g, &r->targets[i], &r->releases[i]);
		if (!rc)
			rc = describe(out, &r->targets[i], &r->outcomes[i]);
	}
	return rc;
}

/* ---- JSON ------------------------------------------------------------------- */

static int json_names(struct owners_json_gen *j, const char *key,
		      const struct owners_finalizer_remove_finalizer *a, size_t n)
{
	size_t i;

	owners_json_gen_string(j, key);
	owners_json_gen_array_open(j);
	for (i = 0; i < n; i++) {
		owners_json_gen_map_open(j);
		owners_json_gen_kv(j, "name", a[i].name);
		owners_json_gen_kv(j, "field",
				   a[i].spec ? "spec.finalizers" : "metadata.finalizers");
		owners_json_gen_map_close(j);
	}
	owners_json_gen_array_close(j);
	return owners_json_gen_error(j);
}

int owners_finalizer_remove_render_json(struct owners_buf *out,
					const struct owners_finalizer_remove_render *r)
{
	static const struct owners_orphan_release none;
	struct owners_json_gen *j;
	size_t i;
	int rc;

	if (owners_json_gen_new(&j, out, 1))
		return OWNERS_ENOMEM;
	owners_document_open(j, "OwnersFinalizerRemoval");
	owners_json_gen_kv_bool(j, "dryRun", r->dry_run);
	owners_document_items(j);
	for (i = 0; i < r->n; i++) {
		const struct owners_finalizer_remove_target *t = &r->targets[i];
		const struct owners_finalizer_remove_outcome *o = &r->outcomes[i];

		/* a target, not a node (it may not exist): the object half as
		 * owners_document_object() writes it, as far as it is known */
		owners_json_gen_map_open(j);
		owners_json_gen_kv(j, "apiVersion", t->resource->api_version);
		owners_json_gen_kv(j, "kind", t->resource->kind);
		owners_json_gen_string(j, "metadata");
		owners_json_gen_map_open(j);
		owners_json_gen_kv(j, "name", t->name);
		if (t->resource->namespaced && t->namespace_ && *t->namespace_)
			owners_json_gen_kv(j, "namespace", t->namespace_);
		owners_json_gen_kv(j, "uid", o->uid);
		owners_json_gen_map_close(j);
		owners_document_facts(j);
		owners_json_gen_kv(j, "result", owners_finalizer_remove_result_name(o->result));
		owners_json_gen_kv(j, "message", o->message);
		json_names(j, "removed", o->removed, o->n_removed);
		json_names(j, "finalizersLeft", o->left, o->n_left);
		owners_json_gen_kv_bool(j, "deleting", o->deleting);
		owners_json_gen_kv_int(j, "writes", o->writes);
		owners_json_gen_string(j, "releasedDependents");
		owners_orphan_release_json(j, r->g, r->releases ? &r->releases[i] : &none);
		owners_json_gen_map_close(j); /* "owners" */
		owners_json_gen_map_close(j);
	}
	owners_document_close(j, r->warnings, r->n_warnings);
	rc = owners_json_gen_error(j);
	owners_json_gen_free(j);
	return rc ? rc : owners_buf_addc(out, '\n');
}
