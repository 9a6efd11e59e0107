/*
 * Removing dangling ownerReferences: what `owners dangling --fix` does,
 * object by object, never deleting one and never touching a reference that
 * resolves.
 *
 * For each object with findings --fix may act on (every class but unknown,
 * on an object the GC acts on: not one in deletion, which the GC leaves as
 * it is, and not one it never acts on, "nothing, ever", unless
 * fix_unresolvable asks for those too):
 *  1. read it again (GET, metadata only): the scan is a snapshot, the patch
 *     is built from what the server holds now. Gone, or replaced under the
 *     same name (another UID): nothing to do;
 *  2. re-decide every reference it has now: only a reference that was
 *     reported, still classifies as dangling against the graph, and is
 *     confirmed dangling by the server the way the GC's isDangling()
 *     looks (GET the owner by the reference's apiVersion, kind and name,
 *     in the dependent's namespace when namespaced: 404 or another UID;
 *     for an unserved kind, its group/version's discovery document) is
 *     removed. An owner whose lookup fails otherwise (forbidden, 5xx) is
 *     kept, as the GC treats it: not dangling;
 *     A reference whose apiVersion is no longer served, while its group
 *     and kind are served in another version and its UID is that live
 *     object's (GET by the served version, kind and name), is repaired
 *     instead: its apiVersion becomes the served (preferred) one, every
 *     other field kept;
 *  2b. never a removal that would let the GC delete an object it keeps
 *     now: the GC's verdict on the object is decided before and after the
 *     patch (owners_dangling_gc_keeps()); when removing would change
 *     "kept" into "deleted" (or "may be deleted", an owner we cannot
 *     check being left), the references that keep the GC away (those it
 *     gives up on) stay, and the others go;
 *  3. send a merge patch conditional on the resourceVersion read
 *     (owners_patch_owner_refs()); 409 Conflict: back to 1, at most
 *     max_attempts times;
 *  4. once every object is done, read each patched object again and
 *     report the real end state (REMOVED only when the reference is gone
 *     and the object still there).
 * With a server dry run the patch is sent with dryRun=All: the server
 * validates and checks the resourceVersion without storing anything; with
 * a client dry run steps 1 to 2b run (reads only) and no patch is sent.
 *
 * Ownership: the report is updated in place (fix, fix_message, attempts);
 * the graph and the client are borrowed.
 */
#ifndef OWNERS_DANGLING_FIX_H
#define OWNERS_DANGLING_FIX_H

#include "dangling.h"
#include "owners_error.h"
#include "graph.h"
#include "http.h"
#include "object_io.h"

struct owners_dangling_fix_options {
	enum owners_dry_run dry_run;
	int max_attempts;   /* patches per object before giving up on conflicts; 0: 5 */
	/* Also the objects the GC never acts on (owners_dangling_gc_never()):
	 * their references removed or repaired, a choice the GC never makes. */
	int fix_unresolvable;
	/* Called once per object, after it was read and the patch decided,
	 * before its first patch is sent (tests use it to change the object
	 * in between). May be NULL. */
	void (*before_patch)(void *ctx, const struct owners_node *object);
	void *ctx;
};

struct owners_dangling_fix_stats {
	size_t objects_patched;  /* objects a patch was accepted for */
	size_t removed;          /* references removed (or, dry run, that would be) */
	size_t kept;             /* left on purpose (unknown, resolves now) */
	size_t gone;             /* nothing to do any more */
	size_t failed;           /* could not be removed */
	size_t repaired;         /* apiVersions made served ones (or, dry run, that would be) */
	size_t deleted;          /* findings on objects collected (or, dry run, that would be) */
};

/* rep must be sorted (owners_dangling_sort()). Returns non-zero only when
 * the run itself failed (out of memory); what happened to each finding is
 * in the finding, and counted in stats (may be NULL). */
int owners_dangling_fix(struct owners_dangling_report *rep, struct owners_graph *g,
			struct owners_http_client *c, const struct owners_dangling_fix_options *o,
			struct owners_dangling_fix_stats *stats, struct owners_error *err);

#endif
