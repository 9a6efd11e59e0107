#include "stuck_fetch.h"

#include <stdlib.h>
#include <string.h>

#include "api_path.h"
#include "grow.h"
#include "json.h"
#include "list_page.h"
#include "pod_claims.h"
#include "scan.h"

/* ---- what to read ---------------------------------------------------------- */

struct node_set {
	uint32_t *nodes;
	size_t n, cap;
	unsigned char *seen;
};

static int set_add(struct node_set *s, uint32_t node)
{
	if (s->seen[node])
		return 0;
	if (OWNERS_GROW(s->nodes, s->cap, s->n + 1))
		return OWNERS_ENOMEM;
	s->seen[node] = 1;
	s->nodes[s->n++] = node;
	return 0;
}

int owners_stuck_fetch_reach(uint32_t **out, size_t *n_out, const struct owners_graph *g,
			     const uint32_t *nodes, size_t n)
{
	struct node_set s;
	size_t i, k;
	int rc = 0;

	*out = NULL;
	*n_out = 0;
	memset(&s, 0, sizeof(s));
	s.seen = calloc(g->count ? g->count : 1, 1);
	if (!s.seen)
		return OWNERS_ENOMEM;
	for (i = 0; !rc && i < n; i++)
		rc = set_add(&s, nodes[i]);
	/* The set grows while it is walked: a breadth-first closure. */
	for (i = 0; !rc && i < s.n; i++) {
		const struct owners_node *o = &g->nodes[s.nodes[i]];

		if (!o->extras->deleted || o->virtual_)
			continue;
		for (k = 0; !rc && k < o->n_dependents; k++)
			if (g->nodes[owners_graph_dependents(g, o)[k]].extras->deleted)
				rc = set_add(&s, owners_graph_dependents(g, o)[k]);
		if (!owners_stuck_is_namespace(o))
			continue;
		for (k = 0; !rc && k < g->count; k++) {
			const struct owners_node *c = &g->nodes[k];

			if (c->extras->deleted && !c->virtual_ && *c->place->namespace_ &&
			    !strcmp(c->place->namespace_, o->name))
				rc = set_add(&s, (uint32_t)k);
		}
	}
	free(s.seen);
	if (rc) {
		free(s.nodes);
		return rc;
	}
	*out = s.nodes;
	*n_out = s.n;
	return 0;
}

/* ---- reading documents -------------------------------------------------------- */

static char *dup_string(const struct owners_json_value *v)
{
	const char *s = owners_json_string(v);

	return owners_strdup(s ? s : "");
}

int owners_stuck_fetch_read_namespace(struct owners_stuck_namespace *ns,
				      const struct owners_json_value *object)
{
	const struct owners_json_value *fins = owners_json_path(object, "spec", "finalizers", NULL);
	const struct owners_json_value *conds = owners_json_path(object, "status", "conditions", NULL);
	size_t i;

	if (fins && fins->type == OWNERS_JSON_ARRAY && fins->count) {
		ns->spec_finalizers = calloc(fins->count, sizeof(*ns->spec_finalizers));
		if (!ns->spec_finalizers)
			return OWNERS_ENOMEM;
		for (i = 0; i < fins->count; i++) {
			if (!owners_json_string(fins->items[i]))
				continue;
			if (!(ns->spec_finalizers[ns->n_spec_finalizers] = dup_string(fins->items[i])))
				return OWNERS_ENOMEM;
			ns->n_spec_finalizers++;
		}
	}
	if (conds && conds->type == OWNERS_JSON_ARRAY && conds->count) {
		ns->conditions = calloc(conds->count, sizeof(*ns->conditions));
		if (!ns->conditions)
			return OWNERS_ENOMEM;
		for (i = 0; i < conds->count; i++) {
			struct owners_stuck_condition *c = &ns->conditions[ns->n_conditions++];
			const struct owners_json_value *v = conds->items[i];

			c->type = dup_string(owners_json_get(v, "type"));
			c->status = dup_string(owners_json_get(v, "status"));
			c->reason = dup_string(owners_json_get(v, "reason"));
			c->message = dup_string(owners_json_get(v, "message"));
			if (!c->type || !c->status || !c->reason || !c->message)
				return OWNERS_ENOMEM;
		}
	}
	return 0;
}

