/*
 * Who uses an object: what a delete of it would break, read from the
 * relations (lib/graph/relations.h), and which of its possible users
 * could not be seen. The answer behind `owners why`'s users, the users
 * `owners delete` names outside its cascade (and --if-unused refuses on),
 * and `owners unused`.
 *
 * A use counts when deleting the used object breaks the user: a Pod that
 * mounts it, a workload whose template names it, an Ingress that routes
 * to it, a binding of a role, a claim bound to a volume, a Service that
 * routes to a Pod (through its EndpointSlices or its selector)... These
 * do not: a binding's ServiceAccount subject (the binding grants nothing
 * to what is gone, and breaks nothing), a token Secret's ServiceAccount
 * (the token goes with it), a PDB's or a NetworkPolicy's selector (a
 * policy over Pods, not a use of them), and a volume's claimRef (a volume
 * released by its claim's delete is the claim's own reclaim policy).
 *
 * A type that may use the object (owners_relations_may_use()) and was
 * not read whole where its objects would be (its list failed, was
 * forbidden, or lay outside the scan) is unseen: such an object's users
 * are not all known, and nothing reads it as unused.
 *
 * Ownership: an answer owns its arrays (owners_usage_clear()); it borrows
 * the relations and the graph (and their strings), which must outlive it.
 */
#ifndef OWNERS_USAGE_H
#define OWNERS_USAGE_H

#include <stddef.h>
#include <stdint.h>

#include "graph.h"
#include "relations.h"

/* A type whose objects could use the object and were not read where
 * they would be. */
struct owners_usage_unseen {
	const struct owners_resource *type;
	const char *namespace_; /* where it was not read; NULL: everywhere or cluster-scoped */
	/* why: the failed list's code (OWNERS_E*), 0 when it lay outside the
	 * scan. Said by the code, not the list's words, which differ with the
	 * scope a list was made in (a snapshot of every namespace read for
	 * one says the same as a live run in it). */
	int code;
};

struct owners_usage {
	size_t *users; /* relation items (FOUND) whose use counts, in the relations' order */
	size_t n_users, cap_users;
	struct owners_usage_unseen *unseen;
	size_t n_unseen, cap_unseen;
};

/* Whether relation x counts as a use (see above). */
int owners_usage_counts(const struct owners_relations *rel, const struct owners_graph *g,
			const struct owners_relation *x);
/* Appends node's users and its unseen possible users to out (a type
 * unseen once is not said again). 0, or OWNERS_ENOMEM. */
int owners_usage_add(struct owners_usage *out, const struct owners_relations *rel,
		     const struct owners_graph *g, uint32_t node);
/* The users of every object inside (g->count entries, 1: in the set,
 * as a cascade's members) that are not in it themselves: what a delete
 * of the set breaks. 0, or OWNERS_ENOMEM. */
int owners_usage_add_outside(struct owners_usage *out, const struct owners_relations *rel,
			     const struct owners_graph *g, const unsigned char *inside);
/* How many of the users' uses are not optional (those that break it). */
size_t owners_usage_required(const struct owners_usage *u, const struct owners_relations *rel);
/* One line a user: "  Pod/web-1 in shop (owned by Deployment/web) mounts
 * ConfigMap/app: spec.volumes[0].configMap", then a line per type unseen
 * ("  not seen: pods in namespace shop (forbidden)"). 0, or OWNERS_ENOMEM. */
int owners_usage_render_text(struct owners_buf *out, const struct owners_usage *u,
			     const struct owners_relations *rel, const struct owners_graph *g);
void owners_usage_clear(struct owners_usage *u);
/* Why a type was not seen, in a word or two: "forbidden", "its list
 * failed", "not listed by this run". */
const char *owners_usage_unseen_why(const struct owners_usage_unseen *u);
/* "pods in namespace shop (forbidden)", for a message. 0, or OWNERS_ENOMEM. */
int owners_usage_unseen_text(struct owners_buf *out, const struct owners_usage_unseen *u);

#endif
