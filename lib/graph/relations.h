/*
 * The relations of owners(1) over the owner graph: who uses what, beside
 * who owns what. Each object read whole (a Pod, a workload, an Ingress,
 * a binding...) adds the uses it names (lib/api/uses.h); resolving them
 * against the graph finds each used object's node, or says that it is
 * missing (its type was listed there and it is not in the list) or
 * unknown (its type was not listed there, or is not served): an unknown
 * is never read as missing. A StatefulSet's claim templates resolve to
 * the claims of its ordinals that exist. Nothing here changes what the
 * graph says about ownership.
 *
 * Ownership: the relations own their uses (owners_relations_clear()); the
 * graph is borrowed and must outlive them.
 */
#ifndef OWNERS_RELATIONS_H
#define OWNERS_RELATIONS_H

#include <stddef.h>
#include <stdint.h>

#include "graph.h"
#include "json.h"
#include "uses.h"

enum owners_relation_state {
	OWNERS_RELATION_FOUND,   /* used: the object's node */
	OWNERS_RELATION_MISSING, /* its type was listed there, and it is not there */
	OWNERS_RELATION_UNKNOWN, /* its type was not listed there, or is not served */
};

struct owners_relation {
	uint32_t user; /* the node that uses */
	uint32_t used; /* FOUND: the node used; else OWNERS_NO_NODE */
	size_t use;    /* its use, in the relations' uses */
	enum owners_relation_state state;
};

struct owners_relations {
	struct owners_uses uses;
	uint32_t *user_of; /* per use: the node that uses */
	size_t cap_user_of;
	struct owners_relation *items; /* after owners_relations_resolve() */
	size_t count, cap;
};

void owners_relations_clear(struct owners_relations *rel);
/* Whether objects of type r name what they use (the types a command
 * asking for relations reads whole). */
int owners_relations_type(const struct owners_resource *r);
/* Adds what object (read whole, of type r) uses, when its node (by
 * metadata.uid) is in g; an object not in g adds nothing. 0, or
 * OWNERS_ENOMEM. */
int owners_relations_add_object(struct owners_relations *rel, const struct owners_graph *g,
				const struct owners_resource *r,
				const struct owners_json_value *object);
/* Resolves every use added against g, into rel->items (in the order of
 * the uses; a claim template's ordinals in order). 0, or OWNERS_ENOMEM. */
int owners_relations_resolve(struct owners_relations *rel, struct owners_graph *g);

#endif
