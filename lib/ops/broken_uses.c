#include "broken_uses.h"

#include <stdlib.h>
#include <string.h>

#include "document_json.h"
#include "grow.h"
#include "relation_render.h"
#include "sort.h"
#include "text_table.h"

int owners_broken_uses_add(struct owners_broken_uses *b, const struct owners_relations *rel,
			   uint32_t node)
{
	const size_t *at;
	size_t n = owners_relations_uses_of(rel, node, &at), i;

	for (i = 0; i < n; i++) {
		const struct owners_relation *x = &rel->items[at[i]];

		if (x->state == OWNERS_RELATION_FOUND || !owners_broken_uses_breaking(rel, x))
			continue;
		if (OWNERS_GROW(b->items, b->cap, b->count + 1))
			return OWNERS_ENOMEM;
		b->items[b->count++] = at[i];
	}
	return 0;
}

int owners_broken_uses_breaking(const struct owners_relations *rel, const struct owners_relation *x)
{
	const struct owners_use *u = &rel->uses.items[x->use];

	if (u->optional)
		return 0;
	/* a binding's subject that is gone, a ServiceAccount's legacy list
	 * of its token Secrets: stale names, nothing depends on them */
	return u->how != OWNERS_USE_GRANTS && u->how != OWNERS_USE_HOLDS;
}

struct order {
	const struct owners_relations *rel;
	const struct owners_graph *g;
};

static int by_user(const void *pa, const void *pb, void *ctx)
{
	const struct order *o = ctx;
	const struct owners_relation *a = &o->rel->items[*(const size_t *)pa];
	const struct owners_relation *b = &o->rel->items[*(const size_t *)pb];

	if (a->user != b->user)
		return owners_graph_node_cmp(o->g, a->user, b->user);
	return strcmp(o->rel->uses.items[a->use].path, o->rel->uses.items[b->use].path);
}

void owners_broken_uses_sort(struct owners_broken_uses *b, const struct owners_relations *rel,
			     const struct owners_graph *g)
{
	struct order o = { rel, g };

	owners_qsort_r(b->items, b->count, sizeof(*b->items), by_user, &o);
}

void owners_broken_uses_clear(struct owners_broken_uses *b)
{
	free(b->items);
	memset(b, 0, sizeof(*b));
}

static int makes_pods(const struct owners_node *n)
{
	return strcmp(n->place->kind, "Pod") != 0;
}

const char *owners_broken_uses_breaks(const struct owners_relations *rel,
				      const struct owners_graph *g, const struct owners_relation *x)
{
	const struct owners_node *user = &g->nodes[x->user];
	int templ = makes_pods(user);

	if (x->state == OWNERS_RELATION_UNKNOWN)
		return "cannot tell: the object's type was not listed there";
	switch (rel->uses.items[x->use].how) {
	case OWNERS_USE_MOUNTS:
	case OWNERS_USE_MOUNTS_PROJECTED:
	case OWNERS_USE_CLAIMS:
	case OWNERS_USE_CLAIMS_TEMPLATE:
		return templ ? "the Pods it makes cannot start: a volume cannot be mounted"
			     : "it cannot start: a volume cannot be mounted";
	case OWNERS_USE_ENV:
	case OWNERS_USE_ENV_FROM:
		return templ ? "the Pods it makes cannot start: a variable cannot be set"
			     : "its containers cannot start: a variable cannot be set";
	case OWNERS_USE_PULLS_WITH: return "images from a private registry cannot be pulled";
	case OWNERS_USE_RUNS_AS:
		return templ ? "the Pods it makes are refused: their ServiceAccount does not exist"
			     : "it runs as a ServiceAccount that does not exist";
	case OWNERS_USE_PRIORITY:
		return templ ? "the Pods it makes are refused: the PriorityClass does not exist"
			     : "its PriorityClass does not exist";
	case OWNERS_USE_RUNTIME:
		return templ ? "the Pods it makes are refused: the RuntimeClass does not exist"
			     : "its RuntimeClass does not exist";
	case OWNERS_USE_RUNS_ON: return "it is bound to a Node that does not exist";
	case OWNERS_USE_ROUTES_TO: return "its traffic has no backend";
	case OWNERS_USE_TLS: return "TLS falls back to a default certificate, or fails";
	case OWNERS_USE_CLASS: return "no controller or provisioner of its class acts on it";
	case OWNERS_USE_PARAMETERS: return "its controller has no parameters to read";
	case OWNERS_USE_ATTACHES_TO:
		return "it is attached to no Gateway: its routes are not served";
	case OWNERS_USE_BINDS: return "the binding grants nothing";
	case OWNERS_USE_GRANTS: return "the binding grants to a ServiceAccount that does not exist";
	case OWNERS_USE_BOUND_TO:
		return "its binding points to nothing: the claim or volume is lost";
	case OWNERS_USE_ATTACHES: return "it attaches nothing";
	case OWNERS_USE_SCALES: return "the autoscaler scales nothing";
	case OWNERS_USE_HOLDS: return "the ServiceAccount names a Secret that does not exist";
	case OWNERS_USE_CALLS: return "the API server's calls to it fail";
	case OWNERS_USE_SELECTS: return "it selects nothing";
	case OWNERS_USE_TOKEN_OF: return "the token authenticates as nothing";
	}
	return "it names an object that does not exist";
}

