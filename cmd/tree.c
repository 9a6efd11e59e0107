/*
 * owners tree: the dependents (or owners) of objects as a tree.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "object_args.h"
#include "output.h"
#include "session.h"
#include "status_fetch.h"
#include "tree.h"
#include "tree_watch.h"

static const char *const until_values[] = { "ready", "gone", NULL };
static const int until_enums[] = { OWNERS_UNTIL_READY, OWNERS_UNTIL_GONE };
static const char *const tree_outputs[] = { "tree", "wide", "json", "yaml", "dot", "name", "jsonpath=", "custom-columns=", NULL };

const struct opt tree_opts[] = {
	OPT_BOOL("up", 0, tree.up, "show the owners of the objects instead of their dependents"),
	OPT_INT("depth", 'd', tree.depth, "N", 0, LONG_MAX,
		"stop N levels below the roots (default: no limit)"),
	OPT_SELECTOR("label selector for the roots, e.g. app=web"),
	OPT_OUTPUT(tree_outputs,
		"tree (default), wide (adds reference flags and UIDs, and the API group to NAME: "
		"Kind.group/name), json, yaml, dot, name, jsonpath=TEMPLATE or custom-columns=SPEC "
		"(over the -o json document, rows depth first)"),
	OPT_BOOL("watch", 'w', tree.watch,
		"after the tree, follow it as it changes (as kubectl get -w): redrawn in place on "
		"a terminal, else one line (or -o json|yaml document) per row that changes; Ctrl-C "
		"ends"),
	OPT_ENUM("until", 0, tree.until, enum owners_until, "STATE", until_values, until_enums,
		"watch until the tree is ready (every object ready as its kind says) or gone (the "
		"roots and all their dependents), then exit 0 (3 when --timeout passes first)"),
	OPT_DURATION("timeout", timeout_ms,
		"with --until: give up after this long and exit 3 (default 5m; 0: no limit)"),
	OPT_TABLE_ROWS,
	OPT_END,
};

/* READY/STATUS for the rows printed (lib/api/object_status.c decides
 * what to read); decoration: a failure to fetch leaves "-". */
static int fetch_status(struct session *s, const struct owners_tree *tree,
			struct owners_object_status *status)
{
	struct owners_status_fetch_options so = { s->cli->chunk_size, 0 };
	struct owners_error err = OWNERS_ERROR_INIT;
	uint32_t *nodes = calloc(tree->count ? tree->count : 1, sizeof(*nodes));
	size_t i;

	if (!nodes)
		return OWNERS_ENOMEM;
	for (i = 0; i < tree->count; i++)
		nodes[i] = tree->rows[i].node;
	owners_status_fetch(status, s->graph, &(const struct owners_node_list){ nodes, tree->count },
			    s->http, &so, &err);
	owners_error_clear(&err);
	free(nodes);
	return 0;
}

/* The tree and what its rows show, for the printer. */
struct tree_view {
	struct owners_render render;
	enum output_kind kind;
};

static int render_json(struct owners_buf *out, void *ctx, const struct owners_scan_warning *warnings,
		       size_t n_warnings)
{
	struct tree_view *v = ctx;

	v->render.print.warnings = warnings;
	v->render.print.n_warnings = n_warnings;
	return owners_tree_render_json(out, &v->render);
}

static int render_text(struct owners_buf *out, void *ctx)
{
	const struct tree_view *v = ctx;

	switch (v->kind) {
	case OUTPUT_DOT:
		return owners_tree_render_dot(out, &v->render);
	case OUTPUT_NAME:
		return owners_tree_render_names(out, &v->render);
	default: /* tree, wide: the option table admits nothing else */
		return owners_tree_render_text(out, &v->render);
	}
}

/* Prints the tree in the format asked for; the exit code. */
static enum exit_code show(struct cmd_run *run, const struct owners_tree *tree,
			   const struct owners_object_status *status)
{
	struct output_renderers renderers = { render_json, render_text,
					     tree->up ? "owners.owners" : "owners.dependents" };
	struct tree_view v;

	memset(&v, 0, sizeof(v));
	v.kind = run->cli->output.kind;
	v.render.print = run->print;
	v.render.g = run->s.graph;
	v.render.tree = tree;
	v.render.status = status;
	return output_emit(run, &renderers, &v);
}

/* No roots (a type with no objects, a selector that matches none): as
 * kubectl get, not an error, said on stderr; a document format still
 * prints its (empty) document. */
static enum exit_code say_no_roots(const struct session *s, int all)
{
	if (all)
		fprintf(stderr, "No resources found\n");
	else
		fprintf(stderr, "No resources found in %s namespace.\n", s->namespace_);
	session_warn_scan(s);
	return EXIT_OK;
}

static enum exit_code validate(const struct owners_cli *cli, const struct string_list *args)
{
	enum output_kind k = cli->output.kind;

	(void)args;
	if ((cli->tree.watch || cli->tree.until != OWNERS_UNTIL_NONE) &&
	    (k == OUTPUT_DOT || k == OUTPUT_JSONPATH || k == OUTPUT_CUSTOM_COLUMNS))
		return usage_error("--watch and --until print tree, wide, json, yaml or name, not %s",
				   cli->output.spelled);
	return EXIT_OK;
}

