#include "output.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "command_line.h"
#include "output_format.h"

/* Whether the file name of argv0 (the part after its last '/') is name. */
static int invoked_as(const char *argv0, const char *name)
{
	const char *base = argv0 ? strrchr(argv0, '/') : NULL;

	base = base ? base + 1 : argv0;
	return base && !strcmp(base, name);
}

const char *output_program_of(const char *argv0)
{
	/* kubectl runs the plugin binary kubectl-owners for `kubectl owners`,
	 * and its completion helper for `kubectl owners <TAB>` */
	if (invoked_as(argv0, "kubectl-owners") || invoked_as(argv0, "kubectl_complete-owners"))
		return "kubectl owners";
	return OWNERS_PROGRAM;
}

int output_is_completion_helper(const char *argv0)
{
	return invoked_as(argv0, "kubectl_complete-owners");
}

/* Set on a thread whose messages wait for the main thread to print them
 * (output_defer_messages()). */
static _Thread_local struct owners_buf *deferred;

void output_defer_messages(struct owners_buf *into)
{
	deferred = into;
}

/* One message line to stderr, or kept for later on a deferring thread. */
static void say(const char *line)
{
	if (deferred) {
		/* out of memory: the line is lost, as a write to stderr may be */
		if (!owners_buf_adds(deferred, line))
			owners_buf_addc(deferred, '\n');
		return;
	}
	fprintf(stderr, "%s\n", line);
}

static void vmsg(const char *prefix, const char *fmt, va_list ap)
{
	/* One write per message so parallel output never interleaves mid-line. */
	char line[4096];
	int n = snprintf(line, sizeof(line), "%s", prefix);

	if (n > 0 && (size_t)n < sizeof(line))
		vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	say(line);
}

void error_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("error: ", fmt, ap);
	va_end(ap);
}

enum exit_code usage_error(const char *fmt, ...)
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

int output_is_document(const struct output_format *f)
{
	return f->kind == OUTPUT_JSON || f->kind == OUTPUT_YAML || f->kind == OUTPUT_JSONPATH ||
	       f->kind == OUTPUT_CUSTOM_COLUMNS;
}

enum exit_code exit_by_signal(int sig)
{
	return (enum exit_code)(EXIT_SIGNALED + sig);
}

enum exit_code error_oom(void)
{
	error_msg("out of memory");
	return EXIT_ERROR;
}

enum exit_code error_render(int code)
{
	if (code == OWNERS_ENOMEM)
		return error_oom();
	/* Anything else is a document the generator refused (a bug), said as
	 * such rather than blamed on memory. */
	error_msg("cannot write the output (internal error %d)", code);
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

enum exit_code exit_code_for(int code)
{
	if (code == OWNERS_EINVAL || code == OWNERS_EAMBIGUOUS)
		return EXIT_USAGE;
	if (code == OWNERS_ETIMEOUT)
		return EXIT_TIMEOUT;
	return code ? EXIT_ERROR : EXIT_OK;
}

enum exit_code report_error(const struct owners_error *err)
{
	struct owners_buf line = OWNERS_BUF_INIT;

	if (!owners_buf_addf(&line, "error: %s", owners_error_message(err)))
		say(line.ptr);
	else
		say("error: out of memory");
	owners_buf_clear(&line);
	return exit_code_for(err->code);
}

int output_color_for(const char *mode)
{
	const char *no_color = getenv("NO_COLOR");

	if (mode && !strcmp(mode, "always"))
		return 1;
	if (mode && !strcmp(mode, "never"))
		return 0;
	/* auto: https://no-color.org says any non-empty NO_COLOR disables */
	return isatty(STDOUT_FILENO) && !(no_color && *no_color);
}

