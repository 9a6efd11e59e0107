/*
 * What owners delete says as its cascade goes and when it ends short of
 * done: each object as it goes, the progress line, and the reports of a
 * run that did not wait, timed out, met a deadlock or was interrupted,
 * each with the command that finishes it.
 */
#include "delete_run.h"

#include <stdio.h>

#include "clock.h"
#include "deadlock.h"
#include "invocation.h"
#include "signals.h"
#include "sink.h"

/* What lib/ops/cascade_render.c renders from: the run's graph, a plan,
 * the mode and the roots. */
struct owners_cascade_render delete_render_of(const struct delete_run *r,
					      const struct owners_cascade_plan *p)
{
	struct owners_cascade_render render = {
		session_graph(r->cmd->s),      p,          r->runner.plan_options.mode,
		(const char *const *)r->roots, r->n_roots, r->facts,
		r->cmd->cli->program
	};

	return render;
}

/* Writes a rendered text on stderr, or says why it could not be rendered
 * (rc, an OWNERS_E* code) and returns the exit code. */
enum exit_code delete_put(const struct owners_buf *b, int rc)
{
	if (rc)
		return error_render(rc);
	fwrite(b->ptr, 1, b->len, stderr);
	return 0;
}

/* kubectl's `deployment.apps "web" deleted`, or with -o name
 * `deployment.apps/web`, as each object goes. A line that could not be
 * rendered fails the run once it ends (the hook cannot stop it). */
void delete_on_event(void *ctx, enum owners_cascade_track_event e, const char *type,
		     const char *name, const char *ns)
{
	struct delete_run *r = ctx;
	struct owners_buf line = OWNERS_BUF_INIT;
	int rc;

	meter_clear(&r->meter);
	rc = owners_cascade_render_event(&line, e, type, name, ns, r->cmd->cli->output.kind == OUTPUT_NAME);
	if (rc)
		r->unsaid = error_render(rc);
	else
		sink_buf(&line);
	sink_flush();
	owners_buf_clear(&line);
}

/* One line, redrawn in place: the counts, the time spent, and what the
 * cascade waits on now (the first wait: its object and why, e.g. its
 * finalizer), so that a stuck cascade says where it is stuck. A line
 * that cannot be rendered is not drawn: the next round draws it. When
 * stderr is no terminal, the same words as whole lines, on each change
 * and every 30 s (cmd/terminal/progress_log.c). */
static void delete_show_progress(void *ctx, const struct owners_cascade_plan *p, size_t deleted,
				 size_t acting)
{
	struct delete_run *r = ctx;
	const struct owners_cascade_render render = delete_render_of(r, p);
	struct owners_buf line = OWNERS_BUF_INIT;
	long elapsed = (long)((owners_clock_ms() - r->started_ms) / 1000);

	if (meter_logs(&r->meter) &&
	    !owners_cascade_render_progress(&line, &render, -1, deleted, acting, 0))
		meter_log(&r->meter, line.ptr, elapsed);
	owners_buf_reset(&line);
	if (meter_redraws(&r->meter) &&
	    !owners_cascade_render_progress(&line, &render, elapsed, deleted, acting, meter_columns()))
		meter_draw(&r->meter, line.ptr);
	owners_buf_clear(&line);
}

/* --wait=false: one round was sent; say what it left, rather than exit
 * silently while objects are still there. */
enum exit_code delete_report_not_waiting(const struct delete_run *r, const struct owners_cascade_plan *p)
{
	struct owners_buf said = OWNERS_BUF_INIT, command = OWNERS_BUF_INIT;
	enum exit_code rc;

	if (p->done || r->o->dry_run != OWNERS_DRY_RUN_NONE)
		return EXIT_OK;
	if (owners_cli_resume_command(&command, r->cmd->cli, (const char *const *)r->roots,
				      r->n_roots, r->o->resume.count > 0))
		rc = error_oom();
	else
		rc = delete_put(&said, owners_cascade_render_not_waiting(
					       &said, p, r->runner.last_round_done, command.ptr,
					       r->cmd->cli->program));
	owners_buf_clear(&said);
	owners_buf_clear(&command);
	return rc;
}

/* After a timeout: what the cascade still waits on, and what it would do
 * next; and, unless a deadlock's remedy says it (with_resume 0), the
 * command that finishes it. */
enum exit_code delete_report_left(const struct delete_run *r, const struct owners_cascade_plan *p, int with_resume)
{
	const struct owners_cascade_render render = delete_render_of(r, p);
	struct owners_buf said = OWNERS_BUF_INIT, command = OWNERS_BUF_INIT;
	enum exit_code rc = delete_put(&said, owners_cascade_render_left(&said, &render));

	if (!rc && with_resume &&
	    !owners_cli_resume_command(&command, r->cmd->cli, (const char *const *)r->roots,
				       r->n_roots, r->o->resume.count > 0))
		fprintf(stderr, "the cascade's progress is kept in the cluster: run this to finish it:\n  %s\n",
			command.ptr);
	owners_buf_clear(&said);
	owners_buf_clear(&command);
	return rc;
}

