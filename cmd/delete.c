/*
 * owners delete: client-side cascading deletion.
 *
 * A loop of rounds: scan, plan (lib/ops/cascade.c), act (lib/ops/cascade_exec.c),
 * scan again, until the cascade is done or --timeout passes. The roots are
 * remembered by UID for the run; everything else is read back from the
 * cluster each round, which is what makes an interrupted run resumable.
 */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "api_path.h"
#include "clock.h"
#include "cascade.h"
#include "cascade_access.h"
#include "cascade_render.h"
#include "cascade_runner.h"
#include "commands.h"
#include "delete_man.h"
#include "delete_run.h"
#include "delete_scale.h"
#include "delete_users.h"
#include "session_relations.h"
#include "graph_mark.h"
#include "meter.h"
#include "object_args.h"
#include "output.h"
#include "session_access.h"
#include "session_scan.h"
#include "session_select.h"
#include "session_warnings.h"
#include "signals.h"
#include "test_hooks.h"
#include "stuck.h"
#include "stuck_fetch.h"

static const char *const delete_outputs[] = { "name", NULL };


static const struct delete_options delete_defaults = {
	.cascade = OWNERS_CASCADE_BACKGROUND,
	.wait = 1,
	.timeout_ms = 5 * 60 * 1000,
	.grace_period = -1,
};

#define OPT_STRUCT struct delete_options
const struct opt delete_opts[] = {
	OPT_OPTIONAL_CHOICE(
		"cascade", cascade, enum owners_cascade_mode, owners_cascade_values,
		owners_opt_cascade,
		"background (default, and --cascade alone), foreground or orphan",
		"background (default, and --cascade alone), foreground or orphan; the deprecated "
		"--cascade=true means background, --cascade=false orphan"),
	OPT_DRY_RUN(
		"client (and --dry-run alone, kubectl's deprecated spelling): print the...",
		"client (and --dry-run alone, kubectl's deprecated spelling): print the plan and "
		"change nothing; server: send the roots' requests with dryRun=All, then every "
		"dependent's, and say which it checked; none (default): delete"),
	OPT_BOOL("wait", 0, wait, "wait until every object of the cascade is gone",
		 "wait until every object of the cascade is gone (default true; --wait=false acts "
		 "once and says what is left)"),
	OPT_DURATION(
		"timeout", timeout_ms,
		"give up waiting after this long, exit 3 and say what is left",
		"give up waiting after this long, exit 3 and say what is left (default 5m; 0: do "
		"not wait)"),
	OPT_INT("grace-period", 0, grace_period, "SECONDS", -1, LONG_MAX,
		"seconds each object named gets to terminate (default: its own)",
		"seconds each object named gets to terminate (default: its own); dependents always "
		"get their own, as from the garbage collector"),
	OPT_BOOL("now", 0, now, NULL, "same as --grace-period=1"),
	OPT_BOOL("force", 0, force,
		 "same as --grace-period=0: the objects named go without graceful...",
		 "same as --grace-period=0: the objects named go without graceful termination (not "
		 "their dependents); also breaks the waits the garbage collector never ends (an "
		 "object that blocks its own deletion, a cycle all in foreground deletion)"),
	OPT_BOOL(
		"scale-first", 0, scale_first,
		"before deleting anything, scale every workload of the cascade to 0,...",
		"before deleting anything, scale every workload of the cascade to 0, top-down, and "
		"wait until its controller has taken its pods down (a StatefulSet's in reverse "
		"ordinal order); a Deployment is paused first, a Job's parallelism set to 0"),
	OPT_BOOL("ignore-not-found", 0, ignore_not_found, NULL,
		 "an object that does not exist is not an error"),
	OPT_LIST(
		"resume", 0, resume, "UID,...",
		"finish the cascade of the objects with these UIDs, as an interrupted or...",
		"finish the cascade of the objects with these UIDs, as an interrupted or timed-out "
		"delete prints it (run this command again to finish it: ...): what of it is left "
		"goes on; a named object gone with nothing of its cascade left is already done "
		"(said, exit 0); one re-created under its name (another UID) is left alone"),
	OPT_BOOL("if-unused", 0, if_unused,
		 "refuse, changing nothing (exit 5), when live objects outside use it",
		 "refuse the whole delete, changing nothing (exit 5), when a live object outside "
		 "the "
		 "cascade uses what it deletes (a Pod that mounts a ConfigMap, an Ingress that "
		 "routes "
		 "to a Service...), or when the types that could use it cannot all be read; "
		 "optional "
		 "uses are named and do not refuse"),
	OPT_SELECTOR(NULL, "label selector for the roots"),
	OPT_BOOL("all", 0, all, "every object of the type given",
		 "every object of the type given (in the namespace, or with -A everywhere) is a "
		 "root"),
	OPT_OUTPUT("name: print each deleted object as TYPE/NAME",
		   "name: print each deleted object as TYPE/NAME; with --dry-run=client, "
		   "exactly the objects it would delete, nothing else"),
	OPT_END,
};
#undef OPT_STRUCT


