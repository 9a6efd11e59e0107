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
#include "cascade_exec.h"
#include "absence_confirm.h"
#include "collector.h"
#include "collector_render.h"
#include "commands.h"
#include "deadlock.h"
#include "gc_evidence.h"
#include "grow.h"
#include "meter.h"
#include "output.h"
#include "session.h"
#include "screen.h"
#include "strset.h"
#include "tree_watch.h"
#include "watch.h"

static const char *const gc_outputs[] = { "table", "wide", "json", "yaml", "name", "jsonpath=", "custom-columns=", NULL };

const struct opt gc_opts[] = {
	OPT_DRY_RUN(
		"client (and --dry-run alone, kubectl's deprecated spelling): show the backlog, "
		"every action the garbage collector would take now, and change nothing; server: "
		"send the first pass's requests with dryRun=All and say which the server accepts; "
		"none (default): do the work"),
	OPT_BOOL("exit-code", 0, gc.exit_code,
		 "exit 1 when the garbage collector has work due (with --dry-run: a backlog; "
		 "otherwise: anything left undone), 0 when none"),
	OPT_DURATION("stalled-after", gc.stalled_after_ms,
		     "say the garbage collector appears not to be running when work it does in "
		     "seconds has been due this long (default 3m)"),
	OPT_DURATION("timeout", timeout_ms,
		     "give up after this long, exit 3 and say what is left (default 5m)"),
	OPT_SELECTOR("act only on objects with these labels (their owners are read wherever "
		     "they are)"),
	OPT_BOOL("watch", 'w', gc.watch,
		 "after the work is done, keep watching and act on every change as the garbage "
		 "collector would, until interrupted (Ctrl-C)"),
	OPT_OUTPUT(gc_outputs,
		   "table (default), wide (adds OBJECTS: the objects each action changes), "
		   "json/yaml: the OwnersGCBacklog document of what is due "
		   "(with --dry-run; otherwise of what is left), name: its objects "
		   "(kind.group/name), jsonpath=TEMPLATE or custom-columns=SPEC (over the document)"),
	OPT_TEMPLATE_KEYS,
	OPT_BOOL("no-headers", 0, table.no_headers, "table: no header line"),
	OPT_END,
};

struct run {
	struct cmd_run *cmd;
	struct owners_cli *cli;
	struct session *s;            /* the run's (cmd/run.h) */
	const char *scan_ns;          /* NULL: all namespaces */
	struct owners_strset selected;/* -l: UIDs of the objects it matches */
	struct meter meter;           /* the passes' progress (cmd/meter.c) */
	time_t started;
	/* what the passes did */
	struct owners_strset forbidden; /* UIDs the server forbade changing */
	size_t done, failed, passes;
	/* --watch */
	struct listed_types listed;    /* the latest scan's lists, where watches start */
	struct owners_watch *w;
	/* watching: the owners' reads go on a connection of their own, so that
	 * no watch event changes the graph while a pass is decided */
	struct owners_http_client *reads;
	struct owners_strset acted;   /* uid -> resourceVersion acted on (not again until it changes) */
	/* this pass */
	struct owners_collector *c;
	struct owners_gc_step *steps;
	unsigned char *scope;
	size_t held;                  /* references whose owner, missing from the scan, is there */
};

static void pass_clear(struct run *r)
{
	owners_collector_free(r->c);
	free(r->steps);
	free(r->scope);
	r->c = NULL;
	r->steps = NULL;
	r->scope = NULL;
}

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

	session_scan_options(r->s, &o);
	o.namespace_ = r->scan_ns;
	o.cluster_scoped = r->scan_ns == NULL;
	o.label_selector = r->cli->selector;
	o.on_object = remember_selected;
	o.on_object_ctx = &r->selected;
	rc = owners_scan_run(NULL, r->s->http, &r->s->types, &o, &report, &r->s->err) ? report_error(&r->s->err) : 0;
	if (!rc && report.n_failures) {
		error_msg("%s (-l %s): which objects match cannot be told", report.failures[0].message,
			  r->cli->selector);
		rc = EXIT_ERROR;
	}
	owners_scan_report_clear(&report);
	return rc;
}

