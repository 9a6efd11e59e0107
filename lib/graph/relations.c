#include "relations.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "object_uses.h"
#include "owners_error.h"
#include "pod_uses.h"
#include "strset.h"

/* A StatefulSet's ordinals looked up at most: past this many, its
 * claims are not looked for (the API allows any int32 replicas). */
#define MAX_ORDINALS 100000

void owners_relations_clear(struct owners_relations *rel)
{
	owners_uses_clear(&rel->uses);
	free(rel->user_of);
	free(rel->items);
	memset(rel, 0, sizeof(*rel));
}

int owners_relations_type(const struct owners_resource *r)
{
	return owners_pod_uses_spec_path(r->group, r->kind) ||
	       owners_object_uses_kind(r->group, r->kind);
}

int owners_relations_add_object(struct owners_relations *rel, const struct owners_graph *g,
				const struct owners_resource *r,
				const struct owners_json_value *object)
{
	const char *uid = owners_json_string(owners_json_path(object, "metadata", "uid", NULL));
	uint32_t user = uid ? owners_graph_find_uid(g, uid) : OWNERS_NO_NODE;
	size_t before = rel->uses.count, i;
	int rc;

	if (user == OWNERS_NO_NODE || g->nodes[user].virtual_)
		return 0;
	rc = owners_pod_uses_spec_path(r->group, r->kind)
		     ? owners_pod_uses_read(&rel->uses, object, r->group, r->kind)
		     : owners_object_uses_read(&rel->uses, object, r->group, r->kind);
	if (!rc && rel->uses.count > before &&
	    OWNERS_GROW(rel->user_of, rel->cap_user_of, rel->uses.count))
		rc = OWNERS_ENOMEM;
	for (i = before; !rc && i < rel->uses.count; i++)
		rel->user_of[i] = user;
	return rc;
}

/* The type of the graph's table that objects of group/kind are listed
 * as; NULL when the server does not serve it. */
static const struct owners_resource *find_type(const struct owners_graph *g, const char *group,
					       const char *kind)
{
	const struct owners_resource *best = NULL;
	size_t i;

	for (i = 0; i < g->types->count; i++) {
		const struct owners_resource *t = &g->types->items[i];

		if (strcmp(t->group, group) || strcmp(t->kind, kind) || strchr(t->resource, '/'))
			continue;
		if (!best || t->preferred)
			best = t;
	}
	return best ? owners_graph_lookup_type(g->types, best) : NULL;
}

/* find_type(), each group/kind looked up once a resolution (uses far
 * outnumber kinds, and the table has hundreds of types): the set's flag
 * is the type's index + 1, or -1 for none. *failed on out of memory. */
static const struct owners_resource *type_of(struct owners_strset *seen,
					     const struct owners_graph *g, const char *group,
					     const char *kind, int *failed)
{
	char key[512];
	struct owners_strset_entry *e;
	const struct owners_resource *t;

	snprintf(key, sizeof(key), "%s\t%s", group, kind);
	if ((e = owners_strset_get(seen, key)))
		return e->flag > 0 ? &g->types->items[e->flag - 1] : NULL;
	t = find_type(g, group, kind);
	if (!(e = owners_strset_add(seen, key, NULL)))
		*failed = 1;
	else
		e->flag = t ? (int)(t - g->types->items) + 1 : -1;
	return t;
}

static int push(struct owners_relations *rel, size_t use, uint32_t used,
		enum owners_relation_state state)
{
	struct owners_relation *x;

	if (OWNERS_GROW(rel->items, rel->cap, rel->count + 1))
		return OWNERS_ENOMEM;
	x = &rel->items[rel->count++];
	x->user = rel->user_of[use];
	x->used = used;
	x->use = use;
	x->state = state;
	return 0;
}

/* A claim template: the claims of its ordinals that exist (one not there
 * yet is the StatefulSet controller's to make, nothing broken). */
static int resolve_template(struct owners_relations *rel, struct owners_graph *g, size_t i,
			    const struct owners_resource *t)
{
	const struct owners_use *u = &rel->uses.items[i];
	long long n, last = u->ordinals < MAX_ORDINALS ? u->ordinals : MAX_ORDINALS;
	char name[512];
	uint32_t node;
	int rc = 0;

	for (n = 0; !rc && n < last; n++) {
		snprintf(name, sizeof(name), "%s-%lld", u->name, u->first_ordinal + n);
		if ((rc = owners_graph_find_name(g, t, u->namespace_ ? u->namespace_ : "", name,
						 &node)))
			break;
		if (node != OWNERS_NO_NODE)
			rc = push(rel, i, node, OWNERS_RELATION_FOUND);
	}
	return rc;
}

int owners_relations_resolve(struct owners_relations *rel, struct owners_graph *g)
{
	struct owners_strset types;
	size_t i;
	int rc = 0, failed = 0;

	owners_strset_init(&types);
	rel->count = 0;
	for (i = 0; !rc && i < rel->uses.count; i++) {
		const struct owners_use *u = &rel->uses.items[i];
		const struct owners_resource *t = type_of(&types, g, u->group, u->kind, &failed);
		const char *ns = u->namespace_ ? u->namespace_ : "";
		uint32_t node = OWNERS_NO_NODE;

		if (!t) {
			rc = push(rel, i, OWNERS_NO_NODE, OWNERS_RELATION_UNKNOWN);
			continue;
		}
		if (u->how == OWNERS_USE_CLAIMS_TEMPLATE) {
			rc = resolve_template(rel, g, i, t);
			continue;
		}
		if ((rc = owners_graph_find_name(g, t, ns, u->name, &node)))
			break;
		if (node != OWNERS_NO_NODE)
			rc = push(rel, i, node, OWNERS_RELATION_FOUND);
		else
			rc = push(rel, i, OWNERS_NO_NODE,
				  owners_graph_listing_state(g, t, ns, NULL) == OWNERS_LISTING_OK
					  ? OWNERS_RELATION_MISSING
					  : OWNERS_RELATION_UNKNOWN);
	}
	owners_strset_clear(&types);
	return rc ? rc : failed ? OWNERS_ENOMEM : 0;
}
