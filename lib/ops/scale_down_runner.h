/*
 * One workload of `delete --scale-first` taken to 0 (scale_down.h says
 * how each kind goes): read it back, write what it needs next (pause,
 * replicas 0), read again, and wait while its controller takes its pods
 * down, until it is at 0, gone or in deletion, or the time is up. Every
 * write is conditional on the version read; a conflict is read and
 * decided again, and writes accepted and undone again and again are
 * someone changing it back (an autoscaler, a GitOps controller).
 *
 * The runner never prints: it tells its caller what happens as typed
 * events through a hook, and ends with an owners_scale_run_end and what
 * the caller needs to say it (the last wait, the write that failed). The
 * requests, the clock and the naps are hooks, so a unit test drives it
 * with a fake workload.
 *
 * Ownership: the node is borrowed for the run; the runner owns nothing.
 */
#ifndef OWNERS_SCALE_DOWN_RUNNER_H
#define OWNERS_SCALE_DOWN_RUNNER_H

#include <stdint.h>

#include "graph.h"
#include "http.h"
#include "owners_error.h"
#include "scale_down.h"
#include "scale_down_exec.h"

/* writes sent to one workload (accepted or in conflict) before it is
 * taken as changed back by someone else */
#define OWNERS_SCALE_MAX_WRITES 10
/* how long a wait sleeps between reads; after a write, a fifth of it */
#define OWNERS_SCALE_POLL_MS 500L

enum owners_scale_event_kind {
	OWNERS_SCALE_EVENT_WRITTEN, /* what, dry_run: a write accepted (server dry run: would be) */
	OWNERS_SCALE_EVENT_WAITING, /* state, why, elapsed_ms: its controller takes the pods down */
};

/* What happened, with its data; the pointers are valid during the hook
 * only. */
struct owners_scale_event {
	enum owners_scale_event_kind kind;
	const struct owners_node *n;
	enum owners_scale_write what;
	int dry_run;
	const struct owners_scale_state *state;
	const char *why;
	int64_t replicas_at_start;
	int64_t elapsed_ms;
};

struct owners_scale_hooks {
	void *ctx;
	void (*event)(void *ctx, const struct owners_scale_event *e);
	/* A Deployment found paused by owners (this run, or an earlier one
	 * that was killed): the caller's to resume if the cascade stops
	 * before deleting it; told once. Nonzero stops the run. May be NULL. */
	int (*paused_by_owners)(void *ctx, const struct owners_node *n);
	/* Whether the caller was asked to stop, looked at while waiting. May
	 * be NULL. */
	int (*interrupted)(void *ctx);
	/* The requests; NULL: owners_scale_read()/owners_scale_write() on
	 * the runner's http (a test answers from a fake workload). */
	int (*read)(void *ctx, struct owners_scale_state *st, const struct owners_node *n,
		    enum owners_scale_how how, struct owners_error *err);
	int (*write)(void *ctx, const struct owners_node *n, enum owners_scale_how how,
		     enum owners_scale_write what, const struct owners_scale_state *st,
		     struct owners_error *err);
	/* Milliseconds on a monotonic clock, and a nap; NULL: owners_clock_ms()
	 * and nanosleep(). */
	int64_t (*now_ms)(void *ctx);
	void (*sleep_ms)(void *ctx, long ms);
};

enum owners_scale_run_end {
	OWNERS_SCALE_RUN_DONE,         /* at 0, gone, or in deletion (its pods go with the cascade) */
	OWNERS_SCALE_RUN_READ_FAILED,  /* err says why */
	OWNERS_SCALE_RUN_WRITE_FAILED, /* failed_write, write_rc and err say which and why */
	OWNERS_SCALE_RUN_CHANGED_BACK, /* written OWNERS_SCALE_MAX_WRITES times and undone each
					  time; next says which write */
	OWNERS_SCALE_RUN_INTERRUPTED,
	OWNERS_SCALE_RUN_TIMED_OUT,    /* why, waits_on: what it waited for */
	OWNERS_SCALE_RUN_STOPPED,      /* a hook returned nonzero */
};

struct owners_scale_runner {
	/* set by the caller */
	struct owners_http_client *http;
	const struct owners_node *n;
	enum owners_scale_how how;
	int server_dry_run; /* each write once, checked by the server; nothing changes */
	int64_t deadline_ms; /* on the hooks' clock */
	/* the run */
	int64_t started_ms;
	int64_t replicas_at_start;  /* -1 until read */
	int scaled;                 /* this run set it to 0 */
	int changed;                /* a write was accepted (not in a dry run) */
	int writes;                 /* accepted or in conflict */
	int remembered;             /* told as paused by owners */
	enum owners_scale_next next;
	enum owners_scale_wait waits_on;
	char why[160];              /* what it waits on, in words */
	enum owners_scale_write failed_write;
	int write_rc;
};

/* Takes r->n to 0 (see above); the return says how it ended, and err
 * holds the error of a failed read or write. */
enum owners_scale_run_end owners_scale_run(struct owners_scale_runner *r, const struct owners_scale_hooks *h,
					   struct owners_error *err);

#endif
