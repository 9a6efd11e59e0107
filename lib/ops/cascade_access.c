#include "cascade_access.h"

#include <stdlib.h>
#include <string.h>

#include "grow.h"

struct needs {
	struct owners_access_check *v;
	uint32_t *example;
	size_t n, cap_v, cap_example;
	int by_name; /* one check per object (its name), not per type */
};

/* verb on node's type (its subresource when sub is set) in its namespace,
 * once per (verb, type, subresource, namespace). */
static int need_on(struct needs *s, const struct owners_graph *g, const char *verb, const char *sub,
		   uint32_t node)
{
	const struct owners_node *n = &g->nodes[node];
	const char *ns;
	size_t i;

	/* A virtual node has no type to act on (and is never acted on). */
	if (!n->place->resource)
		return 0;
	ns = n->place->resource->namespaced ? n->place->namespace_ : "";
	for (i = 0; i < s->n; i++)
		if (s->v[i].verb == verb && s->v[i].subresource == sub && !strcmp(s->v[i].namespace_, ns) &&
		    owners_resource_same_type(g->nodes[s->example[i]].place->resource, n->place->resource) &&
		    (!s->by_name || !strcmp(s->v[i].name, n->name)))
			return 0;
	if (OWNERS_GROW(s->v, s->cap_v, s->n + 1) ||
	    OWNERS_GROW(s->example, s->cap_example, s->n + 1))
		return OWNERS_ENOMEM;
	memset(&s->v[s->n], 0, sizeof(s->v[s->n]));
	s->v[s->n].verb = verb;
	s->v[s->n].group = n->place->resource->group;
	s->v[s->n].resource = n->place->resource->resource;
	s->v[s->n].namespace_ = ns;
	s->v[s->n].subresource = sub;
	s->v[s->n].name = s->by_name ? n->name : NULL;
	s->example[s->n++] = node;
	return 0;
}

static int need(struct needs *s, const struct owners_graph *g, const char *verb, uint32_t node)
{
	return need_on(s, g, verb, NULL, node);
}

/* Hands the checks over, or frees them after a failure. */
static int hand_over(struct needs *s, int rc, struct owners_access_check **out, uint32_t **examples,
		     size_t *n_out)
{
	if (rc) {
		free(s->v);
		free(s->example);
		return rc;
	}
	*out = s->v;
	*examples = s->example;
	*n_out = s->n;
	return 0;
}

static const char delete_verb[] = "delete", patch_verb[] = "patch", get_verb[] = "get";

int owners_cascade_access_needed(const struct owners_cascade_plan *p, struct owners_graph *g,
				 enum owners_cascade_mode mode, struct owners_access_check **out,
				 uint32_t **examples, size_t *n_out)
{
	struct needs s = { NULL, NULL, 0, 0, 0, 0 };
	uint32_t i, *order = NULL;
	size_t n_order = 0, cap = 0, k;
	int rc = 0;

	for (i = 0; i < g->count && !rc; i++)
		if (!g->nodes[i].virtual_ && (p->member[i] || p->released[i]))
			rc = owners_graph_node_list_push(&order, &n_order, &cap, i);
	/* in the node order: each check's example object, and the checks'
	 * order, are the cluster's, not the lists' */
	if (!rc)
		owners_graph_sort_nodes(g, order, n_order);
	for (k = 0; k < n_order && !rc; k++) {
		i = order[k];
		if (!p->released[i])
			rc = need(&s, g, delete_verb, i);
		if (!rc && (p->released[i] || owners_cascade_member_patched(p, g, i, mode)))
			rc = need(&s, g, patch_verb, i);
	}
	free(order);
	return hand_over(&s, rc, out, examples, n_out);
}

int owners_actions_needed_access(const struct owners_cascade_plan *p, struct owners_graph *g,
				 int patches_read, struct owners_access_check **out,
				 uint32_t **examples, size_t *n_out)
{
	const struct owners_action *actions = p->actions;
	size_t n_actions = p->n_actions;
	struct needs s = { NULL, NULL, 0, 0, 0, 0 };
	size_t i;
	int rc = 0;

	for (i = 0; i < n_actions && !rc; i++) {
		enum owners_action_kind k = actions[i].kind;
		int deletes = k == OWNERS_ACT_DELETE || k == OWNERS_ACT_DELETE_FOREGROUND ||
			      k == OWNERS_ACT_DELETE_ORPHAN;

		rc = need(&s, g, deletes ? delete_verb : patch_verb, actions[i].node);
		if (!rc && !deletes && patches_read)
			rc = need(&s, g, get_verb, actions[i].node);
	}
	return hand_over(&s, rc, out, examples, n_out);
}

