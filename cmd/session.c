#include "session.h"

#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api_path.h"
#include "apiservice.h"
#include "dangling.h"
#include "discovery.h"
#include "graph_mark.h"
#include "grow.h"
#include "kubeconfig.h"
#include "list_parser.h"
#include "strv.h"
#include "test_pause.h"
#include "output.h"
#include "scan_warnings.h"
#include "type_resolve.h"
#include "url.h"

static void log_line(void *ctx, const char *line)
{
	(void)ctx;
	fprintf(stderr, "%s\n", line);
}

/* A server that does not answer: said once at default verbosity (at -v=6
 * every attempt is logged already). */
static void retry_notice(void *ctx, const char *line)
{
	const struct owners_cli *cli = ctx;

	if (cli->verbosity < 6)
		warning_msg("%s", line);
}

static const char *default_cache_dir(struct owners_buf *b)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");

	if (xdg && *xdg && !owners_buf_addf(b, "%s/owners", xdg))
		return b->ptr;
	if (home && *home && !owners_buf_addf(b, "%s/.cache/owners", home))
		return b->ptr;
	return NULL; /* no home: run without a disk cache */
}

/* Whose credentials the server was given, for messages: "the
 * credentials of user 'admin' (context 'admin')", the --token flag's, or
 * a pod's service account's; with --as, who they act as. */
static void say_credentials(const struct session *s, struct owners_buf *b)
{
	const struct owners_rest_config *c = s->cfg;

	if (s->cli->token)
		owners_buf_adds(b, "the token given with --token");
	else if (c && c->in_cluster)
		owners_buf_adds(b, "this pod's service account token");
	else if (c && c->user_name)
		owners_buf_addf(b, "the credentials of user '%s'", c->user_name);
	else
		owners_buf_adds(b, "the credentials given");
	if (c && c->context_name && !c->in_cluster)
		owners_buf_addf(b, " (context '%s')", c->context_name);
	if (s->cli->as)
		owners_buf_addf(b, " acting as '%s'", s->cli->as);
}

/* 401 wherever it came (discovery, a list): the credentials are wrong or
 * have expired, and nothing else the command could say matters. */
static enum exit_code credentials_rejected(const struct session *s)
{
	struct owners_buf who = OWNERS_BUF_INIT;

	say_credentials(s, &who);
	error_msg("the server at %s rejected %s (Unauthorized): wrong or expired; "
		  "log in again or fix the kubeconfig", s->cfg ? s->cfg->server : "?",
		  who.ptr ? who.ptr : "the credentials");
	owners_buf_clear(&who);
	return EXIT_ERROR;
}

static enum exit_code fail(struct session *s)
{
	if (s->err.code == OWNERS_EAUTH)
		return credentials_rejected(s);
	return report_error(&s->err);
}

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
			return credentials_rejected(s);
		same += f[i].code == f[0].code;
		/* the one quoted: the first type in discovery's order (the core
		 * group first), not the first list to fail, which varies */
		if (f[i].resource && (!first->resource || f[i].resource < first->resource))
			first = &f[i];
	}
	f = first;
	say_credentials(s, &who);
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

/* Resolves the arguments the session holds (as typed) against the
 * current types: the first time, and again after every refresh, so that
 * nothing held points into a table replaced. A type the server does not
 * have is an error (owners_type_resolve()'s). 0, or the error code with
 * s->err set. */
static int resolve_held(struct session *s)
{
	size_t i;
	int rc;

	s->extra.count = 0;
	for (i = 0; i < s->n_args; i++) {
		const struct owners_resource *r;

		if ((rc = owners_type_resolve(&r, &s->types, s->typed[i].type, &s->err)))
			return rc;
		if (s->also_list && session_also_list(s, r))
			return owners_error_oom(&s->err);
		s->args[i].type = session_listed_type(s, r);
		s->args[i].name = s->typed[i].name;
	}
	return 0;
}

/* Keeps a replaced table until the session closes: a type pointer a
 * caller still holds stays readable (it is never used to list again:
 * resolve_held() points the session's own into the new table). */
