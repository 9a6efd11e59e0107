/*
 * Request bodies that take finalizers off an object only if nobody changed
 * it since it was read: the writes behind `owners finalizers remove`.
 *
 * metadata.finalizers: a JSON merge patch (application/merge-patch+json)
 *
 *	{"metadata":{"resourceVersion":"RV","finalizers":["kept",...]}}
 *
 * carrying the resourceVersion read and the list of the finalizers that
 * stay (null when none stays: the field goes). The apiserver applies it to
 * the object it holds and stores the result only if the resourceVersion is
 * still RV; otherwise it answers 409 Conflict, and the caller re-reads,
 * re-decides and retries. So a finalizer another client added, or a label
 * it changed, in between is never lost. Why not the alternatives:
 *  - a JSON patch with "test" ops refuses a changed object with 422, which
 *    cannot be told apart from a malformed patch, and index-based "remove"
 *    ops go wrong when the list was reordered;
 *  - a strategic merge patch ($deleteFromPrimitiveList) is not supported
 *    for custom resources, where stuck finalizers are most common;
 *  - a full-object PUT (what knsk-style scripts do) rewrites every field as
 *    read, so it needs the whole object and races everything else.
 *
 * A Namespace's spec.finalizers can only be changed through its `finalize`
 * subresource, which takes a PUT of the whole Namespace: the object as read
 * (GET, in full) with spec.finalizers filtered, every other field re-emitted
 * verbatim, metadata.resourceVersion included, so a concurrent change gives
 * the same 409.
 *
 * Both builders refuse (OWNERS_EINVAL) without a resourceVersion: there is
 * no unconditional write here.
 *
 * Ownership: the caller owns out; the inputs are borrowed.
 */
#ifndef OWNERS_FINALIZER_PATCH_H
#define OWNERS_FINALIZER_PATCH_H

#include <stddef.h>

#include "buf.h"
#include "owners_error.h"
#include "json.h"

#define OWNERS_FINALIZER_PATCH_TYPE "application/merge-patch+json"

/* Appends the merge patch keeping keep[0..n_keep) (in that order). */
int owners_finalizer_patch(struct owners_buf *out, const char *resource_version,
			   const char *const *keep, size_t n_keep, struct owners_error *err);

/* Appends the body of PUT .../namespaces/NAME/finalize: the Namespace
 * `object` as read, with spec.finalizers[i] kept where keep[i] is non-zero
 * (keep has one entry per item of spec.finalizers). */
int owners_namespace_finalize_body(struct owners_buf *out, const struct owners_json_value *object,
				   const unsigned char *keep, struct owners_error *err);

#endif
