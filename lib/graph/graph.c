#include "graph.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_path.h"
#include "grow.h"
#include "sort.h"
#include "timeutil.h"

const struct owners_node_place owners_graph_no_place = { "", "", "", NULL };
const struct owners_node_extras owners_graph_no_extras = { NULL, 0, 0, 0, NULL };

int owners_graph_new(struct owners_graph **out, const struct owners_resource_table *types)
{
	struct owners_graph *g = calloc(1, sizeof(*g));

	*out = NULL;
	if (!g)
		return OWNERS_ENOMEM;
	owners_arena_init(&g->arena);
	g->types = types;
	*out = g;
	return 0;
}

void owners_graph_free(struct owners_graph *g)
{
	size_t i;

	if (!g)
		return;
	for (i = 0; i < g->n_listings; i++)
		free(g->listings[i].message);
	free(g->listings);
	free(g->nodes);
	owners_node_table_clear(&g->by_uid);
	owners_node_table_clear(&g->by_name);
	free(g->ahead);
	free(g->edges);
	free(g->places.slots);
	owners_arena_clear(&g->arena);
	free(g);
}

/* ---- UIDs --------------------------------------------------------- */

const char *owners_graph_node_uid(const struct owners_node *n, char *buf)
{
	return owners_uid_text(&n->uid_key, n->uid_is_text, buf);
}

void owners_graph_node_borrow_uid(struct owners_node *n, const char *text)
{
	n->uid_is_text = !owners_uid_pack(&n->uid_key, text);
	if (n->uid_is_text)
		n->uid_key.text = text ? text : "";
}

/* A UID given as text, as the graph keys it (its text borrowed). */
struct uid_query {
	union owners_uid key;
	int is_text;
	uint64_t hash;
};

static void uid_query_of(struct uid_query *q, const char *text)
{
	q->is_text = !owners_uid_pack(&q->key, text);
	if (q->is_text)
		q->key.text = text;
	q->hash = owners_uid_hash(&q->key, q->is_text);
}

/* ---- UID index ------------------------------------------------------- */

static int uid_index_grow(struct owners_graph *g)
{
	uint64_t h[OWNERS_NODE_TABLE_BATCH];
	uint32_t i, k, n;

	if (owners_node_table_reset(&g->by_uid, owners_node_table_grown_cap(&g->by_uid)))
		return OWNERS_ENOMEM;
	/* a batch's slots asked for, then filled */
	for (i = 0; i < g->count; i += n) {
		n = g->count - i < OWNERS_NODE_TABLE_BATCH ? g->count - i : OWNERS_NODE_TABLE_BATCH;
		for (k = 0; k < n; k++) {
			h[k] = owners_uid_hash(&g->nodes[i + k].uid_key,
					       g->nodes[i + k].uid_is_text);
			owners_node_table_prefetch(&g->by_uid, h[k]);
		}
		for (k = 0; k < n; k++)
			owners_node_table_insert(&g->by_uid, h[k], i + k);
	}
	return 0;
}

/* The number text is when it is one as etcd writes its revisions:
 * digits, no leading zero, at most 19 of them (below 2^64); else -1. */
static int rv_number(const char *text, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (!text || !*text || (text[0] == '0' && text[1]))
		return -1;
	for (i = 0; text[i]; i++) {
		if (i == 19 || text[i] < '0' || text[i] > '9')
			return -1;
		v = v * 10 + (uint64_t)(text[i] - '0');
	}
	*out = v;
	return 0;
}

int owners_graph_node_set_rv(struct owners_node *n, struct owners_arena *a, const char *text)
{
	uint64_t v;

	if (!rv_number(text, &v)) {
		n->rv.number = v;
		n->rv_is_number = 1;
		return 0;
	}
	n->rv_is_number = 0;
	n->rv.text = NULL;
	if (!text || !*text)
		return 0;
	n->rv.text = a ? owners_arena_strdup(a, text) : text;
	return n->rv.text ? 0 : OWNERS_ENOMEM;
}

const char *owners_graph_node_rv(const struct owners_node *n, char *buf)
{
	if (!n->rv_is_number)
		return n->rv.text ? n->rv.text : "";
	snprintf(buf, OWNERS_NODE_RV_SIZE, "%" PRIu64, n->rv.number);
	return buf;
}

int owners_graph_node_has_finalizer(const struct owners_node *n, const char *f)
{
	uint32_t i;

	for (i = 0; i < n->extras->n_finalizers; i++)
		if (!strcmp(n->extras->finalizers[i], f))
			return 1;
	return 0;
}

const char *owners_graph_node_label(const struct owners_node *n, const char *key)
{
	uint32_t i;

	for (i = 0; i < n->extras->n_labels; i++)
		if (!strcmp(n->extras->labels[2 * i], key))
			return n->extras->labels[2 * i + 1];
	return NULL;
}

int owners_graph_label_title(struct owners_buf *out, const char *key)
{
	const char *slash = strrchr(key, '/'), *p;
	int rc = 0;

	for (p = slash ? slash + 1 : key; !rc && *p; p++)
		rc = owners_buf_addc(out, *p >= 'a' && *p <= 'z' ? (char)(*p - 'a' + 'A') : *p);
	return rc;
}

int owners_graph_node_labels_text(struct owners_buf *out, const struct owners_node *n)
{
	const char *prev = NULL;
	uint32_t i, k;
	int rc = 0;

	if (!n->extras->n_labels)
		return owners_buf_adds(out, "<none>");
	/* A handful of labels: pick the next key in order each time rather
	 * than sort a copy. */
	for (i = 0; !rc && i < n->extras->n_labels; i++) {
		uint32_t best = n->extras->n_labels;

		for (k = 0; k < n->extras->n_labels; k++)
			if ((!prev || strcmp(n->extras->labels[2 * k], prev) > 0) &&
			    (best == n->extras->n_labels || strcmp(n->extras->labels[2 * k], n->extras->labels[2 * best]) < 0))
				best = k;
		if (best == n->extras->n_labels)
			break;
		prev = n->extras->labels[2 * best];
		rc = owners_buf_addf(out, "%s%s=%s", i ? "," : "", prev, n->extras->labels[2 * best + 1]);
	}
	return rc;
}

int owners_graph_node_order(const struct owners_graph *g, uint32_t a, uint32_t b, unsigned how)
{
	const struct owners_node *x = &g->nodes[a], *y = &g->nodes[b];
	const char *first_x = x->place->namespace_, *first_y = y->place->namespace_;
	const char *then_x = x->place->kind, *then_y = y->place->kind;
	int c;

	if (how & OWNERS_NODE_ORDER_KIND_FIRST) {
		first_x = x->place->kind, first_y = y->place->kind;
		then_x = x->place->namespace_, then_y = y->place->namespace_;
	}
	if ((c = strcmp(first_x, first_y)) || (c = strcmp(then_x, then_y)))
		return c;
	if ((how & OWNERS_NODE_ORDER_VERSION) && (c = strcmp(x->place->api_version, y->place->api_version)))
		return c;
	if ((c = strcmp(x->name, y->name)))
		return c;
	/* Ties broken so that no two nodes compare equal: the order never
	 * falls back to the one the lists arrived in. */
	if (!(how & OWNERS_NODE_ORDER_VERSION) && (c = strcmp(x->place->api_version, y->place->api_version)))
		return c;
	return a == b ? 0
		      : owners_uid_cmp(&x->uid_key, x->uid_is_text, &y->uid_key, y->uid_is_text);
}

