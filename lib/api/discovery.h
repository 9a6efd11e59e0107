/*
 * Discovery: which resource types the server serves. Aggregated discovery
 * (two requests: /api and /apis) when the server offers it, the per-group
 * walk otherwise (one request per group version, in parallel). A group
 * that fails (a broken aggregated APIService) is recorded in the table's
 * failures, not an error.
 *
 * Cached on disk per server (like kubectl's ~/.kube/cache/discovery) with
 * private permissions; a cache younger than its TTL is used without any
 * request. Callers refresh (refresh = 1) when a name does not resolve, so
 * a stale cache can delay nothing but one extra round trip.
 *
 * Ownership: *out is initialised and filled; the caller frees it with
 * owners_resource_table_clear().
 */
#ifndef OWNERS_DISCOVERY_H
#define OWNERS_DISCOVERY_H

#include <stdint.h>

#include "owners_error.h"
#include "http.h"
#include "resource.h"

struct owners_discovery_options {
	const char *cache_dir;  /* e.g. ~/.cache/owners; NULL: no disk cache */
	int64_t now;            /* unix seconds */
	int64_t ttl;            /* seconds; 0: 6 hours (kubectl's); 60 s when groups failed */
	int refresh;            /* ignore the cache, fetch and rewrite it */
};

struct owners_discovery_stats {
	int from_cache;
	int aggregated;
	unsigned long requests;
};

int owners_discovery_load(struct owners_resource_table *out, struct owners_http_client *c,
			  const char *server, const struct owners_discovery_options *o,
			  struct owners_discovery_stats *stats, struct owners_error *err);

#endif
