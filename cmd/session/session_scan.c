#include "session_scan.h"
#include "session_state.h"

#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "options.h"
#include "relations.h"
#include "rest_config.h"
#include "session_connect.h"
#include "session_discover.h"
#include "session_snapshot.h"
#include "session_warnings.h"
#include "test_hooks.h"

/* Every list failed: no view at all, said as its cause rather than as the
 * first type's failure: rejected credentials; a user who may list nothing
 * (in the server's words, as kubectl says it); a connection that fails
 * the same way each time (TLS, unreachable: the client's words name the
 * server). */
static enum exit_code say_no_view(const struct session *s)
{
	const struct owners_scan_failure *f = s->scan.failures, *first = f;
	const char *context = s->cfg && !s->cfg->in_cluster ? s->cfg->context_name : NULL;
	struct owners_buf who = OWNERS_BUF_INIT;
	size_t i, same = 0;

	for (i = 0; i < s->scan.n_failures; i++) {
		if (f[i].code == OWNERS_EAUTH)
			return session_credentials_rejected(s);
		same += f[i].code == f[0].code;
		/* the one quoted: the first type in discovery's order (the core
		 * group first), not the first list to fail, which varies */
		if (f[i].resource && (!first->resource || f[i].resource < first->resource))
			first = &f[i];
	}
	f = first;
	session_say_credentials(s, &who);
	if (same == s->scan.n_failures && f[0].code == OWNERS_EFORBIDDEN)
		error_msg("%s may list none of the %zu types owners scans: %s",
			  who.ptr ? who.ptr : "the credentials given", s->scan.n_failures,
			  f[0].detail ? f[0].detail : f[0].message);
	else if (same == s->scan.n_failures && f[0].detail && context)
		error_msg("%s (context '%s')", f[0].detail, context);
	else if (same == s->scan.n_failures && f[0].detail)
		error_msg("%s", f[0].detail);
	else
		error_msg("%s", f[0].message);
	owners_buf_clear(&who);
	return exit_code_for(f[0].code);
}

int session_json_only(void)
{
	return test_hook_json_lists();
}

void session_lists_shuffle(struct session *s)
{
	uint64_t seed;

	if (!test_hook_shuffle(&seed))
		return;
	s->shuffle.inner = s->lists;
	s->shuffle.seed = seed;
	s->shuffle.scans = 0;
	owners_list_shuffle_source(&s->lists, &s->shuffle);
}

void session_scan_options(const struct session *s, struct owners_scan_options *o)
{
	memset(o, 0, sizeof(*o));
	o->page_size = s->cli->chunk_size > 0 ? (size_t)s->cli->chunk_size : 0;
	o->json_only = session_json_only();
	/* Labels cost memory per object: kept for the columns asked for, and
	 * for documents, which carry them as the server has them (as kubectl
	 * get -o json does). */
	o->keep_labels = s->cli->table.show_labels || s->cli->table.label_columns.count ||
			 output_is_document(&s->cli->output) || s->related;
	o->on_listed = s->on_listed;
	o->on_listed_ctx = s->on_listed_ctx;
}

int session_also_list(struct session *s, const struct owners_resource *r)
{
	r = owners_graph_lookup_type(&s->types, r);
	if (r->gc_tracked || !(r->verbs & OWNERS_VERB_LIST))
		return 0;
	return session_types_add(&s->extra, r);
}

const struct owners_resource *session_listed_type(const struct session *s, const struct owners_resource *r)
{
	return owners_graph_lookup_type(&s->types, r);
}

int session_types_want(void *ctx, const struct owners_resource *r)
{
	const struct session_types *set = ctx;
	size_t i;

	for (i = 0; i < set->count; i++)
		if (owners_resource_same_type(set->types[i], r))
			return 1;
	return 0;
}

int session_types_add(struct session_types *set, const struct owners_resource *r)
{
	if (session_types_want(set, r))
		return 0;
	if (OWNERS_GROW(set->types, set->cap, set->count + 1))
		return OWNERS_ENOMEM;
	set->types[set->count++] = r;
	return 0;
}

