/*
 * A wait that lasts, said in a log: when stderr is no terminal (a CI job,
 * a file), the redrawn progress line (\r\033[K) is not drawn, and a long
 * wait would show nothing until it ends. Instead, as `kubectl rollout
 * status` does, whole lines: one at each change of what the wait says
 * (something went, a level done, a scale-down progressed, a new pass),
 * at most one a second (changes in between fold into the next), and
 * while nothing changes one at least every 30 seconds, with the time
 * spent so far. A wait that ends within its first 2 seconds says nothing:
 * a quick command's stderr stays as it was.
 *
 * One for delete's cascade, its scale-down and gc's passes: each renders
 * what it waits on (without the time) and hands it here.
 *
 * The suites change the 30 and the 2 seconds (struct progress_timing,
 * read by test_hook_progress()): they are not a user interface.
 */
#ifndef OWNERS_CMD_PROGRESS_LOG_H
#define OWNERS_CMD_PROGRESS_LOG_H

#include <stdint.h>

/* The log's intervals: 0 (every_ms) or -1 (quiet_ms) for the defaults. */
struct progress_timing {
	long every_ms;  /* the longest silence */
	long quiet_ms;  /* what a wait may last and say nothing */
};

#include "output.h"

struct progress_log {
	int on;             /* stderr is no terminal */
	int64_t started_ms; /* the wait's start (owners_clock_ms()) */
	int64_t said_ms;    /* the last line's time; 0: none yet */
	long every_ms;      /* the longest silence */
	long quiet_ms;      /* what a wait may last and say nothing */
	char *said;         /* what the last line said (without the time) */
};

/* Off when stderr is a terminal (the redrawn line says it there) or
 * when !wanted; t: NULL for the default intervals. */
void progress_log_init(struct progress_log *l, int wanted, const struct progress_timing *t);

/* What the wait is at now: "PREFIX: STATE (Ns so far)" on stderr when it
 * changed (or the silence was long); nothing otherwise. elapsed_s: the
 * time shown (the wait's own, which may have started before the log). */
void progress_log_say(struct progress_log *l, const char *prefix, const char *state, long elapsed_s);

void progress_log_clear(struct progress_log *l);

#endif