/* --resume: whether o is one of the roots the printed command named (by
 * UID); a named object under another UID is not that cascade's: said,
 * left alone. */
static int resumed_root(const struct delete_run *r, const struct owners_node *o)
{
	const struct string_list *resume = &r->o->resume;
	struct owners_buf name = OWNERS_BUF_INIT;
	size_t i;

	for (i = 0; i < resume->count; i++)
		if (!strcmp(resume->items[i], OWNERS_NODE_UID(o)))
			return 1;
	owners_graph_node_name(&name, o);
	fprintf(stderr,
		"%s%s%s is not the object the cascade started from (UID %s, not one of "
		"--resume): left alone\n",
		name.ptr ? name.ptr : o->name, *o->place->namespace_ ? " in namespace " : "",
		o->place->namespace_, OWNERS_NODE_UID(o));
	owners_buf_clear(&name);
	return 0;
}

/* --resume, every root gone with nothing of its cascade left: what the
 * command was finishing is done (by the GC, or by someone else). */
static void say_already_done(const struct delete_run *r)
{
	const struct string_list *resume = &r->o->resume;
	size_t i;

	fputs("already done: nothing is left of the cascade this command was finishing (", stderr);
	for (i = 0; i < resume->count; i++)
		fprintf(stderr, "%sUID %s", i ? ", " : "", resume->items[i]);
	fputs("): the garbage collector or someone else finished it\n", stderr);
}

/* The roots, by UID: the cascade scans again between rounds, and node
 * indexes do not outlive a scan. A named object that is gone while
 * dependents still point at it selects the owner they point at: a cascade
 * interrupted after its root went resumes. */
static enum exit_code select_roots(struct delete_run *r, const struct owners_selection_arg *args, size_t n)
{
	const struct string_list *resume = &r->o->resume;
	const struct session_selection how = {
		.missing = r->o->ignore_not_found || resume->count
				   ? OWNERS_SELECTION_MISSING_IGNORED
				   : OWNERS_SELECTION_MISSING_FAILS,
		.absent_owners = 1,
	};
	struct owners_selection sel = OWNERS_SELECTION_INIT;
	size_t i;
	enum exit_code rc;

	if ((rc = session_select(r->cmd->s, args, n, &how, &sel)))
		return rc;
	if (!(r->roots = calloc(sel.count + 1, sizeof(*r->roots))))
		rc = error_oom();
	for (i = 0; !rc && i < sel.count; i++) {
		const struct owners_node *o = &session_graph(r->cmd->s)->nodes[sel.nodes[i]];

		if (resume->count && !resumed_root(r, o))
			continue;
		if (!(r->roots[r->n_roots++] = owners_strdup(OWNERS_NODE_UID(o))))
			rc = error_oom();
	}
	owners_selection_clear(&sel);
	return rc;
}

/* --dry-run=client: every object of the cascade, in the order it goes
 * (lib/ops/cascade_render.c). A plan that could not be rendered is no plan
 * shown: an error, never a silent success. */
