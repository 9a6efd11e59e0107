/*
 * REST paths of the Kubernetes API: /api/v1/... for the core group,
 * /apis/GROUP/VERSION/... for the others; names and namespaces are
 * percent-encoded.
 */
#ifndef OWNERS_API_PATH_H
#define OWNERS_API_PATH_H

#include "buf.h"
#include "resource.h"

/* The collection: ns NULL or "" lists across all namespaces (or a
 * cluster-scoped type). */
int owners_api_path_collection(struct owners_buf *out, const struct owners_resource *r,
			       const char *ns);
/* One object, optionally a subresource ("finalize", "status"; NULL none). */
int owners_api_path_object(struct owners_buf *out, const struct owners_resource *r,
			   const char *ns, const char *name, const char *subresource);
/* "deployments.apps", "pods": how kubectl names a type. */
int owners_api_type_name(struct owners_buf *out, const struct owners_resource *r);

#endif
