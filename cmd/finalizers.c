/*
 * owners finalizers: objects stuck in deletion and why (lib/ops/stuck.c
 * explains, lib/ops/stuck_fetch.c reads what the scan does not carry,
 * lib/ops/stuck_render.c prints), and `owners finalizers remove` to take
 * finalizers off safely (lib/ops/finalizer_remove.c).
 *
 * Test-only: OWNERS_TEST_PAUSE_BEFORE_PATCH=SECONDS makes `remove` sleep
 * after reading each object and before its first write, announcing it on
 * stderr, so an end-to-end test can change the object in that window and
 * prove the write does not overwrite the change. It is not a user interface.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api_path.h"
#include "commands.h"
#include "finalizer_remove.h"
#include "namespace_content.h"
#include "object_io.h"
#include "orphan_release.h"
#include "object_args.h"
#include "output.h"
#include "session.h"
#include "stuck.h"
#include "stuck_fetch.h"
#include "stuck_render.h"

#define OFF(field) offsetof(struct owners_cli, field)

static const char *const finalizers_outputs[] = { "text", "json", "yaml", NULL };

const struct opt finalizers_opts[] = {
	{ "finalizer", 0, OPT_LIST, OFF(finalizer_names), "NAME",
	  "remove: the finalizer to take off (repeatable); a namespace's 'kubernetes' goes "
	  "through its finalize subresource",
	  NULL, COMPLETE_NONE, 0 },
	{ "all", 0, OPT_BOOL, OFF(all_finalizers), NULL,
	  "remove: take every finalizer off (metadata.finalizers, and a namespace's "
	  "spec.finalizers)",
	  NULL, COMPLETE_NONE, 0 },
	{ "force", 0, OPT_BOOL, OFF(force), NULL,
	  "remove: also from an object that is not being deleted, from a namespace that "
	  "still has content, or (orphan) when not every type could be listed to release "
	  "its dependents (disables what the finalizers protect)",
	  NULL, COMPLETE_NONE, 0 },
	{ "dry-run", 0, OPT_BOOL, OFF(dry_run), NULL,
	  "remove: only show what would change (the server checks each write with dryRun=All "
	  "and stores nothing)",
	  NULL, COMPLETE_NONE, 0 },
	{ "selector", 'l', OPT_STRING, OFF(selector), "SELECTOR",
	  "look only at objects of the given TYPEs with these labels, e.g. app=web",
	  NULL, COMPLETE_NONE, 0 },
	{ "output", 'o', OPT_STRING, OFF(output), "FORMAT",
	  "text (default), json (the schema is in the description above) or yaml (the same document)",
	  finalizers_outputs, COMPLETE_VALUES, 0 },
	{ NULL, 0, 0, 0, NULL, NULL, NULL, 0, 0 },
};

/* ---- small helpers ------------------------------------------------------ */

static int oom(void)
{
	error_msg("out of memory");
	return EXIT_ERROR;
}

/* "pod/web", "deployment.apps/web": how kubectl names an object. */
static int object_ref(struct owners_buf *out, const struct owners_resource *r, const char *name)
{
	size_t i, start = out->len;
	int rc = owners_buf_adds(out, r->kind);

	for (i = start; i < out->len; i++)
		if (out->ptr[i] >= 'A' && out->ptr[i] <= 'Z')
			out->ptr[i] = (char)(out->ptr[i] - 'A' + 'a');
	if (!rc && *r->group)
		rc = owners_buf_addf(out, ".%s", r->group);
	if (!rc)
		rc = owners_buf_addf(out, "/%s", name);
	return rc;
}

/* ---- listing: which objects --------------------------------------------- */

/* Whether a node belongs to a run without TYPE arguments: the namespace's
 * objects and the namespace itself (-A: everything). */
static int in_scope(const struct session *s, const struct owners_node *n)
{
	if (n->virtual_)
		return 0;
	if (s->cli->all_namespaces)
		return 1;
	if (!*n->namespace_)
		return owners_stuck_is_namespace(n) && !strcmp(n->name, s->namespace_);
	return !strcmp(n->namespace_, s->namespace_);
}

/* The objects asked for, each once; named ones are flagged in *named
 * (per node) so that one not in deletion can be said so. */
