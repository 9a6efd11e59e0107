/*
 * owners finalizers: objects stuck in deletion and why (lib/ops/stuck.c
 * explains, lib/ops/stuck_fetch.c reads what the scan does not carry,
 * lib/ops/stuck_render.c prints). `owners finalizers remove` is in
 * cmd/finalizers_remove.c; both share the option table below.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api_path.h"
#include "commands.h"
#include "gc_evidence.h"
#include "graph_mark.h"
#include "grow.h"
#include "object_args.h"
#include "output.h"
#include "session_scan.h"
#include "session_snapshot.h"
#include "session_select.h"
#include "stuck.h"
#include "stuck_fetch.h"
#include "stuck_render.h"

static const char *const finalizers_outputs[] = { "text", "json", "yaml", "name", "jsonpath=", "custom-columns=",
						   NULL };

struct finalizers_options {
	int exit_code;          /* --exit-code */
};

#define OPT_STRUCT struct finalizers_options
const struct opt finalizers_opts[] = {
	OPT_SELECTOR(NULL,
		     "look only at objects of the given TYPEs with these labels, e.g. app=web"),
	OPT_BOOL("exit-code", 0, exit_code, "exit 1 when an object stuck in deletion is reported",
		 "exit 1 when an object stuck in deletion is reported (as dangling --exit-code)"),
	OPT_OUTPUT("text (default), json (its schema: the man page, OUTPUT), yaml",
		   "text (default), json (its schema: the man page, OUTPUT), yaml (the same "
		   "document), name (kind.group/name of each object), jsonpath=TEMPLATE or "
		   "custom-columns=SPEC (over the document)"),
	OPT_TEMPLATE_KEYS,
	OPT_END,
};
#undef OPT_STRUCT

/* Content scans: the namespaces in deletion the first scan did not
 * cover, so that a namespace is explained by what is in it. */
struct extra_scans {
	struct owners_scan_report *reports;
	size_t count, cap;
};

/* What one run of the command found. */
struct stuck_run {
	uint32_t *nodes;            /* the objects asked for that are in deletion */
	size_t n;
	/* per node, whether it was named (or matched -l): one not in
	 * deletion is said so */
	unsigned char *named;
	size_t n_named;
	struct extra_scans extra;
	struct owners_stuck_facts facts;
	struct owners_stuck_report rep;
	size_t stuck;               /* of nodes, those stuck */
};

/* ---- listing: which objects --------------------------------------------- */

/* The objects asked for that are in deletion, each once (with no
 * argument, the namespace's own Namespace object too), and which were
 * named. */
static enum exit_code select_in_deletion(struct cmd_run *run, struct stuck_run *st)
{
	const struct session_selection how = {
		.everything_when_none = 1,
		.everything_flags = OWNERS_MARK_OWN_NAMESPACE,
	};
	struct owners_selection sel = OWNERS_SELECTION_INIT;
	struct session *s = run->s;
	size_t i;
	enum exit_code rc;

	if ((rc = session_select(s, run->targets, run->n_objs, &how, &sel)))
		return rc;
	if (owners_graph_mark_list(&st->nodes, &st->n, session_graph(s), sel.picked, 1)) {
		owners_selection_clear(&sel);
		return error_oom();
	}
	for (i = 0; i < session_graph(s)->count; i++)
		sel.picked[i] = (sel.picked[i] & OWNERS_SELECTED_NAMED) != 0;
	st->named = sel.picked;
	st->n_named = session_graph(s)->count;
	sel.picked = NULL;
	owners_selection_clear(&sel);
	return 0;
}

static void extra_scans_clear(struct extra_scans *x)
{
	size_t i;

	for (i = 0; i < x->count; i++)
		owners_scan_report_clear(&x->reports[i]);
	free(x->reports);
	memset(x, 0, sizeof(*x));
}

static enum exit_code scan_namespaces(struct session *s, const struct stuck_run *st, const char *scanned,
				      struct extra_scans *x)
{
	size_t i;

