/* A list split into its items as it streams in, wherever the chunks end. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
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

/* ---- a reader of trees ---- */

/* Each tree written compact, one after another. */
static int on_tree(void *ctx, const struct owners_json_value *item, struct owners_error *err)
{
	struct owners_buf *out = ctx;
	struct owners_json_gen *g = NULL;
	int rc = owners_json_gen_new(&g, out, 0);

	(void)err;
	if (!rc)
		rc = owners_json_gen_value(g, item);
	owners_json_gen_free(g);
	return rc || owners_buf_adds(out, "\n") ? OWNERS_ENOMEM : 0;
}

/* The same, of each item's text (what the text reader hands). */
static int on_text(void *ctx, const char *item, size_t len, struct owners_error *err)
{
	struct owners_json_value *v = NULL;
	int rc = owners_json_parse(&v, item, len, err);

	if (!rc)
		rc = on_tree(ctx, v, err);
	owners_json_value_free(v);
	return rc;
}

/* Feeds doc to a reader of trees (leave_out) in pieces of `step` bytes
 * (0: two pieces split at `at`); out: the trees. */
static int run_trees(const char *doc, size_t len, unsigned leave_out, size_t step, size_t at,
		     struct owners_buf *out)
{
	struct owners_list_items *s = NULL;
	struct owners_error err = OWNERS_ERROR_INIT;
	size_t i;
	int rc;

	owners_buf_reset(out);
	if ((rc = owners_list_items_new_trees(&s, on_tree, leave_out, out)))
		return rc;
	if (step)
		for (i = 0; !rc && i < len; i += step)
			rc = owners_list_items_feed(s, doc + i, len - i < step ? len - i : step,
						    &err);
	else if (!(rc = owners_list_items_feed(s, doc, at, &err)))
		rc = owners_list_items_feed(s, doc + at, len - at, &err);
	if (!rc)
		rc = owners_list_items_finish(s, &err);
	owners_list_items_free(s);
	owners_error_clear(&err);
	return rc;
}

static void trees(const char *doc, size_t len)
{
	/* status and managedFields where they are left out, and where they
	 * are not (deeper, or not in metadata) */
	const char *trimmed =
		"{\"items\":[{\"metadata\":{\"uid\":\"u1\",\"managedFields\":[{\"m\":1}],"
		"\"labels\":{\"status\":\"x\"}},\"spec\":{\"status\":{\"kept\":1},"
		"\"managedFields\":[2]},\"status\":{\"phase\":\"Running\"}},"
		"{\"status\":\"s\",\"metadata\":{\"uid\":\"u2\"}}],\"metadata\":{\"continue\":"
		"\"c\"}}";
	static const char *const bad[] = {
		"[]", "{}", "{\"items\":{}}", "{\"items\":[1]}", "{\"items\":[{}", "}", NULL,
	};
	struct owners_buf want = OWNERS_BUF_INIT, got = OWNERS_BUF_INIT;
	struct owners_list_items *s = NULL;
	struct owners_error err = OWNERS_ERROR_INIT;
	size_t at, bad_splits = 0;
	int i;

	/* what the text reader's items parse to */
	owners_list_items_new(&s, on_text, &want);
	ok(!owners_list_items_feed(s, doc, len, &err) && !owners_list_items_finish(s, &err),
	   "trees: the text reader reads the fixture");
	owners_list_items_free(s);
	is_int(run_trees(doc, len, 0, 0, len, &got), 0, "trees: one chunk");
	is_str(got.ptr, want.ptr, "trees: each item the tree its text parses to");
	for (at = 0; at <= len; at++)
		if (run_trees(doc, len, 0, 0, at, &got) || strcmp(got.ptr, want.ptr))
			bad_splits++;
	is_int((long)bad_splits, 0, "trees: split in two at every byte, the same trees");
	ok(!run_trees(doc, len, 0, 1, 0, &got) && !strcmp(got.ptr, want.ptr),
	   "trees: fed one byte at a time");

	is_int(run_trees(trimmed, strlen(trimmed), 0, 1, 0, &got), 0, "trees: nothing left out");
	ok(strstr(got.ptr, "\"status\":{\"phase\":\"Running\"}") != NULL,
	   "trees: the status kept when not left out");
	ok(strstr(got.ptr, "\"managedFields\":[{\"m\":1}]") != NULL,
	   "trees: managedFields kept too");
	bad_splits = 0;
	for (at = 0; at <= strlen(trimmed); at++)
		if (run_trees(trimmed, strlen(trimmed),
			      OWNERS_LIST_ITEMS_NO_STATUS | OWNERS_LIST_ITEMS_NO_MANAGED_FIELDS, 0,
			      at, &got))
			bad_splits++;
	is_int((long)bad_splits, 0, "trees: left out, split at every byte: read");
	is_str(got.ptr,
	       "{\"metadata\":{\"uid\":\"u1\",\"labels\":{\"status\":\"x\"}},"
	       "\"spec\":{\"status\":{\"kept\":1},\"managedFields\":[2]}}\n"
	       "{\"status\":\"s\",\"metadata\":{\"uid\":\"u2\"}}\n",
	       "trees: an item's status and its metadata's managedFields left out, the same names "
	       "elsewhere kept (a status that is not an object or array too)");
	is_int(run_trees(trimmed, strlen(trimmed), OWNERS_LIST_ITEMS_NO_MANAGED_FIELDS, 0, 40,
			 &got),
	       0, "trees: managedFields alone left out");
	ok(strstr(got.ptr, "Running") && !strstr(got.ptr, "\"m\":1"),
	   "trees: the status kept, managedFields not");
	for (i = 0; bad[i]; i++)
		ok(run_trees(bad[i], strlen(bad[i]), OWNERS_LIST_ITEMS_NO_STATUS, 1, 0, &got) ==
			   OWNERS_EPROTO,
		   "trees: refused: %s", bad[i]);
	owners_buf_clear(&want);
	owners_buf_clear(&got);
	owners_error_clear(&err);
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
	trees(doc, len);
	free(doc);
	return tap_done();
}
