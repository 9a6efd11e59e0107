/*
 * owners tree: the dependents (or owners) of objects as a tree.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cascade_fate.h"
#include "commands.h"
#include "object_args.h"
#include "output.h"
#include "session_connect.h"
#include "session_relations.h"
#include "session_scan.h"
#include "session_snapshot.h"
#include "session_select.h"
#include "session_warnings.h"
#include "status_fetch.h"
#include "tree.h"
#include "tree_options.h"
#include "tree_roots.h"
#include "tree_watch.h"

static const char *const until_values[] = { "ready", "gone", NULL };
static const int until_enums[] = { OWNERS_UNTIL_READY, OWNERS_UNTIL_GONE };
static const char *const tree_outputs[] = { "tree", "wide", "json", "yaml", "dot", "name", "jsonpath=", "custom-columns=", NULL };

static const struct tree_options tree_defaults = { .depth = -1, .timeout_ms = 5 * 60 * 1000 };

#define OPT_STRUCT struct tree_options
const struct opt tree_opts[] = {
	OPT_BOOL("up", 0, up, NULL, "show the owners of the objects instead of their dependents"),
	OPT_BOOL(
		"related", 0, related, "show what the rows use, or with --up who uses the roots",
		"show, beside ownership, what each row uses (ConfigMaps, Secrets, claims, its "
		"ServiceAccount, the Pods a Service routes to...), or with --up who uses the roots "
		"and their owners up to theirs; each such row says its relation and field"),
	OPT_INT("depth", 'd', depth, "N", 0, LONG_MAX, "stop N levels below the roots",
		"stop N levels below the roots (default: no limit; not with -o name, the whole "
		"delete set, "
		"unless --up)"),
	OPT_SELECTOR(NULL, "label selector for the roots, e.g. app=web"),
	OPT_OUTPUT(
		"tree (default), wide",
		"tree (default), wide (adds reference flags and UIDs, and the API group to NAME: "
		"Kind.group/name), json, yaml, dot, name (what a cascading delete of the roots "
		"deletes, each once), jsonpath=TEMPLATE or custom-columns=SPEC (over the -o json "
		"document: an item per row, depth first)"),
	OPT_TEMPLATE_KEYS,
	OPT_BOOL(
		"watch", 'w', watch, "after the tree, follow it as it changes",
		"after the tree, follow it as it changes (as kubectl get -w): redrawn in place on "
		"a terminal, else one line (or -o json|yaml document) per row that changes; Ctrl-C "
		"ends"),
	OPT_ENUM("until", 0, until, enum owners_until, "STATE", until_values, until_enums,
		 "watch until the tree is ready",
		 "watch until the tree is ready (every object ready as its kind says) or gone (the "
		 "roots and all their dependents), then exit 0 (3 when --timeout passes first)"),
	OPT_DURATION("timeout", timeout_ms, "with --until: give up after this long and exit 3",
		     "with --until: give up after this long and exit 3 (default 5m; 0: no limit)"),
	OPT_TABLE_ROWS,
	OPT_END,
};
#undef OPT_STRUCT

/* The statuses a snapshot recorded for the rows. */
static int snapshot_statuses(struct owners_object_status *status, struct session *s,
				     const struct owners_tree *tree)
{
	size_t i;

	for (i = 0; i < tree->count; i++) {
		uint32_t n = tree->rows[i].node;
		const struct owners_object_status *st =
			n == OWNERS_NO_NODE
				? NULL
				: session_snapshot_status(
					  s, OWNERS_NODE_UID(&session_graph(s)->nodes[n]));

		if (!st || status[n].ready)
			continue;
		if (!(status[n].ready = strdup(st->ready)) || !(status[n].status = strdup(st->status)))
			return OWNERS_ENOMEM;
		status[n].health = st->health;
		status[n].is_ready = st->is_ready;
	}
	return 0;
}

/* READY/STATUS for the rows printed (lib/api/object_status.c decides
 * what to read); decoration: a failure to fetch leaves "-". */
static int fetch_status(struct session *s, const struct owners_tree *tree,
			struct owners_object_status *status)
{
	struct owners_status_fetch_options so = { session_cli(s)->chunk_size, 0, 0,
						  session_json_only() };
	struct owners_error err = OWNERS_ERROR_INIT;
	uint32_t *nodes = calloc(tree->count ? tree->count : 1, sizeof(*nodes));
	size_t i;

	if (!nodes)
		return OWNERS_ENOMEM;
	size_t n = 0;

	for (i = 0; i < tree->count; i++)
		if (tree->rows[i].node != OWNERS_NO_NODE)
			nodes[n++] = tree->rows[i].node;
	if (session_is_snapshot(s)) {
		free(nodes);
		return snapshot_statuses(status, s, tree);
	}
	owners_status_fetch(status, session_graph(s), &(const struct owners_node_list){ nodes, n },
			    session_http(s), &so, &err);
	owners_error_clear(&err);
	free(nodes);
	return 0;
}

/* every row is an item of its own: nothing nested to walk */
OUTPUT_RENDERERS(renderers, struct owners_render, owners_tree);

static int render_dot(struct owners_buf *out, void *ctx)
{
	return owners_tree_render_dot(out, ctx);
}

/* Prints the tree in the format asked for; the exit code. fates: what a
 * cascade from the roots does to each row (NULL with --up). */
