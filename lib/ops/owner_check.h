/*
 * Is this owner there, now? The garbage collector never acts on an owner's
 * absence from its caches: its isDangling() first reads the owner from the
 * server, by the reference's apiVersion, kind and name (in the dependent's
 * namespace when the kind is namespaced), and compares the UID. Lists of
 * different types are taken at different moments and watches lag each
 * other, so an owner missing from the scan may well exist: every action of
 * owners that rests on an absence (a deletion, a reference removed) asks
 * here first.
 *
 * Each owner is read once per set of checks (a pass, a round): the
 * verdict is remembered under the reference's apiVersion, kind, namespace,
 * name and UID.
 *
 * Verdicts:
 *  - GONE: 404, or an object of another UID holds the name (re-created), or
 *    a reference no lookup can ever satisfy (a cluster-scoped dependent
 *    with a namespaced owner; a kind the mapper only guessed);
 *  - ALIVE: the owner is there, with the reference's UID, or its kind,
 *    unserved when scanned, is served now;
 *  - UNKNOWN: the read failed otherwise (403, 5xx, a group that failed
 *    discovery). The GC treats that as an error and acts on nothing; so
 *    does every caller: only GONE allows an action.
 *
 * Ownership: the checks own their cache (owners_owner_checks_clear()); the
 * resource table and the client are borrowed and must outlive them.
 */
#ifndef OWNERS_OWNER_CHECK_H
#define OWNERS_OWNER_CHECK_H

#include <stddef.h>

#include "graph.h"
#include "http.h"
#include "strset.h"

enum owners_owner_verdict {
	OWNERS_OWNER_GONE,
	OWNERS_OWNER_ALIVE,
	OWNERS_OWNER_UNKNOWN,
};

struct owners_owner_checks {
	const struct owners_resource_table *types;
	struct owners_http_client *http;
	struct owners_strset seen; /* key -> why (ALIVE/UNKNOWN); flag: the verdict */
	size_t reads;              /* owners read (for tests and -v) */
	/* Tests: asked instead of the server when set. */
	enum owners_owner_verdict (*read)(void *ctx, const struct owners_node *dep,
					  const struct owners_ref *ref, const char *uid);
	void *read_ctx;
};

void owners_owner_checks_init(struct owners_owner_checks *cc, const struct owners_resource_table *types,
			      struct owners_http_client *http);
/* Forgets every verdict (a new pass reads again); keeps types and http. */
void owners_owner_checks_clear(struct owners_owner_checks *cc);

/* The verdict on ref, one of dep's references, which names uid (its text:
 * OWNERS_REF_UID() of a reference in a graph); *why (borrowed from cc,
 * may be NULL for GONE) says what was found when the owner is kept. 0,
 * or OWNERS_ENOMEM. */
int owners_owner_check(enum owners_owner_verdict *v, const char **why,
		       struct owners_owner_checks *cc, const struct owners_node *dep,
		       const struct owners_ref *ref, const char *uid);

#endif