int owners_graph_node_cmp(const struct owners_graph *g, uint32_t a, uint32_t b)
{
	return owners_graph_node_order(g, a, b, 0);
}

static int by_node_index(const void *a, const void *b, void *ctx)
{
	return owners_graph_node_order(ctx, *(const uint32_t *)a, *(const uint32_t *)b, 0);
}

void owners_graph_sort_nodes(const struct owners_graph *g, uint32_t *nodes, size_t n)
{
	owners_qsort_r(nodes, n, sizeof(*nodes), by_node_index, (void *)g);
}

/* The node of the UID key (is_text as uid.h says), found from its hash h. */
static uint32_t find_hashed(const struct owners_graph *g, const union owners_uid *key, int is_text,
			    uint64_t h)
{
	size_t j = owners_node_table_first(&g->by_uid, h);
	uint32_t n;

	while (owners_node_table_next(&g->by_uid, h, &j, &n))
		if (owners_uid_equal(&g->nodes[n].uid_key, g->nodes[n].uid_is_text, key, is_text))
			return n;
	return OWNERS_NO_NODE;
}

/* A UID told ahead: its text's address and its query. */
struct owners_graph_ahead {
	uintptr_t at;
	struct uid_query q;
};

/* At most this many UIDs kept ahead (a format-2 batch holds a few
 * hundred objects); past it they are asked for and not kept. */
#define AHEAD_MAX 8192

void owners_graph_prefetch_begin(struct owners_graph *g)
{
	g->n_ahead = g->next_ahead = 0;
}

void owners_graph_prefetch_uid(struct owners_graph *g, const char *uid)
{
	struct uid_query q;

	if (!g->by_uid.cap || !uid)
		return;
	uid_query_of(&q, uid);
	owners_node_table_prefetch(&g->by_uid, q.hash);
	if (g->n_ahead < AHEAD_MAX &&
	    (!g->n_ahead || (uintptr_t)uid > g->ahead[g->n_ahead - 1].at) &&
	    !OWNERS_GROW(g->ahead, g->cap_ahead, g->n_ahead + 1))
		g->ahead[g->n_ahead++] = (struct owners_graph_ahead){ (uintptr_t)uid, q };
}

/* The query of text, told ahead or made now: the lookups come in the
 * order the UIDs were told, less those of objects not added, so the
 * search goes forward only. */
static void uid_query_ahead(struct owners_graph *g, struct uid_query *q, const char *text)
{
	uintptr_t at = (uintptr_t)text;

	while (g->next_ahead < g->n_ahead && g->ahead[g->next_ahead].at < at)
		g->next_ahead++;
	if (g->next_ahead < g->n_ahead && g->ahead[g->next_ahead].at == at) {
		*q = g->ahead[g->next_ahead++].q;
		/* (the key's text, when kept as text, is the caller's: the same address) */
		return;
	}
	uid_query_of(q, text);
}

uint32_t owners_graph_find_uid(const struct owners_graph *g, const char *uid)
{
	struct uid_query q;

	if (!g->by_uid.cap || !uid)
		return OWNERS_NO_NODE;
	uid_query_of(&q, uid);
	return find_hashed(g, &q.key, q.is_text, q.hash);
}

static void name_index_drop(struct owners_graph *g)
{
	owners_node_table_clear(&g->by_name);
	g->name_dups = 0;
}

void owners_graph_release_name_index(struct owners_graph *g)
{
	name_index_drop(g);
}

/* ---- places ---------------------------------------------------------- */

static uint64_t place_hash(const char *api_version, const char *kind, const char *ns,
			   const struct owners_resource *r)
{
	/* the strings are interned: their addresses identify them */
	uint64_t h = (uint64_t)(uintptr_t)api_version * 0x9e3779b97f4a7c15ULL;

	h = (h ^ (uint64_t)(uintptr_t)kind) * 0xbf58476d1ce4e5b9ULL;
	h = (h ^ (uint64_t)(uintptr_t)ns) * 0x94d049bb133111ebULL;
	h = (h ^ (uint64_t)(uintptr_t)r) * 0x9e3779b97f4a7c15ULL;
	return h ^ (h >> 29);
}

static int same_place(const struct owners_node_place *p, const char *api_version, const char *kind,
		      const char *ns, const struct owners_resource *r)
{
	return p->api_version == api_version && p->kind == kind && p->namespace_ == ns && p->resource == r;
}

static void places_insert(const struct owners_node_place **slots, size_t cap, const struct owners_node_place *p)
{
	size_t j = place_hash(p->api_version, p->kind, p->namespace_, p->resource) & (cap - 1);

	while (slots[j])
		j = (j + 1) & (cap - 1);
	slots[j] = p;
}

/* The one place of these (interned strings of arena a, in which a new
 * place is made); NULL when out of memory. */
static const struct owners_node_place *place_in(struct owners_node_places *t, struct owners_arena *a,
						const struct owners_node_place **last, const char *api_version,
						const char *kind, const char *ns, const struct owners_resource *r)
{
	struct owners_node_place *p;
	size_t j;

	if (*last && same_place(*last, api_version, kind, ns, r))
		return *last;
	if (t->cap) {
		j = place_hash(api_version, kind, ns, r) & (t->cap - 1);
		for (; t->slots[j]; j = (j + 1) & (t->cap - 1))
			if (same_place(t->slots[j], api_version, kind, ns, r))
				return *last = t->slots[j];
	}
	if ((t->count + 1) * 2 > t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64, i;
		const struct owners_node_place **slots = calloc(cap, sizeof(*slots));

		if (!slots)
			return NULL;
		for (i = 0; i < t->cap; i++)
			if (t->slots[i])
				places_insert(slots, cap, t->slots[i]);
		free(t->slots);
		t->slots = slots;
		t->cap = cap;
	}
	if (!(p = owners_arena_alloc(a, sizeof(*p))))
		return NULL;
	p->api_version = api_version;
	p->kind = kind;
	p->namespace_ = ns;
	p->resource = r;
	places_insert(t->slots, t->cap, p);
	t->count++;
	return *last = p;
}

static const struct owners_node_place *place_of(struct owners_node_places *t, struct owners_arena *a,
						const char *api_version, const char *kind, const char *ns,
						const struct owners_resource *r)
{
	return place_in(t, a, &t->last, api_version, kind, ns, r);
}

