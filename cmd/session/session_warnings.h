/*
 * What a session's scan could not see, as every command says it: lines
 * on stderr, or structured in a document's "warnings" (both worded in
 * lib/graph/scan_warnings.c), with the notes a command adds.
 */
#ifndef OWNERS_CMD_SESSION_WARNINGS_H
#define OWNERS_CMD_SESSION_WARNINGS_H

#include "scan_warnings.h"
#include "session.h"

/* What the scan could not see, as the lines every command warns with on
 * stderr (one format, decided here): one per failed
 * discovery group; forbidden types together on one line; any other list
 * failure on its own line; then the command's notes. extra: reports of
 * further scans (n_extra, may be 0). Free with session_warnings_free(). */
int session_warnings(const struct session *s, const struct owners_scan_report *extra,
		     size_t n_extra, char ***out, size_t *n);
void session_warnings_free(char **lines, size_t n);
/* The same, structured and every type named, for a document's
 * "warnings" (owners_scan_warnings_list()); *out is the caller's
 * (owners_scan_warnings_list_free()). 0, or OWNERS_ENOMEM. */
int session_warnings_list(const struct session *s, const struct owners_scan_report *extra, size_t n_extra,
			  struct owners_scan_warning_list *out);
/* Adds a line to the scan's warnings (a new scan drops them). 0, or
 * OWNERS_ENOMEM. */
int session_note(struct session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prints session_warnings() of the session's own scan on stderr. */
void session_warn_scan(const struct session *s);
/* For a command that changes the cluster: the types whose list failed in
 * the session's scan (forbidden or otherwise) that could hold part of
 * its job (owners_graph_type_can_hold_answer(), the session's
 * answer_namespaced_only), their names joined with ", " in names (the
 * caller's, cleared by it). Their objects were not seen, so the job
 * cannot be known done: such a command exits EXIT_INCOMPLETE. Returns
 * how many; (size_t)-1 when out of memory. */
size_t session_unseen_types(const struct session *s, struct owners_buf *names);
/* Says on stderr that the job is incomplete for the types above (when
 * there are any) and returns EXIT_INCOMPLETE, else returns rc. */
enum exit_code session_incomplete_unless_seen(const struct session *s, const char *what, enum exit_code rc);
/* Drops the notes (a new scan starts without them). */
void session_notes_drop(struct session *s);

#endif