/* Nothing to show: said as kubectl get says it, except by a document
 * format, whose document (no items) says it. */
static int says_nothing_found(enum output_kind k)
{
	return k == OUTPUT_TEXT || k == OUTPUT_WIDE || k == OUTPUT_NAME || k == OUTPUT_CUSTOM_COLUMNS;
}

/* The roots' trees, built and shown with their READY/STATUS. */
static enum exit_code show_trees(struct cmd_run *run, const struct owners_selection *roots)
{
	struct owners_tree tree = { NULL, 0, 0, 0 };
	struct owners_object_status *status = NULL;
	const struct owners_graph *g = run->s.graph;
	enum output_kind k = run->cli->output.kind;
	enum exit_code rc;
	size_t i;

	if (owners_tree_build(&tree, run->s.graph, roots->nodes, roots->count, run->cli->tree.up,
			      (int)run->cli->tree.depth) ||
	    !(status = calloc(g->count ? g->count : 1, sizeof(*status))) ||
	    (k != OUTPUT_DOT && k != OUTPUT_NAME && fetch_status(&run->s, &tree, status)))
		rc = error_oom();
	else /* the trees that exist, then what was not found (as kubectl get) */
		rc = session_say_not_found(roots, show(run, &tree, status));
	for (i = 0; status && i < g->count; i++)
		owners_object_status_clear(&status[i]);
	free(status);
	owners_tree_clear(&tree);
	return rc;
}

enum exit_code cmd_tree(struct cmd_run *run)
{
	/* A named object that is not there does not stop the others: said
	 * after what was found is printed, as kubectl get does. */
	const struct session_selection how = { .missing = OWNERS_SELECTION_MISSING_NOTED };
	struct listed_types listed = { NULL, 0, 0 };
	struct owners_selection roots = OWNERS_SELECTION_INIT;
	int watching = run->cli->tree.watch || run->cli->tree.until != OWNERS_UNTIL_NONE;
	enum exit_code rc;

	if (watching) {
		/* Each list's resourceVersion: where its watch starts. */
		run->s.on_listed = listed_types_record;
		run->s.on_listed_ctx = &listed;
	}
	if ((rc = session_scan(&run->s, run->scan_ns)) ||
	    (rc = session_select(&run->s, run->targets, run->n_objs, &how, &roots)))
		goto out;
	if (watching) { /* a named object not there yet may come (--until=ready), or is gone already */
		const struct tree_watch_args wa = {
			.objs = run->objs, .args = run->targets, .n_objs = run->n_objs,
			.kind = run->cli->output.kind, .print = &run->print,
			.all = run->scope.everywhere, .listed = &listed,
		};

		rc = tree_watch_run(&run->s, &wa);
	} else if (!roots.count && roots.n_not_found)
		rc = session_say_not_found(&roots, EXIT_OK);
	else if (!roots.count && says_nothing_found(run->cli->output.kind))
		rc = say_no_roots(&run->s, run->scope.everywhere);
	else
		rc = show_trees(run, &roots);
out:
	owners_selection_clear(&roots);
	run->s.on_listed = NULL;
	listed_types_clear(&listed);
	return rc;
}

