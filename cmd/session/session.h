/*
 * The session every cluster command shares: its connection, its types,
 * its scan and what the command set up around them, kept behind the
 * functions below (what it holds: session_state.h, the session's own).
 * What is done with it is in the files named for each job, each header
 * saying what it owns:
 *
 *   session_connect.h   the kubeconfig, the HTTP client, credential errors
 *   session_discover.h  the server's types (discovery, cached or current)
 *   session_scan.h      the two-pass scan into the owner graph, and -l's lists
 *   session_warnings.h  what the scan could not see, as warnings
 *   session_select.h    the arguments resolved to types, and the objects they select
 *   session_across.h    owners looked for in other namespaces (a namespaced run)
 *   session_access.h    the permissions asked before a first change
 *
 * A command includes the ones it uses. Ownership: everything a session
 * points to is its own until session_close(), except cli (the caller's).
 */
#ifndef OWNERS_CMD_SESSION_H
#define OWNERS_CMD_SESSION_H

#include <stddef.h>
#include <stdint.h>

#include "list_source.h"
#include "owners_error.h"
#include "resource.h"
#include "scan.h"

struct owners_cli;
struct owners_graph;
struct owners_http_client;

/* What a session read from a snapshot (--from) holds instead of a
 * connection: the snapshot's header, and the facts its scans read past
 * (cmd/session/session_snapshot.h). */
struct session_snapshot;

/* A session: what it holds is its own (cmd/session/session_state.h);
 * a command asks for it through the functions below. */
struct session;

/* An empty session, to open (session_open(), session_connect_from());
 * NULL when out of memory. */
struct session *session_new(void);
/* Frees s and everything it holds (NULL: nothing). */
void session_close(struct session *s);
/* The time an answer is about, asked where it is rendered: a snapshot's
 * (or --from-time's), else the wall clock now (OWNERS_TEST_NOW's when the
 * suites fix it). The one place cmd/ takes "now" from. */
int64_t session_now(const struct session *s);
/* The time the session's answer is about, fixed when it opened: the
 * snapshot's, else the clock's then. */
int64_t session_time(const struct session *s);

/* What the session was opened with and on. */
struct owners_cli *session_cli(const struct session *s);
const char *session_namespace(const struct session *s); /* the flag's or the context's */
const char *session_server(const struct session *s);    /* the server's URL (NULL: none) */
int session_is_snapshot(const struct session *s);       /* --from: read from a snapshot */
/* The HTTP client (NULL on a snapshot, or after session_disconnect()). */
struct owners_http_client *session_http(const struct session *s);
/* Lets go of the HTTP client before what holds its requests (a watch)
 * is freed: requests still in flight are the client's. */
void session_disconnect(struct session *s);
/* What went wrong last: the error every session function that fails
 * leaves here (cleared by the caller). */
struct owners_error *session_error(struct session *s);

/* The types discovery found (its failed groups included). */
const struct owners_resource_table *session_types(const struct session *s);
/* The owner graph of the last scan (NULL before one). */
struct owners_graph *session_graph(const struct session *s);
/* The report of the last scan: what could not be listed, what waited. */
const struct owners_scan_report *session_scan_report(const struct session *s);
/* Drops the graph and report of the last scan: the next starts afresh. */
void session_forget_scan(struct session *s);

/* A command whose answer holds namespaced objects only (see
 * owners_graph_type_can_hold_answer()): the warnings then name the types
 * that could not be listed and matter, and count the rest. */
void session_set_answer_namespaced_only(struct session *s, int namespaced_only);
int session_answer_namespaced_only(const struct session *s);
/* A command that answers about roots: a name given with -A is the
 * namespace's, -A widening where its dependents are sought. */
void session_set_names_in_namespace(struct session *s, int names_in_namespace);
/* Tells fn each list's resourceVersion as the scans make them (a watch
 * starts there); fn NULL: nobody asks. fn is called with r NULL when a
 * refreshed discovery voids what was listed so far. */
void session_on_listed(struct session *s,
		       int (*fn)(void *ctx, const struct owners_resource *r, const char *ns,
				 const char *rv),
		       void *ctx);
/* Every later list of the session is read through `through`, which
 * reads its own lists from what is returned (the source until now): a
 * command that keeps or changes what the lists hand on. Give the
 * returned source back to end it. */
struct owners_list_source session_read_lists_through(struct session *s,
						     struct owners_list_source through);
/* Lists what o selects into g (NULL: none kept), through the session's
 * lists, the outcome in report. 0, or an OWNERS_E* code with
 * session_error() set. */
int session_list_into(struct session *s, struct owners_graph *g,
		      const struct owners_scan_options *o, struct owners_scan_report *report);

#endif
