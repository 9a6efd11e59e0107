/*
 * Reading the facts owners_stuck_explain() needs beyond the scan's
 * metadata, for the objects that need them:
 *  - a Namespace in deletion: GET in full (spec.finalizers, status.conditions);
 *  - a PersistentVolumeClaim in deletion held by kubernetes.io/pvc-protection:
 *    the pods of its namespace, listed in full (only the pods' spec says
 *    which claims they mount), paginated and parsed as a stream, once per
 *    namespace;
 *  - a PersistentVolume in deletion held by kubernetes.io/pv-protection:
 *    GET in full (status.phase, spec.claimRef).
 * Every request is in flight at once. A read that fails is recorded in
 * its record's error ("forbidden", ...), not returned: the explanation then
 * says what it could not tell.
 *
 * Ownership: the facts are the caller's (owners_stuck_facts_clear()); the
 * graph and the client are borrowed.
 */
#ifndef OWNERS_STUCK_FETCH_H
#define OWNERS_STUCK_FETCH_H

#include <stddef.h>
#include <stdint.h>

#include "graph.h"
#include "http.h"
#include "json.h"
#include "stuck.h"

/* The objects an explanation of nodes may reach: the nodes themselves,
 * every object in deletion in a Namespace among them, and the dependents
 * in deletion of all of these, recursively. *out (owned by the caller,
 * free()) lists each node once. */
int owners_stuck_fetch_reach(uint32_t **out, size_t *n_out, const struct owners_graph *g,
			     const uint32_t *nodes, size_t n);

/* Reads the facts of the nodes of list (those that need any; others are
 * skipped).
 * page_size: pods per page (0: OWNERS_DEFAULT_PAGE_SIZE). Returns non-zero only for a failure
 * of the run itself (out of memory). */
int owners_stuck_fetch(struct owners_stuck_facts *f, struct owners_graph *g,
		       struct owners_http_client *c, const struct owners_node_list *list,
		       size_t page_size, struct owners_error *err);

/* The same for objects not in deletion yet, whose deletion is about to be
 * asked (owners delete's plan says what each will wait on). */
int owners_stuck_fetch_ahead(struct owners_stuck_facts *f, struct owners_graph *g,
			     struct owners_http_client *c, const struct owners_node_list *list,
			     size_t page_size, struct owners_error *err);

/* The same facts from objects read before (a snapshot): lookup gives
 * the JSON of the object at an API path (NULL when it was not read); a
 * record that cannot be filled says missing as its error. */
struct owners_stuck_fetch_record {
	const char *(*lookup)(void *ctx, const char *path, size_t *len);
	void *ctx;
	const char *missing;  /* "not recorded in the snapshot" */
	int ahead;            /* objects not in deletion too */
};
int owners_stuck_fetch_recorded(struct owners_stuck_facts *f, struct owners_graph *g,
				const struct owners_node_list *list,
				const struct owners_stuck_fetch_record *rec,
				struct owners_error *err);

/* Fills a namespace record from the Namespace as read (for unit tests and
 * for the fetch). */
int owners_stuck_fetch_read_namespace(struct owners_stuck_namespace *ns,
				      const struct owners_json_value *object);
/* Fills a volume record from the PersistentVolume as read. */
int owners_stuck_fetch_read_volume(struct owners_stuck_volume *v,
				   const struct owners_json_value *object);

#endif
