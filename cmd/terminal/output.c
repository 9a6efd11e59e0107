#include "output.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output_format.h"

static int use_color;
static const char *program = "owners";

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

/* A word as a shell reads it back: as is when it has nothing a shell
 * treats specially, else in single quotes. */
static int add_shell_word(struct owners_buf *out, const char *w)
{
	int rc = 0;

	if (*w && strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./=:,@%+-") ==
			  strlen(w))
		return owners_buf_adds(out, w);
	rc = owners_buf_addc(out, '\'');
	for (; !rc && *w; w++)
		rc = *w == '\'' ? owners_buf_adds(out, "'\\''") : owners_buf_addc(out, *w);
	return rc ? rc : owners_buf_addc(out, '\'');
}

int output_command_line(struct owners_buf *out)
{
	int i, rc = owners_buf_adds(out, program);

	for (i = 0; !rc && i < n_command_words; i++)
		if (!(rc = owners_buf_addc(out, ' ')))
			rc = add_shell_word(out, command_words[i]);
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

int output_as_typed(struct owners_buf *out, const char *text)
{
	const char *p = text, *hit;
	int rc = 0;

	if (!strcmp(program, "owners"))
		return owners_buf_adds(out, text);
	/* A command quoted in a message ('owners tree ...', `owners ...`), one
	 * after a colon (a remedy: "if so: owners finalizers remove ...") or
	 * at a line's start, indented or not, is spelled as the user runs it. */
	while (!rc && (hit = strstr(p, "owners "))) {
		const char *b = hit;
		int quoted;

		while (b > text && b[-1] == ' ')
			b--; /* an indented line: usage, examples */
		quoted = b == text || b[-1] == '\n' || hit[-1] == '\'' || hit[-1] == '`' || hit[-1] == '(' ||
			 (hit - text >= 2 && hit[-1] == ' ' && hit[-2] == ':');

		if (quoted) {
			rc = owners_buf_add(out, p, (size_t)(hit - p)) || owners_buf_adds(out, program) ||
			     owners_buf_addc(out, ' ');
		} else {
			rc = owners_buf_add(out, p, (size_t)(hit - p) + 7);
		}
		p = hit + 7;
	}
	return rc ? rc : owners_buf_adds(out, p);
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
	struct owners_buf said = OWNERS_BUF_INIT;
	int n = snprintf(line, sizeof(line), "%s", prefix);

	if (n > 0 && (size_t)n < sizeof(line))
		vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	if (n > 0 && (size_t)n < sizeof(line) && !owners_buf_add(&said, line, (size_t)n) &&
	    !output_as_typed(&said, line + n))
		say(said.ptr);
	else
		say(line);
	owners_buf_clear(&said);
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
	/* the library's remedies quote commands too ('owners finalizers ...') */
	const char *message = owners_error_message(err);
	struct owners_buf said = OWNERS_BUF_INIT, line = OWNERS_BUF_INIT;

	if (!owners_buf_addf(&line, "error: %s", !output_as_typed(&said, message) ? said.ptr : message))
		say(line.ptr);
	else
		say("error: out of memory");
	owners_buf_clear(&said);
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