static int select_objects(struct session *s, const struct owners_object_arg *objs, size_t n_objs,
			  uint32_t **out, size_t *n_out, unsigned char **named, size_t *n_named)
{
	struct owners_graph *g = s->graph;
	unsigned char *picked = NULL;
	uint32_t *roots = NULL, *nodes = NULL;
	size_t n_roots = 0, n = 0, cap = 0, i, j;
	int rc = 0;

	*out = NULL;
	*n_out = 0;
	*named = calloc(g->count ? g->count : 1, 1);
	*n_named = g->count;
	picked = calloc(g->count ? g->count : 1, 1);
	if (!picked || !*named) {
		rc = oom();
		goto out;
	}
	if (!n_objs)
		for (i = 0; i < g->count; i++)
			picked[i] = in_scope(s, &g->nodes[i]);
	for (j = 0; j < n_objs; j++) {
		const struct owners_resource *r;

		if (objs[j].name || s->cli->selector)
			continue;
		if ((rc = session_resolve_type(s, objs[j].type, &r)))
			goto out;
		for (i = 0; i < g->count; i++) {
			const struct owners_node *node = &g->nodes[i];

			if (!node->virtual_ && owners_resource_same_type(node->resource, r) &&
			    (!*node->namespace_ || s->cli->all_namespaces ||
			     !strcmp(node->namespace_, s->namespace_)))
				picked[i] = 1;
		}
	}
	if (n_objs) {
		struct owners_object_arg *by_name = calloc(n_objs, sizeof(*by_name));
		size_t n_by_name = 0;

		if (!by_name) {
			rc = oom();
			goto out;
		}
		for (j = 0; j < n_objs; j++)
			if (objs[j].name || s->cli->selector)
				by_name[n_by_name++] = objs[j];
		if (n_by_name)
			rc = session_find_roots(s, by_name, n_by_name, s->cli->selector, &roots,
						&n_roots);
		free(by_name); /* shallow: the strings belong to objs */
		if (rc)
			goto out;
		for (i = 0; i < n_roots; i++) {
			picked[roots[i]] = 1;
			(*named)[roots[i]] = 1;
		}
	}
	for (i = 0; i < g->count; i++)
		if (picked[i] && g->nodes[i].deleted && owners_node_list_push(&nodes, &n, &cap, (uint32_t)i)) {
			rc = oom();
			goto out;
		}
	*out = nodes;
	*n_out = n;
	nodes = NULL;
out:
	free(picked);
	free(roots);
	free(nodes);
	return rc;
}

/* A scan of one namespace may not reach a cluster-scoped object's
 * dependents: a cluster-scoped TYPE (other than namespaces, whose content
 * is scanned on its own) needs every namespace. */
static int needs_all_namespaces(struct session *s, const struct owners_object_arg *objs,
				size_t n_objs, int *rc)
{
	size_t i;

	*rc = 0;
	if (s->cli->all_namespaces)
		return 1;
	for (i = 0; i < n_objs; i++) {
		const struct owners_resource *r;

		if ((*rc = session_resolve_type(s, objs[i].type, &r)))
			return 0;
		if (!r->namespaced && !(!*r->group && !strcmp(r->resource, "namespaces")))
			return 1;
	}
	return 0;
}

/* Extra scans: the content of namespaces in deletion the first scan did
 * not cover, so that a namespace is explained by what is in it. */
struct extra_scans {
	struct owners_scan_report *reports;
	size_t count;
};

static void extra_scans_free(struct extra_scans *x)
{
	size_t i;

	for (i = 0; i < x->count; i++)
		owners_scan_report_free(&x->reports[i]);
	free(x->reports);
	memset(x, 0, sizeof(*x));
}

static int scan_namespaces(struct session *s, const uint32_t *nodes, size_t n, const char *scanned,
			   struct extra_scans *x)
{
	size_t i;

	if (!scanned)
		return 0; /* all namespaces were listed */
	for (i = 0; i < n; i++) {
		const struct owners_node *ns = &s->graph->nodes[nodes[i]];
		struct owners_scan_options o;
		struct owners_scan_report *r;

		if (!owners_stuck_is_namespace(ns) || !strcmp(ns->name, scanned))
			continue;
		r = realloc(x->reports, (x->count + 1) * sizeof(*r));
		if (!r)
			return oom();
		x->reports = r;
		memset(&x->reports[x->count], 0, sizeof(*r));
		session_scan_options(s, &o);
		o.namespace_ = s->graph->nodes[nodes[i]].name;
		if (owners_scan_run(s->graph, s->http, &s->types, &o, &x->reports[x->count], &s->err)) {
			owners_scan_report_free(&x->reports[x->count]);
			return report_error(&s->err);
		}
		x->count++;
	}
	return 0;
}

