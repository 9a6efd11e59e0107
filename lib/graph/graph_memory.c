#include "graph_memory.h"

#include <string.h>

/* A string the arena holds on its own (interned ones are counted apart). */
static size_t text(const char *s)
{
	return s ? strlen(s) + 1 : 0;
}

void owners_graph_memory(const struct owners_graph *g, struct owners_graph_memory *out)
{
	size_t handed, strings, i;
	uint32_t k;

	memset(out, 0, sizeof(*out));
	out->nodes = g->count * sizeof(*g->nodes);
	out->nodes_spare = (g->cap - g->count) * sizeof(*g->nodes);
	for (i = 0; i < g->count; i++) {
		const struct owners_node *n = &g->nodes[i];

		/* a UID kept as its 16 bytes is in the node; one kept as text
		 * (not as the apiserver writes UIDs) is a string of its own */
		out->uids += n->uid_is_text ? text(n->uid_key.text) : 0;
		out->names += text(n->name);
		out->versions += n->rv_is_number ? 0 : text(n->rv.text);
		out->refs += n->n_refs * sizeof(*n->refs);
		for (k = 0; k < n->n_refs; k++) {
			const struct owners_ref *r = &n->refs[k];
			const struct owners_node *o =
				r->owner != OWNERS_NO_NODE ? &g->nodes[r->owner] : NULL;

			/* (a reference's UID is its owner node's; its name is
			 * shared when its owner was read first) */
			out->names += o && r->name == o->name ? 0 : text(r->name);
		}
		out->labels += 2 * n->extras->n_labels * sizeof(*n->extras->labels);
		for (k = 0; k < n->extras->n_labels; k++)
			out->labels += text(n->extras->labels[2 * k + 1]);
		out->finalizers += n->extras->n_finalizers * sizeof(*n->extras->finalizers);
		out->extras += n->extras != &owners_graph_no_extras ? sizeof(*n->extras) : 0;
		out->edges += n->n_dependents * sizeof(*g->edges);
	}
	strings = owners_arena_interned_bytes(&g->arena);
	out->interned = strings + g->arena.intern_cap * sizeof(*g->arena.interned);
	out->places = g->places.count * sizeof(struct owners_node_place) +
		      g->places.cap * sizeof(*g->places.slots);
	out->uid_index = g->by_uid.cap * sizeof(*g->by_uid.slots);
	out->name_index = g->by_name.cap * sizeof(*g->by_name.slots);
	/* what the arena handed out: the interned strings are in it, their
	 * table is not */
	handed = out->uids + out->names + out->versions + out->refs + out->labels +
		 out->finalizers + out->extras + g->places.count * sizeof(struct owners_node_place) + strings;
	i = owners_arena_allocated(&g->arena);
	out->arena_slack = i > handed ? i - handed : 0;
	out->total = out->nodes + out->nodes_spare + out->refs + out->uids + out->names +
		     out->versions + out->labels + out->finalizers + out->extras + out->places + out->interned +
		     out->uid_index + out->name_index + out->edges + out->arena_slack;
}