/* A deadlock holds the cascade: each one it is in, then what is left,
 * then one remedy that ends them all and finishes the cascade. waited: it
 * was found waiting (else after a --wait=false run's one look). */
enum exit_code delete_report_deadlock(const struct delete_run *r, const struct owners_cascade_runner *cr, int waited)
{
	struct owners_buf said = OWNERS_BUF_INIT, remedy = OWNERS_BUF_INIT;
	size_t i;
	int rc = 0;

	for (i = 0; !rc && i < cr->deadlocks.count; i++) {
		const struct owners_deadlock *d = &cr->deadlocks.items[i];

		if (!owners_cascade_runner_deadlock_ours(cr, d))
			continue;
		owners_buf_reset(&said);
		if ((remedy.len && owners_buf_adds(&remedy, " && ")) ||
		    owners_deadlock_describe(&said, session_graph(r->cmd->s), d) ||
		    owners_deadlock_command(&remedy, r->cmd->cli->program, session_graph(r->cmd->s),
					    d))
			rc = error_oom();
		else
			error_msg("%s", said.ptr);
	}
	owners_buf_clear(&said);
	if (!rc) {
		if (waited)
			error_msg("stopped waiting for the cascade: everything else it could do is done; "
				  "still there:");
		else
			error_msg("the cascade cannot finish until then (--wait=false: what it sent "
				  "is under way); still there:");
		rc = delete_report_left(r, &cr->plan, 0);
	}
	/* one remedy: what ends the deadlock, then what finishes the
	 * cascade once it is ended (its waits on the members' finalizers).
	 * "; ", not "&&": run after someone else ended it, the removal finds
	 * the member gone, and the resume still says the cascade is done */
	if (!rc && (owners_buf_adds(&remedy, "; ") ||
		    owners_cli_resume_command(&remedy, r->cmd->cli, (const char *const *)r->roots,
					      r->n_roots, r->o->resume.count > 0)))
		rc = error_oom();
	if (!rc)
		fprintf(stderr, "to end the deadlock and finish the cascade, run:\n  %s\n", remedy.ptr);
	owners_buf_clear(&remedy);
	return rc ? rc : EXIT_TIMEOUT;
}

/* Interrupted: what was done, what is left, where the roots stand, and
 * the command that finishes it (this one, as typed); the exit code a
 * shell expects of a program a signal ended (130 for SIGINT, 143 for
 * SIGTERM). */
enum exit_code delete_report_interrupted(const struct delete_run *r, const struct owners_cascade_plan *p)
{
	const struct owners_cascade_render render = delete_render_of(r, p);
	struct owners_buf said = OWNERS_BUF_INIT, command = OWNERS_BUF_INIT;
	enum exit_code rc;

	if (owners_cli_resume_command(&command, r->cmd->cli, (const char *const *)r->roots,
				      r->n_roots, r->o->resume.count > 0))
		rc = error_oom();
	else
		rc = delete_put(&said,
			       owners_cascade_render_interrupted(&said, &render, r->runner.track.deleted,
							   r->runner.track.released, command.ptr));
	owners_buf_clear(&said);
	owners_buf_clear(&command);
	return rc ? rc : exit_by_signal(signals_stop_signal());
}

static void refused(void *ctx, const struct owners_graph *g, const struct owners_action *a,
		    const struct owners_action_result *res)
{
	struct delete_run *r = ctx;
	struct owners_buf name = OWNERS_BUF_INIT;
	int forbidden = res->outcome == OWNERS_OUTCOME_FORBIDDEN;

	if (owners_graph_node_name(&name, &g->nodes[a->node])) {
		r->rc = error_oom();
		return;
	}
	meter_clear(&r->meter);
	if (forbidden)
		warning_msg("cannot %s %s: %s (left in place)", owners_action_name(a->kind),
			    name.ptr, res->message ? res->message : "forbidden");
	else
		error_msg("cannot %s %s: %s", owners_action_name(a->kind), name.ptr,
			  res->message ? res->message : "failed");
	owners_buf_clear(&name);
}

/* What the rounds tell: each round's progress line, each object as it
 * goes, each change refused. */
void delete_on_runner_event(void *ctx, const struct owners_cascade_runner_event *e)
{
	switch (e->kind) {
	case OWNERS_CASCADE_RUNNER_EVENT_ROUND_BEGUN:
		delete_show_progress(ctx, e->plan, e->deleted, e->acting);
		break;
	case OWNERS_CASCADE_RUNNER_EVENT_CHANGED:
		delete_on_event(ctx, e->change, e->type, e->name, e->namespace_);
		break;
	case OWNERS_CASCADE_RUNNER_EVENT_REFUSED:
		refused(ctx, e->graph, e->action, e->result);
		break;
	}
}
