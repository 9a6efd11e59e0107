/*
 * The scan's warnings, worded (see scan_warnings.h).
 */
#include <stdlib.h>
#include <string.h>

#include "api_path.h"
#include "buf.h"
#include "grow.h"
#include "owners_error.h"
#include "scan_warnings.h"
#include "strv.h"

/* The lines being made, and the forbidden types sorted into those that
 * can hold part of the answer and the rest. */
struct lines {
	char **out, **matter, **rest;
	size_t n, n_matter, n_rest, cap, cap_matter, cap_rest;
	const struct owners_scan_failure *first_matter;
	struct owners_buf b;
};

/* Moves the buffer's text to the end of v (the buffer is left empty). */
static int push(char ***v, size_t *n, size_t *cap, struct owners_buf *b)
{
	return owners_strv_push(v, n, cap, owners_buf_detach(b));
}

static int by_string(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The forbidden types as one line (a limited user is forbidden dozens:
 * not a wall of lines), in name order (the lists finish in any order, the
 * line must not); beyond `shown` names, a count (-v=1 names them all). */
static int forbidden_line(struct owners_buf *b, char **names, size_t n, const char *what, size_t shown)
{
	size_t i;
	int rc;

	qsort(names, n, sizeof(*names), by_string);
	rc = owners_buf_addf(b, "cannot list %zu %s: forbidden: ", n, what);
	for (i = 0; !rc && i < n && i < shown; i++)
		rc = owners_buf_addf(b, "%s%s", i ? ", " : "", names[i]);
	if (!rc && n > shown)
		rc = owners_buf_addf(b, " and %zu more (-v=1 names them all)", n - shown);
	return rc;
}

/* A list that waited out unanswered requests, worded into b: the answer
 * spans that time, which the reader should know. */
static int wait_words(struct owners_buf *b, const struct owners_scan_wait *w)
{
	struct owners_buf type = OWNERS_BUF_INIT;
	int rc = owners_api_type_name(&type, w->resource);

	if (!rc)
		rc = owners_buf_addf(b, "listing '%s'", type.ptr);
	if (!rc && w->resource->namespaced && w->namespace_)
		rc = owners_buf_addf(b, " in namespace '%s'", w->namespace_);
	if (!rc)
		rc = owners_buf_addf(b, " waited out a timeout: %d request%s went unanswered for %.1f s and %s sent again; "
				     "the list took %.1f s",
				     w->unanswered, w->unanswered == 1 ? "" : "s", (double)w->waited_ms / 1000,
				     w->unanswered == 1 ? "was" : "were", (double)w->took_ms / 1000);
	owners_buf_clear(&type);
	return rc;
}

/* Every report's waits, one line each. */
static int wait_lines(struct lines *l, const struct owners_scan_warnings_input *in)
{
	size_t i, k;
	int rc = 0;

	for (k = 0; !rc && k <= in->n_more; k++) {
		const struct owners_scan_report *rep = k ? &in->more[k - 1] : in->scan;

		for (i = 0; !rc && rep && i < rep->n_waits; i++)
			if (!(rc = wait_words(&l->b, &rep->waits[i])))
				rc = push(&l->out, &l->n, &l->cap, &l->b);
	}
	return rc;
}

/* One report's failures: each that is not a refusal on a line of its own,
 * the refused types sorted. */
static int sort_failures(struct lines *l, const struct owners_scan_warnings_input *in,
			 const struct owners_scan_report *rep)
{
	size_t i;
	int rc = 0;

	for (i = 0; !rc && i < rep->n_failures; i++) {
		const struct owners_scan_failure *f = &rep->failures[i];
		int matters;

		if (f->code != OWNERS_EFORBIDDEN) {
			if (!(rc = owners_buf_addf(&l->b, "%s (ownership through it is unknown)", f->message)))
				rc = push(&l->out, &l->n, &l->cap, &l->b);
			continue;
		}
		matters = !in->g || owners_graph_type_can_hold_answer(in->g, f->resource, in->answer_namespaced_only);
		if (matters && !l->first_matter)
			l->first_matter = f;
		if (!(rc = owners_api_type_name(&l->b, f->resource)))
			rc = matters ? push(&l->matter, &l->n_matter, &l->cap_matter, &l->b)
				     : push(&l->rest, &l->n_rest, &l->cap_rest, &l->b);
	}
	return rc;
}

/* The forbidden types: those that matter named (one alone in the
 * server's words), the rest counted (named under -v=1). */
static int forbidden_lines(struct lines *l, const struct owners_scan_warnings_input *in)
{
	int rc = 0;

	if (l->n_matter == 1)
		rc = owners_buf_addf(&l->b, "%s (ownership through it is unknown)", l->first_matter->message);
	else if (l->n_matter)
		rc = forbidden_line(&l->b, l->matter, l->n_matter,
				    l->n_rest ? "types that can hold part of the answer (ownership through them is unknown)"
					      : "types (ownership through them is unknown)",
				    in->name_all ? l->n_matter : OWNERS_FORBIDDEN_NAMED);
	if (!rc && l->n_matter)
		rc = push(&l->out, &l->n, &l->cap, &l->b);
	/* The rest cannot change the answer: counted, named under -v. */
	if (!rc && l->n_rest && in->name_all)
		rc = forbidden_line(&l->b, l->rest, l->n_rest,
				    l->n_matter ? "more types that cannot hold part of the answer"
						: "types that cannot hold part of the answer",
				    l->n_rest);
	else if (!rc && l->n_rest)
		rc = owners_buf_addf(&l->b, "%zu %stype%s forbidden to you cannot hold part of the answer (-v=1 names %s)",
				     l->n_rest, l->n_matter ? "more " : "", l->n_rest == 1 ? "" : "s",
				     l->n_rest == 1 ? "it" : "them");
	if (!rc && l->n_rest)
		rc = push(&l->out, &l->n, &l->cap, &l->b);
	return rc;
}

int owners_scan_warnings(char ***out, size_t *n, const struct owners_scan_warnings_input *in)
{
	struct lines l;
	size_t i;
	int rc = 0;

	memset(&l, 0, sizeof(l));
	owners_buf_init(&l.b);
	for (i = 0; !rc && in->types && i < in->types->n_failed; i++)
		if (!(rc = owners_buf_addf(&l.b, "discovery of '%s' failed: %s (its types are unknown)",
					   in->types->failed_groups[i], in->types->failed_reasons[i])))
			rc = push(&l.out, &l.n, &l.cap, &l.b);
	if (!rc && in->scan)
		rc = sort_failures(&l, in, in->scan);
	for (i = 0; !rc && i < in->n_more; i++)
		rc = sort_failures(&l, in, &in->more[i]);
	if (!rc)
		rc = forbidden_lines(&l, in);
	if (!rc)
		rc = wait_lines(&l, in);
	for (i = 0; !rc && i < in->n_notes; i++)
		rc = owners_strv_push(&l.out, &l.n, &l.cap, owners_strdup(in->notes[i]));
	owners_strv_free(l.matter, l.n_matter);
	owners_strv_free(l.rest, l.n_rest);
	owners_buf_clear(&l.b);
	if (rc) {
		owners_strv_free(l.out, l.n);
		l.out = NULL;
		l.n = 0;
	}
	*out = l.out;
	*n = l.n;
	return rc;
}

/* ---- the structured form ---------------------------------------------- */

const char *owners_scan_warning_reason_name(enum owners_scan_warning_reason r)
{
	switch (r) {
	case OWNERS_SCAN_WARNING_DISCOVERY_FAILED:
		return "DiscoveryFailed";
	case OWNERS_SCAN_WARNING_FORBIDDEN:
		return "Forbidden";
	case OWNERS_SCAN_WARNING_LIST_FAILED:
		return "ListFailed";
	case OWNERS_SCAN_WARNING_NOTE:
		break;
	}
	return "Note";
}

static void warning_clear(struct owners_scan_warning *w)
{
	free(w->group);
	free(w->version);
	free(w->resource);
	free(w->message);
}

void owners_scan_warnings_list_free(struct owners_scan_warning_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		warning_clear(&l->items[i]);
	free(l->items);
	memset(l, 0, sizeof(*l));
}

/* Appends a warning; the strings are copied (NULL stays NULL). */
/* Appends a copy of what (its strings borrowed, copied here). */
static int add_warning(struct owners_scan_warning_list *l, const struct owners_scan_warning *what)
{
	struct owners_scan_warning *w;

	if (OWNERS_GROW(l->items, l->cap, l->n + 1))
		return OWNERS_ENOMEM;
	w = &l->items[l->n];
	memset(w, 0, sizeof(*w));
	w->reason = what->reason;
	w->can_hold_answer = what->can_hold_answer;
	if ((what->group && !(w->group = owners_strdup(what->group))) ||
	    (what->version && !(w->version = owners_strdup(what->version))) ||
	    (what->resource && !(w->resource = owners_strdup(what->resource))) ||
	    (what->message && !(w->message = owners_strdup(what->message)))) {
		warning_clear(w);
		return OWNERS_ENOMEM;
	}
	l->n++;
	return 0;
}

/* A failed discovery: "group/version" ("v1" alone for the core group). */
static int add_discovery(struct owners_scan_warning_list *l, const char *gv, const char *reason)
{
	struct owners_buf msg = OWNERS_BUF_INIT;
	const char *slash = strrchr(gv, '/');
	char *group = owners_strndup(gv, slash ? (size_t)(slash - gv) : 0);
	int rc = group ? owners_buf_addf(&msg, "discovery of '%s' failed: %s (its types are unknown)", gv, reason)
		       : OWNERS_ENOMEM;

	if (!rc)
		rc = add_warning(l, &(const struct owners_scan_warning){
			OWNERS_SCAN_WARNING_DISCOVERY_FAILED, group, (char *)(slash ? slash + 1 : gv), NULL, 1, msg.ptr });
	free(group);
	owners_buf_clear(&msg);
	return rc;
}

/* Forbidden types: those that can hold part of the answer first, then by
 * group and resource (the lists finish in any order, a document must
 * not). */
static int by_answer_type(const void *a, const void *b)
{
	const struct owners_scan_warning *x = a, *y = b;
	int c;

	if (x->can_hold_answer != y->can_hold_answer)
		return y->can_hold_answer - x->can_hold_answer;
	if ((c = strcmp(x->group, y->group)) || (c = strcmp(x->resource, y->resource)))
		return c;
	/* one type refused in several lists: the one kept named by rule */
	if ((c = strcmp(x->version ? x->version : "", y->version ? y->version : "")))
		return c;
	return strcmp(x->message ? x->message : "", y->message ? y->message : "");
}

/* One report's failures: each that is not a refusal into l in order, the
 * refusals into forbidden. */
static int list_failures(struct owners_scan_warning_list *l, struct owners_scan_warning_list *forbidden,
			 const struct owners_scan_warnings_input *in, const struct owners_scan_report *rep)
{
	struct owners_buf msg = OWNERS_BUF_INIT;
	size_t i;
	int rc = 0;

	for (i = 0; !rc && i < rep->n_failures; i++) {
		const struct owners_scan_failure *f = &rep->failures[i];
		const struct owners_resource *r = f->resource;

		owners_buf_reset(&msg);
		if (f->code != OWNERS_EFORBIDDEN) {
			if (!(rc = owners_buf_addf(&msg, "%s (ownership through it is unknown)", f->message)))
				rc = add_warning(l, &(const struct owners_scan_warning){
					OWNERS_SCAN_WARNING_LIST_FAILED, r->group, r->version, r->resource, 1, msg.ptr });
			continue;
		}
		rc = add_warning(forbidden, &(const struct owners_scan_warning){
			OWNERS_SCAN_WARNING_FORBIDDEN, r->group, r->version, r->resource,
			!in->g || owners_graph_type_can_hold_answer(in->g, r, in->answer_namespaced_only), f->message });
	}
	owners_buf_clear(&msg);
	return rc;
}

int owners_scan_warnings_list(struct owners_scan_warning_list *out, const struct owners_scan_warnings_input *in)
{
	struct owners_scan_warning_list forbidden;
	struct lines waits;
	size_t i;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	memset(&forbidden, 0, sizeof(forbidden));
	for (i = 0; !rc && in->types && i < in->types->n_failed; i++)
		rc = add_discovery(out, in->types->failed_groups[i], in->types->failed_reasons[i]);
	if (!rc && in->scan)
		rc = list_failures(out, &forbidden, in, in->scan);
	for (i = 0; !rc && i < in->n_more; i++)
		rc = list_failures(out, &forbidden, in, &in->more[i]);
	if (!rc && forbidden.n)
		qsort(forbidden.items, forbidden.n, sizeof(*forbidden.items), by_answer_type);
	/* moved, not copied; a type refused in several lists once */
	for (i = 0; !rc && i < forbidden.n; i++) {
		struct owners_scan_warning *w = &forbidden.items[i];

		if (out->n && out->items[out->n - 1].reason == OWNERS_SCAN_WARNING_FORBIDDEN &&
		    !strcmp(out->items[out->n - 1].group, w->group) &&
		    !strcmp(out->items[out->n - 1].resource, w->resource))
			continue;
		if (OWNERS_GROW(out->items, out->cap, out->n + 1)) {
			rc = OWNERS_ENOMEM;
			break;
		}
		out->items[out->n++] = *w;
		memset(w, 0, sizeof(*w));
	}
	/* the waits, worded as the lines word them, each a note */
	memset(&waits, 0, sizeof(waits));
	if (!rc)
		rc = wait_lines(&waits, in);
	for (i = 0; !rc && i < waits.n; i++)
		rc = add_warning(out, &(const struct owners_scan_warning){
			OWNERS_SCAN_WARNING_NOTE, NULL, NULL, NULL, 1, waits.out[i] });
	owners_strv_free(waits.out, waits.n);
	owners_buf_clear(&waits.b);
	for (i = 0; !rc && i < in->n_notes; i++)
		rc = add_warning(out, &(const struct owners_scan_warning){
			OWNERS_SCAN_WARNING_NOTE, NULL, NULL, NULL, 1, in->notes[i] });
	owners_scan_warnings_list_free(&forbidden);
	if (rc)
		owners_scan_warnings_list_free(out);
	return rc;
}
