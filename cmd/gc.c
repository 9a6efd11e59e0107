/*
 * owners gc: the garbage collector's whole job, run from the client.
 *
 * Passes: scan, decide what the GC would do to every object in scope now
 * (lib/ops/collector.c), act (lib/ops/cascade_exec.c: every DELETE with UID
 * and resourceVersion preconditions, every patch conditional), scan again,
 * until the GC would do nothing more or --timeout passes. --dry-run shows
 * the first pass's backlog and changes nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cascade_access.h"
#include "clock.h"
#include "collector.h"
#include "collector_render.h"
#include "commands.h"
#include "gc_evidence.h"
#include "gc_runner.h"
#include "output.h"
#include "meter.h"
#include "session_access.h"
#include "session_across.h"
#include "session_connect.h"
#include "session_scan.h"
#include "test_hooks.h"
#include "session_warnings.h"
#include "sink.h"
#include "screen.h"
#include "signals.h"
#include "strset.h"
#include "tree_watch.h"
#include "watch.h"

static const char *const gc_outputs[] = { "table", "wide", "json", "yaml", "name", "jsonpath=", "custom-columns=", NULL };

/* owners gc's own flags */
struct gc_options {
	enum owners_dry_run dry_run;
	int exit_code;          /* --exit-code */
	long stalled_after_ms;  /* --stalled-after */
	long timeout_ms;        /* --timeout */
	int watch;              /* --watch */
};

static const struct gc_options gc_defaults = {
	.stalled_after_ms = 3 * 60 * 1000,
	.timeout_ms = 5 * 60 * 1000,
};

#define OPT_STRUCT struct gc_options
const struct opt gc_opts[] = {
	OPT_DRY_RUN(
		"client (and --dry-run alone, kubectl's deprecated spelling): show the backlog, "
		"every action the garbage collector would take now, and change nothing; server: "
		"send the first pass's requests with dryRun=All and say which the server accepts; "
		"none (default): do the work"),
	OPT_BOOL("exit-code", 0, exit_code,
		 "exit 1 when the garbage collector has work due (with --dry-run: a backlog; "
		 "otherwise: anything left undone), 0 when none"),
	OPT_DURATION("stalled-after", stalled_after_ms,
		     "say the garbage collector appears not to be running when work it does in "
		     "seconds has been due this long (default 3m)"),
	OPT_DURATION("timeout", timeout_ms,
		     "give up after this long, exit 3 and say what is left (default 5m)"),
	OPT_SELECTOR("act only on objects with these labels (their owners are read wherever "
		     "they are)"),
	OPT_BOOL("watch", 'w', watch,
		 "after the work is done, keep watching and act on every change as the garbage "
		 "collector would, until interrupted (Ctrl-C)"),
	OPT_OUTPUT("table (default), wide (adds OBJECTS: the objects each action changes), "
		   "json/yaml: the OwnersGCBacklog document of what is due "
		   "(with --dry-run; otherwise of what is left), name: its objects "
		   "(kind.group/name), jsonpath=TEMPLATE or custom-columns=SPEC (over the document)"),
	OPT_TEMPLATE_KEYS,
	OPT_NO_HEADERS,
	OPT_END,
};
#undef OPT_STRUCT

struct run {
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

/* ---- which objects ------------------------------------------------------ */

static int remember_selected(void *ctx, const struct owners_resource *res, const struct owners_object_meta *m)
{
	(void)res;
	return owners_strset_add(ctx, m->uid, NULL) ? 0 : OWNERS_ENOMEM;
}

/* -l: the objects it matches, by UID, in one more list per type (the
 * server matches the labels, as for every -l of owners). */
static enum exit_code select_labelled(struct run *r)
{
	struct owners_scan_options o;
	struct owners_scan_report report;
	int rc;

	session_scan_options(&r->cmd->s, &o);
	o.namespace_ = r->cmd->scan_ns;
	o.cluster_scoped = r->cmd->scan_ns == NULL;
	o.label_selector = r->cmd->cli->selector;
	o.on_object = remember_selected;
	o.on_object_ctx = &r->selected;
	rc = owners_list_source_scan(&r->cmd->s.lists, NULL, &r->cmd->s.types, &o, &report, &r->cmd->s.err)
		     ? report_error(&r->cmd->s.err)
		     : 0;
	if (!rc && report.n_failures) {
		error_msg("%s (-l %s): which objects match cannot be told", report.failures[0].message,
			  r->cmd->cli->selector);
		rc = EXIT_ERROR;
	}
	owners_scan_report_clear(&report);
	return rc;
}

/* -l: the objects it matches (the runner keeps to the namespace). */
static int selected(void *ctx, const struct owners_node *node)
{
	const struct run *r = ctx;

	if (!r->cmd->cli->selector)
		return 1;
	/* watching: the selector's own watches keep the set current */
	return r->w ? owners_watch_selected(r->w, node->uid) : owners_strset_get(&r->selected, node->uid) != NULL;
}

/* A namespace's run: the owners of the objects in scope are read in every
 * namespace too, as the GC reads them, which adds their objects to the
 * graph (out of scope). */
static int look_across(void *ctx, struct owners_gc_runner_world *w, const uint32_t *nodes, size_t n)
{
	struct run *r = ctx;

	r->stop = session_look_across_namespaces(&r->cmd->s, nodes, n);
	w->graph = r->cmd->s.graph;
	return r->stop != EXIT_OK;
}

static int rescan(void *ctx, struct owners_gc_runner_world *w)
{
	struct run *r = ctx;

	listed_types_clear(&r->listed);
	r->stop = session_rescan(&r->cmd->s, r->cmd->scan_ns, NULL, NULL);
	w->graph = r->cmd->s.graph;
	return r->stop != EXIT_OK;
}

/* ---- showing ------------------------------------------------------------ */

static struct owners_collector_render render_of(const struct run *r, const struct owners_collector_render_backlog *b)
{
	struct owners_collector_render render = {
		.c = r->gr.c,
		.steps = r->gr.steps,
		.scope = r->gr.scope,
		.backlog = b,
		.print = r->cmd->print,
		.stalled_after = r->o->stalled_after_ms / 1000,
		.waits = 1,
	};

