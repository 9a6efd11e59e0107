/* A list source that permutes what another lists (see list_shuffle.h). */
#include "list_shuffle.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "grow.h"

uint64_t owners_list_shuffle_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Fisher-Yates over n elements of size bytes. */
static void permute(void *base, size_t n, size_t size, uint64_t *state)
{
	unsigned char *a = base, tmp[64];
	size_t i, j;

	if (size > sizeof(tmp))
		return;
	for (i = n; i > 1; i--) {
		j = (size_t)(owners_list_shuffle_next(state) % i);
		memcpy(tmp, a + (i - 1) * size, size);
		memcpy(a + (i - 1) * size, a + j * size, size);
		memcpy(a + j * size, tmp, size);
	}
}

/* RFC 3339 of unix seconds t into out (at least 32 bytes); "" for 0 (the
 * node had no time), and text no parser reads for 1 (a deletionTimestamp
 * it could not read: the graph keeps 1 for it, and reads it back so). */
static const char *time_text(char *out, size_t size, int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!t)
		return "";
	if (t == 1 || !gmtime_r(&tt, &tm) || !strftime(out, size, "%Y-%m-%dT%H:%M:%SZ", &tm))
		return "unreadable";
	return out;
}

/* The metadata of observed node n again, as a list hands it on; what it
 * points to is n's (and the scratch arrays', freed by the caller). */
struct meta_scratch {
	struct owners_object_meta m;
	struct owners_owner_ref_meta *refs;
	unsigned char *fields;
	struct owners_label_meta *labels;
	char (*ref_uids)[OWNERS_UID_TEXT_SIZE]; /* the references' UIDs as text */
	char uid[OWNERS_UID_TEXT_SIZE];
	char rv[OWNERS_NODE_RV_SIZE];
	char created[40], deleted[40];
};

static void scratch_clear(struct meta_scratch *s)
{
	free(s->refs);
	free(s->fields);
	free(s->labels);
	free(s->ref_uids);
	memset(s, 0, sizeof(*s));
}

static int meta_of(struct meta_scratch *s, const struct owners_graph *g,
		   const struct owners_node *n)
{
	uint32_t i;

	scratch_clear(s);
	if ((n->n_refs && (!(s->refs = calloc(n->n_refs, sizeof(*s->refs))) ||
			   !(s->fields = calloc(n->n_refs, 1)) ||
			   !(s->ref_uids = calloc(n->n_refs, sizeof(*s->ref_uids))))) ||
	    (n->extras->n_labels && !(s->labels = calloc(n->extras->n_labels, sizeof(*s->labels)))))
		return OWNERS_ENOMEM;
	for (i = 0; i < n->n_refs; i++) {
		const struct owners_ref *r = &n->refs[i];

		s->refs[i] =
			(struct owners_owner_ref_meta){ r->type->api_version,
							r->type->kind,
							r->name,
							owners_graph_node_uid(&g->nodes[r->owner],
									      s->ref_uids[i]),
							r->controller,
							r->block_owner_deletion };
		s->fields[i] = (unsigned char)((r->controller_set ? OWNERS_REF_HAS_CONTROLLER : 0) |
					       (r->block_owner_deletion_set ? OWNERS_REF_HAS_BLOCK_OWNER_DELETION : 0));
	}
	for (i = 0; i < n->extras->n_labels; i++)
		s->labels[i] = (struct owners_label_meta){ n->extras->labels[2 * i], n->extras->labels[2 * i + 1] };
	s->m.name = n->name;
	s->m.namespace_ = n->place->namespace_;
	s->m.uid = owners_graph_node_uid(n, s->uid);
	s->m.resource_version = owners_graph_node_rv(n, s->rv);
	s->m.creation_timestamp = time_text(s->created, sizeof(s->created), n->created);
	s->m.deletion_timestamp = time_text(s->deleted, sizeof(s->deleted), n->extras->deleted);
	s->m.finalizers = n->extras->finalizers;
	s->m.n_finalizers = n->extras->n_finalizers;
	s->m.owner_refs = s->refs;
	s->m.n_owner_refs = n->n_refs;
	s->m.owner_ref_fields = s->fields;
	s->m.labels = s->labels;
	s->m.n_labels = n->extras->n_labels;
	return 0;
}

static int hand_on(struct owners_graph *from, struct owners_graph *g, const struct owners_scan_options *o,
		   uint64_t *state)
{
	struct meta_scratch s = { 0 };
	uint32_t *order = NULL, n = 0, i;
	size_t k;
	int rc = 0;

	if (!(order = malloc(((size_t)from->count + 1) * sizeof(*order))))
		return OWNERS_ENOMEM;
	for (i = 0; i < from->count; i++)
		if (!from->nodes[i].virtual_)
			order[n++] = i;
	permute(order, n, sizeof(*order), state);
	for (i = 0; !rc && i < n; i++) {
		const struct owners_node *node = &from->nodes[order[i]];

		if ((rc = meta_of(&s, from, node)))
			break;
		rc = g ? owners_graph_add(g, node->place->resource, &s.m)
		       : o->on_object(o->on_object_ctx, node->place->resource, &s.m);
	}
	/* the listings, failed ones too, in an order of their own */
	if (!rc && g && from->n_listings) {
		struct owners_listing *l = malloc(from->n_listings * sizeof(*l));

		if (!l)
			rc = OWNERS_ENOMEM;
		for (k = 0; l && k < from->n_listings; k++)
			l[k] = from->listings[k];
		if (l)
			permute(l, from->n_listings, sizeof(*l), state);
		for (k = 0; !rc && l && k < from->n_listings; k++)
			rc = owners_graph_note_listing(g, l[k].resource, l[k].namespace_, l[k].rc, l[k].message);
		free(l);
	}
	scratch_clear(&s);
	free(order);
	return rc;
}

static int list_shuffled(void *ctx, struct owners_graph *g, const struct owners_resource_table *types,
			 const struct owners_scan_options *o, struct owners_scan_report *report,
			 struct owners_error *err)
{
	struct owners_list_shuffle *sh = ctx;
	struct owners_scan_options inner = *o;
	struct owners_graph *all = NULL;
	uint64_t state = sh->seed * 0x2545f4914f6cdd1dULL + ++sh->scans;
	int rc;

	/* everything into a graph of our own first: its objects and its
	 * listings are then handed on in the seed's order */
	inner.on_object = NULL;
	inner.on_object_ctx = NULL;
	if (owners_graph_new(&all, types))
		return owners_error_oom(err);
	rc = owners_list_source_scan(&sh->inner, all, types, &inner, report, err);
	if (!rc) {
		rc = hand_on(all, g, o, &state);
		if (rc == OWNERS_ENOMEM)
			owners_error_oom(err);
		else if (rc)
			owners_error_set(err, rc, "stopped");
	}
	if (!rc)
		permute(report->failures, report->n_failures, sizeof(*report->failures), &state);
	if (!rc && g && (rc = owners_graph_link(g)))
		owners_error_oom(err);
	owners_graph_free(all);
	return rc;
}

void owners_list_shuffle_source(struct owners_list_source *out, struct owners_list_shuffle *sh)
{
	out->list = list_shuffled;
	out->ctx = sh;
}
