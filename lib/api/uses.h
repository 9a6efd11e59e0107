/*
 * One object's use of another, beside ownership: the relations of
 * owners(1), who uses what. A use goes from the object that uses (read
 * whole) to the object it names, with how it uses it, the field it comes
 * from ("spec.volumes[2].configMap") and whether it is optional (the
 * user works without it). pod_uses.c reads them from pod specs,
 * object_uses.c from every other kind that names objects; selectors
 * (which Pods a Service routes to) are resolved against the Pods
 * themselves, elsewhere.
 *
 * Ownership: a list owns its uses' strings (owners_uses_clear()).
 */
#ifndef OWNERS_USES_H
#define OWNERS_USES_H

#include <stdarg.h>
#include <stddef.h>

#include "list_items.h"

/* What of an object no reader of uses looks at: its status and its
 * metadata's managedFields (more than half of a Pod's JSON). A list read
 * for its uses leaves them out as it streams in (owners_list_items_new_trees()). */
#define OWNERS_USES_UNREAD_PARTS (OWNERS_LIST_ITEMS_NO_STATUS | OWNERS_LIST_ITEMS_NO_MANAGED_FIELDS)

/* How an object is used: the relation's word (owners_uses_how_name()). */
enum owners_use_how {
	OWNERS_USE_MOUNTS,           /* a volume of it (ConfigMap, Secret) */
	OWNERS_USE_MOUNTS_PROJECTED, /* a source of a projected volume */
	OWNERS_USE_ENV,              /* a key into a variable (env valueFrom) */
	OWNERS_USE_ENV_FROM,         /* every key into the environment (envFrom) */
	OWNERS_USE_PULLS_WITH,       /* imagePullSecrets */
	OWNERS_USE_CLAIMS,           /* a PersistentVolumeClaim mounted */
	OWNERS_USE_CLAIMS_TEMPLATE,  /* a StatefulSet's ordinals' claims */
	OWNERS_USE_RUNS_AS,          /* the ServiceAccount */
	OWNERS_USE_PRIORITY,         /* the PriorityClass */
	OWNERS_USE_RUNTIME,          /* the RuntimeClass */
	OWNERS_USE_RUNS_ON,          /* the Node */
	OWNERS_USE_ROUTES_TO,        /* a backend: Ingress, route -> Service (or a resource) */
	OWNERS_USE_TLS,              /* a certificate Secret: Ingress tls, Gateway listener */
	OWNERS_USE_CLASS,            /* IngressClass, GatewayClass, StorageClass */
	OWNERS_USE_PARAMETERS,       /* an IngressClass's parameters */
	OWNERS_USE_ATTACHES_TO,      /* a route's parent Gateway */
	OWNERS_USE_BINDS,            /* a binding's role (roleRef) */
	OWNERS_USE_GRANTS,           /* a binding's ServiceAccount subjects */
	OWNERS_USE_BOUND_TO,         /* a claim's volume, a volume's claim */
	OWNERS_USE_ATTACHES,         /* a VolumeAttachment's volume and node */
	OWNERS_USE_SCALES,           /* an HPA's scaleTargetRef */
	OWNERS_USE_HOLDS,            /* a ServiceAccount's Secrets */
	OWNERS_USE_CALLS, /* the Service the API machinery calls (APIService, webhooks, conversion) */
	OWNERS_USE_SELECTS,  /* a Pod its selector matches: Service, PDB, NetworkPolicy */
	OWNERS_USE_TOKEN_OF, /* a service-account token Secret's ServiceAccount */
};
/* The last of them (a record read back is checked against it). */
#define OWNERS_USE_HOW_LAST OWNERS_USE_TOKEN_OF

/* What an object read says of itself, beside what it names (marks). */
enum {
	/* A default class (StorageClass, IngressClass, the globalDefault
	 * PriorityClass): every new object that names none is given it. */
	OWNERS_USES_MARK_DEFAULT = 1u << 0,
	/* An EndpointSlice with an endpoint: its Service has endpoints. */
	OWNERS_USES_MARK_ENDPOINTS = 1u << 1,
};

struct owners_use {
	char *group; /* the used object's API group ("" core) */
	char *kind;
	char *namespace_; /* its namespace; NULL when cluster-scoped */
	/* Its name; for CLAIMS_TEMPLATE the claims' common stem
	 * "<template>-<statefulset>", each ordinal's claim being stem-N for
	 * N from first_ordinal, ordinals of them (owners_uses_names()). */
	char *name;
	long long first_ordinal, ordinals;
	char *path; /* the field it comes from, from the user's root */
	enum owners_use_how how;
	int optional; /* the user works without it */
};

struct owners_uses {
	struct owners_use *items;
	size_t count, cap;
	/* OWNERS_USES_MARK_* of the object last read: each reader ORs what
	 * it finds in, the caller zeroes it between objects. */
	unsigned marks;
};

/* What the used object is. */
struct owners_use_target {
	const char *group, *kind;
	const char *namespace_; /* NULL: cluster-scoped */
	const char *name;
};

void owners_uses_clear(struct owners_uses *u);
/* "mounts", "reads env from", "routes to", ...: the relation's word. */
const char *owners_uses_how_name(enum owners_use_how how);
/* "mounts", "envFrom", "routesTo", ...: the relation's key, one word, in
 * documents and snapshots. */
const char *owners_uses_how_key(enum owners_use_how how);
/* The relation whose key is key: 0, or OWNERS_EINVAL for none. */
int owners_uses_how_from_key(const char *key, enum owners_use_how *how);
/* Appends a use of t, how, at the path made from fmt. A target with no
 * name names nothing and is left out (0). 0, or OWNERS_ENOMEM. */
int owners_uses_add(struct owners_uses *out, const struct owners_use_target *t,
		    enum owners_use_how how, int optional, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* The same with the path's arguments in ap (a reader's own adder). */
int owners_uses_vadd(struct owners_uses *out, const struct owners_use_target *t,
		     enum owners_use_how how, int optional, const char *fmt, va_list ap)
	__attribute__((format(printf, 5, 0)));
/* Whether u names the object called name (of its kind and namespace):
 * its name, or for CLAIMS_TEMPLATE one of its ordinals' claims. */
int owners_uses_names(const struct owners_use *u, const char *name);

#endif
