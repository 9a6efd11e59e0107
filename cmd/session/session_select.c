#include "session_select.h"
#include "session_state.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "graph_mark.h"
#include "grow.h"
#include "options.h"
#include "session_discover.h"
#include "session_scan.h"
#include "session_snapshot.h"
#include "type_resolve.h"

/* Resolves the arguments the session holds (as typed) against the
 * current types: the first time, and again after every refresh, so that
 * nothing held points into a table replaced. A type the server does not
 * have is an error (owners_type_resolve()'s). 0, or the error code with
 * s->err set. */
int session_resolve_held(struct session *s)
{
	size_t i;
	int rc;

	s->extra.count = 0;
	for (i = 0; i < s->n_args; i++) {
		const struct owners_resource *r;

		if ((rc = owners_type_resolve(&r, &s->types, s->typed[i].type, &s->err))) {
			if (s->snap && rc == OWNERS_ENOTFOUND)
				session_snapshot_unknown_type(s, s->typed[i].type);
			return rc;
		}
		if (s->also_list && session_also_list(s, r))
			return owners_error_oom(&s->err);
		s->args[i].type = session_listed_type(s, r);
		s->args[i].name = s->typed[i].name;
	}
	return 0;
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
	rc = session_resolve_held(s);
	if (rc == OWNERS_ENOTFOUND && !s->types_fresh) {
		/* The cache may predate a CRD: ask the server once more (which
		 * resolves them all again). */
		owners_error_clear(&s->err);
		rc = session_discover(s, 1);
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
	scope->names_in_namespace = s->names_in_namespace;
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
	enum exit_code rc = EXIT_OK;

	scope_of(&scope, s, NULL);
	if (owners_selection_targets(out, n_out, args, n, &scope, &err))
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
		.found_is_enough = s->snap != NULL,
		.match = s->cli->selector ? match_labels : NULL,
		.match_ctx = s,
	};
	struct owners_selection_target *targets = NULL;
	struct owners_error err = OWNERS_ERROR_INIT;
	size_t n_targets = 0;
	enum exit_code rc = EXIT_OK;
	int failed;

	scope_of(&scope, s, how);
	if (!(failed = owners_selection_targets(&targets, &n_targets, args, n, &scope, &err)))
		failed = owners_selection_find(out, s->graph, targets, n_targets, &o, &err);
	owners_selection_targets_free(targets);
	if (failed)
		rc = report_error(&err);
	owners_error_clear(&err);
	return rc;
}

enum exit_code session_select_nodes(struct session *s, const struct owners_selection_arg *args, size_t n,
				    const struct session_selection *how, uint32_t **out, size_t *n_out)
{
	struct owners_selection sel = OWNERS_SELECTION_INIT;
	enum exit_code rc;

	*out = NULL;
	*n_out = 0;
	if (!(rc = session_select(s, args, n, how, &sel)) &&
	    owners_graph_mark_list(out, n_out, s->graph, sel.picked, how->deleted_only))
		rc = error_oom();
	owners_selection_clear(&sel);
	return rc;
}

enum exit_code session_say_not_found(const struct owners_selection *sel, int rc)
{
	const char *line = sel->not_found.ptr, *end;

	for (; line && (end = strchr(line, '\n')); line = end + 1)
		error_msg("%.*s", (int)(end - line), line);
	return sel->n_not_found ? EXIT_ERROR : rc;
}
