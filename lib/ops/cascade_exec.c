#include "cascade_exec.h"

#include <stdlib.h>
#include <string.h>

#include "api_path.h"
#include "json.h"
#include "patch.h"


/* ---- bodies ----------------------------------------------------------- */

int owners_delete_options_json(struct owners_buf *out, const char *uid, const char *resource_version,
			       const char *policy, long grace_period, int dry_run)
{
	struct owners_json_gen *j;
	int rc;

	if (owners_json_gen_new(&j, out, 0))
		return OWNERS_ENOMEM;
	owners_json_gen_typed_open(j, "DeleteOptions", "v1");
	owners_json_gen_kv(j, "propagationPolicy", policy);
	if (grace_period >= 0)
		owners_json_gen_kv_int(j, "gracePeriodSeconds", grace_period);
	owners_json_gen_string(j, "preconditions");
	owners_json_gen_map_open(j);
	owners_json_gen_kv(j, "uid", uid);
	if (resource_version && *resource_version)
		owners_json_gen_kv(j, "resourceVersion", resource_version);
	owners_json_gen_map_close(j);
	if (dry_run) {
		owners_json_gen_string(j, "dryRun");
		owners_json_gen_array_open(j);
		owners_json_gen_string(j, "All");
		owners_json_gen_array_close(j);
	}
	owners_json_gen_map_close(j);
	rc = owners_json_gen_error(j);
	owners_json_gen_free(j);
	return rc;
}

int owners_finalizer_list_patch_json(struct owners_buf *out, const char *resource_version,
				     const char *const *finalizers, size_t n, const char *remove,
				     const char *add)
{
	struct owners_json_gen *j = NULL;
	size_t i;
	int rc, has_add = 0;

	if ((rc = owners_patch_begin(&j, out, resource_version, NULL)))
		return rc;
	owners_json_gen_string(j, "finalizers");
	owners_json_gen_array_open(j);
	for (i = 0; i < n; i++) {
		has_add |= add && !strcmp(finalizers[i], add);
		if (!remove || strcmp(finalizers[i], remove))
			owners_json_gen_string(j, finalizers[i]);
	}
	if (add && !has_add)
		owners_json_gen_string(j, add);
	owners_json_gen_array_close(j);
	return owners_patch_end(j) ? OWNERS_ENOMEM : 0;
}

int owners_finalizers_patch_json(struct owners_buf *out, const struct owners_node *n,
				 const char *remove, const char *add)
{
	return owners_finalizer_list_patch_json(out, OWNERS_NODE_RV(n), n->extras->finalizers,
						n->extras->n_finalizers, remove, add);
}

/* The object's references as read, but those drop() takes out, and with
 * unblock every blockOwnerDeletion written false. */
static int refs_patch(struct owners_buf *out, const struct owners_graph *g,
		      const struct owners_node *n,
		      int (*drop)(void *ctx, const struct owners_ref *ref), void *ctx, int unblock)
{
	struct owners_json_gen *j = NULL;
	uint32_t i;
	int rc;

	if ((rc = owners_patch_begin(&j, out, OWNERS_NODE_RV(n), NULL)))
		return rc;
	owners_json_gen_string(j, "ownerReferences");
	owners_json_gen_array_open(j);
	for (i = 0; i < n->n_refs; i++) {
		const struct owners_ref *ref = &n->refs[i];

		if (drop && drop(ctx, ref))
			continue;
		owners_json_gen_map_open(j);
		owners_json_gen_kv(j, "apiVersion", ref->type->api_version);
		owners_json_gen_kv(j, "kind", ref->type->kind);
		owners_json_gen_kv(j, "name", ref->name);
		owners_json_gen_kv(j, "uid", OWNERS_REF_UID(g, ref));
		/* As read: true, false, or absent ("controller": false is not
		 * the same bytes as no field, and the GC keeps it too). */
		if ((ref->controller || ref->controller_set))
			owners_json_gen_kv_bool(j, "controller", ref->controller);
		if ((ref->block_owner_deletion || ref->block_owner_deletion_set))
			owners_json_gen_kv_bool(j, "blockOwnerDeletion", ref->block_owner_deletion && !unblock);
		owners_json_gen_map_close(j);
	}
	owners_json_gen_array_close(j);
	return owners_patch_end(j) ? OWNERS_ENOMEM : 0;
}

