/*
 * Renders an owners_stuck_report: text for people, JSON for programs.
 *
 * Text: one block per object asked for, its finalizers below it, and under
 * each finalizer what it waits on; objects that are themselves stuck are
 * explained in place, recursively (an object already being explained
 * higher up is not expanded again).
 *
 *   Deployment/web in namespace default: deleting for 2m
 *     foregroundDeletion: waiting for 1 dependent that blocks owner deletion ...
 *       ReplicaSet/web-7d9c: not being deleted yet (the garbage collector deletes it first)
 *
 * JSON (stable; fields are only ever added), kind OwnersFinalizers,
 * apiVersion owners.dev/v1:
 *
 *   { "kind": "OwnersFinalizers", "apiVersion": "owners.dev/v1",
 *     "namespace": "default",            (absent with all namespaces)
 *     "items": [OBJECT...],              (the objects asked for, sorted)
 *     "warnings": ["..."] }              (types that could not be listed, ...)
 *   OBJECT: { "kind", "apiVersion", "namespace" (absent when cluster-scoped),
 *     "name", "uid",
 *     "deletionTimestamp": RFC 3339, absent when not in deletion,
 *     "stuckSeconds": seconds since deletionTimestamp (stuck objects),
 *     "state": "stuck" | "deleting" (no finalizers left) | "live",
 *     "error": why its details could not be read (optional),
 *     "finalizers": [FINALIZER...]       (stuck objects only),
 *     "cycle": true                      (already explained on this path: not expanded) }
 *   FINALIZER: { "name", "field": "metadata.finalizers" | "spec.finalizers",
 *     "reason": owners_stuck_reason_name(), "message": one sentence,
 *     "objects": [OBJECT...]             (blocking-dependents,
 *                                         dependents-to-release; for
 *                                         namespace-content the content
 *                                         stuck in deletion),
 *     "content": [{"resource", "group", "kind", "count", "stuck"}...],
 *     "contentObjects": N, "contentTypesNotListed": N   (namespace),
 *     "conditions": [{"type", "status", "reason", "message"}...] (namespace,
 *                                         the True ones),
 *     "pods": [{"name", "nodeName", "phase", "holds": bool}...] (pvc-protection),
 *     "claim": {"namespace", "name"}     (pv-protection, when bound) }
 *
 * Ownership: appends to out; everything else is borrowed.
 */
#ifndef OWNERS_STUCK_RENDER_H
#define OWNERS_STUCK_RENDER_H

#include <stddef.h>
#include <stdint.h>

#include "print_options.h"
#include "buf.h"
#include "graph.h"
#include "stuck.h"

struct owners_stuck_render {
	struct owners_graph *g;
	const struct owners_stuck_report *rep;
	struct owners_print_options print; /* now, color, warnings */
	const char *namespace_;     /* the namespace of the run; NULL: all namespaces */
	size_t max_list;            /* text: objects shown per list; 0: 20 */
};

int owners_stuck_render_text(struct owners_buf *out, const struct owners_stuck_render *r);
/* The document (lib/graph/document_json.h): an item per object asked
 * about, what holds it under owners, the objects that hold it items
 * again. */
int owners_stuck_render_json(struct owners_buf *out, const struct owners_stuck_render *r);
/* -o name: each object asked about, "persistentvolumeclaim/data" as
 * kubectl delete and owners finalizers remove take it, one a line. */
int owners_stuck_render_names(struct owners_buf *out, const struct owners_stuck_render *r);

#endif
