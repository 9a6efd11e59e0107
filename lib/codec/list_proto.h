/*
 * A metadata list in Kubernetes' protobuf encoding: what the apiserver sends
 * for "Accept: application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;
 * g=meta.k8s.io;v=v1" (about a quarter of the JSON's bytes, and several
 * times faster to produce and to read). The body is the 4-byte magic
 * "k8s\0" and a runtime.Unknown whose raw bytes are the list.
 *
 * One page is decoded at once (the list is paginated, so that is bounded
 * by --chunk-size), with protobuf-c and the code it generates from
 * lib/codec/proto/k8s_list.proto; fields owners does not read are passed over.
 * Each item reaches the same callback the JSON list parser calls, so the
 * scan is the same whatever the server speaks.
 *
 * A body that is not such a list (no magic, another kind, a truncated or
 * malformed message) fails with OWNERS_EPROTO and a message saying what.
 *
 * Ownership: the object_meta given to on_item is valid only during the
 * call; *continue_token is the caller's to free (NULL on the last page).
 */
#ifndef OWNERS_LIST_PROTO_H
#define OWNERS_LIST_PROTO_H

#include <stddef.h>

#include "error.h"
#include "list_parser.h"

#define OWNERS_PROTOBUF_TYPE "application/vnd.kubernetes.protobuf"

int owners_list_proto_decode(const char *data, size_t len, owners_list_item_fn on_item, void *ctx,
			     char **continue_token, struct owners_error *err);

#endif
