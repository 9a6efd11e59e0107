#include "output.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "command_line.h"
#include "output_format.h"

static int use_color;
static const char *program = OWNERS_PROGRAM;

/* Whether the file name of argv0 (the part after its last '/') is name. */
static int invoked_as(const char *argv0, const char *name)
{
	const char *base = argv0 ? strrchr(argv0, '/') : NULL;

	base = base ? base + 1 : argv0;
	return base && !strcmp(base, name);
}

void output_set_program(const char *argv0)
{
	/* kubectl runs the plugin binary kubectl-owners for `kubectl owners`,
	 * and its completion helper for `kubectl owners <TAB>` */
	if (invoked_as(argv0, "kubectl-owners") || invoked_as(argv0, "kubectl_complete-owners"))
		program = "kubectl owners";
}

int output_is_completion_helper(const char *argv0)
{
	return invoked_as(argv0, "kubectl_complete-owners");
}

const char *output_program(void)
{
	return program;
}

static char **command_words;
static int n_command_words;

void output_set_command_line(int argc, char **argv)
{
	int i;

	/* parsing shifts argv's pointers: keep a copy of the array */
	free(command_words);
	command_words = NULL;
	n_command_words = 0;
	if (argc > 1 && (command_words = calloc((size_t)argc, sizeof(*command_words))))
		for (i = 1; i < argc; i++)
			command_words[n_command_words++] = argv[i];
}

int output_command_line(struct owners_buf *out)
{
	int i, rc = owners_buf_adds(out, program);

	for (i = 0; !rc && i < n_command_words; i++)
		if (!(rc = owners_buf_addc(out, ' ')))
			rc = owners_shell_word(out, command_words[i]);
	return rc;
}

int output_resume_command(struct owners_buf *out, const char *const *uids, size_t n, int resumed)
{
	size_t i;
	int rc = output_command_line(out);

	/* a resumed run's command carries its roots already */
	for (i = 0; !rc && !resumed && i < n; i++)
		rc = owners_buf_adds(out, i ? "," : " --resume=") || owners_buf_adds(out, uids[i]);
	return rc;
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

