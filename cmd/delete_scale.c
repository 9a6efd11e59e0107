#include "delete_scale.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cascade_access.h"
#include "clock.h"
#include "finalizer_command.h"
#include "invocation.h"
#include "grow.h"
#include "meter.h"
#include "scale_down_exec.h"
#include "scale_down_runner.h"
#include "session_access.h"
#include "session_scan.h"
#include "scale_plan_render.h"
#include "sink.h"

/* A Deployment this run paused, kept by name and UID: the graph it was
 * found in is replaced by every scan. */
struct scale_first_paused {
	const struct owners_resource *type; /* the session's (outlives the run) */
	char *ns, *name, *uid, *kind;
};

#define DEFAULT_TIMEOUT_MS (5L * 60 * 1000)
static void clear_progress(const struct scale_first *sf)
{
	meter_clear(sf->meter);
}

/* `statefulset.apps "db"` and ` in namespace ns` (or nothing). */
struct said_as {
	struct owners_buf type;
	char where[300];
};

static int said_as_of(struct said_as *a, const struct owners_node *n)
{
	owners_buf_reset(&a->type);
	if (owners_graph_node_type(&a->type, n))
		return OWNERS_ENOMEM;
	snprintf(a->where, sizeof(a->where), "%s%s", *n->place->namespace_ ? " in namespace " : "",
		 n->place->namespace_);
	return 0;
}

static const char *dry_run_said(const struct scale_first *sf)
{
	return sf->dry_run == OWNERS_DRY_RUN_SERVER ? " (server dry run)" : "";
}

static enum exit_code remember_paused(struct scale_first *sf, const struct owners_node *n)
{
	struct scale_first_paused *p;
	size_t cap = sf->n_paused;

	if (OWNERS_GROW(sf->paused, cap, sf->n_paused + 1))
		return error_oom();
	p = &sf->paused[sf->n_paused];
	p->type = n->place->resource;
	p->ns = owners_strdup(n->place->namespace_);
	p->name = owners_strdup(n->name);
	p->uid = owners_strdup(OWNERS_NODE_UID(n));
	p->kind = owners_strdup(n->place->kind);
	sf->n_paused++;
	if (!p->ns || !p->name || !p->uid || !p->kind)
		return error_oom();
	return EXIT_OK;
}

/* ---- one workload ----------------------------------------------------------- */

/* One workload's scale-down (lib/ops/scale_down_runner.c), said. */
struct step {
	struct scale_first *sf;
	struct owners_scale_runner r;
	struct said_as as;
	enum exit_code stop; /* what a hook that stopped the runner said */
};

/* The words of a log line (cmd/terminal/progress_log.c): which workload, how many
 * of its replicas are gone so far, and what it waits on. */
static void log_progress(const struct step *st, const struct owners_scale_state *state, long secs)
{
	char line[1024];
	long long gone = st->r.replicas_at_start - state->status_replicas;
	int job = st->r.how == OWNERS_SCALE_JOB;

	snprintf(line, sizeof(line), "scaling down %s/%s%s: %lld of %lld %s gone; %s", st->as.type.ptr,
		 st->r.n->name, st->as.where, gone > 0 ? gone : 0, (long long)st->r.replicas_at_start,
		 job ? st->r.replicas_at_start == 1 ? "pod" : "pods"
		     : st->r.replicas_at_start == 1 ? "replica" : "replicas",
		 *st->r.why ? st->r.why : "scaling");
	meter_log(st->sf->meter, line, secs);
}

static void show_progress(const struct step *st, const struct owners_scale_event *e)
{
	char line[512];
	size_t width = meter_columns() - 1;
	long secs = (long)(e->elapsed_ms / 1000);

	if (meter_logs(st->sf->meter))
		log_progress(st, e->state, secs);
	if (!meter_redraws(st->sf->meter))
		return;
	snprintf(line, sizeof(line), "scaling down %s/%s: %s, %lds", st->as.type.ptr, st->r.n->name,
		 *st->r.why ? st->r.why : "scaling", secs);
	if (strlen(line) > width)
		line[width] = 0;
	meter_draw(st->sf->meter, line);
}

