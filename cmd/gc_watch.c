/*
 * owners gc --watch: after the passes converge, the graph kept current by
 * watches and every change acted on as the GC would, until a signal.
 */
#include "gc_run.h"

#include <stdio.h>
#include <string.h>

#include "http.h"
#include "session_connect.h"
#include "session_scan.h"
#include "session_warnings.h"
#include "signals.h"

static void on_watch_warning(void *ctx, const char *line)
{
	(void)ctx;
	warning_msg("%s", line);
}

/* One watch per type the latest scan listed, from that list's
 * resourceVersion (metadata only); with -l, the selector's own too. */
static int start_watches(struct gc_run *r)
{
	struct owners_watch_options wo;
	size_t i;

	memset(&wo, 0, sizeof(wo));
	session_scan_options(r->cmd->s, &wo.list);
	wo.list.on_listed = NULL;
	wo.warn = on_watch_warning;
	if (owners_watch_new(&r->w, session_graph(r->cmd->s), session_http(r->cmd->s),
			     session_types(r->cmd->s), &wo))
		return OWNERS_ENOMEM;
	for (i = 0; i < r->listed.count; i++) {
		struct listed_type *t = &r->listed.items[i];

		if (owners_watch_add(r->w, t->resource, t->ns, t->rv, 0, NULL) ||
		    (r->cmd->cli->selector && owners_watch_add(r->w, t->resource, t->ns, NULL, 0, r->cmd->cli->selector)))
			return OWNERS_ENOMEM;
	}
	return 0;
}

/* Watching: sleeps on the watches and the signals until a change comes
 * (1), none yet (0), or a stop (-1: Ctrl-C, or the watches' error said). */
static int wait_for_changes(void *ctx, struct owners_gc_runner_world *w)
{
	struct gc_run *r = ctx;
	struct owners_error err = OWNERS_ERROR_INIT;
	long wake = owners_watch_next_ms(r->w);
	int resized = 0, changed;

	if (owners_http_wait(session_http(r->cmd->s), wake, signals_fd(), &err) ||
	    owners_watch_service(r->w, &err)) {
		r->stop = report_error(&err);
		owners_error_clear(&err);
		return -1;
	}
	signals_take(&resized, r->quit);
	if (*r->quit)
		return -1;
	if ((changed = owners_watch_take_changes(r->w)) < 0) {
		r->stop = error_oom();
		return -1;
	}
	w->graph = session_graph(r->cmd->s);
	return changed > 0;
}

/* After converging: the graph kept current by watches, and every change
 * acted on as the GC would, until a signal. Each pass's requests are
 * sent whole before a signal is looked at: an interruption leaves no
 * more half done than the GC itself would (every request is atomic). */
static enum exit_code watch_and_act(struct gc_run *r, int *quit)
{
	struct owners_gc_runner_hooks h = gc_run_hooks(r);
	struct owners_error err = OWNERS_ERROR_INIT;
	enum owners_gc_runner_end end;
	enum exit_code rc = EXIT_OK;

	if ((rc = signals_open(SIGNALS_SECOND_ASKS)))
		return rc;
	if (start_watches(r))
		return error_oom();
	fprintf(stderr, "gc: watching %zu type%s; Ctrl-C to stop\n", r->listed.count,
		r->listed.count == 1 ? "" : "s");
	if (session_client_new(r->cmd->s, &r->reads))
		return report_error(session_error(r->cmd->s));
	r->world.reads = r->reads;
	r->quit = quit;
	h.wait = wait_for_changes;
	if (owners_gc_runner_watch(&end, &r->gr, &r->world, &h, &err)) {
		rc = report_error(&err);
		owners_error_clear(&err);
	} else if (end == OWNERS_GC_RUNNER_STOPPED) {
		rc = r->stop;
	}
	if (!rc && r->gr.failed)
		rc = EXIT_ERROR;
	return rc;
}

enum exit_code gc_keep_up(struct gc_run *r)
{
	int quit = 0;
	enum exit_code rc;

	fprintf(stderr, "gc: converged after %zu pass%s: %zu change%s\n", r->gr.passes,
		r->gr.passes == 1 ? "" : "es", r->gr.done, r->gr.done == 1 ? "" : "s");
	/* What the scans could not see, once, before the watch: gc without
	 * --watch says it with its report. */
	session_warn_scan(r->cmd->s);
	rc = watch_and_act(r, &quit);
	fprintf(stderr, "gc: stopped watching: %zu change%s in all\n", r->gr.done,
		r->gr.done == 1 ? "" : "s");
	if (!rc && quit) {
		/* the watches' requests are the client's: it lets go of them
		 * before the watch that owns them is freed */
		session_disconnect(r->cmd->s);
		owners_watch_free(r->w);
		r->w = NULL;
		owners_http_client_free(r->reads);
		r->reads = NULL;
		signals_die(quit);
	}
	return rc;
}
