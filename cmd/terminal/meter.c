/* The one progress meter (meter.h). */
#include "meter.h"

#include <stdio.h>
#include <unistd.h>

#include "screen.h"

void meter_init(struct meter *m, const char *prefix, int redraw, int log, const struct progress_timing *t)
{
	progress_log_init(&m->log, log, t);
	m->redraw = redraw && isatty(STDERR_FILENO);
	m->prefix = prefix;
}

int meter_redraws(const struct meter *m)
{
	return m->redraw;
}

int meter_logs(const struct meter *m)
{
	return m->log.on;
}

size_t meter_columns(void)
{
	return screen_progress_columns();
}

void meter_draw(const struct meter *m, const char *line)
{
	if (!m->redraw)
		return;
	fprintf(stderr, "\r\033[K%s", line);
	fflush(stderr);
}

void meter_log(struct meter *m, const char *state, long elapsed_s)
{
	progress_log_say(&m->log, m->prefix, state, elapsed_s);
}

void meter_clear(const struct meter *m)
{
	if (m->redraw)
		fputs("\r\033[K", stderr);
}

void meter_end(struct meter *m)
{
	progress_log_clear(&m->log);
}
