/*
 * owners dangling: every ownerReference that does not resolve, what the
 * cluster's garbage collector will do about it, and --fix to remove them
 * safely (lib/ops/dangling.c decides, lib/ops/dangling_fix.c fixes).
 *
 * Test-only: OWNERS_TEST_PAUSE_BEFORE_FIX=SECONDS makes --fix sleep after
 * reading each object and before its first patch, announcing it on stderr,
 * so an end-to-end test can change the object in that window and prove the
 * patch does not overwrite the change. It is not a user interface.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_path.h"
#include "access_review.h"
#include "cascade_access.h"
#include "commands.h"
#include "dangling.h"
#include "dangling_collect.h"
#include "dangling_fix.h"
#include "dangling_related.h"
#include "object_args.h"
#include "output.h"
#include "session_access.h"
#include "session_across.h"
#include "session_scan.h"
#include "session_select.h"
#include "session_warnings.h"
#include "test_hooks.h"

static const char *const dangling_outputs[] = { "table", "wide", "json", "yaml", "name", "jsonpath=", "custom-columns=",
						 NULL };

/* owners dangling's own flags */
struct dangling_options {
	enum owners_fix_mode fix;
	int exit_code;          /* --exit-code */
	int fix_unresolvable;   /* --fix-unresolvable: also what the GC never acts on */
	enum owners_dry_run dry_run;
	int related; /* --related: the uses that do not resolve instead */
};

#define OPT_STRUCT struct dangling_options
const struct opt dangling_opts[] = {
	OPT_OPTIONAL_CHOICE(
		"fix", fix, enum owners_fix_mode, owners_fix_values, owners_opt_fix,
		"do what the garbage collector would: remove the dangling references of...",
		"do what the garbage collector would: remove the dangling references of an object "
		"that keeps a live owner (never unknown ones; a patch that finds the object "
		"changed "
		"re-reads it and retries), and collect an object left with no owner as owners gc "
		"would (collect, and --fix alone); keep: remove its references instead, so that it "
		"is never collected"),
	OPT_BOOL("fix-unresolvable", 0, fix_unresolvable,
		 "with --fix or --dry-run, also remove the references the garbage...",
		 "with --fix or --dry-run, also remove the references the garbage collector never "
		 "acts on (GC WILL: nothing, ever: an unresolvable owner, or a namespaced owner of "
		 "a "
		 "cluster-scoped object), or repair their apiVersion when the owner is alive under "
		 "a "
		 "served one. The GC never makes that choice: once removed, if that API comes back "
		 "or the owner becomes resolvable, the object is never collected through it"),
	OPT_DRY_RUN(
		"like --fix, but only show what it would remove: client",
		"like --fix, but only show what it would remove: client (and --dry-run alone, "
		"kubectl's deprecated spelling) "
		"reads and decides and sends no patch; server sends each patch with dryRun=All, so "
		"the server checks it and stores nothing; none: --fix itself"),
	OPT_BOOL(
		"exit-code", 0, exit_code, "exit 1 when anything is reported (unknown included)",
		"exit 1 when anything is reported (unknown included); with --fix, when anything is "
		"left"),
	OPT_BOOL("related", 0, related,
		 "list the uses that do not resolve instead, each with what it breaks",
		 "list the uses that do not resolve instead of the ownerReferences (a Pod or a "
		 "template naming a missing ConfigMap, Secret, claim or ServiceAccount, an Ingress "
		 "to a missing Service, a binding of a missing Role...), each with what it breaks; "
		 "optional uses are left out"),
	OPT_SELECTOR(NULL, "check only objects of the given TYPEs with these labels, e.g. app=web"),
	OPT_OUTPUT("table (default), wide",
		   "table (default), wide (adds the owner's apiVersion and UID and why, and the "
		   "object's API group: Kind.group/name), json or yaml (the same document), "
		   "name (kind.group/name of each object, as owners delete takes it), "
		   "jsonpath=TEMPLATE or custom-columns=SPEC (over the document)"),
	OPT_TEMPLATE_KEYS,
	OPT_TABLE_ROWS,
	OPT_END,
};
#undef OPT_STRUCT

/* ---- scan and decide --------------------------------------------------- */

static enum exit_code find(struct cmd_run *run, struct owners_dangling_report *rep)
{
	/* No argument: everything. A TYPE whose objects the scan could not
	 * list (or that the GC does not track) is an error, not an empty
	 * report. */
	const struct session_selection how = { .everything_when_none = 1 };
	struct session *s = run->s;
	uint32_t *nodes = NULL;
	size_t n = 0, i;
	enum exit_code rc;
	int failed = 0;