int owners_refs_patch_json(struct owners_buf *out, const struct owners_graph *g,
			   const struct owners_node *n,
			   int (*drop)(void *ctx, const struct owners_ref *ref), void *ctx)
{
	return refs_patch(out, g, n, drop, ctx, 0);
}

int owners_refs_unblock_patch_json(struct owners_buf *out, const struct owners_graph *g,
				   const struct owners_node *n)
{
	return refs_patch(out, g, n, NULL, NULL, 1);
}

/* ---- requests --------------------------------------------------------- */

/* One action's requests, chained by their on_done callbacks:
 *   patch      the action's PATCH (release, finalizer off), or our GC
 *              finalizer put on before the DELETE when the apiserver's GC
 *              is off (then `added` names it);
 *   del        DELETE with the UID and the resourceVersion read as
 *              preconditions;
 *   reread     after a 409 on it, the object read again, as the GC's
 *              deleteObject() does: gone is done, another UID is left alone,
 *              and only when its ownerReferences are the ones the plan was
 *              made on is it deleted again, with the UID precondition alone
 *              (del_again); otherwise the next round decides afresh;
 *   undo       our finalizer taken off again when the DELETE after it did
 *              not go through (refused by admission, say): a refused delete
 *              leaves the object as it was. */
struct step {
	struct owners_http_request patch, del, reread, del_again, undo;
	const struct owners_graph *g; /* the node's */
	const struct owners_node *node;
	const char *added;
	const char *displaced;        /* the other GC finalizer, taken off with it */
	char *added_rv;               /* the resourceVersion our finalizer's write left */
	const char *policy;
	long grace_period;
	int dry_run;
	struct owners_action_result *result;
	struct owners_http_client *client;
};

struct drop_ctx {
	const struct owners_cascade_plan *plan;
	struct owners_graph *g;
	uint32_t dep;
	const struct owners_cascade_exec_options *o;
};

static int drop_released(void *ctx, const struct owners_ref *ref)
{
	struct drop_ctx *d = ctx;

	if (d->o->drop)
		return d->o->drop(d->o->drop_ctx, d->dep, ref);
	return owners_cascade_ref_released(d->plan, d->g, d->dep, ref);
}

static void set_message(struct owners_action_result *res, const char *msg)
{
	free(res->message);
	res->message = msg ? owners_strdup(msg) : NULL;
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
	set_message(res, owners_error_message(&r->err));
}

static int discard_body(void *ctx, const char *data, size_t len)
{
	(void)ctx;
	(void)data;
	(void)len;
	return 0;
}

static void submit(struct step *s, struct owners_http_request *r)
{
	if (owners_http_submit(s->client, r)) {
		s->result->outcome = OWNERS_OUTCOME_FAILED;
		set_message(s->result, "out of memory");
	}
}

static int delete_request(struct owners_http_request *r, const struct step *s,
			  const char *resource_version)
{
	const struct owners_node *n = s->node;
	int rc;

	owners_buf_reset(&r->path);
	owners_buf_reset(&r->body);
	rc = owners_api_path_object(&r->path, n->place->resource, n->place->namespace_, n->name, NULL);
	r->method = "DELETE";
	r->content_type = "application/json";
	if (!rc)
		rc = owners_delete_options_json(&r->body, OWNERS_NODE_UID(n), resource_version,
						s->policy, s->grace_period, s->dry_run);
	return rc;
}

static int patch_request(struct owners_http_request *r, const struct owners_node *n, int dry_run)
{
	int rc = owners_api_path_object(&r->path, n->place->resource, n->place->namespace_, n->name, NULL);

	if (!rc && dry_run)
		rc = owners_buf_adds(&r->path, "?dryRun=All");
	r->method = "PATCH";
	r->content_type = OWNERS_MERGE_PATCH_TYPE;
	return rc;
}

/* The metadata of a response body (a PATCH's or a GET's), or NULL. */
static struct owners_json_value *response_doc(const struct owners_http_request *r)
{
	struct owners_json_value *v = NULL;

	if (owners_json_parse(&v, r->response.ptr, r->response.len, NULL))
		return NULL;
	return v;
}

static const char *meta_string(const struct owners_json_value *doc, const char *key)
{
	return owners_json_string(owners_json_path(doc, "metadata", key, NULL));
}

/* Takes our finalizer off again, conditional on the resourceVersion given
 * (the one our own write left, or the one just read); finalizers are the
 * object's as known then. */