	if (!scanned)
		return 0; /* all namespaces were listed */
	for (i = 0; i < st->n; i++) {
		const struct owners_node *ns = &session_graph(s)->nodes[st->nodes[i]];
		struct owners_scan_options o;
		struct owners_scan_report *r;

		if (!owners_stuck_is_namespace(ns) || !strcmp(ns->name, scanned))
			continue;
		if (OWNERS_GROW(x->reports, x->cap, x->count + 1))
			return error_oom();
		r = &x->reports[x->count];
		memset(r, 0, sizeof(*r));
		session_scan_options(s, &o);
		o.namespace_ = ns->name;
		if (session_list_into(s, session_graph(s), &o, r)) {
			owners_scan_report_clear(r);
			return report_error(session_error(s));
		}
		x->count++;
	}
	return 0;
}

/* Named objects that are not stuck: say so, rather than print nothing. */
static void say_not_stuck(const struct owners_graph *g, const struct owners_stuck_facts *facts,
			  const unsigned char *named, size_t n_named)
{
	struct owners_buf what = OWNERS_BUF_INIT;
	uint32_t *rows = NULL;
	size_t i, n = 0, cap = 0;

	for (i = 0; named && i < n_named; i++)
		if (named[i] && !owners_stuck_is_stuck(g, facts, (uint32_t)i) &&
		    owners_graph_node_list_push(&rows, &n, &cap, (uint32_t)i)) {
			free(rows);
			error_oom();
			return;
		}
	/* in the node order, not the order listed */
	owners_graph_sort_nodes(g, rows, n);
	for (i = 0; i < n; i++) {
		const struct owners_node *node = &g->nodes[rows[i]];

		owners_buf_reset(&what);
		owners_api_type_name(&what, node->place->resource);
		fprintf(stderr, "%s '%s'%s%s%s %s\n", what.ptr, node->name,
			*node->place->namespace_ ? " in namespace '" : "", node->place->namespace_,
			*node->place->namespace_ ? "'" : "",
			node->extras->deleted ? "is being deleted, with no finalizers left"
					      : "is not being deleted");
	}
	free(rows);
	owners_buf_clear(&what);
}

OUTPUT_RENDERERS(renderers, struct owners_stuck_render, owners_stuck);

/* Scans, picks the objects asked about, and reads what explains why they
 * are stuck (lib/ops/stuck_fetch.c). */
static enum exit_code gather(struct cmd_run *run, struct stuck_run *st)
{
	struct owners_error err = OWNERS_ERROR_INIT;
	struct session *s = run->s;
	uint32_t *reach = NULL;
	size_t n_reach = 0;
	enum exit_code rc;

	if (!(rc = session_scan(s, run->scan_ns)))
		rc = select_in_deletion(run, st);
	if (rc || (rc = scan_namespaces(s, st, run->scan_ns, &st->extra)))
		return rc;
	if (owners_stuck_fetch_reach(&reach, &n_reach, session_graph(s), st->nodes, st->n))
		return error_oom();
	if (session_stuck_facts(s, &st->facts, &(const struct owners_node_list){ reach, n_reach }, &err)) {
		rc = report_error(&err);
		owners_error_clear(&err);
	}
	free(reach);
	return rc;
}

/* Nothing found is said, as kubectl get says it, unless the objects were
 * named (say_not_stuck() spoke of each). */
static void say_nothing_stuck(const struct cmd_run *run, const struct stuck_run *st)
{
	size_t i;

	for (i = 0; st->named && i < st->n_named && !st->named[i]; i++)
		;
	if (st->stuck || output_is_document(&run->cli->output) || (st->named && i < st->n_named))
		return;
	if (run->cli->all_namespaces)
		fprintf(stderr, "no objects stuck in deletion\n");
	else
		fprintf(stderr, "no objects stuck in deletion in namespace '%s'\n",
			session_namespace(run->s));
}

