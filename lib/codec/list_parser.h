/*
 * Streaming parser for Kubernetes list responses: a
 * PartialObjectMetadataList (what the scanner asks for, with
 * "Accept: application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1")
 * or any ordinary full list (PodList, ...). Both carry items[].metadata,
 * which is all this parser reads.
 *
 * The body is fed chunk by chunk as it arrives and is never held whole.
 * For each item the parser calls on_item with the item's metadata; every
 * other field (managedFields, annotations, spec, status, unknown fields at
 * any depth) is skipped without being copied. Memory stays bounded by the
 * largest single item's kept metadata: the buffers are reused from one item
 * to the next.
 *
 * It also records the list's own metadata (continue, resourceVersion,
 * remainingItemCount) and the document's kind/apiVersion.
 *
 * A document of the wrong shape (not JSON, truncated, items not an array, a
 * string where an object is expected, ...) fails with OWNERS_EPROTO and a
 * message that names the place, e.g.
 * "unexpected list response: 'items[2].metadata' is a string, expected an object".
 * A document without "items" fails in owners_list_parser_finish(); when it
 * was a Status (kind "Status"), the message carries the Status's reason and
 * message, and owners_list_parser_kind() says "Status". Failing rather than
 * reporting an empty list is deliberate: a caller that forgot to look at
 * the kind must never conclude that a type has no objects.
 *
 * Ownership: the parser owns everything it hands out. The object_meta given
 * to on_item (and every string in it) is valid only during that call. The
 * getters' strings are valid until owners_list_parser_reset() or _free().
 *
 * Usage, one page:
 *
 *	owners_list_parser_new(&p, 0, on_item, ctx);
 *	for each chunk: owners_list_parser_feed(p, chunk, len, &err);
 *	owners_list_parser_finish(p, &err);
 *	next = owners_list_parser_continue_token(p);
 *	owners_list_parser_reset(p);   (then the next page or a retry)
 */
#ifndef OWNERS_LIST_PARSER_H
#define OWNERS_LIST_PARSER_H

#include <stddef.h>
#include <stdint.h>

#include "owners_error.h"
#include "object_meta.h"

struct owners_list_parser;

/*
 * Called once per item, in document order, when the item's closing brace
 * is read. Returns 0 to go on; a negative OWNERS_E* code stops the parse
 * and is returned by the feed in progress (a positive value stops it too,
 * reported as OWNERS_EINVAL). The callback may record a message in err;
 * when it does not, the message is the code's generic text.
 */
typedef int (*owners_list_parser_item_fn)(void *ctx, const struct owners_object_meta *meta,
					  struct owners_error *err);

/* keep_labels: fill meta->labels (otherwise labels are skipped like
 * annotations and n_labels is 0). Returns 0 or OWNERS_ENOMEM. */
int owners_list_parser_new(struct owners_list_parser **out, int keep_labels,
			   owners_list_parser_item_fn on_item, void *ctx);
void owners_list_parser_free(struct owners_list_parser *p);

/* Feeds the next chunk (any size, split anywhere, len may be 0). Returns 0,
 * OWNERS_EPROTO, OWNERS_ENOMEM or the callback's code. After a failure,
 * every further feed/finish returns the same code until a reset. */
int owners_list_parser_feed(struct owners_list_parser *p, const char *data, size_t len,
			    struct owners_error *err);
/* After the last chunk: a truncated document, or one without "items", is
 * OWNERS_EPROTO. */
int owners_list_parser_finish(struct owners_list_parser *p, struct owners_error *err);
/* Forgets the document (and any failure) so the parser takes a new one:
 * the next page, or a retry. Keeps the buffers, so pages after the first
 * allocate nothing new. */
void owners_list_parser_reset(struct owners_list_parser *p);

/* ---- what the document said (borrowed; "" when absent) --------------- */

const char *owners_list_parser_kind(const struct owners_list_parser *p);
const char *owners_list_parser_api_version(const struct owners_list_parser *p);
/* metadata.continue: "" on the last page. */
const char *owners_list_parser_continue_token(const struct owners_list_parser *p);
/* metadata.resourceVersion of the list. */
const char *owners_list_parser_resource_version(const struct owners_list_parser *p);
/* metadata.remainingItemCount, or -1 when the server did not send it. */
int64_t owners_list_parser_remaining_item_count(const struct owners_list_parser *p);
/* Items handed to on_item so far in this document. */
size_t owners_list_parser_item_count(const struct owners_list_parser *p);

#endif
