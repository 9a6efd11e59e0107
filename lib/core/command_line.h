/*
 * A command owners prints for its user to run: a remedy ("to end it,
 * run: ..."), the command that goes on. It is kept as its words (argv,
 * the program left out) from where it is made to where it is printed,
 * and spelled only there: with the program as the user runs it
 * ("owners", or "kubectl owners" for the plugin), each word as a shell
 * reads it back. What is printed is then never searched for a command.
 *
 * Ownership: a command line owns its words (owners_command_line_clear()).
 */
#ifndef OWNERS_COMMAND_LINE_H
#define OWNERS_COMMAND_LINE_H

#include <stddef.h>

#include "buf.h"

/* The program every command is spelled with unless told otherwise (and
 * always in a document: its schema says "owners"). */
#define OWNERS_PROGRAM "owners"

struct owners_command_line {
	char **words;
	size_t n, cap;
};

#define OWNERS_COMMAND_LINE_INIT { NULL, 0, 0 }

void owners_command_line_clear(struct owners_command_line *c);
/* Appends a copy of each word, up to a NULL. 0, or OWNERS_ENOMEM (the
 * words appended before it stay). */
int owners_command_line_add(struct owners_command_line *c, ...) __attribute__((sentinel));
/* Appends one word made from fmt. 0, or OWNERS_ENOMEM. */
int owners_command_line_addf(struct owners_command_line *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Appends program (NULL: OWNERS_PROGRAM), then each word of c after a
 * space, quoted when a shell would read it otherwise. 0, or OWNERS_ENOMEM. */
int owners_command_line_spell(struct owners_buf *out, const char *program, const struct owners_command_line *c);
/* Appends w as a shell reads it back: as is when it holds nothing a shell
 * treats specially, else in single quotes. 0, or OWNERS_ENOMEM. */
int owners_command_line_quote_word(struct owners_buf *out, const char *w);

#endif
