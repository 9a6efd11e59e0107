/*
 * A resource type the server serves, as discovery describes it, and the
 * table of all of them.
 *
 * Ownership: the table owns every string and every resource in it;
 * pointers returned by lookups are borrowed from the table and live until
 * owners_resource_table_clear().
 */
#ifndef OWNERS_RESOURCE_H
#define OWNERS_RESOURCE_H

#include <stddef.h>
#include <stdint.h>

#include "owners_error.h"

enum owners_verb {
	OWNERS_VERB_GET = 1 << 0,
	OWNERS_VERB_LIST = 1 << 1,
	OWNERS_VERB_WATCH = 1 << 2,
	OWNERS_VERB_DELETE = 1 << 3,
	OWNERS_VERB_PATCH = 1 << 4,
	OWNERS_VERB_UPDATE = 1 << 5,
	OWNERS_VERB_CREATE = 1 << 6,
	OWNERS_VERB_DELETECOLLECTION = 1 << 7,
};

struct owners_resource {
	char *group;         /* "" for the core group */
	char *version;       /* "v1" */
	char *api_version;   /* "v1" or "apps/v1": what ownerReferences say */
	char *resource;      /* plural, lowercase: "deployments" */
	char *singular;      /* "deployment" (may be "" when the server omits it) */
	char *kind;          /* "Deployment" */
	char **short_names;  /* {"deploy"} */
	size_t n_short_names;
	char **categories;   /* {"all"} */
	size_t n_categories;
	unsigned verbs;      /* enum owners_verb bits */
	int namespaced;
	int preferred;       /* this version is the group's preferred version */
	/* It has a status subresource: its objects carry a status. Without
	 * one (ConfigMaps, Secrets, RBAC, custom resources whose CRD has no
	 * status subresource) there is no READY/STATUS to fetch. */
	int has_status;
	/* It has a scale subresource (Deployments, StatefulSets, custom
	 * resources whose CRD declares one): `delete --scale-first` scales its
	 * objects to 0 through it. */
	int has_scale;
	/* The version of this resource the garbage collector watches (set by
	 * owners_resource_table_mark_tracked()): every (group, resource) has at
	 * most one, chosen as client-go's ServerPreferredResources() chooses
	 * (the group's preferred version when it serves the resource, else the
	 * first version that does), and only when that version can be listed,
	 * watched and deleted and is not an Event. */
	int gc_tracked;
};

/* What discovery found: every served (group, version, resource), without
 * subresources, plus the groups that failed and why. */
struct owners_resource_table {
	struct owners_resource *items;
	size_t count;
	size_t cap;
	/* Groups (or group/versions) whose discovery failed: "metrics.k8s.io/v1beta1". */
	char **failed_groups;
	char **failed_reasons;
	/* Whether each was marked stale by aggregated discovery (its API
	 * server does not answer; its APIService says why): a typed fact,
	 * so that no caller decides on the reason's words. Read it with
	 * owners_resource_table_failed_stale(). */
	unsigned char *failed_stale;
	size_t n_failed;
	size_t cap_failed_groups, cap_failed_reasons, cap_failed_stale;
	/* The types were built from the objects of a dump, not from
	 * discovery: a kind not among them may well be served, so a
	 * reference to it maps blind (unknown), never unmapped. */
	int built_from_objects;
	/* apiVersion+kind -> item index + 1 (open addressing), kept by
	 * owners_resource_table_add: every ownerReference is resolved here. */
	uint32_t *gvk_index;
	size_t gvk_cap;
};

void owners_resource_table_init(struct owners_resource_table *t);
void owners_resource_table_clear(struct owners_resource_table *t);
/* Copies r (deep) into the table. */
int owners_resource_table_add(struct owners_resource_table *t, const struct owners_resource *r);
int owners_resource_table_add_failure(struct owners_resource_table *t, const char *group,
				      const char *reason);
/* The same for a group aggregated discovery marked stale: reason "stale",
 * and owners_resource_table_failed_stale() true. */
int owners_resource_table_add_stale(struct owners_resource_table *t, const char *group);
/* Either, with its reason (a stale group's APIService's words, as read
 * back from a cache or a snapshot). */
int owners_resource_table_add_failed(struct owners_resource_table *t, const char *group, const char *reason,
				     int stale);
/* Whether failure i (< n_failed) is a stale group. */
int owners_resource_table_failed_stale(const struct owners_resource_table *t, size_t i);

/* The resource served for exactly this apiVersion ("apps/v1") and kind
 * (a type's own identity, not a reference's spelling: references go
 * through owners_resource_map_ref()); NULL when not served. */
const struct owners_resource *owners_resource_by_gvk(const struct owners_resource_table *t,
						     const char *api_version, const char *kind);

/* Marks the versions the garbage collector tracks (gc_tracked). Call once
 * the table is complete: it depends on every version of each group, in
 * discovery's order. */
void owners_resource_table_mark_tracked(struct owners_resource_table *t);
/* The tracked version of r's resource (r itself when it is tracked); NULL
 * when the GC tracks no version of it. */
const struct owners_resource *owners_resource_tracked(const struct owners_resource_table *t,
						      const struct owners_resource *r);

/* How the garbage collector's REST mapper reads an ownerReference's
 * apiVersion and kind (schema.FromAPIVersionAndKind, then the discovery
 * REST mapper of client-go's restmapper package). */
enum owners_ref_mapping {
	/* a served kind: *out is its resource in that version */
	OWNERS_REF_MAPPED,
	/* "<Kind>List" of a served kind: the mapper guesses a resource that
	 * the server does not have, so the GC's lookup answers 404 and the
	 * owner reads as absent; *out is the kind's resource (for its scope) */
	OWNERS_REF_MAPPED_MISSING,
	/* its group/version failed discovery: the GC cannot map it either,
	 * and retries */
	OWNERS_REF_MAPPING_BLIND,
	/* nothing served answers to it: an error to the GC, retried forever */
	OWNERS_REF_UNMAPPED,
};
/* The apiVersion is parsed as schema.ParseGroupVersion does ("/v1" is the
 * core group's v1; an empty version means the group's preferred one); the
 * kind matches as written or written in lowercase, as the mapper registers
 * both. *out is NULL unless mapped. */
enum owners_ref_mapping owners_resource_map_ref(const struct owners_resource_table *t,
						const char *api_version, const char *kind,
						const struct owners_resource **out);
/* Whether a group/version failed discovery (so its kinds are unknown rather
 * than unserved). */
int owners_resource_group_failed(const struct owners_resource_table *t, const char *api_version);

/* The same resource (group and plural), whatever the version. */
int owners_resource_same_type(const struct owners_resource *a, const struct owners_resource *b);

/* Deletable in the garbage collector's sense: list, watch and delete. */
int owners_resource_is_deletable(const struct owners_resource *r);

#endif