int owners_stuck_fetch_read_volume(struct owners_stuck_volume *v,
				   const struct owners_json_value *object)
{
	const struct owners_json_value *claim = owners_json_path(object, "spec", "claimRef", NULL);

	v->phase = dup_string(owners_json_path(object, "status", "phase", NULL));
	v->claim_namespace = dup_string(owners_json_get(claim, "namespace"));
	v->claim_name = dup_string(owners_json_get(claim, "name"));
	return v->phase && v->claim_namespace && v->claim_name ? 0 : OWNERS_ENOMEM;
}

/* ---- the requests ------------------------------------------------------------- */

enum job_kind { JOB_NAMESPACE, JOB_VOLUME, JOB_PODS };

struct job {
	enum job_kind kind;
	struct owners_http_request req;
	struct owners_stuck_facts *facts;
	size_t index;                 /* into the facts' array of that kind */
	const struct owners_resource *resource;
	struct owners_http_client *client;
	struct owners_pod_claims_parser *parser;
	struct owners_error err;      /* why the parse stopped */
	size_t page_size;
	int restarts;
	int failed;                   /* out of memory */
};

static char **error_slot(struct job *j)
{
	switch (j->kind) {
	case JOB_NAMESPACE: return &j->facts->namespaces[j->index].error;
	case JOB_VOLUME: return &j->facts->volumes[j->index].error;
	case JOB_PODS: return &j->facts->pods[j->index].error;
	}
	return NULL;
}

static void record_error(struct job *j, const struct owners_error *e, const struct owners_http_request *r)
{
	char **slot = error_slot(j);
	const char *why;

	if (r && r->status == 403)
		why = "forbidden";
	else if (r && r->status == 404)
		why = "not found";
	else
		why = owners_error_message(e);
	free(*slot);
	if (!(*slot = owners_strdup(why)))
		j->failed = OWNERS_ENOMEM;
}

static int pods_page(struct job *j, const char *continue_token)
{
	int rc;

	owners_buf_reset(&j->req.path);
	rc = owners_list_page_path(
		&j->req.path,
		&(const struct owners_list_page){ j->resource, j->facts->pods[j->index].namespace_,
						  j->page_size, NULL, continue_token });
	if (!rc)
		rc = owners_pod_claims_parser_next_page(j->parser);
	if (!rc)
		rc = owners_http_submit(j->client, &j->req);
	return rc;
}

static int on_pods_data(void *ctx, const char *data, size_t len)
{
	struct job *j = ctx;

	return owners_pod_claims_parser_feed(j->parser, data, len, &j->err) ? 1 : 0;
}

static void on_pods_attempt(void *ctx)
{
	struct job *j = ctx;

	if (owners_pod_claims_parser_restart_page(j->parser))
		j->failed = OWNERS_ENOMEM;
	owners_error_clear(&j->err);
}

static void on_done(void *ctx, struct owners_http_request *req)
{
	struct job *j = ctx;
	struct owners_json_value *doc = NULL;
	struct owners_error err = OWNERS_ERROR_INIT;
	int rc = 0;

	if (j->failed)
		return;
	if (j->kind == JOB_PODS) {
		if (req->status == 410 && j->restarts < 3) {
			/* The continue token expired: the whole list again. */
			j->restarts++;
			owners_pod_claims_clear(&j->facts->pods[j->index].pods);
			owners_pod_claims_parser_free(j->parser);
			j->parser = NULL;
			rc = owners_pod_claims_parser_new(&j->parser, &j->facts->pods[j->index].pods);
			if (!rc)
				rc = pods_page(j, NULL);
		} else if (req->err.code || j->err.code) {
			record_error(j, j->err.code ? &j->err : &req->err, j->err.code ? NULL : req);
		} else if (owners_pod_claims_parser_finish(j->parser, &j->err)) {
			record_error(j, &j->err, NULL);
		} else {
			const char *next = owners_pod_claims_parser_continue_token(j->parser);

			if (*next) {
				char *token = owners_strdup(next);

				rc = token ? pods_page(j, token) : OWNERS_ENOMEM;
				free(token);
			}
		}
		if (rc)
			j->failed = rc;
		return;
	}
	if (req->err.code) {
		record_error(j, &req->err, req);
		return;
	}
	if (owners_json_parse(&doc, req->response.ptr, req->response.len, &err)) {
		record_error(j, &err, NULL);
	} else if (j->kind == JOB_NAMESPACE) {
		rc = owners_stuck_fetch_read_namespace(&j->facts->namespaces[j->index], doc);
	} else {
		rc = owners_stuck_fetch_read_volume(&j->facts->volumes[j->index], doc);
	}
	if (rc)
		j->failed = rc;
	owners_json_value_free(doc);
	owners_error_clear(&err);
}