static void undo_finalizer(struct step *s, const char *resource_version,
			   const char *const *finalizers, size_t n)
{
	if (!resource_version || !*resource_version ||
	    patch_request(&s->undo, s->node, s->dry_run) ||
	    owners_finalizer_list_patch_json(&s->undo.body, resource_version, finalizers, n, s->added,
					     s->displaced)) {
		set_message(s->result, "the finalizer added before the DELETE could not be taken off again");
		return;
	}
	submit(s, &s->undo);
}

static int refs_unchanged(const struct owners_json_value *refs, const struct owners_graph *g,
			  const struct owners_node *n)
{
	size_t i;

	if (!refs || refs->type == OWNERS_JSON_NULL)
		return n->n_refs == 0;
	if (refs->type != OWNERS_JSON_ARRAY || refs->count != n->n_refs)
		return 0;
	for (i = 0; i < refs->count; i++) {
		const struct owners_json_value *r = refs->items[i];
		const struct owners_ref *k = &n->refs[i];
		const struct owners_json_value *c = owners_json_get(r, "controller");
		const struct owners_json_value *b = owners_json_get(r, "blockOwnerDeletion");
		const char *av = owners_json_string(owners_json_get(r, "apiVersion"));
		const char *kind = owners_json_string(owners_json_get(r, "kind"));
		const char *name = owners_json_string(owners_json_get(r, "name"));
		const char *uid = owners_json_string(owners_json_get(r, "uid"));

		if (!av || !kind || !name || !uid || strcmp(av, k->type->api_version) ||
		    strcmp(kind, k->type->kind) || strcmp(name, k->name) ||
		    strcmp(uid, OWNERS_REF_UID(g, k)))
			return 0;
		/* As the GC's reflect.DeepEqual: absent and false differ. */
		if ((c != NULL) != (k->controller || k->controller_set) ||
		    (c && owners_json_bool(c, -1) != (int)k->controller))
			return 0;
		if ((b != NULL) != (k->block_owner_deletion || k->block_owner_deletion_set) ||
		    (b && owners_json_bool(b, -1) != (int)k->block_owner_deletion))
			return 0;
	}
	return 1;
}

static void undo_done(void *ctx, struct owners_http_request *r)
{
	struct step *s = ctx;

	if (r->err.code && r->status != 404)
		set_message(s->result, "the finalizer added before the DELETE could not be taken off again");
}

static void del_again_done(void *ctx, struct owners_http_request *r)
{
	record(((struct step *)ctx)->result, r);
}

static void reread_done(void *ctx, struct owners_http_request *r)
{
	struct step *s = ctx;
	struct owners_json_value *doc = NULL;
	const char *uid, *rv;

	s->result->outcome = OWNERS_OUTCOME_CONFLICT;
	if (r->status == 404) {
		s->result->outcome = OWNERS_OUTCOME_GONE;
		return;
	}
	if (r->err.code || !(doc = response_doc(r)))
		return; /* the next round reads it again */
	uid = meta_string(doc, "uid");
	rv = meta_string(doc, "resourceVersion");
	if (!uid || strcmp(uid, OWNERS_NODE_UID(s->node))) {
		owners_json_value_free(doc);
		return; /* re-created: the new object is not ours to touch */
	}
	if (refs_unchanged(owners_json_path(doc, "metadata", "ownerReferences", NULL), s->g,
			   s->node)) {
		/* Only something else about it changed (status, labels): the
		 * decision stands. */
		if (delete_request(&s->del_again, s, NULL) == 0)
			submit(s, &s->del_again);
	} else if (s->added) {
		const struct owners_json_value *f = owners_json_path(doc, "metadata", "finalizers", NULL);
		const char **names = calloc(f && f->type == OWNERS_JSON_ARRAY ? f->count + 1 : 1, sizeof(*names));
		size_t i, n = 0;

		for (i = 0; names && f && f->type == OWNERS_JSON_ARRAY && i < f->count; i++)
			if (owners_json_string(f->items[i]))
				names[n++] = owners_json_string(f->items[i]);
		if (names)
			undo_finalizer(s, rv, names, n);
		free(names);
	}
	owners_json_value_free(doc);
}

static void del_done(void *ctx, struct owners_http_request *r)
{
	struct step *s = ctx;

	record(s->result, r);
	if (r->status == 409) {
		submit(s, &s->reread);
		return;
	}
	/* Refused (admission, a 403, a 422): put the object back as it was. */
	if (r->err.code && r->status != 404 && s->added)
		undo_finalizer(s, s->added_rv, s->node->extras->finalizers, s->node->extras->n_finalizers);
}

