#include "cascade_access.h"

#include <stdlib.h>
#include <string.h>

struct needs {
	struct owners_access_check *v;
	size_t n, cap;
};

static int need(struct needs *s, const char *verb, const struct owners_node *n)
{
	size_t i;

	/* A virtual node has no type to act on (and is never acted on). */
	if (!n->resource)
		return 0;
	for (i = 0; i < s->n; i++)
		if (s->v[i].verb == verb && !strcmp(s->v[i].group, n->resource->group) &&
		    !strcmp(s->v[i].resource, n->resource->resource) &&
		    !strcmp(s->v[i].namespace_, n->namespace_))
			return 0;
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 8;
		struct owners_access_check *v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return OWNERS_ENOMEM;
		s->v = v;
		s->cap = cap;
	}
	memset(&s->v[s->n], 0, sizeof(s->v[s->n]));
	s->v[s->n].verb = verb;
	s->v[s->n].group = n->resource->group;
	s->v[s->n].resource = n->resource->resource;
	s->v[s->n].namespace_ = n->resource->namespaced ? n->namespace_ : "";
	s->n++;
	return 0;
}

static int is_root(const struct owners_node *n, const char *const *root_uids, size_t n_roots)
{
	size_t i;

	for (i = 0; i < n_roots; i++)
		if (!strcmp(n->uid, root_uids[i]))
			return 1;
	return 0;
}

static int has_member_dependent(const struct owners_cascade_plan *p, const struct owners_graph *g,
				const struct owners_node *n)
{
	uint32_t i;

	for (i = 0; i < n->n_dependents; i++)
		if (p->member[n->dependents[i]] && !g->nodes[n->dependents[i]].virtual_)
			return 1;
	return 0;
}

int owners_cascade_needed_access(const struct owners_cascade_plan *p, const struct owners_graph *g,
				 const char *const *root_uids, size_t n_roots,
				 enum owners_cascade_mode mode, struct owners_access_check **out,
				 size_t *n_out)
{
	static const char delete_verb[] = "delete", patch_verb[] = "patch";
	struct needs s = { NULL, 0, 0 };
	uint32_t i;
	int rc = 0;

	for (i = 0; i < g->count && !rc; i++) {
		const struct owners_node *n = &g->nodes[i];
		int root;

		if (n->virtual_ || (!p->member[i] && !p->released[i]))
			continue;
		if (p->released[i]) {
			rc = need(&s, patch_verb, n);
			continue;
		}
		root = is_root(n, root_uids, n_roots);
		rc = need(&s, delete_verb, n);
		if (!rc && mode == OWNERS_CASCADE_ORPHAN && root)
			rc = need(&s, patch_verb, n);
		else if (!rc && mode != OWNERS_CASCADE_ORPHAN && has_member_dependent(p, g, n) &&
			 !(root && mode == OWNERS_CASCADE_BACKGROUND))
			rc = need(&s, patch_verb, n);
	}
	if (rc) {
		free(s.v);
		return rc;
	}
	*out = s.v;
	*n_out = s.n;
	return 0;
}