static int cmd_list(struct owners_cli *cli, struct string_list *args)
{
	struct owners_error err = OWNERS_ERROR_INIT;
	struct owners_object_arg *objs = NULL;
	struct owners_stuck_facts facts;
	struct owners_stuck_report rep;
	struct owners_stuck_render render;
	struct extra_scans extra = { NULL, 0 };
	struct owners_buf out = OWNERS_BUF_INIT, what = OWNERS_BUF_INIT;
	struct session s;
	const char *format = cli->output ? cli->output : "text";
	int document = !strcmp(format, "json") || !strcmp(format, "yaml");
	unsigned char *named = NULL;
	uint32_t *nodes = NULL, *reach = NULL;
	char **warnings = NULL;
	size_t n_objs = 0, n = 0, n_reach = 0, n_warnings = 0, n_named = 0, i, stuck = 0;
	int rc, all;

	memset(&s, 0, sizeof(s));
	memset(&facts, 0, sizeof(facts));
	memset(&rep, 0, sizeof(rep));
	if (cli->selector && !args->count) {
		error_msg("-l needs the TYPE of the objects to select, e.g. "
			  "'owners finalizers pvc -l app=db'");
		return EXIT_USAGE;
	}
	if (args->count &&
	    owners_object_args_parse(&objs, &n_objs, args->items, args->count, 1, &err)) {
		rc = report_error(&err);
		owners_error_clear(&err);
		return rc == EXIT_ERROR ? EXIT_USAGE : rc;
	}
	if ((rc = session_open(&s, cli)))
		goto out;
	all = needs_all_namespaces(&s, objs, n_objs, &rc);
	if (rc)
		goto out;
	if ((rc = session_scan(&s, all ? NULL : s.namespace_)))
		goto out;
	if ((rc = select_objects(&s, objs, n_objs, &nodes, &n, &named, &n_named)))
		goto out;
	if ((rc = scan_namespaces(&s, nodes, n, all ? NULL : s.namespace_, &extra)))
		goto out;
	if (owners_stuck_reach(&reach, &n_reach, s.graph, nodes, n)) {
		rc = oom();
		goto out;
	}
	if (owners_stuck_fetch(&facts, s.graph, s.http, reach, n_reach, (size_t)cli->chunk_size,
			       &err)) {
		rc = report_error(&err);
		goto out;
	}
	for (i = 0; i < n; i++) {
		if (!owners_stuck_is_stuck(s.graph, &facts, nodes[i]))
			continue;
		if (owners_stuck_explain(&rep, s.graph, &facts, nodes[i])) {
			rc = oom();
			goto out;
		}
		stuck++;
	}
	owners_stuck_sort(&rep, s.graph);
	if (session_warnings(&s, extra.reports, extra.count, &warnings, &n_warnings)) {
		rc = oom();
		goto out;
	}
	memset(&render, 0, sizeof(render));
	render.g = s.graph;
	render.rep = &rep;
	render.now = (int64_t)time(NULL);
	render.color = output_color();
	render.namespace_ = cli->all_namespaces ? NULL : s.namespace_;
	render.warnings = (const char *const *)warnings;
	render.n_warnings = n_warnings;
	if (document)
		rc = owners_stuck_render_json(&out, &render);
	else
		rc = owners_stuck_render_text(&out, &render);
	if (rc) {
		rc = oom();
		goto out;
	}
	if ((rc = output_document(&out, !strcmp(format, "yaml"))))
		goto out;
	for (i = 0; i < n_warnings; i++)
		warning_msg("%s", warnings[i]);
	/* Named objects that are not stuck: say so, rather than print nothing. */
	for (i = 0; named && i < n_named; i++) {
		const struct owners_node *node = &s.graph->nodes[i];

		if (!named[i] || owners_stuck_is_stuck(s.graph, &facts, (uint32_t)i))
			continue;
		owners_buf_reset(&what);
		owners_api_type_name(&what, node->resource);
		fprintf(stderr, "%s '%s'%s%s%s %s\n", what.ptr, node->name,
			*node->namespace_ ? " in namespace '" : "", node->namespace_,
			*node->namespace_ ? "'" : "",
			node->deleted ? "is being deleted, with no finalizers left"
				      : "is not being deleted");
	}
	if (!stuck && !n_objs && !document) {
		if (cli->all_namespaces)
			fprintf(stderr, "no objects stuck in deletion\n");
		else
			fprintf(stderr, "no objects stuck in deletion in namespace '%s'\n", s.namespace_);
	}
	rc = EXIT_OK;
out:
	session_warnings_free(warnings, n_warnings);
	free(named);
	free(nodes);
	free(reach);
	owners_stuck_report_free(&rep);
	owners_stuck_facts_free(&facts);
	extra_scans_free(&extra);
	owners_buf_release(&out);
	owners_buf_release(&what);
	owners_object_args_free(objs, n_objs);
	owners_error_clear(&err);
	session_close(&s);
	return rc;
}

