/*
 * REST paths of the Kubernetes API: /api/v1/... for the core group,
 * /apis/GROUP/VERSION/... for the others; names and namespaces are
 * percent-encoded.
 *
 * Ownership: every function appends to the caller's buffer; the inputs
 * are borrowed.
 */
#ifndef OWNERS_API_PATH_H
#define OWNERS_API_PATH_H

#include "buf.h"
#include "resource.h"

/* What a GET of one object asks for: its metadata alone
 * (PartialObjectMetadata), or the whole object from a server that cannot
 * say it otherwise. */
#define OWNERS_ACCEPT_OBJECT_METADATA \
	"application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json"

/* The collection: ns NULL or "" lists across all namespaces (or a
 * cluster-scoped type). */
int owners_api_path_collection(struct owners_buf *out, const struct owners_resource *r,
			       const char *ns);
/* One object, optionally a subresource ("finalize", "status"; NULL none). */
int owners_api_path_object(struct owners_buf *out, const struct owners_resource *r,
			   const char *ns, const char *name, const char *subresource);
/* "deployments.apps", "pods": how kubectl names a type. */
int owners_api_type_name(struct owners_buf *out, const struct owners_resource *r);
/* "deployment.apps/web", "pod/web-1": how kubectl names an object (-o name):
 * the kind in lower case, its group ("" for the core group), the name. */
int owners_api_object_name(struct owners_buf *out, const char *kind, const char *group,
			   const char *name);

#endif
