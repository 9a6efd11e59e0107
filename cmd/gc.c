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
#include "gc_man.h"
#include "gc_run.h"
#include "gc_runner.h"
#include "meter.h"
#include "output.h"
#include "session_access.h"
#include "session_across.h"
#include "session_connect.h"
#include "session_scan.h"
#include "session_warnings.h"
#include "sink.h"
#include "strset.h"
#include "test_hooks.h"

static const char *const gc_outputs[] = { "table", "wide", "json", "yaml", "name", "jsonpath=", "custom-columns=", NULL };


static const struct gc_options gc_defaults = {
	.stalled_after_ms = 3 * 60 * 1000,
	.timeout_ms = 5 * 60 * 1000,
};

#define OPT_STRUCT struct gc_options
const struct opt gc_opts[] = {
	OPT_DRY_RUN(
		"client (and --dry-run alone, kubectl's deprecated spelling): show the...",
		"client (and --dry-run alone, kubectl's deprecated spelling): show the backlog, "
		"every action the garbage collector would take now, and change nothing; server: "
		"send the first pass's requests with dryRun=All and say which the server accepts; "
		"none (default): do the work"),
	OPT_BOOL("exit-code", 0, exit_code, "exit 1 when the garbage collector has work due",
		 "exit 1 when the garbage collector has work due (with --dry-run: a backlog; "
		 "otherwise: anything left undone), 0 when none"),
	OPT_DURATION("stalled-after", stalled_after_ms,
		     "say the garbage collector appears not to be running when work it does in...",
		     "say the garbage collector appears not to be running when work it does in "
		     "seconds has been due this long (default 3m)"),
	OPT_DURATION("timeout", timeout_ms, NULL,
		     "give up after this long, exit 3 and say what is left (default 5m)"),
	OPT_SELECTOR("act only on objects with these labels",
		     "act only on objects with these labels (their owners are read wherever "
		     "they are)"),
	OPT_BOOL("watch", 'w', watch,
		 "after the work is done, keep watching and act on every change as the...",
		 "after the work is done, keep watching and act on every change as the garbage "
		 "collector would, until interrupted (Ctrl-C)"),
	OPT_OUTPUT(
		"table (default), wide (adds OBJECTS: the objects each action changes),...",
		"table (default), wide (adds OBJECTS: the objects each action changes), "
		"json/yaml: the OwnersGCBacklog document of what is due "
		"(with --dry-run; otherwise of what is left), name: its objects "
		"(kind.group/name), jsonpath=TEMPLATE or custom-columns=SPEC (over the document)"),
	OPT_TEMPLATE_KEYS,
	OPT_NO_HEADERS,
	OPT_END,
};
#undef OPT_STRUCT


/* ---- which objects ------------------------------------------------------ */

static int remember_selected(void *ctx, const struct owners_resource *res, const struct owners_object_meta *m)
{
	(void)res;
	return owners_strset_add(ctx, m->uid, NULL) ? 0 : OWNERS_ENOMEM;
}

/* -l: the objects it matches, by UID, in one more list per type (the
 * server matches the labels, as for every -l of owners). */
static enum exit_code select_labelled(struct gc_run *r)
{
	struct owners_scan_options o;
	struct owners_scan_report report;
	enum exit_code rc;

	session_scan_options(r->cmd->s, &o);
	o.namespace_ = r->cmd->scan_ns;
	o.cluster_scoped = r->cmd->scan_ns == NULL;
	o.label_selector = r->cmd->cli->selector;
	o.on_object = remember_selected;
	o.on_object_ctx = &r->selected;
	rc = session_list_into(r->cmd->s, NULL, &o, &report)
		     ? report_error(session_error(r->cmd->s))
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
	const struct gc_run *r = ctx;

	if (!r->cmd->cli->selector)
		return 1;
	/* watching: the selector's own watches keep the set current */
	return r->w ? owners_watch_selected(r->w, OWNERS_NODE_UID(node))
		    : owners_strset_get(&r->selected, OWNERS_NODE_UID(node)) != NULL;
}

/* A namespace's run: the owners of the objects in scope are read in every
 * namespace too, as the GC reads them, which adds their objects to the
 * graph (out of scope). */
static int look_across(void *ctx, struct owners_gc_runner_world *w, const uint32_t *nodes, size_t n)
{
	struct gc_run *r = ctx;

	r->stop = session_look_across_namespaces(r->cmd->s, nodes, n);
	w->graph = session_graph(r->cmd->s);
	return r->stop != EXIT_OK;
}

static int rescan(void *ctx, struct owners_gc_runner_world *w)
{
	struct gc_run *r = ctx;

	listed_types_clear(&r->listed);
	r->stop = session_rescan(r->cmd->s, r->cmd->scan_ns, NULL, NULL);
	w->graph = session_graph(r->cmd->s);
	return r->stop != EXIT_OK;
}

/* ---- showing ------------------------------------------------------------ */

