#include "session_warnings.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
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
