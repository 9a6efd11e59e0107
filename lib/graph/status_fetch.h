/*
 * READY/STATUS for the objects a tree prints, with requests that grow with
 * the types and namespaces printed, never with the objects:
 *  - a type without a status subresource (ConfigMaps, Secrets, RBAC, ...)
 *    has nothing to show: no request;
 *  - a few objects of one type in one namespace (up to get_max): one GET
 *    each, all in parallel;
 *  - more: one paged list of that type in that namespace, full objects,
 *    streamed (each item read on its own and dropped), keeping the status
 *    of the printed ones.
 * The scan itself never downloads specs or statuses.
 *
 * Ownership: out has g->count entries, owned by the caller, each cleared
 * with owners_object_status_clear(). A failed request leaves its entries
 * empty (the renderers print "-"): READY/STATUS are decoration, not an
 * error.
 */
#ifndef OWNERS_STATUS_FETCH_H
#define OWNERS_STATUS_FETCH_H

#include <stddef.h>
#include <stdint.h>

#include "graph.h"
#include "http.h"
#include "object_status.h"

/* Up to this many printed objects of one type in one namespace are read
 * with GETs; more with a list. Measured: see tests/bench/REPORT.md. */
#define OWNERS_STATUS_GET_MAX 32

struct owners_status_fetch_options {
	long chunk_size;   /* list page size; 0: grown as the scan's (owners_list_page_limit()) */
	size_t get_max;    /* 0: OWNERS_STATUS_GET_MAX */
	/* One list of a type across every namespace, not one per namespace
	 * (a snapshot reads every object's status: its requests then grow
	 * with types and pages, not with namespaces). */
	int all_namespaces;
	/* Lists in JSON only, as the scan's json_only (OWNERS_LIST_FORMAT=json):
	 * otherwise the kinds with a protobuf schema (object_status_proto.h)
	 * are asked for in protobuf. */
	int json_only;
};

/* Fetches the status of the nodes of list into out (indexed by node). */
int owners_status_fetch(struct owners_object_status *out, struct owners_graph *g,
			const struct owners_node_list *list, struct owners_http_client *c,
			const struct owners_status_fetch_options *o, struct owners_error *err);

#endif
