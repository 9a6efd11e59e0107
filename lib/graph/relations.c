#include "relations.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "object_uses.h"
#include "owners_error.h"
#include "pod_uses.h"
#include "sort.h"
#include "strset.h"

/* A StatefulSet's ordinals looked up at most: past this many, its
 * claims are not looked for (the API allows any int32 replicas). */
#define MAX_ORDINALS 100000
/* The label an EndpointSlice names its Service with. */
#define SLICE_SERVICE_LABEL "kubernetes.io/service-name"

void owners_relations_clear(struct owners_relations *rel)
{
	size_t i;

	owners_uses_clear(&rel->uses);
	free(rel->user_of);
	for (i = 0; i < rel->n_selectors; i++)
		owners_pod_selector_clear(&rel->selectors[i].selector);
	free(rel->selectors);
	free(rel->marks);
	for (i = 0; i < rel->n_reads; i++) {
		free(rel->reads[i].namespace_);
		free(rel->reads[i].message);
	}
	free(rel->reads);
	free(rel->items);
	free(rel->by_user);
	free(rel->by_used);
	memset(rel, 0, sizeof(*rel));
}

int owners_relations_type(const struct owners_resource *r)
{
	return owners_pod_uses_spec_path(r->group, r->kind) ||
	       owners_object_uses_kind(r->group, r->kind) ||
	       owners_pod_selector_kind(r->group, r->kind);
}

int owners_relations_may_use(const char *group, const char *kind, const char *used_group,
			     const char *used_kind)
{
	if (owners_pod_uses_spec_path(group, kind))
		return owners_pod_uses_may_name(used_group, used_kind);
	if (owners_pod_selector_kind(group, kind))
		return !strcmp(used_group, "") && !strcmp(used_kind, "Pod");
	return owners_object_uses_may_name(group, kind, used_group, used_kind);
}

static int mark(struct owners_relations *rel, uint32_t node, unsigned marks)
{
	size_t had = rel->cap_marks;

	if (!marks)
		return 0;
	if (OWNERS_GROW(rel->marks, rel->cap_marks, (size_t)node + 1))
		return OWNERS_ENOMEM;
	if (rel->cap_marks > had)
		memset(rel->marks + had, 0, rel->cap_marks - had);
	rel->marks[node] |= (unsigned char)marks;
	return 0;
}

unsigned owners_relations_marks(const struct owners_relations *rel, uint32_t node)
{
	return node < rel->cap_marks ? rel->marks[node] : 0;
}

/* The uses from before on are node's. */
static int own_uses(struct owners_relations *rel, uint32_t node, size_t before)
{
	size_t i;

	if (rel->uses.count > before &&
	    OWNERS_GROW(rel->user_of, rel->cap_user_of, rel->uses.count))
		return OWNERS_ENOMEM;
	for (i = before; i < rel->uses.count; i++)
		rel->user_of[i] = node;
	return 0;
}

static int add_selector(struct owners_relations *rel, uint32_t node, struct owners_pod_selector *s)
{
	struct owners_relation_selector *x;

	if (s->scope == OWNERS_POD_SELECTOR_NONE) {
		owners_pod_selector_clear(s);
		return 0;
	}
	if (OWNERS_GROW(rel->selectors, rel->cap_selectors, rel->n_selectors + 1)) {
		owners_pod_selector_clear(s);
		return OWNERS_ENOMEM;
	}
	x = &rel->selectors[rel->n_selectors++];
	x->user = node;
	x->selector = *s;
	memset(s, 0, sizeof(*s));
	return 0;
}