/* What a reference names: its apiVersion and kind (interned in a), as a
 * place of no namespace and no resource. */
static const struct owners_node_place *ref_type_of(struct owners_node_places *t, struct owners_arena *a,
						   const char *api_version, const char *kind)
{
	const char *none;

	/* (every reference's place has no namespace and no resource: the
	 * last one found answers most without interning "" again) */
	if (t->last_ref && t->last_ref->api_version == api_version && t->last_ref->kind == kind)
		return t->last_ref;
	none = owners_arena_intern(a, "");
	return none ? place_in(t, a, &t->last_ref, api_version, kind, none, NULL) : NULL;
}

/* Appends a zeroed node and indexes its UID key (whose hash is h: text
 * it points at is the arena's already); returns its index. */
static uint32_t node_append(struct owners_graph *g, const union owners_uid *key, int is_text,
			    uint64_t h)
{
	struct owners_node *n;

	if (g->count == UINT32_MAX - 1)
		return OWNERS_NO_NODE;
	/* Three slots in four filled at most: at ten million objects a
	 * table of half load would take 13 bytes an object, and probes stay
	 * short (sixteen slots to a cache line). */
	if (owners_node_table_full(&g->by_uid, g->count) && uid_index_grow(g))
		return OWNERS_NO_NODE;
	if (OWNERS_GROW(g->nodes, g->cap, (size_t)g->count + 1))
		return OWNERS_NO_NODE;
	n = &g->nodes[g->count];
	memset(n, 0, sizeof(*n));
	n->place = &owners_graph_no_place;
	n->extras = &owners_graph_no_extras;
	n->uid_key = *key;
	n->uid_is_text = is_text ? 1 : 0;
	owners_node_table_insert(&g->by_uid, h, g->count);
	/* A new node invalidates the name index; rebuilt when next needed. */
	name_index_drop(g);
	return g->count++;
}

int owners_graph_node_list_push(uint32_t **v, size_t *n, size_t *cap, uint32_t node)
{
	if (OWNERS_GROW(*v, *cap, *n + 1))
		return OWNERS_ENOMEM;
	(*v)[(*n)++] = node;
	return 0;
}

/* ---- adding objects -------------------------------------------------- */

/* Unix seconds in the 32 bits a node keeps (to 2106); 0 when unknown,
 * before 1970 or after. */
static uint32_t parse_time(const char *s)
{
	int64_t t = 0;

	if (!s || !*s || owners_time_parse_rfc3339(&t, s) || t <= 0 || t > (int64_t)UINT32_MAX)
		return 0;
	return (uint32_t)t;
}

/* The arena's copy of s, interned; slot: which field asks (see memo in
 * graph.h). */
static const char *intern_memo(struct owners_graph *g, unsigned slot, const char *s)
{
	const char *m = g->memo[slot];

	if (m && !strcmp(m, s))
		return m;
	if ((m = owners_arena_intern(&g->arena, s)))
		g->memo[slot] = m;
	return m;
}

enum { MEMO_API_VERSION, MEMO_KIND, MEMO_NAMESPACE, MEMO_REF_API_VERSION, MEMO_REF_KIND };

static uint32_t virtual_owner(struct owners_graph *g, uint32_t dependent,
			      const struct owners_ref *ref, const struct uid_query *q);

/* Writes what m says into node idx (its old strings stay in the arena). */
static int fill_node(struct owners_graph *g, uint32_t idx, const struct owners_resource *r,
		     const struct owners_object_meta *m)
{
	struct owners_arena *a = &g->arena;
	struct owners_node *n = &g->nodes[idx];
	size_t i;

	const char *api_version, *kind, *ns;
	struct owners_node_extras *x;
	uint32_t deleted;

	if (n->virtual_)
		name_index_drop(g); /* the index holds observed objects only */
	n->virtual_ = 0;
	n->from_reference = 0;
	n->extras = &owners_graph_no_extras;
	n->refs = NULL;
	api_version = intern_memo(g, MEMO_API_VERSION, r->api_version);
	kind = intern_memo(g, MEMO_KIND, r->kind);
	ns = intern_memo(g, MEMO_NAMESPACE, m->namespace_ ? m->namespace_ : "");
	if (!api_version || !kind || !ns || !(n->place = place_of(&g->places, a, api_version, kind, ns, r)))
		return OWNERS_ENOMEM;
	n->name = owners_arena_strdup(a, m->name ? m->name : "");
	if (!n->name || owners_graph_node_set_rv(n, a, m->resource_version))
		return OWNERS_ENOMEM;
	n->created = parse_time(m->creation_timestamp);
	deleted = parse_time(m->deletion_timestamp);
	if (m->deletion_timestamp && *m->deletion_timestamp && !deleted)
		deleted = 1; /* in deletion even if the time is unreadable */
	if (m->n_finalizers || m->n_labels || deleted) {
		if (!(x = owners_arena_alloc(a, sizeof(*x))))
			return OWNERS_ENOMEM;
		n->extras = x;
		x->deleted = deleted;
		x->n_finalizers = (uint32_t)m->n_finalizers;
		if (m->n_finalizers &&
		    !(x->finalizers = owners_arena_alloc(a, m->n_finalizers * sizeof(*x->finalizers))))
			return OWNERS_ENOMEM;
		for (i = 0; i < m->n_finalizers; i++)
			if (!(x->finalizers[i] = owners_arena_intern(a, m->finalizers[i])))
				return OWNERS_ENOMEM;
		x->n_labels = (uint32_t)m->n_labels;
		if (m->n_labels && !(x->labels = owners_arena_alloc(a, 2 * m->n_labels * sizeof(*x->labels))))
			return OWNERS_ENOMEM;
		for (i = 0; i < m->n_labels; i++)
			if (!(x->labels[2 * i] = owners_arena_intern(a, m->labels[i].key)) ||
			    !(x->labels[2 * i + 1] = owners_arena_strdup(a, m->labels[i].value)))
				return OWNERS_ENOMEM;
	}
	/* more references than a node can count: beyond what the apiserver
	 * would take, and read as none rather than cut short */
	if (m->n_owner_refs >= (1u << 30))
		return OWNERS_EPROTO;
	n->n_refs = (unsigned)m->n_owner_refs;
	if (m->n_owner_refs) {
		/* (n itself moves when a node is added below) */
		struct owners_ref *refs = owners_arena_alloc(a, m->n_owner_refs * sizeof(*refs));

		if (!refs)
			return OWNERS_ENOMEM;
		n->refs = refs;
		for (i = 0; i < m->n_owner_refs; i++) {
			const struct owners_owner_ref_meta *in = &m->owner_refs[i];
			struct owners_ref *ref = &refs[i];
			struct uid_query q;
			uint32_t o;

			uid_query_ahead(g, &q, in->uid ? in->uid : "");
			o = find_hashed(g, &q.key, q.is_text, q.hash);

			api_version = intern_memo(g, MEMO_REF_API_VERSION, in->api_version ? in->api_version : "");
			kind = intern_memo(g, MEMO_REF_KIND, in->kind ? in->kind : "");
			ref->type = api_version && kind ? ref_type_of(&g->places, a, api_version, kind) : NULL;
			/* The owner is often listed already (owners' lists are short
			 * and finish first): share its strings rather than copy them. */
			if (o != OWNERS_NO_NODE)
				ref->name = in->name && !strcmp(in->name, g->nodes[o].name) ? g->nodes[o].name
							   : owners_arena_strdup(a, in->name ? in->name : "");
			else
				ref->name = owners_arena_strdup(a, in->name ? in->name : "");
			if (!ref->type || !ref->name)
				return OWNERS_ENOMEM;
			/* An owner not read (yet): a node for its UID now, which
			 * the reference names by index (the UID's one copy is the
			 * node's); reading the owner makes it real. */
			if (o == OWNERS_NO_NODE &&
			    (o = virtual_owner(g, idx, ref, &q)) == OWNERS_NO_NODE)
				return OWNERS_ENOMEM;
			ref->owner = o;
			ref->controller = in->controller ? 1 : 0;
			ref->block_owner_deletion = in->block_owner_deletion ? 1 : 0;
			ref->controller_set = in->controller ||
					      (m->owner_ref_fields && (m->owner_ref_fields[i] & OWNERS_REF_HAS_CONTROLLER));
			ref->block_owner_deletion_set =
				in->block_owner_deletion ||
				(m->owner_ref_fields && (m->owner_ref_fields[i] & OWNERS_REF_HAS_BLOCK_OWNER_DELETION));
		}
	}
	g->linked = 0;
	g->edits++;
	return 0;
}

