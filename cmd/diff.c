/*
 * owners diff: what changed in ownership between two snapshots, or a
 * snapshot and the cluster now (lib/ops/graph_diff.c decides,
 * graph_diff_render.c says it). Each side is a session of its own: a
 * snapshot's (session_connect_from(), its types and its time), or the
 * live cluster's (the current context, the clock's time); both are
 * scanned alike, in one namespace or every one.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "graph_diff.h"
#include "graph_diff_render.h"
#include "grow.h"
#include "label_selector.h"
#include "output.h"
#include "session_connect.h"
#include "session_across.h"
#include "session_scan.h"
#include "session_snapshot.h"
#include "session_warnings.h"
#include "type_resolve.h"

static const char *const diff_outputs[] = { "text", "json", "yaml", "jsonpath=", "custom-columns=", NULL };

/* owners diff's own flags */
struct diff_options {
	int exit_code; /* --exit-code */
	int live;      /* --live: the second side is the cluster, the arguments after the first are TYPEs */
};

#define OPT_STRUCT struct diff_options
static const struct opt diff_opts[] = {
	OPT_BOOL("live", 0, live, "compare BEFORE with the cluster now",
		 "compare BEFORE with the cluster now (the current context): with TYPE arguments, "
		 "which would otherwise read as AFTER; one argument alone means it too"),
	OPT_BOOL(
		"exit-code", 0, exit_code, "exit 1 when there is a change",
		"exit 1 when there is a change (0 when there is none), as git diff --exit-code and "
		"kubectl diff"),
	OPT_SELECTOR("compare only objects with these labels",
		     "compare only objects with these labels (on either side: an object that lost "
		     "them is still compared), e.g. app=web"),
	OPT_OUTPUT("text (default), json or yaml (the same document), jsonpath=TEMPLATE or...",
		   "text (default), json or yaml (the same document), jsonpath=TEMPLATE or "
		   "custom-columns=SPEC (over the document)"),
	OPT_TEMPLATE_KEYS,
	OPT_END,
};
#undef OPT_STRUCT

/* The arguments as they read: BEFORE, AFTER (NULL: the live cluster),
 * then the TYPEs. */
struct diff_args {
	const char *before, *after;
	const char *const *types;
	size_t n_types;
};

static void read_args(struct diff_args *a, const struct diff_options *o, const struct string_list *args)
{
	size_t sides = o->live || args->count == 1 ? 1 : 2;

	memset(a, 0, sizeof(*a));
	a->before = args->count ? args->items[0] : NULL;
	a->after = sides == 2 ? args->items[1] : NULL;
	a->types = args->items + (args->count < sides ? args->count : sides);
	a->n_types = args->count > sides ? args->count - sides : 0;
}

static enum exit_code validate(const struct owners_cli *cli, const void *opts, const struct string_list *args)
{
	struct owners_label_selector *sel = NULL;
	struct owners_error err = OWNERS_ERROR_INIT;
	enum exit_code rc = EXIT_OK;

	(void)opts;
	if (cli->from)
		return usage_error(
			"'%s diff' takes the snapshots it compares as arguments, not --from: "
			"'%s diff BEFORE AFTER', or '%s diff BEFORE' against the cluster",
			cli->program, cli->program, cli->program);
	if (!args->count)
		return usage_error(
			"'%s diff' needs the snapshot to compare: '%s diff BEFORE AFTER', "
			"or '%s diff BEFORE' against the cluster (%s snapshot -f FILE makes one)",
			cli->program, cli->program, cli->program, cli->program);
	if (cli->selector && owners_label_selector_parse(&sel, cli->selector, &err))
		rc = usage_error("invalid label selector '%s': %s", cli->selector, owners_error_message(&err));
	owners_label_selector_free(sel);
	owners_error_clear(&err);
	return rc;
}

/* ---- the two sides -------------------------------------------------- */

/* A side's lists keep each object's labels, for -l: a snapshot holds
 * them, the cluster sends them; the scan drops them unless asked. */
struct labelled {
	struct owners_list_source inner;
};

static int list_labelled(void *ctx, struct owners_graph *g, const struct owners_resource_table *types,
			 const struct owners_scan_options *o, struct owners_scan_report *report,
			 struct owners_error *err)
{
	struct labelled *l = ctx;
	struct owners_scan_options mine = *o;

