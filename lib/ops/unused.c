#include "unused.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "document_json.h"
#include "grow.h"
#include "sort.h"
#include "text_table.h"
#include "timeutil.h"
#include "usage.h"

static const struct {
	const char *group, *kind;
	const char *reason; /* why one nothing uses is unused */
} kinds[] = {
	{ "", "ConfigMap", "nothing mounts it or reads it, and no owner keeps it" },
	{ "", "Secret", "nothing mounts it, reads it or pulls with it, and no owner keeps it" },
	{ "", "PersistentVolumeClaim", "no Pod or template mounts it, and no owner keeps it" },
	{ "", "PersistentVolume", NULL /* its own words: Released or Available */ },
	{ "", "ServiceAccount", "no Pod or template runs as it, and no owner keeps it" },
	{ "", "Service", NULL /* its own words: endpoints, selector */ },
	{ "rbac.authorization.k8s.io", "Role", "no binding binds it, and no owner keeps it" },
	{ "rbac.authorization.k8s.io", "ClusterRole",
	  "no binding binds it, and no owner keeps it" },
	{ "storage.k8s.io", "StorageClass",
	  "no claim or volume is of it, and it is not the default" },
	{ "scheduling.k8s.io", "PriorityClass",
	  "no Pod or template has it, and it is not the global default" },
	{ "networking.k8s.io", "IngressClass", "no Ingress is of it, and it is not the default" },
};

/* The kinds table's row of n (-1: not a kind unused looks at). */
static int kind_row(const struct owners_node *n)
{
	char group[256];
	size_t i;

	owners_graph_node_group(n, group, sizeof(group));
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(kinds[i].group, group) && !strcmp(kinds[i].kind, n->place->kind))
			return (int)i;
	return -1;
}

int owners_unused_kind(const char *group, const char *kind)
{
	size_t i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(kinds[i].group, group) && !strcmp(kinds[i].kind, kind))
			return 1;
	return 0;
}

const char *owners_unused_state_name(enum owners_unused_state s)
{
	return s == OWNERS_UNUSED_UNKNOWN ? "unknown" : "unused";
}

static int label_is(const struct owners_node *n, const char *key, const char *value)
{
	const char *v = owners_graph_node_label(n, key);

	return v && (!value || !strcmp(v, value));
}

static int aggregated(const struct owners_node *n)
{
	uint32_t i;

	for (i = 0; i < n->extras->n_labels; i++)
		if (!strncmp(n->extras->labels[2 * i], "rbac.authorization.k8s.io/aggregate-to-",
			     strlen("rbac.authorization.k8s.io/aggregate-to-")))
			return 1;
	return 0;
}

/* What the cluster keeps for itself (see unused.h). */
static int clusters_own(const struct owners_node *n)
{
	static const char *const system_namespaces[] = { "kube-system", "kube-public",
							 "kube-node-lease" };
	size_t i;

	for (i = 0; i < sizeof(system_namespaces) / sizeof(system_namespaces[0]); i++)
		if (!strcmp(n->place->namespace_, system_namespaces[i]))
			return 1;
	if (!strcmp(n->place->kind, "ConfigMap") && !strcmp(n->name, "kube-root-ca.crt"))
		return 1;
	if (!strcmp(n->place->kind, "ServiceAccount") && !strcmp(n->name, "default"))
		return 1;
	if (!strcmp(n->place->kind, "Service") && !strcmp(n->place->namespace_, "default") &&
	    !strcmp(n->name, "kubernetes"))
		return 1;
	if ((!strcmp(n->place->kind, "Role") || !strcmp(n->place->kind, "ClusterRole")) &&
	    (!strncmp(n->name, "system:", 7) ||
	     label_is(n, "kubernetes.io/bootstrapping", "rbac-defaults") || aggregated(n)))
		return 1;
	if (!strcmp(n->place->kind, "PriorityClass") && !strncmp(n->name, "system-", 7))
		return 1;
	return label_is(n, "owner", "helm");
}