/* A write accepted: a pause is said (a scale to 0 is said once done). */
static void say_written(struct step *st, const struct owners_scale_event *e)
{
	struct scale_first *sf = st->sf;

	if (e->dry_run) {
		if (!sf->quiet && e->what == OWNERS_SCALE_WRITE_PAUSE)
			sink_printf("%s \"%s\" paused%s%s\n", st->as.type.ptr, e->n->name, dry_run_said(sf),
				    st->as.where);
		return;
	}
	sf->changed = 1;
	clear_progress(sf);
	if (e->what == OWNERS_SCALE_WRITE_PAUSE && !sf->quiet) {
		sink_printf("%s \"%s\" paused%s\n", st->as.type.ptr, e->n->name, st->as.where);
		sink_flush();
	}
}

/* The line a finished step says. */
static void say_scaled(const struct step *st)
{
	const struct scale_first *sf = st->sf;
	long secs = (long)((owners_clock_ms() - st->r.started_ms + 500) / 1000);
	int job = st->r.how == OWNERS_SCALE_JOB;

	if (sf->quiet || !st->r.scaled)
		return;
	clear_progress(sf);
	if (sf->dry_run == OWNERS_DRY_RUN_SERVER)
		sink_printf("%s \"%s\" %s%s%s\n", st->as.type.ptr, st->r.n->name,
			    job ? "parallelism set to 0" : "scaled to 0", dry_run_said(sf), st->as.where);
	else
		sink_printf("%s \"%s\" %s%s (%lld %s gone in %lds)\n", st->as.type.ptr, st->r.n->name,
			    job ? "parallelism set to 0" : "scaled to 0", st->as.where,
			    (long long)st->r.replicas_at_start,
			    job ? st->r.replicas_at_start == 1 ? "pod" : "pods"
			    : st->r.replicas_at_start == 1 ? "replica" : "replicas",
			    secs);
	sink_flush();
}

static void on_step_event(void *ctx, const struct owners_scale_event *e)
{
	switch (e->kind) {
	case OWNERS_SCALE_EVENT_WRITTEN: say_written(ctx, e); break;
	case OWNERS_SCALE_EVENT_WAITING: show_progress(ctx, e); break;
	}
}

static int on_paused_by_owners(void *ctx, const struct owners_node *n)
{
	struct step *st = ctx;

	st->stop = remember_paused(st->sf, n);
	return st->stop != EXIT_OK;
}

static int step_interrupted(void *ctx)
{
	const struct step *st = ctx;

	return st->sf->stopped && st->sf->stopped();
}

static enum exit_code write_failed(const struct step *st, const struct owners_error *err)
{
	clear_progress(st->sf);
	error_msg("cannot %s %s \"%s\"%s: %s",
		  st->r.failed_write == OWNERS_SCALE_WRITE_PAUSE ? "pause" : "scale down", st->as.type.ptr,
		  st->r.n->name, st->as.where, owners_error_message(err));
	error_msg("nothing was deleted");
	return st->r.write_rc == OWNERS_EFORBIDDEN ? EXIT_INCOMPLETE : EXIT_ERROR;
}

static enum exit_code changed_back(const struct step *st)
{
	/* accepted, and undone each time: someone scales it back */
	clear_progress(st->sf);
	error_msg("%s \"%s\"%s does not stay %s: something changes it back (an "
		  "autoscaler, a GitOps controller?); nothing was deleted",
		  st->as.type.ptr, st->r.n->name, st->as.where,
		  st->r.next == OWNERS_SCALE_NEXT_PAUSE ? "paused" : "at 0");
	return EXIT_ERROR;
}

/* Where a scale-down is stuck, read from a fresh scan of the workload's
 * pods: one held by a finalizer, or pods nobody deletes (a controller
 * that is not running). Appended to out. */
/* The command that removes p's first finalizer, and the line's end. */
static void say_remove_command(struct owners_buf *out, const char *program,
			       const struct owners_node *p)
{
	struct owners_command_line cmd = OWNERS_COMMAND_LINE_INIT;

	if (!owners_finalizer_command_of(&cmd, p, p->extras->finalizers[0]))
		owners_command_line_spell(out, program, &cmd);
	owners_command_line_clear(&cmd);
	owners_buf_addc(out, '\n');
}

static void explain_stuck(struct owners_buf *out, struct scale_first *sf, const char *uid);

/* The command that goes on from where the scale-down stopped, and exits
 * 0 ("already done") once someone else finished the work. */
static void say_resume(const struct scale_first *sf)
{
	struct owners_buf command = OWNERS_BUF_INIT;

	owners_cli_resume_command(&command, session_cli(sf->s), sf->roots, sf->n_roots,
				  sf->resumed);
	fprintf(stderr, "to finish: %s\n", command.ptr ? command.ptr : "run the same command again");
	owners_buf_clear(&command);
}