int owners_relations_add_object(struct owners_relations *rel, const struct owners_graph *g,
				const struct owners_resource *r,
				const struct owners_json_value *object)
{
	const char *uid = owners_json_string(owners_json_path(object, "metadata", "uid", NULL));
	uint32_t user = uid ? owners_graph_find_uid(g, uid) : OWNERS_NO_NODE;
	size_t before = rel->uses.count;
	struct owners_pod_selector selector;
	int rc = 0;

	if (user == OWNERS_NO_NODE || g->nodes[user].virtual_)
		return 0;
	rel->uses.marks = 0;
	if (owners_pod_uses_spec_path(r->group, r->kind))
		rc = owners_pod_uses_read(&rel->uses, object, r->group, r->kind);
	else if (owners_object_uses_kind(r->group, r->kind))
		rc = owners_object_uses_read(&rel->uses, object, r->group, r->kind);
	if (!rc)
		rc = own_uses(rel, user, before);
	if (!rc)
		rc = mark(rel, user, rel->uses.marks);
	if (!rc && owners_pod_selector_kind(r->group, r->kind) &&
	    !(rc = owners_pod_selector_read(&selector, object, r->group, r->kind)))
		rc = add_selector(rel, user, &selector);
	rel->named = rel->uses.count;
	return rc;
}

int owners_relations_add_read(struct owners_relations *rel, uint32_t node,
			      const struct owners_uses *uses, struct owners_pod_selector *selector,
			      unsigned marks)
{
	size_t before = rel->uses.count, i;
	int rc = 0;

	for (i = 0; !rc && i < uses->count; i++) {
		const struct owners_use *u = &uses->items[i];
		const struct owners_use_target t = { u->group, u->kind, u->namespace_, u->name };

		size_t had = rel->uses.count;

		rc = owners_uses_add(&rel->uses, &t, u->how, u->optional, "%s", u->path);
		if (!rc && rel->uses.count > had) {
			rel->uses.items[had].first_ordinal = u->first_ordinal;
			rel->uses.items[had].ordinals = u->ordinals;
		}
	}
	if (!rc)
		rc = own_uses(rel, node, before);
	if (!rc)
		rc = mark(rel, node, marks);
	if (!rc && selector)
		rc = add_selector(rel, node, selector);
	else if (selector)
		owners_pod_selector_clear(selector);
	rel->named = rel->uses.count;
	return rc;
}

int owners_relations_note_read(struct owners_relations *rel, const struct owners_resource *r,
			       const char *ns, int rc, const char *message)
{
	struct owners_relation_read *x;

	if (OWNERS_GROW(rel->reads, rel->cap_reads, rel->n_reads + 1))
		return OWNERS_ENOMEM;
	x = &rel->reads[rel->n_reads];
	memset(x, 0, sizeof(*x));
	x->resource = r;
	x->rc = rc;
	if ((ns && *ns && !(x->namespace_ = strdup(ns))) ||
	    (message && !(x->message = strdup(message)))) {
		free(x->namespace_);
		return OWNERS_ENOMEM;
	}
	rel->n_reads++;
	return 0;
}

