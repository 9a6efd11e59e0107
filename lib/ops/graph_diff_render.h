/*
 * Renders an owners_graph_diff (graph_diff.h): text for people, the
 * Kubernetes-shaped document for programs. Ages are counted to B's time.
 *
 * Text: a heading per kind (kubectl's kind.group) and namespace, then one
 * line per change, "+" for an object that appeared, "-" for one that
 * went, "~" for any other change:
 *
 *   replicaset.apps in namespace shop:
 *     + web-7d9c     appeared, created 5m ago
 *     ~ web-5b6f     owner Deployment/web no longer its controller (in the last 10m)
 *   pod in namespace shop:
 *     ~ stuck        in deletion for 3m, held by example.com/hold
 *     ~ orphan       owner ReplicaSet/web-5b6f dangling: absent (in the last 10m)
 *
 * "(in the last 10m)": it happened between the two times, the first of
 * them 10m before the second (when it began is not recorded in the
 * objects). Nothing at all when there is no change.
 *
 * The document (lib/graph/document_json.h), kind OwnersDiff: metadata
 * {"before": SIDE, "after": SIDE, "notSeenBefore": N (objects of B that A
 * could not have seen), "notSeenAfter": N (the other way)} with SIDE
 * {"source", "time", "live"}; an item per object that changed
 * (B's copy when it has one), its changes under owners.changes, each
 * {"change" (owners_diff_change_name()), "since" (RFC 3339, absent when
 * unknown), "sinceExact", "ageSeconds", "finalizer", "owner" (the
 * reference's fields), "before" and "after" (how each side classifies the
 * reference, where it has it)}.
 *
 * Ownership: appends to out; everything else is borrowed.
 */
#ifndef OWNERS_GRAPH_DIFF_RENDER_H
#define OWNERS_GRAPH_DIFF_RENDER_H

#include "buf.h"
#include "graph_diff.h"
#include "print_options.h"

struct owners_graph_diff_render {
	const struct owners_graph_diff *d;
	/* now is unused: ages are counted to d->b.now; color: the markers;
	 * warnings: the document's */
	struct owners_print_options print;
	const char *source_a, *source_b; /* what each side was read from */
	int b_live;                      /* B is the live cluster */
};

int owners_graph_diff_render_text(struct owners_buf *out, const struct owners_graph_diff_render *r);
int owners_graph_diff_render_json(struct owners_buf *out, const struct owners_graph_diff_render *r);

#endif
