#include "cascade_exec.h"

#include <stdlib.h>
#include <string.h>

#include "api_path.h"
#include "json.h"
#include "patch.h"


/* ---- bodies ----------------------------------------------------------- */

int owners_delete_options_json(struct owners_buf *out, const char *uid, const char *policy,
			       long grace_period, int dry_run)
{
	struct owners_json_gen *j = owners_json_gen_new(out, 0);
	int rc;

	if (!j)
		return OWNERS_ENOMEM;
	rc = owners_json_gen_typed_open(j, "DeleteOptions", "v1");
	if (!rc)
		rc = owners_json_gen_kv(j, "propagationPolicy", policy);
	if (!rc && grace_period >= 0)
		rc = owners_json_gen_kv_int(j, "gracePeriodSeconds", grace_period);
	if (!rc)
		rc = owners_json_gen_string(j, "preconditions");
	if (!rc)
		rc = owners_json_gen_map_open(j);
	if (!rc)
		rc = owners_json_gen_kv(j, "uid", uid);
	if (!rc)
		rc = owners_json_gen_map_close(j);
	if (!rc && dry_run) {
		rc = owners_json_gen_string(j, "dryRun");
		if (!rc)
			rc = owners_json_gen_array_open(j);
		if (!rc)
			rc = owners_json_gen_string(j, "All");
		if (!rc)
			rc = owners_json_gen_array_close(j);
	}
	if (!rc)
		rc = owners_json_gen_map_close(j);
	owners_json_gen_free(j);
	return rc;
}

int owners_finalizers_patch_json(struct owners_buf *out, const struct owners_node *n,
				 const char *remove, const char *add)
{
	struct owners_json_gen *j = NULL;
	uint32_t i;
	int rc;

	if ((rc = owners_patch_begin(&j, out, n->resource_version, NULL)))
		return rc;
	rc = owners_json_gen_string(j, "finalizers");
	if (!rc)
		rc = owners_json_gen_array_open(j);
	for (i = 0; !rc && i < n->n_finalizers; i++)
		if (!remove || strcmp(n->finalizers[i], remove))
			rc = owners_json_gen_string(j, n->finalizers[i]);
	if (!rc && add && !owners_node_has_finalizer(n, add))
		rc = owners_json_gen_string(j, add);
	if (!rc)
		rc = owners_json_gen_array_close(j);
	return owners_patch_end(j) || rc ? OWNERS_ENOMEM : 0;
}

int owners_refs_patch_json(struct owners_buf *out, const struct owners_node *n,
			   int (*drop)(void *ctx, const struct owners_ref *ref), void *ctx)
{
	struct owners_json_gen *j = NULL;
	uint32_t i;
	int rc;

	if ((rc = owners_patch_begin(&j, out, n->resource_version, NULL)))
		return rc;
	rc = owners_json_gen_string(j, "ownerReferences");
	if (!rc)
		rc = owners_json_gen_array_open(j);
	for (i = 0; !rc && i < n->n_refs; i++) {
		const struct owners_ref *ref = &n->refs[i];

		if (drop(ctx, ref))
			continue;
		rc = owners_json_gen_map_open(j);
		if (!rc)
			rc = owners_json_gen_kv(j, "apiVersion", ref->api_version);
		if (!rc)
			rc = owners_json_gen_kv(j, "kind", ref->kind);
		if (!rc)
			rc = owners_json_gen_kv(j, "name", ref->name);
		if (!rc)
			rc = owners_json_gen_kv(j, "uid", ref->uid);
		/* As read: true, false, or absent ("controller": false is not
		 * the same bytes as no field, and the GC keeps it too). */
		if (!rc && (ref->controller || ref->controller_set))
			rc = owners_json_gen_kv_bool(j, "controller", ref->controller);
		if (!rc && (ref->block_owner_deletion || ref->block_owner_deletion_set))
			rc = owners_json_gen_kv_bool(j, "blockOwnerDeletion", ref->block_owner_deletion);
		if (!rc)
			rc = owners_json_gen_map_close(j);
	}
	if (!rc)
		rc = owners_json_gen_array_close(j);
	return owners_patch_end(j) || rc ? OWNERS_ENOMEM : 0;
}

/* ---- requests --------------------------------------------------------- */

struct step {
	struct owners_http_request first;   /* the patch, or the delete */
	struct owners_http_request second;  /* the delete after our finalizer patch */
	int has_second;
	int second_submitted;
	struct owners_action_result *result;
	struct owners_http_client *client;
};

struct drop_ctx {
	const struct owners_cascade_plan *plan;
	struct owners_graph *g;
	uint32_t dep;
};

static int drop_if_in(void *ctx, const struct owners_ref *ref)
{
	struct drop_ctx *d = ctx;

	return owners_cascade_ref_in(d->plan, d->g, d->dep, ref);
}

static void record(struct owners_action_result *res, const struct owners_http_request *r)
{
	if (!r->err.code) {
		res->outcome = OWNERS_OUTCOME_DONE;
		return;
	}
	switch (r->status) {
	case 404:
		res->outcome = OWNERS_OUTCOME_GONE;
		return;
	case 409:
		res->outcome = OWNERS_OUTCOME_CONFLICT;
		return;
	case 403:
		res->outcome = OWNERS_OUTCOME_FORBIDDEN;
		break;
	default:
		res->outcome = OWNERS_OUTCOME_FAILED;
		break;
	}
	free(res->message);
	res->message = owners_strdup(owners_error_message(&r->err));
}

static int discard_body(void *ctx, const char *data, size_t len)
{
	(void)ctx;
	(void)data;
	(void)len;
	return 0;
}

