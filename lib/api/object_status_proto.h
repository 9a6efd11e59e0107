/*
 * The fields READY/STATUS are read from (object_status.c), for the
 * built-in kinds that have them, as Kubernetes' protobuf numbers them
 * (k8s.io/api generated.proto: core/v1, apps/v1, batch/v1): a whole
 * object of such a kind, listed in protobuf, reads to the same small JSON
 * tree its JSON would give for those fields (lib/codec/proto_tree.h), so
 * owners_object_status_read() needs no second implementation.
 *
 * A kind without a schema here (a custom resource, another built-in) is
 * read from JSON, as before.
 */
#ifndef OWNERS_OBJECT_STATUS_PROTO_H
#define OWNERS_OBJECT_STATUS_PROTO_H

#include <stddef.h>

#include "proto_tree.h"

/* The schema of a whole object of group/kind, or NULL: read with
 * owners_proto_tree(), an object is {"metadata": {"uid", "generation"},
 * "spec": {...}, "status": {...}}. */
const struct owners_proto_schema *owners_object_status_proto_schema(const char *group, const char *kind);

#endif