	/* the arguments' types were resolved before any scan (cmd/run.c): a
	 * later rediscovery keeps them pointing into the new table */
	rc = session_scan(s, run->scan_ns);
	if (!rc)
		rc = session_select_nodes(s, run->targets, run->n_objs, &how, &nodes, &n);
	if (rc)
		return rc;
	if (run->scan_ns && (rc = session_look_across_namespaces(s, nodes, n))) {
		free(nodes);
		return rc;
	}
	for (i = 0; !failed && i < n; i++)
		failed = owners_dangling_check(rep, session_graph(s), nodes[i]);
	free(nodes);
	if (failed || owners_dangling_eventual(rep, session_graph(s)))
		return error_oom();
	owners_dangling_sort(rep, session_graph(s));
	return 0;
}

/* ---- test hook --------------------------------------------------------- */

static void pause_before_patch(void *ctx, const struct owners_node *n)
{
	test_hook_pause(*(const double *)ctx, n->place->kind, n->place->namespace_, n->name);
}

/* ---- output ------------------------------------------------------------ */

static void say_none(const struct session *s, size_t n_objs)
{
	if (n_objs)
		fprintf(stderr, "no dangling ownerReferences on the given objects\n");
	else if (session_cli(s)->all_namespaces)
		fprintf(stderr, "no dangling ownerReferences in any namespace\n");
	else
		fprintf(stderr, "no dangling ownerReferences in namespace '%s'\n",
			session_namespace(s));
}

static void report_failures(const struct owners_graph *g, const struct owners_dangling_report *rep)
{
	size_t i;

	for (i = 0; i < rep->count; i++) {
		const struct owners_dangling_finding *f = &rep->items[i];
		const struct owners_node *n = &g->nodes[f->object];
		const struct owners_ref *ref = &n->refs[f->ref];

		if (f->fix != OWNERS_FIX_FAILED)
			continue;
		error_msg("cannot remove the reference to %s/%s from %s '%s%s%s': %s", ref->type->kind,
			  ref->name, n->place->kind, n->place->namespace_, *n->place->namespace_ ? "/" : "", n->name,
			  f->fix_message ? f->fix_message : "failed");
	}
}

static void fix_summary(const struct owners_dangling_fix_stats *st, int dry_run)
{
	fprintf(stderr, "%s: %zu reference%s %s and %zu %s on %zu object%s; "
		"%zu finding%s on objects %s; %zu kept, %zu with nothing to do, %zu failed%s\n",
		dry_run ? "dry run" : "fixed", st->removed, st->removed == 1 ? "" : "s",
		dry_run ? "would be removed" : "removed", st->repaired,
		dry_run ? "would be repaired (apiVersion)" : "repaired (apiVersion)", st->objects_patched,
		st->objects_patched == 1 ? "" : "s", st->deleted, st->deleted == 1 ? "" : "s",
		dry_run ? "that would be collected" : "collected", st->kept, st->gone, st->failed,
		dry_run ? "; nothing was changed" : "");
}

/* --fix=keep on objects the GC would have deleted: said, since they are
 * now kept forever. */
static void say_kept_on_purpose(const struct owners_dangling_report *rep)
{
	size_t i, objects = 0;

	for (i = 0; i < rep->count; i++)
		if (rep->items[i].gc == OWNERS_DANGLING_GC_DELETE_OBJECT &&
		    (i == 0 || rep->items[i - 1].object != rep->items[i].object) &&
		    (rep->items[i].fix == OWNERS_FIX_REMOVED || rep->items[i].fix == OWNERS_FIX_WOULD_REMOVE))
			objects++;
	if (objects)
		fprintf(stderr, "kept on purpose (--fix=keep): %zu object%s the garbage collector would have "
			"deleted %s no owner left and will never be collected\n", objects,
			objects == 1 ? "" : "s", objects == 1 ? "has" : "have");
}

/* What --fix left because the GC never acts on it: said, with the flag
 * that would change it and what that costs. */