enum owners_listing_state owners_relations_read_state(const struct owners_relations *rel,
						      const struct owners_resource *r,
						      const char *ns,
						      const struct owners_relation_read **which)
{
	enum owners_listing_state state = OWNERS_LISTING_NOT_LISTED;
	size_t i;

	if (which)
		*which = NULL;
	for (i = 0; i < rel->n_reads; i++) {
		const struct owners_relation_read *x = &rel->reads[i];

		if (x->resource != r || (x->namespace_ && (!ns || strcmp(x->namespace_, ns))))
			continue;
		if (!x->rc) {
			if (which)
				*which = x;
			return OWNERS_LISTING_OK;
		}
		/* the narrowest failure, then the first by message: the same
		 * whichever list failed last */
		if (which && (!*which || (x->namespace_ && !(*which)->namespace_) ||
			      (!x->namespace_ == !(*which)->namespace_ && x->message &&
			       (*which)->message && strcmp(x->message, (*which)->message) < 0)))
			*which = x;
		state = OWNERS_LISTING_FAILED;
	}
	return state;
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

static int is_core(const struct owners_node *n, const char *kind)
{
	return !n->virtual_ && n->place->resource && !*n->place->resource->group && !strcmp(n->place->kind, kind);
}

/* The Service an EndpointSlice serves: its label, else its owner. */
static const char *slice_service(const struct owners_node *n)
{
	const char *name = owners_graph_node_label(n, SLICE_SERVICE_LABEL);
	uint32_t i;

	for (i = 0; !name && i < n->n_refs; i++)
		if (!strcmp(n->refs[i].type->kind, "Service"))
			name = n->refs[i].name;
	return name;
}

/* Per namespace, its Pods; per Service, whether slices serve it (flag
 * 1) and whether one has endpoints (flag 3). */
struct selection_index {
	struct owners_strset services;   /* "ns/name" */
	struct owners_strset namespaces; /* ns -> index into pods+1 */
	uint32_t **pods;
	size_t *n_pods, *cap_pods;
	size_t n_namespaces;
};

static void selection_index_clear(struct selection_index *x)
{
	size_t i;

	owners_strset_clear(&x->services);
	owners_strset_clear(&x->namespaces);
	for (i = 0; i < x->n_namespaces; i++)
		free(x->pods[i]);
	free(x->pods);
	free(x->n_pods);
	free(x->cap_pods);
}

static int index_pod(struct selection_index *x, uint32_t node, const char *ns)
{
	struct owners_strset_entry *e = owners_strset_get(&x->namespaces, ns);
	size_t k;

	if (!e) {
		size_t n = x->n_namespaces + 1;
		uint32_t **pods = realloc(x->pods, n * sizeof(*pods));
		size_t *counts, *caps;

		if (!pods)
			return OWNERS_ENOMEM;
		x->pods = pods;
		if (!(counts = realloc(x->n_pods, n * sizeof(*counts))))
			return OWNERS_ENOMEM;
		x->n_pods = counts;
		if (!(caps = realloc(x->cap_pods, n * sizeof(*caps))))
			return OWNERS_ENOMEM;
		x->cap_pods = caps;
		if (!(e = owners_strset_add(&x->namespaces, ns, NULL)))
			return OWNERS_ENOMEM;
		e->flag = (int)x->n_namespaces;
		x->pods[x->n_namespaces] = NULL;
		x->n_pods[x->n_namespaces] = x->cap_pods[x->n_namespaces] = 0;
		x->n_namespaces = n;
	}
	k = (size_t)e->flag;
	return owners_graph_node_list_push(&x->pods[k], &x->n_pods[k], &x->cap_pods[k], node);
}

static int selection_index_build(struct selection_index *x, struct owners_relations *rel,
				 const struct owners_graph *g)
{
	char key[1024];
	uint32_t i;
	int rc = 0;

	memset(x, 0, sizeof(*x));
	owners_strset_init(&x->services);
	owners_strset_init(&x->namespaces);
	for (i = 0; !rc && i < g->count; i++) {
		const struct owners_node *n = &g->nodes[i];
		const char *service;
		struct owners_strset_entry *e;

		if (is_core(n, "Pod")) {
			rc = index_pod(x, i, n->place->namespace_);
			continue;
		}
		if (n->virtual_ || strcmp(n->place->kind, "EndpointSlice") ||
		    !(service = slice_service(n)))
			continue;
		snprintf(key, sizeof(key), "%s/%s", n->place->namespace_, service);
		if (!(e = owners_strset_get(&x->services, key)) &&
		    !(e = owners_strset_add(&x->services, key, NULL)))
			return OWNERS_ENOMEM;
		e->flag |=
			1 | (owners_relations_marks(rel, i) & OWNERS_USES_MARK_ENDPOINTS ? 2 : 0);
	}
	return rc;
}

/* The flags of the Service node (0: no slice serves it). */
static int slices_of(const struct selection_index *x, const struct owners_node *n)
{
	char key[1024];
	struct owners_strset_entry *e;

	snprintf(key, sizeof(key), "%s/%s", n->place->namespace_, n->name);
	e = owners_strset_get(&x->services, key);
	return e ? e->flag : 0;
}

/* The Pods each selector selects, as uses after the named ones: a
 * Service's only when no EndpointSlice serves it (what the slices name is
 * what the cluster routes to). A Service whose slices have endpoints is
 * marked so. */
/* Whether s selects pod, by the labels the scan kept. */
static int selects(const struct owners_pod_selector *s, const struct owners_node *pod,
		   struct owners_label_meta **labels, size_t *cap, int *failed)
{
	uint32_t i;

	if (OWNERS_GROW(*labels, *cap, (size_t)pod->extras->n_labels + 1)) {
		*failed = 1;
		return 0;
	}
	for (i = 0; i < pod->extras->n_labels; i++) {
		(*labels)[i].key = pod->extras->labels[2 * i];
		(*labels)[i].value = pod->extras->labels[2 * i + 1];
	}
	return owners_pod_selector_matches(s, *labels, pod->extras->n_labels);
}

static int select_pods(struct owners_relations *rel, struct owners_graph *g)
{
	struct selection_index x;
	struct owners_label_meta *labels = NULL;
	size_t i, j, cap = 0;
	int failed = 0, rc = selection_index_build(&x, rel, g);

	for (i = 0; !rc && i < g->count; i++)
		if (is_core(&g->nodes[i], "Service") && (slices_of(&x, &g->nodes[i]) & 2))
			rc = mark(rel, (uint32_t)i, OWNERS_USES_MARK_ENDPOINTS);
	for (i = 0; !rc && i < rel->n_selectors; i++) {
		const struct owners_relation_selector *s = &rel->selectors[i];
		const struct owners_node *user = &g->nodes[s->user];
		struct owners_strset_entry *e = owners_strset_get(&x.namespaces, user->place->namespace_);
		size_t before = rel->uses.count;

		if (!e || (is_core(user, "Service") && slices_of(&x, user)))
			continue;
		for (j = 0; !rc && j < x.n_pods[e->flag]; j++) {
			const struct owners_node *pod = &g->nodes[x.pods[e->flag][j]];
			const struct owners_use_target t = { "", "Pod", pod->place->namespace_,
							     pod->name };

			if (selects(&s->selector, pod, &labels, &cap, &failed))
				rc = owners_uses_add(&rel->uses, &t, OWNERS_USE_SELECTS, 0, "%s",
						     s->selector.path);
		}
		if (!rc)
			rc = own_uses(rel, s->user, before);
	}
	selection_index_clear(&x);
	free(labels);
	return rc ? rc : failed ? OWNERS_ENOMEM : 0;
}

int owners_relations_selects_any(const struct owners_relations *rel, const struct owners_graph *g,
				 uint32_t node)
{
	struct owners_label_meta *labels = NULL;
	size_t i, cap = 0;
	uint32_t k;
	int failed = 0, found = 0;

	for (i = 0; i < rel->n_selectors && rel->selectors[i].user != node; i++)
		;
	for (k = 0; i < rel->n_selectors && !found && !failed && k < g->count; k++)
		if (is_core(&g->nodes[k], "Pod") &&
		    !strcmp(g->nodes[k].place->namespace_, g->nodes[node].place->namespace_))
			found = selects(&rel->selectors[i].selector, &g->nodes[k], &labels, &cap,
					&failed);
	free(labels);
	return failed ? -OWNERS_ENOMEM : found;
}

/* The order of relations at one node: by the other end (a missing one
 * by what it names), then relation and path, so that what one object
 * uses of another is together. */
struct order_ctx {
	const struct owners_relations *rel;
	const struct owners_graph *g;
	int by_used; /* the node is the used one: the other end is the user */
};

static int absent_cmp(const struct owners_use *a, const struct owners_use *b)
{
	int d = strcmp(a->kind, b->kind);

	if (!d)
		d = strcmp(a->group, b->group);
	if (!d)
		d = strcmp(a->namespace_ ? a->namespace_ : "", b->namespace_ ? b->namespace_ : "");
	return d ? d : strcmp(a->name, b->name);
}

static int other_cmp(const struct order_ctx *c, const struct owners_relation *a,
		     const struct owners_relation *b)
{
	uint32_t x = c->by_used ? a->user : a->used, y = c->by_used ? b->user : b->used;

	/* kind first, as a tree orders a row's children */
	if (x != OWNERS_NO_NODE && y != OWNERS_NO_NODE)
		return x == y ? 0
			      : owners_graph_node_order(c->g, x, y, OWNERS_NODE_ORDER_KIND_FIRST);
	if (x != y)
		return x == OWNERS_NO_NODE ? 1 : -1;
	return absent_cmp(&c->rel->uses.items[a->use], &c->rel->uses.items[b->use]);
}

static int relation_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct order_ctx *c = ctx;
	const struct owners_relation *a = &c->rel->items[*(const size_t *)pa];
	const struct owners_relation *b = &c->rel->items[*(const size_t *)pb];
	uint32_t na = c->by_used ? a->used : a->user, nb = c->by_used ? b->used : b->user;
	const struct owners_use *ua = &c->rel->uses.items[a->use];
	const struct owners_use *ub = &c->rel->uses.items[b->use];
	int d;

	if (na != nb)
		return na < nb ? -1 : 1;
	if ((d = other_cmp(c, a, b)))
		return d;
	if (ua->how != ub->how)
		return ua->how < ub->how ? -1 : 1;
	return strcmp(ua->path, ub->path);
}