/* Whether a live owner keeps n (its reference resolves to one). */
static int owner_keeps(const struct owners_graph *g, uint32_t node)
{
	const struct owners_node *n = &g->nodes[node];
	uint32_t i;

	for (i = 0; i < n->n_refs; i++)
		if (n->refs[i].owner != OWNERS_NO_NODE && !g->nodes[n->refs[i].owner].virtual_ &&
		    owners_graph_classify_ref((struct owners_graph *)g, node, &n->refs[i]) ==
			    OWNERS_REF_RESOLVED)
			return 1;
	return 0;
}

/* A relation of node's own, of how, in state (NULL: none). */
static const struct owners_relation *own_use(const struct owners_relations *rel, uint32_t node,
					     enum owners_use_how how, int found)
{
	const size_t *at;
	size_t n = owners_relations_uses_of(rel, node, &at), i;

	for (i = 0; i < n; i++)
		if (rel->uses.items[rel->items[at[i]].use].how == how &&
		    (rel->items[at[i]].state == OWNERS_RELATION_FOUND) == found)
			return &rel->items[at[i]];
	return NULL;
}

static int add(struct owners_unused_report *rep, uint32_t node, enum owners_unused_state state,
	       struct owners_buf *reason)
{
	struct owners_unused_finding *f;

	if (OWNERS_GROW(rep->items, rep->cap, rep->count + 1))
		return OWNERS_ENOMEM;
	f = &rep->items[rep->count];
	f->node = node;
	f->state = state;
	if (!(f->reason = owners_buf_detach(reason)))
		return OWNERS_ENOMEM;
	rep->count++;
	return 0;
}

/* Why node, which nothing uses, is unused: its kind's words. */
static int unused_reason(struct owners_buf *out, const struct owners_relations *rel,
			 const struct owners_graph *g, uint32_t node, int row, int selects)
{
	const struct owners_node *n = &g->nodes[node];
	const struct owners_relation *x;

	if (!strcmp(n->place->kind, "PersistentVolume")) {
		x = own_use(rel, node, OWNERS_USE_BOUND_TO, 0);
		if (x && x->state == OWNERS_RELATION_MISSING)
			return owners_buf_addf(out, "Released: its claim %s/%s is gone",
					       rel->uses.items[x->use].namespace_,
					       rel->uses.items[x->use].name);
		return owners_buf_adds(out, "Available: no claim is bound to it");
	}
	if (!strcmp(n->place->kind, "Service"))
		return owners_buf_adds(
			out, selects < 0 ? "no endpoints, and no selector"
					 : "no endpoints, and its selector matches no Pod");
	if (!strcmp(n->place->kind, "Secret") && (x = own_use(rel, node, OWNERS_USE_TOKEN_OF, 0)))
		return owners_buf_addf(out, "a token of ServiceAccount %s, which does not exist",
				       rel->uses.items[x->use].name);
	return owners_buf_adds(out, kinds[row].reason);
}

int owners_unused_check(struct owners_unused_report *rep, const struct owners_relations *rel,
			const struct owners_graph *g, uint32_t node)
{
	const struct owners_node *n = &g->nodes[node];
	struct owners_usage usage;
	struct owners_buf reason = OWNERS_BUF_INIT;
	int row = kind_row(n), selects = 0, rc = 0, has_selector = 0;
	size_t i;

	if (row < 0 || n->virtual_ || n->extras->deleted || clusters_own(n) || owner_keeps(g, node))
		return 0;
	if (owners_relations_marks(rel, node) & OWNERS_USES_MARK_DEFAULT)
		return 0; /* a default class: new objects get it */
	if (!strcmp(n->place->kind, "Secret") && own_use(rel, node, OWNERS_USE_TOKEN_OF, 1))
		return 0; /* a live ServiceAccount's token */
	if (!strcmp(n->place->kind, "Service")) {
		if (owners_relations_marks(rel, node) & OWNERS_USES_MARK_ENDPOINTS)
			return 0;
		for (i = 0; i < rel->n_selectors; i++)
			has_selector |= rel->selectors[i].user == node;
		if ((selects = owners_relations_selects_any(rel, g, node)) < 0)
			return OWNERS_ENOMEM;
		if (selects)
			return 0;
		if (!has_selector)
			selects = -1;
	}
	memset(&usage, 0, sizeof(usage));
	if (owners_usage_add(&usage, rel, g, node)) {
		owners_usage_clear(&usage);
		return OWNERS_ENOMEM;
	}
	if (!usage.n_users) {
		if (usage.n_unseen) {
			rc = owners_buf_adds(&reason, "its users cannot all be seen: ");
			for (i = 0; !rc && i < usage.n_unseen; i++)
				rc = (i ? owners_buf_adds(&reason, ", ") : 0) ||
				     owners_usage_unseen_text(&reason, &usage.unseen[i]);
			if (!rc)
				rc = add(rep, node, OWNERS_UNUSED_UNKNOWN, &reason);
		} else if (!(rc = unused_reason(&reason, rel, g, node, row, selects))) {
			rc = add(rep, node, OWNERS_UNUSED_UNUSED, &reason);
		}
	}
	owners_buf_clear(&reason);
	owners_usage_clear(&usage);
	return rc ? OWNERS_ENOMEM : 0;
}

