/*
 * The scan's warnings, worded (see scan_warnings.h).
 */
#include <stdlib.h>
#include <string.h>

#include "api_path.h"
#include "buf.h"
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
