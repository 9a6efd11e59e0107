/*
 * How owners was run: the program as the user typed it ("owners", or
 * "kubectl owners" for the plugin) and the words after it, kept in
 * struct owners_cli before the flags are parsed (parsing moves argv's
 * pointers). Every command owners quotes back is spelled from them: the
 * program of a remedy, the command line a run says to run again.
 */
#ifndef OWNERS_CMD_INVOCATION_H
#define OWNERS_CMD_INVOCATION_H

#include <stddef.h>

#include "buf.h"
#include "options.h"

/* Sets cli's program (from argv[0]) and typed words (argv[1..], as a copy
 * of the array the caller frees with free(*copy) once cli is done; the
 * strings stay argv's). 0, or OWNERS_ENOMEM. */
int owners_cli_invoked(struct owners_cli *cli, int argc, char **argv, char ***copy);
/* Appends the command line as typed: the program, then each word, one a
 * shell would split or expand single-quoted. 0, or OWNERS_ENOMEM. */
int owners_cli_command_line(struct owners_buf *out, const struct owners_cli *cli);
/* The command that finishes an interrupted or timed-out cascade: the
 * command line, with --resume=UID,... naming the cascade's roots (unless
 * resumed: it was given --resume, which names them already), so that,
 * run once the work is done by someone else, it says "already done" and
 * exits 0. 0, or OWNERS_ENOMEM. */
int owners_cli_resume_command(struct owners_buf *out, const struct owners_cli *cli,
			      const char *const *uids, size_t n, int resumed);

#endif
