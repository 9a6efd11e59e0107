/*
 * What an object that is not a pod names and uses (uses.h): an Ingress's
 * backends, TLS Secrets and class; an IngressClass's parameters; a
 * Gateway's class and certificates and a route's parents and backends
 * (Gateway API, where served); a claim's volume and a volume's claim,
 * their StorageClass; a VolumeAttachment's volume and node; a binding's
 * role and its ServiceAccount subjects (and the Users that are ServiceAccounts
 * by their username, system:serviceaccount:NS:NAME); a ServiceAccount's Secrets; an
 * HPA's target; the Pods an EndpointSlice's endpoints are (what its
 * Service, its owner, routes to: what the cluster routes, where a
 * selector only says what it would); the Service an APIService, a
 * webhook configuration or a CRD's conversion calls; the ServiceAccount a
 * token Secret is of. Marks (uses.h) say which classes are the default
 * and which EndpointSlices have endpoints. Each as the API defaults it: a
 * route's backend with no kind is a Service in the route's namespace, a RoleBinding's
 * ServiceAccount subject with no namespace is in the binding's.
 * Selectors (a Service's, a PDB's, a NetworkPolicy's) are not names:
 * they are resolved against the Pods, elsewhere.
 *
 * Ownership: the object read is borrowed.
 */
#ifndef OWNERS_OBJECT_USES_H
#define OWNERS_OBJECT_USES_H

#include "json.h"
#include "uses.h"

/* Whether objects of group/kind name others this way (the types whose
 * whole objects a command asking for uses must read). */
int owners_object_uses_kind(const char *group, const char *kind);
/* Whether objects of group/kind can name an object of used_group/
 * used_kind (a field that names any kind can name it). */
int owners_object_uses_may_name(const char *group, const char *kind, const char *used_group,
				const char *used_kind);
/* Appends to out what object (of group/kind, read whole) names. 0, or
 * OWNERS_ENOMEM. */
int owners_object_uses_read(struct owners_uses *out, const struct owners_json_value *object,
			    const char *group, const char *kind);

#endif