static void say_gc_never(const struct owners_dangling_report *rep, int dry_run)
{
	size_t i, refs = 0, objects = 0;

	for (i = 0; i < rep->count; i++) {
		if (!owners_dangling_gc_never(&rep->items[i]) || rep->items[i].fix != OWNERS_FIX_KEPT)
			continue;
		refs++;
		objects += i == 0 || rep->items[i - 1].object != rep->items[i].object;
	}
	if (refs)
		fprintf(stderr, "%s %zu reference%s on %zu object%s as %s: the garbage collector never acts "
			"on %s (GC WILL: nothing, ever); --fix-unresolvable removes such references, and "
			"then, if their API comes back or their owner becomes resolvable, the object is "
			"never collected through them\n", dry_run ? "would leave" : "left", refs,
			refs == 1 ? "" : "s", objects, objects == 1 ? "" : "s",
			refs == 1 ? "it is" : "they are", objects == 1 ? "that object" : "those objects");
}

/* After a real fix: the same look again, so the verdict said is the
 * cluster's now, not the plan's: nothing left (the GC keeps every object
 * fixed: what is left of its references resolves, or none is left), or
 * what is still dangling and what the GC will do about it. */
static enum exit_code say_after_fix(struct cmd_run *run)
{
	struct session *s = run->s;
	struct owners_dangling_report after = { NULL, 0, 0 };
	size_t i, deletes = 0;
	enum exit_code rc;

	session_forget_scan(s);
	if ((rc = find(run, &after)))
		return rc;
	for (i = 0; i < after.count; i++)
		deletes += after.items[i].gc == OWNERS_DANGLING_GC_DELETE_OBJECT;
	if (!after.count)
		fprintf(stderr, "after the fix: no dangling ownerReferences left; the garbage collector keeps "
			"every object fixed\n");
	else
		fprintf(stderr,
			"after the fix: %zu dangling ownerReference%s left (the ones kept or "
			"failed above)"
			", %zu of them on objects the garbage collector will delete; '%s dangling' "
			"shows them\n",
			after.count, after.count == 1 ? "" : "s", deletes, run->cli->program);
	owners_dangling_report_clear(&after);
	return 0;
}

/* The objects decided for collection (WOULD_DELETE), collected now, or
 * kept when a reference removal failed; stats counted again. */
static enum exit_code collect_after_fix(struct session *s, enum owners_dry_run dry_run,
					struct owners_dangling_report *rep,
					struct owners_dangling_fix_stats *stats, struct owners_error *err)
{
	unsigned char *decided = calloc(rep->count + 1, 1);
	size_t i, deleted = stats->deleted;
	enum exit_code rc = EXIT_OK;

	if (!decided)
		return error_oom();
	for (i = 0; i < rep->count; i++) {
		struct owners_dangling_finding *f = &rep->items[i];

		if (f->fix != OWNERS_FIX_WOULD_DELETE)
			continue;
		decided[i] = 1;
		free(f->fix_message);
		f->fix_message = NULL;
		f->fix = OWNERS_FIX_NONE;
		if (stats->failed) {
			f->fix = OWNERS_FIX_KEPT;
			f->fix_message = owners_strdup("not collected: a reference removal above failed, "
						       "and nothing is deleted after a failure");
		}
	}
	if (stats->failed) {
		stats->deleted = 0;
		stats->kept += deleted;
	} else if (owners_dangling_collect(rep, session_graph(s), session_http(s), dry_run, err)) {
		rc = report_error(err);
	} else {
		stats->deleted = 0;
		for (i = 0; i < rep->count; i++) {
			enum owners_fix_result r = rep->items[i].fix;

			if (!decided[i])
				continue;
			stats->deleted += r == OWNERS_FIX_DELETED || r == OWNERS_FIX_WOULD_DELETE;
			stats->failed += r == OWNERS_FIX_FAILED;
			stats->gone += r == OWNERS_FIX_GONE;
			stats->kept += r == OWNERS_FIX_KEPT;
		}
	}
	free(decided);
	return rc;
}

/* ---- the command ------------------------------------------------------- */

OUTPUT_RENDERERS(renderers, struct owners_dangling_render, owners_dangling);

static enum exit_code show(struct cmd_run *run, const struct owners_dangling_report *rep, int fix)
{
	const struct dangling_options *o = run->opts;
	struct owners_dangling_render render;

	memset(&render, 0, sizeof(render));
	render.print = run->print;
	render.g = session_graph(run->s);
	render.rep = rep;
	render.show_fix = fix;
	render.dry_run = o->dry_run != OWNERS_DRY_RUN_NONE;
	return output_emit(run, &renderers, &render);
}

/* Left dangling: everything, unless a real fix took it away. */
static size_t left_dangling(const struct owners_dangling_report *rep, int fix, int dry_run)
{
	size_t i, left = 0;

	for (i = 0; i < rep->count; i++) {
		enum owners_fix_result r = rep->items[i].fix;

		if (!fix || dry_run ||
		    (r != OWNERS_FIX_REMOVED && r != OWNERS_FIX_REPAIRED && r != OWNERS_FIX_GONE &&
		     r != OWNERS_FIX_DELETED))
			left++;
	}
	return left;
}

