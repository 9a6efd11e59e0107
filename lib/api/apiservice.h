/*
 * Why an aggregated API group fails discovery, in the server's words: its
 * APIService (apiregistration.k8s.io/v1, named VERSION.GROUP) says, in
 * its Available condition, what the aggregator met ("ServiceNotFound:
 * service/metrics-server in \"kube-system\" is not present",
 * "FailedDiscoveryCheck: ... 503"). Discovery itself only says "stale".
 *
 * Ownership: nothing is kept; the client is borrowed.
 */
#ifndef OWNERS_APISERVICE_H
#define OWNERS_APISERVICE_H

#include <stddef.h>

#include "buf.h"
#include "http.h"

/* From an APIService's body: "APIService NAME is not available: REASON:
 * MESSAGE" appended to out when its Available condition is not True. 1
 * when it said so, 0 when it is available or says nothing, OWNERS_EPROTO
 * for garbage, OWNERS_ENOMEM. */
int owners_apiservice_unavailable(struct owners_buf *out, const char *data, size_t len);
/* GETs the APIService of group_version ("metrics.k8s.io/v1beta1") and
 * appends why it is unavailable. 1 when it did, else 0 (it cannot be read,
 * or it says nothing): no words then. */
int owners_apiservice_reason(struct owners_http_client *c, const char *group_version, struct owners_buf *out);

#endif