/* The node of m's UID (a new one when there is none); OWNERS_NO_NODE
 * when out of memory. *existed: whether it was there. The UID is hashed
 * once (an object is added once, and there are a hundred thousand). */
static uint32_t node_for(struct owners_graph *g, const struct owners_object_meta *m, int *existed)
{
	struct uid_query q;
	uint32_t idx;

	uid_query_ahead(g, &q, m->uid);
	idx = find_hashed(g, &q.key, q.is_text, q.hash);
	*existed = idx != OWNERS_NO_NODE;
	if (*existed)
		return idx;
	if (q.is_text && !(q.key.text = owners_arena_strdup(&g->arena, m->uid)))
		return OWNERS_NO_NODE;
	return node_append(g, &q.key, q.is_text, q.hash);
}

/* One object served twice (by two groups, as extensions and apps once
 * served Deployments): the graph keeps it as the type that sorts first by
 * group, version and resource (the core group first) says it, whichever
 * list came first. */
static int serves_first(const struct owners_resource *a, const struct owners_resource *b)
{
	int c;

	if (!b)
		return 1;
	if (!a || a == b)
		return 0;
	if ((c = strcmp(a->group, b->group)) || (c = strcmp(a->version, b->version)))
		return c < 0;
	return strcmp(a->resource, b->resource) < 0;
}

int owners_graph_add(struct owners_graph *g, const struct owners_resource *r,
		     const struct owners_object_meta *m)
{
	uint32_t idx;
	int existed;

	if (!m->uid || !*m->uid)
		return 0; /* nothing can own or be owned without a UID */
	if ((idx = node_for(g, m, &existed)) == OWNERS_NO_NODE)
		return OWNERS_ENOMEM;
	if (existed && !g->nodes[idx].virtual_ && !serves_first(r, g->nodes[idx].place->resource))
		return 0;
	return fill_node(g, idx, r, m);
}

int owners_graph_update(struct owners_graph *g, const struct owners_resource *r,
			const struct owners_object_meta *m)
{
	uint32_t idx;

	int existed;

	if (!m->uid || !*m->uid)
		return 0;
	if ((idx = node_for(g, m, &existed)) == OWNERS_NO_NODE)
		return OWNERS_ENOMEM;
	return fill_node(g, idx, r, m);
}

int owners_graph_forget(struct owners_graph *g, const char *uid)
{
	uint32_t idx = owners_graph_find_uid(g, uid);
	struct owners_node *n;

	if (idx == OWNERS_NO_NODE || g->nodes[idx].virtual_)
		return 0;
	n = &g->nodes[idx];
	/* What still refers to it keeps its identity; nothing else of it is
	 * true any more. */
	n->virtual_ = 1;
	owners_graph_node_set_rv(n, NULL, "");
	n->created = 0;
	n->extras = &owners_graph_no_extras;
	n->refs = NULL;
	n->n_refs = 0;
	name_index_drop(g);
	g->linked = 0;
	g->edits++;
	return 1;
}

/* ---- compaction ---------------------------------------------------- */

/* Node n's strings, copied into a (its place into places, made there);
 * *n keeps its index and everything else. */
static int copy_node(struct owners_arena *a, struct owners_node_places *places, struct owners_node *n)
{
	const struct owners_node_place *p = n->place;
	const struct owners_node_extras *old = n->extras;
	struct owners_node_extras *x;
	const char *api_version, *kind, *ns;
	struct owners_ref *refs;
	uint32_t i;

	if (!(api_version = owners_arena_intern(a, p->api_version)) ||
	    !(kind = owners_arena_intern(a, p->kind)) ||
	    !(ns = owners_arena_intern(a, p->namespace_)) ||
	    !(n->place = place_of(places, a, api_version, kind, ns, p->resource)) ||
	    (n->uid_is_text && !(n->uid_key.text = owners_arena_strdup(a, n->uid_key.text))) ||
	    !(n->name = owners_arena_strdup(a, n->name)) ||
	    (!n->rv_is_number && n->rv.text && !(n->rv.text = owners_arena_strdup(a, n->rv.text))))
		return OWNERS_ENOMEM;
	if (old != &owners_graph_no_extras) {
		if (!(x = owners_arena_alloc(a, sizeof(*x))))
			return OWNERS_ENOMEM;
		*x = *old;
		n->extras = x;
		if (old->n_finalizers &&
		    !(x->finalizers = owners_arena_alloc(a, old->n_finalizers * sizeof(*x->finalizers))))
			return OWNERS_ENOMEM;
		for (i = 0; i < old->n_finalizers; i++)
			if (!(x->finalizers[i] = owners_arena_intern(a, old->finalizers[i])))
				return OWNERS_ENOMEM;
		if (old->n_labels && !(x->labels = owners_arena_alloc(a, 2 * old->n_labels * sizeof(*x->labels))))
			return OWNERS_ENOMEM;
		for (i = 0; i < old->n_labels; i++)
			if (!(x->labels[2 * i] = owners_arena_intern(a, old->labels[2 * i])) ||
			    !(x->labels[2 * i + 1] = owners_arena_strdup(a, old->labels[2 * i + 1])))
				return OWNERS_ENOMEM;
	}
	if (n->n_refs) {
		if (!(refs = owners_arena_alloc(a, n->n_refs * sizeof(*refs))))
			return OWNERS_ENOMEM;
		for (i = 0; i < n->n_refs; i++) {
			refs[i] = n->refs[i];
			if (!(api_version = owners_arena_intern(a, n->refs[i].type->api_version)) ||
			    !(kind = owners_arena_intern(a, n->refs[i].type->kind)) ||
			    !(refs[i].type = ref_type_of(places, a, api_version, kind)) ||
			    !(refs[i].name = owners_arena_strdup(a, n->refs[i].name)))
				return OWNERS_ENOMEM;
		}
		n->refs = refs;
	}
	return 0;
}