static int retire(struct session *s, struct owners_resource_table *old)
{
	if (OWNERS_GROW(s->retired, s->cap_retired, s->n_retired + 1))
		return OWNERS_ENOMEM;
	s->retired[s->n_retired++] = *old;
	return 0;
}

/* Aggregated discovery says only "stale" of a group whose API server
 * does not answer: the group's APIService says why, in the server's words
 * (ServiceNotFound, a 503 of its discovery check). */
static int explain_failed_groups(struct session *s)
{
	size_t i;

	for (i = 0; i < s->types.n_failed; i++) {
		struct owners_buf why = OWNERS_BUF_INIT;

		if (strcmp(s->types.failed_reasons[i], "stale") ||
		    !owners_apiservice_reason(s->http, s->types.failed_groups[i], &why)) {
			owners_buf_clear(&why);
			continue;
		}
		free(s->types.failed_reasons[i]);
		s->types.failed_reasons[i] = owners_buf_detach(&why);
		if (!s->types.failed_reasons[i])
			return OWNERS_ENOMEM;
	}
	return 0;
}

static int discover(struct session *s, int refresh)
{
	struct owners_discovery_options o = { NULL, (int64_t)time(NULL), 0, refresh };
	struct owners_discovery_stats stats;
	struct owners_buf dir = OWNERS_BUF_INIT;
	struct owners_resource_table old = s->types;
	int rc;

	if (s->types_loaded && retire(s, &old))
		return owners_error_oom(&s->err);
	o.cache_dir = s->cli->cache_dir ? s->cli->cache_dir : default_cache_dir(&dir);
	owners_resource_table_init(&s->types);
	s->types_loaded = 0;
	rc = owners_discovery_load(&s->types, s->http, s->cfg->server, &o, &stats, &s->err);
	owners_buf_clear(&dir);
	if (!rc) {
		s->types_loaded = 1;
		s->types_fresh = !stats.from_cache;
		rc = explain_failed_groups(s);
		if (!rc)
			rc = resolve_held(s);
	}
	return rc;
}

/* The client options every connection of the run shares: rate limits,
 * timeouts, the request log. Nonzero: the test hook's variable is
 * malformed. */
static int http_options(struct owners_http_options *ho, struct owners_cli *cli)
{
	memset(ho, 0, sizeof(*ho));
	/* Either flag given: that limit, always. Neither: 50/100 until the
	 * server shows API Priority and Fairness (see owners_cli_defaults). */
	ho->qps = cli->qps < 0 ? 50 : cli->qps;
	ho->burst = cli->burst < 0 ? 100 : (int)cli->burst;
	ho->trust_apf = cli->qps < 0 && cli->burst < 0;
	ho->request_timeout_ms = cli->request_timeout_ms;
	ho->max_retries = -1;
	ho->verbosity = (int)cli->verbosity;
	ho->log = log_line;
	ho->notice = retry_notice;
	ho->log_ctx = cli;
	return test_delay_from_env(&ho->test_delay_match, &ho->test_delay_ms);
}

int session_connect(struct session *s, struct owners_cli *cli)
{
	struct owners_kubeconfig_overrides ov;
	struct owners_kubeconfig_env env;
	struct owners_http_options ho;

	memset(s, 0, sizeof(*s));
	s->cli = cli;
	memset(&ov, 0, sizeof(ov));
	ov.kubeconfig = cli->kubeconfig;
	ov.context = cli->context;
	ov.cluster = cli->cluster;
	ov.user = cli->user;
	ov.namespace_ = cli->namespace_;
	ov.server = cli->server;
	ov.token = cli->token;
	ov.certificate_authority = cli->certificate_authority;
	ov.insecure_skip_tls_verify = cli->insecure_skip_tls_verify; /* -1: not given */
	ov.tls_server_name = cli->tls_server_name;
	ov.as = cli->as;
	ov.as_groups = cli->as_groups.items;
	ov.n_as_groups = cli->as_groups.count;
	owners_kubeconfig_env_from_process(&env);
	if (owners_kubeconfig_load(&s->cfg, &ov, &env, &s->err))
		return s->err.code;
	s->namespace_ = s->cfg->namespace_;
	if (http_options(&ho, cli))
		return owners_error_set(&s->err, OWNERS_EINVAL, "invalid OWNERS_TEST_DELAY_REQUESTS '%s': want TEXT=SECONDS",
					getenv("OWNERS_TEST_DELAY_REQUESTS"));
	if (owners_http_client_new(&s->http, s->cfg, &ho, &s->err))
		return s->err.code;
	return 0;
}