	mine.keep_labels = 1;
	return owners_list_source_scan(&l->inner, g, types, &mine, report, err);
}

static enum exit_code open_side(struct session **s, struct owners_cli *cli, const char *path)
{
	if (!(*s = session_new()))
		return error_oom();
	if (!path)
		return session_open(*s, cli);
	if (session_connect_from(*s, cli, path))
		return session_fail(*s);
	return EXIT_OK;
}

static const char *snapshot_namespace(const struct session *s)
{
	const struct owners_snapshot_header *h = session_snapshot_header(s);

	return h ? h->namespace_ : NULL;
}

/* The one namespace both sides are read in (NULL: every one): -n, else
 * the one a snapshot was taken in, else every namespace when each file is
 * a snapshot of all of them (the scope the snapshots have, not the
 * context's), else the live cluster's context's. */
static const char *namespace_of(const struct owners_cli *cli, const struct session *a, const struct session *b)
{
	if (cli->all_namespaces)
		return NULL;
	if (cli->namespace_)
		return cli->namespace_;
	if (snapshot_namespace(a))
		return snapshot_namespace(a);
	if (snapshot_namespace(b))
		return snapshot_namespace(b);
	if (session_snapshot_header(a) && (!session_is_snapshot(b) || session_snapshot_header(b)))
		return NULL;
	return session_namespace(b);
}

/* ---- which objects ------------------------------------------------------ */

struct want {
	const char *ns;                          /* NULL: every namespace */
	const struct owners_label_selector *sel; /* NULL: every object */
	/* the TYPEs, each as each side resolves it (NULL where it does not) */
	const struct owners_resource **types;
	size_t n_types;
	struct owners_label_meta *labels;        /* a node's labels, for the selector */
	size_t cap_labels;
	int oom;
};

static int labels_match(struct want *w, const struct owners_node *n)
{
	uint32_t k;

	if (OWNERS_GROW(w->labels, w->cap_labels, (size_t)n->extras->n_labels + 1)) {
		w->oom = 1;
		return 0;
	}
	for (k = 0; k < n->extras->n_labels; k++) {
		w->labels[k].key = n->extras->labels[2 * k];
		w->labels[k].value = n->extras->labels[2 * k + 1];
	}
	return owners_label_selector_match(w->sel, w->labels, n->extras->n_labels);
}

static int wanted(void *ctx, const struct owners_graph *g, uint32_t node)
{
	struct want *w = ctx;
	const struct owners_node *n = &g->nodes[node];
	size_t i;

	if (w->ns && !owners_graph_in_scope(g, node, w->ns))
		return 0;
	for (i = 0; i < w->n_types && !(w->types[i] && n->place->resource && owners_resource_same_type(w->types[i], n->place->resource));
	     i++)
		;
	if (w->n_types && i == w->n_types)
		return 0;
	return !w->sel || labels_match(w, n);
}

/* Adds side's reading of typed to w->types: a type, or every type of a
 * category (kubectl's `all`). 0, or an error code with err set. */
static int add_side_types(struct want *w, size_t *cap, const struct session *side, const char *typed,
			  struct owners_error *err)
{
	const struct owners_resource **found = NULL;
	size_t n = 0, k;
	int category = 0,
	    rc = owners_type_expand(&found, &n, &category, session_types(side), typed, err);

	if (!rc && OWNERS_GROW(w->types, *cap, w->n_types + n))
		rc = owners_error_oom(err);
	for (k = 0; !rc && k < n; k++)
		w->types[w->n_types++] = found[k];
	free(found);
	return rc;
}

/* Each TYPE as each side reads it, a category as the types it holds there;
 * one neither side has is a mistake. */
static enum exit_code resolve_types(struct want *w, const struct diff_args *a, struct session *before,
				    struct session *after)
{
	struct owners_error err = OWNERS_ERROR_INIT, ignored = OWNERS_ERROR_INIT;
	size_t i, cap = 0;
	enum exit_code rc = EXIT_OK;
	int code = 0;