static int render_plan(struct owners_buf *out, void *ctx)
{
	return owners_cascade_render_plan(out, ctx);
}

/* --dry-run=client -o name: exactly what the delete would delete, one
 * kind.group/name a line, nothing else on stdout (what -o name prints as
 * each object goes in a real run). */
static int render_plan_names(struct owners_buf *out, void *ctx)
{
	return owners_cascade_render_plan_names(out, ctx);
}

/* The members a protection finalizer will hold once deleted (a claim's
 * pvc-protection while a pod uses it, a volume's pv-protection while a
 * claim is bound), read in full so that the plan names whom they wait
 * for. A read that fails is said in the plan, not here. */
static enum exit_code read_protections(struct delete_run *r, const struct owners_cascade_plan *p)
{
	struct owners_graph *g = session_graph(r->cmd->s);
	struct owners_error err = OWNERS_ERROR_INIT;
	uint32_t *nodes = NULL, k;
	size_t n = 0, cap = 0;
	enum exit_code rc = EXIT_OK;
	int failed = 0;

	for (k = 0; !failed && k < g->count; k++) {
		const struct owners_node *o = &g->nodes[k];

		if (p->member[k] && !o->virtual_ && !o->extras->deleted &&
		    ((owners_stuck_is_pvc(o) &&
		      owners_stuck_has_finalizer(o, OWNERS_FINALIZER_PVC)) ||
		     (owners_stuck_is_pv(o) && owners_stuck_has_finalizer(o, OWNERS_FINALIZER_PV))))
			failed = owners_graph_node_list_push(&nodes, &n, &cap, k);
	}
	if (!failed && n && !(r->facts = calloc(1, sizeof(*r->facts))))
		failed = OWNERS_ENOMEM;
	if (!failed && n &&
	    owners_stuck_fetch_ahead(r->facts, g, session_http(r->cmd->s),
				     &(const struct owners_node_list){ nodes, n }, 0, &err))
		rc = report_error(&err);
	else if (failed)
		rc = error_oom();
	free(nodes);
	owners_error_clear(&err);
	return rc;
}

static enum exit_code print_plan(struct delete_run *r, const struct owners_cascade_plan *p)
{
	static const struct output_renderers renderers = { NULL, render_plan, NULL };
	static const struct output_renderers names = { NULL, render_plan_names, NULL };
	struct owners_cascade_render render;
	enum exit_code rc = read_protections(r, p);

	if (rc)
		return rc;
	render = delete_render_of(r, p);
	return output_emit(r->cmd, r->cmd->cli->output.kind == OUTPUT_NAME ? &names : &renderers, &render);
}

/* Before the first change, every permission the whole cascade needs
 * (SelfSubjectAccessReview, as `kubectl auth can-i`): a missing one stops
 * the run with nothing done, instead of half way through the tree. */
static enum exit_code check_access(struct delete_run *r, const struct owners_cascade_plan *p)
{
	struct owners_access_check *checks = NULL;
	uint32_t *examples = NULL;
	size_t n = 0;

	if (owners_cascade_access_needed(p, session_graph(r->cmd->s), r->runner.plan_options.mode,
					 &checks, &examples, &n)) {
		return error_oom();
	}
	meter_clear(&r->meter);
	return session_check_access(r->cmd->s, checks, examples, n, "the cascade");
}

static int want_relevant(void *ctx, const struct owners_resource *res)
{
	const struct owners_cascade_track *t = ctx;

	return owners_cascade_track_wants(t, res);
}

static int rescan(void *ctx, struct owners_cascade_runner_world *w,
		  const struct owners_cascade_track *t)
{
	struct delete_run *r = ctx;

	r->rc = session_rescan(r->cmd->s, r->cmd->scan_ns, want_relevant, (void *)t);
	w->graph = session_graph(r->cmd->s);
	w->n_failures = session_scan_report(r->cmd->s)->n_failures;
	return r->rc;
}

