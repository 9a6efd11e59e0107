/*
 * Exec credential plugins (client.authentication.k8s.io/v1 and v1beta1):
 * run with fork/exec and an argv array, the plugin's env set only in the
 * child, KUBERNETES_EXEC_INFO given, stdout size-limited, exit status
 * checked; the output parsed and cached until its expirationTimestamp.
 *
 * Nothing the plugin prints is ever logged or written to disk.
 *
 * Ownership: the credential lives in cfg->exec_cred (or the caller's out),
 * freed and wiped by owners_rest_config_exec_credential_clear(); the input is borrowed.
 */
#ifndef OWNERS_EXEC_CREDENTIAL_H
#define OWNERS_EXEC_CREDENTIAL_H

#include <stdint.h>

#include "owners_error.h"
#include "rest_config.h"

/* Makes cfg->exec_cred valid: reuses it if still valid at `now` (unix
 * seconds) and !force, else runs the plugin. A missing command fails with
 * the plugin's installHint in the message. */
int owners_exec_credential_refresh(struct owners_rest_config *cfg, int64_t now, int force,
				   struct owners_error *err);

/* Parses a plugin's stdout into out (used by refresh; exposed for tests and
 * fuzzing). expected_api_version is the exec config's apiVersion. */
int owners_exec_credential_parse(struct owners_rest_config_exec_credential *out, const char *data,
				 size_t len, const char *expected_api_version,
				 struct owners_error *err);

#endif