int owners_graph_compact(struct owners_graph *g)
{
	struct owners_arena fresh;
	struct owners_node_places places = { NULL, 0, 0, NULL, NULL };
	struct owners_node *nodes = malloc((g->count ? g->count : 1) * sizeof(*nodes));
	const char **listing_ns = calloc(g->n_listings + 1, sizeof(*listing_ns));
	size_t i;
	int rc = nodes && listing_ns ? 0 : OWNERS_ENOMEM;

	owners_arena_init(&fresh);
	/* Copies first: when memory runs out half way the graph is as it was. */
	for (i = 0; !rc && i < g->count; i++) {
		nodes[i] = g->nodes[i];
		rc = copy_node(&fresh, &places, &nodes[i]);
	}
	for (i = 0; !rc && i < g->n_listings; i++)
		if (g->listings[i].namespace_ &&
		    !(listing_ns[i] = owners_arena_intern(&fresh, g->listings[i].namespace_)))
			rc = OWNERS_ENOMEM;
	if (rc) {
		owners_arena_clear(&fresh);
		free(places.slots);
		free(nodes);
		free(listing_ns);
		return OWNERS_ENOMEM;
	}
	memcpy(g->nodes, nodes, g->count * sizeof(*nodes));
	for (i = 0; i < g->n_listings; i++)
		g->listings[i].namespace_ = listing_ns[i];
	owners_arena_clear(&g->arena);
	g->arena = fresh;
	free(g->places.slots);
	g->places = places;
	memset(g->memo, 0, sizeof(g->memo));
	g->edits = 0;
	free(nodes);
	free(listing_ns);
	return 0;
}

int owners_graph_note_listing(struct owners_graph *g, const struct owners_resource *r,
			      const char *ns, int rc, const char *message)
{
	struct owners_listing *l;

	if (OWNERS_GROW(g->listings, g->cap_listings, g->n_listings + 1))
		return OWNERS_ENOMEM;
	l = &g->listings[g->n_listings];
	l->resource = r;
	l->namespace_ = ns ? owners_arena_intern(&g->arena, ns) : NULL;
	l->rc = rc;
	l->message = message ? owners_strdup(message) : NULL;
	if ((ns && !l->namespace_) || (message && !l->message)) {
		free(l->message);
		return OWNERS_ENOMEM;
	}
	g->n_listings++;
	return 0;
}

static int failed_names_first(const struct owners_listing *a, const struct owners_listing *b)
{
	if (!a->namespace_ != !b->namespace_)
		return a->namespace_ != NULL;
	return strcmp(a->message ? a->message : "", b->message ? b->message : "") < 0;
}

enum owners_listing_state owners_graph_listing_state(const struct owners_graph *g,
						     const struct owners_resource *r,
						     const char *ns,
						     const struct owners_listing **which)
{
	enum owners_listing_state state = OWNERS_LISTING_NOT_LISTED;
	size_t i;

	if (which)
		*which = NULL;
	for (i = 0; i < g->n_listings; i++) {
		const struct owners_listing *l = &g->listings[i];

		if (l->resource != r)
			continue;
		if (l->namespace_ && (!ns || strcmp(l->namespace_, ns)))
			continue;
		if (!l->rc) {
			if (which)
				*which = l;
			return OWNERS_LISTING_OK;
		}
		/* Of several failed lists that cover it, the one named is the
		 * narrowest (one namespace before all), then the first by its
		 * message: not the last to be noted, which varies. */
		if (which && (state != OWNERS_LISTING_FAILED || failed_names_first(l, *which)))
			*which = l;
		state = OWNERS_LISTING_FAILED;
	}
	return state;
}

/* ---- linking --------------------------------------------------------- */

/* Whether dependent d's reference k points at an owner an earlier
 * reference of d points at too (two references make one edge). */
static int repeated_owner(const struct owners_node *d, uint32_t k)
{
	uint32_t i;

	for (i = 0; i < k; i++)
		if (d->refs[i].owner == d->refs[k].owner)
			return 1;
	return 0;
}

/* Virtual node n says what dependent's reference ref says of it. */
static int take_reference(struct owners_graph *g, struct owners_node *n, uint32_t dependent,
			  const struct owners_ref *ref)
{
	const struct owners_resource *r = NULL;
	const char *ns;

	if (owners_resource_map_ref(g->types, ref->type->api_version, ref->type->kind, &r) != OWNERS_REF_MAPPED)
		r = NULL;
	/* A namespaced owner can only be in its dependent's namespace. */
	ns = r && r->namespaced ? g->nodes[dependent].place->namespace_ : owners_arena_intern(&g->arena, "");
	if (!ns || !(n->place = place_of(&g->places, &g->arena, ref->type->api_version, ref->type->kind, ns, r)))
		return OWNERS_ENOMEM;
	n->name = ref->name;
	owners_graph_node_set_rv(n, NULL, "");
	return 0;
}

/* A node for an owner nobody has seen, of the UID q (borrowed text, copied
 * here): what the reference says is all we know. */
static uint32_t virtual_owner(struct owners_graph *g, uint32_t dependent,
			      const struct owners_ref *ref, const struct uid_query *q)
{
	union owners_uid key = q->key;
	uint32_t idx;

	if (q->is_text && !(key.text = owners_arena_strdup(&g->arena, q->key.text)))
		return OWNERS_NO_NODE;
	idx = node_append(g, &key, q->is_text, q->hash);
	if (idx == OWNERS_NO_NODE)
		return OWNERS_NO_NODE;
	g->nodes[idx].virtual_ = 1;
	g->nodes[idx].from_reference = 1;
	if (take_reference(g, &g->nodes[idx], dependent, ref))
		return OWNERS_NO_NODE;
	return idx;
}

/* Whether dependent a speaks for an unseen owner before dependent b
 * (owners_graph_link()'s rule). */
static int speaks_first(const struct owners_graph *g, uint32_t a, uint32_t b)
{
	int a_ns = *g->nodes[a].place->namespace_ != 0, b_ns = *g->nodes[b].place->namespace_ != 0;

	if (a_ns != b_ns)
		return a_ns;
	return owners_graph_node_order(g, a, b, OWNERS_NODE_ORDER_KIND_FIRST) < 0;
}