static void stuck_run_clear(struct stuck_run *st)
{
	free(st->named);
	free(st->nodes);
	owners_stuck_report_clear(&st->rep);
	owners_stuck_facts_clear(&st->facts);
	extra_scans_clear(&st->extra);
}

static enum exit_code validate(const struct owners_cli *cli, const void *opts,
			       const struct string_list *args)
{
	(void)opts;
	if (cli->selector && !args->count)
		return usage_error("-l needs the TYPE of the objects to select, e.g. "
				   "'%s finalizers pvc -l app=db'",
				   cli->program);
	return EXIT_OK;
}

enum exit_code cmd_finalizers(struct cmd_run *run)
{
	const struct finalizers_options *o = run->opts;
	struct owners_stuck_render render;
	struct stuck_run st;
	enum exit_code rc;

	memset(&st, 0, sizeof(st));
	if ((rc = gather(run, &st)))
		goto out;
	if (owners_stuck_explain_each(&st.rep, &st.stuck, session_graph(run->s), &st.facts,
				      st.nodes, st.n)) {
		rc = error_oom();
		goto out;
	}
	memset(&render, 0, sizeof(render));
	render.g = session_graph(run->s);
	render.rep = &st.rep;
	render.print = run->print;
	render.namespace_ = run->cli->all_namespaces ? NULL : session_namespace(run->s);
	run->extra_reports = st.extra.reports;
	run->n_extra_reports = st.extra.count;
	if ((rc = output_emit(run, &renderers, &render)))
		goto out;
	say_not_stuck(session_graph(run->s), &st.facts, st.named, st.n_named);
	say_nothing_stuck(run, &st);
	/* a foreground or orphan deletion left for long: said whose work it is */
	rc = gc_evidence_say(run->s, OWNERS_COLLECTOR_RENDER_STALLED_AFTER);
	if (!rc && o->exit_code && st.stuck)
		rc = EXIT_ERROR;
out:
	run->extra_reports = NULL;
	stuck_run_clear(&st);
	return rc;
}

/* ---- the command -------------------------------------------------------- */

static const struct command *const finalizers_subcommands[] = { &finalizers_remove_command, NULL };

