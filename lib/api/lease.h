/*
 * A coordination.k8s.io/v1 Lease, as far as owners reads one: when its
 * holder last renewed it and for how long that holds. The
 * controller-manager's leader lease (kube-system/kube-controller-manager)
 * is evidence of whether it runs: a lease not renewed for several of its
 * durations belongs to a controller-manager that has stopped.
 *
 * Ownership: nothing is kept; the client is borrowed.
 */
#ifndef OWNERS_LEASE_H
#define OWNERS_LEASE_H

#include <stdint.h>

#include "buf.h"
#include "http.h"

/* The controller-manager's leader lease: the evidence of whether the
 * cluster's garbage collector runs (read live, and recorded by a
 * snapshot at its path). */
#define OWNERS_GC_LEASE_NAMESPACE "kube-system"
#define OWNERS_GC_LEASE_NAME      "kube-controller-manager"
#define OWNERS_GC_LEASE_PATH                                                                       \
	"/apis/coordination.k8s.io/v1/namespaces/" OWNERS_GC_LEASE_NAMESPACE                       \
	"/leases/" OWNERS_GC_LEASE_NAME

struct owners_lease {
	int64_t renewed;   /* spec.renewTime (unix seconds), 0 when not set */
	long duration;     /* spec.leaseDurationSeconds, 0 when not set */
	/* the server's clock when it was read (its Date), 0 when not known:
	 * a lease's age is counted on it, not on this machine's clock, which
	 * may be off */
	int64_t read_at;
};

/* Reads the body of a Lease (JSON) into out: 0, or OWNERS_EPROTO. */
int owners_lease_parse(struct owners_lease *out, const char *data, size_t len);
/* GETs lease ns/name: 0, or the request's error code (OWNERS_ENOTFOUND,
 * OWNERS_EFORBIDDEN, ...): no verdict then. */
/* GETs lease ns/name as it is (its JSON appended to body), with the
 * server's clock then in *read_at (0 unknown). 0, or the request's code. */
int owners_lease_fetch(struct owners_http_client *c, const char *ns, const char *name, struct owners_buf *body,
		       int64_t *read_at);
int owners_lease_get(struct owners_http_client *c, const char *ns, const char *name, struct owners_lease *out);

#endif
