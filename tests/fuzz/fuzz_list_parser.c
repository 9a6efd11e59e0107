/* libFuzzer target: the streaming list parser (yajl underneath). The first
 * byte says how the body is cut into chunks (and which flag the parser
 * gets); the rest is the body. It is parsed whole and in those chunks, and
 * the two must agree: the same items (count and bytes), the same continue
 * token, and both fail or neither. The same body goes through the splitter
 * of whole items (list_items.c) too, whose two readers must agree: each
 * tree the reader of trees builds (in those chunks) is what the text
 * reader's item (whole) parses to, and one fails when the other does. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "list_items.h"
#include "list_parser.h"

struct seen {
	size_t items, bytes;
};

static int on_item(void *ctx, const struct owners_object_meta *m, struct owners_error *err)
{
	struct seen *s = ctx;
	size_t i;

	(void)err;
	/* Touch every string so the sanitizers see any bad pointer. */
	s->items++;
	s->bytes += strlen(m->name) + strlen(m->namespace_) + strlen(m->uid);
	for (i = 0; i < m->n_owner_refs; i++)
		s->bytes += strlen(m->owner_refs[i].uid) + strlen(m->owner_refs[i].kind);
	for (i = 0; i < m->n_finalizers; i++)
		s->bytes += strlen(m->finalizers[i]);
	for (i = 0; i < m->n_labels; i++)
		s->bytes += strlen(m->labels[i].key) + strlen(m->labels[i].value);
	return 0;
}

/* Parses body in chunks of step bytes (0: whole); returns 0 or the error,
 * with what was seen and the continue token (the caller frees it). */
static int parse(const char *body, size_t len, size_t step, int flag, struct seen *s, char **cont)
{
	struct owners_list_parser *p = NULL;
	struct owners_error err = OWNERS_ERROR_INIT;
	size_t at;
	int rc = 0;

	memset(s, 0, sizeof(*s));
	*cont = NULL;
	if (owners_list_parser_new(&p, flag, on_item, s))
		return -1;
	if (!step)
		step = len ? len : 1;
	for (at = 0; !rc && at < len; at += step)
		rc = owners_list_parser_feed(p, body + at, at + step <= len ? step : len - at, &err);
	if (!rc)
		rc = owners_list_parser_finish(p, &err);
	*cont = strdup(owners_list_parser_continue_token(p));
	(void)owners_list_parser_kind(p);
	owners_list_parser_free(p);
	owners_error_clear(&err);
	return rc;
}

/* Each item written compact after the last. */
static int tree_text(void *ctx, const struct owners_json_value *item, struct owners_error *err)
{
	struct owners_json_gen *g = NULL;
	int rc = owners_json_gen_new(&g, ctx, 0);

	(void)err;
	if (!rc)
		rc = owners_json_gen_value(g, item);
	owners_json_gen_free(g);
	return rc || owners_buf_addc(ctx, '\n') ? OWNERS_ENOMEM : 0;
}

static int text_text(void *ctx, const char *item, size_t len, struct owners_error *err)
{
	struct owners_json_value *v = NULL;
	int rc = owners_json_parse(&v, item, len, err);

	if (!rc)
		rc = tree_text(ctx, v, err);
	owners_json_value_free(v);
	return rc;
}

/* The body through one reader of list_items, fed step bytes at a time
 * (0: whole); every item's text in out. */
static int split(const char *body, size_t len, size_t step, int trees, unsigned leave_out,
		 struct owners_buf *out)
{
	struct owners_list_items *s = NULL;
	struct owners_error err = OWNERS_ERROR_INIT;
	size_t at;
	int rc = trees ? owners_list_items_new_trees(&s, tree_text, leave_out, out)
		       : owners_list_items_new(&s, text_text, out);

	if (rc)
		return -1;
	if (!step)
		step = len ? len : 1;
	for (at = 0; !rc && at < len; at += step)
		rc = owners_list_items_feed(s, body + at, at + step <= len ? step : len - at, &err);
	if (!rc)
		rc = owners_list_items_finish(s, &err);
	owners_list_items_free(s);
	owners_error_clear(&err);
	return rc;
}

static void items_agree(const char *body, size_t len, uint8_t how)
{
	struct owners_buf text = OWNERS_BUF_INIT, tree = OWNERS_BUF_INIT;
	int rc_text = split(body, len, 0, 0, 0, &text);
	int rc_tree = split(body, len, (size_t)how % 64 + 1, 1, 0, &tree);

	if (rc_text != -1 && rc_tree != -1 && rc_text != OWNERS_ENOMEM &&
	    rc_tree != OWNERS_ENOMEM &&
	    (!rc_text != !rc_tree ||
	     (!rc_text &&
	      (text.len != tree.len || (text.len && memcmp(text.ptr, tree.ptr, text.len))))))
		abort(); /* the two readers disagree */
	/* what a reader leaves out only has to be read safely */
	split(body, len, (size_t)how % 7 + 1, 1,
	      OWNERS_LIST_ITEMS_NO_STATUS | OWNERS_LIST_ITEMS_NO_MANAGED_FIELDS, &tree);
	owners_buf_clear(&text);
	owners_buf_clear(&tree);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct seen whole, chunked;
	char *cont_whole = NULL, *cont_chunked = NULL;
	int rc_whole, rc_chunked;

	if (!size)
		return 0;
	rc_whole = parse((const char *)data + 1, size - 1, 0, data[0] & 1, &whole, &cont_whole);
	rc_chunked = parse((const char *)data + 1, size - 1, (size_t)data[0] % 64 + 1, data[0] & 1, &chunked,
			   &cont_chunked);
	if (rc_whole != -1 && rc_chunked != -1 &&
	    (!rc_whole != !rc_chunked || (!rc_whole && (whole.items != chunked.items || whole.bytes != chunked.bytes ||
							 !cont_whole != !cont_chunked ||
							 (cont_whole && strcmp(cont_whole, cont_chunked))))))
		abort(); /* whole and chunked disagree */
	free(cont_whole);
	free(cont_chunked);
	items_agree((const char *)data + 1, size - 1, data[0]);
	return 0;
}
