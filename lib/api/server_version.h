/*
 * The API server's version: GET /version, what `kubectl version` shows as
 * serverVersion (a version.Info: major, minor, gitVersion, gitCommit,
 * buildDate, goVersion, platform, ...), kept as the server wrote it.
 *
 * Ownership: *doc belongs to the caller (owners_json_value_free()); the
 * strings the getter returns are borrowed from it.
 */
#ifndef OWNERS_SERVER_VERSION_H
#define OWNERS_SERVER_VERSION_H

#include "owners_error.h"
#include "http.h"
#include "json.h"

/* 0 with *doc the server's answer (a JSON object); otherwise the error
 * code with err set ("cannot get the server version: ...") and *doc
 * NULL. */
int owners_server_version_get(struct owners_json_value **doc, struct owners_http_client *c,
			      struct owners_error *err);

/* Its gitVersion ("v1.36.3"), or "" when it has none. */
const char *owners_server_version_git(const struct owners_json_value *doc);

#endif
