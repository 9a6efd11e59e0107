/* A list split into its items as it streams in, wherever the chunks end. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "list_items.h"
#include "tap.h"

struct seen {
	char uids[512];
};

static int on_item(void *ctx, const char *item, size_t len, struct owners_error *err)
{
	struct seen *s = ctx;
	struct owners_json_value *v = NULL;
	const char *uid;

	if (owners_json_parse(&v, item, len, err))
		return OWNERS_EPROTO;
	uid = owners_json_string(owners_json_path(v, "metadata", "uid", NULL));
	strncat(s->uids, uid ? uid : "?", sizeof(s->uids) - strlen(s->uids) - 2);
	strcat(s->uids, " ");
	owners_json_value_free(v);
	return 0;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = malloc(1 << 20);

	*len = f && buf ? fread(buf, 1, (1 << 20) - 1, f) : 0;
	if (f)
		fclose(f);
	return buf;
}

/* Feeds doc in pieces of `step` bytes (0: two pieces split at `at`). */
static int run(const char *doc, size_t len, size_t step, size_t at, struct seen *out, const char **cont)
{
	static char token[128];
	struct owners_list_items *s = NULL;
	struct owners_error err = OWNERS_ERROR_INIT;
	size_t i;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	owners_list_items_new(&s, on_item, out);
	if (step)
		for (i = 0; !rc && i < len; i += step)
			rc = owners_list_items_feed(s, doc + i, len - i < step ? len - i : step, &err);
	else if (!(rc = owners_list_items_feed(s, doc, at, &err)))
		rc = owners_list_items_feed(s, doc + at, len - at, &err);
	if (!rc)
		rc = owners_list_items_finish(s, &err);
	snprintf(token, sizeof(token), "%s", owners_list_items_continue(s));
	*cont = token;
	owners_list_items_free(s);
	owners_error_clear(&err);
	return rc;
}

int main(void)
{
	const char *want = "aaaaaaaa-0000-4000-8000-000000000001 aaaaaaaa-0000-4000-8000-000000000002 ";
	const char *paged = "{\"kind\":\"ConfigMapList\",\"items\":[{\"metadata\":{\"uid\":\"u1\"},"
			    "\"data\":{\"items\":\"[{\\\"x\"}}],\"metadata\":{\"continue\":\"next-page\"}}";
	static const char *const bad[] = {
		"[]", "{}", "{\"items\":{}}", "{\"items\":[1]}", "{\"items\":[{}", "{\"items\":[]}x", "}",
		"{\"items\":[\"s\"]}", NULL,
	};
	size_t len, at, bad_splits = 0;
	char *doc = slurp("data/list_pods.json", &len);
	struct seen s;
	const char *cont;
	int i;

	ok(len > 0, "the PodList fixture loads");
	is_int(run(doc, len, len, 0, &s, &cont), 0, "one chunk");
	is_str(s.uids, want, "every item, in order (UIDs elsewhere in the document are not items)");
	for (at = 0; at <= len; at++)
		if (run(doc, len, 0, at, &s, &cont) || strcmp(s.uids, want))
			bad_splits++;
	is_int((long)bad_splits, 0, "split in two at every byte: the same items");
	ok(run(doc, len, 1, 0, &s, &cont) == 0 && !strcmp(s.uids, want), "fed one byte at a time");
	ok(run(paged, strlen(paged), 3, 0, &s, &cont) == 0 && !strcmp(s.uids, "u1 "),
	   "a key named items inside an item is not the list's");
	is_str(cont, "next-page", "the continue token, after the items");
	for (i = 0; bad[i]; i++)
		ok(run(bad[i], strlen(bad[i]), 1, 0, &s, &cont) == OWNERS_EPROTO, "refused: %s", bad[i]);
	free(doc);
	return tap_done();
}