size_t owners_relations_same_end(const struct owners_relations *rel, const struct owners_graph *g,
				 const size_t *at, size_t n, int by_used)
{
	const struct order_ctx c = { rel, g, by_used };
	size_t k = 1;

	while (k < n && !other_cmp(&c, &rel->items[at[0]], &rel->items[at[k]]))
		k++;
	return n ? k : 0;
}

static int build_index(struct owners_relations *rel, const struct owners_graph *g)
{
	struct order_ctx c = { rel, g, 0 };
	size_t i;

	free(rel->by_user);
	free(rel->by_used);
	rel->by_used = NULL;
	rel->n_by_used = 0;
	if (!(rel->by_user = malloc((rel->count + 1) * sizeof(size_t))) ||
	    !(rel->by_used = malloc((rel->count + 1) * sizeof(size_t))))
		return OWNERS_ENOMEM;
	for (i = 0; i < rel->count; i++) {
		rel->by_user[i] = i;
		if (rel->items[i].state == OWNERS_RELATION_FOUND)
			rel->by_used[rel->n_by_used++] = i;
	}
	owners_qsort_r(rel->by_user, rel->count, sizeof(size_t), relation_cmp, &c);
	c.by_used = 1;
	owners_qsort_r(rel->by_used, rel->n_by_used, sizeof(size_t), relation_cmp, &c);
	return 0;
}

