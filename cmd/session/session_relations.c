#include "session_relations.h"

#include <stdlib.h>
#include <string.h>

#include "list_page.h"
#include "options.h"
#include "session_snapshot.h"
#include "session_state.h"

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

static int on_whole_object(void *ctx, const char *item, size_t len, struct owners_error *err)
{
	struct whole_read *w = ctx;
	struct owners_json_value *v = NULL;
	int rc = owners_json_parse(&v, item, len, err);

	if (!rc && (rc = owners_relations_add_object(w->rel, w->g, w->type, v)))
		owners_error_oom(err);
	owners_json_value_free(v);
	return rc;
}

/* Reads r's objects whole where the scan listed them (listing l). */
static int read_listing(struct session *s, struct owners_relations *rel,
			const struct owners_listing *l)
{
	struct whole_read w = { rel, s->graph, l->resource };
	struct owners_list_page page;
	struct owners_error err = OWNERS_ERROR_INIT;
	int rc;

	/* a list the scan could not make says what reading it whole would */
	if (l->rc)
		return owners_relations_note_read(rel, l->resource, l->namespace_, l->rc,
						  l->message);
	memset(&page, 0, sizeof(page));
	page.resource = l->resource;
	page.namespace_ = l->namespace_;
	rc = owners_list_page_read_all(s->http, &page,
				       s->cli->chunk_size > 0 ? (size_t)s->cli->chunk_size : 0,
				       on_whole_object, &w, &err);
	if (rc == OWNERS_ENOMEM) {
		owners_error_clear(&err);
		return owners_error_oom(&s->err);
	}
	rc = owners_relations_note_read(rel, l->resource, l->namespace_, rc,
					rc ? owners_error_message(&err) : NULL);
	owners_error_clear(&err);
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
	size_t i;
	int rc = 0;

	owners_relations_clear(rel);
	if (!s->graph)
		return 0;
	if (s->snap)
		rc = session_snapshot_relations(s, rel);
	for (i = 0; !rc && !s->snap && i < s->graph->n_listings; i++)
		if (owners_relations_type(s->graph->listings[i].resource) &&
		    (!want || want(ctx, s->graph->listings[i].resource)))
			rc = read_listing(s, rel, &s->graph->listings[i]);
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
		    owners_relations_may_use(r->group, r->kind, group, n->kind))
			return 1;
		if ((k->around & SESSION_RELATIONS_OWN) && !strcmp(r->group, group) &&
		    !strcmp(r->kind, n->kind))
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

			if (a->kind == b->kind && a->api_version == b->api_version)
				break;
		}
		if (!a->virtual_ && j == k.n)
			k.nodes[k.n++] = nodes[i];
	}
	rc = session_read_relations_of(s, rel, wants_around, &k);
	free(k.nodes);
	return rc;
}
