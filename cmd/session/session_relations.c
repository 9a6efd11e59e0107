#include "session_relations.h"

#include <stdlib.h>
#include <string.h>

#include "list_reads.h"
#include "options.h"
#include "session_snapshot.h"
#include "session_state.h"
#include "uses.h"

void session_set_related(struct session *s, int related)
{
	s->related = related;
}

int session_related(const struct session *s)
{
	return s->related;
}

/* One type's list read whole: each object's uses into rel. */
struct whole_read {
	struct owners_relations *rel;
	const struct owners_graph *g;
	const struct owners_resource *type;
};

static int on_whole_object(void *ctx, const struct owners_json_value *item, struct owners_error *err)
{
	struct whole_read *w = ctx;
	int rc = owners_relations_add_object(w->rel, w->g, w->type, item);

	return rc ? owners_error_oom(err) : 0;
}

/* Reads whole, at once, the types of the listings at idx[0..n), each where
 * the scan listed it; a list the scan could not make is not asked again:
 * it is noted as failed, which says what reading it whole would. */
static int read_listings(struct session *s, struct owners_relations *rel, const size_t *idx,
			 size_t n)
{
	struct owners_list_read *reads = calloc(n ? n : 1, sizeof(*reads));
	struct whole_read *ctx = calloc(n ? n : 1, sizeof(*ctx));
	size_t i, m = 0;
	int rc = 0;

	if (!reads || !ctx) {
		free(reads);
		free(ctx);
		return owners_error_oom(&s->err);
	}
	for (i = 0; i < n; i++) {
		const struct owners_listing *l = &s->graph->listings[idx[i]];

		if (l->rc)
			continue;
		ctx[m] = (struct whole_read){ rel, s->graph, l->resource };
		reads[m].page.resource = l->resource;
		reads[m].page.namespace_ = l->namespace_;
		reads[m].on_tree = on_whole_object;
		reads[m].leave_out = OWNERS_USES_UNREAD_PARTS;
		reads[m].ctx = &ctx[m];
		m++;
	}
	rc = owners_list_reads_run(s->http, reads, m,
				   s->cli->chunk_size > 0 ? (size_t)s->cli->chunk_size : 0, &s->err);
	/* noted in the listings' order, whatever order the lists ended in */
	for (i = 0, m = 0; !rc && i < n; i++) {
		const struct owners_listing *l = &s->graph->listings[idx[i]];
		const struct owners_list_read *r = l->rc ? NULL : &reads[m++];

		if (r)
			rc = owners_relations_note_read(rel, l->resource, l->namespace_, r->rc,
							r->rc ? owners_error_message(&r->err) : NULL);
		else
			rc = owners_relations_note_read(rel, l->resource, l->namespace_, l->rc,
							l->message);
	}
	if (rc == OWNERS_ENOMEM && !s->err.code)
		owners_error_oom(&s->err);
	owners_list_reads_clear(reads, n);
	free(reads);
	free(ctx);
	return rc;
}

int session_has_relations(const struct session *s)
{
	const struct owners_snapshot_header *h = session_snapshot_header(s);

	return !h || h->has_relations;
}

int session_read_relations(struct session *s, struct owners_relations *rel)
{
	return session_read_relations_of(s, rel, NULL, NULL);
}

int session_read_relations_of(struct session *s, struct owners_relations *rel,
			      int (*want)(void *ctx, const struct owners_resource *r), void *ctx)
{
	size_t *idx = NULL, n = 0, i;
	int rc = 0;

	owners_relations_clear(rel);
	if (!s->graph)
		return 0;
	if (s->snap)
		rc = session_snapshot_relations(s, rel);
	else if (!(idx = malloc((s->graph->n_listings + 1) * sizeof(*idx))))
		rc = owners_error_oom(&s->err);
	for (i = 0; !rc && !s->snap && i < s->graph->n_listings; i++)
		if (owners_relations_type(s->graph->listings[i].resource) &&
		    (!want || want(ctx, s->graph->listings[i].resource)))
			idx[n++] = i;
	if (!rc && !s->snap)
		rc = read_listings(s, rel, idx, n);
	free(idx);
	if (!rc && (rc = owners_relations_resolve(rel, s->graph)))
		owners_error_oom(&s->err);
	if (rc == OWNERS_ENOMEM && !s->err.code)
		owners_error_oom(&s->err);
	return rc;
}

/* One node of each kind among a set (kinds are interned: compared as
 * pointers), and which types to read of them. */
struct kinds_around {
	const struct owners_graph *g;
	uint32_t *nodes;
	size_t n;
	unsigned around;
};

static int wants_around(void *ctx, const struct owners_resource *r)
{
	const struct kinds_around *k = ctx;
	char group[256];
	size_t i;

	for (i = 0; i < k->n; i++) {
		const struct owners_node *n = &k->g->nodes[k->nodes[i]];

		owners_graph_node_group(n, group, sizeof(group));
		if ((k->around & SESSION_RELATIONS_USERS) &&
		    owners_relations_may_use(r->group, r->kind, group, n->place->kind))
			return 1;
		if ((k->around & SESSION_RELATIONS_OWN) && !strcmp(r->group, group) &&
		    !strcmp(r->kind, n->place->kind))
			return 1;
	}
	return 0;
}

int session_read_relations_around(struct session *s, struct owners_relations *rel,
				  const uint32_t *nodes, size_t n, unsigned around)
{
	struct kinds_around k = { s->graph, NULL, 0, around };
	size_t i, j;
	int rc;

	if (!(k.nodes = malloc((n + 1) * sizeof(*k.nodes))))
		return owners_error_oom(&s->err);
	for (i = 0; s->graph && i < n; i++) {
		const struct owners_node *a = &s->graph->nodes[nodes[i]];

		for (j = 0; !a->virtual_ && j < k.n; j++) {
			const struct owners_node *b = &s->graph->nodes[k.nodes[j]];

			if (a->place->kind == b->place->kind && a->place->api_version == b->place->api_version)
				break;
		}
		if (!a->virtual_ && j == k.n)
			k.nodes[k.n++] = nodes[i];
	}
	rc = session_read_relations_of(s, rel, wants_around, &k);
	free(k.nodes);
	return rc;
}