static enum exit_code validate(const struct owners_cli *cli, const void *opts,
			       const struct string_list *args)
{
	const struct dangling_options *o = opts;

	if (cli->selector && !args->count)
		return usage_error("-l needs the TYPE of the objects to select, e.g. "
				   "'%s dangling pods -l app=web'",
				   cli->program);
	if (o->related && (o->fix != OWNERS_FIX_MODE_NONE || o->dry_run != OWNERS_DRY_RUN_NONE ||
			   o->fix_unresolvable))
		return usage_error(
			"--related lists what does not resolve: there is nothing to fix "
			"(--fix, --dry-run and --fix-unresolvable are for ownerReferences)");
	if (o->fix_unresolvable && o->fix == OWNERS_FIX_MODE_NONE && o->dry_run == OWNERS_DRY_RUN_NONE)
		return usage_error("--fix-unresolvable goes with --fix (or --dry-run, to see what it "
				   "would change first)");
	return EXIT_OK;
}

/* Before the first change, every permission the fix needs: a read-only
 * user gets one clear error, nothing changed, exit 4. Asked per type and
 * namespace first (a few reviews however many objects); where that is
 * refused, per object, as a Role may grant one object alone by name. The
 * decisions made so far are undone, so that the report shows the findings
 * alone. */
static enum exit_code check_access(struct cmd_run *run, struct owners_dangling_report *rep)
{
	const struct dangling_options *o = run->opts;
	struct owners_access_check *types = NULL, *checks = NULL;
	uint32_t *type_examples = NULL, *examples = NULL;
	struct owners_error err = OWNERS_ERROR_INIT;
	struct owners_cascade_access_dangling_fix how = { o->fix_unresolvable, 0, NULL, 0 };
	size_t n_types = 0, n = 0, i;
	enum exit_code rc;

	if (owners_cascade_access_dangling_fix_needed(rep, session_graph(run->s), &how, &types,
						      &type_examples, &n_types))
		return error_oom();
	/* A review that cannot be made leaves every object to be asked about. */
	if (owners_access_check_all(session_http(run->s), types, n_types, &err))
		for (i = 0; i < n_types; i++)
			types[i].verdict = OWNERS_ACCESS_DENIED;
	owners_error_clear(&err);
	how.by_name = 1;
	how.denied = types;
	how.n_denied = n_types;
	rc = owners_cascade_access_dangling_fix_needed(rep, session_graph(run->s), &how, &checks,
						       &examples, &n)
		     ? error_oom()
		     : session_check_access(run->s, checks, examples, n, "the fix");
	owners_access_checks_clear(types, n_types);
	free(types);
	free(type_examples);
	for (i = 0; rc == EXIT_INCOMPLETE && i < rep->count; i++) {
		free(rep->items[i].fix_message);
		rep->items[i].fix_message = NULL;
		rep->items[i].fix = OWNERS_FIX_NONE;
	}
	return rc;
}

/* --fix: references removed, and objects with no owner left collected
 * as the GC would (unless kept on purpose, --fix=keep): last, and only
 * when every reference removal went through, so that a forbidden patch
 * stops the fix before anything is deleted. First the decision alone
 * (client dry run), so that the reference fixer leaves those objects
 * alone. */
static enum exit_code fix(struct cmd_run *run, struct owners_dangling_report *rep,
			  struct owners_dangling_fix_stats *stats)
{
	const struct dangling_options *o = run->opts;
	struct owners_error err = OWNERS_ERROR_INIT;
	struct owners_dangling_fix_options fo;
	int collect = o->fix != OWNERS_FIX_MODE_KEEP;
	double pause = 0;
	enum exit_code rc;

	memset(&fo, 0, sizeof(fo));
	fo.dry_run = o->dry_run;
	fo.fix_unresolvable = o->fix_unresolvable;
	if ((rc = test_hook_pause_before_fix(&pause)))
		return rc;
	if (pause > 0) {
		fo.before_patch = pause_before_patch;
		fo.ctx = &pause;
	}
	if (collect && owners_dangling_collect(rep, session_graph(run->s), session_http(run->s),
					       OWNERS_DRY_RUN_CLIENT, &err))
		rc = report_error(&err);
	else if (o->dry_run == OWNERS_DRY_RUN_NONE && (rc = check_access(run, rep)))
		; /* said; nothing changed */
	else if (owners_dangling_fix(rep, session_graph(run->s), session_http(run->s), &fo, stats,
				     &err))
		rc = report_error(&err);
	else if (collect && o->dry_run != OWNERS_DRY_RUN_CLIENT)
		rc = collect_after_fix(run->s, o->dry_run, rep, stats, &err);
	owners_error_clear(&err);
	return rc;
}