static void first_done(void *ctx, struct owners_http_request *r)
{
	struct step *s = ctx;

	record(s->result, r);
	/* Our finalizer is on (or was already): now the DELETE. */
	if (s->has_second && !r->err.code) {
		if (owners_http_submit(s->client, &s->second) == 0)
			s->second_submitted = 1;
		else
			s->result->outcome = OWNERS_OUTCOME_FAILED;
	}
}

static void second_done(void *ctx, struct owners_http_request *r)
{
	record(((struct step *)ctx)->result, r);
}

static int prepare_delete(struct owners_http_request *r, const struct owners_node *n,
			  const char *policy, const struct owners_cascade_exec_options *o)
{
	int rc = owners_api_path_object(&r->path, n->resource, n->namespace_, n->name, NULL);

	r->method = "DELETE";
	r->content_type = "application/json";
	if (!rc)
		rc = owners_delete_options_json(&r->body, n->uid, policy, o->grace_period, o->dry_run);
	return rc;
}

static int prepare_patch(struct owners_http_request *r, const struct owners_node *n, int dry_run)
{
	int rc = owners_api_path_object(&r->path, n->resource, n->namespace_, n->name, NULL);

	if (!rc && dry_run)
		rc = owners_buf_adds(&r->path, "?dryRun=All");
	r->method = "PATCH";
	r->content_type = OWNERS_MERGE_PATCH_TYPE;
	return rc;
}

static int prepare(struct step *s, struct owners_graph *g, const struct owners_cascade_plan *p,
		   const struct owners_action *a, const struct owners_cascade_exec_options *o)
{
	const struct owners_node *n = &g->nodes[a->node];
	int rc = 0;

	if (!n->resource)
		return OWNERS_EINVAL;
	switch (a->kind) {
	case OWNERS_ACT_DELETE:
		return prepare_delete(&s->first, n, "Background", o);
	case OWNERS_ACT_DELETE_FOREGROUND:
	case OWNERS_ACT_DELETE_ORPHAN: {
		int fg = a->kind == OWNERS_ACT_DELETE_FOREGROUND;
		const char *fin = fg ? OWNERS_FINALIZER_FOREGROUND : OWNERS_FINALIZER_ORPHAN;
		const char *policy = fg ? "Foreground" : "Orphan";

		/* With the apiserver's GC support off the policy is ignored and
		 * the object would vanish at once, its controller with it but
		 * its dependents' controllers still running: putting the GC's
		 * finalizer on first keeps it visible, in deletion, as the
		 * cascade needs. */
		if (o->server_gc || owners_node_has_finalizer(n, fin))
			return prepare_delete(&s->first, n, policy, o);
		rc = prepare_patch(&s->first, n, o->dry_run);
		if (!rc)
			rc = owners_finalizers_patch_json(&s->first.body, n, NULL, fin);
		if (!rc)
			rc = prepare_delete(&s->second, n, policy, o);
		s->has_second = 1;
		return rc;
	}
	case OWNERS_ACT_REMOVE_FINALIZER:
		rc = prepare_patch(&s->first, n, o->dry_run);
		return rc ? rc : owners_finalizers_patch_json(&s->first.body, n, a->finalizer, NULL);
	case OWNERS_ACT_RELEASE: {
		struct drop_ctx d = { p, g, a->node };

		rc = prepare_patch(&s->first, n, o->dry_run);
		return rc ? rc : owners_refs_patch_json(&s->first.body, n, drop_if_in, &d);
	}
	}
	return OWNERS_EINVAL;
}

int owners_cascade_execute(struct owners_graph *g, const struct owners_cascade_plan *p,
			   struct owners_http_client *c, const struct owners_cascade_exec_options *o,
			   struct owners_action_result *results, struct owners_error *err)
{
	struct step *steps = calloc(p->n_actions ? p->n_actions : 1, sizeof(*steps));
	size_t i;
	int rc = 0;

	if (!steps)
		return owners_error_oom(err);
	for (i = 0; i < p->n_actions; i++) {
		struct step *s = &steps[i];

		owners_http_request_init(&s->first);
		owners_http_request_init(&s->second);
		s->result = &results[i];
		s->client = c;
		s->first.on_done = first_done;
		s->first.ctx = s;
		s->second.on_done = second_done;
		s->second.ctx = s;
		/* A successful DELETE or PATCH answers with the whole object:
		 * nobody reads it, and a cascade of 10,000 kept 40 MB of them.
		 * (Error bodies are always kept, for the message.) */
		s->first.on_data = discard_body;
		s->second.on_data = discard_body;
		results[i].outcome = OWNERS_OUTCOME_FAILED;
		results[i].message = NULL;
	}
	for (i = 0; !rc && i < p->n_actions; i++) {
		if ((rc = prepare(&steps[i], g, p, &p->actions[i], o))) {
			owners_error_oom(err);
			break;
		}
		/* A DELETE or PATCH may be repeated safely: the UID precondition and
		 * the resourceVersion make a second attempt a no-op or a 409. */
		steps[i].first.idempotent = 1;
		steps[i].second.idempotent = 1;
		if ((rc = owners_http_submit(c, &steps[i].first))) {
			owners_error_oom(err);
			break;
		}
	}
	/* Always run what was submitted, even after a failure: the client
	 * holds pointers into steps until each request's on_done. */
	{
		int run_rc = owners_http_run(c, err);

		if (!rc)
			rc = run_rc;
	}
	for (i = 0; i < p->n_actions; i++) {
		owners_http_request_release(&steps[i].first);
		owners_http_request_release(&steps[i].second);
	}
	free(steps);
	return rc;
}

void owners_cascade_results_free(struct owners_action_result *r, size_t n)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < n; i++)
		free(r[i].message);
	free(r);
}