static int in_scope(const struct run *r, const struct owners_node *node)
{
	if (node->virtual_ || (r->scan_ns && strcmp(node->namespace_, r->scan_ns)))
		return 0;
	if (!r->cli->selector)
		return 1;
	/* watching: the selector's own watches keep the set current */
	return r->w ? owners_watch_selected(r->w, node->uid) : owners_strset_get(&r->selected, node->uid) != NULL;
}

/* The objects the command acts on: those of the namespace (all with -A),
 * matching -l when given. Owners are read wherever the GC reads them: in
 * a namespace's run, the owners' types are listed in every namespace too,
 * which adds their objects to the graph (out of scope). */
static enum exit_code choose_scope(struct run *r)
{
	uint32_t *nodes = NULL, k;
	size_t n = 0;
	int rc = 0;

	/* Watching, the graph is the watches': nothing is added to it. The
	 * lookup only names a class (absent or invalid-namespace), and both
	 * dangle alike for a namespaced object. */
	if (r->scan_ns && !r->w) {
		if (!(nodes = malloc(((size_t)r->s->graph->count + 1) * sizeof(*nodes))))
			return error_oom();
		for (k = 0; k < r->s->graph->count; k++)
			if (in_scope(r, &r->s->graph->nodes[k]))
				nodes[n++] = k;
		rc = session_look_across_namespaces(r->s, nodes, n);
		free(nodes);
		if (rc)
			return rc;
	}
	if (!(r->scope = calloc(r->s->graph->count + 1, 1)))
		return error_oom();
	for (k = 0; k < r->s->graph->count; k++)
		r->scope[k] = (unsigned char)in_scope(r, &r->s->graph->nodes[k]);
	return 0;
}

/* One pass's decisions on the scan just made. What it does rests on no
 * absence the server has not confirmed (each missing owner read once a
 * pass, as the GC's isDangling() does); a client dry run shows the
 * backlog as scanned. */
static enum exit_code decide(struct run *r)
{
	struct owners_owner_checks cc;
	int rc;

	pass_clear(r);
	r->held = 0;
	if ((rc = choose_scope(r)))
		return rc;
	if (owners_collector_new(&r->c, r->s->graph) || owners_collector_foresee(r->c) ||
	    !(r->steps = calloc(r->s->graph->count + 1, sizeof(*r->steps))))
		return error_oom();
	owners_collector_plan(r->c, r->steps);
	if (r->cli->dry_run != OWNERS_DRY_RUN_CLIENT) {
		if (r->w && !r->reads && session_client_new(r->s, &r->reads))
			return report_error(&r->s->err);
		owners_owner_checks_init(&cc, r->s->graph->types, r->w ? r->reads : r->s->http);
		rc = owners_absence_confirm_collector(&r->held, r->c, r->steps, r->scope, &cc);
		owners_owner_checks_clear(&cc);
		if (rc)
			return error_oom();
	}
	/* a cycle no one ends is named a deadlock, with its way out (after
	 * the reads: deciding again would undo it) */
	if (owners_deadlocks_attach(r->c, r->steps))
		return error_oom();
	return 0;
}

/* ---- showing ------------------------------------------------------------ */

static struct owners_gc_render render_of(const struct run *r, const struct owners_gc_backlog *b)
{
	struct owners_gc_render render = {
		.c = r->c,
		.steps = r->steps,
		.scope = r->scope,
		.backlog = b,
		.print = r->cmd->print,
		.stalled_after = r->cli->gc.stalled_after_ms / 1000,
		.waits = 1,
	};

