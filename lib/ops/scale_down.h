/*
 * Scaling a cascade's workloads to zero before it deletes them
 * (`owners delete --scale-first`): the graceful teardown of kubectl's old
 * reapers (pkg/kubectl/stop.go, removed in 1.11). A cascade deletes every
 * pod at once; a controller scaling down takes them in its own order (a
 * StatefulSet in reverse ordinal order, one at a time, each given its
 * grace period), which is what databases and quorum systems need.
 *
 * This file is the pure part: which objects of a cascade are scaled, in
 * which order (top-down: an owner before its dependents, so a Deployment's
 * controller takes its ReplicaSets down and they are found at 0 already),
 * how, and what a workload's state read back asks for next. The requests
 * are in scale_down_exec.c.
 *
 * How each kind goes to 0:
 *  - a type with a scale subresource (found through discovery, so custom
 *    resources whose CRD declares one too): spec.replicas 0 through it;
 *  - a Deployment: paused first (a rollout must not start a new
 *    ReplicaSet meanwhile), marked with OWNERS_SCALE_PAUSED_ANNOTATION so
 *    that a rerun and an interrupted run know the pause is ours, then
 *    scaled through its subresource; a Deployment the user paused is left
 *    paused and never resumed by owners;
 *  - a Job (no scale subresource): spec.parallelism 0;
 *  - a DaemonSet cannot be scaled: it is said, and cascaded as usual.
 * Done once its controller has observed the change (status.observedGeneration
 * at least metadata.generation, when the object reports one) and its
 * replicas are gone (status.replicas 0; a Job's status.active 0; and none
 * terminating, where the object reports it).
 *
 * Ownership: a plan owns its array; node indexes refer to the graph it
 * was made on.
 */
#ifndef OWNERS_SCALE_DOWN_H
#define OWNERS_SCALE_DOWN_H

#include <stddef.h>
#include <stdint.h>

#include "graph.h"
#include "json.h"

/* Put on a Deployment owners paused to delete it: an interrupted run
 * resumes only the Deployments that carry it, and a rerun knows the pause
 * is its own. */
#define OWNERS_SCALE_PAUSED_ANNOTATION "owners.dev/paused-for-delete"

enum owners_scale_how {
	OWNERS_SCALE_SUBRESOURCE, /* spec.replicas 0 through /scale */
	OWNERS_SCALE_DEPLOYMENT,  /* paused, then through /scale */
	OWNERS_SCALE_JOB,         /* spec.parallelism 0 */
	OWNERS_SCALE_NONE,        /* a DaemonSet: cannot be scaled */
};

struct owners_scale_target {
	uint32_t node;
	enum owners_scale_how how;
};

struct owners_scale_plan {
	struct owners_scale_target *targets; /* top-down */
	size_t count;
};

/* The objects of the cascade (member: g->count entries, 1 = deleted by
 * it) that are scaled, or said not to be, top-down from the roots (UIDs):
 * depth first from each root in the order given, an owner before what it
 * owns (members no root reaches come last, as the graph holds them). Objects
 * already in deletion are left out (their controller no longer acts on
 * them). 0 or OWNERS_ENOMEM. */
int owners_scale_plan_make(struct owners_scale_plan *out, const struct owners_graph *g,
			   const unsigned char *member, const char *const *roots, size_t n_roots);
void owners_scale_plan_clear(struct owners_scale_plan *p);

/* How an object of this type is scaled to 0; OWNERS_SCALE_NONE also for
 * types that are no workload at all (then the plan leaves them out). */
enum owners_scale_how owners_scale_how_for(const struct owners_node *n);
/* Whether a type is a workload that cannot be scaled (a DaemonSet). */
int owners_scale_unscalable_workload(const struct owners_node *n);

/* A workload as read back: the object, and for a type with a scale
 * subresource its Scale. -1: the field is absent. */
struct owners_scale_state {
	char resource_version[64]; /* the object's (a Scale carries the same) */
	int64_t generation;
	int64_t observed_generation;
	int64_t spec_replicas;   /* the Scale's spec.replicas (absent: 0, as a Scale
				    omits it); a Job's parallelism (absent: -1, not 0) */
	int64_t status_replicas; /* the Scale's status.replicas; a Job's status.active */
	/* the object's status.terminatingReplicas (a Deployment's or a
	 * ReplicaSet's since 1.33, a Job's status.terminating): pods going
	 * but not gone, which status.replicas no longer counts; 0 when absent */
	int64_t terminating;
	int paused;              /* a Deployment's spec.paused */
	int paused_by_owners;    /* ... with OWNERS_SCALE_PAUSED_ANNOTATION */
	int deleting;            /* metadata.deletionTimestamp set */
	/* For the plan's prediction: its pods go one at a time (a StatefulSet
	 * whose podManagementPolicy is not Parallel), each given up to
	 * grace_seconds (its pod template's terminationGracePeriodSeconds,
	 * 30 when the template has none; -1 without a pod template). */
	int one_at_a_time;
	int64_t grace_seconds;
};

/* Fills st from the object read in full and, for a type scaled through
 * its subresource, its Scale (may be NULL otherwise). 0, or
 * OWNERS_EPROTO when a document is not an object. */
int owners_scale_state_read(struct owners_scale_state *st, enum owners_scale_how how,
			    const struct owners_json_value *object, const struct owners_json_value *scale);

enum owners_scale_next {
	OWNERS_SCALE_NEXT_PAUSE,  /* pause the Deployment */
	OWNERS_SCALE_NEXT_SCALE,  /* set replicas (parallelism) to 0 */
	OWNERS_SCALE_NEXT_WAIT,   /* its controller is taking the pods down */
	OWNERS_SCALE_NEXT_DONE,   /* at 0, observed, no replica left */
};

/* What a workload at 0 still waits for, once spec.replicas is 0 (the
 * reason of owners_scale_next()'s WAIT, typed). */
enum owners_scale_wait {
	OWNERS_SCALE_WAIT_NONE,        /* nothing: done */
	OWNERS_SCALE_WAIT_OBSERVED,    /* its controller has not observed the change yet */
	OWNERS_SCALE_WAIT_REPLICAS,    /* replicas (a Job's active pods) left */
	OWNERS_SCALE_WAIT_TERMINATING, /* pods terminating */
};

enum owners_scale_wait owners_scale_wait_of(const struct owners_scale_state *st);

/* What a workload needs next, from its state; for WAIT, *why says what it
 * waits for ("its controller has not observed generation 4 (observed 3)",
 * "2 replicas left"), written to why (size bytes). */
enum owners_scale_next owners_scale_next(const struct owners_scale_state *st,
					 enum owners_scale_how how, char *why, size_t size);

/* The merge patches, each conditional on the resourceVersion read (an
 * empty one is refused: OWNERS_EINVAL):
 *  pause:  spec.paused true and the annotation;
 *  resume: spec.paused false and the annotation removed;
 *  scale:  the Scale's spec.replicas 0 (sent to /scale), or a Job's
 *          spec.parallelism 0. */
int owners_scale_pause_patch(struct owners_buf *out, const char *resource_version, int pause,
			     struct owners_error *err);
int owners_scale_zero_patch(struct owners_buf *out, const char *resource_version,
			    enum owners_scale_how how, struct owners_error *err);

#endif
