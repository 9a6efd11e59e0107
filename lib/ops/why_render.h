/*
 * Renders an owners_why answer: text for a person (the verdict on the
 * first line, then the reasons), and the JSON document for scripts.
 *
 * JSON (stable; fields are only ever added), kind OwnersWhy, apiVersion
 * owners.dev/v1:
 *   { "kind": "OwnersWhy", "apiVersion": "owners.dev/v1",
 *     "object": OBJECT (with "creationTimestamp", "deletionTimestamp",
 *               "finalizers"),
 *     "verdict": kept | collected | never-collected | waiting | blind,
 *     "rule": the garbage collector's rule, one sentence,
 *     "because": OWNER or null (the reference that decides),
 *     "owners": [OWNER...] (up to the roots, breadth first),
 *     "finalizers": [{"name", "field", "remover" (null: none known),
 *                     "waitsFor", "reason", "message", "objects": [OBJECT...],
 *                     "pods": [{"name", "holds"}], "content": [{"resource",
 *                     "group", "count"}], "contentTypesNotListed", "conditions":
 *                     [{"type", "reason", "message"}], "remove" (command), "risk"}],
 *     "ifDeleted": [{"owner": OWNER | "self": true, "background",
 *                    "foreground", "orphan"}]  (owner: the object's fate,
 *                   collected | released | kept; self: its dependents'
 *                   {"collected", "released", "kept"} counts),
 *     "dependents": {"count", "kinds": [{"kind", "count"}], "blocking": [OBJECT...]},
 *     "events": [{"type", "reason", "message", "source", "count", "lastTimestamp"}],
 *     "otherEvents": N, "eventsError" (when the list failed),
 *     "gcEvidence": {"state": running | appears-stopped | unknown, "reason"}
 *               (what a "collected" verdict rests on: the GC running),
 *     "usedBy": [RELATION...] (its live users: what a delete of it breaks),
 *     "usersUnseen": [{"resource", "group", "namespace", "message"}]
 *               (types that could use it and could not be read),
 *     "usesMissing": [RELATION...] (what it names that does not exist, or
 *               cannot be seen: state missing | unknown),
 *     "warnings": [STRING...] }
 *   OWNER: the reference ("apiVersion", "kind", "name", "uid",
 *     "controller", "blockOwnerDeletion"), plus "namespace" (namespaced
 *     owners), "dependentUid" (whose reference), "depth", "state" (live |
 *     in-deletion | absent | uid-mismatch | invalid-namespace | unresolvable
 *     | unknown), "deletion" (foreground | orphan | background, in
 *     deletion), "solid", "blocks", "gcBlind".
 *   RELATION: {"relation" (its key: mounts, envFrom, runsAs, routesTo...),
 *     "words", "path" (the user's field), "optional", "state" (found |
 *     missing | unknown), "user": OBJECT, "used": OBJECT (as the use names
 *     it, with "group", when it does not exist)}.
 *
 * Ownership: appends to out; everything else is borrowed.
 */
#ifndef OWNERS_WHY_RENDER_H
#define OWNERS_WHY_RENDER_H

#include <stddef.h>
#include <stdint.h>

#include "print_options.h"
#include "buf.h"
#include "collector_render.h"
#include "relations.h"
#include "usage.h"
#include "why.h"
#include "why_events.h"

struct owners_why_render {
	const struct owners_graph *g;
	const struct owners_why *why;
	const struct owners_why_events *events;
	struct owners_print_options print; /* warnings */
	size_t max_list;            /* text: objects named per list; 0: 10 */
	/* What is known of the cluster's GC running (NULL: not read): a
	 * "collected" verdict rests on it, and says so. */
	const struct owners_collector_render *gc;
	/* Its relations (NULL: not read): who uses it (usage) and what it
	 * uses that does not exist. */
	const struct owners_relations *rel;
	const struct owners_usage *usage;
	/* Not read because the source does not hold them (a snapshot taken
	 * with --related=false): the text says so. */
	int relations_not_recorded;
};

int owners_why_render_text(struct owners_buf *out, const struct owners_why_render *r);
/* The document (lib/graph/document_json.h): one item, the object, with
 * what decides its fate under owners. */
int owners_why_render_json(struct owners_buf *out, const struct owners_why_render *r);
/* -o name: the object, "pod/web-1" as kubectl delete takes it. */
int owners_why_render_names(struct owners_buf *out, const struct owners_why_render *r);

#endif