static void patch_done(void *ctx, struct owners_http_request *r)
{
	struct step *s = ctx;
	struct owners_json_value *doc;
	const char *rv;

	record(s->result, r);
	if (!s->added || r->err.code)
		return;
	/* Our finalizer is on: now the DELETE, at the resourceVersion our
	 * write left (the server answered with the object). */
	doc = response_doc(r);
	rv = meta_string(doc, "resourceVersion");
	s->added_rv = rv ? owners_strdup(rv) : NULL;
	owners_json_value_free(doc);
	if (delete_request(&s->del, s, s->added_rv)) {
		s->result->outcome = OWNERS_OUTCOME_FAILED;
		set_message(s->result, "out of memory");
		return;
	}
	submit(s, &s->del);
}

/* Builds the first request of an action; *first is the one to submit. */
static int prepare(struct step *s, struct owners_graph *g, const struct owners_cascade_plan *p,
		   const struct owners_action *a, const struct owners_cascade_exec_options *o,
		   struct owners_http_request **first)
{
	const struct owners_node *n = &g->nodes[a->node];
	int rc;

	if (!n->place->resource)
		return OWNERS_EINVAL;
	s->g = g;
	s->node = n;
	s->dry_run = o->dry_run;
	/* As kubectl: --grace-period and --force shape the deletion of the
	 * objects named; their dependents get their own defaults, as the GC
	 * gives them. */
	s->grace_period = p->root && p->root[a->node] ? o->grace_period : -1;
	switch (a->kind) {
	case OWNERS_ACT_DELETE:
		s->policy = owners_cascade_policy(OWNERS_CASCADE_BACKGROUND);
		*first = &s->del;
		return delete_request(&s->del, s, OWNERS_NODE_RV(n));
	case OWNERS_ACT_DELETE_FOREGROUND:
	case OWNERS_ACT_DELETE_ORPHAN: {
		int fg = a->kind == OWNERS_ACT_DELETE_FOREGROUND;
		const char *fin = fg ? OWNERS_FINALIZER_FOREGROUND : OWNERS_FINALIZER_ORPHAN;

		s->policy = owners_cascade_policy(fg ? OWNERS_CASCADE_FOREGROUND : OWNERS_CASCADE_ORPHAN);
		/* With the apiserver's GC support off the policy is ignored and
		 * the object would vanish at once, its controller with it but
		 * its dependents' controllers still running: putting the GC's
		 * finalizer on first keeps it visible, in deletion, as the
		 * cascade needs. */
		if (o->server_gc || owners_graph_node_has_finalizer(n, fin)) {
			*first = &s->del;
			return delete_request(&s->del, s, OWNERS_NODE_RV(n));
		}
		s->added = fin;
		if (owners_graph_node_has_finalizer(n, fg ? OWNERS_FINALIZER_ORPHAN : OWNERS_FINALIZER_FOREGROUND))
			s->displaced = fg ? OWNERS_FINALIZER_ORPHAN : OWNERS_FINALIZER_FOREGROUND;
		s->patch.on_data = NULL; /* its answer carries the new resourceVersion */
		*first = &s->patch;
		rc = patch_request(&s->patch, n, o->dry_run);
		/* As the apiserver would for that policy: the other GC
		 * finalizer goes (it refuses both on one object). */
		return rc ? rc : owners_finalizers_patch_json(&s->patch.body, n,
							      fg ? OWNERS_FINALIZER_ORPHAN : OWNERS_FINALIZER_FOREGROUND,
							      fin);
	}
	case OWNERS_ACT_REMOVE_FINALIZER:
		*first = &s->patch;
		rc = patch_request(&s->patch, n, o->dry_run);
		return rc ? rc : owners_finalizers_patch_json(&s->patch.body, n, a->finalizer, NULL);
	case OWNERS_ACT_RELEASE: {
		struct drop_ctx d = { p, g, a->node, o };

		*first = &s->patch;
		rc = patch_request(&s->patch, n, o->dry_run);
		return rc ? rc : owners_refs_patch_json(&s->patch.body, g, n, drop_released, &d);
	}
	case OWNERS_ACT_UNBLOCK:
		*first = &s->patch;
		rc = patch_request(&s->patch, n, o->dry_run);
		return rc ? rc : owners_refs_unblock_patch_json(&s->patch.body, g, n);
	}
	return OWNERS_EINVAL;
}

