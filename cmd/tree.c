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

/* Whether a scan of one namespace can see everything the tree may reach:
 * dependents of cluster-scoped roots can live in any namespace. */
static int needs_all_namespaces(struct session *s, const struct owners_selection_arg *args, size_t n)
{
	size_t i;
	int all = s->cli->all_namespaces;

	/* Dependents of namespaced roots are namespaced; owners of any type are
	 * named by a reference (owners_graph_type_can_hold_answer()). */
	s->answer_namespaced_only = 1;
	for (i = 0; i < n; i++) {
		all |= !args[i].type->namespaced && !s->cli->tree.up;
		s->answer_namespaced_only &= args[i].type->namespaced;
	}
	return all;
}

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
	owners_status_fetch(status, s->graph, nodes, tree->count, s->http, &so, &err);
	owners_error_clear(&err);
	free(nodes);
	return 0;
}

/* Writes the tree in the format asked for and prints it; the exit code. */
static enum exit_code show(struct session *s, const struct owners_tree *tree,
		const struct owners_object_status *status, const char *format)
{
	struct owners_buf out = OWNERS_BUF_INIT;
	struct owners_render render;
	const char **keys = NULL;
	char *storage = NULL;
	int rc;

	memset(&render, 0, sizeof(render));
	if (owners_cli_label_keys(s->cli, &storage, &keys, &render.n_label_keys))
		return error_oom();
	render.label_keys = keys;
	render.no_headers = s->cli->table.no_headers;
	render.show_labels = s->cli->table.show_labels;
	render.g = s->graph;
	render.tree = tree;
	render.status = status;
	render.now = (int64_t)time(NULL);
	render.color = output_color();
	render.wide = !strcmp(format, "wide");
	if (!strcmp(format, "json") || !strcmp(format, "yaml") || output_is_template(format)) {
		char **warnings = NULL;
		size_t n_warnings = 0;

		rc = session_warnings(s, NULL, 0, &warnings, &n_warnings);
		render.warnings = (const char *const *)warnings;
		render.n_warnings = n_warnings;
		if (!rc)
			rc = owners_tree_render_json(&out, &render);
		session_warnings_free(warnings, n_warnings);
		if (output_is_template(format))
			rc = rc ? error_oom()
				: output_template(&out, format, tree->up ? "owners" : "dependents", s->cli->table.no_headers);
		else
			rc = session_emit_document(s, &out, !strcmp(format, "yaml"), rc);
	} else if (!strcmp(format, "dot"))
		rc = session_emit(s, &out, owners_tree_render_dot(&out, &render));
	else if (!strcmp(format, "name"))
		rc = session_emit(s, &out, owners_tree_render_names(&out, &render));
	else /* tree, wide: the option table admits nothing else */
		rc = session_emit(s, &out, owners_tree_render_text(&out, &render));
	owners_buf_clear(&out);
	free(keys);
	free(storage);
	return rc;
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
	const char *format = cli->output ? cli->output : "tree";

	(void)args;
	if ((cli->tree.watch || cli->tree.until != OWNERS_UNTIL_NONE) && (!strcmp(format, "dot") || output_is_template(format)))
		return usage_error("--watch and --until print tree, wide, json, yaml or name, not %s", format);
	return EXIT_OK;
}

enum exit_code cmd_tree(struct owners_cli *cli, struct string_list *args)
{
	struct owners_error err = OWNERS_ERROR_INIT;
	struct owners_object_arg *objs = NULL;
	struct owners_object_status *status = NULL;
	struct owners_tree tree = { NULL, 0, 0, 0 };
	struct session s;
	struct tree_listed listed = { NULL, 0, 0 };
	const char *format = cli->output ? cli->output : "tree";
	struct owners_selection_arg *sel_args = NULL;
	struct owners_selection roots = OWNERS_SELECTION_INIT;
	/* A named object that is not there does not stop the others: said
	 * after what was found is printed, as kubectl get does. */
	const struct session_selection how = { .missing = OWNERS_SELECTION_MISSING_NOTED };
	size_t n_objs = 0, i;
	int rc, all, watching = cli->tree.watch || cli->tree.until != OWNERS_UNTIL_NONE;

