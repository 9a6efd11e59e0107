/* Standard output, one way out, and its closing check (sink.h). */
#include "sink.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "jsonpath.h"
#include "output_format.h"
#include "yaml_emit.h"

/* A write or flush that failed: said at once, the first time (the
 * stream's own error indicator, set by stdio on the failure, says
 * whether one failed before), so that nothing here keeps state of its
 * own. was_failed: the indicator before the write. -1. */
static int failed(int was_failed)
{
	int why = errno ? errno : EIO;

	if (!was_failed)
		error_msg("write error on standard output: %s", strerror(why));
	return -1;
}

int sink_write(const char *p, size_t n)
{
	int was_failed = ferror(stdout);

	errno = 0;
	if (n && fwrite(p, 1, n, stdout) != n)
		return failed(was_failed);
	return 0;
}

int sink_buf(const struct owners_buf *b)
{
	return sink_write(b->ptr ? b->ptr : "", b->len);
}

int sink_puts(const char *s)
{
	return sink_write(s, strlen(s));
}

int sink_printf(const char *fmt, ...)
{
	va_list ap;
	int n, was_failed = ferror(stdout);

	errno = 0;
	va_start(ap, fmt);
	n = vfprintf(stdout, fmt, ap);
	va_end(ap);
	return n < 0 ? failed(was_failed) : 0;
}

int sink_flush(void)
{
	int was_failed = ferror(stdout);

	errno = 0;
	return fflush(stdout) ? failed(was_failed) : 0;
}

enum exit_code sink_flush_checked(void)
{
	sink_flush();
	return ferror(stdout) ? EXIT_ERROR : EXIT_OK;
}

enum exit_code sink_close(enum exit_code rc)
{
	/* flushed and checked, not closed: the terminal view's restore
	 * (screen.c, at exit) still writes to the descriptor */
	sink_flush();
	if (!ferror(stdout))
		return rc;
	return rc ? rc : EXIT_ERROR;
}

enum exit_code output_template(const struct owners_buf *json, const struct output_format *f, const char *nested,
			       int no_headers)
{
	struct owners_json_value *doc = NULL;
	struct owners_error err = OWNERS_ERROR_INIT;
	struct owners_buf out = OWNERS_BUF_INIT;
	enum exit_code rc;
	int printed;

	printed = owners_json_parse(&doc, json->ptr ? json->ptr : "", json->len, &err);
	if (!printed && f->kind == OUTPUT_JSONPATH)
		printed = owners_jsonpath_print(&out, f->template_, doc, f->allow_missing_keys, &err);
	else if (!printed)
		printed = owners_custom_columns_print(&out, f->template_, doc, nested, no_headers, &err);
	/* kubectl ends a jsonpath with no newline of its own: nor does this */
	if (!printed) {
		sink_buf(&out);
		rc = sink_flush_checked();
	} else {
		/* a template that does not parse is a usage error; one that
		 * names what no item has fails as kubectl's does (exit 1) */
		rc = printed == OWNERS_ENOMEM	   ? error_oom()
		     : printed == OWNERS_ENOTFOUND ? (report_error(&err), EXIT_ERROR)
						   : (report_error(&err), EXIT_USAGE);
	}
	owners_json_value_free(doc);
	owners_error_clear(&err);
	owners_buf_clear(&out);
	return rc;
}

enum exit_code output_document(const struct owners_buf *json, int yaml)
{
	struct owners_buf yaml_doc = OWNERS_BUF_INIT;
	struct owners_error err = OWNERS_ERROR_INIT;
	const struct owners_buf *doc = json;
	enum exit_code rc = EXIT_OK;

	if (yaml) {
		if (owners_yaml_from_json(&yaml_doc, json->ptr, json->len, &err)) {
			rc = report_error(&err);
			goto out;
		}
		doc = &yaml_doc;
	}
	sink_buf(doc);
	rc = sink_flush_checked();
out:
	owners_error_clear(&err);
	owners_buf_clear(&yaml_doc);
	return rc;
}
