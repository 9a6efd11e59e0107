/*
 * Fetches the full objects behind some graph nodes (in parallel) and reads
 * their READY/STATUS. Only what a tree prints is fetched: the scan itself
 * never downloads specs or statuses.
 *
 * Ownership: out has g->count entries, owned by the caller, each cleared
 * with owners_object_status_clear(). A failed GET leaves its entry empty
 * (the renderers print "-"), it is not an error.
 */
#ifndef OWNERS_STATUS_FETCH_H
#define OWNERS_STATUS_FETCH_H

#include <stddef.h>
#include <stdint.h>

#include "graph.h"
#include "http.h"
#include "object_status.h"

int owners_status_fetch(struct owners_object_status *out, struct owners_graph *g,
			const uint32_t *nodes, size_t n, struct owners_http_client *c,
			struct owners_error *err);

#endif