/* Owner types of a later pass: what the GC maps a reference to, in the
 * version owners lists, listable, and not listed yet where the reference
 * is looked up; of those the GC does not track only (the full scan's
 * second pass), or all of them (an upward scan), except those of `done`
 * (listed by an earlier pass already, wherever they were). */
static int collect_owner_types(const struct session *s, int untracked_only,
			       const struct session_types *done, struct session_types *t)
{
	const struct owners_graph *g = s->graph;
	uint32_t i, k;
	int rc = 0;

	for (i = 0; !rc && i < g->count; i++) {
		const struct owners_node *n = &g->nodes[i];

		for (k = 0; !rc && !n->virtual_ && k < n->n_refs; k++) {
			const struct owners_resource *r = NULL;

			if (owners_resource_map_ref(g->types, n->refs[k].type->api_version, n->refs[k].type->kind, &r) !=
			    OWNERS_REF_MAPPED)
				continue;
			r = owners_graph_lookup_type(g->types, r);
			if ((!untracked_only || !r->gc_tracked) && (r->verbs & OWNERS_VERB_LIST) &&
			    !(done && session_types_want((void *)done, r)) &&
			    owners_graph_listing_state(g, r, n->place->namespace_, NULL) == OWNERS_LISTING_NOT_LISTED)
				rc = session_types_add(t, r);
		}
	}
	return rc;
}

/* The second pass's report joins the first's: one set of warnings (its
 * failures and its waits moved, not copied). */
static int merge_report(struct owners_scan_report *into, struct owners_scan_report *from)
{
	if (from->n_failures) {
		if (OWNERS_GROW(into->failures, into->cap_failures, into->n_failures + from->n_failures))
			return OWNERS_ENOMEM;
		memcpy(into->failures + into->n_failures, from->failures, from->n_failures * sizeof(*from->failures));
		into->n_failures += from->n_failures;
		free(from->failures);
		from->failures = NULL;
		from->n_failures = from->cap_failures = 0;
	}
	if (from->n_waits) {
		if (OWNERS_GROW(into->waits, into->cap_waits, into->n_waits + from->n_waits))
			return OWNERS_ENOMEM;
		memcpy(into->waits + into->n_waits, from->waits, from->n_waits * sizeof(*from->waits));
		into->n_waits += from->n_waits;
		free(from->waits);
		from->waits = NULL;
		from->n_waits = from->cap_waits = 0;
	}
	into->types_listed += from->types_listed;
	into->objects += from->objects;
	into->pages += from->pages;
	into->restarts += from->restarts;
	return 0;
}

/* One more pass of the scan into the same graph: the types of t. */
static int scan_types(struct session *s, const char *ns, const struct session_types *t)
{
	struct owners_scan_options o;
	struct owners_scan_report rep;
	int rc;

	session_scan_options(s, &o);
	o.namespace_ = ns;
	o.cluster_scoped = 1;
	o.want = session_types_want;
	o.want_ctx = (void *)t;
	o.extra = t->types;
	o.n_extra = t->count;
	rc = owners_list_source_scan(&s->lists, s->graph, &s->types, &o, &rep, &s->err);
	if (!rc && merge_report(&s->scan, &rep))
		rc = owners_error_oom(&s->err);
	owners_scan_report_clear(&rep);
	return rc;
}

/* The passes after the first: the owner types the GC does not track that
 * the graph names (a full scan); every owner type it names, again and
 * again until the owners of every object read are read (an upward scan:
 * one pass a level, each listing what the one before found named). */
static int scan_owner_types(struct session *s, const char *ns, int upward)
{
	struct session_types t = { NULL, 0, 0 }, done = { NULL, 0, 0 };
	size_t i;
	int rc = 0;

	do {
		t.count = 0;
		if ((rc = collect_owner_types(s, !upward, &done, &t))) {
			rc = owners_error_oom(&s->err);
			break;
		}
		for (i = 0; i < t.count && !rc; i++)
			if (session_types_add(&done, t.types[i]))
				rc = owners_error_oom(&s->err);
		if (!rc && t.count)
			rc = scan_types(s, ns, &t);
	} while (!rc && upward && t.count);
	free(t.types);
	free(done.types);
	return rc;
}