static enum exit_code timed_out(struct step *st)
{
	struct scale_first *sf = st->sf;
	struct owners_buf stuck = OWNERS_BUF_INIT;
	char uid[128];

	clear_progress(sf);
	snprintf(uid, sizeof(uid), "%s", OWNERS_NODE_UID(st->r.n));
	error_msg("timed out after %lds scaling down %s \"%s\"%s: %s%s",
		  (sf->timeout_ms > 0 ? sf->timeout_ms : DEFAULT_TIMEOUT_MS) / 1000, st->as.type.ptr,
		  st->r.n->name, st->as.where, *st->r.why ? st->r.why : "not at 0 yet",
		  st->r.waits_on == OWNERS_SCALE_WAIT_OBSERVED ? ": is it running (kube-controller-manager)?" : "");
	explain_stuck(&stuck, sf, uid); /* (the graph is replaced: st->r.n is stale) */
	fputs(stuck.ptr, stderr);
	error_msg("nothing was deleted: the cascade starts once every workload is down (those "
		  "scaled so far stay at 0)");
	say_resume(sf);
	owners_buf_clear(&stuck);
	return EXIT_TIMEOUT;
}

static enum exit_code interrupted_at(struct step *st)
{
	clear_progress(st->sf);
	error_msg("interrupted while scaling down %s \"%s\"%s: nothing was deleted", st->as.type.ptr,
		  st->r.n->name, st->as.where);
	say_resume(st->sf);
	return exit_by_signal(st->sf->stopped());
}

/* What the end of a scale-down says, and the exit code. */
static enum exit_code said_end(struct step *st, enum owners_scale_run_end end, const struct owners_error *err)
{
	enum exit_code ec;

	switch (end) {
	case OWNERS_SCALE_RUN_DONE: return EXIT_OK;
	case OWNERS_SCALE_RUN_READ_FAILED:
		clear_progress(st->sf);
		ec = report_error(err);
		error_msg("nothing was deleted");
		return ec;
	case OWNERS_SCALE_RUN_WRITE_FAILED: return write_failed(st, err);
	case OWNERS_SCALE_RUN_CHANGED_BACK: return changed_back(st);
	case OWNERS_SCALE_RUN_INTERRUPTED: return interrupted_at(st);
	case OWNERS_SCALE_RUN_TIMED_OUT: return timed_out(st);
	case OWNERS_SCALE_RUN_STOPPED: break;
	}
	return st->stop;
}

/* Scales one workload to 0 and waits until its pods are gone. */
static enum exit_code scale_one(struct scale_first *sf, const struct owners_node *n,
				enum owners_scale_how how, int64_t deadline_ms)
{
	const struct owners_scale_hooks hooks = {
		.event = on_step_event,
		.paused_by_owners = on_paused_by_owners,
		.interrupted = step_interrupted,
	};
	struct owners_scale_hooks h = hooks;
	struct step st = { .sf = sf, .as = { OWNERS_BUF_INIT, "" } };
	struct owners_error err = OWNERS_ERROR_INIT;
	enum exit_code ec;

	h.ctx = &st;
	st.r.http = session_http(sf->s);
	st.r.n = n;
	st.r.how = how;
	st.r.server_dry_run = sf->dry_run == OWNERS_DRY_RUN_SERVER;
	st.r.deadline_ms = deadline_ms;
	if (said_as_of(&st.as, n))
		return error_oom();
	ec = said_end(&st, owners_scale_run(&st.r, &h, &err), &err);
	if (!ec)
		say_scaled(&st);
	owners_error_clear(&err);
	owners_buf_clear(&st.as.type);
	return ec;
}

/* ---- the plan (--dry-run=client) ---------------------------------------------- */

/* What each workload of the plan is at now, read (a failed read ends the
 * plan there), then the plan rendered from it (lib/ops/scale_plan_render.c)
 * and written: the lines before a failure, then why it failed. */
static enum exit_code print_plan(struct scale_first *sf, const struct owners_scale_plan *sp)
{
	struct owners_scale_plan_read *reads;
	struct owners_error err = OWNERS_ERROR_INIT;
	struct owners_buf out = OWNERS_BUF_INIT;
	enum exit_code ec = EXIT_OK;
	size_t n_read = 0;
	int rc, failed = 0;