enum { C_NS, C_OBJECT, C_USES, C_STATE, C_RELATION, C_BREAKS, N_COLUMNS };

int owners_broken_uses_render_text(struct owners_buf *out,
				   const struct owners_broken_uses_render *r)
{
	static const char *const titles[N_COLUMNS] = { "NAMESPACE", "OBJECT",   "USES",
						       "STATE",     "RELATION", "BREAKS" };
	/* RELATION with -o wide only */
	const unsigned char keep[N_COLUMNS] = { 1, 1, 1, 1, (unsigned char)r->print.wide, 1 };
	struct owners_text_table t;
	size_t i;
	int rc = owners_text_table_init(&t, titles, N_COLUMNS, r->broken->count);

	for (i = 0; !rc && i < r->broken->count; i++) {
		const struct owners_relation *x = &r->rel->items[r->broken->items[i]];
		const struct owners_node *user = &r->g->nodes[x->user];

		rc = owners_buf_adds(owners_text_table_cell(&t, i, C_NS), user->place->namespace_);
		if (!rc)
			rc = owners_graph_node_shown_name(owners_text_table_cell(&t, i, C_OBJECT),
							  user, r->print.wide);
		if (!rc)
			rc = owners_relation_render_used(owners_text_table_cell(&t, i, C_USES),
							 r->rel, r->g, x, r->print.wide);
		if (!rc)
			rc = owners_buf_adds(owners_text_table_cell(&t, i, C_STATE),
					     owners_relation_render_state(x->state));
		if (!rc)
			rc = owners_relation_render_how(owners_text_table_cell(&t, i, C_RELATION),
							r->rel, x);
		if (!rc)
			rc = owners_buf_adds(owners_text_table_cell(&t, i, C_BREAKS),
					     owners_broken_uses_breaks(r->rel, r->g, x));
	}
	if (!rc)
		rc = owners_text_table_write(out, &t, keep, r->print.no_headers);
	owners_text_table_clear(&t);
	return rc;
}

int owners_broken_uses_render_json(struct owners_buf *out,
				   const struct owners_broken_uses_render *r)
{
	struct owners_json_gen *j;
	size_t i;
	int rc;

	if (owners_json_gen_new(&j, out, 1))
		return OWNERS_ENOMEM;
	owners_document_open(j, "OwnersBrokenUses");
	owners_document_items(j);
	for (i = 0; i < r->broken->count; i++) {
		const struct owners_relation *x = &r->rel->items[r->broken->items[i]];

		owners_json_gen_map_open(j);
		owners_document_object(j, r->g, &r->g->nodes[x->user]);
		owners_document_facts(j);
		owners_json_gen_string(j, "relation");
		owners_json_gen_map_open(j);
		owners_relation_render_json(j, r->rel, r->g, x);
		owners_json_gen_map_close(j);
		owners_json_gen_kv(j, "breaks", owners_broken_uses_breaks(r->rel, r->g, x));
		owners_json_gen_map_close(j);
		owners_json_gen_map_close(j);
	}
	owners_document_close(j, r->print.warnings, r->print.n_warnings);
	rc = owners_json_gen_error(j);
	if (!rc)
		rc = owners_buf_addc(out, '\n');
	owners_json_gen_free(j);
	return rc;
}

int owners_broken_uses_render_names(struct owners_buf *out,
				    const struct owners_broken_uses_render *r)
{
	size_t i;
	int rc = 0;

	for (i = 0; !rc && i < r->broken->count; i++) {
		uint32_t user = r->rel->items[r->broken->items[i]].user;

		if (i && r->rel->items[r->broken->items[i - 1]].user == user)
			continue;
		rc = owners_graph_node_name(out, &r->g->nodes[user]);
		if (!rc)
			rc = owners_buf_addc(out, '\n');
	}
	return rc;
}