static int approve(void *ctx, const struct owners_cascade_plan *p, const struct owners_graph *g)
{
	struct delete_run *r = ctx;

	(void)g;
	return r->rc = check_access(r, p);
}

/* --dry-run=server: the first round sent the roots' DELETEs with dryRun;
 * the rest of the cascade only moves once they are really gone, so its
 * dependents are checked here, each in one server dry run (DELETE with
 * its preconditions, or the PATCH that releases it), and said one by one
 * like the roots: what the server would refuse (forbidden, an admission
 * webhook) shows before anything is deleted for real. */

static enum exit_code check_dependents_dry_run(struct delete_run *r, struct owners_cascade_runner *cr)
{
	struct owners_graph *g = session_graph(r->cmd->s);
	struct owners_cascade_plan p = cr->plan;
	struct owners_action *acts = calloc(g->count + 1, sizeof(*acts));
	struct owners_action_result *results = NULL;
	struct owners_error err = OWNERS_ERROR_INIT;
	struct owners_buf type = OWNERS_BUF_INIT, said = OWNERS_BUF_INIT;
	size_t n = 0, refused = 0, i;
	uint32_t k;
	int rc = 0;

	if (!acts)
		return error_oom();
	for (k = 0; k < g->count; k++)
		if (!g->nodes[k].virtual_ && !p.root[k] && (p.member[k] || p.released[k])) {
			acts[n].kind = p.released[k] ? OWNERS_ACT_RELEASE : OWNERS_ACT_DELETE;
			acts[n].node = k;
			acts[n].why = "server dry run of a dependent";
			n++;
		}
	/* said in the node order, not the order listed */
	owners_cascade_actions_sort(g, acts, n);
	if (n && !(results = calloc(n, sizeof(*results))))
		rc = error_oom();
	p.actions = acts;
	p.n_actions = n;
	if (!rc && n &&
	    owners_cascade_exec_plan(g, &p, session_http(r->cmd->s), &cr->exec, results, &err))
		rc = report_error(&err);
	for (i = 0; !rc && i < n; i++) {
		const struct owners_node *node = &g->nodes[acts[i].node];

		owners_buf_reset(&type);
		if (owners_graph_node_type(&type, node)) {
			rc = error_oom();
			break;
		}
		if (results[i].outcome == OWNERS_OUTCOME_DONE || results[i].outcome == OWNERS_OUTCOME_GONE) {
			delete_on_event(r, acts[i].kind == OWNERS_ACT_RELEASE ? OWNERS_EVENT_DRY_RUN_RELEASED
								       : OWNERS_EVENT_DRY_RUN_DELETED,
				 type.ptr, node->name, node->place->namespace_);
		} else {
			refused++;
			error_msg("the server would refuse to %s %s \"%s\"%s%s: %s",
				  acts[i].kind == OWNERS_ACT_RELEASE ? "release" : "delete", type.ptr, node->name,
				  *node->place->namespace_ ? " in namespace " : "", node->place->namespace_,
				  results[i].message ? results[i].message : "refused");
		}
	}
	if (!rc)
		rc = delete_put(&said, owners_cascade_render_dry_run_checked(&said, r->n_roots, n, refused));
	owners_cascade_exec_results_free(results, n); /* the array too */
	free(acts);
	owners_buf_clear(&type);
	owners_buf_clear(&said);
	owners_error_clear(&err);
	return rc ? rc : refused ? EXIT_INCOMPLETE : 0;
}

/* ---- Ctrl-C and SIGTERM ----------------------------------------------------- */

/* The first SIGINT or SIGTERM asks the run to stop between rounds (the
 * runner's interrupted hook): the requests in flight are answered, the
 * cluster read again, and what is left said with the command that
 * finishes it. A second ends the program at once (SIGNALS_SECOND_ENDS),
 * which is safe too, only silent (every request carries its
 * preconditions; a rerun resumes). */
static int interrupted(void *ctx)
{
	(void)ctx;
	return signals_stop_signal() != 0;
}

/* The rounds run in lib/ops/cascade_runner.c; this says what they do and
 * how they ended. */