static enum exit_code show(struct cmd_run *run, const struct owners_tree *tree,
			   const struct owners_object_status *status,
			   const struct owners_tree_fate *fates)
{
	static const struct output_renderers dot = { NULL, render_dot, NULL };
	struct owners_render render;

	memset(&render, 0, sizeof(render));
	render.fates = fates;
	render.print = run->print;
	render.g = session_graph(run->s);
	render.tree = tree;
	render.status = status;
	return output_emit(run, run->cli->output.kind == OUTPUT_DOT ? &dot : &renderers, &render);
}

/* No roots (a type with no objects, a selector that matches none): as
 * kubectl get, not an error, said on stderr; a document format still
 * prints its (empty) document. */
static enum exit_code say_no_roots(const struct session *s, int all)
{
	if (all)
		fprintf(stderr, "No resources found\n");
	else
		fprintf(stderr, "No resources found in %s namespace.\n", session_namespace(s));
	session_warn_scan(s);
	return EXIT_OK;
}

/* --up: the answer is above the roots, where the scan reads. */
static void setup(const void *opts, struct cmd_setup *setup)
{
	const struct tree_options *o = opts;

	/* (its users, with --related, are anywhere a cluster-scoped root's
	 * can be: a claim of a volume, a Pod on a Node) */
	setup->upward = o->up && !o->related;
}

/* --related: the scan keeps what relations need. */
static enum exit_code prepare_related(struct cmd_run *run)
{
	const struct tree_options *o = run->opts;

	session_set_related(run->s, o->related);
	return EXIT_OK;
}

static enum exit_code validate(const struct owners_cli *cli, const void *opts,
			       const struct string_list *args)
{
	const struct tree_options *o = opts;
	enum output_kind k = cli->output.kind;

	(void)args;
	if (o->related && (o->watch || o->until != OWNERS_UNTIL_NONE))
		return usage_error(
			"--related shows one tree: it cannot be combined with --watch or --until");
	if ((o->watch || o->until != OWNERS_UNTIL_NONE) &&
	    (k == OUTPUT_DOT || k == OUTPUT_JSONPATH || k == OUTPUT_CUSTOM_COLUMNS))
		return usage_error("--watch and --until print tree, wide, json, yaml or name, not %s",
				   cli->output.spelled);
	/* -o name is the delete's set, piped to act on: a part of it cut by
	 * depth would read as the whole */
	if (k == OUTPUT_NAME && !o->up && o->depth >= 0)
		return usage_error("-o name lists everything a cascading delete of the roots deletes; "
				   "--depth cannot cut it short (use -o tree or -o json to look %ld level%s down)",
				   o->depth, o->depth == 1 ? "" : "s");
	return EXIT_OK;
}

/* Nothing to show: said as kubectl get says it, except by a document
 * format, whose document (no items) says it. */
static int says_nothing_found(enum output_kind k)
{
	return k == OUTPUT_TEXT || k == OUTPUT_WIDE || k == OUTPUT_NAME || k == OUTPUT_CUSTOM_COLUMNS;
}

/* --related: the relations of what the tree shows, read whole only for
 * the types that can hold them. */
static enum exit_code read_related(struct cmd_run *run, const struct owners_selection *roots,
				   struct owners_relations *rel)
{
	const struct tree_options *o = run->opts;
	struct owners_graph *g = session_graph(run->s);
	struct owners_tree plain = { NULL, 0, 0, 0, NULL };
	const uint32_t *shown = roots->nodes;
	uint32_t *nodes = NULL;
	size_t i, n = roots->count;
	enum exit_code rc = EXIT_OK;

	if (!o->up) {
		if (owners_tree_build(&plain, g, roots->nodes, roots->count, 0, (int)o->depth) ||
		    !(nodes = malloc((plain.count + 1) * sizeof(*nodes)))) {
			owners_tree_clear(&plain);
			return error_oom();
		}
		for (i = 0; i < plain.count; i++)
			nodes[i] = plain.rows[i].node;
		shown = nodes;
		n = plain.count;
	}
	/* down the tree, the rows' own types (what they use); up, the
	 * types that may use a root (its users) */
	if (session_read_relations_around(run->s, rel, shown, n,
					  o->up ? SESSION_RELATIONS_USERS : SESSION_RELATIONS_OWN))
		rc = session_fail(run->s);
	free(nodes);
	owners_tree_clear(&plain);
	return rc;
}

/* The roots' trees, built and shown with their READY/STATUS. */
static enum exit_code show_trees(struct cmd_run *run, const struct owners_selection *roots)
{
	struct owners_tree tree = { NULL, 0, 0, 0, NULL };
	struct owners_relations rel;
	struct owners_object_status *status = NULL;
	struct owners_tree_fate *fates = NULL;
	struct owners_graph *g = session_graph(run->s);
	enum output_kind k = run->cli->output.kind;
	enum exit_code rc;
	size_t i;

	/* Down the tree, the rows a cascade from the roots would keep are
	 * said, with the planner `owners delete` uses: the tree is what it
	 * reaches, not all that it deletes. */
	const struct tree_options *o = run->opts;

