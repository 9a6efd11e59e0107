#include "list_items.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "json.h"

/*
 * The JSON parser's events drive it: at the top level only "items" and
 * "metadata" are followed (any other value is declined, so nothing of it
 * reaches us); each element of "items" is written again, compact, by the
 * generator as its events come, and handed over when it closes; or, for
 * a reader of trees, built into one from the same events.
 */

enum key { KEY_NONE, KEY_ITEMS, KEY_METADATA, KEY_OTHER };

struct owners_list_items {
	owners_list_item_text_fn fn;
	void *ctx;
	struct owners_json_parser *parser;
	int depth;               /* containers open (declined ones are not counted) */
	enum key key;            /* whose value comes next at the top level */
	int in_items, seen_items, in_metadata, continue_next;
	struct owners_json_gen *item; /* the item being written again, or NULL */
	struct owners_buf buf;   /* its text */
	/* A reader of trees: the item being built (building set while it is) */
	owners_list_item_tree_fn tree_fn;
	struct owners_json_builder *tree;
	int building;
	unsigned leave_out;      /* OWNERS_LIST_ITEMS_* */
	int member;              /* the item's member whose value comes next (depth 3) */
	int in_item_metadata;    /* inside the item's metadata */
	char *cont;
	/* Why a callback stopped the parse (it has no error argument). */
	struct owners_error why;
	int failed;
};

static const struct owners_json_callbacks callbacks;

int owners_list_items_new(struct owners_list_items **out, owners_list_item_text_fn fn, void *ctx)
{
	struct owners_list_items *s = calloc(1, sizeof(*s));

	*out = NULL;
	if (!s)
		return OWNERS_ENOMEM;
	s->fn = fn;
	s->ctx = ctx;
	owners_buf_init(&s->buf);
	if (owners_json_parser_new(&s->parser, &callbacks, s)) {
		free(s);
		return OWNERS_ENOMEM;
	}
	*out = s;
	return 0;
}

int owners_list_items_new_trees(struct owners_list_items **out, owners_list_item_tree_fn fn,
				unsigned leave_out, void *ctx)
{
	int rc = owners_list_items_new(out, NULL, ctx);

	if (rc)
		return rc;
	(*out)->tree_fn = fn;
	(*out)->leave_out = leave_out;
	if (owners_json_builder_new(&(*out)->tree)) {
		owners_list_items_free(*out);
		*out = NULL;
		return OWNERS_ENOMEM;
	}
	return 0;
}

void owners_list_items_reset(struct owners_list_items *s)
{
	int rc;

	owners_json_parser_free(s->parser);
	rc = owners_json_parser_new(&s->parser, &callbacks, s);
	owners_json_gen_free(s->item);
	s->item = NULL;
	owners_buf_reset(&s->buf);
	free(s->cont);
	s->cont = NULL;
	owners_error_clear(&s->why);
	s->depth = 0;
	s->key = KEY_NONE;
	s->in_items = s->seen_items = s->in_metadata = s->continue_next = 0;
	if (s->tree)
		owners_json_builder_reset(s->tree);
	s->building = s->member = s->in_item_metadata = 0;
	s->failed = rc;
}

void owners_list_items_free(struct owners_list_items *s)
{
	if (!s)
		return;
	owners_json_parser_free(s->parser);
	owners_json_gen_free(s->item);
	owners_json_builder_free(s->tree);
	free(s->cont);
	owners_buf_clear(&s->buf);
	owners_error_clear(&s->why);
	free(s);
}

const char *owners_list_items_continue(const struct owners_list_items *s)
{
	return s->cont ? s->cont : "";
}

/* Stops the parse with why (a callback's way to fail). */
static int stop(struct owners_list_items *s, int code, const char *why)
{
	if (code == OWNERS_ENOMEM)
		owners_error_oom(&s->why);
	else
		owners_error_set(&s->why, code, "unexpected list response: %s", why);
	return 1;
}

/* A generator call for the item being written; its first error stops. */
static int wrote(struct owners_list_items *s, int rc)
{
	return rc ? stop(s, rc, "an item cannot be written again") : 0;
}

/* The item is complete: hand it over. */
static int item_done(struct owners_list_items *s)
{
	int rc = owners_json_gen_error(s->item);

	owners_json_gen_free(s->item);
	s->item = NULL;
	if (rc)
		return stop(s, rc, "an item cannot be written again");
	rc = s->fn(s->ctx, s->buf.ptr, s->buf.len, &s->why);
	owners_buf_reset(&s->buf);
	if (rc && !s->why.code)
		owners_error_set(&s->why, rc, "unexpected list response: an item was refused");
	return rc ? 1 : 0;
}