	if (!a->n_types)
		return EXIT_OK;
	for (i = 0; !code && i < a->n_types; i++) {
		size_t had = w->n_types;
		int rb = add_side_types(w, &cap, before, a->types[i], &ignored);

		owners_error_clear(&ignored);
		code = add_side_types(w, &cap, after, a->types[i], &err);
		if (code == OWNERS_ENOMEM || rb == OWNERS_ENOMEM)
			code = owners_error_oom(&err);
		else if (code && !rb)
			code = 0; /* the before side knows it */
		if (!code && w->n_types == had) /* a category neither side has types of */
			code = owners_error_set(&err, OWNERS_ENOTFOUND, "the category '%s' holds no type here",
						a->types[i]);
	}
	if (code) {
		report_error(&err);
		rc = code == OWNERS_ENOTFOUND || code == OWNERS_EAMBIGUOUS ? EXIT_USAGE : EXIT_ERROR;
	}
	owners_error_clear(&err);
	return rc;
}

/* ---- output ------------------------------------------------------------- */

struct view {
	struct owners_graph_diff_render r;
};

static int render_json(struct owners_buf *out, void *ctx, const struct owners_scan_warning *warnings,
		       size_t n_warnings)
{
	struct view *v = ctx;

	v->r.print.warnings = warnings;
	v->r.print.n_warnings = n_warnings;
	return owners_graph_diff_render_json(out, &v->r);
}

static int render_text(struct owners_buf *out, void *ctx)
{
	struct view *v = ctx;

	return owners_graph_diff_render_text(out, &v->r);
}

/* Both sides' warnings, each said as the side's: "before: ..." on stderr,
 * and in a document's warnings (the two lists one after the other). */
static int side_warnings(struct owners_scan_warning_list *all, const struct session *s, const char *side)
{
	struct owners_scan_warning_list l = { NULL, 0, 0 };
	struct owners_buf b = OWNERS_BUF_INIT;
	size_t i;
	int rc = session_warnings_list(s, NULL, 0, &l);

	for (i = 0; !rc && i < l.n; i++) {
		owners_buf_reset(&b);
		if (OWNERS_GROW(all->items, all->cap, all->n + 1) ||
		    owners_buf_addf(&b, "%s: %s", side, l.items[i].message ? l.items[i].message : "")) {
			rc = OWNERS_ENOMEM;
			break;
		}
		free(l.items[i].message);
		l.items[i].message = owners_buf_detach(&b);
		all->items[all->n++] = l.items[i];
		memset(&l.items[i], 0, sizeof(l.items[i]));
	}
	owners_buf_clear(&b);
	owners_scan_warnings_list_free(&l);
	return rc;
}

static enum exit_code emit(struct cmd_run *run, struct view *v, const struct session *a, const struct session *b)
{
	static const struct output_renderers renderers = { render_json, render_text, NULL };
	const struct session *sides[2] = { a, b };
	static const char *const names[2] = { "before", "after" };
	struct owners_scan_warning_list listed = { NULL, 0, 0 };
	const struct output_format *f = &run->cli->output;
	enum exit_code rc = EXIT_OK;
	size_t s;

	for (s = 0; s < 2 && !rc && output_is_document(f); s++)
		if (side_warnings(&listed, sides[s], names[s]))
			rc = error_oom();
	if (!rc)
		rc = output_write(f, run->cli->table.no_headers, &renderers, v, listed.items, listed.n);
	for (s = 0; s < 2 && !rc; s++) {
		char **lines = NULL;
		size_t n = 0, i;

		if (session_warnings(sides[s], NULL, 0, &lines, &n))
			rc = error_oom();
		for (i = 0; i < n; i++)
			warning_msg("%s: %s", names[s], lines[i]);
		session_warnings_free(lines, n);
	}
	owners_scan_warnings_list_free(&listed);
	return rc;
}

/* What the answer cannot say: objects one side could not have seen, two
 * clusters (every UID differs), the sides the wrong way round. */
/* "ConfigMap 10, Deployment.apps 1": per kind, the objects the side
 * (in_a: A) could not have seen. Nonzero when out of memory. */
static int unseen_kinds(struct owners_buf *out, const struct owners_graph_diff *d, int in_a)
{
	size_t i;
	int rc = 0;

	owners_buf_reset(out);
	for (i = 0; !rc && i < d->n_unseen; i++) {
		const struct owners_diff_unseen *u = &d->unseen[i];
		const char *slash = strchr(u->api_version, '/');
		size_t n = in_a ? u->in_a : u->in_b;

		if (!n)
			continue;
		rc = owners_buf_addf(out, "%s%s%s%.*s %zu", out->len ? ", " : "", u->kind, slash ? "." : "",
				     slash ? (int)(slash - u->api_version) : 0, u->api_version, n);
	}
	return rc || !out->ptr;
}