	memset(&rel, 0, sizeof(rel));
	if (o->related && (rc = read_related(run, roots, &rel))) {
		owners_relations_clear(&rel);
		return rc;
	}
	if (owners_tree_build_related(&tree, g, o->related ? &rel : NULL, roots->nodes,
				      roots->count, o->up, (int)o->depth) ||
	    !(status = calloc(g->count ? g->count : 1, sizeof(*status))) ||
	    (!tree.up && owners_cascade_fates_new(&fates, g, &tree)) ||
	    (k != OUTPUT_DOT && k != OUTPUT_NAME && fetch_status(run->s, &tree, status)))
		rc = error_oom();
	else /* the trees that exist, then what was not found (as kubectl get) */
		rc = session_say_not_found(roots, show(run, &tree, status, fates));
	for (i = 0; status && i < g->count; i++)
		owners_object_status_clear(&status[i]);
	owners_cascade_fates_free(fates, g->count);
	free(status);
	owners_tree_clear(&tree);
	owners_relations_clear(&rel);
	return rc;
}

/* --watch and --until: from the lists just read, kept current. */
static enum exit_code watch(struct cmd_run *run, struct listed_types *listed)
{
	const struct tree_watch_args wa = {
		.objs = run->objs, .args = run->targets, .n_objs = run->n_objs,
		.kind = run->cli->output.kind, .print = &run->print, .opts = run->opts,
		.all = run->scope.everywhere, .listed = listed,
	};

	return tree_watch_run(run->s, &wa);
}

/* --up reads the roots' types, then the owner types on the way up (and
 * with --related, the types of their possible users first): the rest
 * cannot be on the tree. A watch reads everything: an object of any type
 * may come to own a row. */
static enum exit_code scan(struct cmd_run *run, int watching)
{
	const struct tree_options *o = run->opts;

	if (o->up && !watching && run->targets)
		return session_scan_upward(run->s, run->scan_ns, run->targets, run->n_objs,
					   o->related);
	return session_scan(run->s, run->scan_ns);
}

enum exit_code cmd_tree(struct cmd_run *run)
{
	/* A named object that is not there does not stop the others: said
	 * after what was found is printed, as kubectl get does. */
	const struct session_selection how = { .missing = OWNERS_SELECTION_MISSING_NOTED };
	struct listed_types listed = { NULL, 0, 0 };
	struct owners_selection roots = OWNERS_SELECTION_INIT;
	const struct tree_options *o = run->opts;
	int watching = o->watch || o->until != OWNERS_UNTIL_NONE;
	enum exit_code rc;

	if (watching) {
		/* Each list's resourceVersion: where its watch starts. */
		session_on_listed(run->s, listed_types_record, &listed);
	}
	if ((rc = prepare_related(run)) || (rc = scan(run, watching)) ||
	    (rc = session_select(run->s, run->targets, run->n_objs, &how, &roots)))
		goto out;
	/* a TYPE alone: each object once, under its owner when both are selected */
	if (tree_roots_fold(&roots, session_graph(run->s), run->objs, run->n_objs, o->up)) {
		rc = error_oom();
		goto out;
	}
	if (watching) /* a named object not there yet may come (--until=ready), or is gone already */
		rc = watch(run, &listed);
	else if (!roots.count && roots.n_not_found)
		rc = session_say_not_found(&roots, EXIT_OK);
	else if (!roots.count && says_nothing_found(run->cli->output.kind))
		rc = say_no_roots(run->s, run->scope.everywhere);
	else
		rc = show_trees(run, &roots);
out:
	owners_selection_clear(&roots);
	session_on_listed(run->s, NULL, NULL);
	listed_types_clear(&listed);
	return rc;
}