static enum exit_code run_cascade(struct delete_run *r)
{
	const struct owners_cascade_runner_hooks hooks = {
		.ctx = r,
		.rescan = rescan,
		.approve = approve,
		.event = delete_on_runner_event,
		.interrupted = interrupted,
	};
	struct owners_cascade_runner_world world = { session_http(r->cmd->s),
						     session_types(r->cmd->s),
						     session_graph(r->cmd->s),
						     session_scan_report(r->cmd->s)->n_failures };
	struct owners_cascade_runner *cr = &r->runner;
	enum owners_cascade_runner_end end;
	struct owners_error err = OWNERS_ERROR_INIT;

	cr->roots = (const char *const *)r->roots;
	cr->n_roots = r->n_roots;
	cr->exec.grace_period = r->o->force ? 0 : r->o->now ? 1 : r->o->grace_period;
	/* --force also breaks the waits the GC never ends (an object that
	 * blocks its own deletion, a cycle all in foreground deletion). */
	cr->plan_options.break_cycles = r->o->force;
	cr->exec.dry_run = r->o->dry_run == OWNERS_DRY_RUN_SERVER;
	cr->plan_only = r->o->dry_run == OWNERS_DRY_RUN_CLIENT;
	/* --timeout is for the whole run: the scale-down took its part (the
	 * cascade gets at least a second) */
	cr->timeout_ms = r->o->timeout_ms;
	if (cr->timeout_ms > 0 && r->scaling_ms > 0)
		cr->timeout_ms = cr->timeout_ms - r->scaling_ms > 1000 ? cr->timeout_ms - r->scaling_ms : 1000;
	cr->wait = r->o->wait;
	cr->first_failures = session_scan_report(r->cmd->s)->n_failures;
	if (owners_cascade_runner_run(&end, cr, &world, &hooks, &err)) {
		meter_clear(&r->meter);
		r->rc = report_error(&err);
		owners_error_clear(&err);
		return r->rc;
	}
	meter_clear(&r->meter);
	switch (end) {
	case OWNERS_CASCADE_RUNNER_DONE:
		if (cr->exec.dry_run && cr->planned) {
			enum exit_code checked = check_dependents_dry_run(r, cr);

			return checked ? checked : r->rc;
		}
		if (!r->o->wait) {
			enum exit_code said = delete_report_not_waiting(r, &cr->plan);
			int found = 0, looked;

			if (said)
				return said;
			/* not waiting, but not leaving a deadlock unsaid: one
			 * look after the deletes */
			if (r->o->dry_run == OWNERS_DRY_RUN_NONE && !r->rc) {
				looked = owners_cascade_runner_look_for_deadlock(cr, &world, &hooks, &found);
				if (looked == OWNERS_ENOMEM)
					return error_oom();
				if (!looked && found)
					return delete_report_deadlock(r, cr, 0);
			}
			return r->rc;
		}
		return r->rc;
	case OWNERS_CASCADE_RUNNER_PLANNED: {
		enum exit_code printed = print_plan(r, &cr->plan);

		return printed ? printed : r->rc;
	}
	case OWNERS_CASCADE_RUNNER_INCOMPLETE:
		error_msg(
			"the cascade is incomplete: %zu object(s) could not be changed (forbidden)",
			cr->track.forbidden.count);
		return r->rc ? r->rc : EXIT_INCOMPLETE;
	case OWNERS_CASCADE_RUNNER_TIMED_OUT:
		error_msg("timed out after %lds waiting for the cascade; still there:",
			  r->o->timeout_ms / 1000);
		delete_report_left(r, &cr->plan, 1);
		return EXIT_TIMEOUT;
	case OWNERS_CASCADE_RUNNER_INTERRUPTED: return delete_report_interrupted(r, &cr->plan);
	case OWNERS_CASCADE_RUNNER_DEADLOCK: return delete_report_deadlock(r, cr, 1);
	case OWNERS_CASCADE_RUNNER_FAILED: return EXIT_ERROR;
	case OWNERS_CASCADE_RUNNER_STOPPED: break;
	case OWNERS_CASCADE_RUNNER_UNSEEN:
		error_msg("%s", session_scan_report(r->cmd->s)->n_failures
					? session_scan_report(r->cmd->s)->failures[0].message
					: "a type could not be listed");
		error_msg("the cascade looks finished, but that cannot be confirmed: run the "
			  "command again to finish it");
		return EXIT_ERROR;
	}
	return r->rc ? r->rc : EXIT_ERROR;
}

