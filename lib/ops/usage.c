#include "usage.h"

#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "relation_render.h"
#include "owners_error.h"

static int kind_is(const struct owners_node *n, const char *group, const char *kind)
{
	const char *slash = strchr(n->place->api_version, '/');
	size_t len = slash ? (size_t)(slash - n->place->api_version) : 0;

	return !strcmp(n->place->kind, kind) && strlen(group) == len &&
	       !strncmp(n->place->api_version, group, len);
}

int owners_usage_counts(const struct owners_relations *rel, const struct owners_graph *g,
			const struct owners_relation *x)
{
	const struct owners_use *u = &rel->uses.items[x->use];
	const struct owners_node *user = &g->nodes[x->user];

	if (x->state != OWNERS_RELATION_FOUND)
		return 0;
	switch (u->how) {
	case OWNERS_USE_GRANTS:
	case OWNERS_USE_TOKEN_OF: return 0;
	case OWNERS_USE_SELECTS: return kind_is(user, "", "Service");
	case OWNERS_USE_BOUND_TO: return !kind_is(user, "", "PersistentVolume");
	default: return 1;
	}
}

static int said(const struct owners_usage *out, const struct owners_resource *t, const char *ns)
{
	size_t i;

	for (i = 0; i < out->n_unseen; i++)
		if (out->unseen[i].type == t && (!out->unseen[i].namespace_ == !ns &&
						 (!ns || !strcmp(out->unseen[i].namespace_, ns))))
			return 1;
	return 0;
}

/* The types that could use node and were not read where they would be. */
static int add_unseen(struct owners_usage *out, const struct owners_relations *rel,
		      const struct owners_graph *g, const struct owners_node *n)
{
	char group[256];
	size_t i;

	owners_graph_node_group(n, group, sizeof(group));
	for (i = 0; i < g->types->count; i++) {
		const struct owners_resource *t = &g->types->items[i];
		const struct owners_relation_read *which = NULL;
		const char *ns;

		if (strchr(t->resource, '/') || !owners_relations_type(t) ||
		    owners_graph_lookup_type(g->types, t) != t ||
		    !owners_relations_may_use(t->group, t->kind, group, n->place->kind))
			continue;
		/* a namespaced user of a namespaced object is in its namespace;
		 * of a cluster-scoped one, anywhere */
		ns = t->namespaced && *n->place->namespace_ ? n->place->namespace_ : NULL;
		if (owners_relations_read_state(rel, t, ns, &which) == OWNERS_LISTING_OK ||
		    said(out, t, ns))
			continue;
		if (OWNERS_GROW(out->unseen, out->cap_unseen, out->n_unseen + 1))
			return OWNERS_ENOMEM;
		out->unseen[out->n_unseen].type = t;
		out->unseen[out->n_unseen].namespace_ = t->namespaced ? ns : NULL;
		out->unseen[out->n_unseen].code = which ? which->rc : 0;
		out->n_unseen++;
	}
	return 0;
}

int owners_usage_add(struct owners_usage *out, const struct owners_relations *rel,
		     const struct owners_graph *g, uint32_t node)
{
	const size_t *at;
	size_t n = owners_relations_users_of(rel, node, &at), i;

	for (i = 0; i < n; i++) {
		if (!owners_usage_counts(rel, g, &rel->items[at[i]]))
			continue;
		if (OWNERS_GROW(out->users, out->cap_users, out->n_users + 1))
			return OWNERS_ENOMEM;
		out->users[out->n_users++] = at[i];
	}
	return add_unseen(out, rel, g, &g->nodes[node]);
}

void owners_usage_clear(struct owners_usage *u)
{
	free(u->users);
	free(u->unseen);
	memset(u, 0, sizeof(*u));
}

int owners_usage_unseen_text(struct owners_buf *out, const struct owners_usage_unseen *u)
{
	int rc = owners_buf_addf(out, "%s%s%s", u->type->resource, *u->type->group ? "." : "",
				 u->type->group);

	if (!rc && u->namespace_)
		rc = owners_buf_addf(out, " in namespace %s", u->namespace_);
	else if (!rc && u->type->namespaced)
		rc = owners_buf_adds(out, " in every namespace");
	if (!rc)
		rc = owners_buf_addf(out, " (%s)", owners_usage_unseen_why(u));
	return rc;
}

const char *owners_usage_unseen_why(const struct owners_usage_unseen *u)
{
	switch (u->code) {
	case 0: return "not listed by this run";
	case OWNERS_EFORBIDDEN: return "forbidden";
	case OWNERS_EAUTH: return "unauthorized";
	default: return "its list failed";
	}
}

int owners_usage_add_outside(struct owners_usage *out, const struct owners_relations *rel,
			     const struct owners_graph *g, const unsigned char *inside)
{
	size_t before = out->n_users, i, kept;
	uint32_t k;
	int rc = 0;

	for (k = 0; !rc && k < g->count; k++)
		if (inside[k] && !g->nodes[k].virtual_)
			rc = owners_usage_add(out, rel, g, k);
	for (i = kept = before; !rc && i < out->n_users; i++)
		if (!inside[rel->items[out->users[i]].user])
			out->users[kept++] = out->users[i];
	if (!rc)
		out->n_users = kept;
	return rc;
}

size_t owners_usage_required(const struct owners_usage *u, const struct owners_relations *rel)
{
	size_t i, n = 0;

	for (i = 0; i < u->n_users; i++)
		n += !rel->uses.items[rel->items[u->users[i]].use].optional;
	return n;
}

/* The owner at the top of node's first owners (NO_NODE: it has none). */
static uint32_t top_owner(const struct owners_graph *g, uint32_t node)
{
	uint32_t top = OWNERS_NO_NODE, at = node, steps;

	for (steps = 0; steps < 64 && g->nodes[at].n_refs; steps++) {
		uint32_t up = g->nodes[at].refs[0].owner;

		if (up == OWNERS_NO_NODE || g->nodes[up].virtual_ || up == node)
			break;
		top = at = up;
	}
	return top;
}

int owners_usage_render_text(struct owners_buf *out, const struct owners_usage *u,
			     const struct owners_relations *rel, const struct owners_graph *g)
{
	size_t i;
	int rc = 0;

	for (i = 0; !rc && i < u->n_users; i++) {
		const struct owners_relation *x = &rel->items[u->users[i]];
		const struct owners_node *user = &g->nodes[x->user];
		uint32_t top = top_owner(g, x->user);

		rc = owners_buf_addf(out, "  %s/%s", user->place->kind, user->name);
		if (!rc && *user->place->namespace_)
			rc = owners_buf_addf(out, " in %s", user->place->namespace_);
		if (!rc && top != OWNERS_NO_NODE)
			rc = owners_buf_addf(out, " (owned by %s/%s)", g->nodes[top].place->kind,
					     g->nodes[top].name);
		if (!rc)
			rc = owners_buf_addf(out, " %s ",
					     owners_uses_how_name(rel->uses.items[x->use].how));
		if (!rc)
			rc = owners_relation_render_used(out, rel, g, x, 0);
		if (!rc)
			rc = owners_buf_addf(out, ": %s%s\n", rel->uses.items[x->use].path,
					     rel->uses.items[x->use].optional ? " (optional)" : "");
	}
	for (i = 0; !rc && i < u->n_unseen; i++) {
		rc = owners_buf_adds(out, "  not seen: ");
		if (!rc)
			rc = owners_usage_unseen_text(out, &u->unseen[i]);
		if (!rc)
			rc = owners_buf_addc(out, '\n');
	}
	return rc;
}