	/* a pass may come long after the start */
	render.print.now = session_now(&r->cmd->s);
	return render;
}

/* Writes a rendered text on stderr (the summary, the evidence, what is
 * left), or says why it could not be rendered. */
static int emit(struct owners_buf *b, int rc)
{
	if (rc)
		return error_render(rc);
	if (b->len)
		fwrite(b->ptr, 1, b->len, stderr);
	owners_buf_reset(b);
	return 0;
}

/* The backlog of this pass: the table (or the document), the summary and
 * the stopped-GC evidence on stderr. */
OUTPUT_RENDERERS(renderers, struct owners_collector_render, owners_collector, 0);

static enum exit_code show_backlog(struct run *r, struct owners_collector_render_backlog *b, int with_fates)
{
	struct owners_collector_render render;
	struct owners_buf out = OWNERS_BUF_INIT;
	int rc;

	/* where the passes settle: owners_gc_runner_decide() settled them already */
	owners_collector_render_backlog_count(b, r->cmd->s.graph, r->gr.steps, r->gr.scope, with_fates ? r->gr.c->ends : NULL,
				with_fates ? r->gr.c->passes : 0);
	render = render_of(r, b);
	gc_evidence_lease(&r->cmd->s, &render); /* the document's gcAppearsStopped too */
	rc = output_emit(r->cmd, &renderers, &render);
	if (!rc && (r->cmd->cli->output.kind == OUTPUT_TEXT || r->cmd->cli->output.kind == OUTPUT_WIDE))
		rc = emit(&out, owners_collector_render_summary(&out, &render));
	if (!rc)
		rc = emit(&out, owners_collector_render_stalled(&out, &render));
	owners_buf_clear(&out);
	return rc;
}

/* kubectl's words for what was done to one object. */
static void say_done(struct run *r, const struct owners_gc_runner_event *e)
{
	const struct owners_action *a = e->action;
	const struct owners_node *n = &e->graph->nodes[a->node];
	struct owners_buf type = OWNERS_BUF_INIT, what = OWNERS_BUF_INIT;
	int dry = r->o->dry_run == OWNERS_DRY_RUN_SERVER;

	if (owners_graph_node_type(&type, n))
		return;
	switch (a->kind) {
	case OWNERS_ACT_DELETE:
	case OWNERS_ACT_DELETE_FOREGROUND:
	case OWNERS_ACT_DELETE_ORPHAN:
		owners_buf_addf(&what, "deleted (%s)", owners_collector_policy_name(e->step->policy));
		break;
	case OWNERS_ACT_REMOVE_FINALIZER:
		owners_buf_addf(&what, "finalizer %s removed", a->finalizer);
		break;
	case OWNERS_ACT_RELEASE: owners_buf_adds(&what, "references removed"); break;
	case OWNERS_ACT_UNBLOCK: owners_buf_adds(&what, "references unblocked"); break;
	}
	meter_clear(&r->meter);
	sink_printf("%s \"%s\" %s%s%s%s\n", type.ptr, n->name, what.ptr ? what.ptr : "",
		    *n->namespace_ ? " in namespace " : "", n->namespace_, dry ? " (server dry run)" : "");
	sink_flush();
	owners_buf_clear(&type);
	owners_buf_clear(&what);
}

static void say_refused(struct run *r, const struct owners_gc_runner_event *e)
{
	const struct owners_action *a = e->action;
	const struct owners_action_result *res = e->result;
	struct owners_buf name = OWNERS_BUF_INIT;

	owners_graph_node_name(&name, &e->graph->nodes[a->node]);
	meter_clear(&r->meter);
	if (res->outcome == OWNERS_OUTCOME_FORBIDDEN)
		warning_msg("cannot %s %s: %s (left in place)", owners_action_name(a->kind),
			    name.ptr ? name.ptr : "?", res->message ? res->message : "forbidden");
	else
		error_msg("cannot %s %s: %s", owners_action_name(a->kind), name.ptr ? name.ptr : "?",
			  res->message ? res->message : "failed");
	owners_buf_clear(&name);
}

/* ---- acting ------------------------------------------------------------- */

/* Before the first change, every permission the work needs: a read-only
 * user gets one clear error with nothing changed. */
static int approve(void *ctx, const struct owners_cascade_plan *p, struct owners_graph *g)
{
	struct run *r = ctx;
	struct owners_access_check *checks = NULL;
	uint32_t *examples = NULL;
	size_t n = 0;

	if (owners_actions_needed_access(p, g, 0, &checks, &examples, &n))
		r->stop = error_oom();
	else {
		meter_clear(&r->meter);
		r->stop = session_check_access(&r->cmd->s, checks, examples, n, "the garbage collector's work");
	}
	return r->stop != EXIT_OK;
}

static void show_progress(struct run *r, const struct owners_gc_runner_event *e)
{
	char line[160];
	long secs = (long)(e->elapsed_ms / 1000);

	/* not a terminal: a line per pass (cmd/terminal/progress_log.c) */
	snprintf(line, sizeof(line), "pass %zu, %zu done, %zu acting", e->pass, e->done, e->acting);
	meter_log(&r->meter, line, secs);
	snprintf(line, sizeof(line), "gc: pass %zu, %zu done, %zu acting, %lds", e->pass, e->done, e->acting,
		 secs);
	meter_draw(&r->meter, line);
}

/* The runner's events as lines. */
static void on_event(void *ctx, const struct owners_gc_runner_event *e)
{
	struct run *r = ctx;

	switch (e->kind) {
	case OWNERS_GC_RUNNER_EVENT_PASS_BEGUN: show_progress(r, e); break;
	case OWNERS_GC_RUNNER_EVENT_CHANGED: say_done(r, e); break;
	case OWNERS_GC_RUNNER_EVENT_REFUSED: say_refused(r, e); break;
	case OWNERS_GC_RUNNER_EVENT_OWNER_HELD: break; /* the rescan says nothing */
	}
}

static const struct owners_gc_runner_hooks gc_hooks = {
	.selected = selected,
	.look_across = look_across,
	.rescan = rescan,
	.approve = approve,
	.event = on_event,
};

static struct owners_gc_runner_hooks hooks_of(struct run *r)
{
	struct owners_gc_runner_hooks h = gc_hooks;