/* The man page's detail beyond --help (see struct man_section). */
static const struct man_section tree_man_sections[] = {
	{ "NAMING OBJECTS",
	  "  owners tree deployment/web                  # TYPE/NAME, several at once\n"
	  "  owners tree deploy web api -n shop          # TYPE NAME NAME\n"
	  "  owners tree deployments                     # a type alone: every Deployment\n"
	  "  owners tree deployments -A                  # ... in every namespace\n"
	  "  owners tree deployments -l app=web          # roots by label selector\n"
	  "  owners tree pod/web-7887448d46-4jvb7 --up   # owners instead of dependents\n"
	  "  owners tree deployment/web -d 1             # stop one level down\n"
	  "  owners tree deployment/web -o wide|json|yaml|dot|name\n"
	  "TYPE is anything kubectl accepts (owners(1), ARGUMENTS).\n"
	  "\n"
	  "When every argument is a TYPE alone (owners tree all, owners tree\n"
	  "configmaps -l app=web), each object shows once: one that hangs below\n"
	  "another object selected shows under it, not again as a root of its own\n"
	  "(owners tree all shows each Pod under its ReplicaSet under its Deployment,\n"
	  "not three times; of objects that own each other round a cycle, the first\n"
	  "selected is the root). Objects named one by one are each a root, as named." },
	{ "ROWS",
	  "  $ owners tree deployment/web\n"
	  "  NAMESPACE  NAME                              READY  STATUS                      AGE\n"
	  "  default    Deployment/web                    0/3    MinimumReplicasUnavailable  0s\n"
	  "  default    └── ReplicaSet/web-7887448d46     0/3    Progressing                 0s\n"
	  "  default        ├── Pod/web-7887448d46-4jvb7  0/1    Pending                     0s\n"
	  "  default        ├── Pod/web-7887448d46-cv2nw  0/1    Pending                     0s\n"
	  "  default        └── Pod/web-7887448d46-xz7t8  0/1    Pending                     0s\n"
	  "  $ owners tree pod/web-7887448d46-4jvb7 --up\n"
	  "  NAMESPACE  NAME                           READY  STATUS                      AGE\n"
	  "  default    Pod/web-7887448d46-4jvb7       0/1    Pending                     0s\n"
	  "  default    └── ReplicaSet/web-7887448d46  0/3    Progressing                 0s\n"
	  "  default        └── Deployment/web         0/3    MinimumReplicasUnavailable  0s\n"
	  "\n"
	  "An object can have several owners: --up prints them all, up to the roots.\n"
	  "Objects in deletion show how long and which finalizers hold them; dangling owner\n"
	  "references and cycles are marked in a NOTES column, and so is each row that a\n"
	  "cascading delete of the roots would keep, with why (planned by the planner owners\n"
	  "delete uses, as a background delete of every root at once): kept: another owner\n"
	  "keeps it (ConfigMap/keeper); kept: the garbage collector never acts on it (owner\n"
	  "Thing/t: a kind the server does not serve), or (owner ConfigMap/x: namespaced, of\n"
	  "a cluster-scoped object); kept: its owner X/y orphans its dependents; kept: its\n"
	  "owner is kept (below a kept row). The tree is what the delete reaches; the rows\n"
	  "without kept are what it deletes:\n"
	  "  $ owners tree cm/live-owner\n"
	  "  NAMESPACE  NAME                          READY  STATUS  AGE  NOTES\n"
	  "  default    ConfigMap/live-owner          -      -       9s\n"
	  "  default    ├── ConfigMap/dep             -      -       9s\n"
	  "  default    └── ConfigMap/shared          -      -       9s   kept: another owner "
	  "keeps it (ConfigMap/keeper)\n"
	  "  default        └── ConfigMap/below       -      -       9s   kept: its owner "
	  "ConfigMap/shared is kept\n"
	  "\n"
	  "READY and STATUS come from\n"
	  "the printed objects' status: Pods, workloads, Jobs as 1/1 Complete or 0/1\n"
	  "Running, CronJobs as 1 active or Suspended, LoadBalancer Services with their\n"
	  "address or Pending, anything with a phase or a Ready condition. On a terminal\n"
	  "they are in kubectl-tree's colours (green ready, yellow on its way, red failed;\n"
	  "never with NO_COLOR or when piped).\n"
	  "\n"
	  "The requests grow with types, never with objects: nothing is fetched for types\n"
	  "without a status (ConfigMaps, Secrets, RBAC...); up to 32 objects of one type in\n"
	  "one namespace are read one by one, more come from one list of that type in that\n"
	  "namespace. Types that could not be listed (forbidden, a broken aggregated API)\n"
	  "are named in a warning on stderr and the tree still prints. Of several objects\n"
	  "named, the trees of those that exist are printed and each one missing is an\n"
	  "error after them (exit 1), as kubectl get does.\n"
	  "\n"
	  "-o wide adds the reference that links each row to its parent and the UID, and\n"
	  "writes NAME with the API group, Kind.group/name (GroupKind's form, which kubectl\n"
	  "shows when it shows kinds; core kinds stay Kind/name), so two kinds of one name\n"
	  "in two groups (Gadget.a.example.com/g1, Gadget.b.example.com/g1) are told apart:\n"
	  "  NAMESPACE  NAME                                   READY  STATUS                      "
	  "AGE  REFERENCE         UID\n"
	  "  default    Deployment.apps/web                    0/3    MinimumReplicasUnavailable  "
	  "32s                    c51b44d4-3b97-49b4-9243-660d3e78c5eb\n"
	  "  default    └── ReplicaSet.apps/web-7887448d46     0/3    Progressing                 "
	  "32s  controller,block  1194cfde-9467-4e3d-ad99-f00b6ea36d5a\n"
	  "  default        ├── Pod/web-7887448d46-4jvb7       0/1    Pending                     "
	  "32s  controller,block  d7323e03-acdc-4386-a677-c7f061e9b621\n"
	  "\n"
	  "As in kubectl get, the tables of tree and dangling take --no-headers,\n"
	  "--show-labels (a last LABELS column, key=value,... sorted, <none>) and -L KEY,...\n"
	  "(--label-columns, repeatable: a column per key titled by its last segment in\n"
	  "capitals, -L app.kubernetes.io/name gives NAME). Labels are read with the scan's\n"
	  "metadata lists (protobuf or JSON) only when one of these asks for them.\n"
	  "\n"
	  "-o name prints deployment.apps/web lines, as kubectl does, each object once; down\n"
	  "the tree, only the objects a cascading delete of the roots deletes (the rows\n"
	  "marked kept are left out), the set owners delete ... --dry-run=client -o name\n"
	  "prints, so that it can be piped; with --up, every row. -o json is\n"
	  "Kubernetes-shaped, as kubectl get -o json is: each row of the tree is an item,\n"
	  "depth first, the object (apiVersion, kind, metadata with name, namespace, uid,\n"
	  "creationTimestamp and, when the server has them, deletionTimestamp, finalizers,\n"
	  "ownerReferences, labels), and what owners adds is under the item's owners: depth,\n"
	  "owner (dependent with --up: the row it hangs from, {kind, apiVersion, namespace,\n"
	  "name, uid}), found: false for an owner that does not exist, ready, status,\n"
	  "reference (the ownerReference that links it to its parent, with its class),\n"
	  "cascade (down the tree: {deletes: true}, or {deletes: false, reason:\n"
	  "AnotherOwner|UnresolvableReference|Orphaned|OwnerKept, message}), cycle: true,\n"
	  "notes. So kubectl habits carry over: -o jsonpath='{.items[*].metadata.name}' is\n"
	  "every object of the tree, and a key an item lacks prints nothing for it\n"
	  "(--allow-missing-template-keys=false makes it an error, as in kubectl). -o yaml\n"
	  "is the same document (see OUTPUT):\n"
	  "  apiVersion: owners.dev/v1\n"
	  "  kind: OwnersTree\n"
	  "  metadata:\n"
	  "    direction: dependents\n"
	  "  items:\n"
	  "  - apiVersion: apps/v1\n"
	  "    kind: Deployment\n"
	  "    metadata:\n"
	  "      name: web\n"
	  "      namespace: default\n"
	  "      uid: cc63ef8c-77bb-43a4-8287-f2dc81f85dac\n"
	  "      creationTimestamp: \"2026-11-24T03:09:19Z\"\n"
	  "    owners:\n"
	  "      depth: 0\n"
	  "      found: true\n"
	  "      ready: 0/1\n"
	  "      status: MinimumReplicasUnavailable\n"
	  "      cascade:\n"
	  "        deletes: true\n"
	  "  - apiVersion: apps/v1\n"
	  "    kind: ReplicaSet\n"
	  "    metadata:\n"
	  "      name: web-7887448d46\n"
	  "      namespace: default\n"
	  "      uid: e404fff0-1cb5-45b4-8559-2cd0c43ecd6a\n"
	  "      creationTimestamp: \"2026-11-24T03:09:19Z\"\n"
	  "      ownerReferences:\n"
	  "      - apiVersion: apps/v1\n"
	  "        kind: Deployment\n"
	  "        name: web\n"
	  "        uid: cc63ef8c-77bb-43a4-8287-f2dc81f85dac\n"
	  "        controller: true\n"
	  "        blockOwnerDeletion: true\n"
	  "      labels:\n"
	  "        app: web\n"
	  "    owners:\n"
	  "      depth: 1\n"
	  "      found: true\n"
	  "      ready: 0/1\n"
	  "      status: Progressing\n"
	  "      reference:\n"
	  "        apiVersion: apps/v1\n"
	  "        kind: Deployment\n"
	  "        name: web\n"
	  "        uid: cc63ef8c-77bb-43a4-8287-f2dc81f85dac\n"
	  "        controller: true\n"
	  "        blockOwnerDeletion: true\n"
	  "        class: resolved\n"
	  "      cascade:\n"
	  "        deletes: true\n"
	  "      owner:\n"
	  "        kind: Deployment\n"
	  "        apiVersion: apps/v1\n"
	  "        namespace: default\n"
	  "        name: web\n"
	  "        uid: cc63ef8c-77bb-43a4-8287-f2dc81f85dac\n"
	  "  - apiVersion: v1\n"
	  "    kind: Pod\n"
	  "    ...\n"
	  "  warnings: []" },
	{ "LIVE TREES",
	  "tree --watch (-w) keeps the tree current after printing it, as kubectl get -w\n"
	  "does for a list: one watch per type that can hold part of the tree (the\n"
	  "namespaced types for a namespaced root), each started from the resourceVersion\n"
	  "of the list the scan made, full objects only for the types whose READY/STATUS it\n"
	  "shows, on the HTTP/2 connection the lists used. On a terminal the tree is\n"
	  "redrawn in place (at most ten times a second, nothing while nothing changes but\n"
	  "the ages), rows marked for two seconds: + added, ~ changed, - gone (struck\n"
	  "through where they were); a root deleted with its whole tree reads\n"
	  "deployment.apps/web was deleted rather than an empty view. On the way out\n"
	  "(Ctrl-C, --until's state reached, --timeout) the view goes with the alternate\n"
	  "screen and the last tree prints on the normal screen, whole and without marks\n"
	  "(or the ... was deleted lines), so that it stays there as kubectl get -w leaves\n"
	  "its last lines; the terminal is otherwise as it was. A rollout, scale 3 to 1\n"
	  "under way:\n"
	  "  owners tree deployment/web  default · watching 29 types · 12 changes · Ctrl-C ends\n"
	  "    NAMESPACE  NAME                              READY  STATUS                      "
	  "AGE\n"
	  "  ~ default    Deployment/web                    0/1    MinimumReplicasUnavailable  "
	  "28s\n"
	  "    default    ├── ReplicaSet/web-5697c88874     0/1    Progressing                 "
	  "23s\n"
	  "    default    │   └── Pod/web-5697c88874-75cxc  0/1    Pending                     "
	  "23s\n"
	  "  ~ default    └── ReplicaSet/web-7887448d46     0/1    Progressing                 "
	  "28s\n"
	  "  - default        ├── Pod/web-7887448d46-btlxh  0/1    Pending                     "
	  "27s\n"
	  "    default        └── Pod/web-7887448d46-bwgrm  0/1    Pending                     "
	  "24s\n"
	  "  - default        └── Pod/web-7887448d46-wjj5f  0/1    Pending                     "
	  "27s\n"
	  "\n"
	  "Not on a terminal, the first tree prints, then one line per row that changes,\n"
	  "the event first (ADDED, MODIFIED, DELETED: the row left the tree), as kubectl\n"
	  "get -w prints (a new image, then the scale-up's pods):\n"
	  "  MODIFIED default    Deployment/web                    0/3    "
	  "MinimumReplicasUnavailable  4s\n"
	  "  ADDED    default        ├── Pod/web-7887448d46-bwgrm  0/1    Pending                  "
	  "   0s\n"
	  "  ADDED    default    ├── ReplicaSet/web-5697c88874     0/1    Progressing              "
	  "   0s\n"
	  "  ADDED    default    │   └── Pod/web-5697c88874-75cxc  0/1    Pending                  "
	  "   0s\n"
	  "\n"
	  "-o json (or yaml) prints the OwnersTree document, then one {\"apiVersion\":\n"
	  "\"owners.dev/v1\", \"kind\": \"OwnersTreeEvent\", \"type\", \"object\"} document per\n"
	  "change, as a watch event is (object is the item as -o json writes it, without\n"
	  "its nested items, its owners.owner the row it hangs from); -o name one name per\n"
	  "change.\n"
	  "\n"
	  "--until=ready and --until=gone watch until every object of the tree is ready (by\n"
	  "kind: Deployment rolled out and available, ReplicaSet and StatefulSet replicas\n"
	  "ready and up to date, DaemonSet everywhere, Pod Ready or Succeeded, Job\n"
	  "complete, PVC bound, LoadBalancer with an address; other kinds by their Ready\n"
	  "condition, else present; nothing in deletion), or until the roots and all their\n"
	  "dependents are gone; then exit 0, or 3 when --timeout (default 5m) passes\n"
	  "first, naming what was not ready. kubectl wait --for=delete covers one object;\n"
	  "this is what a CI script waits on after kubectl apply or owners delete\n"
	  "--wait=false:\n"
	  "  kubectl apply -f app.yaml\n"
	  "  owners tree deployment/web --until=ready --timeout=5m\n"
	  "  owners delete deployment/web --wait=false\n"
	  "  owners tree deployment/web --until=gone --timeout=2m\n"
	  "\n"
	  "A watch the server ends (its timeout) is resumed from the last resourceVersion\n"
	  "or bookmark, unseen; 410 Gone (a resourceVersion compacted away, after a long\n"
	  "outage) lists that type again and goes on from there; a broken connection or a\n"
	  "restarting apiserver is retried with backoff (0.5 s doubling to 30 s) and said\n"
	  "once; a type you may list but not watch is listed every 10 s instead, with one\n"
	  "warning. The end-to-end suite watch.t shows each of these against a real control\n"
	  "plane (a toxiproxy cut, etcd compaction, the apiserver restarted)." },
	{ "RELATIONS",
	  "With --related the tree shows, beside ownership, what each row uses (down), or\n"
	  "who uses the roots (--up): their users, each with its own owners up to the\n"
	  "roots. A relation's row is one object, with every field of its parent that\n"
	  "names it in a RELATION column (\"mounts spec.volumes[0].configMap; reads all env\n"
	  "from spec.containers[0].envFrom[0].configMapRef\"), \", optional\" after a use the\n"
	  "user works without; one that does not exist is said missing in NOTES (its type\n"
	  "was listed there), or not visible (unknown) when its type was not.\n"
	  "  $ owners tree configmap/app --up --related -n shop\n"
	  "  NAMESPACE  NAME                               READY  STATUS   AGE  RELATION\n"
	  "  shop       ConfigMap/app                      -      -        9s\n"
	  "  shop       ├── Deployment/web                 1/1    Available 9s  mounts "
	  "spec.template.spec.volumes[0].configMap\n"
	  "  shop       ├── Pod/web-7c6fbfc467-pzlg2       1/1    Running  9s   mounts "
	  "spec.volumes[0].configMap\n"
	  "  shop       │   └── ReplicaSet/web-7c6fbfc467  1/1    Ready    9s\n"
	  "  shop       │       └── Deployment/web         1/1    Available 9s\n"
	  "  shop       └── ReplicaSet/web-7c6fbfc467      1/1    Ready    9s   mounts "
	  "spec.template.spec.volumes[0].configMap\n"
	  "\n"
	  "The relations, read from whole objects of the types that hold them (one paged\n"
	  "list each, only when a command asks for relations), as Kubernetes reads them:\n"
	  "  USER                          RELATION              OBJECT USED, FIELD\n"
	  "  Pod, and every pod template   mounts                ConfigMap, Secret (volumes)\n"
	  "  (Deployment, ReplicaSet,      mounts (projected)    ConfigMap, Secret (projected "
	  "sources)\n"
	  "  StatefulSet, DaemonSet, Job,  reads env from        ConfigMap, Secret (env "
	  "valueFrom)\n"
	  "  CronJob, ReplicationCon-      reads all env from    ConfigMap, Secret (envFrom)\n"
	  "  troller, PodTemplate); init,  pulls images with     Secret (imagePullSecrets)\n"
	  "  ephemeral and sidecar         claims                PersistentVolumeClaim (volumes)\n"
	  "  containers count too          claims (template)     a StatefulSet's ordinals' claims\n"
	  "                                runs as               ServiceAccount (default when "
	  "unset)\n"
	  "                                has priority          PriorityClass\n"
	  "                                runs with             RuntimeClass\n"
	  "                                runs on               Node (spec.nodeName)\n"
	  "  EndpointSlice (its Service's) routes to             the Pods its endpoints name\n"
	  "  Service with no EndpointSlice selects               Pods its selector matches (empty: "
	  "none)\n"
	  "  NetworkPolicy, PDB            selects               Pods of the namespace ({}: every "
	  "one)\n"
	  "  HorizontalPodAutoscaler       scales                spec.scaleTargetRef\n"
	  "  Ingress                       routes to, serves     Service and resource backends, "
	  "TLS\n"
	  "                                TLS with, is of class Secrets, IngressClass\n"
	  "  IngressClass                  is configured by      spec.parameters\n"
	  "  Gateway API (where served)    attaches to, routes   a route's parents and backends; "
	  "a\n"
	  "                                to, is of class,      Gateway's GatewayClass and\n"
	  "                                serves TLS with       certificate Secrets\n"
	  "  PersistentVolumeClaim         is bound to, is of    PersistentVolume (volumeName),\n"
	  "                                class                 StorageClass\n"
	  "  PersistentVolume              is bound to, is of    its claim (claimRef, in the "
	  "claim's\n"
	  "                                class                 namespace), StorageClass\n"
	  "  VolumeAttachment              attaches              PersistentVolume, Node\n"
	  "  RoleBinding,                  binds, grants to      roleRef; ServiceAccount subjects "
	  "(a\n"
	  "  ClusterRoleBinding                                  RoleBinding's default to its "
	  "namespace)\n"
	  "  ServiceAccount                holds, pulls images   its Secrets, imagePullSecrets\n"
	  "                                with\n"
	  "  service-account token Secret  is a token of         its ServiceAccount (annotation)\n"
	  "  APIService, webhook configs,  calls                 their Service\n"
	  "  CRD conversion webhook\n"
	  "A claim's or a volume's StorageClass is optional once the two are bound (it is\n"
	  "only the name they matched by). Which of these count as a use, that a delete\n"
	  "of the object used would break (owners why, owners delete, owners unused): all\n"
	  "but a binding's subjects, a token's ServiceAccount, a PDB's or a NetworkPolicy's\n"
	  "selector and a volume's claimRef.\n"
	  "\n"
	  "In -o json|yaml a relation's row has owners.relations: [{relation (its key:\n"
	  "mounts, mountsProjected, env, envFrom, pullsWith, claims, claimsTemplate, runsAs,\n"
	  "priority, runtime, runsOn, routesTo, tls, class, parameters, attachesTo, binds,\n"
	  "grants, boundTo, attaches, scales, holds, calls, selects, tokenOf), words, path,\n"
	  "optional, state: found | missing | unknown, user, used}], and owners.user\n"
	  "(owners.used with --up) the row it hangs from; one that does not exist has\n"
	  "found: false and its kind and name as the use says them. -o dot draws each\n"
	  "relation as a dashed edge labelled with it. -o name stays what a cascading\n"
	  "delete of the roots deletes. --related cannot be combined with --watch." },
	{ NULL, NULL },
};