static struct owners_collector_render render_of(const struct gc_run *r, const struct owners_collector_render_backlog *b)
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
	render.print.now = session_now(r->cmd->s);
	return render;
}

/* Writes a rendered text on stderr (the summary, the evidence, what is
 * left), or says why it could not be rendered (rendered: its OWNERS_E*
 * code); the exit code. */
static enum exit_code emit(struct owners_buf *b, int rendered)
{
	if (rendered)
		return error_render(rendered);
	if (b->len)
		fwrite(b->ptr, 1, b->len, stderr);
	owners_buf_reset(b);
	return EXIT_OK;
}

/* The backlog of this pass: the table (or the document), the summary and
 * the stopped-GC evidence on stderr. */
OUTPUT_RENDERERS(renderers, struct owners_collector_render, owners_collector);

static enum exit_code show_backlog(struct gc_run *r, struct owners_collector_render_backlog *b, int with_fates)
{
	struct owners_collector_render render;
	struct owners_buf out = OWNERS_BUF_INIT;
	enum exit_code rc;

	/* where the passes settle: owners_gc_runner_decide() settled them already */
	owners_collector_render_backlog_count(b, session_graph(r->cmd->s), r->gr.steps, r->gr.scope,
					      with_fates ? r->gr.c->ends : NULL,
					      with_fates ? r->gr.c->passes : 0);
	render = render_of(r, b);
	gc_evidence_lease(r->cmd->s, &render); /* the document's gcAppearsStopped too */
	rc = output_emit(r->cmd, &renderers, &render);
	if (!rc && (r->cmd->cli->output.kind == OUTPUT_TEXT || r->cmd->cli->output.kind == OUTPUT_WIDE))
		rc = emit(&out, owners_collector_render_summary(&out, &render));
	if (!rc)
		rc = emit(&out, owners_collector_render_stalled(&out, &render));
	owners_buf_clear(&out);
	return rc;
}

/* kubectl's words for what was done to one object. */
static void say_done(struct gc_run *r, const struct owners_gc_runner_event *e)
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
		    *n->place->namespace_ ? " in namespace " : "", n->place->namespace_, dry ? " (server dry run)" : "");
	sink_flush();
	owners_buf_clear(&type);
	owners_buf_clear(&what);
}

static void say_refused(struct gc_run *r, const struct owners_gc_runner_event *e)
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
	struct gc_run *r = ctx;
	struct owners_access_check *checks = NULL;
	uint32_t *examples = NULL;
	size_t n = 0;

	if (owners_actions_needed_access(p, g, 0, &checks, &examples, &n))
		r->stop = error_oom();
	else {
		meter_clear(&r->meter);
		r->stop = session_check_access(r->cmd->s, checks, examples, n,
					       "the garbage collector's work");
	}
	return r->stop != EXIT_OK;
}

static void show_progress(struct gc_run *r, const struct owners_gc_runner_event *e)
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
	struct gc_run *r = ctx;

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

struct owners_gc_runner_hooks gc_run_hooks(struct gc_run *r)
{
	struct owners_gc_runner_hooks h = gc_hooks;

	h.ctx = r;
	return h;
}

/* --dry-run=client: the backlog as listed, nothing sent. */
static enum exit_code decide_only(struct gc_run *r)
{
	const struct owners_gc_runner_hooks h = gc_run_hooks(r);
	int rc = owners_gc_runner_decide(&r->gr, &r->world, &h);

	return rc == 1 ? r->stop : rc ? error_oom() : EXIT_OK;
}

/* What is left when the passes end: every object that waits (and on
 * what), on stderr. */
static enum exit_code say_left(struct gc_run *r, struct owners_collector_render_backlog *b)
{
	struct owners_buf out = OWNERS_BUF_INIT;
	const struct owners_graph *g = session_graph(r->cmd->s);
	uint32_t k, *rows = NULL;
	size_t n = 0, cap = 0, i;
	int failed = 0;
	enum exit_code rc;

	owners_collector_render_backlog_count(b, g, r->gr.steps, r->gr.scope, NULL, 0);
	for (k = 0; !failed && k < g->count; k++) {
		const struct owners_collector_step *s = &r->gr.steps[k];

		if (r->gr.scope[k] && (s->kind == OWNERS_COLLECTOR_STEP_WAIT || owners_collector_step_acts(s)))
			failed = owners_graph_node_list_push(&rows, &n, &cap, k);
	}
	/* in the node order, not the order listed */
	if (!failed)
		owners_graph_sort_nodes(g, rows, n);
	for (i = 0; !failed && i < n; i++) {
		const struct owners_collector_step *s = &r->gr.steps[k = rows[i]];

		failed = owners_buf_adds(&out, "  ");
		if (!failed)
			failed = owners_graph_node_name(&out, &g->nodes[k]);
		if (!failed && *g->nodes[k].place->namespace_)
			failed = owners_buf_addf(&out, " in namespace %s", g->nodes[k].place->namespace_);
		if (!failed)
			failed = owners_buf_adds(&out, ": ");
		if (!failed)
			failed = owners_collector_render_step_action_text(&out, s);
		if (!failed)
			failed = owners_buf_adds(&out, ": ");
		if (!failed)
			failed = owners_collector_render_step_reason(&out, r->gr.c, k, s);
		if (!failed)
			failed = owners_buf_addc(&out, '\n');
	}
	free(rows);
	rc = emit(&out, failed);
	owners_buf_clear(&out);
	return rc;
}

