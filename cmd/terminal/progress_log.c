/* Log-mode progress (progress_log.h): whole lines on a change, and at
 * least every 30 seconds, when stderr is no terminal. */
#include "progress_log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "clock.h"
#include "output.h"

#define EVERY_MS 30000L
/* a wait shorter than this says nothing: a quick command stays quiet */
#define QUIET_START_MS 2000L
/* changes closer than this fold into one line */
#define MIN_GAP_MS 1000L

void progress_log_init(struct progress_log *l, int wanted, const struct progress_timing *t)
{
	memset(l, 0, sizeof(*l));
	l->on = wanted && !isatty(STDERR_FILENO);
	l->started_ms = owners_clock_ms();
	l->every_ms = t && t->every_ms > 0 ? t->every_ms : EVERY_MS;
	l->quiet_ms = t && t->quiet_ms >= 0 ? t->quiet_ms : QUIET_START_MS;
}

void progress_log_say(struct progress_log *l, const char *prefix, const char *state, long elapsed_s)
{
	int64_t now = owners_clock_ms();
	int changed;

	if (!l->on || !state || now - l->started_ms < l->quiet_ms)
		return;
	changed = !l->said || strcmp(l->said, state);
	if (l->said_ms && (changed ? now - l->said_ms < MIN_GAP_MS : now - l->said_ms < l->every_ms))
		return;
	if (changed) {
		char *copy = owners_strdup(state);

		if (!copy)
			return; /* said at the next call, memory allowing */
		free(l->said);
		l->said = copy;
	}
	fprintf(stderr, "%s: %s (%lds so far)\n", prefix, state, elapsed_s);
	fflush(stderr);
	l->said_ms = now;
}

void progress_log_clear(struct progress_log *l)
{
	free(l->said);
	l->said = NULL;
}
