/* libFuzzer target: what an exec credential plugin prints (and that it
 * parses to the same tree whole and a byte at a time). */
#include <stddef.h>
#include <stdint.h>

#include "exec_credential.h"
#include "same_tree.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct owners_rest_config_exec_credential cred = { 0 };
	struct owners_error err = OWNERS_ERROR_INIT;

	same_tree_whole_and_bytewise((const char *)data, size);
	owners_buf_init(&cred.client_cert_data);
	owners_buf_init(&cred.client_key_data);
	owners_exec_credential_parse(&cred, (const char *)data, size,
				     size && (data[0] & 1) ? "client.authentication.k8s.io/v1"
							   : "client.authentication.k8s.io/v1beta1",
				     &err);
	owners_rest_config_exec_credential_clear(&cred);
	owners_error_clear(&err);
	return 0;
}
