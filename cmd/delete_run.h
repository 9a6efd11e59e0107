/*
 * owners delete's run, shared by the cascade (delete.c) and what it says
 * (delete_report.c): the command's flags, the state of one run, and the
 * reports.
 */
#ifndef OWNERS_CMD_DELETE_RUN_H
#define OWNERS_CMD_DELETE_RUN_H

#include "cascade.h"
#include "cascade_render.h"
#include "cascade_runner.h"
#include "meter.h"
#include "object_io.h"
#include "output.h"
#include "run.h"
#include "stuck.h"

/* owners delete's own flags */
struct delete_options {
	enum owners_cascade_mode cascade;
	enum owners_dry_run dry_run;
	int wait;
	long timeout_ms;        /* --timeout */
	long grace_period;      /* -1: each object's own */
	int now;                /* --grace-period=1 */
	/* --grace-period=0, and the GC's endless waits (cycles) broken */
	int force;
	int all;                /* every object of the type given */
	int ignore_not_found;
	/* --resume=UID,...: finish the cascade of these roots (the command an
	 * interrupted or timed-out run prints): gone is already done */
	struct string_list resume;
	/* the cascade's workloads scaled to 0 (and waited for) first */
	int scale_first;
	/* refuse the whole delete when a live object outside the cascade
	 * uses what it deletes (EXIT_IN_USE) */
	int if_unused;
};

struct delete_run {
	struct cmd_run *cmd;          /* its session, scope and flags */
	const struct delete_options *o; /* cmd's own flags */
	char **roots;                 /* UIDs */
	size_t n_roots;
	struct owners_cascade_runner runner; /* the rounds (lib/ops/cascade_runner.c) */
	struct meter meter;           /* the waits' progress (cmd/terminal/meter.c) */
	int64_t started_ms;           /* for the progress line's elapsed time (owners_clock_ms()) */
	long scaling_ms;              /* --scale-first's part of --timeout */
	enum exit_code rc;            /* the exit code a hook decided */
	int unsaid;                   /* an object's line could not be rendered */
	/* the plan's protected claims and volumes read in full: whom they
	 * will wait for (--dry-run=client) */
	struct owners_stuck_facts *facts;
};

/* What lib/ops/cascade_render.c renders from: the run's graph, a plan,
 * the mode and the roots. */
struct owners_cascade_render delete_render_of(const struct delete_run *r, const struct owners_cascade_plan *p);
/* A rendered text on stderr, or why it could not be rendered (rc, an
 * OWNERS_E* code): the exit code. */
enum exit_code delete_put(const struct owners_buf *b, int rc);
/* The runner's event hook (ctx: the run): each round's progress line,
 * each object as it goes, each change refused; and the object line alone
 * (a server dry run's dependents, told by delete.c). */
void delete_on_runner_event(void *ctx, const struct owners_cascade_runner_event *e);
void delete_on_event(void *ctx, enum owners_cascade_track_event e, const char *type,
		     const char *name, const char *ns);
/* How a run that did not finish ends, said: --wait=false, a timeout,
 * a deadlock (waited: found waiting), Ctrl-C. */
enum exit_code delete_report_not_waiting(const struct delete_run *r, const struct owners_cascade_plan *p);
enum exit_code delete_report_left(const struct delete_run *r, const struct owners_cascade_plan *p, int with_resume);
enum exit_code delete_report_deadlock(const struct delete_run *r, const struct owners_cascade_runner *cr, int waited);
enum exit_code delete_report_interrupted(const struct delete_run *r, const struct owners_cascade_plan *p);

#endif