/* The command: its usage, help, man page text and permissions. */
const struct command tree_command = {
	.name = "tree",
	.fn = cmd_tree,
	.validate = validate,
	.opts = tree_opts,
	.usage = "owners tree TYPE[/NAME]... [flags]",
	.summary = "show the dependents (or, with --up, the owners) of objects as a tree",
	.description = "Lists every deletable type through discovery (metadata only), builds the owner\n"
		"graph and prints the dependents of each named object, recursively: what a\n"
		"cascading delete of it would reach. A type alone means every object of it in\n"
		"the namespace (with -A, everywhere), as in kubectl get. With --up it prints the owners instead,\n"
		"all of them, up to the roots. Objects in deletion show their finalizers;\n"
		"dangling owner references and cycles are marked. Types that could not be\n"
		"listed are named in a warning (those that can hold part of the tree; the\n"
		"others are counted, -v=1 names them) and what depends on them shows as\n"
		"unknown. -o json and -o yaml print {apiVersion, kind: OwnersTree, metadata,\n"
		"items, warnings}, each item the object (apiVersion, kind, metadata) with\n"
		"owners' facts and its dependents (or owners) nested under owners; nothing found\n"
		"prints that document with no items, and is not an error. Of several objects\n"
		"named, the trees of those that exist print, then an error for each missing.\n"
		"\n"
		"-o wide adds the reference that links each row to its parent and the UID, and\n"
		"writes NAME as Kind.group/name (the core group's kinds stay Kind/name), as\n"
		"kubectl get does when it shows kinds: two kinds of one name in two groups differ there.\n"
		"--no-headers, --show-labels and -L KEY,... work as in kubectl get on the tree\n"
		"and wide tables (labels are read with the scan's metadata, only when asked).\n"
		"\n"
		"--watch (-w) keeps the tree current after it is printed: one watch per type that\n"
		"can hold part of it, from the resourceVersion of the list the scan made, full\n"
		"objects only for the types whose READY/STATUS it shows. On a terminal the tree is\n"
		"redrawn in place (rows marked + added, ~ changed, - going, for two seconds;\n"
		"Ctrl-C leaves the terminal as it was). Otherwise the first tree prints, then one\n"
		"line per row that changes, EVENT first (ADDED, MODIFIED, DELETED: gone from the\n"
		"tree), as kubectl get -w prints; -o json|yaml prints the OwnersTree document,\n"
		"then one {kind: OwnersTreeEvent, type, object, depth, owner} per change; -o name\n"
		"one name per change. A watch the server ends is resumed from where it was; 410\n"
		"Gone lists that type again; a broken connection or a restarting server is\n"
		"retried with backoff; a type you may list but not watch is listed every 10 s.\n"
		"Each failure is said once.\n"
		"\n"
		"--until=ready waits until every object of the tree is there, not in deletion, and\n"
		"ready as its kind says (Deployment rolled out and available, ReplicaSet and\n"
		"StatefulSet replicas ready, DaemonSet scheduled everywhere, Pod Ready or\n"
		"Succeeded, Job complete, PVC bound, LoadBalancer with an address; other kinds by\n"
		"their Ready condition, else present); --until=gone until the roots and all\n"
		"their dependents are gone. Both watch, exit 0 when reached and 3 when --timeout\n"
		"(default 5m) passes first: what CI waits on after kubectl apply or owners\n"
		"delete --wait=false.",
	.examples = "  owners tree deployment/web\n"
		"  owners tree deploy web -n shop -o wide\n"
		"  owners tree deployment/web -L app,tier --no-headers\n"
		"  owners tree pod/web-7d9c-x2x --up\n"
		"  owners tree deployments -l app=web -o json\n"
		"  owners tree deployments -A -o yaml\n"
		"  owners tree deployment/web -w\n"
		"  owners tree deployment/web --until=ready --timeout=5m\n"
		"  owners tree deployment/web --until=gone -o json\n"
		"  kubectl owners tree deployment/web",
	.args = CMD_ARGS_OBJECTS,
	.type_alone = CMD_TYPE_ALONE_YES,
	.discovery = CMD_DISCOVERY_CACHED,
	/* a root of a type the GC does not track is listed all the same */
	.resolve = CMD_RESOLVE_AND_LIST,
	.scope = OWNERS_SCOPE_ROOTS,
	.rbac = "list on every type it scans (in the namespace, and cluster-scoped types); get on the objects it prints; "
		"with --watch or --until, watch on the types it watches (a type it may not watch is listed every 10 s)",
	.json_schema = "-o json prints, Kubernetes-shaped as kubectl get -o json:\n"
		"{\"apiVersion\": \"owners.dev/v1\", \"kind\": \"OwnersTree\",\n"
		" \"metadata\": {\"direction\": \"dependents\" | \"owners\"}, \"items\": [ITEM...], \"warnings\": [WARNING...]}.\n"
		"  ITEM     {\"apiVersion\", \"kind\", \"metadata\": {\"name\", \"namespace\" (absent when\n"
		"           cluster-scoped), \"uid\", \"creationTimestamp\", \"deletionTimestamp\",\n"
		"           \"finalizers\", \"ownerReferences\" (each as the server has them), \"labels\"\n"
		"           (with --show-labels or -L)}, \"owners\": {FACTS}}: the object, and what\n"
		"           owners found out about it under \"owners\"\n"
		"  WARNING  {\"reason\": Forbidden | ListFailed | DiscoveryFailed | Note, \"group\",\n"
		"           \"version\", \"resource\", \"canHoldAnswer\" (Forbidden), \"message\"}: every\n"
		"           type the scan could not see, named (never counted as on stderr)\n"
		"  REF      {\"apiVersion\", \"kind\", \"namespace\", \"name\", \"uid\"}: another object\n"
		"FACTS {\"depth\", \"found\": false for an owner not found, \"ready\" and \"status\"\n"
		"        (READY/STATUS), \"reference\": {\"apiVersion\", \"kind\", \"name\", \"uid\",\n"
		"        \"controller\", \"blockOwnerDeletion\", \"class\"} (how it hangs from its\n"
		"        parent), \"cycle\": true, \"notes\", then \"dependents\" (\"owners\" with --up):\n"
		"        [ITEM...] nested, items of the same shape}\n"
		"-o custom-columns makes a row of each nested item too.\n"
		"\n"
		"With --watch or --until, each change after that document is one\n"
		"{\"apiVersion\": \"owners.dev/v1\", \"kind\": \"OwnersTreeEvent\", \"type\":\n"
		"\"ADDED\"|\"MODIFIED\"|\"DELETED\", \"object\": ITEM without its nested items, its\n"
		"owners.owner (owners.dependent with --up) the REF of the row it hangs from}.\n"
		"DELETED: the row left the tree (the object is gone, or no longer hangs from it).",
};