/* --scale-first: the workloads go to 0 first (cmd/delete_scale.c), then
 * the cascade runs on a fresh scan, in what is left of --timeout; a
 * Deployment paused for it is resumed if the cascade stops before
 * deleting it. */
static enum exit_code scale_then_cascade(struct delete_run *r)
{
	struct scale_first sf = {
		.s = r->cmd->s,
		.scan_ns = r->cmd->scan_ns,
		.roots = (const char *const *)r->roots,
		.n_roots = r->n_roots,
		.resumed = r->o->resume.count > 0,
		.mode = r->o->cascade,
		.dry_run = r->o->dry_run,
		.timeout_ms = r->o->timeout_ms,
		.meter = &r->meter,
		.quiet = r->cmd->cli->output.kind == OUTPUT_NAME,
		.stopped = signals_stop_signal,
	};
	enum exit_code rc = scale_first_run(&sf);

	if (!rc && sf.changed && sf.dry_run == OWNERS_DRY_RUN_NONE)
		rc = session_rescan(r->cmd->s, r->cmd->scan_ns, NULL, NULL);
	if (!rc) {
		r->scaling_ms = sf.spent_ms;
		/* (the cascade's permissions were asked with the scale-down's:
		 * what is left of it after the pods went is no more than that) */
		r->runner.approved = sf.access_granted;
		rc = run_cascade(r);
		if (rc)
			scale_first_resume(&sf);
	}
	scale_first_clear(&sf);
	return rc;
}

/* --all: a TYPE alone is every object of it, as with -l. */
static void setup(const void *opts, struct cmd_setup *setup)
{
	const struct delete_options *o = opts;

	setup->select_all = o->all;
}

static enum exit_code validate(const struct owners_cli *cli, const void *opts,
			       const struct string_list *args)
{
	const struct delete_options *o = opts;

	if (o->force && o->grace_period > 0)
		return usage_error("--force means --grace-period=0: they cannot be combined with another value");
	if (o->scale_first && o->cascade == OWNERS_CASCADE_ORPHAN)
		return usage_error("--scale-first scales down the workloads the cascade deletes; with "
				   "--cascade=orphan their dependents are kept, and scaling would take "
				   "their pods: use one or the other");
	if (o->all && !args->count)
		return usage_error(
			"--all needs a type: %s delete TYPE --all (every object of that type)",
			cli->program);
	if (o->all && cli->selector)
		return usage_error("--all and -l cannot be combined: --all already takes every object of the type");
	/* TYPE NAME or TYPE/NAME: --all takes a type alone */
	if (o->all && (args->count > 1 || strchr(args->items[0], '/')))
		return usage_error(
			"--all takes every object of a type: give the type without names, "
			"e.g. %s delete configmaps --all",
			cli->program);
	return EXIT_OK;
}

static enum exit_code run_init(struct delete_run *r, struct cmd_run *run)
{
	struct progress_timing timing;
	enum exit_code rc = test_hook_progress(&timing);

	memset(r, 0, sizeof(*r));
	r->cmd = run;
	r->o = run->opts;
	/* the scan's warnings are said before the cascade, once */
	run->warnings_said = 1;
	owners_cascade_runner_init(&r->runner);
	r->runner.plan_options.mode = r->o->cascade;
	r->started_ms = owners_clock_ms();
	/* a client dry run does not wait */
	meter_init(&r->meter, "delete", !run->cli->output.spelled, r->o->dry_run != OWNERS_DRY_RUN_CLIENT, &timing);
	return rc;
}

