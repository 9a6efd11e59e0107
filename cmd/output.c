#include "output.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "yaml_emit.h"

static int use_color;

static void vmsg(const char *prefix, const char *fmt, va_list ap)
{
	/* One write per message so parallel output never interleaves mid-line. */
	char line[4096];
	int n = snprintf(line, sizeof(line), "%s", prefix);

	if (n > 0 && (size_t)n < sizeof(line))
		vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	fprintf(stderr, "%s\n", line);
}

void error_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("error: ", fmt, ap);
	va_end(ap);
}

int usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("error: ", fmt, ap);
	va_end(ap);
	return EXIT_USAGE;
}

void warning_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("warning: ", fmt, ap);
	va_end(ap);
}

int error_oom(void)
{
	error_msg("out of memory");
	return EXIT_ERROR;
}

void die_out_of_memory(void)
{
	int rc;

	fflush(stdout);
	rc = error_oom();
	/* _exit: nothing else may allocate now, and a leak check at exit
	 * would report the half-done work as leaks. */
	_exit(rc);
}

int exit_code_for(int code)
{
	if (code == OWNERS_EINVAL || code == OWNERS_EAMBIGUOUS)
		return EXIT_USAGE;
	if (code == OWNERS_ETIMEOUT)
		return EXIT_TIMEOUT;
	return code ? EXIT_ERROR : EXIT_OK;
}

int report_error(const struct owners_error *err)
{
	fprintf(stderr, "error: %s\n", owners_error_message(err));
	return exit_code_for(err->code);
}

void output_set_color(const char *mode)
{
	const char *no_color = getenv("NO_COLOR");

	if (mode && !strcmp(mode, "always"))
		use_color = 1;
	else if (mode && !strcmp(mode, "never"))
		use_color = 0;
	else /* auto: https://no-color.org says any non-empty NO_COLOR disables */
		use_color = isatty(STDOUT_FILENO) && !(no_color && *no_color);
}

int output_color(void)
{
	return use_color;
}

const char *color_start(const char *code)
{
	return use_color ? code : "";
}

const char *color_end(void)
{
	return use_color ? "\033[0m" : "";
}

int output_document(const struct owners_buf *json, int yaml)
{
	struct owners_buf yaml_doc = OWNERS_BUF_INIT;
	struct owners_error err = OWNERS_ERROR_INIT;
	const struct owners_buf *doc = json;
	int rc = EXIT_OK;

	if (yaml) {
		if (owners_yaml_from_json(&yaml_doc, json->ptr, json->len, &err)) {
			rc = report_error(&err);
			goto out;
		}
		doc = &yaml_doc;
	}
	fwrite(doc->ptr, 1, doc->len, stdout);
	if (fflush(stdout)) {
		error_msg("cannot write the output");
		rc = EXIT_ERROR;
	}
out:
	owners_error_clear(&err);
	owners_buf_release(&yaml_doc);
	return rc;
}