static int by_node(const void *a, const void *b, void *ctx)
{
	return owners_graph_node_cmp(ctx, ((const struct owners_unused_finding *)a)->node,
				     ((const struct owners_unused_finding *)b)->node);
}

void owners_unused_report_sort(struct owners_unused_report *rep, const struct owners_graph *g)
{
	owners_qsort_r(rep->items, rep->count, sizeof(*rep->items), by_node, (void *)g);
}

void owners_unused_report_clear(struct owners_unused_report *rep)
{
	size_t i;

	for (i = 0; i < rep->count; i++)
		free(rep->items[i].reason);
	free(rep->items);
	memset(rep, 0, sizeof(*rep));
}

enum { C_NS, C_NAME, C_AGE, C_STATE, C_REASON, N_COLUMNS };

int owners_unused_render_text(struct owners_buf *out, const struct owners_unused_render *r)
{
	static const char *const titles[N_COLUMNS] = { "NAMESPACE", "NAME", "AGE", "STATE",
						       "REASON" };
	struct owners_text_table t;
	size_t i;
	int rc = owners_text_table_init(&t, titles, N_COLUMNS, r->rep->count);

	for (i = 0; !rc && i < r->rep->count; i++) {
		const struct owners_unused_finding *f = &r->rep->items[i];
		const struct owners_node *n = &r->g->nodes[f->node];
		rc = owners_buf_adds(owners_text_table_cell(&t, i, C_NS), n->place->namespace_);
		if (!rc)
			rc = owners_graph_node_shown_name(owners_text_table_cell(&t, i, C_NAME), n,
							  r->print.wide);
		if (!rc && n->created)
			rc = owners_time_format_age(
				owners_text_table_cell(&t, i, C_AGE),
				r->print.now > n->created ? r->print.now - n->created : 0);
		if (!rc)
			rc = owners_buf_adds(owners_text_table_cell(&t, i, C_STATE),
					     owners_unused_state_name(f->state));
		if (!rc)
			rc = owners_buf_adds(owners_text_table_cell(&t, i, C_REASON), f->reason);
	}
	if (!rc)
		rc = owners_text_table_write(out, &t, NULL, r->print.no_headers);
	owners_text_table_clear(&t);
	return rc;
}

int owners_unused_render_json(struct owners_buf *out, const struct owners_unused_render *r)
{
	struct owners_json_gen *j;
	size_t i;
	int rc;

	if (owners_json_gen_new(&j, out, 1))
		return OWNERS_ENOMEM;
	owners_document_open(j, "OwnersUnused");
	owners_document_items(j);
	for (i = 0; i < r->rep->count; i++) {
		const struct owners_unused_finding *f = &r->rep->items[i];

		owners_json_gen_map_open(j);
		owners_document_object(j, r->g, &r->g->nodes[f->node]);
		owners_document_facts(j);
		owners_json_gen_kv(j, "state", owners_unused_state_name(f->state));
		owners_json_gen_kv(j, "reason", f->reason);
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

int owners_unused_render_names(struct owners_buf *out, const struct owners_unused_render *r)
{
	size_t i;
	int rc = 0;

	for (i = 0; !rc && i < r->rep->count; i++) {
		if (r->rep->items[i].state != OWNERS_UNUSED_UNUSED)
			continue;
		rc = owners_graph_node_name(out, &r->g->nodes[r->rep->items[i].node]);
		if (!rc)
			rc = owners_buf_addc(out, '\n');
	}
	return rc;
}
