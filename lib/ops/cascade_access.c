#include "cascade_access.h"

#include <stdlib.h>
#include <string.h>

#include "grow.h"

struct needs {
	struct owners_access_check *v;
	uint32_t *example;
	size_t n, cap_v, cap_example;
};

static int need(struct needs *s, const struct owners_graph *g, const char *verb, uint32_t node)
{
	const struct owners_node *n = &g->nodes[node];
	const char *ns;
	size_t i;

	/* A virtual node has no type to act on (and is never acted on). */
	if (!n->resource)
		return 0;
	ns = n->resource->namespaced ? n->namespace_ : "";
	for (i = 0; i < s->n; i++)
		if (s->v[i].verb == verb && !strcmp(s->v[i].namespace_, ns) &&
		    owners_resource_same_type(g->nodes[s->example[i]].resource, n->resource))
			return 0;
	if (OWNERS_GROW(s->v, s->cap_v, s->n + 1) ||
	    OWNERS_GROW(s->example, s->cap_example, s->n + 1))
		return OWNERS_ENOMEM;
	memset(&s->v[s->n], 0, sizeof(s->v[s->n]));
	s->v[s->n].verb = verb;
	s->v[s->n].group = n->resource->group;
	s->v[s->n].resource = n->resource->resource;
	s->v[s->n].namespace_ = ns;
	s->example[s->n++] = node;
	return 0;
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

static const char delete_verb[] = "delete", patch_verb[] = "patch";

int owners_cascade_needed_access(const struct owners_cascade_plan *p, struct owners_graph *g,
				 enum owners_cascade_mode mode, struct owners_access_check **out,
				 uint32_t **examples, size_t *n_out)
{
	struct needs s = { NULL, NULL, 0, 0, 0 };
	uint32_t i;
	int rc = 0;

	for (i = 0; i < g->count && !rc; i++) {
		const struct owners_node *n = &g->nodes[i];

		if (n->virtual_ || (!p->member[i] && !p->released[i]))
			continue;
		if (!p->released[i])
			rc = need(&s, g, delete_verb, i);
		if (!rc && (p->released[i] || owners_cascade_member_patched(p, g, i, mode)))
			rc = need(&s, g, patch_verb, i);
	}
	return hand_over(&s, rc, out, examples, n_out);
}

static const char get_verb[] = "get";

int owners_actions_needed_access(const struct owners_cascade_plan *p, struct owners_graph *g,
				 int patches_read, struct owners_access_check **out,
				 uint32_t **examples, size_t *n_out)
{
	const struct owners_action *actions = p->actions;
	size_t n_actions = p->n_actions;
	struct needs s = { NULL, NULL, 0, 0, 0 };
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
