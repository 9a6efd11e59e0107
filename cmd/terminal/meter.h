/*
 * The progress meter, one for every wait (delete's cascade, its
 * scale-down, gc's passes), as curl has one progress_meter: on a
 * terminal, one line on stderr redrawn in place and taken away before
 * anything else is written; when stderr is no terminal, whole lines on
 * each change and while nothing changes (cmd/terminal/progress_log.c). The
 * terminal's line sequences (\r\033[K) are written here and nowhere else.
 *
 * The wait renders its own words (each command knows what it waits on);
 * the meter decides where and how they are shown.
 */
#ifndef OWNERS_CMD_METER_H
#define OWNERS_CMD_METER_H

#include <stddef.h>

#include "progress_log.h"

struct meter {
	int redraw;              /* stderr is a terminal: the line redrawn */
	struct progress_log log; /* it is not: lines on changes */
	const char *prefix;      /* the log line's ("delete", "gc") */
};

/* redraw: whether the run wants the redrawn line (it has it when stderr
 * is a terminal); log: whether it wants the lines (when stderr is not),
 * at intervals t (NULL: the defaults). */
void meter_init(struct meter *m, const char *prefix, int redraw, int log, const struct progress_timing *t);
/* Whether the redrawn line, or the lines, are shown: a wait renders
 * only what is shown. */
int meter_redraws(const struct meter *m);
int meter_logs(const struct meter *m);
/* The width the redrawn line must fit in (it must not wrap). */
size_t meter_columns(void);
/* Redraws the line (a terminal; nothing otherwise). */
void meter_draw(const struct meter *m, const char *line);
/* The wait's state in a log line, when it changed or the silence was
 * long (not a terminal; nothing otherwise). */
void meter_log(struct meter *m, const char *state, long elapsed_s);
/* Takes the redrawn line away, before another line is written. */
void meter_clear(const struct meter *m);
void meter_end(struct meter *m);

#endif
