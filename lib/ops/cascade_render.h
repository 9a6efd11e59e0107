/*
 * Renders what `owners delete` says about a cascade, as text; the command
 * writes the buffers (stdout for the plan and the objects that went,
 * stderr for the rest) and keeps the terminal's own bytes (the progress
 * line's "\r\033[K").
 *
 * The plan of a client dry run, rows in tree order, each with what
 * happens to it:
 *
 *   background cascade (dry run, nothing changed):
 *   ns/deployment.apps/web  delete (root)
 *     ns/replicaset.apps/web-7d9c  delete (every owner is deleted)
 *
 * The objects as they go, kubectl's words (`deployment.apps "web"
 * deleted in namespace ns`; -o name: `deployment.apps/web`, for the ones
 * deleted only); the progress line; what a timed-out cascade still waits
 * on; the sentences that end a run which did not wait, or a server dry
 * run.
 *
 * Ownership: appends to out; everything else is borrowed.
 */
#ifndef OWNERS_CASCADE_RENDER_H
#define OWNERS_CASCADE_RENDER_H

#include <stddef.h>

#include "buf.h"
#include "cascade.h"
#include "cascade_track.h"
#include "command_line.h"
#include "graph.h"
#include "stuck.h"

struct owners_cascade_render {
	struct owners_graph *g; /* the graph the plan was made on */
	const struct owners_cascade_plan *plan;
	enum owners_cascade_mode mode; /* the mode asked for */
	const char *const *roots;      /* UIDs (the plan's rows hang from them) */
	size_t n_roots;
	/* The plan's protected volumes and claims as read in full
	 * (owners_stuck_fetch_ahead()): who they will wait for. NULL: not
	 * read (the plan says what they wait on, not whom). */
	const struct owners_stuck_facts *facts;
	/* The program the commands it quotes are spelled with (NULL:
	 * OWNERS_PROGRAM; lib/core/command_line.h). */
	const char *program;
};

/* --dry-run=client: a title line, then every object of the cascade (members
 * and released objects) in tree order below the roots, indented two spaces
 * a level, with what happens to it, and for an object that will not go
 * as soon as it is deleted what it will wait on: the finalizers it holds
 * now (the GC's own aside: the cascade removes them), a claim's
 * kubernetes.io/pvc-protection with the pods that use it ("until
 * ns/pod/db-0 is gone (in this cascade)"), a volume's
 * kubernetes.io/pv-protection with the claim bound to it. */
int owners_cascade_render_plan(struct owners_buf *out, const struct owners_cascade_render *r);
/* --dry-run=client -o name: exactly what the cascade deletes (its members
 * that exist, each once), kind.group/name lines in the plan's tree order:
 * what can be piped to another command. */
int owners_cascade_render_plan_names(struct owners_buf *out, const struct owners_cascade_render *r);

/* One line, without a newline: the counts, the seconds spent (elapsed
 * below 0: not said, as a log line that says what changed), and the
 * first wait (its object, and its finalizers when in deletion, else why).
 * A line of columns bytes or more (a terminal's width: it must not wrap)
 * is cut to columns - 4, back to a UTF-8 character boundary, and ends in
 * "..."; columns below 4: never cut. */
int owners_cascade_render_progress(struct owners_buf *out, const struct owners_cascade_render *r,
				   long elapsed, size_t deleted, size_t acting, size_t columns);

/* After a timeout: one line per wait ("  ns/type/name: why (finalizers:
 * a b)"), each finalizer of it that nothing in the cascade removes
 * (owners_cascade_render_finalizer_known()) followed by a line with the
 * 'owners finalizers remove' command that would end its wait, then one
 * line per action the plan would still send ("  ...: delete next"). */
int owners_cascade_render_left(struct owners_buf *out, const struct owners_cascade_render *r);

/* Interrupted (Ctrl-C, SIGTERM): what was done (deleted and released so
 * far), how many objects are left and which (as owners_cascade_render_left()
 * lists them), where each root stands (gone with dependents left, in
 * foreground deletion waiting for N dependents, ...), and command, the
 * one that finishes the cascade (the same command again), on a line of
 * its own. */
int owners_cascade_render_interrupted(struct owners_buf *out, const struct owners_cascade_render *r,
				      size_t deleted, size_t released, const char *command);

/* --wait=false: how many changes the round sent and how many other
 * objects are still there (the plan's, less the done ones: objects the
 * round deleted or released, counted once), and the command that goes on
 * (NULL: "run the command again"), one line; 'owners tree' spelled with
 * program (NULL: OWNERS_PROGRAM). */
int owners_cascade_render_not_waiting(struct owners_buf *out, const struct owners_cascade_plan *p,
				      size_t done, const char *command, const char *program);

/* --dry-run=server: the closing line, after the dependents were checked. */
int owners_cascade_render_dry_run_checked(struct owners_buf *out, size_t n_roots, size_t checked,
					  size_t refused);

/* Whether finalizer f is one a cascade sees removed without a person:
 * the GC's own (foregroundDeletion, orphan: the cascade removes them) and
 * the protections Kubernetes ends when the pod or claim goes
 * (kubernetes.io/pvc-protection, kubernetes.io/pv-protection). */
int owners_cascade_render_finalizer_known(const char *f);

/* One object that went (or, dry run, would): `TYPE "NAME" WHAT[ in
 * namespace NS]`, a line. names_only (-o name): `TYPE/NAME` for an object
 * deleted (or accepted for deletion), nothing for the others. type as an
 * owners_cascade_track_event_fn gets it; ns "" when cluster-scoped. */
int owners_cascade_render_event(struct owners_buf *out, enum owners_cascade_track_event e,
				const char *type, const char *name, const char *ns, int names_only);

#endif
