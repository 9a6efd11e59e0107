/*
 * Releasing the dependents of an object held by the `orphan` finalizer,
 * before that finalizer is taken off: what the garbage collector's
 * orphanDependents does, and the only order in which removing `orphan`
 * keeps the promise of `--cascade=orphan`. Removed first, the object goes
 * while its dependents still reference it, and the GC then deletes them as
 * dangling: an orphan delete turned into a cascade.
 *
 * For each dependent the graph links to the owner by UID (every namespace
 * and scope the scan covered, as the GC patches every dependent by UID):
 *  1. read it again (metadata only): gone, or replaced under the same name
 *     (another UID), leaves nothing to release;
 *  2. drop every ownerReference that carries the owner's UID and keep the
 *     others verbatim; none carries it any more: nothing to release;
 *  3. a merge patch conditional on the resourceVersion read
 *     (owners_patch_owner_refs()); 409 Conflict: back to 1, at most
 *     max_attempts times.
 * With a server dry run each patch is sent with dryRun=All: the server
 * checks it and stores nothing; a client dry run reads and decides but
 * sends no patch.
 *
 * Whether the scan could have missed a dependent is the caller's question
 * (a type that could not be listed): this module releases what it is given.
 *
 * Ownership: the release owns its items and their messages
 * (owners_orphan_release_clear()); the graph and the client are borrowed
 * and the graph must outlive the release (items name nodes by index).
 */
#ifndef OWNERS_ORPHAN_RELEASE_H
#define OWNERS_ORPHAN_RELEASE_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "owners_error.h"
#include "graph.h"
#include "http.h"
#include "json.h"
#include "object_io.h"

enum owners_release_result {
	OWNERS_RELEASE_RELEASED,        /* its references to the owner were removed */
	OWNERS_RELEASE_DRY_RUN,         /* the server accepted the patch; nothing was stored */
	OWNERS_RELEASE_GONE,            /* it no longer exists: nothing to release */
	OWNERS_RELEASE_NOT_REFERENCING, /* it no longer references the owner */
	OWNERS_RELEASE_FAILED,          /* a read or patch failed, or too many conflicts */
};
/* "released", "dry-run", "gone", "not-referencing", "failed": the JSON words. */
const char *owners_release_result_name(enum owners_release_result r);

struct owners_release_item {
	uint32_t dependent;             /* node index in the graph */
	enum owners_release_result result;
	char *message;                  /* why it failed; NULL otherwise */
	int writes;                     /* patches sent, conflicts included */
};

struct owners_orphan_release {
	struct owners_release_item *items;
	size_t count;
	size_t failed;                  /* items with OWNERS_RELEASE_FAILED */
};

struct owners_orphan_release_options {
	enum owners_dry_run dry_run;
	int max_attempts;               /* per dependent, conflicts included; 0: 5 */
};

/* Releases every dependent of g's node owner. Returns non-zero only when
 * the run itself failed (out of memory); each dependent's outcome is in
 * out. */
int owners_orphan_release(struct owners_orphan_release *out, struct owners_http_client *c,
			  const struct owners_graph *g, uint32_t owner,
			  const struct owners_orphan_release_options *o, struct owners_error *err);
void owners_orphan_release_clear(struct owners_orphan_release *r);

/* The items as a JSON array of {"kind", "apiVersion", "namespace" (absent
 * when cluster-scoped), "name", "uid", "result", "message" (absent unless
 * failed), "writes"}, written to the open generator j. */
int owners_orphan_release_json(struct owners_json_gen *j, const struct owners_graph *g,
			       const struct owners_orphan_release *r);

#endif
