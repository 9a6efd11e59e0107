#include "list_parser.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "grow.h"
#include "json.h"

/*
 * The parser is a small state machine over the JSON events of lib/codec/json.h.
 * The part of the document we read has a fixed shape (list -> items ->
 * item -> metadata -> ownerReferences -> reference), so "where" is one
 * enum value, not a stack. Every other object or array is declined
 * (OWNERS_JSON_SKIP): the tokenizer passes over it with no event at all,
 * so unknown nesting can be arbitrarily deep, and managedFields, spec and
 * status cost a quick scan of their bytes.
 *
 * The strings of the current item are copied into one arena buffer and
 * remembered as offsets (the arena may move while it grows); they become
 * pointers only when the item is handed out. All buffers are reused from
 * item to item, so a steady-state item costs no allocation at all.
 */

enum where {
	W_TOP,          /* before the document */
	W_ROOT,         /* in the list object */
	W_LIST_META,    /* in the list's metadata */
	W_ITEMS,        /* in items[] */
	W_ITEM,         /* in items[i] */
	W_META,         /* in items[i].metadata */
	W_FINALIZERS,   /* in items[i].metadata.finalizers[] */
	W_OWNER_REFS,   /* in items[i].metadata.ownerReferences[] */
	W_OWNER_REF,    /* in items[i].metadata.ownerReferences[j] */
	W_LABELS,       /* in items[i].metadata.labels */
	W_DONE,         /* after the document */
};

/* What the value after the last key means. Set by on_key in objects. */
enum field {
	F_SKIP,
	F_ROOT_STRING,     /* kind, apiVersion, reason, message: p->root_bufs[slot] */
	F_ROOT_METADATA,
	F_ROOT_ITEMS,
	F_LIST_STRING,     /* continue, resourceVersion: p->root_bufs[slot] */
	F_LIST_REMAINING,
	F_ITEM_METADATA,
	F_META_STRING,     /* p->meta[slot] */
	F_META_FINALIZERS,
	F_META_OWNER_REFS,
	F_META_LABELS,
	F_REF_STRING,      /* the current reference's s[slot] */
	F_REF_CONTROLLER,
	F_REF_BLOCK,
	F_LABEL_VALUE,
};

enum root_slot { R_KIND, R_API_VERSION, R_REASON, R_MESSAGE, R_CONTINUE, R_RESOURCE_VERSION,
		 R_COUNT };
enum meta_slot { M_NAME, M_NAMESPACE, M_UID, M_RESOURCE_VERSION, M_CREATION, M_DELETION,
		 M_COUNT };
enum ref_slot { REF_API_VERSION, REF_KIND, REF_NAME, REF_UID, REF_COUNT };

enum jtype { T_NULL, T_BOOL, T_NUMBER, T_STRING, T_MAP, T_ARRAY };

static const char *const type_names[] = {
	"null", "a boolean", "a number", "a string", "an object", "an array",
};

struct ref_off {
	size_t s[REF_COUNT]; /* offsets into the arena; 0 is "" */
	int controller;
	int block;
	int has_controller;
	int has_block;
};

struct label_off {
	size_t key, value;
};

struct owners_list_parser {
	struct owners_json_parser *json; /* NULL until the first feed after a reset */
	owners_list_parser_item_fn on_item;
	void *ctx;
	int keep_labels;
	struct owners_error *err; /* the caller's, during a feed only */
	int rc;                   /* sticky failure of this document */

	enum where where;
	enum field field;
	int slot;
	const char *field_name; /* the key, for messages */

	/* The document. */
	struct owners_buf root_bufs[R_COUNT];
	int64_t remaining;
	int seen_items;
	size_t n_items;

	/* The current item. */
	int have_meta;
	struct owners_buf arena;
	size_t meta[M_COUNT];
	size_t *fins;
	size_t n_fins, cap_fins;
	struct ref_off *refs;
	size_t n_refs, cap_refs;
	struct label_off *labels;
	size_t n_labels, cap_labels;
	size_t label_key;