static const char scale_subresource[] = "scale";

int owners_cascade_access_scale_needed(const struct owners_scale_access_of *of,
				       struct owners_graph *g, struct owners_access_check **out,
				       uint32_t **examples, size_t *n_out)
{
	const struct owners_scale_plan *sp = of->scale;
	struct needs s = { NULL, NULL, 0, 0, 0, 0 };
	struct owners_access_check *cascade = NULL;
	uint32_t *cascade_examples = NULL;
	size_t n = 0, i;
	int rc = owners_cascade_access_needed(of->plan, g, of->mode, &cascade, &cascade_examples,
					      &n);

	for (i = 0; !rc && i < n; i++)
		rc = need_on(&s, g, cascade[i].verb, NULL, cascade_examples[i]);
	free(cascade);
	free(cascade_examples);
	for (i = 0; !rc && sp && i < sp->count; i++) {
		uint32_t k = sp->targets[i].node;

		switch (sp->targets[i].how) {
		case OWNERS_SCALE_DEPLOYMENT:
			rc = need(&s, g, get_verb, k);
			if (!rc)
				rc = need(&s, g, patch_verb, k); /* the pause */
			/* fall through */
		case OWNERS_SCALE_SUBRESOURCE:
			if (!rc)
				rc = need_on(&s, g, get_verb, scale_subresource, k);
			if (!rc)
				rc = need_on(&s, g, patch_verb, scale_subresource, k);
			if (!rc)
				rc = need(&s, g, get_verb, k);
			break;
		case OWNERS_SCALE_JOB:
			rc = need(&s, g, get_verb, k);
			if (!rc)
				rc = need(&s, g, patch_verb, k);
			break;
		case OWNERS_SCALE_NONE:
			break;
		}
	}
	return hand_over(&s, rc, out, examples, n_out);
}

/* Whether a type-wide check of verb on node's type was refused (or, with
 * no such list, whether every object is to be asked about). */
static int type_refused(const struct owners_graph *g, const char *verb, uint32_t node,
			const struct owners_access_check *denied, size_t n_denied)
{
	const struct owners_node *n = &g->nodes[node];
	size_t i;

	if (!denied)
		return 1;
	for (i = 0; n->place->resource && i < n_denied; i++)
		if (denied[i].verb == verb && denied[i].verdict == OWNERS_ACCESS_DENIED &&
		    denied[i].resource == n->place->resource->resource && denied[i].group == n->place->resource->group &&
		    !strcmp(denied[i].namespace_, n->place->resource->namespaced ? n->place->namespace_ : ""))
			return 1;
	return 0;
}

static int need_for_fix(struct needs *s, const struct owners_graph *g, const char *verb, uint32_t node,
			const struct owners_access_check *denied, size_t n_denied)
{
	return type_refused(g, verb, node, denied, n_denied) ? need(s, g, verb, node) : 0;
}

int owners_cascade_access_dangling_fix_needed(const struct owners_dangling_report *rep,
					      struct owners_graph *g,
					      const struct owners_cascade_access_dangling_fix *how,
					      struct owners_access_check **out, uint32_t **examples,
					      size_t *n_out)
{
	const struct owners_access_check *denied = how->denied;
	size_t n_denied = how->n_denied;
	struct needs s = { NULL, NULL, 0, 0, 0, how->by_name };
	size_t a, b, k;
	int rc = 0;

	for (a = 0; a < rep->count && !rc; a = b) {
		const struct owners_dangling_finding *f = &rep->items[a];
		int patched = 0;

		for (b = a + 1; b < rep->count && rep->items[b].object == f->object; b++)
			;
		if (f->fix == OWNERS_FIX_WOULD_DELETE) {
			rc = need_for_fix(&s, g, delete_verb, f->object, denied, n_denied);
			continue;
		}
		if (!how->fix_unresolvable && owners_dangling_gc_never(f))
			continue;
		for (k = a; k < b; k++)
			patched |= owners_dangling_fixable(rep->items[k].class_);
		if (patched)
			rc = need_for_fix(&s, g, get_verb, f->object, denied, n_denied);
		if (patched && !rc)
			rc = need_for_fix(&s, g, patch_verb, f->object, denied, n_denied);
	}
	return hand_over(&s, rc, out, examples, n_out);
}
