/*
 * No action on an absence the server has not confirmed. A scan lists each
 * type at its own moment, and a watch of one type lags another's: an owner
 * missing from them may exist (created after its type was listed, its
 * dependents listed after it). The garbage collector never deletes an
 * object nor removes a reference because an owner is missing from its
 * caches: isDangling() reads the owner first. These do the same for the
 * plans owners acts on, with owner_check.c's reads (each owner once per
 * set of checks):
 *
 *  - the collector's (`owners gc`, `gc --watch`): a DELETE, STRIP or
 *    UNBLOCK that rests on a reference counted as dangling is decided again
 *    with that owner held alive when it is there (or undecided when it
 *    cannot be read), until every absence that is left is confirmed;
 *  - the cascade's (`owners delete`): an action on an object that is not
 *    one of the roots, resting on an owner missing from the scan (a
 *    member's other references, the references a release removes), waits
 *    for the next scan instead when the owner is there or cannot be read.
 *
 * *held says how many references (collector) or actions (cascade) were
 * held back.
 */
#ifndef OWNERS_ABSENCE_CONFIRM_H
#define OWNERS_ABSENCE_CONFIRM_H

#include <stddef.h>

#include "cascade.h"
#include "collector.h"
#include "owner_check.h"

/* scope (g->count entries, may be NULL): the objects acted on. Plans again
 * (owners_collector_plan()) into steps. 0 or OWNERS_ENOMEM. */
int owners_absence_confirm_collector(size_t *held, struct owners_collector *c, struct owners_collector_step *steps,
				     const unsigned char *scope, struct owners_owner_checks *cc);

/* Takes the held actions out of p and records each as a wait on owners.
 * 0 or OWNERS_ENOMEM. */
int owners_absence_confirm_cascade(size_t *held, struct owners_cascade_plan *p, struct owners_graph *g,
				   struct owners_owner_checks *cc);

#endif