	/* What on_item sees, rebuilt from the offsets per item. */
	const char **fin_ptrs;
	size_t cap_fin_ptrs;
	struct owners_owner_ref_meta *ref_ptrs;
	size_t cap_ref_ptrs;
	unsigned char *ref_fields;
	size_t cap_ref_fields;
	struct owners_label_meta *label_ptrs;
	size_t cap_label_ptrs;
};

/* ---- errors ------------------------------------------------------------ */

static void location(struct owners_list_parser *p, struct owners_buf *b)
{
	switch (p->where) {
	case W_TOP:
	case W_DONE:
		owners_buf_adds(b, "the document");
		break;
	case W_ROOT:
		owners_buf_addf(b, "'%s'", p->field_name);
		break;
	case W_LIST_META:
		owners_buf_addf(b, "'metadata.%s'", p->field_name);
		break;
	case W_ITEMS:
		owners_buf_addf(b, "'items[%zu]'", p->n_items);
		break;
	case W_ITEM:
		owners_buf_addf(b, "'items[%zu].%s'", p->n_items, p->field_name);
		break;
	case W_META:
		owners_buf_addf(b, "'items[%zu].metadata.%s'", p->n_items, p->field_name);
		break;
	case W_FINALIZERS:
		owners_buf_addf(b, "'items[%zu].metadata.finalizers[%zu]'", p->n_items, p->n_fins);
		break;
	case W_OWNER_REFS:
		owners_buf_addf(b, "'items[%zu].metadata.ownerReferences[%zu]'", p->n_items,
				p->n_refs);
		break;
	case W_OWNER_REF:
		owners_buf_addf(b, "'items[%zu].metadata.ownerReferences[%zu].%s'", p->n_items,
				p->n_refs - 1, p->field_name);
		break;
	case W_LABELS:
		owners_buf_addf(b, "'items[%zu].metadata.labels.%s'", p->n_items,
				p->arena.ptr + p->label_key);
		break;
	}
}

/* Records a failure of this document; returns 1 so the JSON parser stops. */
static int fail(struct owners_list_parser *p, int code)
{
	if (!p->rc)
		p->rc = code;
	return 1;
}

static int fail_oom(struct owners_list_parser *p)
{
	return fail(p, owners_error_oom(p->err));
}

static int fail_shape(struct owners_list_parser *p, enum jtype got, const char *want)
{
	struct owners_buf where = OWNERS_BUF_INIT;

	/* If the location cannot be built, the message is shorter, not lost. */
	location(p, &where);
	owners_error_set(p->err, OWNERS_EPROTO, "unexpected list response: %s is %s, expected %s",
			 where.ptr, type_names[got], want);
	owners_buf_clear(&where);
	return fail(p, OWNERS_EPROTO);
}

static int fail_nul(struct owners_list_parser *p)
{
	struct owners_buf where = OWNERS_BUF_INIT;

	location(p, &where);
	owners_error_set(p->err, OWNERS_EPROTO,
			 "unexpected list response: %s contains a NUL character", where.ptr);
	owners_buf_clear(&where);
	return fail(p, OWNERS_EPROTO);
}

/* ---- storage ----------------------------------------------------------- */

/* Strings we keep end up as C strings; an embedded NUL would silently cut
 * one short (two different UIDs could compare equal), so it is refused. */
static int has_nul(const char *s, size_t len)
{
	return len && memchr(s, '\0', len) != NULL;
}

/* Copies s into the arena as a C string and returns its offset in *off. */
static int arena_add(struct owners_list_parser *p, const char *s, size_t len, size_t *off)
{
	if (has_nul(s, len))
		return fail_nul(p);
	*off = p->arena.len;
	if (owners_buf_add(&p->arena, s, len) || owners_buf_addc(&p->arena, '\0'))
		return fail_oom(p);
	return 0;
}

static int buf_set(struct owners_list_parser *p, struct owners_buf *b, const char *s, size_t len)
{
	if (has_nul(s, len))
		return fail_nul(p);
	owners_buf_reset(b);
	if (owners_buf_add(b, s, len))
		return fail_oom(p);
	return 0;
}