	h.ctx = r;
	return h;
}

/* --dry-run=client: the backlog as listed, nothing sent. */
static enum exit_code decide_only(struct run *r)
{
	const struct owners_gc_runner_hooks h = hooks_of(r);
	int rc = owners_gc_runner_decide(&r->gr, &r->world, &h);

	return rc == 1 ? r->stop : rc ? error_oom() : EXIT_OK;
}

/* What is left when the passes end: every object that waits (and on
 * what), on stderr. */
static enum exit_code say_left(struct run *r, struct owners_collector_render_backlog *b)
{
	struct owners_buf out = OWNERS_BUF_INIT;
	const struct owners_graph *g = r->cmd->s.graph;
	uint32_t k, *rows = NULL;
	size_t n = 0, cap = 0, i;
	int rc = 0;

	owners_collector_render_backlog_count(b, g, r->gr.steps, r->gr.scope, NULL, 0);
	for (k = 0; !rc && k < g->count; k++) {
		const struct owners_collector_step *s = &r->gr.steps[k];

		if (r->gr.scope[k] && (s->kind == OWNERS_COLLECTOR_STEP_WAIT || owners_collector_step_acts(s)))
			rc = owners_graph_node_list_push(&rows, &n, &cap, k);
	}
	/* in the node order, not the order listed */
	if (!rc)
		owners_graph_sort_nodes(g, rows, n);
	for (i = 0; !rc && i < n; i++) {
		const struct owners_collector_step *s = &r->gr.steps[k = rows[i]];

		rc = owners_buf_adds(&out, "  ");
		if (!rc)
			rc = owners_graph_node_name(&out, &g->nodes[k]);
		if (!rc && *g->nodes[k].namespace_)
			rc = owners_buf_addf(&out, " in namespace %s", g->nodes[k].namespace_);
		if (!rc)
			rc = owners_buf_adds(&out, ": ");
		if (!rc)
			rc = owners_collector_render_step_action_text(&out, s);
		if (!rc)
			rc = owners_buf_adds(&out, ": ");
		if (!rc)
			rc = owners_collector_render_step_reason(&out, r->gr.c, k, s);
		if (!rc)
			rc = owners_buf_addc(&out, '\n');
	}
	free(rows);
	rc = emit(&out, rc);
	owners_buf_clear(&out);
	return rc;
}

static enum exit_code timed_out(struct run *r)
{
	struct owners_collector_render_backlog b;

	meter_clear(&r->meter);
	if (r->o->timeout_ms < 1000)
		error_msg("timed out after %ldms with the garbage collector's work left:", r->o->timeout_ms);
	else
		error_msg("timed out after %lds with the garbage collector's work left:",
			  r->o->timeout_ms / 1000);
	say_left(r, &b);
	return EXIT_TIMEOUT;
}

/* The passes, until nothing is left to do or the time is up. */
static enum exit_code run_passes(struct run *r)
{
	const struct owners_gc_runner_hooks h = hooks_of(r);
	struct owners_error err = OWNERS_ERROR_INIT;
	enum owners_gc_runner_end end;
	enum exit_code rc = EXIT_OK;