/* The command: its usage, help, man page text and permissions. */
/* --watch follows the cluster as it changes; a snapshot does not. */
static const char *tree_changes(const void *opts)
{
	const struct tree_options *o = opts;

	return o->watch ? "--watch follows the live cluster" : NULL;
}

const struct command tree_command = {
	.name = "tree",
	.man_sections = tree_man_sections,
	.fn = cmd_tree,
	.setup = setup,
	.validate = validate,
	CMD_OPTIONS(tree_opts, struct tree_options, &tree_defaults),
	.outputs = tree_outputs,
	.output_default = "tree",
	.usage = "owners tree TYPE[/NAME]... [flags]",
	.summary = "show the dependents (or, with --up, the owners) of objects as a tree",
	.description =
		"Lists every deletable type through discovery (metadata only), builds the owner\n"
		"graph and prints the dependents of each named object, recursively: what a\n"
		"cascading delete of it would reach, each row that delete would keep marked with\n"
		"why in NOTES (another owner keeps it, a reference the garbage collector never\n"
		"resolves); -o name prints only what it deletes. A type alone means every object "
		"of it in\n"
		"the namespace (with -A, everywhere), as in kubectl get, each object once (one\n"
		"that hangs below another selected shows under it). With --up it prints the owners "
		"instead,\n"
		"all of them, up to the roots, and lists only what is on the way up: the roots'\n"
		"types, then, level after level, the owner types their references name (with\n"
		"--related, the types that may use the roots first). Objects in deletion show\n"
		"their finalizers;\n"
		"dangling owner references and cycles are marked. Types that could not be\n"
		"listed are named in a warning (those that can hold part of the tree; the\n"
		"others are counted, -v=1 names them) and what depends on them shows as\n"
		"unknown. -o json and -o yaml print {apiVersion, kind: OwnersTree, metadata,\n"
		"items, warnings}, an item per row, depth first, the object (apiVersion, kind,\n"
		"metadata, labels included) with owners' facts under owners (its depth, the row\n"
		"it hangs from, what the cascade does to it); nothing found\n"
		"prints that document with no items, and is not an error. Of several objects\n"
		"named, the trees of those that exist print, then an error for each missing.\n"
		"\n"
		"-o wide adds the reference that links each row to its parent and the UID, and\n"
		"writes NAME as Kind.group/name (the core group's kinds stay Kind/name), as\n"
		"kubectl get does when it shows kinds: two kinds of one name in two groups differ "
		"there.\n"
		"--no-headers, --show-labels and -L KEY,... work as in kubectl get on the tree\n"
		"and wide tables (labels are read with the scan's metadata, only when asked).\n"
		"\n"
		"--related adds what each row uses (ConfigMaps, Secrets, claims, its\n"
		"ServiceAccount, the Pods a Service routes to...), or with --up who uses the\n"
		"roots, with the relation and the field in a RELATION column (see RELATIONS in\n"
		"owners-tree(1)); it reads whole the objects of the types that hold relations,\n"
		"one paged list each, and only when asked.\n"
		"\n"
		"--watch (-w) keeps the tree current after it is printed: one watch per type that\n"
		"can hold part of it, from the resourceVersion of the list the scan made, full\n"
		"objects only for the types whose READY/STATUS it shows. On a terminal the tree "
		"is\n"
		"redrawn in place (rows marked + added, ~ changed, - going, for two seconds; a "
		"root\n"
		"deleted with its whole tree reads \"deployment.apps/web was deleted\"); on the "
		"way\n"
		"out (Ctrl-C, --until's state, --timeout) the view goes and the last tree prints\n"
		"on the normal screen, without marks, so that it stays, as kubectl get -w leaves\n"
		"its last lines. Otherwise the first tree prints, then one\n"
		"line per row that changes, EVENT first (ADDED, MODIFIED, DELETED: gone from the\n"
		"tree), as kubectl get -w prints; -o json|yaml prints the OwnersTree document,\n"
		"then one {apiVersion, kind: OwnersTreeEvent, type, object} per change; -o name\n"
		"one name per change. A watch the server ends is resumed from where it was; 410\n"
		"Gone lists that type again; a broken connection or a restarting server is\n"
		"retried with backoff; a type you may list but not watch is listed every 10 s.\n"
		"Each failure is said once.\n"
		"\n"
		"--until=ready waits until every object of the tree is there, not in deletion, "
		"and\n"
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
		    "  owners tree deployment/web --related\n"
		    "  owners tree configmap/app --up --related   # who uses it\n"
		    "  owners tree deployments -l app=web -o json\n"
		    "  owners tree deployment/web -o name   # what deleting it deletes\n"
		    "  owners tree deployments -A -o yaml\n"
		    "  owners tree deployment/web -w\n"
		    "  owners tree deployment/web --until=ready --timeout=5m\n"
		    "  owners tree deployment/web --until=gone -o json\n"
		    "  kubectl owners tree deployment/web",
	.args = CMD_ARGS_OBJECTS,
	.type_alone = CMD_TYPE_ALONE_YES,
	.discovery = CMD_DISCOVERY_CACHED,
	.reads_snapshot = 1,
	.changes = *tree_changes,
	/* a root of a type the GC does not track is listed all the same */
	.resolve = CMD_RESOLVE_AND_LIST,
	.scope = OWNERS_SCOPE_ROOTS,
	.rbac = "list on every type it scans (in the namespace, and cluster-scoped types); get on "
		"the objects it prints; "
		"with --watch or --until, watch on the types it watches (a type it may not watch "
		"is listed every 10 s)",
	.json_schema =
		"-o json prints, Kubernetes-shaped as kubectl get -o json:\n"
		"{\"apiVersion\": \"owners.dev/v1\", \"kind\": \"OwnersTree\",\n"
		" \"metadata\": {\"direction\": \"dependents\" | \"owners\"}, \"items\": "
		"[ITEM...], \"warnings\": [WARNING...]}.\n" DOC_JSON_ITEM_WARNING_REF
		"FACTS {\"depth\", \"found\": false for an owner not found, \"ready\" and "
		"\"status\"\n"
		"        (READY/STATUS), \"reference\": {\"apiVersion\", \"kind\", \"name\", "
		"\"uid\",\n"
		"        \"controller\", \"blockOwnerDeletion\", \"class\"} (how it hangs from "
		"its\n"
		"        parent), \"cascade\" (not with --up): {\"deletes\": true} or "
		"{\"deletes\":\n"
		"        false, \"reason\": \"AnotherOwner\" | \"UnresolvableReference\" | "
		"\"Orphaned\"\n"
		"        | \"OwnerKept\", \"message\"} (what a cascading delete of the roots does "
		"to\n"
		"        it), \"cycle\": true, \"notes\", \"owner\" (\"dependent\" with --up): REF "
		"of\n"
		"        the row it hangs from (none for a root)}\n"
		"Every row is an item of its own, depth first: {.items[*]...} reaches them all.\n"
		"\n"
		"With --watch or --until, each change after that document is one\n"
		"{\"apiVersion\": \"owners.dev/v1\", \"kind\": \"OwnersTreeEvent\", \"type\":\n"
		"\"ADDED\"|\"MODIFIED\"|\"DELETED\", \"object\": ITEM without its nested items, "
		"its\n"
		"owners.owner (owners.dependent with --up) the REF of the row it hangs from}.\n"
		"DELETED: the row left the tree (the object is gone, or no longer hangs from it).",
};
