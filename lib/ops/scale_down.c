#include "scale_down.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "owners_error.h"
#include "patch.h"
#include "sort.h"

static int is_type(const struct owners_node *n, const char *group, const char *resource)
{
	return n->place->resource && !strcmp(n->place->resource->group, group) &&
	       !strcmp(n->place->resource->resource, resource);
}

enum owners_scale_how owners_scale_how_for(const struct owners_node *n)
{
	if (is_type(n, "apps", "deployments") && n->place->resource->has_scale)
		return OWNERS_SCALE_DEPLOYMENT;
	if (is_type(n, "batch", "jobs"))
		return OWNERS_SCALE_JOB;
	if (n->place->resource && n->place->resource->has_scale)
		return OWNERS_SCALE_SUBRESOURCE;
	return OWNERS_SCALE_NONE;
}

int owners_scale_unscalable_workload(const struct owners_node *n)
{
	return is_type(n, "apps", "daemonsets");
}

/* Siblings in the node order (namespace, kind, name): the graph holds
 * them in the order the lists came back, which changes from run to run. */
static int by_node(const void *a, const void *b, void *ctx)
{
	return owners_graph_node_cmp(ctx, *(const uint32_t *)a, *(const uint32_t *)b);
}

/* The cascade in pre-order, depth first from each root in the order
 * given, along the dependents that are members, siblings by namespace,
 * kind and name: an owner comes before what it owns, a root's
 * workloads before the next root's, and the same cascade in the same
 * order every run. order[k] is the visit's rank ((unsigned)-1: not
 * reached). */
static int visit_order(unsigned *order, const struct owners_graph *g, const unsigned char *member,
		       const char *const *roots, size_t n_roots)
{
	/* each node is pushed at most once per owner that is a member */
	size_t cap = (size_t)g->count + 1, top = 0, i, j;
	uint32_t *stack = malloc(cap * sizeof(*stack));
	unsigned rank = 0;

	if (!stack)
		return OWNERS_ENOMEM;
	for (i = 0; i < g->count; i++)
		order[i] = (unsigned)-1;
	for (i = 0; i < n_roots; i++) {
		uint32_t k = owners_graph_find_uid(g, roots[i]);

		if (k == OWNERS_NO_NODE || order[k] != (unsigned)-1)
			continue;
		stack[0] = k;
		top = 1;
		while (top) {
			uint32_t n = stack[--top];
			const struct owners_node *o = &g->nodes[n];
			size_t first;

			if (order[n] != (unsigned)-1)
				continue;
			order[n] = rank++;
			first = top;
			for (j = 0; j < o->n_dependents; j++) {
				uint32_t dep = owners_graph_dependents(g, o)[j];

				if (!member[dep] || order[dep] != (unsigned)-1)
					continue;
				if (top == cap) {
					uint32_t *grown = realloc(stack, 2 * cap * sizeof(*stack));

					if (!grown) {
						free(stack);
						return OWNERS_ENOMEM;
					}
					stack = grown;
					cap *= 2;
				}
				stack[top++] = dep;
			}
			/* the first sibling on top of the stack: sorted, then reversed */
			owners_qsort_r(stack + first, top - first, sizeof(*stack), by_node, (void *)g);
			for (j = 0; top > first && first + j < top - 1 - j; j++) {
				uint32_t swap = stack[first + j];

				stack[first + j] = stack[top - 1 - j];
				stack[top - 1 - j] = swap;
			}
		}
	}
	free(stack);
	return 0;
}

static int by_order(const void *a, const void *b, void *ctx)
{
	const struct owners_scale_target *x = a, *y = b;
	const unsigned *order = ctx;

	if (order[x->node] != order[y->node])
		return order[x->node] < order[y->node] ? -1 : 1;
	return 0;
}