static enum exit_code timed_out(struct gc_run *r)
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
static enum exit_code run_passes(struct gc_run *r)
{
	const struct owners_gc_runner_hooks h = gc_run_hooks(r);
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
static enum exit_code finish(struct gc_run *r)
{
	struct owners_collector_render_backlog b;
	enum exit_code rc;
	int incomplete, undone;

	owners_collector_render_backlog_count(&b, session_graph(r->cmd->s), r->gr.steps,
					      r->gr.scope, NULL, 0);
	/* --exit-code: anything left undone (a server dry run leaves it all) */
	undone = r->o->exit_code && owners_collector_render_backlog_actions(&b);
	incomplete = b.undecided || session_scan_report(r->cmd->s)->n_failures ||
		     session_types(r->cmd->s)->n_failed || r->gr.forbidden.count;
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
		session_warn_scan(r->cmd->s);
		error_msg("part of the cluster could not be seen or changed: what depends on it was kept%s",
			  b.undecided ? " (the objects marked undecided above)" : "");
		return EXIT_INCOMPLETE;
	}
	return undone ? EXIT_ERROR : 0;
}

static enum exit_code validate(const struct owners_cli *cli, const void *opts,
			       const struct string_list *args)
{
	const struct gc_options *o = opts;

	if (args->count)
		return usage_error(
			"%s gc takes no arguments: it works on every object of the namespace "
			"(-A: of the cluster), -l to narrow it",
			cli->program);
	if (o->watch && o->dry_run != OWNERS_DRY_RUN_NONE)
		return usage_error("--watch acts on every change: it cannot be combined with --dry-run");
	if (o->watch && cli->output.kind != OUTPUT_TEXT)
		return usage_error("--watch says what it does as it goes: -o %s does not apply",
				   cli->output.spelled);
	return EXIT_OK;
}

static void run_clear(struct gc_run *r)
{
	owners_http_client_free(r->reads);
	if (r->w) {
		session_disconnect(r->cmd->s);
		owners_watch_free(r->w);
	}
	session_on_listed(r->cmd->s, NULL, NULL);
	listed_types_clear(&r->listed);
	owners_gc_runner_clear(&r->gr);
	owners_strset_clear(&r->selected);
	meter_end(&r->meter);
}

/* The run over run's session, its meter and its runner set up. */
static enum exit_code run_init(struct gc_run *r, struct cmd_run *run)
{
	const struct gc_options *o = run->opts;
	struct progress_timing timing;
	enum exit_code rc = test_hook_progress(&timing);

	memset(r, 0, sizeof(*r));
	r->cmd = run;
	r->o = o;
	owners_strset_init(&r->selected);
	owners_gc_runner_init(&r->gr);
	r->gr.started_ms = owners_clock_ms();
	meter_init(&r->meter, "gc", o->dry_run == OWNERS_DRY_RUN_NONE, o->dry_run == OWNERS_DRY_RUN_NONE, &timing);
	r->gr.scan_ns = run->scan_ns;
	r->gr.plan_only = o->dry_run == OWNERS_DRY_RUN_CLIENT;
	if (o->watch) {
		session_on_listed(run->s, listed_types_record, &r->listed);
	}
	return rc;
}

enum exit_code cmd_gc(struct cmd_run *run)
{
	const struct owners_cli *cli = run->cli;
	const struct gc_options *o = run->opts;
	struct owners_collector_render_backlog b;
	struct gc_run r;
	enum exit_code rc;

	if ((rc = run_init(&r, run)))
		goto out;
	if ((rc = session_scan(run->s, run->scan_ns)) ||
	    (cli->selector && (rc = select_labelled(&r))))
		goto out;
	r.world.graph = session_graph(run->s);
	r.world.http = session_http(run->s);
	if (o->dry_run == OWNERS_DRY_RUN_CLIENT) {
		if (!(rc = decide_only(&r)) && !(rc = show_backlog(&r, &b, 1)) && o->exit_code)
			rc = owners_collector_render_backlog_actions(&b) ? EXIT_ERROR : EXIT_OK;
	} else if (!(rc = run_passes(&r))) {
		if (o->watch)
			rc = gc_keep_up(&r);
		else if (cli->output.kind == OUTPUT_TEXT || cli->output.kind == OUTPUT_WIDE ||
			 !(rc = show_backlog(&r, &b, 0)))
			rc = finish(&r);
	}
out:
	run_clear(&r);
	return rc;
}

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
