/*
 * Standard output, one way out: every byte a command writes to stdout
 * (documents, names, tables, watch events, plans, help, completions)
 * goes through here, and nowhere else in cmd/ names stdout. The first
 * write that fails is said at once, with its reason, in one line:
 * "error: write error on standard output: No space left on device";
 * stdout's own error indicator remembers it, and the program's closing
 * check (sink_close(), as git's run_builtin() does at exit: flush, then
 * ferror) turns it into exit 1.
 *
 * What goes to stderr is not here: messages are output.c's, the
 * progress of a wait is meter.c's.
 */
#ifndef OWNERS_CMD_SINK_H
#define OWNERS_CMD_SINK_H

#include <stddef.h>

#include "buf.h"
#include "output.h"

struct output_format;

/* Writes n bytes of p (buffered, as stdio does). 0, or -1 when the
 * write failed (said, the first time). */
int sink_write(const char *p, size_t n);
/* A rendered text, whole (nothing when it is empty). */
int sink_buf(const struct owners_buf *b);
int sink_puts(const char *s);
int sink_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* What was written goes out now (an event line, a step, before the next
 * wait). 0, or -1 when it failed (said, the first time). */
int sink_flush(void);
/* The same, for output the command stands on (a document, a table):
 * EXIT_ERROR when a write to stdout has failed (said when it did). */
enum exit_code sink_flush_checked(void);

/* Writes a JSON document (-o json) to stdout, or its YAML form when yaml
 * is set (-o yaml): every command that writes one offers both. Returns
 * EXIT_OK, or prints why not and returns EXIT_ERROR. */
enum exit_code output_document(const struct owners_buf *json, int yaml);
/* Writes the command's JSON document through -o's template (jsonpath,
 * or custom columns: one row per item, and per item of each item's
 * `nested` array when given); the exit code (a bad template is a usage
 * error). */
enum exit_code output_template(const struct owners_buf *json, const struct output_format *f, const char *nested,
			       int no_headers);

/* The closing check, once, as the program ends with rc: stdout flushed
 * and checked; when a write failed, the program exits 1 (rc when that
 * is already an error). */
enum exit_code sink_close(enum exit_code rc);

#endif
