/*
 * Messages to the user, git-style: "error: cannot list 'apps/v1
 * deployments': forbidden". Only cmd/ writes to the terminal.
 */
#ifndef OWNERS_CMD_OUTPUT_H
#define OWNERS_CMD_OUTPUT_H

#include <stdio.h>

#include "buf.h"
#include "owners_error.h"

struct output_format;

/* What the program exits with. A function typed enum exit_code returns
 * one of these and has said why on stderr; one typed int returns 0 or a
 * library code (OWNERS_E*, negative) and has said nothing. */
enum exit_code {
	EXIT_OK = 0,
	EXIT_ERROR = 1,
	EXIT_USAGE = 2,
	EXIT_TIMEOUT = 3,
	EXIT_INCOMPLETE = 4,
	/* delete --if-unused: a live object outside the cascade uses what it
	 * deletes (or its users cannot all be seen): nothing was deleted */
	EXIT_IN_USE = 5,
	/* + the signal's number: ended by a signal, as a shell says it (130
	 * for SIGINT, 143 for SIGTERM): exit_by_signal() */
	EXIT_SIGNALED = 128,
};

/* EXIT_SIGNALED + sig. */
enum exit_code exit_by_signal(int sig);

void error_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* On this thread, error_msg(), warning_msg() and report_error() append
 * their lines to into instead of writing them (NULL: write again): a
 * thread's messages printed by the main thread, in a fixed order. */
void output_defer_messages(struct owners_buf *into);
void warning_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Says "out of memory" and returns EXIT_ERROR. */
enum exit_code error_oom(void);
/* Says why rendering a command's output failed (code: OWNERS_E*): out of
 * memory, or a document refused; returns EXIT_ERROR. */
enum exit_code error_render(int code);
/* The program's owners_oom_fatal() handler: error_oom()'s message, then the
 * process ends with its exit code. */
_Noreturn void die_out_of_memory(void);
/* Says what is wrong with the command line; returns EXIT_USAGE. */
enum exit_code usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints the recorded error and returns the exit code it maps to. */
enum exit_code report_error(const struct owners_error *err);
/* Exit code for a lib error code: usage errors are 2, the rest 1. */
enum exit_code exit_code_for(int code);

/* Whether text is coloured, for --color's mode (NULL: auto): always,
 * never, or auto (a terminal on stdout, and no NO_COLOR). */
int output_color_for(const char *mode);
/* The program as the user runs it, for argv0: "owners", or "kubectl
 * owners" as the kubectl plugin (kubectl-owners or, completing,
 * kubectl_complete-owners). Every command a message or a text output
 * quotes is spelled with it (struct owners_cli's program, cli/invocation.h), where it is
 * made (a remedy's words: lib/core/command_line.h), never found in the
 * text. */
const char *output_program_of(const char *argv0);
/* Whether argv0 is kubectl_complete-owners, the helper kubectl runs for
 * `kubectl owners <TAB>` (a link to this binary). */
int output_is_completion_helper(const char *argv0);
#endif