static void step_init(struct step *s, struct owners_action_result *result, struct owners_http_client *c)
{
	struct owners_http_request *all[] = { &s->patch, &s->del, &s->reread, &s->del_again, &s->undo };
	owners_http_done_fn done[] = { patch_done, del_done, reread_done, del_again_done, undo_done };
	size_t i;

	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		owners_http_request_init(all[i]);
		all[i]->on_done = done[i];
		all[i]->ctx = s;
		/* A successful DELETE or PATCH answers with the whole object:
		 * nobody reads it, and a cascade of 10,000 kept 40 MB of them.
		 * (Error bodies are always kept, for the message.) */
		all[i]->on_data = discard_body;
		/* Repeating any of them is harmless: the UID precondition and
		 * the resourceVersion make a second attempt a no-op or a 409. */
		all[i]->idempotent = 1;
	}
	s->reread.on_data = NULL;
	s->reread.accept = OWNERS_ACCEPT_OBJECT_METADATA;
	s->result = result;
	s->client = c;
	result->outcome = OWNERS_OUTCOME_FAILED;
	result->message = NULL;
}

static void step_clear(struct step *s)
{
	owners_http_request_clear(&s->patch);
	owners_http_request_clear(&s->del);
	owners_http_request_clear(&s->reread);
	owners_http_request_clear(&s->del_again);
	owners_http_request_clear(&s->undo);
	free(s->added_rv);
	memset(s, 0, sizeof(*s));
}

int owners_cascade_exec_plan(struct owners_graph *g, const struct owners_cascade_plan *p,
			     struct owners_http_client *c,
			     const struct owners_cascade_exec_options *o,
			     struct owners_action_result *results, struct owners_error *err)
{
	struct step *steps = calloc(p->n_actions ? p->n_actions : 1, sizeof(*steps));
	size_t i;
	int rc = 0;

	if (!steps)
		return owners_error_oom(err);
	for (i = 0; i < p->n_actions; i++)
		step_init(&steps[i], &results[i], c);
	for (i = 0; !rc && i < p->n_actions; i++) {
		struct owners_http_request *first = NULL;
		const struct owners_node *n = &g->nodes[p->actions[i].node];

		if ((rc = prepare(&steps[i], g, p, &p->actions[i], o, &first)) ||
		    (rc = owners_api_path_object(&steps[i].reread.path, n->place->resource, n->place->namespace_, n->name,
						 NULL)) ||
		    (rc = owners_http_submit(c, first))) {
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
	for (i = 0; i < p->n_actions; i++)
		step_clear(&steps[i]);
	free(steps);
	return rc;
}

void owners_cascade_exec_results_free(struct owners_action_result *r, size_t n)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < n; i++)
		free(r[i].message);
	free(r);
}

void owners_cascade_exec_probe_server_gc(struct owners_http_client *c, const struct owners_node *n,
					 enum owners_cascade_mode mode, int *adds)
{
	struct owners_http_request req;
	struct owners_json_value *v = NULL;
	const struct owners_json_value *fins;
	const char *want = mode == OWNERS_CASCADE_ORPHAN ? OWNERS_FINALIZER_ORPHAN
							 : OWNERS_FINALIZER_FOREGROUND;
	size_t i;
	int rc;

	*adds = 0;
	owners_http_request_init(&req);
	req.method = "DELETE";
	req.content_type = "application/json";
	rc = owners_api_path_object(&req.path, n->place->resource, n->place->namespace_, n->name, NULL);
	if (!rc)
		rc = owners_delete_options_json(&req.body, OWNERS_NODE_UID(n), NULL,
						owners_cascade_policy(mode), -1, 1);
	if (!rc)
		rc = owners_http_do(c, &req);
	if (!rc && !owners_json_parse(&v, req.response.ptr, req.response.len, NULL)) {
		fins = owners_json_path(v, "metadata", "finalizers", NULL);
		for (i = 0; fins && fins->type == OWNERS_JSON_ARRAY && i < fins->count; i++)
			if (owners_json_string(fins->items[i]) &&
			    !strcmp(owners_json_string(fins->items[i]), want))
				*adds = 1;
	}
	owners_json_value_free(v);
	owners_http_request_clear(&req);
}