static int unseen_types(const struct session *s)
{
	struct owners_buf names = OWNERS_BUF_INIT;
	size_t n = session_unseen_types(s, &names);

	owners_buf_clear(&names);
	return n != 0; /* out of memory too: session_incomplete_unless_seen() says it */
}

/* After the report: what the fix did and what is left, on stderr. */
static enum exit_code say_fixed(struct cmd_run *run, const struct owners_dangling_report *rep,
				const struct owners_dangling_fix_stats *stats)
{
	const struct owners_cli *cli = run->cli;
	const struct dangling_options *o = run->opts;
	int document = output_is_document(&cli->output);

	report_failures(session_graph(run->s), rep);
	if (!document)
		fix_summary(stats, o->dry_run != OWNERS_DRY_RUN_NONE);
	if (o->fix == OWNERS_FIX_MODE_KEEP)
		say_kept_on_purpose(rep);
	if (!o->fix_unresolvable)
		say_gc_never(rep, o->dry_run != OWNERS_DRY_RUN_NONE);
	if (!document && o->dry_run == OWNERS_DRY_RUN_NONE && stats->objects_patched)
		return say_after_fix(run);
	return EXIT_OK;
}

/* The findings, and with fixing the fix; a fix refused before any change
 * shows the findings alone, exit 4. */
static enum exit_code find_and_fix(struct cmd_run *run, struct owners_dangling_report *rep, int fixing,
				   struct owners_dangling_fix_stats *stats)
{
	enum exit_code rc = find(run, rep), shown;

	if (!rc && fixing && rep->count)
		rc = fix(run, rep, stats);
	if (rc == EXIT_INCOMPLETE) {
		shown = show(run, rep, 0);
		rc = shown ? shown : EXIT_INCOMPLETE;
	}
	return rc;
}

enum exit_code cmd_dangling(struct cmd_run *run)
{
	const struct owners_cli *cli = run->cli;
	const struct dangling_options *o = run->opts;
	struct owners_dangling_report rep = { NULL, 0, 0 };
	struct owners_dangling_fix_stats stats;
	/* --dry-run=client|server is a --fix that changes nothing; =none
	 * alone asks for no fix. */
	int fixing = o->fix != OWNERS_FIX_MODE_NONE || o->dry_run != OWNERS_DRY_RUN_NONE;
	enum exit_code rc;

	memset(&stats, 0, sizeof(stats));
	if (o->related)
		return dangling_related(run, o->exit_code);
	if ((rc = find_and_fix(run, &rep, fixing, &stats)))
		goto out;
	if ((rc = show(run, &rep, fixing)))
		goto out;
	/* "none" is not said of a fix that could not see everything: its
	 * error line says what was not seen instead */
	if (!rep.count && !output_is_document(&cli->output) && !(fixing && unseen_types(run->s)))
		say_none(run->s, run->n_objs);
	if (fixing && rep.count && (rc = say_fixed(run, &rep, &stats)))
		goto out;
	if (stats.failed)
		rc = EXIT_INCOMPLETE;
	else if (o->exit_code && left_dangling(&rep, fixing, o->dry_run != OWNERS_DRY_RUN_NONE))
		rc = EXIT_ERROR;
	/* a fix is done only where everything it may touch was seen */
	if (fixing)
		rc = session_incomplete_unless_seen(run->s, "the fix", rc);
out:
	owners_dangling_report_clear(&rep);
	return rc;
}

