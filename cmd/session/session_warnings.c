#include "session_warnings.h"
#include "session_state.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "api_path.h"
#include "buf.h"
#include "graph.h"
#include "output.h"
#include "options.h"
#include "strv.h"

void session_notes_drop(struct session *s)
{
	session_warnings_free(s->notes, s->n_notes);
	s->notes = NULL;
	s->n_notes = s->cap_notes = 0;
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

static int by_text(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

size_t session_unseen_types(const struct session *s, struct owners_buf *names)
{
	char **v = NULL;
	size_t i, j, n = 0;
	int rc = 0;

	if (!s->graph || !s->scan.n_failures)
		return 0;
	if (!(v = calloc(s->scan.n_failures, sizeof(*v))))
		return (size_t)-1;
	for (i = 0; !rc && i < s->scan.n_failures; i++) {
		const struct owners_resource *r = s->scan.failures[i].resource;
		struct owners_buf name = OWNERS_BUF_INIT;

		if (!r || !owners_graph_type_can_hold_answer(s->graph, r, s->answer_namespaced_only))
			continue;
		/* each type once, however many namespaces it failed in */
		for (j = 0; j < i && s->scan.failures[j].resource != r; j++)
			;
		if (j < i)
			continue;
		if ((rc = owners_api_type_name(&name, r)))
			owners_buf_clear(&name);
		else
			v[n++] = owners_buf_detach(&name);
	}
	/* by name: the failures come in the order the lists failed in */
	qsort(v, n, sizeof(*v), by_text);
	for (i = 0; !rc && i < n; i++)
		rc = (i && owners_buf_adds(names, ", ")) || owners_buf_adds(names, v[i]);
	owners_strv_free(v, n);
	return rc ? (size_t)-1 : n;
}

enum exit_code session_incomplete_unless_seen(const struct session *s, const char *what, enum exit_code rc)
{
	struct owners_buf names = OWNERS_BUF_INIT;
	size_t n;

	if (rc != EXIT_OK)
		return rc;
	n = session_unseen_types(s, &names);
	if (n == (size_t)-1) {
		owners_buf_clear(&names);
		return error_oom();
	}
	if (n)
		error_msg("%s is incomplete: %zu type%s that can hold part of it could not be listed (%s); "
			  "what they hold was not seen, and nothing was done to it",
			  what, n, n == 1 ? "" : "s", names.ptr);
	owners_buf_clear(&names);
	return n ? EXIT_INCOMPLETE : rc;
}
