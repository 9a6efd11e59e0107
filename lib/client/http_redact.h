/*
 * What the HTTP client's log never shows: credentials, and bytes that
 * would drive a terminal. Every line lib/client/http.c logs (request and
 * response headers, bodies, libcurl's trace) goes through
 * owners_http_redact_line() before the log callback sees it, so no log
 * line can skip it. Pure rules on a buffer: no client, no I/O.
 *
 * What is redacted:
 *  - the credential after any "authorization" that reads as a header or
 *    field name ("Authorization: Bearer x", libcurl's HTTP/2 trace
 *    "[authorization: Bearer x]", JSON "authorization": ["Bearer x"]);
 *    the scheme word stays, so the reader sees what kind went out;
 *  - every occurrence of a known secret (the token, the exec plugin's
 *    token) of 8 bytes or more, wherever it appears (a body echoing it);
 *  - control characters, written as escapes ("\n", "\r", "\x1b"; a tab as
 *    a space).
 * Each replacement is the text "<redacted>".
 *
 * Ownership: line is the caller's and is rewritten in place (its memory
 * may be replaced); secrets are borrowed. Each function returns 0, or
 * OWNERS_ENOMEM when out of memory: then the line may still hold what
 * was to go, and the caller drops it rather than log it.
 */
#ifndef OWNERS_HTTP_REDACT_H
#define OWNERS_HTTP_REDACT_H

#include <stddef.h>

#include "buf.h"

/* The credential after each "authorization" (any case) that is followed by
 * ' ', '\t', ':', '"', '\'', '=' or '[' ("rbac.authorization.k8s.io" is
 * not). */
int owners_http_redact_authorization(struct owners_buf *line);
/* Every occurrence of secret; NULL or shorter than 8 bytes: nothing (so
 * short that it would blank out ordinary words). */
int owners_http_redact_secret(struct owners_buf *line, const char *secret);
/* Control characters (below 0x20, and 0x7f) as escapes. */
int owners_http_redact_controls(struct owners_buf *line);
/* All of it, in that order: authorization, each of the n secrets (NULL
 * entries are skipped), then control characters. */
int owners_http_redact_line(struct owners_buf *line, const char *const *secrets, size_t n);

#endif
