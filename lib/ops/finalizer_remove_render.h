/*
 * Renders what `owners finalizers remove` did (finalizer_remove.h, and the
 * releases of orphan_release.h before it): text for people, JSON for
 * programs.
 *
 * Text: for each object, first a line per kind of release made for its
 * `orphan` finalizer (released, would release, could not), then one line
 * saying what was done and the end state; an object refused, not found or
 * failed has none (its message is the caller's to report):
 *
 *   configmap/o: released its dependents first: configmap/a, pod/b (namespace x)
 *   configmap/o: removed orphan; gone
 *   pod/p: removed example.com/hold; still there, being deleted, waiting for other
 *   namespace/n: would remove kubernetes (spec.finalizers, through finalize) (dry run: nothing was changed)
 *
 * JSON (stable; fields are only ever added):
 *   {"kind": "OwnersFinalizerRemoval", "apiVersion": "owners.dev/v1",
 *    "dryRun": BOOL,
 *    "items": [{"kind", "apiVersion", "namespace" (absent when cluster-scoped),
 *               "name", "uid" (absent when not found),
 *               "result": owners_finalizer_remove_result_name(),
 *               "message": why (refused, failed, left; absent otherwise),
 *               "removed": [{"name", "field": "metadata.finalizers" | "spec.finalizers"}],
 *               "finalizersLeft": [{"name", "field"}],
 *               "deleting": BOOL, "writes": N,
 *               "releasedDependents": owners_orphan_release_json(), [] when
 *               none were}...]}
 *
 * Ownership: appends to out; everything else is borrowed.
 */
#ifndef OWNERS_FINALIZER_REMOVE_RENDER_H
#define OWNERS_FINALIZER_REMOVE_RENDER_H

#include <stddef.h>

#include "buf.h"
#include "finalizer_remove.h"
#include "graph.h"
#include "orphan_release.h"

struct owners_scan_warning;

struct owners_finalizer_remove_render {
	/* targets[i] goes with outcomes[i] and, releases non-NULL, with
	 * releases[i], whose nodes are g's (g may be NULL when no release
	 * has items) */
	const struct owners_finalizer_remove_target *targets;
	const struct owners_finalizer_remove_outcome *outcomes;
	const struct owners_orphan_release *releases;
	size_t n;
	const struct owners_graph *g;
	int dry_run; /* JSON: "dryRun" */
	/* JSON: what the scan could not see, every type named */
	const struct owners_scan_warning *warnings;
	size_t n_warnings;
};

int owners_finalizer_remove_render_text(struct owners_buf *out,
					const struct owners_finalizer_remove_render *r);
int owners_finalizer_remove_render_json(struct owners_buf *out,
					const struct owners_finalizer_remove_render *r);

#endif
