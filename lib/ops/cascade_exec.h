/*
 * Carries out one round of a cascade plan against the API server, every
 * action in parallel (bounded by the HTTP client's limits):
 *   - every DELETE carries the UID and the resourceVersion read as
 *     preconditions, so an object deleted and re-created under the same
 *     name is never touched, and one that changed since the scan is read
 *     again: deleted only if its ownerReferences are still the ones the
 *     plan was made on (the GC's deleteObject()), else left to the next
 *     round (409, decided again);
 *   - --grace-period reaches the roots only: dependents get their own;
 *   - with the apiserver's GC off, the GC finalizer put on before a DELETE
 *     is taken off again when that DELETE is refused;
 *   - every PATCH is a JSON merge patch carrying the resourceVersion that
 *     was read, so a concurrent change fails it (409) instead of being
 *     overwritten; the next round re-reads and decides again.
 * 404 means someone (the GC, another run) did it first: success.
 *
 * Ownership: results has one entry per plan action, owned by the caller;
 * owners_cascade_exec_results_free() frees their messages.
 */
#ifndef OWNERS_CASCADE_EXEC_H
#define OWNERS_CASCADE_EXEC_H

#include <stdint.h>

#include "cascade.h"
#include "http.h"

struct owners_cascade_exec_options {
	/* The apiserver adds GC finalizers itself; otherwise we add
	 * foregroundDeletion/orphan before the DELETE. */
	int server_gc;
	int dry_run;            /* send dryRun: ["All"] */
	long grace_period;      /* for the roots; -1: the object's default */
	/* Which references a RELEASE removes; NULL: the cascade's rule
	 * (owners_cascade_ref_released()). */
	int (*drop)(void *ctx, uint32_t dependent, const struct owners_ref *ref);
	void *drop_ctx;
};

enum owners_action_outcome {
	OWNERS_OUTCOME_DONE,       /* accepted */
	OWNERS_OUTCOME_GONE,       /* 404: already done */
	OWNERS_OUTCOME_CONFLICT,   /* changed or re-created: decide again next round */
	OWNERS_OUTCOME_FORBIDDEN,  /* 403: leave it, report it */
	OWNERS_OUTCOME_FAILED,     /* anything else */
};

struct owners_action_result {
	enum owners_action_outcome outcome;
	char *message;             /* for FORBIDDEN and FAILED */
};

int owners_cascade_exec_plan(struct owners_graph *g, const struct owners_cascade_plan *p,
			     struct owners_http_client *c,
			     const struct owners_cascade_exec_options *o,
			     struct owners_action_result *results, struct owners_error *err);
void owners_cascade_exec_results_free(struct owners_action_result *r, size_t n);

/* Whether the apiserver puts the GC's finalizer (foregroundDeletion or
 * orphan, by mode) on an object deleted with that policy: with
 * --enable-garbage-collector=false it does not, and the policy is then
 * ignored. Asked with a server dry run of deleting n (UID precondition),
 * the finalizer looked for in the answer: *adds is 1 only when it is
 * there. Any failure reads as "does not" (putting the finalizer on
 * ourselves is right either way). n must not hold that finalizer already,
 * or every server would look as if it added it. */
void owners_cascade_exec_probe_server_gc(struct owners_http_client *c, const struct owners_node *n,
					 enum owners_cascade_mode mode, int *adds);

/* The JSON bodies, exposed for unit tests. */
/* resource_version NULL or "": the UID precondition alone. */
int owners_delete_options_json(struct owners_buf *out, const char *uid, const char *resource_version,
			       const char *policy, long grace_period, int dry_run);
/* {"metadata":{"resourceVersion":rv,"finalizers":[...]}}: the node's
 * finalizers without `remove` and with `add` (either may be NULL). */
int owners_finalizers_patch_json(struct owners_buf *out, const struct owners_node *n,
				 const char *remove, const char *add);
/* The same for a finalizer list and resourceVersion given. */
int owners_finalizer_list_patch_json(struct owners_buf *out, const char *resource_version,
				     const char *const *finalizers, size_t n, const char *remove,
				     const char *add);
/* {"metadata":{"resourceVersion":rv,"ownerReferences":[...kept...]}}: every
 * reference for which drop() is false, all its fields as read. */
int owners_refs_patch_json(struct owners_buf *out, const struct owners_graph *g,
			   const struct owners_node *n,
			   int (*drop)(void *ctx, const struct owners_ref *ref), void *ctx);
/* The same, every reference kept, each blockOwnerDeletion written false
 * (the GC's unblockOwnerReferences). */
int owners_refs_unblock_patch_json(struct owners_buf *out, const struct owners_graph *g,
				   const struct owners_node *n);

#endif