/* Each unseen owner's identity from the dependent the rule picks, once
 * its dependents are known. */
static int settle_virtual_owners(struct owners_graph *g)
{
	uint32_t i, k, j;

	for (i = 0; i < g->count; i++) {
		struct owners_node *n = &g->nodes[i];
		uint32_t best;

		if (!n->virtual_ || !n->from_reference || !n->n_dependents)
			continue;
		best = g->edges[n->first_dependent];
		for (k = 1; k < n->n_dependents; k++)
			if (speaks_first(g, g->edges[n->first_dependent + k], best))
				best = g->edges[n->first_dependent + k];
		for (j = 0; j < g->nodes[best].n_refs; j++)
			if (g->nodes[best].refs[j].owner == i)
				break;
		if (j < g->nodes[best].n_refs && take_reference(g, n, best, &g->nodes[best].refs[j]))
			return OWNERS_ENOMEM;
	}
	return 0;
}

/* Every owner's dependents in the node order, not the order added. Most
 * have one or none. */
static void sort_dependents(struct owners_graph *g)
{
	uint32_t i, k, j;

	for (i = 0; i < g->count; i++) {
		uint32_t *d = g->edges + g->nodes[i].first_dependent, n = g->nodes[i].n_dependents;

		if (n > 16) {
			owners_graph_sort_nodes(g, d, n);
			continue;
		}
		for (k = 1; k < n; k++) {
			uint32_t x = d[k];

			for (j = k; j > 0 && owners_graph_node_order(g, d[j - 1], x, 0) > 0; j--)
				d[j] = d[j - 1];
			d[j] = x;
		}
	}
}

int owners_graph_link(struct owners_graph *g)
{
	uint32_t i, j, count = g->count;
	size_t total = 0;
	uint32_t *edges;

	/* Count each owner's dependents (every reference names its owner's
	 * node since it was added); then lay the dependents out in one
	 * array, each owner's in dependent order. */
	for (i = 0; i < g->count; i++)
		g->nodes[i].n_dependents = 0;
	for (i = 0; i < count; i++) {
		for (j = 0; j < g->nodes[i].n_refs; j++) {
			uint32_t owner = g->nodes[i].refs[j].owner;

			if (!repeated_owner(&g->nodes[i], j)) {
				g->nodes[owner].n_dependents++;
				total++;
			}
		}
	}
	if (total > UINT32_MAX)
		return OWNERS_ENOMEM; /* more edges than 32-bit offsets reach */
	edges = malloc((total ? total : 1) * sizeof(*edges));
	if (!edges)
		return OWNERS_ENOMEM;
	free(g->edges);
	g->edges = edges;
	for (i = 0, total = 0; i < g->count; i++) {
		g->nodes[i].first_dependent = (uint32_t)total;
		total += g->nodes[i].n_dependents;
		g->nodes[i].n_dependents = 0;
	}
	for (i = 0; i < count; i++) {
		const struct owners_node *d = &g->nodes[i];

		for (j = 0; j < d->n_refs; j++) {
			struct owners_node *o = &g->nodes[d->refs[j].owner];

			if (!repeated_owner(d, j))
				edges[o->first_dependent + o->n_dependents++] = i;
		}
	}
	/* who speaks for an unseen owner first, then the order, which
	 * depends on what it says */
	if (settle_virtual_owners(g))
		return OWNERS_ENOMEM;
	sort_dependents(g);
	g->linked = 1;
	return 0;
}

/* ---- name index ------------------------------------------------------ */

static uint64_t name_hash(const struct owners_resource *r, const char *ns, const char *name)
{
	uint64_t h = owners_arena_hash(name, strlen(name));

	/* namespaces and resources are interned/borrowed: their addresses identify them */
	h ^= (uint64_t)(uintptr_t)r * 0x9e3779b97f4a7c15ULL;
	h ^= owners_arena_hash(ns, strlen(ns)) * 31;
	return h;
}

/* Whether n is the object (r, ns, name). */
static int same_name(const struct owners_node *n, const struct owners_resource *r, const char *ns,
		     const char *name)
{
	return n->place->resource == r && !strcmp(n->place->namespace_, ns) &&
	       !strcmp(n->name, name);
}

static int name_index_build(struct owners_graph *g)
{
	uint64_t h[OWNERS_NODE_TABLE_BATCH];
	uint32_t i, k, batch;

	if (owners_node_table_reset(&g->by_name, owners_node_table_cap_for(g->count))) {
		name_index_drop(g);
		return OWNERS_ENOMEM;
	}
	g->name_dups = 0;
	/* a batch's slots asked for (see uid_index_grow()), then filled */
	for (i = 0; i < g->count; i += batch) {
		batch = g->count - i < OWNERS_NODE_TABLE_BATCH ? g->count - i
							       : OWNERS_NODE_TABLE_BATCH;
		for (k = 0; k < batch; k++) {
			const struct owners_node *n = &g->nodes[i + k];

			h[k] = name_hash(n->place->resource, n->place->namespace_, n->name);
			owners_node_table_prefetch(&g->by_name, h[k]);
		}
		for (k = 0; k < batch; k++) {
			const struct owners_node *n = &g->nodes[i + k];
			size_t j = owners_node_table_first(&g->by_name, h[k]);
			uint32_t other;

			if (n->virtual_)
				continue;
			/* the search that finds the empty slot meets any other of
			 * its name (tags agree but once in hundreds otherwise) */
			while (owners_node_table_next(&g->by_name, h[k], &j, &other))
				if (same_name(&g->nodes[other], n->place->resource,
					      n->place->namespace_, n->name))
					g->name_dups = 1;
			owners_node_table_put_at(&g->by_name, j, h[k], i + k);
		}
	}
	return 0;
}

int owners_graph_find_name(struct owners_graph *g, const struct owners_resource *r, const char *ns,
			   const char *name, uint32_t *found)
{
	uint64_t h = name_hash(r, ns, name);
	size_t j;
	uint32_t i;

	*found = OWNERS_NO_NODE;
	if (!g->by_name.cap && name_index_build(g))
		return OWNERS_ENOMEM;
	j = owners_node_table_first(&g->by_name, h);
	while (owners_node_table_next(&g->by_name, h, &j, &i)) {
		const struct owners_node *n = &g->nodes[i];

		/* two objects of one name (a dump, or a watch, that caught an
		 * object and its successor): the one of the smaller UID, by
		 * rule, not the one listed first */
		if (same_name(n, r, ns, name) &&
		    (*found == OWNERS_NO_NODE ||
		     owners_uid_cmp(&n->uid_key, n->uid_is_text, &g->nodes[*found].uid_key,
				    g->nodes[*found].uid_is_text) < 0))
			*found = i;
	}
	return 0;
}

/* ---- classification -------------------------------------------------- */