static int item_begin(struct owners_list_parser *p)
{
	owners_buf_reset(&p->arena);
	/* Offset 0 is the empty string that absent fields point at. */
	if (owners_buf_addc(&p->arena, '\0'))
		return fail_oom(p);
	memset(p->meta, 0, sizeof(p->meta));
	p->n_fins = p->n_refs = p->n_labels = 0;
	p->label_key = 0;
	p->have_meta = 0;
	return 0;
}

static int item_end(struct owners_list_parser *p)
{
	struct owners_object_meta m;
	const char *a = p->arena.ptr;
	size_t i;
	int rc;

	if (!p->have_meta) {
		owners_error_set(p->err, OWNERS_EPROTO,
				 "unexpected list response: 'items[%zu]' has no metadata", p->n_items);
		return fail(p, OWNERS_EPROTO);
	}
	for (i = 0; i < p->n_fins; i++)
		p->fin_ptrs[i] = a + p->fins[i];
	for (i = 0; i < p->n_refs; i++) {
		struct owners_owner_ref_meta *r = &p->ref_ptrs[i];

		r->api_version = a + p->refs[i].s[REF_API_VERSION];
		r->kind = a + p->refs[i].s[REF_KIND];
		r->name = a + p->refs[i].s[REF_NAME];
		r->uid = a + p->refs[i].s[REF_UID];
		r->controller = p->refs[i].controller;
		r->block_owner_deletion = p->refs[i].block;
		p->ref_fields[i] = (unsigned char)((p->refs[i].has_controller ? OWNERS_REF_HAS_CONTROLLER : 0) |
						   (p->refs[i].has_block ? OWNERS_REF_HAS_BLOCK_OWNER_DELETION : 0));
	}
	for (i = 0; i < p->n_labels; i++) {
		p->label_ptrs[i].key = a + p->labels[i].key;
		p->label_ptrs[i].value = a + p->labels[i].value;
	}
	m.name = a + p->meta[M_NAME];
	m.namespace_ = a + p->meta[M_NAMESPACE];
	m.uid = a + p->meta[M_UID];
	m.resource_version = a + p->meta[M_RESOURCE_VERSION];
	m.creation_timestamp = a + p->meta[M_CREATION];
	m.deletion_timestamp = a + p->meta[M_DELETION];
	m.finalizers = p->fin_ptrs;
	m.n_finalizers = p->n_fins;
	m.owner_refs = p->ref_ptrs;
	m.n_owner_refs = p->n_refs;
	m.owner_ref_fields = p->ref_fields;
	m.labels = p->label_ptrs;
	m.n_labels = p->n_labels;

	rc = p->on_item ? p->on_item(p->ctx, &m, p->err) : 0;
	p->n_items++;
	if (rc) {
		rc = rc < 0 ? rc : OWNERS_EINVAL;
		owners_error_set(p->err, rc, "%s", owners_errcode_name(rc));
		return fail(p, rc);
	}
	return 0;
}

static int add_finalizer(struct owners_list_parser *p, const char *s, size_t len)
{
	size_t off;

	if (OWNERS_GROW(p->fins, p->cap_fins, p->n_fins + 1) ||
	    OWNERS_GROW(p->fin_ptrs, p->cap_fin_ptrs, p->n_fins + 1))
		return fail_oom(p);
	if (arena_add(p, s, len, &off))
		return 1;
	p->fins[p->n_fins++] = off;
	return 0;
}

static int add_owner_ref(struct owners_list_parser *p)
{
	if (OWNERS_GROW(p->refs, p->cap_refs, p->n_refs + 1) ||
	    OWNERS_GROW(p->ref_ptrs, p->cap_ref_ptrs, p->n_refs + 1) ||
	    OWNERS_GROW(p->ref_fields, p->cap_ref_fields, p->n_refs + 1))
		return fail_oom(p);
	memset(&p->refs[p->n_refs++], 0, sizeof(*p->refs));
	return 0;
}