	if (sf->quiet || !sp->count)
		return EXIT_OK; /* -o name: the names the cascade deletes, nothing else */
	if (!(reads = calloc(sp->count, sizeof(*reads))))
		return error_oom();
	while (!failed && n_read < sp->count) {
		const struct owners_scale_target *t = &sp->targets[n_read];
		struct owners_scale_plan_read *r = &reads[n_read++];

		if (t->how == OWNERS_SCALE_NONE)
			continue;
		r->rc = owners_scale_read(&r->state, session_http(sf->s),
					  &session_graph(sf->s)->nodes[t->node], t->how, &err);
		failed = r->rc && r->rc != OWNERS_ENOTFOUND;
	}
	if ((rc = owners_scale_plan_render(&out, session_graph(sf->s), sp, reads, n_read))) {
		ec = error_render(rc);
	} else {
		sink_buf(&out);
		if (failed)
			ec = report_error(&err);
		sink_flush();
	}
	free(reads);
	owners_buf_clear(&out);
	owners_error_clear(&err);
	return ec;
}

/* ---- the run ------------------------------------------------------------------ */

static enum exit_code check_access(struct scale_first *sf, const struct owners_cascade_plan *p,
				   const struct owners_scale_plan *sp)
{
	struct owners_access_check *checks = NULL;
	uint32_t *examples = NULL;
	size_t n = 0;

	if (owners_cascade_access_scale_needed(
		    &(const struct owners_scale_access_of){ p, sp, sf->mode }, session_graph(sf->s),
		    &checks, &examples, &n))
		return error_oom();
	return session_check_access(sf->s, checks, examples, n, "the cascade with its scale-down");
}

enum exit_code scale_first_run(struct scale_first *sf)
{
	const struct owners_cascade_seeds seeds = { sf->roots, sf->n_roots, NULL, 0 };
	const struct owners_cascade_options options = { sf->mode, 1, 0 };
	struct owners_cascade_plan p;
	struct owners_scale_plan sp;
	int64_t started = owners_clock_ms();
	int64_t deadline = started + (sf->timeout_ms > 0 ? sf->timeout_ms : DEFAULT_TIMEOUT_MS);
	enum exit_code ec = EXIT_OK;
	size_t i;

	memset(&p, 0, sizeof(p));
	memset(&sp, 0, sizeof(sp));
	if (owners_cascade_plan_make(&p, session_graph(sf->s), &seeds, &options) ||
	    owners_scale_plan_make(&sp, session_graph(sf->s), p.member, sf->roots, sf->n_roots)) {
		ec = error_oom();
		goto out;
	}
	if (sf->dry_run == OWNERS_DRY_RUN_CLIENT) {
		ec = print_plan(sf, &sp);
		goto out;
	}
	if (sp.count) {
		if ((ec = check_access(sf, &p, &sp)))
			goto out;
		sf->access_granted = 1;
	}
	for (i = 0; !ec && i < sp.count; i++) {
		const struct owners_node *n = &session_graph(sf->s)->nodes[sp.targets[i].node];

		if (sp.targets[i].how == OWNERS_SCALE_NONE) {
			struct said_as as = { OWNERS_BUF_INIT, "" };

			if (said_as_of(&as, n)) {
				ec = error_oom();
				break;
			}
			clear_progress(sf);
			fprintf(stderr, "note: %s \"%s\"%s cannot be scaled: its pods go with the cascade\n",
				as.type.ptr, n->name, as.where);
			owners_buf_clear(&as.type);
			continue;
		}
		ec = scale_one(sf, n, sp.targets[i].how, deadline);
	}
	if (ec)
		scale_first_resume(sf);
out:
	sf->spent_ms = (long)(owners_clock_ms() - started);
	owners_scale_plan_clear(&sp);
	owners_cascade_plan_clear(&p);
	return ec;
}