static void say_limits(const struct owners_graph_diff *d, const struct diff_args *a, const struct session *before,
		       const struct session *after)
{
	const struct owners_snapshot_header *ha = session_snapshot_header(before);
	const struct owners_snapshot_header *hb = session_snapshot_header(after);
	const char *server_b = hb ? hb->server : session_server(after);
	const char *b_name = a->after ? a->after : "the cluster";

	/* (a dump records no server: nothing to compare then) */
	if (ha && ha->server && *ha->server && server_b && *server_b && strcmp(ha->server, server_b))
		warning_msg("%s was taken from %s and %s is %s: objects are the same by UID, so two clusters "
			    "differ in every object", a->before, ha->server, b_name, server_b);
	if (d->a.now && d->b.now && d->b.now < d->a.now)
		warning_msg(
			"%s is older than %s: the changes read backwards (%s diff BEFORE AFTER)",
			b_name, a->before, session_cli(before)->program);
	struct owners_buf kinds = OWNERS_BUF_INIT;

	if (d->unseen_in_a && !unseen_kinds(&kinds, d, 1))
		warning_msg("%zu object%s of %s not compared: %s did not list %s type where %s (%s), so whether "
			    "%s new cannot be told", d->unseen_in_a, d->unseen_in_a == 1 ? "" : "s", b_name,
			    a->before, d->unseen_in_a == 1 ? "its" : "their",
			    d->unseen_in_a == 1 ? "it lives" : "they live", kinds.ptr,
			    d->unseen_in_a == 1 ? "it is" : "they are");
	if (d->unseen_in_b && !unseen_kinds(&kinds, d, 0))
		warning_msg("%zu object%s of %s not compared: %s did not list %s type where %s (%s), so whether "
			    "%s cannot be told", d->unseen_in_b, d->unseen_in_b == 1 ? "" : "s", a->before, b_name,
			    d->unseen_in_b == 1 ? "its" : "their", d->unseen_in_b == 1 ? "it lived" : "they lived",
			    kinds.ptr, d->unseen_in_b == 1 ? "it went" : "they went");
	owners_buf_clear(&kinds);
}

/* ---- the command ---------------------------------------------------------- */

static void keep_labels(struct session *s, struct labelled *l)
{
	l->inner = session_read_lists_through(s, (struct owners_list_source){ list_labelled, l });
}

/* AFTER's scan on a thread of its own, its messages kept for the main
 * thread to print. */
struct side_scan {
	struct session *s;
	const char *ns;
	enum exit_code rc;
	struct owners_buf said;
};

static void *scan_side(void *arg)
{
	struct side_scan *t = arg;

	output_defer_messages(&t->said);
	t->rc = session_scan(t->s, t->ns);
	output_defer_messages(NULL);
	return NULL;
}

/* Two snapshot files are read at once, AFTER on a thread: each side has
 * its own session, reader and graph, and nothing they share is written.
 * What is said is said as if they were read one after the other: BEFORE's
 * messages, then AFTER's only if BEFORE was read. A live side is read on
 * the main thread (its connection, its -v log). 0 with *rc: done; 1: read
 * them one after the other. */
static int scan_files_at_once(struct session *before, struct session *after, const char *ns,
			      enum exit_code *rc)
{
	struct side_scan t = { after, ns, EXIT_OK, OWNERS_BUF_INIT };
	pthread_t thread;

	if (!session_is_snapshot(before) || !session_is_snapshot(after) ||
	    pthread_create(&thread, NULL, scan_side, &t))
		return 1;
	*rc = session_scan(before, ns);
	pthread_join(thread, NULL);
	if (!*rc) {
		fputs(t.said.ptr, stderr);
		*rc = t.rc;
	}
	owners_buf_clear(&t.said);
	return 0;
}

/* Both sides read in the same namespace (or every one), the scope's
 * warnings worded alike. */