const char *owners_ref_class_name(enum owners_ref_class c)
{
	switch (c) {
	case OWNERS_REF_RESOLVED: return "resolved";
	case OWNERS_REF_ABSENT: return "absent";
	case OWNERS_REF_UID_MISMATCH: return "uid-mismatch";
	case OWNERS_REF_INVALID_NAMESPACE: return "invalid-namespace";
	case OWNERS_REF_UNRESOLVABLE: return "unresolvable";
	case OWNERS_REF_UNKNOWN: return "unknown";
	}
	return "unknown";
}

/* Whether an object with this UID exists in the graph as the given type
 * in another namespace than ns, where the owner must be. The same UID in
 * the same namespace under another name is simply not the owner the
 * reference names: absent. */
static int exists_elsewhere(const struct owners_graph *g, const struct owners_resource *r,
			    const char *ns, const struct owners_ref *ref)
{
	uint32_t n = ref->owner; /* the node of its UID, if the graph has one */

	return n != OWNERS_NO_NODE && !g->nodes[n].virtual_ && g->nodes[n].place->resource == r &&
	       strcmp(g->nodes[n].place->namespace_, ns);
}

const struct owners_resource *owners_graph_lookup_type(const struct owners_resource_table *t,
						       const struct owners_resource *r)
{
	const struct owners_resource *tracked = owners_resource_tracked(t, r);
	size_t i;

	/* One object is served in every version of its resource, and the GC
	 * finds an owner through any served version, so a reference to
	 * "autoscaling/v1" resolves to the object listed as "autoscaling/v2". */
	if (tracked)
		return tracked;
	if (r->preferred)
		return r;
	for (i = 0; i < t->count; i++) {
		const struct owners_resource *o = &t->items[i];

		if (o->preferred && owners_resource_same_type(o, r))
			return o;
	}
	return r;
}

/* A list that failed because this user was refused: the GC, with its own
 * rights, still sees the type. */
static int refused(int rc)
{
	return rc == OWNERS_EFORBIDDEN || rc == OWNERS_EAUTH;
}

int owners_graph_resolve_ref(struct owners_graph *g, uint32_t dependent, const struct owners_ref *ref,
			     struct owners_ref_resolution *out)
{
	const struct owners_node *dep = &g->nodes[dependent];
	const struct owners_resource *r = NULL;
	const struct owners_listing *l = NULL;
	enum owners_ref_mapping m;
	const char *ns;

	memset(out, 0, sizeof(*out));
	out->found = OWNERS_NO_NODE;
	m = owners_resource_map_ref(g->types, ref->type->api_version, ref->type->kind, &r);
	if (m == OWNERS_REF_UNMAPPED) {
		/* The GC's REST mapping fails and it retries forever. */
		out->class_ = OWNERS_REF_UNRESOLVABLE;
		return 0;
	}
	if (m == OWNERS_REF_MAPPING_BLIND) {
		out->class_ = OWNERS_REF_UNKNOWN;
		out->gc_blind = 1;
		return 0;
	}
	out->resource = owners_graph_lookup_type(g->types, r);
	if (r->namespaced && !*dep->place->namespace_) {
		/* namespacedOwnerOfClusterScopedObjectErr, before any lookup */
		out->class_ = OWNERS_REF_INVALID_NAMESPACE;
		return 0;
	}
	if (m == OWNERS_REF_MAPPED_MISSING) {
		/* The mapper's guessed resource does not exist: a 404. */
		out->class_ = OWNERS_REF_ABSENT;
		return 0;
	}
	r = out->resource;
	ns = r->namespaced ? dep->place->namespace_ : "";
	/* Out of memory: "cannot tell", never "absent" (a destructive command
	 * would take the owner for gone). */
	if (!g->by_name.cap && name_index_build(g)) {
		out->class_ = OWNERS_REF_UNKNOWN;
		out->gc_blind = 1;
		return OWNERS_ENOMEM;
	}
	/* The node of the reference's UID is of its name: with one object a
	 * name, it is the one the index would find (no lookup: at millions
	 * of objects each is a cache miss). */
	if (!g->name_dups && ref->owner != OWNERS_NO_NODE && !g->nodes[ref->owner].virtual_ &&
	    same_name(&g->nodes[ref->owner], r, ns, ref->name)) {
		out->found = ref->owner;
		out->class_ = OWNERS_REF_RESOLVED;
		return 0;
	}
	if (owners_graph_find_name(g, r, ns, ref->name, &out->found)) {
		out->class_ = OWNERS_REF_UNKNOWN;
		out->gc_blind = 1;
		return OWNERS_ENOMEM;
	}
	if (out->found != OWNERS_NO_NODE) {
		/* one node a UID: the same node, the same UID */
		out->class_ =
			out->found != ref->owner ? OWNERS_REF_UID_MISMATCH : OWNERS_REF_RESOLVED;
		return 0;
	}
	switch (owners_graph_listing_state(g, r, ns, &l)) {
	case OWNERS_LISTING_OK:
		out->class_ = exists_elsewhere(g, r, ns, ref) ? OWNERS_REF_INVALID_NAMESPACE
							      : OWNERS_REF_ABSENT;
		break;
	case OWNERS_LISTING_FAILED:
		out->class_ = OWNERS_REF_UNKNOWN;
		out->gc_blind = !l || !refused(l->rc);
		break;
	case OWNERS_LISTING_NOT_LISTED:
		out->class_ = OWNERS_REF_UNKNOWN;
		break;
	}
	return 0;
}

enum owners_ref_class owners_graph_classify_ref(struct owners_graph *g, uint32_t dependent,
						const struct owners_ref *ref)
{
	struct owners_ref_resolution res;

	owners_graph_resolve_ref(g, dependent, ref, &res);
	return res.class_;
}

/* ---- cycles (Tarjan, iterative: graphs can be deep) ------------------- */