static void run_clear(struct delete_run *r)
{
	size_t i;

	for (i = 0; i < r->n_roots; i++)
		free(r->roots[i]);
	free(r->roots);
	owners_cascade_runner_clear(&r->runner);
	meter_end(&r->meter);
	if (r->facts)
		owners_stuck_facts_clear(r->facts);
	free(r->facts);
}

enum exit_code cmd_delete(struct cmd_run *run)
{
	const struct owners_cli *cli = run->cli;
	const struct delete_options *o = run->opts;
	struct delete_run r;
	enum exit_code rc;

	/* the scan keeps what relations need (the labels Pods are selected by) */
	session_set_related(run->s, 1);
	if ((rc = run_init(&r, run)) || (rc = session_scan(run->s, run->scan_ns)) ||
	    (rc = select_roots(&r, run->targets, run->n_objs)))
		goto out;
	if (!r.n_roots) {
		/* --ignore-not-found, or a selector or --all that matched nothing */
		if (o->resume.count)
			say_already_done(&r);
		else if (o->all || cli->selector)
			fprintf(stderr, "No resources found\n");
		goto out;
	}
	if (session_scan_report(run->s)->n_failures || session_types(run->s)->n_failed) {
		session_warn_scan(run->s);
		warning_msg("the scan is incomplete: objects that may be owned through the types above are kept");
	}
	/* who outside the cascade uses what it deletes: said before any
	 * change (--if-unused refuses on it) */
	if ((rc = delete_check_users(&r)))
		goto out;
	/* the runner's rescans need no labels */
	session_set_related(run->s, 0);
	if ((rc = signals_open(SIGNALS_SECOND_ENDS)))
		goto out;
	rc = o->scale_first ? scale_then_cascade(&r) : run_cascade(&r);
	signals_close();
	if (!rc && r.unsaid)
		rc = EXIT_ERROR; /* said when it happened */
	/* done only where everything the cascade may reach was seen */
	rc = session_incomplete_unless_seen(run->s, "the cascade", rc);
out:
	run_clear(&r);
	return rc;
}