int owners_scale_plan_make(struct owners_scale_plan *out, const struct owners_graph *g,
			   const unsigned char *member, const char *const *roots, size_t n_roots)
{
	unsigned *order = malloc(((size_t)g->count + 1) * sizeof(*order));
	uint32_t k;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!order || !(out->targets = calloc((size_t)g->count + 1, sizeof(*out->targets)))) {
		free(order);
		return OWNERS_ENOMEM;
	}
	if ((rc = visit_order(order, g, member, roots, n_roots))) {
		free(order);
		owners_scale_plan_clear(out);
		return rc;
	}
	for (k = 0; k < g->count; k++) {
		const struct owners_node *n = &g->nodes[k];
		enum owners_scale_how how;

		if (!member[k] || n->virtual_ || n->extras->deleted)
			continue;
		how = owners_scale_how_for(n);
		if (how == OWNERS_SCALE_NONE && !owners_scale_unscalable_workload(n))
			continue;
		out->targets[out->count].node = k;
		out->targets[out->count].how = how;
		out->count++;
	}
	owners_qsort_r(out->targets, out->count, sizeof(*out->targets), by_order, order);
	free(order);
	return 0;
}

void owners_scale_plan_clear(struct owners_scale_plan *p)
{
	free(p->targets);
	memset(p, 0, sizeof(*p));
}

static int64_t int_at(const struct owners_json_value *doc, const char *section, const char *key)
{
	const struct owners_json_value *v = owners_json_get(owners_json_get(doc, section), key);

	return v && v->type == OWNERS_JSON_NUMBER ? owners_json_int(v, -1) : -1;
}

int owners_scale_state_read(struct owners_scale_state *st, enum owners_scale_how how,
			    const struct owners_json_value *object, const struct owners_json_value *scale)
{
	const struct owners_json_value *meta, *annotations, *mark;
	const struct owners_json_value *replicas_from = how == OWNERS_SCALE_JOB ? object : scale;
	const char *rv, *kind, *policy;

	memset(st, 0, sizeof(*st));
	if (!object || object->type != OWNERS_JSON_OBJECT ||
	    (how != OWNERS_SCALE_JOB && how != OWNERS_SCALE_NONE &&
	     (!scale || scale->type != OWNERS_JSON_OBJECT)))
		return OWNERS_EPROTO;
	meta = owners_json_get(object, "metadata");
	rv = owners_json_string(owners_json_get(meta, "resourceVersion"));
	snprintf(st->resource_version, sizeof(st->resource_version), "%s", rv ? rv : "");
	st->generation = int_at(object, "metadata", "generation");
	st->observed_generation = int_at(object, "status", "observedGeneration");
	st->deleting = owners_json_get(meta, "deletionTimestamp") != NULL &&
		       owners_json_get(meta, "deletionTimestamp")->type == OWNERS_JSON_STRING;
	if (how == OWNERS_SCALE_JOB) {
		/* absent: the default, 1 */
		st->spec_replicas = int_at(object, "spec", "parallelism");
		/* no active pod is reported as an absent field */
		st->status_replicas = int_at(object, "status", "active");
	} else if (replicas_from) {
		/* a Scale omits a zero (autoscaling/v1: omitempty) */
		st->spec_replicas = int_at(replicas_from, "spec", "replicas");
		if (st->spec_replicas < 0)
			st->spec_replicas = 0;
		st->status_replicas = int_at(replicas_from, "status", "replicas");
	}
	if (st->status_replicas < 0)
		st->status_replicas = 0;
	st->terminating = int_at(object, "status",
				 how == OWNERS_SCALE_JOB ? "terminating" : "terminatingReplicas");
	if (st->terminating < 0)
		st->terminating = 0;
	st->paused = owners_json_bool(owners_json_get(owners_json_get(object, "spec"), "paused"), 0);
	/* a pod template's own, or the pod default; unknown without a template
	 * (a custom resource's pods are made elsewhere) */
	st->grace_seconds = owners_json_path(object, "spec", "template", NULL)
				    ? owners_json_int(owners_json_path(object, "spec", "template", "spec",
								       "terminationGracePeriodSeconds", NULL),
						      30)
				    : -1;
	/* (OrderedReady, the default, scales down one pod at a time) */
	kind = owners_json_string(owners_json_get(object, "kind"));
	policy = owners_json_string(owners_json_path(object, "spec", "podManagementPolicy", NULL));
	st->one_at_a_time = kind && !strcmp(kind, "StatefulSet") && !(policy && !strcmp(policy, "Parallel"));
	annotations = owners_json_get(meta, "annotations");
	mark = owners_json_get(annotations, OWNERS_SCALE_PAUSED_ANNOTATION);
	st->paused_by_owners = st->paused && mark && mark->type == OWNERS_JSON_STRING;
	return 0;
}