	render.print.now = (int64_t)time(NULL); /* a pass may come long after the start */
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
static int render_json(struct owners_buf *out, void *ctx, const struct owners_scan_warning *warnings,
		       size_t n_warnings)
{
	struct owners_gc_render *render = ctx;

	render->print.warnings = warnings;
	render->print.n_warnings = n_warnings;
	return owners_gc_render_json(out, render);
}

static int render_text(struct owners_buf *out, void *ctx)
{
	const struct owners_gc_render *render = ctx;

	return render->print.names ? owners_gc_render_names(out, render) : owners_gc_render_text(out, render);
}

static enum exit_code show_backlog(struct run *r, struct owners_gc_backlog *b, int with_fates)
{
	static const struct output_renderers renderers = { render_json, render_text, NULL, 0 };
	struct owners_gc_render render;
	struct owners_buf out = OWNERS_BUF_INIT;
	int rc;

	/* where the passes settle: decide() settled them already */
	owners_gc_backlog_count(b, r->s->graph, r->steps, r->scope, with_fates ? r->c->ends : NULL,
				with_fates ? r->c->passes : 0);
	render = render_of(r, b);
	gc_evidence_lease(r->s, &render); /* the document's gcAppearsStopped too */
	rc = output_emit(r->cmd, &renderers, &render);
	if (!rc && (r->cli->output.kind == OUTPUT_TEXT || r->cli->output.kind == OUTPUT_WIDE))
		rc = emit(&out, owners_gc_render_summary(&out, &render));
	if (!rc)
		rc = emit(&out, owners_gc_render_stalled(&out, &render));
	owners_buf_clear(&out);
	return rc;
}

/* kubectl's words for what was done to one object. */
static void say_done(struct run *r, const struct owners_action *a, const struct owners_gc_step *s)
{
	const struct owners_node *n = &r->s->graph->nodes[a->node];
	struct owners_buf type = OWNERS_BUF_INIT, what = OWNERS_BUF_INIT;
	int dry = r->cli->dry_run == OWNERS_DRY_RUN_SERVER;

	if (owners_graph_node_type(&type, n))
		return;
	switch (a->kind) {
	case OWNERS_ACT_DELETE:
	case OWNERS_ACT_DELETE_FOREGROUND:
	case OWNERS_ACT_DELETE_ORPHAN:
		owners_buf_addf(&what, "deleted (%s)", owners_gc_policy_name(s->policy));
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

static void say_refused(struct run *r, const struct owners_action *a, const struct owners_action_result *res)
{
	struct owners_buf name = OWNERS_BUF_INIT;

	owners_graph_node_name(&name, &r->s->graph->nodes[a->node]);
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

static int drop(void *ctx, uint32_t dependent, const struct owners_ref *ref)
{
	return owners_collector_drops(ctx, dependent, ref);
}

static int acting_on(const struct run *r, uint32_t k)
{
	const struct owners_node *n = &r->s->graph->nodes[k];
	const struct owners_strset_entry *e;

	if (!r->scope[k] || owners_strset_get(&r->forbidden, n->uid))
		return 0;
	/* watching: what was sent for this version is not sent again before
	 * the version it made (or a 409's) comes back as an event */
	e = r->w ? owners_strset_get(&r->acted, n->uid) : NULL;
	return !e || !e->value || strcmp(e->value, n->resource_version);
}

/* This pass's requests: one action per object (a RELEASE carries every
 * reference the pass removes from it, whichever step marked them). */
static int plan_actions(const struct run *r, struct owners_cascade_plan *p)
{
	const struct owners_graph *g = r->s->graph;
	uint32_t k;

	for (k = 0; k < g->count; k++) {
		const struct owners_gc_step *s = &r->steps[k];
		struct owners_action a = { .node = k };

		if (!acting_on(r, k))
			continue;
		switch (s->kind) {
		case OWNERS_GC_STEP_DELETE:
			a.kind = s->policy == OWNERS_GC_POLICY_FOREGROUND ? OWNERS_ACT_DELETE_FOREGROUND
				 : s->policy == OWNERS_GC_POLICY_ORPHAN   ? OWNERS_ACT_DELETE_ORPHAN
									  : OWNERS_ACT_DELETE;
			break;
		case OWNERS_GC_STEP_UNBLOCK: a.kind = OWNERS_ACT_UNBLOCK; break;
		case OWNERS_GC_STEP_REMOVE_FOREGROUND:
			a.kind = OWNERS_ACT_REMOVE_FINALIZER;
			a.finalizer = OWNERS_FINALIZER_FOREGROUND;
			break;
		case OWNERS_GC_STEP_REMOVE_ORPHAN:
			a.kind = OWNERS_ACT_REMOVE_FINALIZER;
			a.finalizer = OWNERS_FINALIZER_ORPHAN;
			break;
		default:
			if (!r->c->release[k])
				continue;
			a.kind = OWNERS_ACT_RELEASE;
			break;
		}
		if (OWNERS_GROW(p->actions, p->cap_actions, p->n_actions + 1))
			return OWNERS_ENOMEM;
		p->actions[p->n_actions++] = a;
	}
	return 0;
}

/* Before the first change, every permission the work needs: a read-only
 * user gets one clear error with nothing changed. */
static enum exit_code check_access(struct run *r, const struct owners_cascade_plan *p)
{
	struct owners_access_check *checks = NULL;
	uint32_t *examples = NULL;
	size_t n = 0;

	if (owners_actions_needed_access(p, r->s->graph, 0, &checks, &examples, &n))
		return error_oom();
	meter_clear(&r->meter);
	return session_check_access(r->s, checks, examples, n, "the garbage collector's work");
}

/* Sends this pass's actions; says what each did. */
static enum exit_code act(struct run *r, struct owners_cascade_plan *p)
{
	const struct owners_cascade_exec_options o = {
		.server_gc = 1, /* the GC's own requests: the policy alone */
		.dry_run = r->cli->dry_run == OWNERS_DRY_RUN_SERVER,
		.grace_period = -1,
		.drop = drop,
		.drop_ctx = r->c,
	};
	struct owners_action_result *results = calloc(p->n_actions + 1, sizeof(*results));
	struct owners_error err = OWNERS_ERROR_INIT;
	size_t i;
	int rc = 0;

	if (!results)
		return error_oom();
	if (owners_cascade_execute(r->s->graph, p, r->s->http, &o, results, &err)) {
		rc = report_error(&err);
		owners_error_clear(&err);
	}
	for (i = 0; !rc && i < p->n_actions; i++) {
		const struct owners_action *a = &p->actions[i];

		switch (results[i].outcome) {
		case OWNERS_OUTCOME_DONE:
			r->done++;
			say_done(r, a, &r->steps[a->node]);
			break;
		case OWNERS_OUTCOME_GONE:
		case OWNERS_OUTCOME_CONFLICT:
			break; /* someone did it first, or it changed: the next pass decides */
		case OWNERS_OUTCOME_FORBIDDEN:
			if (!owners_strset_add(&r->forbidden, r->s->graph->nodes[a->node].uid, NULL))
				rc = error_oom();
			say_refused(r, a, &results[i]);
			break;
		case OWNERS_OUTCOME_FAILED:
			r->failed++;
			say_refused(r, a, &results[i]);
			break;
		}
	}
	owners_cascade_results_free(results, p->n_actions);
	return rc;
}

static void show_progress(struct run *r, size_t acting)
{
	char line[160];

	/* not a terminal: a line per pass (cmd/progress_log.c) */
	snprintf(line, sizeof(line), "pass %zu, %zu done, %zu acting", r->passes, r->done, acting);
	meter_log(&r->meter, line, (long)(time(NULL) - r->started));
	snprintf(line, sizeof(line), "gc: pass %zu, %zu done, %zu acting, %lds", r->passes, r->done, acting,
		 (long)(time(NULL) - r->started));
	meter_draw(&r->meter, line);
}

/* What is left when the passes end: every object that waits (and on
 * what), on stderr. */
static enum exit_code say_left(struct run *r, struct owners_gc_backlog *b)
{
	struct owners_buf out = OWNERS_BUF_INIT;
	const struct owners_graph *g = r->s->graph;
	uint32_t k;
	int rc = 0;

	owners_gc_backlog_count(b, g, r->steps, r->scope, NULL, 0);
	for (k = 0; !rc && k < g->count; k++) {
		const struct owners_gc_step *s = &r->steps[k];

		if (!r->scope[k] || (s->kind != OWNERS_GC_STEP_WAIT && !owners_gc_step_acts(s)))
			continue;
		rc = owners_buf_adds(&out, "  ");
		if (!rc)
			rc = owners_graph_node_name(&out, &g->nodes[k]);
		if (!rc && *g->nodes[k].namespace_)
			rc = owners_buf_addf(&out, " in namespace %s", g->nodes[k].namespace_);
		if (!rc)
			rc = owners_buf_adds(&out, ": ");
		if (!rc)
			rc = owners_gc_step_action_text(&out, s);
		if (!rc)
			rc = owners_buf_adds(&out, ": ");
		if (!rc)
			rc = owners_gc_step_reason(&out, r->c, k, s);
		if (!rc)
			rc = owners_buf_addc(&out, '\n');
	}
	rc = emit(&out, rc);
	owners_buf_clear(&out);
	return rc;
}

/* The passes, until nothing is left to do or the time is up. */
static enum exit_code run_passes(struct run *r)
{
	long long deadline = (long long)r->started * 1000 + r->cli->timeout_ms;
	struct owners_cascade_plan p;
	struct owners_gc_backlog b;
	int rc = 0, server_dry = r->cli->dry_run == OWNERS_DRY_RUN_SERVER, rescans_for_held = 0;

	memset(&p, 0, sizeof(p));
	for (;;) {
		struct timespec now;

		if ((rc = decide(r)))
			break;
		p.n_actions = 0;
		if (plan_actions(r, &p)) {
			rc = error_oom();
			break;
		}
		/* An owner the lists missed is there: the next scan sees it
		 * (lists and watches catch up), and decides with it. */
		if (!p.n_actions && r->held && rescans_for_held++ < 3) {
			listed_types_clear(&r->listed);
			if ((rc = session_rescan(r->s, r->scan_ns, NULL, NULL)))
				break;
			continue;
		}
		if (!p.n_actions || (server_dry && r->passes))
			break;
		clock_gettime(CLOCK_REALTIME, &now);
		if (r->cli->timeout_ms && (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000 >= deadline) {
			meter_clear(&r->meter);
			if (r->cli->timeout_ms < 1000)
				error_msg("timed out after %ldms with the garbage collector's work left:",
					  r->cli->timeout_ms);
			else
				error_msg("timed out after %lds with the garbage collector's work left:",
					  r->cli->timeout_ms / 1000);
			say_left(r, &b);
			free(p.actions);
			return EXIT_TIMEOUT;
		}
		if (!r->passes && (rc = check_access(r, &p)))
			break;
		r->passes++;
		show_progress(r, p.n_actions);
		if ((rc = act(r, &p)) || r->failed)
			break;
		listed_types_clear(&r->listed);
		if ((rc = session_rescan(r->s, r->scan_ns, NULL, NULL)))
			break;
	}
	free(p.actions);
	meter_clear(&r->meter);
	if (rc)
		return rc;
	if (r->failed)
		return EXIT_ERROR;
	return 0;
}

/* How a run that did its passes ends: converged, or incomplete where
 * part of the cluster could not be seen or changed. */
static enum exit_code finish(struct run *r)
{
	struct owners_gc_backlog b;
	int rc, incomplete, undone;

	owners_gc_backlog_count(&b, r->s->graph, r->steps, r->scope, NULL, 0);
	/* --exit-code: anything left undone (a server dry run leaves it all) */
	undone = r->cli->gc.exit_code && owners_gc_backlog_actions(&b);
	incomplete = b.undecided || r->s->scan.n_failures || r->s->types.n_failed || r->forbidden.count;
	if (r->cli->dry_run == OWNERS_DRY_RUN_SERVER) {
		fprintf(stderr, "gc: %zu request%s accepted by the server (dry run, nothing changed)\n", r->done,
			r->done == 1 ? "" : "s");
		return incomplete ? EXIT_INCOMPLETE : undone ? EXIT_ERROR : 0;
	}
	fprintf(stderr, "gc: %s after %zu pass%s: %zu change%s; %zu object%s left waiting%s\n",
		owners_gc_backlog_actions(&b) ? "stopped" : "converged", r->passes, r->passes == 1 ? "" : "es",
		r->done, r->done == 1 ? "" : "s", b.waits, b.waits == 1 ? "" : "s", b.waits ? ":" : "");
	if ((rc = say_left(r, &b)))
		return rc;
	if (incomplete) {
		session_warn_scan(r->s);
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
	session_scan_options(r->s, &wo.list);
	wo.list.on_listed = NULL;
	wo.warn = on_watch_warning;
	if (owners_watch_new(&r->w, r->s->graph, r->s->http, &r->s->types, &wo))
		return OWNERS_ENOMEM;
	for (i = 0; i < r->listed.count; i++) {
		struct listed_type *t = &r->listed.items[i];

		if (owners_watch_add(r->w, t->resource, t->ns, t->rv, 0, NULL) ||
		    (r->cli->selector && owners_watch_add(r->w, t->resource, t->ns, NULL, 0, r->cli->selector)))
			return OWNERS_ENOMEM;
	}
	return 0;
}

/* Remembers the version of each object this pass acts on. */
static int remember_acted(struct run *r, const struct owners_cascade_plan *p)
{
	size_t i;

	for (i = 0; i < p->n_actions; i++) {
		const struct owners_node *n = &r->s->graph->nodes[p->actions[i].node];
		struct owners_strset_entry *e = owners_strset_get(&r->acted, n->uid);

		if (e) {
			char *rv = owners_strdup(n->resource_version);

			if (!rv)
				return OWNERS_ENOMEM;
			free(e->value);
			e->value = rv;
		} else if (!owners_strset_add(&r->acted, n->uid, n->resource_version)) {
			return OWNERS_ENOMEM;
		}
	}
	return 0;
}

/* After converging: the graph kept current by watches, and every change
 * acted on as the GC would, until a signal. Each pass's requests are
 * sent whole before a signal is looked at: an interruption leaves no
 * more half done than the GC itself would (every request is atomic). */
static enum exit_code watch_and_act(struct run *r, int *quit)
{
	struct owners_cascade_plan p;
	int rc = 0, dirty = 1, resized = 0, changed;

	memset(&p, 0, sizeof(p));
	if (signals_open() || start_watches(r)) {
		free(p.actions);
		return error_oom();
	}
	fprintf(stderr, "gc: watching %zu type%s; Ctrl-C to stop\n", r->listed.count,
		r->listed.count == 1 ? "" : "s");
	while (!rc) {
		struct owners_error err = OWNERS_ERROR_INIT;
		long wake;

		if (dirty) {
			dirty = 0;
			p.n_actions = 0;
			if ((rc = decide(r)))
				break;
			if (plan_actions(r, &p) || remember_acted(r, &p)) {
				rc = error_oom();
				break;
			}
			if (p.n_actions && ((rc = act(r, &p)) || r->failed))
				break;
		}
		wake = owners_watch_next_ms(r->w);
		if (owners_http_wait(r->s->http, wake, signals_fd(), &err) || owners_watch_service(r->w, &err)) {
			rc = report_error(&err);
			owners_error_clear(&err);
			break;
		}
		signals_take(&resized, quit);
		if (*quit)
			break;
		if ((changed = owners_watch_take_changes(r->w)) < 0)
			rc = error_oom();
		dirty = changed > 0;
	}
	free(p.actions);
	if (!rc && r->failed)
		rc = EXIT_ERROR;
	return rc;
}

static enum exit_code validate(const struct owners_cli *cli, const struct string_list *args)
{
	if (args->count)
		return usage_error("owners gc takes no arguments: it works on every object of the namespace "
				   "(-A: of the cluster), -l to narrow it");
	if (cli->gc.watch && cli->dry_run != OWNERS_DRY_RUN_NONE)
		return usage_error("--watch acts on every change: it cannot be combined with --dry-run");
	if (cli->gc.watch && cli->output.kind != OUTPUT_TEXT)
		return usage_error("--watch says what it does as it goes: -o %s does not apply",
				   cli->output.spelled);
	return EXIT_OK;
}

/* --watch: after the first passes, acts on every change until Ctrl-C. */
static enum exit_code keep_up(struct run *r)
{
	int quit = 0;
	enum exit_code rc;

	fprintf(stderr, "gc: converged after %zu pass%s: %zu change%s\n", r->passes,
		r->passes == 1 ? "" : "es", r->done, r->done == 1 ? "" : "s");
	/* What the scans could not see, once, before the watch: gc without
	 * --watch says it with its report. */
	session_warn_scan(r->s);
	rc = watch_and_act(r, &quit);
	fprintf(stderr, "gc: stopped watching: %zu change%s in all\n", r->done, r->done == 1 ? "" : "s");
	if (!rc && quit) {
		/* the watches' requests are the client's: it lets go of them
		 * before the watch that owns them is freed */
		owners_http_client_free(r->s->http);
		r->s->http = NULL;
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
		owners_http_client_free(r->s->http);
		r->s->http = NULL;
		owners_watch_free(r->w);
	}
	r->s->on_listed = NULL;
	listed_types_clear(&r->listed);
	owners_strset_clear(&r->acted);
	pass_clear(r);
	owners_strset_clear(&r->selected);
	owners_strset_clear(&r->forbidden);
	meter_end(&r->meter);
}

enum exit_code cmd_gc(struct cmd_run *run)
{
	const struct owners_cli *cli = run->cli;
	struct owners_gc_backlog b;
	struct run r;
	int rc;

	memset(&r, 0, sizeof(r));
	r.cmd = run;
	r.cli = run->cli;
	r.s = &run->s;
	owners_strset_init(&r.selected);
	owners_strset_init(&r.forbidden);
	owners_strset_init(&r.acted);
	r.started = time(NULL);
	if ((rc = meter_init(&r.meter, "gc", cli->dry_run == OWNERS_DRY_RUN_NONE,
			     cli->dry_run == OWNERS_DRY_RUN_NONE)))
		goto out;
	r.scan_ns = run->scan_ns;
	if (cli->gc.watch) {
		r.s->on_listed = listed_types_record;
		r.s->on_listed_ctx = &r.listed;
	}
	if ((rc = session_scan(r.s, r.scan_ns)) || (cli->selector && (rc = select_labelled(&r))))
		goto out;
	if (cli->dry_run == OWNERS_DRY_RUN_CLIENT) {
		if (!(rc = decide(&r)) && !(rc = show_backlog(&r, &b, 1)) && cli->gc.exit_code)
			rc = owners_gc_backlog_actions(&b) ? EXIT_ERROR : EXIT_OK;
	} else if (!(rc = run_passes(&r))) {
		if (cli->gc.watch)
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
const struct command gc_command = {
	.name = "gc",
	.man_sections = gc_man_sections,
	.fn = cmd_gc,
	.validate = validate,
	.opts = gc_opts,
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
