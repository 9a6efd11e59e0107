/*
 * What exists to be used and nothing uses: what `owners unused` lists.
 * The kinds: ConfigMaps, Secrets, PersistentVolumeClaims,
 * PersistentVolumes, ServiceAccounts, Services, Roles, ClusterRoles,
 * StorageClasses, PriorityClasses and IngressClasses. One of them is
 * unused when no live object uses it (lib/ops/usage.h says which uses
 * count), no live owner keeps it, and it is not being deleted; each
 * finding says why, in words for its kind:
 *
 *   PersistentVolume  Released (its claim is gone) or Available (no claim
 *                     is bound to it): a claim bound to it uses it
 *   Service           no endpoints (no EndpointSlice of it has one), its
 *                     selector matches no Pod (or it has none), and
 *                     nothing routes to it or calls it
 *   ServiceAccount    no Pod or template runs as it (a binding that
 *                     names it grants to it, and uses nothing)
 *   Secret            a service-account token of a ServiceAccount that
 *                     exists is that account's: kept
 *   classes           the default one (new objects that name none get
 *                     it) is kept
 *
 * The cluster's own are never listed: what is in kube-system,
 * kube-public and kube-node-lease, each namespace's kube-root-ca.crt
 * ConfigMap and default ServiceAccount, the kubernetes Service, roles
 * named system:* or labelled kubernetes.io/bootstrapping=rbac-defaults,
 * ClusterRoles aggregated into others (rbac.authorization.k8s.io/
 * aggregate-to-*), PriorityClasses named system-*, and Helm's release
 * records (labelled owner=helm).
 *
 * Where a type that could use an object was not read (its list failed,
 * was forbidden, lay outside the scan), the object is unknown, never
 * unused.
 *
 * Ownership: a report owns its reasons (owners_unused_report_clear());
 * the relations and the graph are borrowed.
 */
#ifndef OWNERS_UNUSED_H
#define OWNERS_UNUSED_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "graph.h"
#include "print_options.h"
#include "relations.h"

enum owners_unused_state {
	OWNERS_UNUSED_UNUSED,
	OWNERS_UNUSED_UNKNOWN, /* its possible users could not all be read */
};

struct owners_unused_finding {
	uint32_t node;
	enum owners_unused_state state;
	char *reason;
};

struct owners_unused_report {
	struct owners_unused_finding *items;
	size_t count, cap;
};

/* Whether objects of group/kind exist to be used (unused looks at them). */
int owners_unused_kind(const char *group, const char *kind);
/* Looks at node (of such a kind): adds a finding when it is unused or
 * unknown. 0, or OWNERS_ENOMEM. */
int owners_unused_check(struct owners_unused_report *rep, const struct owners_relations *rel,
			const struct owners_graph *g, uint32_t node);
/* By kind, namespace, name, UID. */
void owners_unused_report_sort(struct owners_unused_report *rep, const struct owners_graph *g);
void owners_unused_report_clear(struct owners_unused_report *rep);
const char *owners_unused_state_name(enum owners_unused_state s);

struct owners_unused_render {
	const struct owners_graph *g;
	const struct owners_unused_report *rep;
	struct owners_print_options print;
};

/* NAMESPACE NAME AGE STATE REASON. */
int owners_unused_render_text(struct owners_buf *out, const struct owners_unused_render *r);
/* {kind: OwnersUnused, items: [{object, owners: {state, reason}}]}. */
int owners_unused_render_json(struct owners_buf *out, const struct owners_unused_render *r);
/* The unused ones alone (not the unknown), kind.group/name a line: what
 * can be piped to owners delete --if-unused. */
int owners_unused_render_names(struct owners_buf *out, const struct owners_unused_render *r);

#endif
