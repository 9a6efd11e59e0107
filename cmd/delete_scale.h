/*
 * `owners delete --scale-first`: before the cascade deletes anything, its
 * workloads are scaled to 0, top-down, one at a time, each waited for
 * until its controller has taken its pods down (lib/ops/scale_down.c
 * decides, lib/ops/scale_down_exec.c sends). This file runs the steps and
 * says them: a line per step on stdout, a progress line on a terminal
 * (else a line on stderr at each change and every 30 s), and on a timeout or Ctrl-C what did not scale down and why.
 *
 * Crash safety: nothing is remembered in the process. A rerun reads every
 * workload back: one at 0 is not scaled again, a Deployment paused by
 * owners (its annotation) is not paused again.
 */
#ifndef OWNERS_DELETE_SCALE_H
#define OWNERS_DELETE_SCALE_H

#include <stddef.h>

#include "cascade.h"
#include "object_io.h"
#include "output.h"
#include "meter.h"
#include "session.h"

struct scale_first {
	/* set by the caller */
	struct session *s;
	const char *scan_ns;      /* where the session scans (NULL: everywhere) */
	const char *const *roots; /* UIDs */
	size_t n_roots;
	int resumed;              /* the command line names them already (--resume) */
	enum owners_cascade_mode mode;
	enum owners_dry_run dry_run;
	long timeout_ms;          /* for the scale-down; <= 0: 5 minutes */
	struct meter *meter;      /* the wait's progress (cmd/terminal/meter.c) */
	int quiet;                /* -o name: no line per step */
	int (*stopped)(void);     /* the signal that asked to stop, else 0 */
	/* filled in */
	long spent_ms;
	int changed;              /* a write was sent: the graph is stale */
	/* every permission of the scale-down and of the cascade was asked
	 * for, and granted: the cascade need not ask again */
	int access_granted;
	struct scale_first_paused *paused; /* the Deployments this run paused */
	size_t n_paused;
};

/* Scales the cascade's workloads down (--dry-run=client: prints the
 * steps). EXIT_OK to go on with the cascade; otherwise the exit code,
 * said (a timeout, an interruption, a refusal), and the Deployments this
 * run paused resumed. */
enum exit_code scale_first_run(struct scale_first *sf);
/* Resumes the Deployments this run paused that are still there and not
 * in deletion (the cascade stopped before deleting them). */
void scale_first_resume(struct scale_first *sf);
void scale_first_clear(struct scale_first *sf);

#endif
