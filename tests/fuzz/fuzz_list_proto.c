/* libFuzzer target: a protobuf metadata list page, as the apiserver sends
 * it ("k8s\0" + runtime.Unknown + PartialObjectMetadataList). The input is
 * prefixed with the magic so the fuzzer works on the message itself. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "list_proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int on_item(void *ctx, const struct owners_object_meta *m, struct owners_error *err)
{
	size_t i, *n = ctx;

	(void)err;
	/* Touch every string handed over: they must be valid C strings. */
	*n += strlen(m->name) + strlen(m->namespace_) + strlen(m->uid) + strlen(m->resource_version) +
	      strlen(m->creation_timestamp) + strlen(m->deletion_timestamp);
	for (i = 0; i < m->n_finalizers; i++)
		*n += strlen(m->finalizers[i]);
	for (i = 0; i < m->n_owner_refs; i++)
		*n += strlen(m->owner_refs[i].uid) + strlen(m->owner_refs[i].api_version) +
		      strlen(m->owner_refs[i].kind) + strlen(m->owner_refs[i].name);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct owners_error err = OWNERS_ERROR_INIT;
	char *buf = malloc(size + 4), *cont = NULL;
	size_t n = 0;

	if (!buf)
		return 0;
	memcpy(buf, "k8s\0", 4);
	if (size)
		memcpy(buf + 4, data, size);
	owners_list_proto_decode(buf, size + 4, on_item, &n, &cont, &err);
	free(cont);
	free(buf);
	owners_error_clear(&err);
	return 0;
}
