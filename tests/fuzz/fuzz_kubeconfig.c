/* libFuzzer target: the kubeconfig loader, on a file holding the input
 * (the loader reads files: KUBECONFIG semantics are part of what is
 * fuzzed), with the context chosen from the input's first byte. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input_file.h"
#include "kubeconfig.h"
#include "strv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	struct owners_kubeconfig_overrides ov;
	struct owners_kubeconfig_env env;
	struct owners_rest_config *cfg = NULL;
	struct owners_error err = OWNERS_ERROR_INIT;
	char **contexts = NULL;

	if (!fuzz_input_file(path, sizeof(path), "kubeconfig", "", data, size))
		return 0;
	memset(&ov, 0, sizeof(ov));
	memset(&env, 0, sizeof(env));
	ov.kubeconfig = path;
	ov.insecure_skip_tls_verify = -1;
	if (size && (data[0] & 1))
		ov.context = "admin";
	env.home = "/nonexistent";
	/* Exec plugins are never run by loading: only by the HTTP client. */
	owners_kubeconfig_load(&cfg, &ov, &env, &err);
	owners_rest_config_free(cfg);
	owners_error_clear(&err);
	owners_kubeconfig_contexts(&contexts, &ov, &env, NULL);
	owners_strv_free_terminated(contexts);
	unlink(path);
	return 0;
}