/* The man page's detail beyond --help (see struct man_section). */
static const struct man_section finalizers_man_sections[] = {
	{"WHY IT IS STUCK",
		"Each finalizer that only its controller removes gets the command that removes it\n"
		"for when that controller is gone (orphan too, for when the garbage collector does\n"
		"not run: removing it with owners releases the dependents first, as the GC would).\n"
		"  $ owners finalizers -n stuck2\n"
		"  Namespace/stuck2: deleting for 18m\n"
		"    kubernetes (spec.finalizers): the namespace controller removes it once the namespace is empty: 1 object left, 1 of them stuck in deletion\n"
		"      content: configmaps 1 (1 stuck)\n"
		"      ConfigMap/held: deleting for 18m\n"
		"        example.com/hold: its controller must remove it once its cleanup is done; if that controller is gone (uninstalled, crashed), nobody will\n"
		"          if so: owners finalizers remove configmap/held -n stuck2 --finalizer example.com/hold --uid=0b7f3d2e-5c1a-4e8b-9f60-3a2d1c4b5e6f\n"
		"  $ owners finalizers\n"
		"  Deployment/web2: deleting for 17m\n"
		"    foregroundDeletion: waiting for 1 dependent that blocks owner deletion (blockOwnerDeletion) to be deleted first\n"
		"      ReplicaSet/web2-745466d688: deleting for 17m\n"
		"        foregroundDeletion: waiting for 2 dependents that block owner deletion (blockOwnerDeletion) to be deleted first\n"
		"          Pod/web2-745466d688-74wnr: not being deleted yet (the garbage collector deletes it first)\n"
		"\n"
		"When the garbage collector appears not to be running (the evidence owners gc\n"
		"reads: work long due, the controller-manager's leader lease not renewed), it is\n"
		"said here too: a dependent of a deleted owner is collected only by a GC that\n"
		"runs."},
	{"REMOVING FINALIZERS",
		"owners finalizers remove TYPE/NAME... --finalizer NAME... | --all-finalizers\n"
		"takes exactly those finalizers off with a merge patch conditional on the\n"
		"resourceVersion read (a concurrent change is re-read and retried, never\n"
		"overwritten; no blind PUT), a namespace's kubernetes finalizer through its\n"
		"finalize subresource; it refuses an object that is not being deleted unless\n"
		"--force, refuses to free a namespace that still has content unless --force,\n"
		"shows what would change with --dry-run (=server: the server checks every write\n"
		"with dryRun=All; =client or alone: read and decided, nothing sent), and reports\n"
		"the real end state (gone, or still there and on what). --all means every object\n"
		"in kubectl, so here it is refused with an error naming --all-finalizers. remove\n"
		"is a subcommand with flags of its own (owners finalizers remove --help; -o\n"
		"text|json|yaml): given to owners finalizers itself, --force or --dry-run is\n"
		"refused with the command it belongs to.\n"
		"\n"
		"Every finalizers remove command owners prints (here, in owners why, in owners\n"
		"delete's timeout) carries --uid=UID, the object's: run after the work got done\n"
		"by someone else (the object gone, or the finalizer already removed) it says\n"
		"already done and exits 0; on an object re-created under the name (another UID)\n"
		"it touches nothing and says so. Without --uid an object that is not there is an\n"
		"error (exit 1), as in kubectl.\n"
		"\n"
		"The rule (owners(1), THE GARBAGE COLLECTOR'S RULE): owners never deletes or\n"
		"patches an object that the real GC, in the same situation, would not; never in\n"
		"an earlier order than the GC would; and finalizers remove never turns an object\n"
		"the GC keeps into one it deletes. For finalizers remove that means orphan: the\n"
		"GC takes it off an object in deletion only after releasing every dependent\n"
		"(removing the references that carry the object's UID), and taken off first it\n"
		"turns --cascade=orphan into a cascade (the object goes, its dependents still\n"
		"point at it, the GC deletes them). So owners does what the GC does, in its\n"
		"order: it scans the namespace and the cluster-scoped types (every namespace for\n"
		"a cluster-scoped object), releases each dependent with a merge patch conditional\n"
		"on the resourceVersion read (a conflict is re-read and retried), then removes\n"
		"orphan. When a type could not be listed (a dependent may have been missed) it\n"
		"refuses and changes nothing, unless --force, which releases the dependents found\n"
		"and says what it could not see.\n"
		"\n"
		"An API group whose discovery failed (an APIService pointing at a service that is\n"
		"gone: the very thing that stalls the GC) is said once, in the server's words\n"
		"(APIService v1beta1.metrics.k8s.io is not available: ServiceNotFound: ...); the\n"
		"GC itself goes on without such a group, and --no-dependents-in=metrics.k8s.io\n"
		"does the same here once the user acknowledges that the group holds none of the\n"
		"object's dependents, rather than --force; when a dependent cannot be released\n"
		"(forbidden, denied by admission) orphan stays. The released dependents are\n"
		"listed (-o json: releasedDependents); --dry-run=server has the server check every\n"
		"patch without storing it.\n"
		"  $ owners finalizers remove configmap/o --all-finalizers\n"
		"  configmap/o: released its dependents first: configmap/child1, configmap/child2, clusterrole.rbac.authorization.k8s.io/cr-dep\n"
		"  configmap/o: removed orphan; gone"},
	{NULL, NULL},
};