int session_client_new(struct session *s, struct owners_http_client **out)
{
	struct owners_http_options ho;

	*out = NULL;
	if (http_options(&ho, s->cli))
		return owners_error_set(&s->err, OWNERS_EINVAL, "invalid OWNERS_TEST_DELAY_REQUESTS");
	return owners_http_client_new(out, s->cfg, &ho, &s->err);
}

enum exit_code session_open(struct session *s, struct owners_cli *cli)
{
	if (session_connect(s, cli) || discover(s, 0))
		return fail(s);
	return 0;
}

enum exit_code session_require_current_types(struct session *s)
{
	/* A type installed or removed since the cache was written changes
	 * what the GC sees: the cache is never trusted here. */
	return session_rediscover(s);
}

enum exit_code session_rediscover(struct session *s)
{
	if (s->types_fresh)
		return 0; /* already current: nothing new to learn */
	if (discover(s, 1))
		return fail(s);
	return 0;
}

enum exit_code session_resolve_type(struct session *s, const char *typed, const struct owners_resource **out)
{
	int rc = owners_type_resolve(out, &s->types, typed, &s->err);

	if (rc == OWNERS_ENOTFOUND && !s->types_fresh) {
		/* The cache may predate a CRD: ask the server once more. */
		owners_error_clear(&s->err);
		if ((rc = session_rediscover(s)))
			return rc;
		rc = owners_type_resolve(out, &s->types, typed, &s->err);
	}
	if (!rc)
		return 0;
	report_error(&s->err);
	/* A type the server does not have is a mistake in the command line. */
	return rc == OWNERS_ENOTFOUND || rc == OWNERS_EAMBIGUOUS ? EXIT_USAGE : EXIT_ERROR;
}

static void drop_notes(struct session *s)
{
	session_warnings_free(s->notes, s->n_notes);
	s->notes = NULL;
	s->n_notes = s->cap_notes = 0;
}

void session_scan_options(const struct session *s, struct owners_scan_options *o)
{
	const char *format = getenv("OWNERS_LIST_FORMAT");

	memset(o, 0, sizeof(*o));
	o->page_size = s->cli->chunk_size > 0 ? (size_t)s->cli->chunk_size : 0;
	/* OWNERS_LIST_FORMAT=json: lists in JSON only (to debug, or to compare). */
	o->json_only = format && !strcmp(format, "json");
	/* Labels cost memory per object: kept for the columns asked for, and
	 * for documents, which carry them as the server has them (as kubectl
	 * get -o json does). */
	o->keep_labels = s->cli->table.show_labels || s->cli->table.label_columns.count ||
			 output_is_document(&s->cli->output);
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

/* Owner types of the second pass: what the GC maps a reference to, in the
 * version owners lists, not tracked, listable, and not listed yet. */
static int collect_owner_types(const struct session *s, struct session_types *t)
{
	const struct owners_graph *g = s->graph;
	uint32_t i, k;
	int rc = 0;

	for (i = 0; !rc && i < g->count; i++) {
		const struct owners_node *n = &g->nodes[i];

		for (k = 0; !rc && !n->virtual_ && k < n->n_refs; k++) {
			const struct owners_resource *r = NULL;

			if (owners_resource_map_ref(g->types, n->refs[k].api_version, n->refs[k].kind, &r) !=
			    OWNERS_REF_MAPPED)
				continue;
			r = owners_graph_lookup_type(g->types, r);
			if (!r->gc_tracked && (r->verbs & OWNERS_VERB_LIST) &&
			    owners_graph_listing_state(g, r, n->namespace_, NULL) == OWNERS_LISTING_NOT_LISTED)
				rc = session_types_add(t, r);
		}
	}
	return rc;
}

/* The second pass's report joins the first's: one set of warnings. */
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
	into->types_listed += from->types_listed;
	into->objects += from->objects;
	into->pages += from->pages;
	into->restarts += from->restarts;
	return 0;
}

