/*
 * A session's relations (lib/graph/relations.h): who uses what in the
 * graph the last scan made. Live, the objects of every type that holds
 * relations are read whole, each where the scan listed its type (a list
 * the scan could not make is not tried again: it is noted as failed, so
 * that what it would have said is unknown); from a snapshot, what the
 * snapshot recorded of them. Only a command that asks for relations
 * reads them: the others make the requests they always made.
 */
#ifndef OWNERS_CMD_SESSION_RELATIONS_H
#define OWNERS_CMD_SESSION_RELATIONS_H

#include "relations.h"
#include "session.h"

/* The next scans keep what relations need (the labels Pods are selected
 * by): set before the first. */
void session_set_related(struct session *s, int related);
int session_related(const struct session *s);
/* Whether relations can be read: live always; from a snapshot, when it
 * holds them (taken with --related, or a dump of whole objects). */
int session_has_relations(const struct session *s);
/* Reads the relations of the last scan's graph into rel (cleared first)
 * and resolves them. 0, or an OWNERS_E* code with session_error() set. */
int session_read_relations(struct session *s, struct owners_relations *rel);
/* The same, reading whole only the types want accepts (the others are
 * neither read nor noted: unseen to owners_usage_add()). */
int session_read_relations_of(struct session *s, struct owners_relations *rel,
			      int (*want)(void *ctx, const struct owners_resource *r), void *ctx);

/* What session_read_relations_around() reads whole, of the nodes'
 * kinds: the types that may use them (their users), and their own types
 * (what they use). */
enum session_relations_around {
	SESSION_RELATIONS_USERS = 1u << 0,
	SESSION_RELATIONS_OWN = 1u << 1,
};
/* session_read_relations_of() for what the n nodes take part in: only
 * the types `around` (SESSION_RELATIONS_*) asks for, of their kinds. */
int session_read_relations_around(struct session *s, struct owners_relations *rel,
				  const uint32_t *nodes, size_t n, unsigned around);

#endif
