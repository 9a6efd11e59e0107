/*
 * A metadata list in Kubernetes' protobuf encoding: what the apiserver sends
 * for "Accept: application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;
 * g=meta.k8s.io;v=v1" (about a quarter of the JSON's bytes, and several
 * times faster to produce and to read). The body is the 4-byte magic
 * "k8s\0" and a runtime.Unknown whose raw bytes are the list.
 *
 * The body is decoded as it arrives, as the JSON list parser does: each
 * item is unpacked (protobuf-c, with the code it generates from
 * lib/codec/proto/k8s_list.proto; fields owners does not read are passed
 * over) and reaches the same callback as soon as its last byte is in, so
 * what is held is one item, not the page. The scan is the same whatever
 * the server speaks.
 *
 *	owners_list_proto_new(&p, on_item, ctx);
 *	for each chunk: owners_list_proto_feed(p, chunk, len, &err);
 *	owners_list_proto_finish(p, &continue_token, &err);
 *	owners_list_proto_reset(p);   (then the next page or a retry)
 *
 * A body that is not such a list (no magic, another kind, a truncated or
 * malformed message) fails with OWNERS_EPROTO and a message saying what;
 * items before the fault have been handed on (as with JSON). The envelope
 * must name its kind before its list, as Kubernetes writes it: items are
 * read only from a PartialObjectMetadataList. After an error only a reset
 * goes on.
 *
 * Ownership: the object_meta given to on_item is valid only during the
 * call; *continue_token is the caller's to free (NULL on the last page).
 */
#ifndef OWNERS_LIST_PROTO_H
#define OWNERS_LIST_PROTO_H

#include <stddef.h>

#include "owners_error.h"
#include "list_parser.h"

#define OWNERS_PROTOBUF_TYPE "application/vnd.kubernetes.protobuf"

struct owners_list_proto;

int owners_list_proto_new(struct owners_list_proto **out, owners_list_parser_item_fn on_item,
			  void *ctx);
void owners_list_proto_free(struct owners_list_proto *p);
/* Fill meta->labels for each item (by default labels are skipped and
 * n_labels is 0, as with the JSON parser). Survives a reset. */
void owners_list_proto_keep_labels(struct owners_list_proto *p, int keep);
/* Hands each item's bytes (a whole object, of any "<Kind>List") to fn
 * instead of reading its metadata: for readers of whole objects in
 * protobuf (status_fetch.c). The bytes are valid during the call. */
typedef int (*owners_list_proto_raw_fn)(void *ctx, const char *item, size_t len, struct owners_error *err);
void owners_list_proto_raw_items(struct owners_list_proto *p, owners_list_proto_raw_fn fn, void *ctx);
int owners_list_proto_feed(struct owners_list_proto *p, const char *data, size_t len,
			   struct owners_error *err);
/* The page is all there: fails if it stopped short of its end. */
int owners_list_proto_finish(struct owners_list_proto *p, char **continue_token, struct owners_error *err);
void owners_list_proto_reset(struct owners_list_proto *p);
/* The list's continue token as soon as its ListMeta is read (the list
 * begins with it), before the items; NULL until then and on the last
 * page. finish() still hands over the one the page ends with. */
const char *owners_list_proto_continue_token(const struct owners_list_proto *p);
/* The list's metadata.resourceVersion once its ListMeta is read ("" until
 * then): the point a watch of the type starts from. */
const char *owners_list_proto_resource_version(const struct owners_list_proto *p);
/* Bytes the decoder has allocated for what it holds between chunks. */
size_t owners_list_proto_held(const struct owners_list_proto *p);

/* A whole page at once. */
int owners_list_proto_decode(const char *data, size_t len, owners_list_parser_item_fn on_item,
			     void *ctx, char **continue_token, struct owners_error *err);

#endif
