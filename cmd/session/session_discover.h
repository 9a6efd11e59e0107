/*
 * A session's types: discovery loaded from the cache when fresh, fetched
 * again on a miss or when the command needs them current, a failed
 * aggregated group explained by its APIService; a table replaced is kept
 * until the session closes, and the arguments held are resolved again
 * against the new one.
 */
#ifndef OWNERS_CMD_SESSION_DISCOVER_H
#define OWNERS_CMD_SESSION_DISCOVER_H

#include "output.h"
#include "session.h"

/* Loads discovery into session_types(s) (refresh: from the server, not the
 * cache), then resolves the arguments the session holds against it. 0,
 * or the error code with session_error(s) set (nothing printed). */
int session_discover(struct session *s, int refresh);
/* Refetches discovery (a name did not resolve against the cache). */
enum exit_code session_rediscover(struct session *s);
/* Makes discovery current before anything is resolved or scanned: what
 * deletes or patches, and what predicts what the GC will do, must see the
 * types the GC sees now, not a cache up to hours old. Returns 0, or
 * prints the error and returns the exit code. */
enum exit_code session_require_current_types(struct session *s);
/* Resolves a typed type name, rediscovering once on a miss. */
enum exit_code session_resolve_type(struct session *s, const char *typed, const struct owners_resource **out);
#endif