static size_t range_of(const struct owners_relations *rel, const size_t *index, size_t n,
		       uint32_t node, int by_used, const size_t **out)
{
	size_t lo = 0, hi = n, first;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct owners_relation *x = &rel->items[index[mid]];

		if ((by_used ? x->used : x->user) < node)
			lo = mid + 1;
		else
			hi = mid;
	}
	first = lo;
	while (lo < n &&
	       (by_used ? rel->items[index[lo]].used : rel->items[index[lo]].user) == node)
		lo++;
	*out = index ? index + first : NULL;
	return lo - first;
}

size_t owners_relations_uses_of(const struct owners_relations *rel, uint32_t node,
				const size_t **out)
{
	return range_of(rel, rel->by_user, rel->by_user ? rel->count : 0, node, 0, out);
}

size_t owners_relations_users_of(const struct owners_relations *rel, uint32_t node,
				 const size_t **out)
{
	return range_of(rel, rel->by_used, rel->n_by_used, node, 1, out);
}

int owners_relations_resolve(struct owners_relations *rel, struct owners_graph *g)
{
	struct owners_strset types;
	size_t i;
	int rc = 0, failed = 0;

	/* what selectors made last time is made again */
	while (rel->uses.count > rel->named) {
		struct owners_use *u = &rel->uses.items[--rel->uses.count];

		free(u->group);
		free(u->kind);
		free(u->namespace_);
		free(u->name);
		free(u->path);
	}
	if ((rc = select_pods(rel, g)))
		return rc;
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
	if (!rc && failed)
		rc = OWNERS_ENOMEM;
	return rc ? rc : build_index(rel, g);
}