/* The command: its usage, help, man page text and permissions. */
const struct command finalizers_command = {
	.name = "finalizers",
	.man_sections = finalizers_man_sections,
	.fn = cmd_finalizers,
	.validate = validate,
	CMD_OPTIONS(finalizers_opts, struct finalizers_options, NULL),
	.outputs = finalizers_outputs,
	.output_default = "text",
	.usage = "owners finalizers [TYPE[/NAME]...] [flags]\n  owners finalizers remove TYPE/NAME... [--finalizer F]... [--all-finalizers] [flags]",
	.summary = "find objects stuck in deletion, say why, remove finalizers safely",
	.description = "Lists every object with a deletionTimestamp and finalizers left: how long it\n"
		"has been stuck, which finalizers, and why, from the owner graph and the object:\n"
		"  foregroundDeletion  the dependents whose reference blocks owner deletion\n"
		"                      (blockOwnerDeletion), each explained in turn when stuck\n"
		"  orphan              the dependents the garbage collector must release\n"
		"  kubernetes          a namespace's spec.finalizers entry: the content still in\n"
		"                      the namespace by type (scanned there, whatever -n says),\n"
		"                      the stuck content explained, and the True conditions the\n"
		"                      namespace controller reported\n"
		"  kubernetes.io/pvc-protection  the pods that mount the claim (pods are read in\n"
		"                      full, in that namespace only); unscheduled pods do not hold it\n"
		"  kubernetes.io/pv-protection   the claim the volume is bound to\n"
		"  anything else       its controller must remove it (with the command to do it\n"
		"                      if that controller is gone)\n"
		"\n"
		"Without arguments: the namespace's objects and the namespace itself (-A: every\n"
		"object); TYPE: every object of a type; TYPE/NAME: that object.\n"
		"\n"
		"'remove' reads each object and takes exactly the finalizers named with\n"
		"--finalizer (or --all-finalizers) off with a JSON merge patch carrying the resourceVersion\n"
		"read and the finalizers that stay: if the object changed meanwhile (409\n"
		"Conflict) it is read again and patched again, up to 5 times, so a concurrent\n"
		"change is never lost; never a blind PUT. A namespace's spec.finalizers go\n"
		"through PUT .../namespaces/NAME/finalize with the namespace as read (its\n"
		"resourceVersion included: conflicts are retried the same way). It refuses an\n"
		"object that is not being deleted, a finalizer the object does not have (then\n"
		"nothing is changed on it), and a namespace's 'kubernetes' while objects are\n"
		"still in the namespace (they would stay in storage), unless --force (the\n"
		"unknown finalizer is always refused). --dry-run=server sends the same writes\n"
		"with dryRun=All; --dry-run=client (or kubectl's deprecated --dry-run alone)\n"
		"reads and decides the same way and sends no write. --all means every object in kubectl, so here it\n"
		"is refused: every finalizer is --all-finalizers. Afterwards each object is read\n"
		"again and its real end state\n"
		"reported: gone, or still there and waiting for which finalizers.\n"
		"\n"
		"'orphan' on an object in deletion goes only after its dependents are released,\n"
		"as the garbage collector does (taken off first, the object goes and the GC\n"
		"deletes the dependents that still reference it): the namespace and the\n"
		"cluster-scoped types are scanned (every namespace for a cluster-scoped object),\n"
		"each dependent loses the references carrying the object's UID (a merge patch\n"
		"conditional on its resourceVersion), then 'orphan' is removed. A type that\n"
		"could not be listed refuses it (nothing changed) unless --force, which releases\n"
		"the dependents found; a dependent that cannot be released keeps 'orphan' on.\n"
		"\n"
		"Exit codes of remove: 0 every object is gone or no longer holds the finalizers\n"
		"asked for (or, --dry-run=server, the server accepted the change); 1 an object could not\n"
		"be acted on (not found, not being deleted, finalizer not on it, content left,\n"
		"cannot be read, dependents not released); 2 usage (no --finalizer nor --all-finalizers, both, -A, a TYPE without\n"
		"NAME, an unknown type); 4 incomplete: a write was tried and failed (forbidden,\n"
		"too many conflicts) or a finalizer came back. 1 wins over 4.\n"
		"\n"
		"remove -o json prints {\"apiVersion\": \"owners.dev/v1\", \"kind\":\n"
		"\"OwnersFinalizerRemoval\", \"metadata\": {\"dryRun\"}, \"items\": [{\"apiVersion\",\n"
		"\"kind\", \"metadata\": {\"name\", \"namespace\", \"uid\"}, \"owners\": {\"result\": gone |\n"
		"freed | dry-run | nothing | not-found | refused | failed | left, \"message\",\n"
		"\"removed\": [{\"name\", \"field\"}], \"finalizersLeft\": [{\"name\", \"field\"}],\n"
		"\"deleting\", \"writes\", \"releasedDependents\": [{\"kind\", \"apiVersion\",\n"
		"\"namespace\", \"name\", \"uid\", \"result\": released | dry-run | gone |\n"
		"not-referencing | failed, \"message\", \"writes\"}]}}], \"warnings\": [WARNING...]}\n"
		"(WARNING as in finalizers' document).",
	.examples = "  owners finalizers\n"
		"  owners finalizers -A -o json\n"
		"  owners finalizers namespace/old\n"
		"  owners finalizers pvc -n shop\n"
		"  owners finalizers remove namespace/old --all-finalizers\n"
		"  owners finalizers remove pod/web-1 --finalizer example.com/hold --dry-run=server",
	.args = CMD_ARGS_OBJECTS_OPTIONAL,
	.type_alone = CMD_TYPE_ALONE_YES,
	.discovery = CMD_DISCOVERY_CACHED,
	.reads_snapshot = 1,
	/* a named object of a type the GC does not track is listed too */
	.resolve = CMD_RESOLVE_AND_LIST,
	.scope = OWNERS_SCOPE_ROOTS,
	/* a Namespace's content is scanned on its own (scan_namespaces) */
	.namespaces_apart = 1,
	.rbac = "list on every type it scans; get on namespaces and persistentvolumes in deletion, list on pods where a claim is held; with remove, get and patch on the objects (update on namespaces/finalize for a namespace; to remove orphan, list on every type and patch on its dependents)",
	.subcommands = finalizers_subcommands,
	.json_schema = "-o json prints, Kubernetes-shaped as kubectl get -o json:\n"
		"{\"apiVersion\": \"owners.dev/v1\", \"kind\": \"OwnersFinalizers\",\n"
		" \"metadata\": {\"namespace\" (absent with -A)}, \"items\": [ITEM...], \"warnings\": [WARNING...]}.\n"
		DOC_JSON_ITEM_WARNING_REF
		"FACTS {\"stuckSeconds\", \"state\": \"stuck\" | \"deleting\" | \"live\", \"error\"\n"
		"        (optional), \"finalizers\": [FINALIZER...] (stuck ones), \"cycle\": true\n"
		"        (optional)}\n"
		"  FINALIZER {\"name\", \"field\": \"metadata.finalizers\" | \"spec.finalizers\",\n"
		"             \"reason\": blocking-dependents | dependents-to-release |\n"
		"               garbage-collector | namespace-content | namespace-controller |\n"
		"               in-use | bound | released | controller | unknown | deadlock,\n"
		"             \"message\", \"objects\": [ITEM...] (dependents, stuck content),\n"
		"             \"deadlock\": {\"members\": [REF...], \"command\"} (deadlock: the\n"
		"               objects in foreground deletion that block each other, which no\n"
		"               one ever ends, and the command that ends it),\n"
		"             \"content\": [{\"resource\", \"group\", \"kind\", \"count\", \"stuck\"}],\n"
		"             \"contentObjects\", \"contentTypesNotListed\",\n"
		"             \"conditions\": [{\"type\", \"status\", \"reason\", \"message\"}],\n"
		"             \"pods\": [{\"name\", \"nodeName\", \"phase\", \"holds\"}],\n"
		"             \"claim\": {\"namespace\", \"name\"}}  (each only where it applies)\n"
		"-o name prints each object asked about (kind.group/name).",
};