/* A tree reader's item is complete: hand it over. */
static int tree_done(struct owners_list_items *s)
{
	struct owners_json_value *v = NULL;
	int rc = owners_json_builder_take(s->tree, &v);

	s->building = 0;
	if (rc)
		return stop(s, rc, "an item cannot be read");
	rc = s->tree_fn(s->ctx, v, &s->why);
	owners_json_value_free(v);
	if (rc && !s->why.code)
		owners_error_set(&s->why, rc, "unexpected list response: an item was refused");
	return rc ? 1 : 0;
}

/* A tree builder's event; its failure (out of memory, or nested too
 * deep) stops. */
static int built(struct owners_list_items *s, int failed)
{
	struct owners_json_value *v = NULL;
	int rc;

	if (!failed)
		return 0;
	rc = owners_json_builder_take(s->tree, &v);
	owners_json_value_free(v);
	return stop(s, rc == OWNERS_ENOMEM ? rc : OWNERS_EPROTO, "an item is nested too deep");
}

#define EVENTS (owners_json_builder_events())

static int on_scalar(struct owners_list_items *s, int rc)
{
	if (s->item)
		return wrote(s, rc);
	return 0;
}

static int on_null(void *ctx)
{
	struct owners_list_items *s = ctx;

	if (s->depth == 2 && s->in_items)
		return stop(s, OWNERS_EPROTO, "an item is not an object");
	if (s->building)
		return built(s, EVENTS->on_null(s->tree));
	return on_scalar(s, s->item ? owners_json_gen_null(s->item) : 0);
}

static int on_bool(void *ctx, int value)
{
	struct owners_list_items *s = ctx;

	if (s->depth == 2 && s->in_items)
		return stop(s, OWNERS_EPROTO, "an item is not an object");
	if (s->building)
		return built(s, EVENTS->on_bool(s->tree, value));
	return on_scalar(s, s->item ? owners_json_gen_bool(s->item, value) : 0);
}

static int on_number(void *ctx, const char *text, size_t len)
{
	struct owners_list_items *s = ctx;

	if (s->depth == 2 && s->in_items)
		return stop(s, OWNERS_EPROTO, "an item is not an object");
	if (s->building)
		return built(s, EVENTS->on_number(s->tree, text, len));
	return on_scalar(s, s->item ? owners_json_gen_number(s->item, text, len) : 0);
}

static int on_string(void *ctx, const char *text, size_t len)
{
	struct owners_list_items *s = ctx;

	if (s->depth == 2 && s->in_items)
		return stop(s, OWNERS_EPROTO, "an item is not an object");
	if (s->building)
		return built(s, EVENTS->on_string(s->tree, text, len));
	if (s->item)
		return wrote(s, owners_json_gen_stringn(s->item, text, len));
	if (s->in_metadata && s->depth == 2 && s->continue_next) {
		free(s->cont);
		if (!(s->cont = strndup(text, len)))
			return stop(s, OWNERS_ENOMEM, NULL);
	}
	return 0;
}

/* The members a tree reader may leave out of each item. */
enum member { MEMBER_OTHER, MEMBER_METADATA, MEMBER_STATUS, MEMBER_MANAGED_FIELDS };

static int member_of(const struct owners_list_items *s, const char *text, size_t len)
{
	if (s->depth == 3 && len == 8 && !memcmp(text, "metadata", 8))
		return MEMBER_METADATA;
	if (s->depth == 3 && len == 6 && !memcmp(text, "status", 6))
		return MEMBER_STATUS;
	if (s->depth == 4 && s->in_item_metadata && len == 13 && !memcmp(text, "managedFields", 13))
		return MEMBER_MANAGED_FIELDS;
	return MEMBER_OTHER;
}

/* Whether the value about to open is one the reader leaves out. */
static int left_out(const struct owners_list_items *s)
{
	return (s->member == MEMBER_STATUS && (s->leave_out & OWNERS_LIST_ITEMS_NO_STATUS)) ||
	       (s->member == MEMBER_MANAGED_FIELDS &&
		(s->leave_out & OWNERS_LIST_ITEMS_NO_MANAGED_FIELDS));
}

static int on_key(void *ctx, const char *text, size_t len)
{
	struct owners_list_items *s = ctx;

	if (s->building) {
		s->member = member_of(s, text, len);
		return built(s, EVENTS->on_key(s->tree, text, len));
	}
	if (s->item)
		return wrote(s, owners_json_gen_stringn(s->item, text, len));
	if (s->depth == 1)
		s->key = len == 5 && !memcmp(text, "items", 5)      ? KEY_ITEMS
			 : len == 8 && !memcmp(text, "metadata", 8) ? KEY_METADATA
								    : KEY_OTHER;
	else if (s->in_metadata && s->depth == 2)
		s->continue_next = len == 8 && !memcmp(text, "continue", 8);
	return 0;
}

