/*
 * Percent-encoding for the pieces of an API URL: path segments (names,
 * namespaces) and query values (label selectors, continue tokens).
 *
 * Everything but the RFC 3986 unreserved characters (A-Z a-z 0-9 - . _ ~)
 * is encoded, so the result is safe in a path segment and in a query value
 * alike ("app=web,tier!=db" -> "app%3Dweb%2Ctier%21%3Ddb").
 *
 * Ownership: these append to a buffer the caller owns; on failure they
 * return OWNERS_ENOMEM and leave it as it was.
 */
#ifndef OWNERS_URL_H
#define OWNERS_URL_H

#include <stddef.h>

#include "buf.h"

/* Appends s, percent-encoded. */
int owners_url_escape(struct owners_buf *out, const char *s);
int owners_url_escapen(struct owners_buf *out, const char *s, size_t len);

/* Appends "?key=value" to a path, or "&key=value" when it already has a
 * query; both escaped. */
int owners_url_add_query(struct owners_buf *path, const char *key, const char *value);

#endif
