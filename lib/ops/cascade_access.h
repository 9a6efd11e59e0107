/*
 * The permissions a whole cascade needs, asked for before its first change
 * (see access_review.h): delete on every type of object in the cascade,
 * and patch wherever the cascade edits an object instead of (or before)
 * deleting it:
 *   - a member that holds foregroundDeletion while its dependents go, or
 *     orphan while they are released (owners_cascade_member_patched()): the
 *     finalizer is lifted, and with the apiserver's GC off added, by a patch;
 *   - a released object: its references are patched out.
 * One check per (verb, type, namespace), in the order first met, each with
 * the first object that needs it (examples[i], a node index: for messages).
 *
 * Ownership: *out and *examples are the caller's (free *out after
 * owners_access_checks_clear()); the checks' strings are borrowed from the
 * graph and the resource table.
 */
#ifndef OWNERS_CASCADE_ACCESS_H
#define OWNERS_CASCADE_ACCESS_H

#include "access_review.h"
#include "cascade.h"
#include "dangling.h"
#include "scale_down.h"

int owners_cascade_access_needed(const struct owners_cascade_plan *p, struct owners_graph *g,
				 enum owners_cascade_mode mode, struct owners_access_check **out,
				 uint32_t **examples, size_t *n_out);
/* The same for the plan's list of actions (p->actions): delete for a
 * DELETE, patch for the rest (`owners gc`'s passes), and get before each
 * patch when patches_read (a patch built from the object read again). */
int owners_actions_needed_access(const struct owners_cascade_plan *p, struct owners_graph *g,
				 int patches_read, struct owners_access_check **out,
				 uint32_t **examples, size_t *n_out);

/* The cascade's permissions and, before them, those of scaling its
 * workloads first (`delete --scale-first`): get and patch on each
 * workload's scale subresource, and on the object itself where it is
 * read in full or patched (a Deployment's pause, a Job's parallelism). */
struct owners_scale_access_of {
	const struct owners_cascade_plan *plan;
	const struct owners_scale_plan *scale; /* may be NULL: the cascade's alone */
	enum owners_cascade_mode mode;
};
int owners_cascade_access_scale_needed(const struct owners_scale_access_of *of,
				       struct owners_graph *g, struct owners_access_check **out,
				       uint32_t **examples, size_t *n_out);

/* What `dangling --fix` needs: delete on each object decided for
 * collection (fix WOULD_DELETE, owners_dangling_collect() with a client
 * dry run), get and patch on each object whose references it would remove
 * or repair (not those the GC never acts on unless fix_unresolvable). Per
 * type and namespace; with by_name, per object (a Role may grant one object
 * alone by its resourceNames), and then, when denied is given, only for the
 * objects whose type-wide check (denied, from a call without by_name: n_denied
 * checks) was refused. rep sorted. */
struct owners_cascade_access_dangling_fix {
	int fix_unresolvable;
	int by_name;
	const struct owners_access_check *denied;
	size_t n_denied;
};
int owners_cascade_access_dangling_fix_needed(const struct owners_dangling_report *rep,
					      struct owners_graph *g,
					      const struct owners_cascade_access_dangling_fix *how,
					      struct owners_access_check **out, uint32_t **examples,
					      size_t *n_out);

#endif