void scale_first_resume(struct scale_first *sf)
{
	struct owners_error err = OWNERS_ERROR_INIT;
	size_t i;

	for (i = 0; i < sf->n_paused; i++) {
		const struct scale_first_paused *d = &sf->paused[i];
		struct owners_node n;
		struct owners_node_place where = owners_graph_no_place;
		struct owners_scale_state state;
		int tries;

		memset(&n, 0, sizeof(n));
		where.resource = d->type;
		where.namespace_ = d->ns;
		where.kind = d->kind;
		n.place = &where;
		n.extras = &owners_graph_no_extras;
		n.name = d->name;
		owners_graph_node_borrow_uid(&n, d->uid);
		for (tries = 0; tries < 3; tries++) {
			int rc = owners_scale_read(&state, session_http(sf->s), &n,
						   OWNERS_SCALE_DEPLOYMENT, &err);

			/* gone or going, or no longer ours to resume */
			if (rc || state.deleting || !state.paused_by_owners)
				break;
			rc = owners_scale_write(session_http(sf->s),
						&(const struct owners_scale_write_request){
							&n, OWNERS_SCALE_DEPLOYMENT,
							OWNERS_SCALE_WRITE_RESUME, &state,
							sf->dry_run },
						&err);
			if (!rc) {
				fprintf(stderr, "deployment.apps \"%s\" resumed%s%s (owners had paused it to "
					"delete it)\n", d->name, *d->ns ? " in namespace " : "", d->ns);
				break;
			}
			if (rc != OWNERS_ECONFLICT) {
				warning_msg("cannot resume deployment \"%s\": %s (it stays paused: "
					    "kubectl rollout resume deployment/%s)",
					    d->name, owners_error_message(&err), d->name);
				break;
			}
			owners_error_clear(&err);
		}
		owners_error_clear(&err);
	}
}

void scale_first_clear(struct scale_first *sf)
{
	size_t i;

	for (i = 0; i < sf->n_paused; i++) {
		free(sf->paused[i].ns);
		free(sf->paused[i].name);
		free(sf->paused[i].uid);
		free(sf->paused[i].kind);
	}
	free(sf->paused);
	sf->paused = NULL;
	sf->n_paused = 0;
}

/* ---- why a scale-down is stuck ---------------------------------------------------- */

static int wants_pods_and_workloads(void *ctx, const struct owners_resource *r)
{
	(void)ctx;
	/* the pods, and the owners between them and the workload */
	return (!*r->group && !strcmp(r->resource, "pods")) || r->has_scale ||
	       (!strcmp(r->group, "batch") && !strcmp(r->resource, "jobs"));
}

/* The pods below node k (any depth), appended to pods. */
static int pods_below(const struct owners_graph *g, uint32_t k, unsigned char *seen,
		      uint32_t **pods, size_t *n, size_t *cap)
{
	const struct owners_node *o = &g->nodes[k];
	uint32_t i;
	int rc = 0;

	for (i = 0; !rc && i < o->n_dependents; i++) {
		uint32_t d = owners_graph_dependents(g, o)[i];

		if (seen[d]++)
			continue;
		if (owners_graph_node_is_core(&g->nodes[d], "pods"))
			rc = owners_graph_node_list_push(pods, n, cap, d);
		else
			rc = pods_below(g, d, seen, pods, n, cap);
	}
	return rc;
}

static void explain_stuck(struct owners_buf *out, struct scale_first *sf, const char *uid)
{
	struct owners_graph *g;
	unsigned char *seen = NULL;
	uint32_t *pods = NULL, k;
	size_t n = 0, cap = 0, i, held = 0, live = 0;
	int64_t now = session_now(sf->s);

	if (session_rescan(sf->s, sf->scan_ns, wants_pods_and_workloads, NULL))
		return; /* said by the scan */
	g = session_graph(sf->s);
	k = owners_graph_find_uid(g, uid);
	if (k == OWNERS_NO_NODE || !(seen = calloc((size_t)g->count + 1, 1)) ||
	    pods_below(g, k, seen, &pods, &n, &cap)) {
		free(seen);
		free(pods);
		return;
	}
	for (i = 0; i < n; i++) {
		const struct owners_node *p = &g->nodes[pods[i]];
		uint32_t f;

		if (p->extras->deleted && p->extras->n_finalizers) {
			held++;
			owners_buf_addf(out, "  pod \"%s\" is held by finalizer", p->name);
			for (f = 0; f < p->extras->n_finalizers; f++)
				owners_buf_addf(out, "%s %s", f ? "," : p->extras->n_finalizers > 1 ? "s" : "",
						p->extras->finalizers[f]);
			owners_buf_addf(out,
					" (in deletion for %llds); if its controller is gone: ",
					(long long)(now - p->extras->deleted));
			say_remove_command(out, session_cli(sf->s)->program, p);
		} else if (!p->extras->deleted) {
			live++;
		}
	}
	if (live && !held)
		owners_buf_addf(out, "  %zu pod%s not in deletion: is its controller running "
				     "(kube-controller-manager)?\n", live, live == 1 ? "" : "s");
	free(seen);
	free(pods);
}