static int add_label(struct owners_list_parser *p, const char *s, size_t len)
{
	size_t off;

	if (OWNERS_GROW(p->labels, p->cap_labels, p->n_labels + 1) ||
	    OWNERS_GROW(p->label_ptrs, p->cap_label_ptrs, p->n_labels + 1))
		return fail_oom(p);
	if (arena_add(p, s, len, &off))
		return 1;
	p->labels[p->n_labels].key = p->label_key;
	p->labels[p->n_labels].value = off;
	p->n_labels++;
	return 0;
}

/* remainingItemCount: a non-negative integer that fits in int64. */
static int parse_count(const char *s, size_t len, int64_t *out)
{
	int64_t v = 0;
	size_t i;

	if (!len)
		return -1;
	for (i = 0; i < len; i++) {
		int d = s[i] - '0';

		if (d < 0 || d > 9 || v > (INT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

/* ---- events ------------------------------------------------------------ */

#define KEY(lit) (len == sizeof(lit) - 1 && !memcmp(s, lit, sizeof(lit) - 1))

static void set_field(struct owners_list_parser *p, enum field f, int slot, const char *name)
{
	p->field = f;
	p->slot = slot;
	p->field_name = name;
}

static int on_key(void *ctx, const char *s, size_t len)
{
	struct owners_list_parser *p = ctx;

	p->field = F_SKIP;
	switch (p->where) {
	case W_ROOT:
		if (KEY("items"))
			set_field(p, F_ROOT_ITEMS, 0, "items");
		else if (KEY("metadata"))
			set_field(p, F_ROOT_METADATA, 0, "metadata");
		else if (KEY("kind"))
			set_field(p, F_ROOT_STRING, R_KIND, "kind");
		else if (KEY("apiVersion"))
			set_field(p, F_ROOT_STRING, R_API_VERSION, "apiVersion");
		/* Only a Status has these at the top; kept for its message. */
		else if (KEY("reason"))
			set_field(p, F_ROOT_STRING, R_REASON, "reason");
		else if (KEY("message"))
			set_field(p, F_ROOT_STRING, R_MESSAGE, "message");
		break;
	case W_LIST_META:
		if (KEY("continue"))
			set_field(p, F_LIST_STRING, R_CONTINUE, "continue");
		else if (KEY("resourceVersion"))
			set_field(p, F_LIST_STRING, R_RESOURCE_VERSION, "resourceVersion");
		else if (KEY("remainingItemCount"))
			set_field(p, F_LIST_REMAINING, 0, "remainingItemCount");
		break;
	case W_ITEM:
		if (KEY("metadata"))
			set_field(p, F_ITEM_METADATA, 0, "metadata");
		break;
	case W_META:
		/* Most keys of a full object's metadata are skipped; test the
		 * length first so they cost one comparison each. */
		if (KEY("name"))
			set_field(p, F_META_STRING, M_NAME, "name");
		else if (KEY("namespace"))
			set_field(p, F_META_STRING, M_NAMESPACE, "namespace");
		else if (KEY("uid"))
			set_field(p, F_META_STRING, M_UID, "uid");
		else if (KEY("resourceVersion"))
			set_field(p, F_META_STRING, M_RESOURCE_VERSION, "resourceVersion");
		else if (KEY("creationTimestamp"))
			set_field(p, F_META_STRING, M_CREATION, "creationTimestamp");
		else if (KEY("deletionTimestamp"))
			set_field(p, F_META_STRING, M_DELETION, "deletionTimestamp");
		else if (KEY("finalizers"))
			set_field(p, F_META_FINALIZERS, 0, "finalizers");
		else if (KEY("ownerReferences"))
			set_field(p, F_META_OWNER_REFS, 0, "ownerReferences");
		else if (p->keep_labels && KEY("labels"))
			set_field(p, F_META_LABELS, 0, "labels");
		break;
	case W_OWNER_REF:
		if (KEY("apiVersion"))
			set_field(p, F_REF_STRING, REF_API_VERSION, "apiVersion");
		else if (KEY("kind"))
			set_field(p, F_REF_STRING, REF_KIND, "kind");
		else if (KEY("name"))
			set_field(p, F_REF_STRING, REF_NAME, "name");
		else if (KEY("uid"))
			set_field(p, F_REF_STRING, REF_UID, "uid");
		else if (KEY("controller"))
			set_field(p, F_REF_CONTROLLER, 0, "controller");
		else if (KEY("blockOwnerDeletion"))
			set_field(p, F_REF_BLOCK, 0, "blockOwnerDeletion");
		break;
	case W_LABELS:
		/* Offset 0 ("") names the key in a message about the key itself. */
		p->label_key = 0;
		if (arena_add(p, s, len, &p->label_key))
			return 1;
		set_field(p, F_LABEL_VALUE, 0, "");
		break;
	default:
		/* the parser (json.c) only produces keys inside objects */
		break;
	}
	return 0;
}

/* The value of the last key inside an object: one case per field the
 * parser reads, so the grammar of a list document's objects reads in
 * one place (on_value has the array elements). */
static int on_field_value(struct owners_list_parser *p, enum jtype t, const char *s, size_t len)
{
	if (p->field == F_SKIP)
		return t == T_MAP || t == T_ARRAY ? OWNERS_JSON_SKIP : 0;
	if (p->field == F_ROOT_ITEMS)
		p->seen_items = 1;
	/* null is what Go's encoder writes for an empty pointer, slice or map:
	 * the field is absent. */
	if (t == T_NULL)
		return 0;

	switch (p->field) {
	case F_SKIP:
		break;
	case F_ROOT_STRING:
	case F_LIST_STRING:
		if (t != T_STRING)
			return fail_shape(p, t, "a string");
		return buf_set(p, &p->root_bufs[p->slot], s, len);
	case F_ROOT_METADATA:
		if (t != T_MAP)
			return fail_shape(p, t, "an object");
		p->where = W_LIST_META;
		return 0;
	case F_ROOT_ITEMS:
		if (t != T_ARRAY)
			return fail_shape(p, t, "an array");
		p->where = W_ITEMS;
		return 0;
	case F_LIST_REMAINING:
		if (t != T_NUMBER)
			return fail_shape(p, t, "a number");
		if (parse_count(s, len, &p->remaining))
			return fail_shape(p, t, "a non-negative integer");
		return 0;
	case F_ITEM_METADATA:
		if (t != T_MAP)
			return fail_shape(p, t, "an object");
		p->have_meta = 1;
		p->where = W_META;
		return 0;
	case F_META_STRING:
		if (t != T_STRING)
			return fail_shape(p, t, "a string");
		return arena_add(p, s, len, &p->meta[p->slot]);
	case F_META_FINALIZERS:
		if (t != T_ARRAY)
			return fail_shape(p, t, "an array");
		p->n_fins = 0;
		p->where = W_FINALIZERS;
		return 0;
	case F_META_OWNER_REFS:
		if (t != T_ARRAY)
			return fail_shape(p, t, "an array");
		p->n_refs = 0;
		p->where = W_OWNER_REFS;
		return 0;
	case F_META_LABELS:
		if (t != T_MAP)
			return fail_shape(p, t, "an object");
		p->n_labels = 0;
		p->where = W_LABELS;
		return 0;
	case F_REF_STRING:
		if (t != T_STRING)
			return fail_shape(p, t, "a string");
		return arena_add(p, s, len, &p->refs[p->n_refs - 1].s[p->slot]);
	case F_REF_CONTROLLER:
	case F_REF_BLOCK:
		if (t != T_BOOL)
			return fail_shape(p, t, "a boolean");
		if (p->field == F_REF_CONTROLLER) {
			p->refs[p->n_refs - 1].controller = len != 0;
			p->refs[p->n_refs - 1].has_controller = 1;
		} else {
			p->refs[p->n_refs - 1].block = len != 0;
			p->refs[p->n_refs - 1].has_block = 1;
		}
		return 0;
	case F_LABEL_VALUE:
		if (t != T_STRING)
			return fail_shape(p, t, "a string");
		return add_label(p, s, len);
	}
	return 0;
}

/* One value (a scalar, or the opening of an object or array) at the
 * current place: an element of one of the arrays the parser reads (or the
 * document itself) here, the value of a key in on_field_value. */
static int on_value(struct owners_list_parser *p, enum jtype t, const char *s, size_t len)
{
	switch (p->where) {
	case W_TOP:
		if (t != T_MAP)
			return fail_shape(p, t, "an object");
		p->where = W_ROOT;
		return 0;
	case W_ITEMS:
		if (t != T_MAP)
			return fail_shape(p, t, "an object");
		p->where = W_ITEM;
		return item_begin(p);
	case W_FINALIZERS:
		if (t != T_STRING)
			return fail_shape(p, t, "a string");
		return add_finalizer(p, s, len);
	case W_OWNER_REFS:
		if (t != T_MAP)
			return fail_shape(p, t, "an object");
		p->where = W_OWNER_REF;
		return add_owner_ref(p);
	case W_DONE:
		/* the tokenizer refuses a second document; never reached */
		return fail_shape(p, t, "the end of the document");
	default: break;
	}

	/* Inside an object: the value of the last key. */
	return on_field_value(p, t, s, len);
}

/* The closing of the object or array we are in (skipped ones never get
 * here). The tokenizer pairs them, so "where" alone says which it was. */
static int on_end(struct owners_list_parser *p)
{
	switch (p->where) {
	case W_ROOT:
		p->where = W_DONE;
		return 0;
	case W_LIST_META:
	case W_ITEMS:
		p->where = W_ROOT;
		return 0;
	case W_ITEM:
		p->where = W_ITEMS;
		return item_end(p);
	case W_META:
		p->where = W_ITEM;
		return 0;
	case W_FINALIZERS:
	case W_OWNER_REFS:
	case W_LABELS:
		p->where = W_META;
		return 0;
	case W_OWNER_REF:
		p->where = W_OWNER_REFS;
		return 0;
	case W_TOP:
	case W_DONE:
		break;
	}
	return fail(p, owners_error_set(p->err, OWNERS_EPROTO, "unexpected list response"));
}

static int cb_null(void *ctx)
{
	struct owners_list_parser *p = ctx;

	return on_value(p, T_NULL, NULL, 0);
}

/* A boolean's value travels in len (the "string" is unused). */
static int cb_bool(void *ctx, int value)
{
	struct owners_list_parser *p = ctx;

	return on_value(p, T_BOOL, NULL, value ? 1 : 0);
}

static int cb_number(void *ctx, const char *s, size_t len)
{
	struct owners_list_parser *p = ctx;

	return on_value(p, T_NUMBER, s, len);
}

static int cb_string(void *ctx, const char *s, size_t len)
{
	struct owners_list_parser *p = ctx;

	return on_value(p, T_STRING, s, len);
}

static int cb_start_map(void *ctx)
{
	struct owners_list_parser *p = ctx;

	return on_value(p, T_MAP, NULL, 0);
}

static int cb_start_array(void *ctx)
{
	struct owners_list_parser *p = ctx;

	return on_value(p, T_ARRAY, NULL, 0);
}

static int cb_end(void *ctx)
{
	struct owners_list_parser *p = ctx;

	return on_end(p);
}

static const struct owners_json_callbacks callbacks = {
	.on_null = cb_null,
	.on_bool = cb_bool,
	.on_number = cb_number,
	.on_string = cb_string,
	.on_start_map = cb_start_map,
	.on_key = on_key,
	.on_end_map = cb_end,
	.on_start_array = cb_start_array,
	.on_end_array = cb_end,
};

/* ---- API --------------------------------------------------------------- */

int owners_list_parser_new(struct owners_list_parser **out, int keep_labels,
			   owners_list_parser_item_fn on_item, void *ctx)
{
	struct owners_list_parser *p = calloc(1, sizeof(*p));
	size_t i;

	*out = NULL;
	if (!p)
		return OWNERS_ENOMEM;
	p->keep_labels = keep_labels;
	p->on_item = on_item;
	p->ctx = ctx;
	for (i = 0; i < R_COUNT; i++)
		owners_buf_init(&p->root_bufs[i]);
	owners_buf_init(&p->arena);
	owners_list_parser_reset(p);
	*out = p;
	return 0;
}

void owners_list_parser_free(struct owners_list_parser *p)
{
	size_t i;

	if (!p)
		return;
	owners_json_parser_free(p->json);
	for (i = 0; i < R_COUNT; i++)
		owners_buf_clear(&p->root_bufs[i]);
	owners_buf_clear(&p->arena);
	free(p->fins);
	free(p->refs);
	free(p->labels);
	free(p->fin_ptrs);
	free(p->ref_ptrs);
	free(p->ref_fields);
	free(p->label_ptrs);
	free(p);
}

void owners_list_parser_reset(struct owners_list_parser *p)
{
	size_t i;

	/* the tokenizer cannot be rewound; a fresh one is made at the next feed */
	owners_json_parser_free(p->json);
	p->json = NULL;
	p->rc = 0;
	p->where = W_TOP;
	p->field = F_SKIP;
	p->field_name = "";
	for (i = 0; i < R_COUNT; i++)
		owners_buf_reset(&p->root_bufs[i]);
	p->remaining = -1;
	p->seen_items = 0;
	p->n_items = 0;
	p->have_meta = 0;
	p->n_fins = p->n_refs = p->n_labels = 0;
}

static int already_failed(struct owners_list_parser *p, struct owners_error *err)
{
	return owners_error_set(err, p->rc, "list response already failed to parse");
}

int owners_list_parser_feed(struct owners_list_parser *p, const char *data, size_t len,
			    struct owners_error *err)
{
	int rc;

	if (p->rc)
		return already_failed(p, err);
	if (!p->json) {
		if (owners_json_parser_new(&p->json, &callbacks, p))
			return p->rc = owners_error_oom(err);
	}
	p->err = err;
	rc = owners_json_parser_feed(p->json, data, len, err);
	p->err = NULL;
	if (rc && !p->rc)
		p->rc = rc; /* a syntax error: the tokenizer's own message is in err */
	return p->rc;
}

int owners_list_parser_finish(struct owners_list_parser *p, struct owners_error *err)
{
	const char *reason, *message;
	int rc;

	if (p->rc)
		return already_failed(p, err);
	if (p->where == W_TOP)
		return p->rc = owners_error_set(err, OWNERS_EPROTO, "empty list response");
	p->err = err;
	rc = owners_json_parser_finish(p->json, err);
	p->err = NULL;
	if (rc)
		return p->rc = p->rc ? p->rc : rc;
	if (p->where != W_DONE)
		return p->rc = owners_error_set(err, OWNERS_EPROTO, "truncated list response");
	if (p->seen_items)
		return 0;
	if (!strcmp(p->root_bufs[R_KIND].ptr, "Status")) {
		reason = p->root_bufs[R_REASON].ptr;
		message = p->root_bufs[R_MESSAGE].ptr;
		return p->rc = owners_error_set(err, OWNERS_EPROTO,
						"the server sent a status instead of a list: %s%s%s",
						reason, *reason && *message ? ": " : "",
						*reason || *message ? message : "no reason given");
	}
	if (*p->root_bufs[R_KIND].ptr)
		return p->rc = owners_error_set(err, OWNERS_EPROTO,
						"unexpected list response: a '%s' has no 'items'",
						p->root_bufs[R_KIND].ptr);
	return p->rc = owners_error_set(err, OWNERS_EPROTO, "unexpected list response: no 'items'");
}

const char *owners_list_parser_kind(const struct owners_list_parser *p)
{
	return p->root_bufs[R_KIND].ptr;
}

const char *owners_list_parser_api_version(const struct owners_list_parser *p)
{
	return p->root_bufs[R_API_VERSION].ptr;
}

const char *owners_list_parser_continue_token(const struct owners_list_parser *p)
{
	return p->root_bufs[R_CONTINUE].ptr;
}

const char *owners_list_parser_resource_version(const struct owners_list_parser *p)
{
	return p->root_bufs[R_RESOURCE_VERSION].ptr;
}

int64_t owners_list_parser_remaining_item_count(const struct owners_list_parser *p)
{
	return p->remaining;
}

size_t owners_list_parser_item_count(const struct owners_list_parser *p)
{
	return p->n_items;
}