/* The namespaced types were listed in this namespace (or everywhere). */
static int content_listed(const struct owners_graph *g, const char *ns)
{
	size_t i;

	for (i = 0; i < g->n_listings; i++) {
		const struct owners_listing *l = &g->listings[i];

		if (l->resource->namespaced && (!l->namespace_ || !strcmp(l->namespace_, ns)))
			return 1;
	}
	return 0;
}

/* How a fetch reads: the list's page size, and ahead (objects not in
 * deletion yet: what a plan predicts they will wait on). */
struct fetch_how {
	size_t page_size;
	int ahead;
};

static int fetch(struct owners_stuck_facts *f, struct owners_graph *g, struct owners_http_client *c,
		 const struct owners_node_list *list, struct fetch_how how, struct owners_error *err);

int owners_stuck_fetch(struct owners_stuck_facts *f, struct owners_graph *g,
		       struct owners_http_client *c, const struct owners_node_list *list,
		       size_t page_size, struct owners_error *err)
{
	return fetch(f, g, c, list, (struct fetch_how){ page_size, 0 }, err);
}

int owners_stuck_fetch_ahead(struct owners_stuck_facts *f, struct owners_graph *g,
			     struct owners_http_client *c, const struct owners_node_list *list,
			     size_t page_size, struct owners_error *err)
{
	return fetch(f, g, c, list, (struct fetch_how){ page_size, 1 }, err);
}

/* The record node needs read, added to the facts, and j made its request;
 * j->facts stays NULL when the node needs nothing read. */
static int plan_job(struct job *j, struct owners_stuck_facts *f, const struct owners_graph *g,
		    uint32_t node)
{
	const struct owners_node *o = &g->nodes[node];

	if (owners_stuck_is_namespace(o) && !owners_stuck_facts_namespace(f, node)) {
		struct owners_stuck_namespace *ns = owners_stuck_facts_add_namespace(f, node);

		if (!ns)
			return OWNERS_ENOMEM;
		ns->content_listed = content_listed(g, o->name);
		j->kind = JOB_NAMESPACE;
		j->index = f->n_namespaces - 1;
	} else if (owners_stuck_is_pv(o) && owners_stuck_has_finalizer(o, OWNERS_FINALIZER_PV) &&
		   !owners_stuck_facts_volume(f, node)) {
		if (!owners_stuck_facts_add_volume(f, node))
			return OWNERS_ENOMEM;
		j->kind = JOB_VOLUME;
		j->index = f->n_volumes - 1;
	} else if (owners_stuck_is_pvc(o) && owners_stuck_has_finalizer(o, OWNERS_FINALIZER_PVC) &&
		   !owners_stuck_facts_pods(f, o->place->namespace_)) {
		if (!owners_stuck_facts_add_pods(f, o->place->namespace_))
			return OWNERS_ENOMEM;
		j->kind = JOB_PODS;
		j->index = f->n_pods - 1;
	} else {
		return 0;
	}
	j->facts = f;
	j->resource = o->place->resource;
	owners_http_request_init(&j->req);
	return 0;
}

/* The first page of a namespace's pods (pods: the server's v1 pods, NULL
 * when it serves none). */
static int submit_pods(struct job *j, const struct owners_resource *pods, size_t page_size)
{
	int rc;

	if (!pods) {
		*error_slot(j) = owners_strdup("the server does not serve v1 pods");
		return *error_slot(j) ? 0 : OWNERS_ENOMEM;
	}
	j->resource = pods;
	j->page_size = page_size ? page_size : OWNERS_DEFAULT_PAGE_SIZE;
	j->req.on_data = on_pods_data;
	j->req.on_attempt = on_pods_attempt;
	rc = owners_pod_claims_parser_new(&j->parser, &j->facts->pods[j->index].pods);
	if (!rc)
		rc = pods_page(j, NULL);
	return rc;
}