/* A container opens inside a tree reader's item: left out (the builder
 * keeps the key it was given: the next member's replaces it), or built. */
static int tree_open(struct owners_list_items *s, int map)
{
	if (left_out(s))
		return OWNERS_JSON_SKIP;
	s->in_item_metadata |= map && s->depth == 3 && s->member == MEMBER_METADATA;
	s->depth++;
	return built(s, map ? EVENTS->on_start_map(s->tree) : EVENTS->on_start_array(s->tree));
}

static int on_start_map(void *ctx)
{
	struct owners_list_items *s = ctx;

	if (s->building)
		return tree_open(s, 1);
	if (s->item)
		return s->depth++, wrote(s, owners_json_gen_map_open(s->item));
	if (s->depth == 1 && s->key == KEY_ITEMS)
		return stop(s, OWNERS_EPROTO, "'items' is not an array");
	if (s->depth == 1 && s->key == KEY_METADATA) {
		s->in_metadata = 1;
	} else if (s->depth == 2 && s->in_items && s->tree) {
		s->building = 1;
		s->member = s->in_item_metadata = 0;
		s->depth++;
		return built(s, EVENTS->on_start_map(s->tree));
	} else if (s->depth == 2 && s->in_items) {
		if (owners_json_gen_new(&s->item, &s->buf, 0))
			return stop(s, OWNERS_ENOMEM, NULL);
		s->depth++;
		return wrote(s, owners_json_gen_map_open(s->item));
	} else if (s->depth >= 1) {
		return OWNERS_JSON_SKIP; /* nobody reads it */
	}
	s->depth++;
	return 0;
}

static int on_start_array(void *ctx)
{
	struct owners_list_items *s = ctx;

	if (s->building)
		return tree_open(s, 0);
	if (s->item)
		return s->depth++, wrote(s, owners_json_gen_array_open(s->item));
	if (!s->depth)
		return stop(s, OWNERS_EPROTO, "not an object");
	if (s->depth == 2 && s->in_items)
		return stop(s, OWNERS_EPROTO, "an item is not an object");
	if (s->depth == 1 && s->key == KEY_ITEMS) {
		s->in_items = s->seen_items = 1;
		s->depth++;
		return 0;
	}
	return OWNERS_JSON_SKIP;
}

static int on_end(struct owners_list_items *s, int map)
{
	s->depth--;
	if (s->building) {
		if (built(s, map ? EVENTS->on_end_map(s->tree) : EVENTS->on_end_array(s->tree)))
			return 1;
		if (s->depth == 3)
			s->in_item_metadata = 0;
		return s->depth == 2 ? tree_done(s) : 0;
	}
	if (s->item) {
		if (wrote(s, map ? owners_json_gen_map_close(s->item) : owners_json_gen_array_close(s->item)))
			return 1;
		return s->depth == 2 ? item_done(s) : 0;
	}
	if (s->depth == 1) {
		s->in_items = 0;
		s->in_metadata = 0;
	}
	return 0;
}

static int on_end_map(void *ctx)
{
	return on_end(ctx, 1);
}

static int on_end_array(void *ctx)
{
	return on_end(ctx, 0);
}

static const struct owners_json_callbacks callbacks = {
	on_null, on_bool, on_number, on_string, on_start_map, on_key, on_end_map, on_start_array,
	on_end_array,
};

/* A failed feed or finish: a callback's own reason when it had one. */
static int failed(struct owners_list_items *s, int rc, struct owners_error *err)
{
	if (s->why.code) {
		rc = s->why.code;
		owners_error_set(err, rc, "%s", owners_error_message(&s->why));
	} else if (rc != OWNERS_ENOMEM) {
		owners_error_prefix(err, "unexpected list response");
	}
	s->failed = rc;
	return rc;
}

int owners_list_items_feed(struct owners_list_items *s, const char *data, size_t len,
			   struct owners_error *err)
{
	int rc;

	if (s->failed)
		return s->failed == OWNERS_ENOMEM ? owners_error_oom(err) : s->failed;
	if ((rc = owners_json_parser_feed(s->parser, data, len, err)))
		return failed(s, rc, err);
	return 0;
}

int owners_list_items_finish(struct owners_list_items *s, struct owners_error *err)
{
	int rc;

	if (s->failed)
		return s->failed;
	if ((rc = owners_json_parser_finish(s->parser, err)))
		return failed(s, rc, err);
	if (!s->seen_items) {
		s->failed = OWNERS_EPROTO;
		return owners_error_set(err, OWNERS_EPROTO, "unexpected list response: no 'items' array: not a list");
	}
	return 0;
}