/* The command: its usage, help, man page text and permissions. */
const struct command delete_command = {
	.name = "delete",
	.man_sections = delete_man_sections,
	.fn = cmd_delete,
	.setup = setup,
	.validate = validate,
	CMD_OPTIONS(delete_opts, struct delete_options, &delete_defaults),
	.outputs = delete_outputs,
	.usage = "owners delete TYPE/NAME... | TYPE (-l SELECTOR | --all) "
		 "[--cascade[=background|foreground|orphan]] [--dry-run[=client|server|none]] "
		 "[flags]",
	.summary = "delete objects with a client-side cascade, as the garbage collector would",
	.description =
		"Deletes the objects and cascades to their dependents from the client, the way\n"
		"the cluster's garbage collector does, so it works when the GC is off, stalled\n"
		"or slow, and cooperates with it when it runs.\n"
		"\n"
		"Before anything changes it names, on stderr, every live object outside the\n"
		"cascade that uses what the cascade deletes (\"Pod/web-1 in shop (owned by\n"
		"Deployment/web) mounts ConfigMap/app: spec.volumes[0].configMap\"), its field "
		"and\n"
		"whether the use is optional, and the types of its possible users it could not\n"
		"read; --dry-run=client shows them with the plan. --if-unused refuses the whole\n"
		"delete, nothing changed and exit 5, when there is any such user that does not "
		"use\n"
		"it optionally, or when those types cannot all be read (an unknown is never\n"
		"taken as unused). It reads whole the objects of the types that may use what the\n"
		"cascade deletes (one paged list each). Which relations count: owners-tree(1),\n"
		"RELATIONS.\n"
		"\n"
		"background: the owner goes first, then every dependent whose owners are all\n"
		"gone, level by level. foreground: the owner enters deletion first and stays\n"
		"visible (its controller stops), dependents go bottom-up, the owner last;\n"
		"dependents with blockOwnerDeletion hold it. orphan: the owner's reference is\n"
		"removed from every dependent, then the owner goes.\n"
		"\n"
		"It never deletes or patches an object that the garbage collector, in the same\n"
		"situation, would not, nor earlier than it would. A dependent with another live\n"
		"owner is never deleted: its reference is removed once the deleted owner is in\n"
		"deletion or gone, so a refused DELETE leaves every reference as it was. An\n"
		"object with a reference by an apiVersion the server does not serve is left\n"
		"alone, as the GC leaves it; owners whose type could not be listed count as\n"
		"alive. Below the roots an object's own orphan or foregroundDeletion finalizer\n"
		"decides its policy, as in the GC; --grace-period and --force apply to the\n"
		"objects named only. Every DELETE carries the UID and resourceVersion read as\n"
		"preconditions (on a conflict it is read again and deleted only if its\n"
		"ownerReferences are unchanged), every patch the resourceVersion it read, so\n"
		"objects re-created or changed meanwhile are never overwritten. Before its first "
		"change it asks the server (SelfSubjectAccessReview,\n"
		"as kubectl auth can-i) for every permission the whole cascade needs: a missing "
		"one\n"
		"stops it with nothing changed, exit 4. The cascade's progress lives in the "
		"cluster:\n"
		"run the same command again after an interruption and it resumes (a root already\n"
		"gone is found again through the references its dependents still hold).\n"
		"\n"
		"Ctrl-C or SIGTERM stops it once the requests in flight are answered (a second\n"
		"Ctrl-C at once) and says what was done, what is left, where each root stands and\n"
		"the command that finishes it: the same one with --resume=UID,... naming its\n"
		"roots, which exits 0 saying already done when someone else (the garbage\n"
		"collector) finished the job meanwhile; a timeout prints it too; exit 130 (143\n"
		"for SIGTERM).\n"
		"--dry-run=client says which objects will wait once deleted, and on what: a\n"
		"finalizer they hold, a claim's pvc-protection with the pods that use it, a\n"
		"volume's pv-protection with its claim. At --timeout (exit 3) a finalizer\n"
		"nothing in the cascade removes is named with the 'owners finalizers remove'\n"
		"command that ends the wait.\n"
		"\n"
		"--scale-first scales the cascade's workloads to 0 first and waits for their\n"
		"pods to go, as kubectl's old reapers did (a StatefulSet's in reverse ordinal\n"
		"order): see SCALING FIRST in owners-delete(1).",
	.examples = "  owners delete deployment/web\n"
		    "  owners delete configmap/app --if-unused\n"
		    "  owners delete statefulset/db --scale-first\n"
		    "  owners delete deployment/web --cascade=foreground --timeout=2m\n"
		    "  owners delete replicaset/web-7d9c --cascade=orphan\n"
		    "  owners delete deployment/web --dry-run=client\n"
		    "  owners delete deployment/web --dry-run=client -o name\n"
		    "  owners delete deployments -l app=web -o name\n"
		    "  owners delete jobs --all -n ci",
	.args = CMD_ARGS_OBJECTS,
	/* a type alone deletes nothing by accident: it needs -l or --all */
	.type_alone = CMD_TYPE_ALONE_SELECTED,
	.discovery = CMD_DISCOVERY_CURRENT,
	/* Events are not tracked by the GC but are deleted all the same */
	.resolve = CMD_RESOLVE_AND_LIST,
	/* a cluster-scoped root may own objects in any namespace; what
	 * namespaced roots cascade to is namespaced (warnings only: what the
	 * plan keeps for an owner it cannot see is decided elsewhere) */
	.scope = OWNERS_SCOPE_ROOTS,
	.rbac = "list on every type it scans; delete on the objects of the cascade; patch on the "
		"objects whose finalizers or references it changes; with --scale-first, get and "
		"patch on the workloads' scale subresources, and on Deployments (the pause) and "
		"Jobs (parallelism); create on selfsubjectaccessreviews (every authenticated user "
		"has it)",
};