static int submit_job(struct job *j, const struct owners_graph *g, const struct owners_resource *pods,
		      size_t page_size)
{
	const struct owners_stuck_facts *f = j->facts;
	const struct owners_node *o;
	int rc;

	j->req.on_done = on_done;
	j->req.ctx = j;
	if (j->kind == JOB_PODS)
		return submit_pods(j, pods, page_size);
	o = &g->nodes[j->kind == JOB_NAMESPACE ? f->namespaces[j->index].node
					       : f->volumes[j->index].node];
	rc = owners_api_path_object(&j->req.path, o->place->resource, NULL, o->name, NULL);
	if (!rc)
		rc = owners_http_submit(j->client, &j->req);
	return rc;
}

static int fetch(struct owners_stuck_facts *f, struct owners_graph *g, struct owners_http_client *c,
		 const struct owners_node_list *list, struct fetch_how how, struct owners_error *err)
{
	const struct owners_resource *pods = owners_resource_by_gvk(g->types, "v1", "Pod");
	struct job *jobs = NULL;
	size_t n_jobs = 0, i;
	int rc = 0, run_rc;

	jobs = calloc(list->n ? list->n : 1, sizeof(*jobs));
	if (!jobs)
		return owners_error_oom(err);
	/* Every record first: the arrays must not move once requests point into them. */
	for (i = 0; !rc && i < list->n; i++) {
		const struct owners_node *o = &g->nodes[list->nodes[i]];
		struct job *j = &jobs[n_jobs];

		if ((!o->extras->deleted && !how.ahead) || o->virtual_)
			continue;
		rc = plan_job(j, f, g, list->nodes[i]);
		if (!rc && j->facts) {
			j->client = c;
			n_jobs++;
		}
	}
	for (i = 0; !rc && i < n_jobs; i++)
		rc = submit_job(&jobs[i], g, pods, how.page_size);
	/* Even after a failure: what was submitted must finish before it is freed. */
	run_rc = owners_http_run(c, err);
	if (!rc)
		rc = run_rc;
	for (i = 0; i < n_jobs; i++) {
		if (!rc && jobs[i].failed)
			rc = jobs[i].failed;
		owners_http_request_clear(&jobs[i].req);
		owners_pod_claims_parser_free(jobs[i].parser);
		owners_error_clear(&jobs[i].err);
	}
	free(jobs);
	if (rc == OWNERS_ENOMEM)
		return owners_error_oom(err);
	return rc;
}

/* One record from what was read before: the object's JSON, or why not. */
static int recorded_job(struct job *j, const struct owners_graph *g,
			const struct owners_stuck_fetch_record *rec)
{
	const struct owners_node *o;
	struct owners_json_value *doc = NULL;
	const char *json;
	size_t len = 0;
	int rc;

	if (j->kind == JOB_PODS)
		return (*error_slot(j) = owners_strdup(rec->missing)) ? 0 : OWNERS_ENOMEM;
	o = &g->nodes[j->kind == JOB_NAMESPACE ? j->facts->namespaces[j->index].node
					       : j->facts->volumes[j->index].node];
	if ((rc = owners_api_path_object(&j->req.path, o->place->resource, NULL, o->name, NULL)))
		return rc;
	json = rec->lookup(rec->ctx, j->req.path.ptr, &len);
	if (!json || owners_json_parse(&doc, json, len, NULL))
		return (*error_slot(j) = owners_strdup(rec->missing)) ? 0 : OWNERS_ENOMEM;
	rc = j->kind == JOB_NAMESPACE
		     ? owners_stuck_fetch_read_namespace(&j->facts->namespaces[j->index], doc)
		     : owners_stuck_fetch_read_volume(&j->facts->volumes[j->index], doc);
	owners_json_value_free(doc);
	return rc;
}

int owners_stuck_fetch_recorded(struct owners_stuck_facts *f, struct owners_graph *g,
				const struct owners_node_list *list,
				const struct owners_stuck_fetch_record *rec,
				struct owners_error *err)
{
	size_t i;
	int rc = 0;

	for (i = 0; !rc && i < list->n; i++) {
		const struct owners_node *o = &g->nodes[list->nodes[i]];
		struct job j;

		memset(&j, 0, sizeof(j));
		if ((!o->extras->deleted && !rec->ahead) || o->virtual_)
			continue;
		rc = plan_job(&j, f, g, list->nodes[i]);
		if (!rc && j.facts)
			rc = recorded_job(&j, g, rec);
		owners_http_request_clear(&j.req);
	}
	return rc == OWNERS_ENOMEM ? owners_error_oom(err) : rc;
}
