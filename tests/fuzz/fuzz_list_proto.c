/* libFuzzer target: a protobuf metadata list page, as the apiserver sends
 * it ("k8s\0" + runtime.Unknown + PartialObjectMetadataList). The input's
 * first byte says how the body is cut into chunks; the rest is the message
 * (the magic is put before it, so the fuzzer works on the message itself).
 * The page is decoded whole and in chunks, and the two must agree: the
 * same items, the same token, an error in both or in neither. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "list_proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct seen {
	size_t items, bytes;
};

static int on_item(void *ctx, const struct owners_object_meta *m, struct owners_error *err)
{
	struct seen *s = ctx;
	size_t i;

	(void)err;
	/* Touch every string handed over: they must be valid C strings. */
	s->bytes += strlen(m->name) + strlen(m->namespace_) + strlen(m->uid) + strlen(m->resource_version) +
		    strlen(m->creation_timestamp) + strlen(m->deletion_timestamp);
	for (i = 0; i < m->n_finalizers; i++)
		s->bytes += strlen(m->finalizers[i]);
	for (i = 0; i < m->n_owner_refs; i++)
		s->bytes += strlen(m->owner_refs[i].uid) + strlen(m->owner_refs[i].api_version) +
			    strlen(m->owner_refs[i].kind) + strlen(m->owner_refs[i].name);
	s->items++;
	return 0;
}

/* Chunks of 1 to 16 bytes, their sizes cycling through the cut byte's bits. */
static int in_chunks(const char *buf, size_t len, unsigned cut, struct seen *s, char **cont)
{
	struct owners_error err = OWNERS_ERROR_INIT;
	struct owners_list_proto *p;
	size_t at = 0, k = 0;
	int rc = 0;

	*cont = NULL;
	if (owners_list_proto_new(&p, on_item, s))
		return -1;
	while (!rc && at < len) {
		size_t n = 1 + ((cut >> (k++ % 5)) & 15);

		if (n > len - at)
			n = len - at;
		rc = owners_list_proto_feed(p, buf + at, n, &err);
		at += n;
	}
	if (!rc)
		rc = owners_list_proto_finish(p, cont, &err);
	owners_list_proto_free(p);
	owners_error_clear(&err);
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct owners_error err = OWNERS_ERROR_INIT;
	struct seen whole = { 0, 0 }, chunked = { 0, 0 };
	char *buf, *cont = NULL, *cont2 = NULL;
	unsigned cut;
	int rc, rc2;

	if (!size)
		return 0;
	cut = data[0];
	data++;
	size--;
	if (!(buf = malloc(size + 4)))
		return 0;
	memcpy(buf, "k8s\0", 4);
	if (size)
		memcpy(buf + 4, data, size);
	rc = owners_list_proto_decode(buf, size + 4, on_item, &whole, &cont, &err);
	rc2 = in_chunks(buf, size + 4, cut, &chunked, &cont2);
	if (rc2 >= 0 && ((rc == 0) != (rc2 == 0) || whole.items != chunked.items ||
			 whole.bytes != chunked.bytes || (!cont) != (!cont2) || (cont && strcmp(cont, cont2))))
		abort();
	free(cont);
	free(cont2);
	free(buf);
	owners_error_clear(&err);
	return 0;
}
