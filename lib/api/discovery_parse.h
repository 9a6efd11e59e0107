/*
 * Discovery documents -> the resource table.
 *
 * Two ways a server describes what it serves:
 *  - aggregated discovery (apidiscovery.k8s.io/v2, or v2beta1): one
 *    APIGroupDiscoveryList for /api and one for /apis, every group, version
 *    and resource at once;
 *  - the legacy walk: /api -> APIVersions, /apis -> APIGroupList, then one
 *    APIResourceList per group/version (/api/v1, /apis/G/V).
 *
 * These functions only parse: fetching, caching and deciding which walk to
 * use belong to the caller. They take a document already parsed with
 * owners_json_parse() (discovery documents are small), so one parse serves
 * both owners_discovery_parse_detect() and the parser that follows.
 *
 * Subresources ("deployments/scale") are not resources and never enter the
 * table. A stale group/version (aggregated "freshness": "Stale") adds no
 * resources and is recorded as a failure, "apps/v1" style, reason "stale",
 * so its kinds read as unknown rather than unserved.
 *
 * A document of the wrong shape is OWNERS_EPROTO, with a message that says
 * where, e.g. "invalid aggregated discovery document: 'items[2].versions'
 * is a string, expected an array". The whole document is checked before
 * anything is added, so a refused document leaves the table as it was
 * (only running out of memory can leave part of a document in it).
 *
 * Ownership: the table owns what is added to it (see resource.h);
 * struct owners_discovery_parse_group_list owns its strings and is released with
 * owners_discovery_parse_group_list_clear(). The json documents stay the caller's.
 */
#ifndef OWNERS_DISCOVERY_PARSE_H
#define OWNERS_DISCOVERY_PARSE_H

#include <stddef.h>

#include "owners_error.h"
#include "json.h"
#include "resource.h"

enum owners_discovery_parse_format {
	OWNERS_DISCOVERY_UNKNOWN = 0,
	OWNERS_DISCOVERY_AGGREGATED,        /* APIGroupDiscoveryList, v2 or v2beta1 */
	OWNERS_DISCOVERY_API_VERSIONS,      /* legacy /api */
	OWNERS_DISCOVERY_API_GROUP_LIST,    /* legacy /apis */
	OWNERS_DISCOVERY_API_RESOURCE_LIST, /* /api/v1, /apis/G/V */
	OWNERS_DISCOVERY_STATUS,            /* an error from the server */
};

/* What a discovery response is, from its kind and apiVersion. A server that
 * does not offer aggregated discovery answers the aggregated Accept header
 * with the legacy document, so this is how the caller tells which walk to
 * take. NULL or a non-object is OWNERS_DISCOVERY_UNKNOWN. */
enum owners_discovery_parse_format
owners_discovery_parse_detect(const struct owners_json_value *doc);

/* Adds every resource of an aggregated APIGroupDiscoveryList (the /api or
 * the /apis one). Each group's first version that is not stale is its
 * preferred one (as client-go does); resources without a responseKind are
 * skipped (as client-go does). */
int owners_discovery_parse_aggregated(struct owners_resource_table *t,
				      const struct owners_json_value *doc,
				      struct owners_error *err);

/* ---- the legacy walk --------------------------------------------------- */

struct owners_discovery_parse_group {
	char *name;              /* "" for the core group */
	char **versions;         /* "v1", in the server's order of preference */
	size_t n_versions;
	char *preferred_version; /* "v1" */
};

struct owners_discovery_parse_group_list {
	struct owners_discovery_parse_group *items;
	size_t count;
	size_t cap;
};

void owners_discovery_parse_group_list_init(struct owners_discovery_parse_group_list *g);
/* Frees the content and re-initialises; accepts NULL. */
void owners_discovery_parse_group_list_clear(struct owners_discovery_parse_group_list *g);

/* Appends the groups of an APIVersions (/api: one group, "") or an
 * APIGroupList (/apis). The preferred version is preferredVersion, or the
 * first version when the server names none. */
int owners_discovery_parse_groups(struct owners_discovery_parse_group_list *out,
				  const struct owners_json_value *doc, struct owners_error *err);

/* Adds the resources of one APIResourceList. preferred: whether its
 * groupVersion is its group's preferred version (from the group list). */
int owners_discovery_parse_resource_list(struct owners_resource_table *t,
					 const struct owners_json_value *doc, int preferred,
					 struct owners_error *err);

/* "get" -> OWNERS_VERB_GET, ...; 0 for verbs we have no bit for. */
unsigned owners_discovery_parse_verb(const char *verb);

#endif
