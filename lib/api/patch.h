/*
 * Patch builders: the request bodies that change an object only if nobody
 * else changed it since it was read.
 *
 * Why a JSON merge patch carrying metadata.resourceVersion (sent as
 * application/merge-patch+json): the apiserver applies the patch, then
 * updates the object on the condition that its resourceVersion is still
 * the one in the patch, and answers 409 Conflict otherwise: the signal to
 * re-read, re-decide and retry, the same one an update (PUT) gives. A JSON
 * patch with a "test" op on /metadata/resourceVersion also refuses, but
 * with 422 Invalid, which cannot be told apart from a malformed patch. A
 * strategic merge patch could delete one list item by key, but
 * ownerReferences merge by uid, and a conflict would go unnoticed.
 *
 * A merge patch replaces a list whole, so the kept ownerReferences are
 * re-emitted verbatim, every field as read (unknown ones too), in their
 * order.
 *
 * Ownership: the caller owns out; the inputs are borrowed.
 */
#ifndef OWNERS_PATCH_H
#define OWNERS_PATCH_H

#include "buf.h"
#include "owners_error.h"
#include "json.h"

#define OWNERS_MERGE_PATCH_TYPE "application/merge-patch+json"

/* Every conditional patch starts {"metadata":{"resourceVersion":RV, and
 * the caller adds its fields to the returned generator; owners_patch_end()
 * closes it and frees the generator. An empty RV is refused
 * (OWNERS_EINVAL): there is no unconditional write. */
int owners_patch_begin(struct owners_json_gen **gen, struct owners_buf *out,
		       const char *resource_version, struct owners_error *err);
int owners_patch_end(struct owners_json_gen *gen);

/* Appends {"metadata":{"resourceVersion":RV,"ownerReferences":[...]}} to
 * out, keeping refs->items[i] where keep[i] is non-zero. refs is the
 * object's metadata.ownerReferences as read (an array; NULL for none).
 * api_versions (may be NULL; entries may be NULL) gives a kept reference
 * another apiVersion, every other field as read: a reference repaired to a
 * served version. When nothing is kept, ownerReferences is null (the field
 * is removed). resource_version must be non-empty: an unconditional patch
 * is refused with OWNERS_EINVAL. */
int owners_patch_owner_refs(struct owners_buf *out, const char *resource_version,
			    const struct owners_json_value *refs, const unsigned char *keep,
			    const char *const *api_versions, struct owners_error *err);

#endif