/* The man page's detail beyond --help (see struct man_section). */
static const struct man_section dangling_man_sections[] = {
	{"FINDINGS",
		"Checked against the real garbage collector in the end-to-end tests: what it\n"
		"reports as \"delete the object\" the GC deletes; what it reports as \"nothing,\n"
		"ever\" is still there after several GC syncs.\n"
		"  $ owners dangling -A\n"
		"  NAMESPACE   OBJECT                    OWNER                 CLASS               GC WILL\n"
		"              ClusterRole/cr-bad        ConfigMap/live        invalid-namespace   nothing, ever\n"
		"  default     ConfigMap/dep-absent      ConfigMap/never       absent              delete the object\n"
		"  default     ConfigMap/dep-elsewhere   ConfigMap/elsewhere   invalid-namespace   delete the object\n"
		"  default     ConfigMap/dep-mismatch    ConfigMap/recreated   uid-mismatch        delete the object\n"
		"  default     ConfigMap/dep-mixed       ConfigMap/never       absent              remove the reference\n"
		"  default     ConfigMap/dep-widget      Widget/w1             unresolvable        nothing, ever\n"
		"  $ owners --context viewer dangling\n"
		"  NAMESPACE   OBJECT                    OWNER                 CLASS          GC WILL\n"
		"  default     ConfigMap/dep-secret      Secret/s1             unknown        cannot tell\n"
		"  warning: cannot list 7 types that can hold part of the answer (ownership through them is unknown): forbidden: clusterroles.rbac.authorization.k8s.io, csistoragecapacities.storage.k8s.io, leases.coordination.k8s.io, podtemplates, rolebindings.rbac.authorization.k8s.io, roles.rbac.authorization.k8s.io, secrets\n"
		"  warning: 26 more types forbidden to you cannot hold part of the answer (-v=1 names them)\n"
		"\n"
		"A namespaced run looks for owners that read absent in every namespace (one list\n"
		"per owner type, only for those types), so an owner living in another namespace\n"
		"reads invalid-namespace there too, as the garbage collector (which sees every\n"
		"namespace) reports it; when that list is forbidden they stay absent and a\n"
		"warning says so. How the warnings are worded: owners(1), WHAT IT CANNOT SEE.\n"
		"\n"
		"GC WILL is where the GC's passes end, not only its next step: an object kept now\n"
		"by a live owner that is garbage itself (its only owner gone) reads delete the\n"
		"object (after ConfigMap/c0), since the GC collects c0 first and then this object\n"
		"has no owner left (owners why says the same)."},
	{"FIXING",
		"--fix does what the garbage collector would, and nothing more: an object the GC\n"
		"never acts on (an unresolvable reference, or a namespaced owner of a cluster-\n"
		"scoped object: nothing, ever) is left alone unless --fix-unresolvable asks for\n"
		"it, and then, if that API comes back or that owner becomes resolvable, the\n"
		"object is never collected through the reference removed. An object the GC\n"
		"deletes now (no\n"
		"owner resolves) is collected exactly as owners gc collects it: a DELETE with the\n"
		"policy its finalizers say and UID and resourceVersion preconditions (object\n"
		"deleted). Stripping its references instead would turn garbage into an object\n"
		"kept forever: that takes --fix=keep, which says how many objects it so keeps. On\n"
		"an object that keeps a live owner, --fix removes the dangling references (never\n"
		"unknown ones) with merge patches conditional on the resourceVersion read: a\n"
		"concurrent change is re-read and decided again, nothing is overwritten, and the\n"
		"real end state is read back and shown, followed by the verdict after the fix\n"
		"from a second look at the cluster (after the fix: no dangling ownerReferences\n"
		"left; the garbage collector keeps every object fixed, or what is left and how\n"
		"much of it the GC will delete).\n"
		"\n"
		"The rule (owners(1), THE GARBAGE COLLECTOR'S RULE): owners never deletes or\n"
		"patches an object that the real GC, in the same situation, would not; never in\n"
		"an earlier order than the GC would; and --fix never turns an object the GC keeps\n"
		"into one it deletes. For --fix that means: before a patch, the GC's verdict on\n"
		"the object is decided as it stands and as it would stand after; with\n"
		"--fix-unresolvable, an object the GC\n"
		"leaves alone because of a reference it gives up on (an unresolvable one) keeps\n"
		"that reference when removing it would leave only dangling or unknown owners, and\n"
		"the finding says why (kept). A reference by an apiVersion no longer served whose\n"
		"UID is alive under a served version of the same group and kind (apps/v1beta1\n"
		"Deployment web while apps/v1 web has that UID) is out of date, not dangling:\n"
		"--fix repairs it (repaired: the apiVersion becomes the served one, every other\n"
		"field as it was).\n"
		"\n"
		"--dry-run=server has the server check the same patches without storing them;\n"
		"--dry-run=client (or kubectl's deprecated --dry-run alone) reads and decides the\n"
		"same way and sends no patch. -o json has a stable schema (OUTPUT): an item per dangling reference,\n"
		"the object Kubernetes-shaped with the reference, its class, what the GC will do\n"
		"(gc) and the fix under owners. -o name prints each object with a dangling\n"
		"reference once, configmap/x as owners delete and kubectl delete take it (owners\n"
		"dangling -A -o name | xargs kubectl get). --exit-code exits 1 when anything is\n"
		"found, for CI."},
	{NULL, NULL},
};