static int scan_owner_types(struct session *s, const char *ns)
{
	struct session_types t = { NULL, 0, 0 };
	struct owners_scan_options o;
	struct owners_scan_report rep;
	int rc;

	if ((rc = collect_owner_types(s, &t)) || !t.count) {
		free(t.types);
		return rc ? owners_error_oom(&s->err) : 0;
	}
	session_scan_options(s, &o);
	o.namespace_ = ns;
	o.cluster_scoped = 1;
	o.want = session_types_want;
	o.want_ctx = &t;
	o.extra = t.types;
	o.n_extra = t.count;
	rc = owners_scan_run(s->graph, s->http, &s->types, &o, &rep, &s->err);
	if (!rc && merge_report(&s->scan, &rep))
		rc = owners_error_oom(&s->err);
	owners_scan_report_clear(&rep);
	free(t.types);
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

enum exit_code session_scan(struct session *s, const char *ns)
{
	struct owners_scan_options o;
	size_t i;

	session_scan_options(s, &o);
	o.namespace_ = ns;
	o.cluster_scoped = 1;

	o.want = s->want;
	o.want_ctx = s->want_ctx;
	o.extra = s->extra.types;
	o.n_extra = s->extra.count;
	drop_notes(s);

	if (owners_graph_new(&s->graph, &s->types)) {
		owners_error_oom(&s->err);
		return fail(s);
	}
	if (owners_scan_run(s->graph, s->http, &s->types, &o, &s->scan, &s->err) ||
	    scan_owner_types(s, ns))
		return fail(s);
	if (!s->types_fresh && list_not_found(&s->scan)) {
		/* A type from the discovery cache is no longer served (its CRD
		 * went): learn the server's types again and scan once more. */
		owners_graph_free(s->graph);
		s->graph = NULL;
		owners_scan_report_clear(&s->scan);
		if (s->on_listed && s->on_listed(s->on_listed_ctx, NULL, NULL, NULL))
			return error_oom();
		if (discover(s, 1))
			return fail(s);
		return session_scan(s, ns);
	}
	/* Every type failing is not a partial view, it is no view at all:
	 * most often credentials that work for nothing. */
	if (s->scan.n_failures && !s->scan.types_listed)
		return say_no_view(s);
	for (i = 0; i < s->scan.n_failures; i++)
		if (s->scan.failures[i].code == OWNERS_EAUTH)
			return credentials_rejected(s);
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

/* What both forms of the warnings are made from. */
static void warnings_input(struct owners_scan_warnings_input *in, const struct session *s,
			   const struct owners_scan_report *extra, size_t n_extra)
{
	memset(in, 0, sizeof(*in));
	in->types = &s->types;
	in->scan = &s->scan;
	in->more = extra;
	in->n_more = n_extra;
	in->g = s->graph;
	in->answer_namespaced_only = s->answer_namespaced_only;
	in->name_all = s->cli->verbosity >= 1;
	in->notes = s->notes;
	in->n_notes = s->n_notes;
}

int session_warnings_list(const struct session *s, const struct owners_scan_report *extra, size_t n_extra,
			  struct owners_scan_warning_list *out)
{
	struct owners_scan_warnings_input in;

	warnings_input(&in, s, extra, n_extra);
	return owners_scan_warnings_list(out, &in);
}

int session_warnings(const struct session *s, const struct owners_scan_report *extra,
		     size_t n_extra, char ***out, size_t *n)
{
	struct owners_scan_warnings_input in;

	warnings_input(&in, s, extra, n_extra);
	return owners_scan_warnings(out, n, &in);
}

void session_warnings_free(char **lines, size_t n)
{
	owners_strv_free(lines, n);
}

int session_note(struct session *s, const char *fmt, ...)
{
	struct owners_buf b = OWNERS_BUF_INIT;
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = owners_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	if (!rc)
		rc = owners_strv_push(&s->notes, &s->n_notes, &s->cap_notes, owners_buf_detach(&b));
	owners_buf_clear(&b);
	return rc;
}

void session_warn_scan(const struct session *s)
{
	char **lines;
	size_t n, i;

	if (session_warnings(s, NULL, 0, &lines, &n))
		error_oom();
	for (i = 0; i < n; i++)
		warning_msg("%s", lines[i]);
	session_warnings_free(lines, n);
}

enum exit_code session_say_not_found(const struct owners_selection *sel, int rc)
{
	const char *line = sel->not_found.ptr, *end;

	for (; line && (end = strchr(line, '\n')); line = end + 1)
		error_msg("%.*s", (int)(end - line), line);
	return sel->n_not_found ? EXIT_ERROR : rc;
}

void session_close(struct session *s)
{
	drop_notes(s);
	owners_graph_free(s->graph);
	owners_scan_report_clear(&s->scan);
	free(s->extra.types);
	free(s->args);
	if (s->types_loaded)
		owners_resource_table_clear(&s->types);
	for (size_t i = 0; i < s->n_retired; i++)
		owners_resource_table_clear(&s->retired[i]);
	free(s->retired);
	owners_http_client_free(s->http);
	owners_rest_config_free(s->cfg);
	owners_error_clear(&s->err);
	memset(s, 0, sizeof(*s));
}

/* ---- which objects the arguments name ------------------------------- */

int session_list_type(struct session *s, const struct session_list *l, struct owners_scan_report *report)
{
	struct owners_scan_options o;

	session_scan_options(s, &o);
	o.namespace_ = l->ns;
	o.only = l->type;
	o.label_selector = l->selector;
	o.on_object = l->on_object;
	o.on_object_ctx = l->ctx;
	return owners_scan_run(NULL, s->http, &s->types, &o, report, &s->err);
}

enum exit_code session_resolve_args(struct session *s, const struct owners_object_arg *objs, size_t n,
			 int also_list, struct owners_selection_arg **out)
{
	int rc;

	*out = NULL;
	free(s->args);
	s->args = calloc(n ? n : 1, sizeof(*s->args));
	s->n_args = 0;
	if (!s->args)
		return error_oom();
	s->typed = objs;
	s->n_args = n;
	s->also_list = also_list;
	rc = resolve_held(s);
	if (rc == OWNERS_ENOTFOUND && !s->types_fresh) {
		/* The cache may predate a CRD: ask the server once more (which
		 * resolves them all again). */
		owners_error_clear(&s->err);
		rc = discover(s, 1);
	}
	if (rc) {
		report_error(&s->err);
		/* A type the server does not have is a mistake in the command line. */
		return rc == OWNERS_ENOTFOUND || rc == OWNERS_EAMBIGUOUS ? EXIT_USAGE : EXIT_ERROR;
	}
	*out = s->args;
	return 0;
}

/* Appends an argument: type "resource.group" (the core group's:
 * "resource"), name copied. */
static int push_arg(struct owners_object_arg **v, size_t *n, size_t *cap, const struct owners_resource *r,
		    const char *type, const char *name)
{
	struct owners_buf b = OWNERS_BUF_INIT;
	int rc;

	if (OWNERS_GROW(*v, *cap, *n + 1))
		return OWNERS_ENOMEM;
	rc = r ? owners_buf_addf(&b, "%s%s%s", r->resource, *r->group ? "." : "", r->group) : owners_buf_adds(&b, type);
	(*v)[*n].type = owners_buf_detach(&b);
	(*v)[*n].name = name ? owners_strdup(name) : NULL;
	owners_buf_clear(&b);
	if (rc || !(*v)[*n].type || (name && !(*v)[*n].name)) {
		free((*v)[*n].type);
		free((*v)[*n].name);
		return OWNERS_ENOMEM;
	}
	(*n)++;
	return 0;
}

enum exit_code session_expand_categories(struct session *s, struct owners_object_arg **objs, size_t *n)
{
	struct owners_object_arg *out = NULL;
	size_t n_out = 0, cap = 0, i, k;
	int rc = 0, any = 0;

	for (i = 0; !rc && i < *n; i++) {
		const struct owners_object_arg *a = &(*objs)[i];
		const struct owners_resource **types = NULL;
		struct owners_error err = OWNERS_ERROR_INIT;
		size_t n_types = 0;
		int category = 0;

		/* A mistake here is session_resolve_args()'s to say (after a
		 * refreshed discovery, perhaps). */
		if (owners_type_expand(&types, &n_types, &category, &s->types, a->type, &err) == OWNERS_ENOMEM)
			rc = OWNERS_ENOMEM;
		owners_error_clear(&err);
		if (!rc && category && a->name) {
			free(types);
			owners_object_args_free(out, n_out);
			return usage_error("cannot name '%s/%s': '%s' is a category of types, not a type",
					   a->type, a->name, a->type);
		}
		any |= category;
		for (k = 0; !rc && k < (category ? n_types : 1); k++)
			rc = push_arg(&out, &n_out, &cap, category ? types[k] : NULL, a->type, a->name);
		free(types);
	}
	if (rc || !any) {
		owners_object_args_free(out, n_out);
		return rc ? error_oom() : EXIT_OK;
	}
	owners_object_args_free(*objs, *n);
	*objs = out;
	*n = n_out;
	return EXIT_OK;
}

struct label_match {
	struct session *s;
	unsigned char *marks;
};

static int on_matched(void *ctx, const struct owners_resource *r, const struct owners_object_meta *m)
{
	struct label_match *lm = ctx;
	uint32_t node = owners_graph_find_uid(lm->s->graph, m->uid);

	(void)r;
	/* Created after the scan: not in the graph, so nothing to show. */
	if (node != OWNERS_NO_NODE)
		lm->marks[node] = 1;
	return 0;
}

/* -l: the server selects (one paged list of the type with the selector,
 * as the scan lists), the graph has the objects. */
static int match_labels(void *ctx, unsigned char *marks, const struct owners_selection_target *t,
			struct owners_error *err)
{
	struct label_match lm = { ctx, marks };
	struct owners_scan_report report;
	int rc;

	const struct session_list l = { t->type, t->namespace_ && *t->namespace_ ? t->namespace_ : NULL,
					lm.s->cli->selector, on_matched, &lm };

	rc = session_list_type(lm.s, &l, &report);
	if (rc)
		rc = owners_error_set(err, rc, "%s", owners_error_message(&lm.s->err));
	else if (report.n_failures)
		rc = owners_error_set(err, report.failures[0].code, "%s (-l %s)", report.failures[0].message,
				      lm.s->cli->selector);
	owners_scan_report_clear(&report);
	return rc;
}

static void scope_of(struct owners_selection_scope *scope, const struct session *s,
		     const struct session_selection *how)
{
	memset(scope, 0, sizeof(*scope));
	scope->namespace_ = s->namespace_;
	scope->all_namespaces = s->cli->all_namespaces;
	scope->selector = s->cli->selector;
	if (how) {
		scope->everything_when_none = how->everything_when_none;
		scope->everything_flags = how->everything_flags;
	}
}

enum exit_code session_targets(struct session *s, const struct owners_selection_arg *args, size_t n,
		    struct owners_selection_target **out, size_t *n_out)
{
	struct owners_selection_scope scope;
	struct owners_error err = OWNERS_ERROR_INIT;
	int rc;

	scope_of(&scope, s, NULL);
	if ((rc = owners_selection_targets(out, n_out, args, n, &scope, &err)))
		rc = report_error(&err);
	owners_error_clear(&err);
	return rc;
}

enum exit_code session_select(struct session *s, const struct owners_selection_arg *args, size_t n,
		   const struct session_selection *how, struct owners_selection *out)
{
	struct owners_selection_scope scope;
	const struct owners_selection_options o = {
		.missing = how->missing,
		.absent_owners = how->absent_owners,
		.match = s->cli->selector ? match_labels : NULL,
		.match_ctx = s,
	};
	struct owners_selection_target *targets = NULL;
	struct owners_error err = OWNERS_ERROR_INIT;
	size_t n_targets = 0;
	int rc;

	scope_of(&scope, s, how);
	if (!(rc = owners_selection_targets(&targets, &n_targets, args, n, &scope, &err)))
		rc = owners_selection_find(out, s->graph, targets, n_targets, &o, &err);
	owners_selection_targets_free(targets);
	if (rc)
		rc = report_error(&err);
	owners_error_clear(&err);
	return rc;
}

enum exit_code session_select_nodes(struct session *s, const struct owners_selection_arg *args, size_t n,
				    const struct session_selection *how, uint32_t **out, size_t *n_out)
{
	struct owners_selection sel = OWNERS_SELECTION_INIT;
	int rc;

	*out = NULL;
	*n_out = 0;
	if (!(rc = session_select(s, args, n, how, &sel)) &&
	    owners_graph_marked(out, n_out, s->graph, sel.picked, how->deleted_only))
		rc = error_oom();
	owners_selection_clear(&sel);
	return rc;
}

/* A namespaced run: the owners that read absent are looked for in every
 * namespace, only for their types (one list each, metadata only), so that
 * an owner living elsewhere reads invalid-namespace, as the GC, which sees
 * every namespace, reports it. A list that fails leaves them absent, and a
 * note among the scan's warnings says why. */
enum exit_code session_look_across_namespaces(struct session *s, const uint32_t *nodes, size_t n)
{
	struct owners_scan_options o;
	struct owners_scan_report across;
	struct session_types set = { NULL, 0, 0 };
	size_t i;
	int rc;

	if (owners_dangling_absent_owner_types(s->graph, nodes, n, &set.types, &set.count)) {
		return error_oom();
	}
	if (!set.count)
		return 0;
	session_scan_options(s, &o);
	o.want = session_types_want;
	o.want_ctx = &set;
	rc = owners_scan_run(s->graph, s->http, &s->types, &o, &across, &s->err) ? report_error(&s->err)
										 : 0;
	for (i = 0; !rc && i < across.n_failures; i++)
		if (session_note(s, "%s: owners of that type in other namespaces could not be looked "
				 "for, so references to them read absent (the garbage collector may "
				 "call them invalid-namespace)", across.failures[i].message)) {
			rc = error_oom();
		}
	owners_scan_report_clear(&across);
	free(set.types);
	return rc;
}

enum exit_code session_check_access(struct session *s, struct owners_access_check *checks, uint32_t *examples,
				    size_t n, const char *needed_by)
{
	struct owners_error err = OWNERS_ERROR_INIT;
	size_t i, denied = 0;
	int rc = EXIT_OK;

	/* A review that cannot be made is no verdict: each request is still
	 * authorized on its own, and a 403 then leaves that object in place. */
	if (owners_access_check_all(s->http, checks, n, &err)) {
		rc = report_error(&err);
		owners_error_clear(&err);
	}
	for (i = 0; rc == EXIT_OK && i < n; i++) {
		const struct owners_access_check *c = &checks[i];
		struct owners_buf name = OWNERS_BUF_INIT;

		if (c->verdict != OWNERS_ACCESS_DENIED)
			continue;
		denied++;
		owners_graph_node_name(&name, &s->graph->nodes[examples[i]]);
		error_msg("cannot %s %s: forbidden: no %s permission on %s%s%s%s%s%s%s%s (asked before any change)",
			  c->verb, name.ptr ? name.ptr : c->resource, c->verb, c->resource, *c->group ? "." : "",
			  c->group, c->subresource ? "/" : "", c->subresource ? c->subresource : "",
			  *c->namespace_ ? " in namespace '" : "", c->namespace_,
			  *c->namespace_ ? "'" : "");
		owners_buf_clear(&name);
	}
	owners_access_checks_clear(checks, n);
	free(checks);
	free(examples);
	if (denied) {
		error_msg("nothing was deleted or changed: %s needs %s", needed_by,
			  denied == 1 ? "that permission" : "those permissions");
		return EXIT_INCOMPLETE;
	}
	return rc;
}
