/*
 * Renders scale-first's plan (`owners delete --scale-first
 * --dry-run=client`) from the scale plan (scale_down.h) and what was read
 * of each of its workloads: nothing is changed, the reads say where each
 * one stands now and what its scale-down would do.
 *
 *   scale first, top-down (dry run, nothing changed):
 *     ns/deployment.apps/web  pause, scale 3 -> 0 (scale subresource), then wait for its
 *       replicas to go (up to 30s)                          (one line, folded here)
 *     ns/replicaset.apps/web-5d  scaled down with its owner (else scale 3 -> 0)
 *     ns/statefulset.apps/db  scale 3 -> 0 (scale subresource), then wait for its replicas
 *       to go, one at a time in reverse ordinal order (up to 30s each, 90s in all)
 *     ns/daemonset.apps/agent  cannot be scaled: its pods go with the cascade
 *     ns/job.batch/load  at 0, wait: 1 replica left
 *     ns/deployment.apps/old  gone
 *
 * A read that failed ends the plan: its workload's line names it and
 * says nothing more (the caller reports the error).
 *
 * Ownership: appends to out; everything else is borrowed.
 */
#ifndef OWNERS_OPS_SCALE_PLAN_RENDER_H
#define OWNERS_OPS_SCALE_PLAN_RENDER_H

#include <stddef.h>

#include "buf.h"
#include "graph.h"
#include "scale_down.h"

/* What was read of one target of the plan (unused for OWNERS_SCALE_NONE,
 * which is not read). */
struct owners_scale_plan_read {
	int rc; /* 0: state read; OWNERS_ENOTFOUND: gone; else the read failed */
	struct owners_scale_state state;
};

/* The plan's heading, then a line for each of its first n_read targets
 * (reads: one per target, in the plan's order). Nothing for an empty
 * plan. 0, or OWNERS_ENOMEM. */
int owners_scale_plan_render(struct owners_buf *out, const struct owners_graph *g,
			     const struct owners_scale_plan *sp,
			     const struct owners_scale_plan_read *reads, size_t n_read);

#endif