static int list_not_found(const struct owners_scan_report *rep)
{
	size_t i;

	for (i = 0; i < rep->n_failures; i++)
		if (rep->failures[i].code == OWNERS_ENOTFOUND)
			return 1;
	return 0;
}

/* An upward scan's first pass: the roots' types, and with users the
 * types that may use one of their kinds; and what the session's own
 * filter (a rescan's) accepts. */
static int upward_first_want(void *ctx, const struct owners_resource *r)
{
	const struct session *s = ctx;
	size_t i;

	if (s->want && !s->want(s->want_ctx, r))
		return 0;
	for (i = 0; i < s->upward.n_roots; i++) {
		const struct owners_resource *root = s->upward.roots[i].type;

		if (owners_resource_same_type(session_listed_type(s, root), r) ||
		    (s->upward.users && owners_relations_type(r) &&
		     owners_relations_may_use(r->group, r->kind, root->group, root->kind)))
			return 1;
	}
	return 0;
}

enum exit_code session_scan_upward(struct session *s, const char *ns,
				   const struct owners_selection_arg *roots, size_t n, int users)
{
	enum exit_code rc;

	/* A snapshot is read whole for every pass: one pass reads it once. */
	if (s->snap)
		return session_scan(s, ns);
	s->upward.on = 1;
	s->upward.roots = roots;
	s->upward.n_roots = n;
	s->upward.users = users;
	rc = session_scan(s, ns);
	memset(&s->upward, 0, sizeof(s->upward));
	return rc;
}

enum exit_code session_scan(struct session *s, const char *ns)
{
	struct owners_scan_options o;
	size_t i;

	session_scan_options(s, &o);
	o.namespace_ = ns;
	o.cluster_scoped = 1;

	o.want = s->upward.on ? upward_first_want : s->want;
	o.want_ctx = s->upward.on ? (void *)s : s->want_ctx;
	o.extra = s->extra.types;
	o.n_extra = s->extra.count;
	session_notes_drop(s);

	if (owners_graph_new(&s->graph, &s->types)) {
		owners_error_oom(&s->err);
		return session_fail(s);
	}
	if (owners_list_source_scan(&s->lists, s->graph, &s->types, &o, &s->scan, &s->err) ||
	    scan_owner_types(s, ns, s->upward.on)) {
		session_snapshot_read(s);
		return session_fail(s);
	}
	session_snapshot_read(s);
	if (!s->types_fresh && list_not_found(&s->scan)) {
		/* A type from the discovery cache is no longer served (its CRD
		 * went): learn the server's types again and scan once more. */
		owners_graph_free(s->graph);
		s->graph = NULL;
		owners_scan_report_clear(&s->scan);
		if (s->on_listed && s->on_listed(s->on_listed_ctx, NULL, NULL, NULL))
			return error_oom();
		if (session_discover(s, 1))
			return session_fail(s);
		return session_scan(s, ns);
	}
	if (s->snap && session_snapshot_note(s))
		return error_oom();
	/* Every type failing is not a partial view, it is no view at all:
	 * most often credentials that work for nothing. */
	if (s->scan.n_failures && !s->scan.types_listed)
		return say_no_view(s);
	for (i = 0; i < s->scan.n_failures; i++)
		if (s->scan.failures[i].code == OWNERS_EAUTH)
			return session_credentials_rejected(s);
	return 0;
}

enum exit_code session_rescan(struct session *s, const char *ns,
		   int (*want)(void *ctx, const struct owners_resource *r), void *want_ctx)
{
	int rc;

	owners_graph_free(s->graph);
	s->graph = NULL;
	owners_scan_report_clear(&s->scan);
	s->want = want;
	s->want_ctx = want_ctx;
	rc = session_scan(s, ns);
	s->want = NULL;
	s->want_ctx = NULL;
	return rc;
}

int session_list_type(struct session *s, const struct session_list *l, struct owners_scan_report *report)
{
	struct owners_scan_options o;

	session_scan_options(s, &o);
	o.namespace_ = l->ns;
	o.only = l->type;
	o.label_selector = l->selector;
	o.on_object = l->on_object;
	o.on_object_ctx = l->ctx;
	return owners_list_source_scan(&s->lists, NULL, &s->types, &o, report, &s->err);
}