/* ---- remove ------------------------------------------------------------- */

static void pause_before_write(void *ctx, const struct owners_unfinalize_target *t)
{
	const double *seconds = ctx;
	struct timespec ts;

	fprintf(stderr, "owners: test hook: pausing %gs before patching %s %s%s%s\n", *seconds,
		t->resource->kind, t->namespace_ && *t->namespace_ ? t->namespace_ : "",
		t->namespace_ && *t->namespace_ ? "/" : "", t->name);
	fflush(stderr);
	ts.tv_sec = (time_t)*seconds;
	ts.tv_nsec = (long)((*seconds - floor(*seconds)) * 1e9);
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* What is still in a namespace, before its `kubernetes` finalizer goes:
 * a scan of its namespaced types, counted by lib/graph/namespace_content.c. */
static int namespace_content(struct session *s, struct owners_unfinalize_target *t,
			     struct owners_buf *summary, struct owners_buf *why)
{
	struct owners_scan_options o;
	struct owners_scan_report report;
	struct owners_namespace_content content;
	struct owners_graph *g = NULL;
	int rc;

	session_scan_options(s, &o);
	memset(&report, 0, sizeof(report));
	memset(&content, 0, sizeof(content));
	o.namespace_ = t->name;
	if (owners_graph_new(&g, &s->types))
		return OWNERS_ENOMEM;
	rc = owners_scan_run(g, s->http, &s->types, &o, &report, &s->err);
	if (rc == OWNERS_ENOMEM)
		goto out;
	if (rc) {
		rc = owners_buf_adds(why, owners_error_message(&s->err));
		owners_error_clear(&s->err);
		t->content_error = why->ptr;
		goto out;
	}
	rc = owners_namespace_content_count(&content, g, t->name);
	if (!rc)
		rc = owners_namespace_content_summary(summary, &content);
	if (rc)
		goto out;
	t->content_objects = (long)content.objects;
	t->content_summary = summary->ptr;
	if (!content.objects && report.n_failures) {
		/* Nothing seen, but not everything could be looked at. */
		rc = owners_buf_adds(why, report.failures[0].message);
		t->content_error = why->ptr;
	}
out:
	owners_namespace_content_clear(&content);
	owners_scan_report_free(&report);
	owners_graph_free(g);
	return rc == OWNERS_ENOMEM ? rc : 0;
}

static int is_namespace_type(const struct owners_resource *r)
{
	return !*r->group && !strcmp(r->resource, "namespaces");
}

static int asks_for(const struct owners_cli *cli, const char *name)
{
	size_t i;

	if (cli->all_finalizers)
		return 1;
	for (i = 0; i < cli->finalizer_names.count; i++)
		if (!strcmp(cli->finalizer_names.items[i], name))
			return 1;
	return 0;
}

/* "a, kubernetes (spec.finalizers)"; removed ones say how they went. */
static int add_names(struct owners_buf *b, const struct owners_unfinalize_finalizer *a, size_t n,
		     int removed)
{
	size_t i;
	int rc = 0;

	for (i = 0; !rc && i < n; i++)
		rc = owners_buf_addf(b, "%s%s%s", i ? ", " : "", a[i].name,
				     !a[i].spec ? ""
				     : removed  ? " (spec.finalizers, through finalize)"
						: " (spec.finalizers)");
	return rc;
}

/* One line per object on stdout: what was done, and the end state. */
static int describe(struct owners_buf *b, const struct owners_unfinalize_target *t,
		    const struct owners_unfinalize_outcome *o)
{
	int rc = object_ref(b, t->resource, t->name);

	if (rc)
		return rc;
	switch (o->result) {
	case OWNERS_UNFINALIZE_DRY_RUN:
		rc = owners_buf_adds(b, ": would remove ");
		if (!rc)
			rc = add_names(b, o->removed, o->n_removed, 1);
		if (!rc && o->n_left)
			rc = owners_buf_adds(b, "; it would keep ");
		if (!rc && o->n_left)
			rc = add_names(b, o->left, o->n_left, 0);
		if (!rc && !o->n_left && o->deleting)
			rc = owners_buf_adds(b, "; with no finalizers left it would then be deleted");
		if (!rc)
			rc = owners_buf_adds(b, " (dry run: nothing was changed)\n");
		return rc;
	case OWNERS_UNFINALIZE_NOTHING:
		return owners_buf_adds(b, ": no finalizers to remove\n");
	case OWNERS_UNFINALIZE_GONE:
	case OWNERS_UNFINALIZE_FREED:
	case OWNERS_UNFINALIZE_LEFT:
		if (o->n_removed) {
			rc = owners_buf_adds(b, ": removed ");
			if (!rc)
				rc = add_names(b, o->removed, o->n_removed, 1);
		} else {
			rc = owners_buf_adds(b, ": nothing removed");
		}
		if (rc)
			return rc;
		if (o->result == OWNERS_UNFINALIZE_GONE)
			return owners_buf_adds(b, "; gone\n");
		rc = owners_buf_adds(b, "; still there, ");
		if (!rc && !o->deleting)
			rc = owners_buf_adds(b, "not being deleted");
		else if (!rc && o->n_left)
			rc = owners_buf_adds(b, "being deleted, waiting for ");
		else if (!rc)
			rc = owners_buf_adds(b, "being deleted, no finalizers left");
		if (!rc && o->deleting && o->n_left)
			rc = add_names(b, o->left, o->n_left, 0);
		else if (!rc && o->n_left) {
			rc = owners_buf_adds(b, ", finalizers: ");
			if (!rc)
				rc = add_names(b, o->left, o->n_left, 0);
		}
		return rc ? rc : owners_buf_addc(b, '\n');
	case OWNERS_UNFINALIZE_NOT_FOUND:
	case OWNERS_UNFINALIZE_REFUSED:
	case OWNERS_UNFINALIZE_FAILED:
		break;
	}
	owners_buf_truncate(b, 0);
	return 0;
}

/* Whether `orphan` is asked for and the object, read now, is in deletion
 * and holds it: then its dependents must be released before it goes.
 * *uid is the UID read (the caller frees it). A failed read says no: the
 * removal reads the object again and reports why. */
static int holds_orphan_in_deletion(struct session *s, const struct owners_unfinalize_target *t,
				    char **uid)
{
	struct owners_json_value *doc = NULL;
	const struct owners_json_value *fins;
	size_t i;
	int holds = 0;

	*uid = NULL;
	if (!asks_for(s->cli, "orphan") ||
	    owners_object_get(s->http, t->resource, t->namespace_, t->name, NULL, 0, &doc, &s->err)) {
		owners_error_clear(&s->err);
		return 0;
	}
	fins = owners_json_path(doc, "metadata", "finalizers", NULL);
	if (*owners_object_meta_string(doc, "deletionTimestamp"))
		for (i = 0; fins && fins->type == OWNERS_JSON_ARRAY && i < fins->count; i++)
		{
			const char *f = owners_json_string(fins->items[i]);

			holds |= f && !strcmp(f, "orphan");
		}
	if (holds && !(*uid = owners_strdup(owners_object_meta_string(doc, "uid"))))
		holds = -1;
	owners_json_value_free(doc);
	return holds;
}

/* The first reason the scan may have missed a dependent, or NULL. */
static int scan_blind_spot(const struct session *s, struct owners_buf *why)
{
	if (s->types.n_failed)
		return owners_buf_addf(why, "discovery of '%s' failed: %s", s->types.failed_groups[0],
				       s->types.failed_reasons[0]);
	if (s->scan.n_failures)
		return owners_buf_adds(why, s->scan.failures[0].message);
	return 0;
}

/* Before `orphan` goes from an object in deletion, its dependents are
 * released, as the GC's orphanDependents does; or the removal is refused
 * (targets[i].orphan_blocked, why in blocked[i]). One scan serves every
 * target: the namespace and cluster-scoped types, or every namespace when
 * a cluster-scoped object's dependents are looked for. */
static int release_orphans(struct session *s, struct owners_unfinalize_target *targets, size_t n,
			   struct owners_orphan_release *releases, struct owners_buf *blocked)
{
	char **uids = calloc(n ? n : 1, sizeof(*uids));
	struct owners_buf blind = OWNERS_BUF_INIT;
	size_t i, needed = 0;
	int all_namespaces = 0, rc = 0, holds;

	if (!uids)
		return oom();
	for (i = 0; i < n; i++) {
		if ((holds = holds_orphan_in_deletion(s, &targets[i], &uids[i])) < 0) {
			rc = oom();
			goto out;
		}
		needed += holds;
		if (holds && !targets[i].resource->namespaced)
			all_namespaces = 1;
	}
	if (!needed)
		goto out;
	if ((rc = session_scan(s, all_namespaces ? NULL : s->namespace_)))
		goto out;
	if (scan_blind_spot(s, &blind)) {
		rc = oom();
		goto out;
	}
	if (blind.len && s->cli->force)
		session_warn_scan(s);
	for (i = 0; i < n; i++) {
		const struct owners_unfinalize_target *t = &targets[i];
		uint32_t node;

		if (!uids[i])
			continue;
		if (owners_graph_find_name(s->graph, t->resource, t->namespace_ ? t->namespace_ : "",
					   t->name, &node)) {
			rc = oom();
			goto out;
		}
		if (node == OWNERS_NO_NODE || strcmp(s->graph->nodes[node].uid, uids[i]))
			rc = owners_buf_adds(&blocked[i], "it changed while its dependents were looked "
					     "up (run again); nothing was changed");
		else if (blind.len && !s->cli->force)
			rc = owners_buf_addf(&blocked[i], "not every dependent could be looked for (%s); "
					     "nothing was changed (--force releases the ones found and "
					     "removes it anyway)", blind.ptr);
		else if (owners_orphan_release(&releases[i], s->http, s->graph, node, s->cli->dry_run,
					       0, &s->err))
			rc = OWNERS_ENOMEM;
		else if (releases[i].failed)
			rc = owners_buf_addf(&blocked[i], "%zu of its dependents could not be released "
					     "(the others were; run again once they can be)",
					     releases[i].failed);
		else
			targets[i].orphan_released_uid = s->graph->nodes[node].uid;
		if (rc) {
			rc = oom();
			goto out;
		}
		if (blocked[i].len)
			targets[i].orphan_blocked = blocked[i].ptr;
	}
out:
	for (i = 0; i < n; i++)
		free(uids[i]);
	free(uids);
	owners_buf_release(&blind);
	return rc;
}

/* "configmap/o: released its dependents first: configmap/a, pod/b" (or
 * would, or could not), before the object's own line. */
static int describe_release(struct owners_buf *b, const struct owners_graph *g,
			    const struct owners_unfinalize_target *t,
			    const struct owners_orphan_release *r)
{
	static const char *const heads[] = {
		[OWNERS_RELEASE_RELEASED] = "released its dependents first",
		[OWNERS_RELEASE_DRY_RUN] = "would release its dependents first (dry run)",
		[OWNERS_RELEASE_FAILED] = "could not release its dependents",
	};
	enum owners_release_result shown[] = { OWNERS_RELEASE_RELEASED, OWNERS_RELEASE_DRY_RUN,
					       OWNERS_RELEASE_FAILED };
	size_t i, k, n;
	int rc = 0;

	for (k = 0; !rc && k < sizeof(shown) / sizeof(shown[0]); k++) {
		for (i = n = 0; !rc && i < r->count; i++) {
			const struct owners_release_item *it = &r->items[i];
			const struct owners_node *d = &g->nodes[it->dependent];

			if (it->result != shown[k])
				continue;
			if (!n++) {
				rc = object_ref(b, t->resource, t->name);
				if (!rc)
					rc = owners_buf_addf(b, ": %s: ", heads[shown[k]]);
			} else {
				rc = owners_buf_adds(b, ", ");
			}
			if (!rc)
				rc = object_ref(b, d->resource, d->name);
			if (!rc && *d->namespace_ && strcmp(d->namespace_, t->namespace_ ? t->namespace_ : ""))
				rc = owners_buf_addf(b, " (namespace %s)", d->namespace_);
			if (!rc && it->message)
				rc = owners_buf_addf(b, " (%s)", it->message);
		}
		if (!rc && n)
			rc = owners_buf_addc(b, '\n');
	}
	return rc;
}

static int cmd_remove(struct owners_cli *cli, struct string_list *args)
{
	struct owners_error err = OWNERS_ERROR_INIT;
	struct owners_object_arg *objs = NULL;
	struct owners_unfinalize_target *targets = NULL;
	struct owners_unfinalize_outcome *outcomes = NULL;
	struct owners_orphan_release *releases = NULL;
	struct owners_unfinalize_options uo;
	struct owners_buf *summaries = NULL, *whys = NULL, *blocked = NULL, out = OWNERS_BUF_INIT,
			  line = OWNERS_BUF_INIT;
	struct session s;
	const char *format = cli->output ? cli->output : "text";
	int document = !strcmp(format, "json") || !strcmp(format, "yaml");
	const char *pause_env = getenv("OWNERS_TEST_PAUSE_BEFORE_PATCH");
	double pause = 0;
	size_t n_objs = 0, n_targets = 0, i;
	int rc, errors = 0, incomplete = 0;

	memset(&s, 0, sizeof(s));
	if (!args->count) {
		error_msg("'owners finalizers remove' needs the objects: TYPE/NAME...");
		return EXIT_USAGE;
	}
	if (!cli->all_finalizers && !cli->finalizer_names.count) {
		error_msg("say which finalizers to remove: --finalizer NAME (repeatable) or --all");
		return EXIT_USAGE;
	}
	if (cli->all_finalizers && cli->finalizer_names.count) {
		error_msg("--all and --finalizer exclude each other");
		return EXIT_USAGE;
	}
	for (i = 0; i < cli->finalizer_names.count; i++)
		if (!*cli->finalizer_names.items[i]) {
			error_msg("--finalizer needs a name");
			return EXIT_USAGE;
		}
	if (cli->all_namespaces) {
		error_msg("'owners finalizers remove' works on named objects: use -n NAMESPACE, not -A");
		return EXIT_USAGE;
	}
	if (cli->selector) {
		error_msg("'owners finalizers remove' takes objects by name (TYPE/NAME), not -l");
		return EXIT_USAGE;
	}
	if (pause_env && *pause_env) {
		char *end;

		pause = strtod(pause_env, &end);
		if (*end || !(pause >= 0 && pause < 3600)) {
			error_msg("invalid OWNERS_TEST_PAUSE_BEFORE_PATCH '%s': want seconds", pause_env);
			return EXIT_USAGE;
		}
	}
	if (owners_object_args_parse(&objs, &n_objs, args->items, args->count, 0, &err)) {
		rc = report_error(&err);
		owners_error_clear(&err);
		return rc == EXIT_ERROR ? EXIT_USAGE : rc;
	}
	targets = calloc(n_objs, sizeof(*targets));
	outcomes = calloc(n_objs, sizeof(*outcomes));
	summaries = calloc(n_objs, sizeof(*summaries));
	whys = calloc(n_objs, sizeof(*whys));
	blocked = calloc(n_objs, sizeof(*blocked));
	releases = calloc(n_objs, sizeof(*releases));
	if (!targets || !outcomes || !summaries || !whys || !blocked || !releases) {
		rc = oom();
		goto out;
	}
	for (i = 0; i < n_objs; i++) {
		owners_buf_init(&summaries[i]);
		owners_buf_init(&whys[i]);
		owners_buf_init(&blocked[i]);
	}
	if ((rc = session_open(&s, cli)))
		goto out;
	/* Every TYPE first: a mistake in the command line changes nothing. */
	for (i = 0; i < n_objs; i++) {
		struct owners_unfinalize_target *t = &targets[n_targets];
		size_t k;

		if ((rc = session_resolve_type(&s, objs[i].type, &t->resource)))
			goto out;
		/* Named twice: done once (the second time it would be gone). */
		for (k = 0; k < n_targets; k++)
			if (targets[k].resource == t->resource && !strcmp(targets[k].name, objs[i].name))
				break;
		if (k < n_targets)
			continue;
		t->namespace_ = t->resource->namespaced ? s.namespace_ : NULL;
		t->name = objs[i].name;
		t->content_objects = -1;
		n_targets++;
	}
	memset(&uo, 0, sizeof(uo));
	uo.finalizers = cli->finalizer_names.items;
	uo.n_finalizers = cli->finalizer_names.count;
	uo.all = cli->all_finalizers;
	uo.force = cli->force;
	uo.dry_run = cli->dry_run;
	if (pause > 0) {
		uo.before_write = pause_before_write;
		uo.ctx = &pause;
	}
	if ((rc = release_orphans(&s, targets, n_targets, releases, blocked)))
		goto out;
	for (i = 0; i < n_targets; i++) {
		if (is_namespace_type(targets[i].resource) && asks_for(cli, "kubernetes") &&
		    !cli->force && namespace_content(&s, &targets[i], &summaries[i], &whys[i])) {
			rc = oom();
			goto out;
		}
		if (owners_unfinalize(&outcomes[i], s.http, &targets[i], &uo, &err)) {
			rc = report_error(&err);
			goto out;
		}
	}
	for (i = 0; i < n_targets; i++) {
		const struct owners_unfinalize_outcome *o = &outcomes[i];

		switch (o->result) {
		case OWNERS_UNFINALIZE_NOT_FOUND:
		case OWNERS_UNFINALIZE_REFUSED:
			errors++;
			error_msg("%s", o->message ? o->message : "refused");
			break;
		case OWNERS_UNFINALIZE_FAILED:
			/* Nothing was written: an error; a write failed: incomplete. */
			if (o->writes)
				incomplete++;
			else
				errors++;
			error_msg("%s", o->message ? o->message : "failed");
			break;
		case OWNERS_UNFINALIZE_LEFT:
			incomplete++;
			error_msg("%s", o->message ? o->message : "a finalizer came back");
			break;
		default:
			break;
		}
		if (!document) {
			owners_buf_reset(&line);
			if ((releases[i].count &&
			     describe_release(&out, s.graph, &targets[i], &releases[i])) ||
			    describe(&line, &targets[i], o)) {
				rc = oom();
				goto out;
			}
			if (owners_buf_add(&out, line.ptr, line.len)) {
				rc = oom();
				goto out;
			}
		}
	}
	if (document &&
	    owners_unfinalize_render_json(&out, targets, outcomes, releases, s.graph, n_targets,
					  cli->dry_run)) {
		rc = oom();
		goto out;
	}
	if ((rc = output_document(&out, !strcmp(format, "yaml"))))
		goto out;
	rc = errors ? EXIT_ERROR : incomplete ? EXIT_INCOMPLETE : EXIT_OK;
out:
	for (i = 0; outcomes && i < n_objs; i++)
		owners_unfinalize_outcome_clear(&outcomes[i]);
	for (i = 0; summaries && whys && blocked && i < n_objs; i++) {
		owners_buf_release(&summaries[i]);
		owners_buf_release(&whys[i]);
		owners_buf_release(&blocked[i]);
	}
	for (i = 0; releases && i < n_objs; i++)
		owners_orphan_release_clear(&releases[i]);
	free(releases);
	free(blocked);
	free(summaries);
	free(whys);
	free(outcomes);
	free(targets);
	owners_buf_release(&out);
	owners_buf_release(&line);
	owners_object_args_free(objs, n_objs);
	owners_error_clear(&err);
	session_close(&s);
	return rc;
}

/* ---- the command -------------------------------------------------------- */

int cmd_finalizers(struct owners_cli *cli, struct string_list *args)
{
	const char *format = cli->output ? cli->output : "text";

	if (strcmp(format, "text") && strcmp(format, "json") && strcmp(format, "yaml")) {
		error_msg("invalid output format '%s' for finalizers: want text, json or yaml", format);
		return EXIT_USAGE;
	}
	if (args->count && !strcmp(args->items[0], "remove")) {
		struct string_list rest = { args->items + 1, args->count - 1 };

		return cmd_remove(cli, &rest);
	}
	if (cli->finalizer_names.count || cli->all_finalizers || cli->force || cli->dry_run) {
		error_msg("--finalizer, --all, --force and --dry-run only apply to "
			  "'owners finalizers remove TYPE/NAME...'");
		return EXIT_USAGE;
	}
	return cmd_list(cli, args);
}
