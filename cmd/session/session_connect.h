/*
 * A session's connection: the kubeconfig loaded, the HTTP client opened
 * (and another like it for a reader of its own), and the words for a
 * failure of either, credentials first: whose were rejected, in one
 * sentence every command shares.
 */
#ifndef OWNERS_CMD_SESSION_CONNECT_H
#define OWNERS_CMD_SESSION_CONNECT_H

#include "buf.h"
#include "output.h"
#include "session.h"

/* Loads the kubeconfig and opens the HTTP client, no request yet.
 * Returns 0, or the error code with session_error(s) set (nothing printed: the
 * caller words it). */
int session_connect(struct session *s, struct owners_cli *cli);
/* Another connection to the same server with the same options (a reader
 * whose requests must not serve the run's watches). 0, or the error in
 * session_error(s). */
int session_client_new(struct session *s, struct owners_http_client **out);
/* session_connect(), then discovery (from the cache when fresh). */
enum exit_code session_open(struct session *s, struct owners_cli *cli);
/* Prints why session_error(s) happened (rejected credentials said as such) and
 * returns the exit code. */
enum exit_code session_fail(struct session *s);
/* Whose credentials the server was given, appended to b for a message:
 * "the credentials of user 'admin' (context 'admin')", the --token
 * flag's, or a pod's service account's; with --as, who they act as. */
void session_say_credentials(const struct session *s, struct owners_buf *b);
/* Prints that the server rejected the session's credentials (401) and
 * whose they were; EXIT_ERROR. */
enum exit_code session_credentials_rejected(const struct session *s);

#endif