/* The command: its usage, help, man page text and permissions. */
/* --fix changes the cluster; --from cannot. */
static const char *dangling_changes(const void *opts)
{
	const struct dangling_options *o = opts;

	return o->fix != OWNERS_FIX_MODE_NONE ? "--fix changes ownerReferences" : NULL;
}

const struct command dangling_command = {
	.name = "dangling",
	.man_sections = dangling_man_sections,
	.fn = cmd_dangling,
	.validate = validate,
	CMD_OPTIONS(dangling_opts, struct dangling_options, NULL),
	.outputs = dangling_outputs,
	.output_default = "table",
	.usage = "owners dangling [TYPE[/NAME]...] [flags]",
	.summary = "find ownerReferences that do not resolve, say what the GC will do, fix them "
		   "safely",
	.description =
		"With --related it reports instead the uses that do not resolve: a Pod or a\n"
		"template naming a ConfigMap, Secret, claim or ServiceAccount that does not\n"
		"exist, an Ingress to a missing Service, a binding of a missing Role, an\n"
		"autoscaler of a missing target..., each with what it breaks (NAMESPACE, OBJECT,\n"
		"USES, STATE, BREAKS; -o wide adds the RELATION and its field; -o json an\n"
		"OwnersBrokenUses document, an item per use with owners.relation and\n"
		"owners.breaks). Optional uses, a binding's subjects that are gone and a\n"
		"ServiceAccount's legacy list of token Secrets break nothing and are left out; a\n"
		"use whose type was not listed where it would be is unknown. It reads whole the\n"
		"objects of the types that hold relations (owners-tree(1), RELATIONS).\n"
		"\n"
		"Reports every ownerReference that does not resolve, one finding per reference,\n"
		"decided as the cluster's garbage collector decides: the owner is looked up by\n"
		"the reference's exact apiVersion and kind, by name in the dependent's namespace\n"
		"when the owner's kind is namespaced, and compared by UID. The CLASS is:\n"
		"  absent             no object with that UID where the owner must be\n"
		"  uid-mismatch       that kind and name exist with another UID (owner "
		"re-created,\n"
		"                     or the dependent restored from a backup)\n"
		"  invalid-namespace  the owner exists only in another namespace, or a cluster-\n"
		"                     scoped object names a namespaced kind. One namespace\n"
		"                     scanned, owners that read absent are looked for in every\n"
		"                     namespace (one list per type they have); if that list is\n"
		"                     forbidden they stay absent, with a warning\n"
		"  unresolvable       apiVersion/kind not served (CRD removed, version dropped)\n"
		"  unknown            the owner's type could not be listed: no verdict\n"
		"\n"
		"GC WILL says what the garbage collector will do, decided per object:\n"
		"  delete the object      no owner of the object resolves (\"(after X)\": its\n"
		"                         live owner is garbage itself: the GC collects X first)\n"
		"  remove the reference   the object has a live owner\n"
		"  nothing, ever          the object has an unresolvable reference, or is\n"
		"                         cluster-scoped with a namespaced owner: the GC never\n"
		"                         decides about any of its references\n"
		"  nothing (in deletion)  the object is already being deleted\n"
		"  cannot tell            it depends on an owner that could not be checked\n"
		"\n"
		"Without arguments the namespace's objects are checked (-A: every object,\n"
		"cluster-scoped ones too); TYPE checks every object of a type, TYPE/NAME one.\n"
		"\n"
		"--fix does what the garbage collector would, and nothing more. An object it\n"
		"never acts on (GC WILL: nothing, ever) is left as it is (FIX: kept), and a\n"
		"line on stderr counts them; --fix-unresolvable acts on those too, a choice the\n"
		"GC never makes: removed, such a reference can never again have the object\n"
		"collected, should its API come back or its owner become resolvable. Before\n"
		"its first change --fix asks the server (SelfSubjectAccessReview, per object)\n"
		"for every permission it needs: one missing, it says which, changes nothing,\n"
		"shows the findings and exits 4. An object it deletes now (no\n"
		"owner resolves) is collected as owners gc would collect it: a DELETE with the\n"
		"policy its finalizers say, UID and resourceVersion preconditions (FIX: object\n"
		"deleted). --fix=keep removes such an object's references instead, so that it is\n"
		"never collected, and says so. On an object that keeps a live owner, --fix reads\n"
		"it again and removes only references that were reported\n"
		"and that the server confirms dangling, with a merge patch conditional on the\n"
		"resourceVersion read: if the object changed meanwhile (409 Conflict) it is read\n"
		"again, decided again and patched again, up to 5 times. It never\n"
		"touches a reference that resolves or is unknown. A reference\n"
		"whose apiVersion is no longer served, while the same UID is alive under a\n"
		"served version of its group and kind, is repaired (its apiVersion made the\n"
		"served one) rather than removed (with --fix-unresolvable). It never turns an\n"
		"object the GC keeps into one it deletes: when removing a reference the GC gives\n"
		"up on (unresolvable, with --fix-unresolvable) would\n"
		"leave only dangling or unknown owners, that reference is kept, and says why.\n"
		"It reads each patched object again and reports the real end state in the FIX\n"
		"column (removed, repaired, object deleted, kept, nothing to do, FAILED), then "
		"looks again and\n"
		"says the verdict after the fix: what is still dangling and what the GC will do.\n"
		"--dry-run=server sends\n"
		"the same patches with dryRun=All, so the server checks them and stores nothing;\n"
		"--dry-run=client (or kubectl's deprecated --dry-run alone) reads and decides the\n"
		"same way and sends no patch.\n"
		"\n"
		"An object in deletion is left as it is (FIX: kept), references and all: the GC's\n"
		"attemptToDeleteItem never changes an object being deleted.\n"
		"\n"
		"Exit status: 0 done; 1 an error, or with --exit-code anything reported (with\n"
		"--fix: anything left); 2 a usage error; 4 a fix could not be completed\n"
		"(forbidden, conflicts kept coming): each such reference is named on stderr;\n"
		"also 4 when a type that can hold part of the fix could not be listed\n"
		"(forbidden or failed): its objects were not seen, the types are named.",
	.examples = "  owners dangling\n"
		    "  owners dangling --related -A\n"
		    "  owners dangling -A --exit-code\n"
		    "  owners dangling -A -o json | jq '.items[] | select(.owners.class == "
		    "\"uid-mismatch\")'\n"
		    "  owners dangling pods,replicasets -l app=web\n"
		    "  owners dangling -n shop --dry-run=server\n"
		    "  owners dangling deployment/web --fix\n"
		    "  owners dangling -A --dry-run=client --fix-unresolvable",
	.args = CMD_ARGS_OBJECTS_OPTIONAL,
	.type_alone = CMD_TYPE_ALONE_YES,
	.discovery = CMD_DISCOVERY_CURRENT,
	.reads_snapshot = 1,
	.changes = *dangling_changes,
	/* every TYPE before the scan: a later rediscovery keeps them */
	.resolve = CMD_RESOLVE_TYPES,
	.scope = OWNERS_SCOPE_NAMESPACE,
	.rbac = "list on every type it scans; with --fix, get and patch on the objects it fixes, "
		"delete on those it collects (asked for before the first change), and create on "
		"selfsubjectaccessreviews (every user has it)",
	.json_schema =
		"-o json prints, Kubernetes-shaped as kubectl get -o json:\n"
		"{\"apiVersion\": \"owners.dev/v1\", \"kind\": \"OwnersDangling\",\n"
		" \"metadata\": {\"dryRun\": BOOL}, \"items\": [ITEM...], \"warnings\": "
		"[WARNING...]}.\n" DOC_JSON_ITEM_WARNING_REF
		"FACTS, one item per dangling reference (an object with two has two items):\n"
		"  \"reference\": {\"apiVersion\", \"kind\", \"name\", \"uid\", \"controller\",\n"
		"                \"blockOwnerDeletion\"} (the one of metadata.ownerReferences),\n"
		"  \"class\": \"absent\" | \"uid-mismatch\" | \"invalid-namespace\" | "
		"\"unresolvable\"\n"
		"           | \"unknown\",\n"
		"  \"gc\": {\"action\": \"delete-object\" | \"remove-reference\" | \"none\" | "
		"\"unknown\",\n"
		"         \"reason\": STRING, \"after\": REF (when it waits for another object)},\n"
		"  \"fix\": {\"result\": \"removed\" | \"would-remove\" | \"repaired\" | "
		"\"would-repair\"\n"
		"                  | \"kept\" | \"gone\" | \"failed\",\n"
		"          \"message\": STRING (when there is one), \"attempts\": patches sent}\n"
		"\"fix\" is there with --fix or --dry-run only. -o name prints each object once\n"
		"(kind.group/name), as owners delete and kubectl delete take it.",
};