static enum exit_code scan_sides(struct session *before, struct session *after, const char *ns)
{
	struct owners_scope_request req;
	struct owners_scan_scope scope;
	enum exit_code rc;

	memset(&req, 0, sizeof(req));
	req.rule = OWNERS_SCOPE_NAMESPACE;
	req.all_namespaces = !ns;
	owners_scan_scope_decide(&scope, &req);
	session_set_answer_namespaced_only(before, scope.answer_namespaced_only);
	session_set_answer_namespaced_only(after, scope.answer_namespaced_only);
	if (!scan_files_at_once(before, after, ns, &rc))
		return rc;
	if ((rc = session_scan(before, ns)))
		return rc;
	return session_scan(after, ns);
}

/* -n: an owner that reads absent in the namespace is looked for in every
 * other, each side in its own source, as dangling does: an owner living
 * elsewhere then reads invalid-namespace on both sides, as the GC sees
 * it, and only a real change of class is one. */
static enum exit_code look_across(struct session *s, const char *ns)
{
	const struct owners_graph *g = session_graph(s);
	uint32_t *nodes = NULL, i;
	size_t n = 0, cap = 0;
	enum exit_code rc;

	for (i = 0; i < g->count; i++)
		if (!g->nodes[i].virtual_ && g->nodes[i].n_refs && !strcmp(g->nodes[i].place->namespace_, ns) &&
		    owners_graph_node_list_push(&nodes, &n, &cap, i)) {
			free(nodes);
			return error_oom();
		}
	rc = n ? session_look_across_namespaces(s, nodes, n) : EXIT_OK;
	free(nodes);
	return rc;
}

/* A dump, whose types are its objects': what it lacks was not seen. */
static int from_objects(const struct session *s)
{
	const struct owners_snapshot_header *h = session_snapshot_header(s);

	return h && !h->has_discovery;
}

static enum exit_code compare(struct cmd_run *run, const struct diff_args *args, struct session *before,
			      struct session *after, struct want *w)
{
	const struct diff_options *o = run->opts;
	const struct owners_graph_diff_side sa = { session_graph(before), session_time(before),
						   from_objects(before) },
					    sb = { session_graph(after), session_time(after),
						   from_objects(after) };
	struct owners_graph_diff d;
	struct view v;
	enum exit_code rc;

	if (owners_graph_diff_run(&d, &sa, &sb, wanted, w) || w->oom) {
		owners_graph_diff_clear(&d);
		return error_oom();
	}
	memset(&v, 0, sizeof(v));
	v.r.d = &d;
	v.r.print = run->print;
	v.r.source_a = args->before;
	v.r.source_b = args->after ? args->after : "live";
	v.r.b_live = !args->after;
	rc = emit(run, &v, before, after);
	if (!rc)
		say_limits(&d, args, before, after);
	/* the scope said in every answer, "no changes" included */
	if (!rc && !d.count && !output_is_document(&run->cli->output))
		fprintf(stderr, "no changes in ownership %s%s%sbetween %s and %s\n",
			w->ns ? "in namespace '" : "in any namespace ", w->ns ? w->ns : "", w->ns ? "' " : "",
			args->before, args->after ? args->after : "the cluster");
	if (!rc && o->exit_code && d.count)
		rc = EXIT_ERROR;
	owners_graph_diff_clear(&d);
	return rc;
}

static enum exit_code cmd_diff(struct cmd_run *run)
{
	struct owners_cli *cli = run->cli;
	struct owners_label_selector *sel = NULL;
	struct session *before = NULL, *after = NULL;
	struct labelled la, lb;
	struct diff_args args;
	struct want w;
	enum exit_code rc;

	read_args(&args, run->opts, run->words);
	memset(&w, 0, sizeof(w));
	if ((rc = open_side(&before, cli, args.before)) || (rc = open_side(&after, cli, args.after)))
		goto out;
	w.ns = namespace_of(cli, before, after);
	if (cli->selector) {
		/* parsed once already by validate(): it can only run out of memory */
		if (owners_label_selector_parse(&sel, cli->selector, NULL)) {
			rc = error_oom();
			goto out;
		}
		w.sel = sel;
		keep_labels(before, &la);
		keep_labels(after, &lb);
	}
	if (!(rc = resolve_types(&w, &args, before, after)) &&
	    !(rc = scan_sides(before, after, w.ns)) &&
	    (!w.ns || (!(rc = look_across(before, w.ns)) && !(rc = look_across(after, w.ns)))))
		rc = compare(run, &args, before, after, &w);
out:
	session_close(before);
	session_close(after);
	owners_label_selector_free(sel);
	free(w.types);
	free(w.labels);
	return rc;
}