	r->gr.timeout_ms = r->o->timeout_ms;
	r->gr.server_dry_run = r->o->dry_run == OWNERS_DRY_RUN_SERVER;
	if (owners_gc_runner_passes(&end, &r->gr, &r->world, &h, &err)) {
		rc = report_error(&err);
		owners_error_clear(&err);
	} else if (end == OWNERS_GC_RUNNER_TIMED_OUT) {
		return timed_out(r);
	} else if (end == OWNERS_GC_RUNNER_STOPPED) {
		rc = r->stop;
	}
	meter_clear(&r->meter);
	if (rc)
		return rc;
	if (r->gr.failed)
		return EXIT_ERROR;
	return 0;
}

/* How a run that did its passes ends: converged, or incomplete where
 * part of the cluster could not be seen or changed. */
static enum exit_code finish(struct run *r)
{
	struct owners_collector_render_backlog b;
	int rc, incomplete, undone;

	owners_collector_render_backlog_count(&b, r->cmd->s.graph, r->gr.steps, r->gr.scope, NULL, 0);
	/* --exit-code: anything left undone (a server dry run leaves it all) */
	undone = r->o->exit_code && owners_collector_render_backlog_actions(&b);
	incomplete = b.undecided || r->cmd->s.scan.n_failures || r->cmd->s.types.n_failed || r->gr.forbidden.count;
	if (r->o->dry_run == OWNERS_DRY_RUN_SERVER) {
		fprintf(stderr, "gc: %zu request%s accepted by the server (dry run, nothing changed)\n",
			r->gr.done, r->gr.done == 1 ? "" : "s");
		return incomplete ? EXIT_INCOMPLETE : undone ? EXIT_ERROR : 0;
	}
	fprintf(stderr, "gc: %s after %zu pass%s: %zu change%s; %zu object%s left waiting%s\n",
		owners_collector_render_backlog_actions(&b) ? "stopped" : "converged", r->gr.passes,
		r->gr.passes == 1 ? "" : "es", r->gr.done, r->gr.done == 1 ? "" : "s", b.waits, b.waits == 1 ? "" : "s", b.waits ? ":" : "");
	if ((rc = say_left(r, &b)))
		return rc;
	if (incomplete) {
		session_warn_scan(&r->cmd->s);
		error_msg("part of the cluster could not be seen or changed: what depends on it was kept%s",
			  b.undecided ? " (the objects marked undecided above)" : "");
		return EXIT_INCOMPLETE;
	}
	return undone ? EXIT_ERROR : 0;
}

/* ---- --watch ------------------------------------------------------------ */

static void on_watch_warning(void *ctx, const char *line)
{
	(void)ctx;
	warning_msg("%s", line);
}

/* One watch per type the latest scan listed, from that list's
 * resourceVersion (metadata only); with -l, the selector's own too. */
static int start_watches(struct run *r)
{
	struct owners_watch_options wo;
	size_t i;

	memset(&wo, 0, sizeof(wo));
	session_scan_options(&r->cmd->s, &wo.list);
	wo.list.on_listed = NULL;
	wo.warn = on_watch_warning;
	if (owners_watch_new(&r->w, r->cmd->s.graph, r->cmd->s.http, &r->cmd->s.types, &wo))
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
	struct run *r = ctx;
	struct owners_error err = OWNERS_ERROR_INIT;
	long wake = owners_watch_next_ms(r->w);
	int resized = 0, changed;

	if (owners_http_wait(r->cmd->s.http, wake, signals_fd(), &err) || owners_watch_service(r->w, &err)) {
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
	w->graph = r->cmd->s.graph;
	return changed > 0;
}

/* After converging: the graph kept current by watches, and every change
 * acted on as the GC would, until a signal. Each pass's requests are
 * sent whole before a signal is looked at: an interruption leaves no
 * more half done than the GC itself would (every request is atomic). */
static enum exit_code watch_and_act(struct run *r, int *quit)
{
	struct owners_gc_runner_hooks h = hooks_of(r);
	struct owners_error err = OWNERS_ERROR_INIT;
	enum owners_gc_runner_end end;
	enum exit_code rc = EXIT_OK;

	if ((rc = signals_open(SIGNALS_SECOND_ASKS)))
		return rc;
	if (start_watches(r))
		return error_oom();
	fprintf(stderr, "gc: watching %zu type%s; Ctrl-C to stop\n", r->listed.count,
		r->listed.count == 1 ? "" : "s");
	if (session_client_new(&r->cmd->s, &r->reads))
		return report_error(&r->cmd->s.err);
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

static enum exit_code validate(const struct owners_cli *cli, const void *opts,
			       const struct string_list *args)
{
	const struct gc_options *o = opts;

	if (args->count)
		return usage_error("owners gc takes no arguments: it works on every object of the namespace "
				   "(-A: of the cluster), -l to narrow it");
	if (o->watch && o->dry_run != OWNERS_DRY_RUN_NONE)
		return usage_error("--watch acts on every change: it cannot be combined with --dry-run");
	if (o->watch && cli->output.kind != OUTPUT_TEXT)
		return usage_error("--watch says what it does as it goes: -o %s does not apply",
				   cli->output.spelled);
	return EXIT_OK;
}

/* --watch: after the first passes, acts on every change until Ctrl-C. */
static enum exit_code keep_up(struct run *r)
{
	int quit = 0;
	enum exit_code rc;

	fprintf(stderr, "gc: converged after %zu pass%s: %zu change%s\n", r->gr.passes,
		r->gr.passes == 1 ? "" : "es", r->gr.done, r->gr.done == 1 ? "" : "s");
	/* What the scans could not see, once, before the watch: gc without
	 * --watch says it with its report. */
	session_warn_scan(&r->cmd->s);
	rc = watch_and_act(r, &quit);
	fprintf(stderr, "gc: stopped watching: %zu change%s in all\n", r->gr.done,
		r->gr.done == 1 ? "" : "s");
	if (!rc && quit) {
		/* the watches' requests are the client's: it lets go of them
		 * before the watch that owns them is freed */
		owners_http_client_free(r->cmd->s.http);
		r->cmd->s.http = NULL;
		owners_watch_free(r->w);
		r->w = NULL;
		owners_http_client_free(r->reads);
		r->reads = NULL;
		signals_die(quit);
	}
	return rc;
}

static void run_clear(struct run *r)
{
	owners_http_client_free(r->reads);
	if (r->w) {
		owners_http_client_free(r->cmd->s.http);
		r->cmd->s.http = NULL;
		owners_watch_free(r->w);
	}
	r->cmd->s.on_listed = NULL;
	listed_types_clear(&r->listed);
	owners_gc_runner_clear(&r->gr);
	owners_strset_clear(&r->selected);
	meter_end(&r->meter);
}

enum exit_code cmd_gc(struct cmd_run *run)
{
	const struct owners_cli *cli = run->cli;
	const struct gc_options *o = run->opts;
	struct owners_collector_render_backlog b;
	struct progress_timing timing;
	struct run r;
	enum exit_code rc;

	memset(&r, 0, sizeof(r));
	r.cmd = run;
	r.o = o;
	owners_strset_init(&r.selected);
	owners_gc_runner_init(&r.gr);
	r.gr.started_ms = owners_clock_ms();
	if ((rc = test_hook_progress(&timing)))
		goto out;
	meter_init(&r.meter, "gc", o->dry_run == OWNERS_DRY_RUN_NONE, o->dry_run == OWNERS_DRY_RUN_NONE, &timing);
	r.gr.scan_ns = run->scan_ns;
	r.gr.plan_only = o->dry_run == OWNERS_DRY_RUN_CLIENT;
	if (o->watch) {
		run->s.on_listed = listed_types_record;
		run->s.on_listed_ctx = &r.listed;
	}
	if ((rc = session_scan(&run->s, run->scan_ns)) || (cli->selector && (rc = select_labelled(&r))))
		goto out;
	r.world.graph = run->s.graph;
	r.world.http = run->s.http;
	if (o->dry_run == OWNERS_DRY_RUN_CLIENT) {
		if (!(rc = decide_only(&r)) && !(rc = show_backlog(&r, &b, 1)) && o->exit_code)
			rc = owners_collector_render_backlog_actions(&b) ? EXIT_ERROR : EXIT_OK;
	} else if (!(rc = run_passes(&r))) {
		if (o->watch)
			rc = keep_up(&r);
		else if (cli->output.kind == OUTPUT_TEXT || cli->output.kind == OUTPUT_WIDE ||
			 !(rc = show_backlog(&r, &b, 0)))
			rc = finish(&r);
	}
out:
	run_clear(&r);
	return rc;
}

/* The man page's detail beyond --help (see struct man_section). */
static const struct man_section gc_man_sections[] = {
	{"THE GARBAGE COLLECTOR'S HANDLERS",
		"For every object in scope it decides what the GC would do now, in the GC's own\n"
		"terms (lib/ops/collector.c in the source):\n"
		"\n"
		"- attemptToDeleteItem: an object none of whose owners is solid (found by name\n"
		"where it must be, with the UID referenced, not in foreground deletion) is\n"
		"deleted, with the policy its own finalizers say (orphan: Orphan,\n"
		"foregroundDeletion: Foreground, else Background); one whose owner waits for its\n"
		"dependents and that has dependents of its own is deleted in the foreground,\n"
		"after the cycle breaker (blockOwnerDeletion off) where a dependent of it is in\n"
		"foreground deletion too; one with a solid owner loses its references to owners\n"
		"that are gone or in foreground deletion. An object the GC cannot classify (a\n"
		"reference to an apiVersion it cannot map, a namespaced owner of a\n"
		"cluster-scoped object, an owner in an API group that failed discovery) is left\n"
		"alone, as the GC leaves it.\n"
		"\n"
		"- processDeletingDependentsItem: foregroundDeletion comes off an object no\n"
		"dependent blocks any more.\n"
		"\n"
		"- attemptToOrphan: an object in deletion with orphan has its dependents\n"
		"released, then the finalizer comes off."},
	{"WHEN THE GARBAGE COLLECTOR STOPS",
		"owners gc -A --dry-run=client shows the backlog (here the controller-manager was\n"
		"stopped with SIGSTOP and an APIService points nowhere):\n"
		"  NAMESPACE   OBJECT                  HANDLER                         ACTION                       SINCE   WHY\n"
		"  stopped     ConfigMap/bg-dep1       attemptToDeleteItem             delete (Background)          -       no owner is solid (ConfigMap/bg-root: absent)\n"
		"  stopped     ConfigMap/cyc-a         processDeletingDependentsItem   wait (blocking-dependents)   4m      foreground deletion waits on 1 blocking dependent\n"
		"  stopped     ConfigMap/cyc-b         attemptToDeleteItem             unblock references           4m      cycle: dependent ConfigMap/cyc-a is in foreground deletion too: blockOwnerDeletion off, then deleted in the foreground\n"
		"  stopped     ConfigMap/fg-dep1       attemptToDeleteItem             delete (Background)          4m      owner ConfigMap/fg-root waits for its dependents ...\n"
		"  stopped     ConfigMap/fg-root       processDeletingDependentsItem   wait (blocking-dependents)   4m      foreground deletion waits on 2 blocking dependents\n"
		"  stopped     ConfigMap/held          attemptToDeleteItem             wait (finalizers)            4m      in deletion; waits on others' finalizers: example.com/hold\n"
		"  stopped     ConfigMap/metrics-dep   attemptToDeleteItem             wait (gives-up)              -       the GC cannot look up owner metrics.k8s.io/v1beta1 PodMetrics/p (its API group failed discovery ...\n"
		"  stopped     ConfigMap/or-root       attemptToOrphan                 release 2 dependents         4m      2 dependents lose the reference, then the finalizer comes off\n"
		"  warning: discovery of 'metrics.k8s.io/v1beta1' failed: APIService v1beta1.metrics.k8s.io is not available: ServiceNotFound: service/no-such-service in \"kube-system\" is not present (its types are unknown)\n"
		"  5 deletions, 0 reference removals, 0 finalizer removals, 1 release, 1 unblock; 5 waiting (2 the GC gives up on, 0 undecided); oldest due 4m (ConfigMap/cyc-b); when the GC is done: 9 objects collected in 3 passes\n"
		"  the garbage collector appears not to be running (oldest pending action: 4m, unblock references on ConfigMap/cyc-b: ...; the controller-manager's leader lease was last renewed 4m ago, past its 15s): `owners gc` does its work\n"
		"\n"
		"-o wide adds OBJECTS, the objects each action changes: the dependents a\n"
		"release releases, the blocking dependents a foreground deletion waits on, the\n"
		"owners whose references come off, and after a delete (\"then ...\") what the GC\n"
		"collects once the object is gone, for its going:\n"
		"  NAMESPACE   OBJECT              HANDLER           ACTION                 OBJECTS                                SINCE   WHY\n"
		"  stopped     ConfigMap/or-root   attemptToOrphan   release 2 dependents   ConfigMap/or-dep1, ConfigMap/or-dep2   4m      2 dependents lose the reference, ...\n"
		"The documents (-o json|yaml) name them too, as REFs (OUTPUT).\n"
		"\n"
		"Objects in foreground deletion that block each other (each a blocking\n"
		"dependent of another) wait forever: the GC's cycle breaker acts only on objects\n"
		"not yet in deletion. Each is a row 'wait (deadlock)' whose WHY names the\n"
		"members and the command that ends it (taking foregroundDeletion off the fewest\n"
		"of them); the summary counts them ('in a deadlock').\n"
		"\n"
		"SINCE is how long the work has been due where the cluster records it (the\n"
		"deletionTimestamp that made it due; an owner that is gone leaves no time\n"
		"behind). Work a running GC does in seconds that has been due for\n"
		"--stalled-after (default 3m) makes it say that the GC appears not to be\n"
		"running. So does the controller-manager's leader lease\n"
		"(kube-system/kube-controller-manager, read on the server's clock) when it has\n"
		"not been renewed for its duration (15s by default): then no controller-manager\n"
		"leads, and none of its controllers runs; that is a fact, not a judgement of\n"
		"slowness, so --stalled-after does not delay it. A lease that cannot be read\n"
		"(forbidden; no leader election) is no evidence either way, and\n"
		"metadata.summary.gcEvidence says so. --exit-code makes the dry run a monitor: exit 1 when the GC has work\n"
		"due, 0 when not. -o json|yaml writes the OwnersGCBacklog document (OUTPUT), an\n"
		"item per object with the GC's step under owners; its metadata.summary's\n"
		"eventuallyCollected and passes are where the GC's passes settle; -o name prints\n"
		"the objects. The\n"
		"same evidence makes owners why and owners finalizers say it too: a dependent\n"
		"of a deleted owner \"will be collected\" only by a GC that runs, and owners why\n"
		"says what is known of that (\"rests on\").\n"
		"\n"
		"Then owners gc -A does it:\n"
		"  configmap \"bg-dep1\" deleted (Background) in namespace stopped\n"
		"  configmap \"cyc-b\" references unblocked in namespace stopped\n"
		"  configmap \"or-dep1\" references removed in namespace stopped\n"
		"  configmap \"cyc-a\" finalizer foregroundDeletion removed in namespace stopped\n"
		"  configmap \"cyc-b\" deleted (Foreground) in namespace stopped\n"
		"  configmap \"fg-root\" finalizer foregroundDeletion removed in namespace stopped\n"
		"  configmap \"or-root\" finalizer orphan removed in namespace stopped\n"
		"  ...\n"
		"  gc: converged after 3 passes: 13 changes; 2 objects left waiting:\n"
		"    configmap/held in namespace stopped: wait (finalizers): in deletion; waits on others' finalizers: example.com/hold\n"
		"    configmap/metrics-dep in namespace stopped: wait (gives-up): the GC cannot look up owner ...\n"
		"  error: part of the cluster could not be seen or changed: what depends on it was kept"},
	{"PASSES",
		"It works in passes, as the GC does (what one pass deletes can make new work),\n"
		"until the GC would do nothing more: exit 0, naming what is left waiting on\n"
		"others' finalizers; 3 when --timeout (default 5m) passes first; 4 when part of\n"
		"the cluster could not be seen or changed (an API group that failed discovery, a\n"
		"list that failed, an owner this user may not list, a write the server forbade):\n"
		"what depends on it is kept, never guessed. Every DELETE carries the UID and\n"
		"resourceVersion read as preconditions and every patch the resourceVersion read;\n"
		"a conflict is decided again in the next pass, so with the cluster's own GC\n"
		"running beside it both race and the outcome is the same. Before its first change\n"
		"it asks for every permission the work needs (a read-only user gets the backlog,\n"
		"and one clear error on acting with nothing changed). -n NAMESPACE acts only on\n"
		"that namespace's objects but reads their owners wherever the GC would\n"
		"(cluster-scoped owners, and the owners' types in every namespace, to tell an\n"
		"owner in another namespace from an absent one); -l narrows it to objects with\n"
		"those labels. A run killed at any point and started again finishes the same\n"
		"work: nothing of it lives in the process.\n"
		"\n"
		"On a terminal a progress line on stderr, redrawn in place, counts the passes\n"
		"and the changes. When stderr is not a terminal (a CI log, a file) a run that\n"
		"lasts says each new pass in a line of its own instead (gc: pass 2, 13 done, 4\n"
		"acting (3s so far)), at most one a second and at least one every 30 seconds;\n"
		"a run over within 2 seconds says none.\n"
		"\n"
		"It acts on no absence the server has not confirmed, as the GC's isDangling()\n"
		"does: before a deletion or a reference removal that rests on an owner missing\n"
		"from the lists (or the watches), that owner is read from the server by its\n"
		"apiVersion, kind and name, its UID compared, once per owner per pass. Lists of\n"
		"different types are taken at different moments and watches lag each other: an\n"
		"owner found there keeps its dependent (wait owner-exists) until a scan sees it,\n"
		"and one that cannot be read keeps it too. --dry-run=client shows the backlog as\n"
		"listed, without those reads; --dry-run=server makes them."},
	{"WATCHING",
		"owners gc -A --watch stays: once the work is done it watches every type it\n"
		"listed (from the resourceVersion of those lists, with the engine of tree\n"
		"--watch: resumed after a disconnect, listed again after a 410) and acts on each\n"
		"change as the GC would, a collector a person can run from a laptop while the\n"
		"cluster's own is down. It sleeps on its watches (no polling: idle, it uses no\n"
		"CPU), sends what it decided for an object once until the object changes, and on\n"
		"Ctrl-C finishes the requests in flight (each is atomic: nothing is left more\n"
		"half done than the GC would leave it) and ends with 130."},
	{"CHECKED AGAINST THE REAL GARBAGE COLLECTOR",
		"The end-to-end suite gc.t builds batches of random ownership graphs (chains,\n"
		"diamonds, cycles, self-references, several owners blocking and not,\n"
		"cluster-scoped owners, stale UIDs, absent names, unserved apiVersions,\n"
		"cluster-scoped objects naming namespaced owners, owners in another namespace,\n"
		"foreign and GC finalizers) alike in a cluster whose controller-manager runs the\n"
		"GC and in one where none runs; owners gc -A must reach the state the GC settles\n"
		"to, graph by graph, and again after one object of each graph is deleted with\n"
		"kubectl delete in each cascade mode; owners gc --watch is checked the same way,\n"
		"live. The real GC's own differences and races it lets through, named, are\n"
		"described in tests/README.md of the source. Run with 3 batches of 30 graphs\n"
		"(seed 17169): 240 graph states, 239 identical at once and 1 once the GC\n"
		"restarted, none different."},
	{NULL, NULL},
};

/* The command: its usage, help, man page text and permissions. */
/* gc acts unless --dry-run=client; server-side dry runs ask the server. */
static const char *gc_changes(const void *opts)
{
	const struct gc_options *o = opts;

	if (o->dry_run == OWNERS_DRY_RUN_CLIENT && !o->watch)
		return NULL;
	return o->watch ? "--watch follows the live cluster"
	       : o->dry_run == OWNERS_DRY_RUN_SERVER ? "--dry-run=server asks the server"
						      : "deletes and patches objects (--dry-run=client only reads)";
}

const struct command gc_command = {
	.name = "gc",
	.man_sections = gc_man_sections,
	.fn = cmd_gc,
	.validate = validate,
	CMD_OPTIONS(gc_opts, struct gc_options, &gc_defaults),
	.outputs = gc_outputs,
	.output_default = "table",
	.usage = "owners gc [-n NAMESPACE | -A] [-l SELECTOR] [--dry-run[=client|server|none]] [flags]",
	.summary = "do the garbage collector's pending work from the client, or show it",
	.description = "Runs the cluster's garbage collector from the client, for clusters whose own\n"
		"has stopped (a CRD or APIService that breaks its cache sync, an overloaded\n"
		"controller-manager) or is off. For every object of the namespace (-A: of the\n"
		"cluster) it decides what the GC would do now, in the GC's own terms:\n"
		"  attemptToDeleteItem            an object whose owners are all gone (or in\n"
		"                                 foreground deletion) is deleted, with the policy\n"
		"                                 its finalizers say; with a solid owner left, the\n"
		"                                 references to owners gone or in foreground\n"
		"                                 deletion are removed; a cycle is unblocked\n"
		"  processDeletingDependentsItem  foregroundDeletion comes off an object no\n"
		"                                 dependent blocks any more\n"
		"  attemptToOrphan                an object deleted with orphan: its dependents\n"
		"                                 lose their references, then the finalizer goes\n"
		"Where the GC gives up (a reference to an apiVersion it cannot map, a\n"
		"namespaced owner of a cluster-scoped object, an owner in an API group that\n"
		"failed discovery) it does nothing; an owner this user may not list is\n"
		"undecided, never taken for gone.\n"
		"\n"
		"--dry-run shows that backlog: one row per object, what is done to it, why, and\n"
		"since when it has been due (the deletionTimestamp that made it due, where the\n"
		"cluster records one), then a summary line with the outcome once the GC's passes\n"
		"settle. Work due for 3 minutes or more (--stalled-after), which a running GC\n"
		"does in seconds, is said: \"the garbage collector appears not to be running\".\n"
		"\n"
		"Without --dry-run it does the work in passes (what one pass deletes can make\n"
		"new work, as in the GC) until the GC would do nothing more: exit 0, naming\n"
		"what is left waiting on others' finalizers; 3 when --timeout passes first; 4\n"
		"when part of the cluster could not be seen or changed (kept, never guessed).\n"
		"Every DELETE carries the UID and resourceVersion read as preconditions, every\n"
		"patch the resourceVersion read; a conflict is decided again in the next pass.\n"
		"With the cluster's own GC running beside it, both race under those\n"
		"preconditions and the outcome is the same. -n acts on the namespace's objects\n"
		"only, and reads their owners wherever the GC would (cluster-scoped owners, and\n"
		"other namespaces to tell invalid-namespace references apart).",
	.examples = "  owners gc -A --dry-run=client\n"
		"  owners gc -A --dry-run=client --exit-code    # monitoring: 1 when the GC has a backlog\n"
		"  owners gc -n ci\n"
		"  owners gc -A --timeout=10m\n"
		"  owners gc -A --dry-run=client -o json",
	.args = CMD_ARGS_NONE,
	.discovery = CMD_DISCOVERY_CURRENT,
	.reads_snapshot = 1,
	.changes = *gc_changes,
	.scope = OWNERS_SCOPE_NAMESPACE,
	.rbac = "list on every type it scans; delete on the objects it collects; patch on the objects whose finalizers or references it changes",
	.json_schema = "-o json prints, Kubernetes-shaped as kubectl get -o json:\n"
		"{\"apiVersion\": \"owners.dev/v1\", \"kind\": \"OwnersGCBacklog\",\n"
		" \"metadata\": {\"summary\"}, \"items\": [ITEM...], \"warnings\": [WARNING...]}.\n"
		DOC_JSON_ITEM_WARNING_REF
		"An ITEM per object the GC acts on or that waits; FACTS:\n"
		"    handler      attemptToDeleteItem | processDeletingDependentsItem | attemptToOrphan\n"
		"    action       delete | remove-references | unblock-references | remove-finalizer |\n"
		"                 release-dependents | wait\n"
		"    propagationPolicy  (delete) Background | Foreground | Orphan\n"
		"    finalizer    (remove-finalizer) foregroundDeletion | orphan\n"
		"    waitsOn      (wait) finalizers | blocking-dependents | gives-up | undecided |\n"
		"                 owner-exists (missing from the lists, there when read) | deadlock\n"
		"    count        references removed, dependents released, or blocking dependents\n"
		"    deadlock     (waitsOn deadlock) {\"members\": [REF...], \"command\"}: the objects\n"
		"                 in foreground deletion that block each other, which no one (the\n"
		"                 GC included) ever ends, and the command that ends it\n"
		"    owner        REF of the owner the decision hinges on (dependent, for\n"
		"                 unblock-references)\n"
		"    releases     (release-dependents) [REF...]: the dependents released\n"
		"    blockedBy    (wait on blocking-dependents) [REF...]: the dependents that block\n"
		"    removesReferencesTo  (remove-references) [REF...]: the owners whose\n"
		"                 references come off\n"
		"    thenCollected  (delete) [REF...]: what the GC collects once the object is\n"
		"                 gone, for its going\n"
		"    reason       the rule, in words\n"
		"    since        RFC 3339 time the work became due, or null when not known\n"
		"metadata.summary: {deletions, referenceRemovals, finalizerRemovals, releases,\n"
		"unblocks, waiting, givesUp, undecided, deadlocked, oldestDue (time or null), oldestDueObject\n"
		"(REF), eventuallyCollected, passes, gcAppearsStopped, gcEvidence: {\"state\":\n"
		"running | appears-stopped | unknown, \"reason\"}} (running: the\n"
		"controller-manager renews its leader lease; unknown: no evidence either way)",
};
