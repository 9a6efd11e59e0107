/*
 * The permissions a whole cascade needs, asked for before its first change
 * (see access_review.h): delete on every type of object in the cascade,
 * and patch wherever the cascade edits an object instead of (or before)
 * deleting it:
 *   - an object that holds foregroundDeletion while its dependents go (every
 *     member with dependents in the cascade, but a background root, which
 *     goes at once): the hold is added, and later lifted, by a patch;
 *   - an orphan-mode root: the orphan finalizer, likewise;
 *   - a released object: its references into the cascade are patched out.
 * One check per (verb, type, namespace), in the order first met.
 *
 * Ownership: *out is the caller's (free it after
 * owners_access_checks_release()); its strings are borrowed from the graph
 * and the resource table.
 */
#ifndef OWNERS_CASCADE_ACCESS_H
#define OWNERS_CASCADE_ACCESS_H

#include "access_review.h"
#include "cascade.h"

int owners_cascade_needed_access(const struct owners_cascade_plan *p, const struct owners_graph *g,
				 const char *const *root_uids, size_t n_roots,
				 enum owners_cascade_mode mode, struct owners_access_check **out,
				 size_t *n_out);

#endif