/* The man page's detail beyond --help (see struct man_section). */
static const struct man_section diff_man_sections[] = {
	{"WHAT IT SAYS",
		"  $ owners diff before.snap.gz -n shop\n"
		"  configmap in namespace shop:\n"
		"    ~ settings       in deletion for 3m, held by example.com/hold\n"
		"    ~ settings       finalizer example.com/hold added (in the last 20m)\n"
		"  deployment.apps in namespace shop:\n"
		"    - cart           went (in the last 20m)\n"
		"  pod in namespace shop:\n"
		"    ~ cart-7d9c-x2x  owner ReplicaSet/cart-7d9c dangling: absent (in the last 20m)\n"
		"  replicaset.apps in namespace shop:\n"
		"    + web-5b6f       appeared, created 4m ago\n"
		"    ~ web-7d9c       owner Deployment/web no longer its controller (in the last 20m)\n"
		"\n"
		"A heading per kind (kind.group, as kubectl names types) and namespace, in that\n"
		"order, then a line per change, objects by name: + appeared, - went, ~ anything\n"
		"else. How long each has been so is counted to the second side's time: from the\n"
		"object's creationTimestamp (appeared) or deletionTimestamp (in deletion); what\n"
		"the objects do not date happened between the two sides, said as \"in the last\n"
		"D\", D the time between them (nothing when the first side's time is unknown).\n"
		"\n"
		"The changes, per object: appeared, went; in deletion (a deletionTimestamp\n"
		"now, none before, or an object that appeared in deletion), with the finalizers\n"
		"that hold it; a finalizer added or removed; an ownerReference added or removed\n"
		"(adopted by, or released by, when it is the controller reference), the owner\n"
		"matched by UID; the controller flag of a reference set or cleared; a reference\n"
		"gone dangling (absent, uid-mismatch, invalid-namespace or unresolvable, as\n"
		"owners dangling classifies it; an object that appeared with one included), or\n"
		"resolving again."},
	{"WHAT IT CANNOT SEE",
		"Objects are the same when their UIDs are; types are the same when their group\n"
		"and resource are, whatever version each side serves. An object one side could\n"
		"not have seen is not compared, and a warning counts them: its type not listed\n"
		"there in its namespace (refused, failed, outside the namespace a snapshot was\n"
		"taken in), or in a group whose discovery failed there. A type a side does not\n"
		"serve at all has no objects there: a custom resource whose CRD came between\n"
		"the two sides appeared. An owner whose type the second side did not list is\n"
		"unknown there, never dangling. Two sides from different servers (the snapshot's\n"
		"header names its server), or the second older than the first, are said too.\n"
		"Each side's own warnings (what its scan could not list) are said with the\n"
		"side's name, before: or after:."},
	{NULL, NULL},
};

