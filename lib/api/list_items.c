#include "list_items.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "json.h"

enum key { KEY_NONE, KEY_ITEMS, KEY_METADATA, KEY_OTHER };
enum capture { CAPTURE_NONE, CAPTURE_ITEM, CAPTURE_METADATA };

struct owners_list_items {
	owners_list_item_text_fn fn;
	void *ctx;
	int depth;
	int in_string, escape;
	/* The last string closed at the top level, when short: it is a key if
	 * a ':' follows. Only "items" and "metadata" matter. */
	char word[16];
	size_t word_len;
	int word_long, after_string;
	enum key key;           /* whose value comes next at the top level */
	int in_items, seen_items, done;
	enum capture capture;
	struct owners_buf buf;  /* the item (or list metadata) being read */
	char *cont;
	int failed;
};

int owners_list_items_new(struct owners_list_items **out, owners_list_item_text_fn fn, void *ctx)
{
	struct owners_list_items *s = calloc(1, sizeof(*s));

	*out = s;
	if (!s)
		return OWNERS_ENOMEM;
	s->fn = fn;
	s->ctx = ctx;
	owners_buf_init(&s->buf);
	return 0;
}

void owners_list_items_reset(struct owners_list_items *s)
{
	struct owners_buf keep = s->buf;
	owners_list_item_text_fn fn = s->fn;
	void *ctx = s->ctx;

	free(s->cont);
	memset(s, 0, sizeof(*s));
	s->buf = keep;
	owners_buf_reset(&s->buf);
	s->fn = fn;
	s->ctx = ctx;
}

void owners_list_items_free(struct owners_list_items *s)
{
	if (!s)
		return;
	free(s->cont);
	owners_buf_release(&s->buf);
	free(s);
}

const char *owners_list_items_continue(const struct owners_list_items *s)
{
	return s->cont ? s->cont : "";
}

static int fail(struct owners_list_items *s, int code, struct owners_error *err, const char *why)
{
	s->failed = code;
	if (code == OWNERS_ENOMEM)
		return owners_error_oom(err);
	return owners_error_set(err, code, "unexpected list response: %s", why);
}

static enum key key_of(const struct owners_list_items *s)
{
	if (s->word_long)
		return KEY_OTHER;
	if (s->word_len == 5 && !memcmp(s->word, "items", 5))
		return KEY_ITEMS;
	if (s->word_len == 8 && !memcmp(s->word, "metadata", 8))
		return KEY_METADATA;
	return KEY_OTHER;
}

static int list_metadata(struct owners_list_items *s, struct owners_error *err)
{
	struct owners_json_value *meta = NULL;
	const char *c;

	if (owners_json_parse(&meta, s->buf.ptr, s->buf.len, NULL))
		return fail(s, OWNERS_EPROTO, err, "the list's metadata is not JSON");
	c = owners_json_string(owners_json_get(meta, "continue"));
	free(s->cont);
	s->cont = c ? owners_strdup(c) : NULL;
	owners_json_value_free(meta);
	return c && !s->cont ? fail(s, OWNERS_ENOMEM, err, NULL) : 0;
}

static int open_bracket(struct owners_list_items *s, char c, struct owners_error *err)
{
	if (s->done)
		return fail(s, OWNERS_EPROTO, err, "text after the document");
	if (s->depth == 0 && c != '{')
		return fail(s, OWNERS_EPROTO, err, "not an object");
	if (s->depth == 1 && s->key == KEY_ITEMS) {
		if (c != '[')
			return fail(s, OWNERS_EPROTO, err, "'items' is not an array");
		s->in_items = s->seen_items = 1;
	} else if (s->depth == 1 && s->key == KEY_METADATA && c == '{') {
		s->capture = CAPTURE_METADATA;
	} else if (s->depth == 2 && s->in_items && !s->capture) {
		if (c != '{')
			return fail(s, OWNERS_EPROTO, err, "an item is not an object");
		s->capture = CAPTURE_ITEM;
	}
	s->depth++;
	return 0;
}

/* A captured value is complete: hand it over. */
static int captured(struct owners_list_items *s, struct owners_error *err)
{
	enum capture what = s->capture;
	int rc;

	s->capture = CAPTURE_NONE;
	if (what == CAPTURE_METADATA)
		rc = list_metadata(s, err);
	else if ((rc = s->fn(s->ctx, s->buf.ptr, s->buf.len, err)))
		s->failed = rc;
	owners_buf_reset(&s->buf);
	return rc;
}

int owners_list_items_feed(struct owners_list_items *s, const char *data, size_t len,
			   struct owners_error *err)
{
	size_t i, from = 0;
	int rc;

	if (s->failed)
		return s->failed;
	for (i = 0; i < len; i++) {
		char c = data[i];
		int top = s->depth == 1 && !s->capture;

		if (s->in_string) {
			if (s->escape)
				s->escape = 0;
			else if (c == '\\')
				s->escape = 1;
			else if (c == '"') {
				s->in_string = 0;
				s->after_string = top;
				continue;
			}
			if (top) {
				if (s->word_len < sizeof(s->word))
					s->word[s->word_len++] = c;
				else
					s->word_long = 1;
			}
			continue;
		}
		switch (c) {
		case ' ': case '\t': case '\n': case '\r':
			continue;
		case '"':
			if (s->done)
				return fail(s, OWNERS_EPROTO, err, "text after the document");
			if (s->depth == 2 && s->in_items && !s->capture)
				return fail(s, OWNERS_EPROTO, err, "an item is not an object");
			s->in_string = 1;
			s->word_len = 0;
			s->word_long = 0;
			break;
		case ':':
			if (top && s->after_string)
				s->key = key_of(s);
			break;
		case ',':
			if (top)
				s->key = KEY_NONE;
			break;
		case '{': case '[':
			if (s->capture) {  /* nested inside what is being read */
				s->depth++;
				break;
			}
			if ((rc = open_bracket(s, c, err)))
				return rc;
			if (s->capture)    /* an item (or the metadata) starts here */
				from = i;
			break;
		case '}': case ']':
			if (--s->depth < 0)
				return fail(s, OWNERS_EPROTO, err, "unbalanced brackets");
			if ((s->capture == CAPTURE_ITEM && s->depth == 2) ||
			    (s->capture == CAPTURE_METADATA && s->depth == 1)) {
				if (owners_buf_add(&s->buf, data + from, i + 1 - from))
					return fail(s, OWNERS_ENOMEM, err, NULL);
				if ((rc = captured(s, err)))
					return rc;
			}
			if (s->in_items && s->depth == 1)
				s->in_items = 0;
			s->done = s->depth == 0;
			break;
		default:
			if (s->done)
				return fail(s, OWNERS_EPROTO, err, "text after the document");
			if (s->depth == 2 && s->in_items && !s->capture)
				return fail(s, OWNERS_EPROTO, err, "an item is not an object");
			break;
		}
		s->after_string = 0;
	}
	if (s->capture && owners_buf_add(&s->buf, data + from, len - from))
		return fail(s, OWNERS_ENOMEM, err, NULL);
	return 0;
}

int owners_list_items_finish(struct owners_list_items *s, struct owners_error *err)
{
	if (s->failed)
		return s->failed;
	if (!s->done || s->in_string)
		return fail(s, OWNERS_EPROTO, err, "the document is truncated");
	if (!s->seen_items)
		return fail(s, OWNERS_EPROTO, err, "no 'items' array: not a list");
	return 0;
}
