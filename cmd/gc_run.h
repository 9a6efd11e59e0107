/*
 * owners gc's run, shared by its passes (gc.c) and its watch
 * (gc_watch.c): the command's flags, and the state of one run.
 */
#ifndef OWNERS_CMD_GC_RUN_H
#define OWNERS_CMD_GC_RUN_H

#include "collector_render.h"
#include "object_io.h"
#include "gc_runner.h"
#include "listed_types.h"
#include "meter.h"
#include "output.h"
#include "run.h"
#include "strset.h"
#include "watch.h"

/* owners gc's own flags */
struct gc_options {
	enum owners_dry_run dry_run;
	int exit_code;          /* --exit-code */
	long stalled_after_ms;  /* --stalled-after */
	long timeout_ms;        /* --timeout */
	int watch;              /* --watch */
};

struct gc_run {
	struct cmd_run *cmd;          /* its session, scope and flags */
	const struct gc_options *o;   /* cmd's own flags */
	struct owners_strset selected;/* -l: UIDs of the objects it matches */
	struct meter meter;           /* the passes' progress (cmd/terminal/meter.c) */
	/* the passes and the watch (lib/ops/gc_runner.c), on the session's cluster */
	struct owners_gc_runner gr;
	struct owners_gc_runner_world world;
	enum exit_code stop;          /* what a hook that stopped the runner said */
	/* --watch */
	struct listed_types listed;    /* the latest scan's lists, where watches start */
	struct owners_watch *w;
	/* watching: the owners' reads go on a connection of their own, so that
	 * no watch event changes the graph while a pass is decided */
	struct owners_http_client *reads;
	int *quit;                    /* the signal that asked to stop */
};

/* The runner's hooks on r's session. */
struct owners_gc_runner_hooks gc_run_hooks(struct gc_run *r);

/* --watch: after the first passes, acts on every change until Ctrl-C
 * (gc_watch.c). */
enum exit_code gc_keep_up(struct gc_run *r);

#endif