size_t owners_graph_find_cycles(const struct owners_graph *g, unsigned char *on_cycle)
{
	uint32_t n = g->count, next_index = 0, sp = 0, cp = 0, i;
	uint32_t *index = NULL, *low = NULL, *stack = NULL, *call = NULL, *edge = NULL;
	unsigned char *on_stack = NULL;
	size_t cycles = 0;

	memset(on_cycle, 0, n);
	index = malloc((size_t)n * sizeof(*index));
	low = malloc((size_t)n * sizeof(*low));
	stack = malloc((size_t)n * sizeof(*stack));
	call = malloc((size_t)n * sizeof(*call));
	edge = malloc((size_t)n * sizeof(*edge));
	on_stack = calloc(n ? n : 1, 1);
	if (!index || !low || !stack || !call || !edge || !on_stack) {
		cycles = OWNERS_CYCLES_ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++)
		index[i] = UINT32_MAX;
	for (i = 0; i < n; i++) {
		if (index[i] != UINT32_MAX)
			continue;
		call[cp] = i;
		edge[cp++] = 0;
		index[i] = low[i] = next_index++;
		stack[sp++] = i;
		on_stack[i] = 1;
		while (cp) {
			uint32_t v = call[cp - 1];
			const struct owners_node *nv = &g->nodes[v];

			if (edge[cp - 1] < nv->n_refs) {
				uint32_t w = nv->refs[edge[cp - 1]++].owner;

				if (w == OWNERS_NO_NODE)
					continue;
				if (index[w] == UINT32_MAX) {
					index[w] = low[w] = next_index++;
					stack[sp++] = w;
					on_stack[w] = 1;
					call[cp] = w;
					edge[cp++] = 0;
				} else if (on_stack[w] && index[w] < low[v]) {
					low[v] = index[w];
				}
				continue;
			}
			if (low[v] == index[v]) {
				uint32_t size = 0, top = sp, w, k;
				int self = 0;

				do {
					w = stack[--top];
					size++;
				} while (w != v);
				for (k = 0; k < nv->n_refs; k++)
					if (nv->refs[k].owner == v)
						self = 1;
				if (size > 1 || self) {
					cycles++;
					for (k = top; k < sp; k++)
						on_cycle[stack[k]] = 1;
				}
				for (k = top; k < sp; k++)
					on_stack[stack[k]] = 0;
				sp = top;
			}
			cp--;
			if (cp) {
				uint32_t parent = call[cp - 1];

				if (low[v] < low[parent])
					low[parent] = low[v];
			}
		}
	}
out:
	free(index);
	free(low);
	free(stack);
	free(call);
	free(edge);
	free(on_stack);
	return cycles;
}

int owners_graph_types_can_hold_answer(const struct owners_graph *g, const struct owners_resource *const *types,
				       size_t n, int namespaced_only, unsigned char *out)
{
	size_t k, left = 0;
	uint32_t i;

	for (k = 0; k < n; k++) {
		out[k] = !namespaced_only || types[k]->namespaced;
		left += !out[k];
	}
	/* One pass over the graph, whatever the number of types: a watch asks
	 * after every change of a big graph. */
	for (i = 0; left && i < g->count; i++) {
		const struct owners_resource *t = g->nodes[i].place->resource;

		if (!g->nodes[i].virtual_ || !t)
			continue;
		for (k = 0; k < n; k++)
			if (!out[k] && owners_resource_same_type(t, types[k])) {
				out[k] = 1;
				left--;
			}
	}
	return 0;
}

int owners_graph_type_can_hold_answer(const struct owners_graph *g, const struct owners_resource *r,
				      int namespaced_only)
{
	unsigned char can;

	owners_graph_types_can_hold_answer(g, &r, 1, namespaced_only, &can);
	return can;
}

int owners_graph_in_scope(const struct owners_graph *g, uint32_t node, const char *ns)
{
	const struct owners_node *n = &g->nodes[node];
	uint32_t k;

	if (!ns || !strcmp(n->place->namespace_, ns))
		return 1;
	if (*n->place->namespace_)
		return 0;
	for (k = 0; k < n->n_dependents; k++)
		if (!strcmp(g->nodes[owners_graph_dependents(g, n)[k]].place->namespace_, ns))
			return 1;
	for (k = 0; k < n->n_refs; k++)
		if (n->refs[k].owner != OWNERS_NO_NODE && !strcmp(g->nodes[n->refs[k].owner].place->namespace_, ns))
			return 1;
	return 0;
}

int owners_graph_summarize(struct owners_graph *g, const char *ns, struct owners_graph_summary *out)
{
	unsigned char *on_cycle;
	uint32_t i, j;

	memset(out, 0, sizeof(*out));
	if (!g->linked && owners_graph_link(g))
		return OWNERS_ENOMEM;
	for (i = 0; i < g->count; i++) {
		const struct owners_node *n = &g->nodes[i];

		if (!owners_graph_in_scope(g, i, ns))
			continue;
		if (n->virtual_) {
			out->virtual_owners++;
			continue;
		}
		out->objects++;
		out->edges += n->n_refs;
		if (!n->n_refs)
			out->roots++;
		if (n->extras->deleted && n->extras->n_finalizers)
			out->in_deletion++;
		for (j = 0; j < n->n_refs; j++) {
			enum owners_ref_class c = owners_graph_classify_ref(g, i, &n->refs[j]);

			if (c == OWNERS_REF_UNKNOWN)
				out->unknown++;
			else if (c != OWNERS_REF_RESOLVED)
				out->dangling++;
		}
	}
	owners_graph_release_name_index(g); /* before the walk's arrays */
	on_cycle = malloc(g->count ? g->count : 1);
	if (!on_cycle)
		return OWNERS_ENOMEM;
	out->cycles = owners_graph_find_cycles(g, on_cycle);
	if (out->cycles == OWNERS_CYCLES_ENOMEM) {
		free(on_cycle);
		return OWNERS_ENOMEM;
	}
	if (ns) {
		/* Count only cycles with a member in view: recount by component
		 * would need the SCC ids; a cycle never spans namespaces except
		 * through cluster-scoped nodes, so members in view suffice. */
		size_t in_view = 0;

		for (i = 0; i < g->count; i++)
			in_view += on_cycle[i] && owners_graph_in_scope(g, i, ns);
		if (!in_view)
			out->cycles = 0;
	}
	free(on_cycle);
	return 0;
}

int owners_graph_node_name(struct owners_buf *out, const struct owners_node *n)
{
	const char *slash = strchr(n->place->api_version, '/');
	char group[256];

	snprintf(group, sizeof(group), "%.*s", slash ? (int)(slash - n->place->api_version) : 0,
		 n->place->api_version);
	return owners_api_object_name(out, n->place->kind, group, n->name);
}

int owners_graph_node_is_core(const struct owners_node *n, const char *resource)
{
	return !n->virtual_ && n->place->resource && !*n->place->resource->group && !strcmp(n->place->resource->resource, resource);
}

int owners_graph_node_shown_name(struct owners_buf *out, const struct owners_node *n, int wide)
{
	const char *slash = strchr(n->place->api_version, '/');

	if (wide && slash)
		return owners_buf_addf(out, "%s.%.*s/%s", n->place->kind, (int)(slash - n->place->api_version),
				       n->place->api_version, n->name);
	return owners_buf_addf(out, "%s/%s", n->place->kind, n->name);
}

void owners_graph_node_group(const struct owners_node *n, char *out, size_t size)
{
	const char *slash = strchr(n->place->api_version, '/');
	size_t len = slash ? (size_t)(slash - n->place->api_version) : 0;

	if (len >= size)
		len = size - 1;
	memcpy(out, n->place->api_version, len);
	out[len] = 0;
}

int owners_graph_node_type(struct owners_buf *out, const struct owners_node *n)
{
	size_t start = out->len;
	char *slash;
	int rc = owners_graph_node_name(out, n);

	if (!rc && (slash = strchr(out->ptr + start, '/')))
		owners_buf_truncate(out, (size_t)(slash - out->ptr));
	return rc;
}