/* The command: its usage, help, man page text and permissions. */
const struct command diff_command = {
	.name = "diff",
	.man_sections = diff_man_sections,
	.fn = cmd_diff,
	.validate = validate,
	CMD_OPTIONS(diff_opts, struct diff_options, NULL),
	.outputs = diff_outputs,
	.output_default = "text",
	.usage = "owners diff BEFORE [AFTER | --live] [TYPE...] [-n NAMESPACE | -A] [-l SELECTOR] [flags]",
	.summary = "say what changed in ownership between two snapshots, or a snapshot and the cluster",
	.description = "Compares two snapshots of a cluster (owners snapshot -f FILE), or one with the\n"
		"cluster now, and says what changed in ownership: objects that appeared and\n"
		"went, objects that entered deletion and the finalizers that came (or went),\n"
		"ownerReferences added and removed, adoptions and releases (a controller\n"
		"reference added or removed), a controller flag set or cleared, and references\n"
		"gone dangling or resolving again; each with how long it has been so, counted\n"
		"to the second side's time.\n"
		"\n"
		"The sides: 'owners diff BEFORE AFTER' compares two snapshots (files or\n"
		"directories --from reads); 'owners diff BEFORE' compares BEFORE with the\n"
		"cluster now (the current context, and the clock's time). With TYPE arguments a\n"
		"second argument would read as AFTER, so --live says it: 'owners diff BEFORE\n"
		"--live pods'. TYPEs (a category too, as kubectl takes it: 'all' is its types\n"
		"on each side), -l (matching on either side: an object that lost its\n"
		"labels is compared too) and -n or -A choose the objects as in the other\n"
		"commands; without either, the namespace a snapshot was taken in, else every\n"
		"namespace when each file is a snapshot of all of them (the snapshots' scope),\n"
		"else the context's. The scope is said in every answer: 'no changes in\n"
		"ownership in namespace ...' or '... in any namespace'. Under -n, an owner that reads absent in\n"
		"the namespace is looked for in every other, on each side, as dangling does:\n"
		"one living elsewhere reads invalid-namespace, as the GC sees it. A dump (it has\n"
		"no discovery: its types are its objects') did not see a type it does not hold:\n"
		"those objects are counted as not seen on that side (notSeenBefore,\n"
		"notSeenAfter), never as appeared or went, and the warning names them per kind\n"
		"('3 objects of the cluster not compared: ... (ConfigMap 2, Deployment.apps 1)').\n"
		"\n"
		"Exit codes: 0, or with --exit-code 0 when nothing changed and 1 when something\n"
		"did (as git diff --exit-code and kubectl diff); 1 error; 2 usage.",
	.examples = "  owners snapshot -A -f before.snap.gz\n"
		"  owners diff before.snap.gz -A                      # against the cluster now\n"
		"  owners diff before.snap.gz after.snap.gz -n shop\n"
		"  owners diff before.snap.gz --live deployments replicasets -n shop\n"
		"  owners diff before.snap.gz after.snap.gz -A --exit-code >/dev/null || echo changed\n"
		"  owners diff before.snap.gz -A -o json | jq '.items[].owners.changes[].change'",
	.args = CMD_ARGS_NONE,
	.discovery = CMD_DISCOVERY_NONE,
	.reads_snapshot = 1,
	.scope = OWNERS_SCOPE_NAMESPACE,
	.rbac = "none for two snapshots; against the cluster, what owners graph needs (list on\n"
		"every type it scans)",
	.json_schema = "-o json prints, Kubernetes-shaped as kubectl get -o json:\n"
		"{\"apiVersion\": \"owners.dev/v1\", \"kind\": \"OwnersDiff\", \"metadata\": {\"before\": SIDE,\n"
		" \"after\": SIDE, \"notSeenBefore\", \"notSeenAfter\", \"notCompared\"}, \"items\": [ITEM...],\n"
		" \"warnings\": [WARNING...]}.\n"
		DOC_JSON_ITEM_WARNING_REF
		"An ITEM per object that changed (as the second side has it, or the first for\n"
		"one that went); FACTS {\"changes\": [CHANGE...]}:\n"
		"  SIDE     {\"source\" (the file, or live), \"time\", \"live\"}; notSeenBefore: the\n"
		"           objects of the second side the first could not have seen,\n"
		"           notSeenAfter the other way (neither compared); notCompared, when\n"
		"           there are any: per kind, [{\"kind\", \"group\", \"notSeenBefore\",\n"
		"           \"notSeenAfter\"}]\n"
		"  CHANGE   {\"change\": appeared | went | deletion-started | finalizer-added |\n"
		"           finalizer-removed | adopted | released | reference-added |\n"
		"           reference-removed | controller-set | controller-cleared |\n"
		"           went-dangling | resolves-again, \"since\" (when it began, or the\n"
		"           first side's time when not recorded; absent when unknown),\n"
		"           \"sinceExact\", \"ageSeconds\" (to the second side's time),\n"
		"           \"finalizer\", \"owner\" (the reference: \"apiVersion\", \"kind\", \"name\",\n"
		"           \"uid\", \"controller\", \"blockOwnerDeletion\"), \"before\" and \"after\"\n"
		"           (how each side classifies the reference, where it has it: resolved,\n"
		"           absent, uid-mismatch, invalid-namespace, unresolvable, unknown)}\n"
		"Each side's warnings, their messages starting 'before: ' or 'after: '.",
};