/* What a workload at 0 still waits on, in the order it is said: the
 * controller's observing first, then the pods it takes down. */
static enum owners_scale_wait pending(const struct owners_scale_state *st)
{
	if (st->generation >= 0 && st->observed_generation >= 0 &&
	    st->observed_generation < st->generation)
		return OWNERS_SCALE_WAIT_OBSERVED;
	if (st->status_replicas > 0)
		return OWNERS_SCALE_WAIT_REPLICAS;
	if (st->terminating > 0)
		return OWNERS_SCALE_WAIT_TERMINATING;
	return OWNERS_SCALE_WAIT_NONE;
}

enum owners_scale_next owners_scale_next(const struct owners_scale_state *st,
					 enum owners_scale_how how, char *why, size_t size)
{
	if (size)
		*why = 0;
	if (how == OWNERS_SCALE_NONE)
		return OWNERS_SCALE_NEXT_DONE;
	if (how == OWNERS_SCALE_DEPLOYMENT && !st->paused)
		return OWNERS_SCALE_NEXT_PAUSE;
	if (st->spec_replicas != 0)
		return OWNERS_SCALE_NEXT_SCALE;
	switch (pending(st)) {
	case OWNERS_SCALE_WAIT_OBSERVED:
		snprintf(why, size, "its controller has not observed generation %lld yet (observed %lld)",
			 (long long)st->generation, (long long)st->observed_generation);
		return OWNERS_SCALE_NEXT_WAIT;
	case OWNERS_SCALE_WAIT_REPLICAS:
		snprintf(why, size, "%lld %s left", (long long)st->status_replicas,
			 how == OWNERS_SCALE_JOB ? st->status_replicas == 1 ? "active pod" : "active pods"
			 : st->status_replicas == 1 ? "replica" : "replicas");
		return OWNERS_SCALE_NEXT_WAIT;
	case OWNERS_SCALE_WAIT_TERMINATING:
		snprintf(why, size, "%lld %s terminating", (long long)st->terminating,
			 st->terminating == 1 ? "pod" : "pods");
		return OWNERS_SCALE_NEXT_WAIT;
	case OWNERS_SCALE_WAIT_NONE:
		break;
	}
	return OWNERS_SCALE_NEXT_DONE;
}

enum owners_scale_wait owners_scale_waits_on(const struct owners_scale_state *st,
					     enum owners_scale_how how)
{
	return owners_scale_next(st, how, NULL, 0) == OWNERS_SCALE_NEXT_WAIT ? pending(st)
									    : OWNERS_SCALE_WAIT_NONE;
}

int owners_scale_pause_patch(struct owners_buf *out, const char *resource_version, int pause,
			     struct owners_error *err)
{
	struct owners_json_gen *j;
	int rc;

	if ((rc = owners_patch_begin(&j, out, resource_version, err)))
		return rc;
	owners_json_gen_string(j, "annotations");
	owners_json_gen_map_open(j);
	owners_json_gen_string(j, OWNERS_SCALE_PAUSED_ANNOTATION);
	if (pause)
		owners_json_gen_string(j, "true");
	else
		owners_json_gen_null(j); /* a merge patch's null removes the key */
	owners_json_gen_map_close(j);
	owners_json_gen_map_close(j); /* metadata */
	owners_json_gen_string(j, "spec");
	owners_json_gen_map_open(j);
	owners_json_gen_kv_bool(j, "paused", pause);
	if ((rc = owners_patch_end(j)))
		return owners_error_oom(err);
	return 0;
}

int owners_scale_zero_patch(struct owners_buf *out, const char *resource_version,
			    enum owners_scale_how how, struct owners_error *err)
{
	struct owners_json_gen *j;
	int rc;

	if ((rc = owners_patch_begin(&j, out, resource_version, err)))
		return rc;
	owners_json_gen_map_close(j); /* metadata */
	owners_json_gen_string(j, "spec");
	owners_json_gen_map_open(j);
	owners_json_gen_kv_int(j, how == OWNERS_SCALE_JOB ? "parallelism" : "replicas", 0);
	if ((rc = owners_patch_end(j)))
		return owners_error_oom(err);
	return 0;
}
