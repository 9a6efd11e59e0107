/*
 * Taking finalizers off one object, safely: what `owners finalizers remove`
 * does for each TYPE/NAME.
 *
 *  1. Read the object (metadata only; a Namespace in full, for its
 *     spec.finalizers). Then decide, on what the server holds:
 *       - not found: nothing to do (NOT_FOUND);
 *       - a finalizer asked for by name that the object does not have:
 *         refused, nothing is changed on it (a typo, or the wrong object;
 *         taking off the others would act on a mistaken command);
 *       - no deletionTimestamp and not force: refused (a finalizer on a
 *         live object protects something; removing it disables that);
 *       - a Namespace whose `kubernetes` finalizer would go while objects
 *         are still in it (target.content_objects > 0, or content_error:
 *         it could not be checked) and not force: refused (the namespace
 *         would vanish at once and leave them in storage, where they come
 *         back if a namespace of that name is created again);
 *       - `orphan` asked for on an object in deletion whose dependents were
 *         not released first (target.orphan_released_uid): refused.
 *  2. metadata.finalizers: a merge patch conditional on the resourceVersion
 *     read (finalizer_patch.h). 409 Conflict: read again (the object may have
 *     new finalizers, or lost some: only the ones asked for that are still
 *     there are removed, everything else stays), and patch again, at most
 *     max_attempts times. An object replaced under the same name (another
 *     UID) is never touched.
 *  3. A Namespace's spec.finalizers: PUT to its finalize subresource, the
 *     Namespace as read again with the entries filtered, resourceVersion
 *     included: conflicts are retried the same way.
 *  4. Read it again and report the real end state: gone, or still there
 *     with the finalizers it has left (LEFT when one asked for came back).
 * With a server dry run every write is sent with dryRun=All: the server
 * checks it (and the resourceVersion) and stores nothing; with a client
 * dry run no write is sent at all (steps 1 and 2 still read and decide);
 * either way step 4 is skipped.
 *
 * Ownership: the outcome owns its strings (owners_finalizer_remove_outcome_clear());
 * the target, options and client are borrowed.
 */
#ifndef OWNERS_FINALIZER_REMOVE_H
#define OWNERS_FINALIZER_REMOVE_H

#include <stddef.h>

#include "command_line.h"
#include "owners_error.h"
#include "http.h"
#include "object_io.h"
#include "resource.h"
#include "uid.h"

struct owners_finalizer_remove_target {
	const struct owners_resource *resource;
	const char *namespace_;       /* NULL or "" for a cluster-scoped object */
	const char *name;
	/* A Namespace only, looked at when its `kubernetes` finalizer would go
	 * without force: the objects a scan found in it (-1: not checked, not
	 * refused for it), content_summary naming them ("configmaps 2,
	 * secrets 1"); or content_error, why the scan could not tell (refused
	 * too: when in doubt, keep). */
	long content_objects;
	const char *content_summary;
	const char *content_error;
	/* Looked at when `orphan` would go from an object in deletion: the
	 * GC removes it only after orphanDependents released every dependent,
	 * and removing it first makes the GC delete them. orphan_released_uid
	 * is the UID whose dependents were released (owners_orphan_release());
	 * for any other ("": none were) it is refused, force or not. So is
	 * it when orphan_blocked says why they could not be released. An
	 * apiserver's UIDs fit; a longer one is not kept, and refused. */
	char orphan_released_uid[OWNERS_UID_TEXT_SIZE];
	const char *orphan_blocked;
	/* The objects the command was printed for (--uid, as owners prints
	 * a remedy): when set, what that command would finish being done is
	 * no failure. Not found, or found under another UID (re-created):
	 * already done, nothing touched (GONE, NOTHING, message "already
	 * done: ..."). A finalizer asked for that it no longer has is done
	 * too: only the others are removed (NOTHING when none is left). */
	const char *const *uids;
	size_t n_uids;
};

enum owners_finalizer_remove_result {
	OWNERS_FINALIZER_REMOVE_GONE,       /* the object no longer exists */
	OWNERS_FINALIZER_REMOVE_FREED,      /* still there, without the finalizers asked for */
	OWNERS_FINALIZER_REMOVE_DRY_RUN,    /* the server accepted the change; nothing was stored */
	OWNERS_FINALIZER_REMOVE_NOTHING,    /* it holds none of them: nothing to do */
	OWNERS_FINALIZER_REMOVE_NOT_FOUND,  /* it did not exist */
	OWNERS_FINALIZER_REMOVE_REFUSED,    /* see 1. above; message says why */
	OWNERS_FINALIZER_REMOVE_FAILED,     /* a read or write failed, or too many conflicts */
	OWNERS_FINALIZER_REMOVE_LEFT,       /* written, but a finalizer asked for is on it again */
};
/* "gone", "freed", "dry-run", "nothing", "not-found", "refused", "failed",
 * "left": the JSON words. */
const char *owners_finalizer_remove_result_name(enum owners_finalizer_remove_result r);

struct owners_finalizer_remove_finalizer {
	char *name;
	int spec;                     /* a Namespace's spec.finalizers entry */
};

struct owners_finalizer_remove_outcome {
	enum owners_finalizer_remove_result result;
	char *message;                /* why (refused, failed, left); NULL otherwise */
	char *uid;                    /* as first read; NULL when not found */
	/* taken off (or, dry run, that would be) */
	struct owners_finalizer_remove_finalizer *removed;
	size_t n_removed, cap_removed;
	/* what the object has after (verified; dry run: would have) */
	struct owners_finalizer_remove_finalizer *left;
	size_t n_left, cap_left;
	int deleting;                 /* it has a deletionTimestamp (after) */
	int writes;                   /* patches/updates sent, conflicts included */
};

struct owners_finalizer_remove_options {
	const char *const *finalizers; /* the names asked for; ignored with all */
	size_t n_finalizers;
	int all;
	int force;
	enum owners_dry_run dry_run;
	int max_attempts;             /* writes per step before giving up on conflicts; 0: 5 */
	/* The program a message's command is spelled with (NULL:
	 * OWNERS_PROGRAM; lib/core/command_line.h). */
	const char *program;
	/* Called once, after the object was read and the change decided,
	 * before the first write (tests change the object in between). */
	void (*before_write)(void *ctx, const struct owners_finalizer_remove_target *t);
	void *ctx;
};

/* Returns non-zero only when the run itself failed (out of memory); what
 * happened to the object is in out. */
int owners_finalizer_remove(struct owners_finalizer_remove_outcome *out, struct owners_http_client *c,
		      const struct owners_finalizer_remove_target *t, const struct owners_finalizer_remove_options *o,
		      struct owners_error *err);
void owners_finalizer_remove_outcome_clear(struct owners_finalizer_remove_outcome *out);

#endif
