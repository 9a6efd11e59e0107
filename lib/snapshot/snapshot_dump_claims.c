#include "snapshot_dump_claims.h"

#include <stdlib.h>
#include <string.h>

#include "grow.h"

/* kubectl cluster-info dump's Lists, per namespace, in its order. */
static const char *const cluster_info_cycle[] = {
	"EventList",      "ReplicationControllerList",
	"ServiceList",    "DaemonSetList",
	"DeploymentList", "ReplicaSetList",
	"PodList",
};
#define CYCLE 7

void owners_snapshot_dump_claims_clear(struct owners_snapshot_dump_claims *c)
{
	size_t i;

	for (i = 0; i < c->count; i++) {
		free(c->items[i].namespace_);
		free(c->items[i].resource_version);
	}
	free(c->items);
	memset(c, 0, sizeof(*c));
}

static int same_ns(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* Adds (type, ns) once: a type listed in several files of the same
 * namespace is one claim. */
static int claim(struct owners_snapshot_dump_claims *c, const struct owners_snapshot_dump_scan *s,
		 const struct owners_resource *type, const char *ns, const char *rv)
{
	struct owners_snapshot_dump_claim *k;
	size_t i;

	if (!type || (owners_snapshot_dump_types_flags(&s->types, type->api_version, type->kind) &
		      OWNERS_SNAPSHOT_DUMP_INCOMPLETE))
		return 0;
	if (!type->namespaced)
		ns = NULL;
	for (i = 0; i < c->count; i++)
		if (c->items[i].type == type && same_ns(c->items[i].namespace_, ns))
			return 0;
	if (OWNERS_GROW(c->items, c->cap, c->count + 1))
		return OWNERS_ENOMEM;
	k = &c->items[c->count];
	k->type = type;
	k->namespace_ = ns ? owners_strdup(ns) : NULL;
	k->resource_version = owners_strdup(rv ? rv : "");
	if ((ns && !k->namespace_) || !k->resource_version) {
		free(k->namespace_);
		free(k->resource_version);
		return OWNERS_ENOMEM;
	}
	c->count++;
	return 0;
}

/* A List's own type: its kind without "List", in its apiVersion. */
static const struct owners_resource *list_type(const struct owners_snapshot_dump_scan *s,
					       const char *api_version, const char *list_kind)
{
	size_t n = strlen(list_kind);
	const struct owners_resource *r;
	char *kind;

	if (n <= 4 || strcmp(list_kind + n - 4, "List") ||
	    !(kind = owners_strndup(list_kind, n - 4)))
		return NULL;
	r = owners_snapshot_dump_types_find(&s->types, api_version, kind);
	free(kind);
	return r;
}

/* The type a list file holds: the layout's name for it, its List's kind,
 * or its items' one type. */
static const struct owners_resource *file_type(const struct owners_snapshot_dump_scan *s,
					       const struct owners_snapshot_dump_layout_source *src,
					       const struct owners_snapshot_dump_scan_docinfo *d)
{
	const struct owners_resource *r = NULL;

	if (src->group && src->plural)
		r = owners_snapshot_dump_types_by_name(&s->types, src->group, src->plural);
	if (!r)
		r = list_type(s, d->api_version, d->kind);
	if (!r && d->item_kind && !d->mixed_types)
		r = owners_snapshot_dump_types_find(&s->types, d->item_api_version, d->item_kind);
	return r;
}

/* The single file's documents are NodeList, then groups of seven. */
static int is_cluster_info(const struct owners_snapshot_dump_scan *s)
{
	size_t i;

	if (!s->n_docs || strcmp(s->docs[0].kind, "NodeList") || (s->n_docs - 1) % CYCLE)
		return 0;
	for (i = 1; i < s->n_docs; i++)
		if (strcmp(s->docs[i].kind, cluster_info_cycle[(i - 1) % CYCLE]))
			return 0;
	return 1;
}

static int cluster_info_claims(struct owners_snapshot_dump_claims *c,
			       const struct owners_snapshot_dump_scan *s)
{
	size_t g, i;
	int rc;

	c->cluster_info = 1;
	rc = claim(c, s, list_type(s, s->docs[0].api_version, "NodeList"), NULL,
		   s->docs[0].resource_version);
	for (g = 1; !rc && g < s->n_docs; g += CYCLE) {
		const char *ns = NULL;

		for (i = g; i < g + CYCLE && !ns; i++)
			if (!s->docs[i].mixed_namespaces)
				ns = s->docs[i].namespace_;
		for (i = g; ns && !rc && i < g + CYCLE; i++)
			rc = claim(c, s, list_type(s, s->docs[i].api_version, s->docs[i].kind), ns,
				   s->docs[i].resource_version);
	}
	return rc;
}

/* kubectl get output: each type in a List, in the dump's one namespace
 * or every one. */
static int types_claims(struct owners_snapshot_dump_claims *c,
			const struct owners_snapshot_dump_scan *s, const char *ns)
{
	size_t i;
	int rc = 0;

	for (i = 0; !rc && i < s->types.table.count; i++) {
		const struct owners_resource *r = &s->types.table.items[i];

		if (owners_snapshot_dump_types_flags(&s->types, r->api_version, r->kind) &
		    OWNERS_SNAPSHOT_DUMP_IN_LIST)
			rc = claim(c, s, r, ns, "");
	}
	return rc;
}

int owners_snapshot_dump_claims_build(struct owners_snapshot_dump_claims *c,
				      const struct owners_snapshot_dump_scan *s,
				      const struct owners_snapshot_dump_layout *l, const char *ns)
{
	size_t i;
	int rc = 0;

	memset(c, 0, sizeof(*c));
	if (l->single_file && is_cluster_info(s))
		return cluster_info_claims(c, s);
	for (i = 0; !rc && i < s->n_docs; i++) {
		const struct owners_snapshot_dump_scan_docinfo *d = &s->docs[i];
		const struct owners_snapshot_dump_layout_source *src = &l->sources[d->source];

		if (src->claim != OWNERS_SNAPSHOT_DUMP_CLAIM_FILE)
			continue;
		if (d->shape == OWNERS_SNAPSHOT_DUMP_LIST ||
		    (d->shape == OWNERS_SNAPSHOT_DUMP_ARRAY && src->array_is_list))
			rc = claim(c, s, file_type(s, src, d), src->namespace_,
				   d->resource_version);
	}
	return rc ? rc : types_claims(c, s, ns);
}
