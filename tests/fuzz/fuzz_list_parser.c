/* libFuzzer target: the streaming list parser, fed the input in chunks
 * whose sizes come from the input itself (so every split is reachable). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "list_parser.h"

static int on_item(void *ctx, const struct owners_object_meta *m, struct owners_error *err)
{
	size_t i, *total = ctx;

	(void)err;
	/* Touch every string so the sanitizers see any bad pointer. */
	*total += strlen(m->name) + strlen(m->namespace_) + strlen(m->uid);
	for (i = 0; i < m->n_owner_refs; i++)
		*total += strlen(m->owner_refs[i].uid) + strlen(m->owner_refs[i].kind);
	for (i = 0; i < m->n_finalizers; i++)
		*total += strlen(m->finalizers[i]);
	for (i = 0; i < m->n_labels; i++)
		*total += strlen(m->labels[i].key) + strlen(m->labels[i].value);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct owners_list_parser *p = NULL;
	struct owners_error err = OWNERS_ERROR_INIT;
	size_t total = 0, at = 0, step;
	int rc = 0;

	if (!size)
		return 0;
	step = (size_t)data[0] % 64 + 1;
	if (owners_list_parser_new(&p, data[0] & 1, on_item, &total))
		return 0;
	for (at = 1; !rc && at < size; at += step)
		rc = owners_list_parser_feed(p, (const char *)data + at,
					     at + step <= size ? step : size - at, &err);
	if (!rc)
		owners_list_parser_finish(p, &err);
	(void)owners_list_parser_continue_token(p);
	(void)owners_list_parser_kind(p);
	owners_list_parser_free(p);
	owners_error_clear(&err);
	return 0;
}