	memset(&s, 0, sizeof(s));
	/* A type alone means every object of it, as in kubectl get. */
	if (owners_object_args_parse(&objs, &n_objs, args->items, args->count, 1, &err)) {
		rc = report_error(&err);
		owners_error_clear(&err);
		return rc == EXIT_ERROR ? EXIT_USAGE : rc;
	}
	if ((rc = session_open(&s, cli)))
		goto out;
	if (watching) {
		/* Each list's resourceVersion: where its watch starts. */
		s.on_listed = tree_listed_record;
		s.on_listed_ctx = &listed;
	}
	/* A root of a type the GC does not track is listed all the same. */
	if ((rc = session_resolve_args(&s, objs, n_objs, 1, &sel_args)))
		goto out;
	all = needs_all_namespaces(&s, sel_args, n_objs);
	if ((rc = session_scan(&s, all ? NULL : s.namespace_)) ||
	    (rc = session_select(&s, sel_args, n_objs, &how, &roots)))
		goto out;
	if (watching) {
		/* A named object not there yet may come (--until=ready after
		 * an apply), or is gone already (--until=gone): the watch
		 * decides, from the graph as it goes. */
		const struct tree_watch_args wa = { objs, sel_args, n_objs, format, all, &listed };

		rc = tree_watch_run(&s, &wa);
		goto out;
	}
	if (!roots.count && roots.n_not_found) {
		rc = session_say_not_found(&roots, EXIT_OK);
		goto out;
	}
	if (!roots.count && (!strcmp(format, "tree") || !strcmp(format, "wide") || !strcmp(format, "name") ||
			 !strncmp(format, "custom-columns=", 15))) {
		rc = say_no_roots(&s, all);
		goto out;
	}
	if (owners_tree_build(&tree, s.graph, roots.nodes, roots.count, cli->tree.up, (int)cli->tree.depth) ||
	    !(status = calloc(s.graph->count ? s.graph->count : 1, sizeof(*status))) ||
	    (strcmp(format, "dot") && strcmp(format, "name") && fetch_status(&s, &tree, status))) {
		rc = error_oom();
		goto out;
	}
	/* The trees that exist, then what was not found (as kubectl get). */
	rc = session_say_not_found(&roots, show(&s, &tree, status, format));
out:
	if (status && s.graph)
		for (i = 0; i < s.graph->count; i++)
			owners_object_status_clear(&status[i]);
	free(status);
	owners_selection_clear(&roots);
	owners_tree_clear(&tree);
	owners_object_args_free(objs, n_objs);
	session_close(&s);
	tree_listed_clear(&listed);
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
		"unknown. -o json and -o yaml print {kind: OwnersTree, direction, items,\n"
		"warnings}, each item with its dependents (or owners) nested; nothing found\n"
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
	.needs_cluster = 1,
	.rbac = "list on every type it scans (in the namespace, and cluster-scoped types); get on the objects it prints; "
		"with --watch or --until, watch on the types it watches (a type it may not watch is listed every 10 s)",
	.json_schema = "-o json prints {\"kind\": \"OwnersTree\", \"apiVersion\": \"owners.dev/v1\",\n"
		"\"direction\": \"dependents\"|\"owners\", \"items\": [...], \"warnings\": [...]}. Each item:\n"
		"kind, apiVersion, namespace, name, uid; ready and status (READY/STATUS);\n"
		"creationTimestamp, and when they apply deletionTimestamp and finalizers;\n"
		"reference {class, controller, blockOwnerDeletion} (how it hangs from its parent);\n"
		"found: false (an owner not found); cycle: true; notes; then dependents (or\n"
		"owners) nested, items of the same shape.\n"
		"\n"
		"With --watch or --until, each change after that document is one\n"
		"{\"kind\": \"OwnersTreeEvent\", \"apiVersion\": \"owners.dev/v1\", \"type\":\n"
		"\"ADDED\"|\"MODIFIED\"|\"DELETED\", \"object\": {an item without its children},\n"
		"\"depth\": N, \"owner\" (\"dependent\" with --up): {kind, apiVersion, namespace,\n"
		"name, uid} of the row it hangs from}. DELETED: the row left the tree (the object\n"
		"is gone, or no longer hangs from it).",
};
