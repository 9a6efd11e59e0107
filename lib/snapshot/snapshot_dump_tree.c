#include "snapshot_dump_tree.h"

#include <stdlib.h>
#include <string.h>

#include "grow.h"

/* Deeper than any Kubernetes object; a document nested further is refused
 * rather than followed (a fuzzer's "[[[[..."), and an object handed on as
 * JSON text stays within what yajl's generator writes (127 levels). */
#define TREE_MAX_DEPTH 100

enum role {
	R_PLAIN,      /* a value inside an object */
	R_OBJECT,     /* an object's own map: an item, or the document's root */
	R_META,       /* an object's metadata */
	R_ITEMS,      /* the root's "items" array: its elements are items */
	R_ROOT_ARRAY, /* the document is an array: its elements are items */
};

struct frame {
	struct owners_json_value *v; /* NULL for R_ITEMS and R_ROOT_ARRAY */
	enum role role;
};

struct pending {
	struct owners_json_value *object;
	unsigned long line;
	size_t index;
};

/* What the next value is, decided by its key. */
enum next {
	NEXT_KEEP,
	NEXT_SKIP,  /* dropped, with its content */
	NEXT_MARK,  /* a null in its place (shallow "status"): it is there */
	NEXT_ITEMS, /* the root's "items" */
};

struct owners_snapshot_dump_tree {
	struct owners_snapshot_dump_tree_sink sink;
	int shallow;
	struct frame stack[TREE_MAX_DEPTH];
	size_t depth;
	char *key; /* the pending key, NULL when a key is wanted next */
	enum next next;
	struct owners_json_value *root; /* the root object (a List's envelope) */
	enum owners_snapshot_dump_tree_shape shape;
	int had_root; /* a root value opened or was read */
	unsigned long line, doc_line, item_line;
	size_t items;  /* elements seen in this document */
	size_t others; /* elements of the items or a root array that are no object */
	struct pending *pending;
	size_t n_pending, cap_pending;
	struct owners_error err;
	int failed;
	struct owners_snapshot_dump_tree_meter *meter;
};

int owners_snapshot_dump_tree_new(struct owners_snapshot_dump_tree **out,
				  const struct owners_snapshot_dump_tree_sink *sink, int shallow)
{
	struct owners_snapshot_dump_tree *t = calloc(1, sizeof(*t));

	*out = t;
	if (!t)
		return OWNERS_ENOMEM;
	t->sink = *sink;
	t->shallow = shallow;
	owners_buf_init(&t->err.msg);
	return 0;
}

static void forget_document(struct owners_snapshot_dump_tree *t)
{
	size_t i;

	for (i = 0; i < t->n_pending; i++)
		owners_json_value_free(t->pending[i].object);
	t->n_pending = 0;
	/* Frames below the root are linked into it: freeing the root frees
	 * them, except an item's own tree, which is not linked anywhere. */
	for (i = 0; i < t->depth; i++)
		if (t->stack[i].role == R_OBJECT && i > 0)
			owners_json_value_free(t->stack[i].v);
	t->depth = 0;
	owners_json_value_free(t->root);
	t->root = NULL;
	free(t->key);
	t->key = NULL;
	t->next = NEXT_KEEP;
	t->shape = OWNERS_SNAPSHOT_DUMP_EMPTY;
	t->had_root = 0;
	t->items = 0;
	t->others = 0;
}

void owners_snapshot_dump_tree_free(struct owners_snapshot_dump_tree *t)
{
	if (!t)
		return;
	forget_document(t);
	free(t->pending);
	owners_error_clear(&t->err);
	free(t);
}

/* Told about every megabyte, and at the end. */
#define METER_STEP (1024 * 1024)

static void meter_tell(struct owners_snapshot_dump_tree_meter *m, uint64_t done)
{
	if (!m || !m->progress || done <= m->said || (done - m->said < METER_STEP && done < m->total))
		return;
	m->said = done;
	m->progress(m->ctx, done >= m->total ? 100u : (unsigned)(done * 100 / m->total), m->total / 2);
}

void owners_snapshot_dump_tree_set_meter(struct owners_snapshot_dump_tree *t,
					 struct owners_snapshot_dump_tree_meter *m)
{
	t->meter = m;
}

void owners_snapshot_dump_tree_read_to(struct owners_snapshot_dump_tree *t, uint64_t at)
{
	if (t->meter)
		meter_tell(t->meter, t->meter->base + at);
}

void owners_snapshot_dump_tree_meter_file_done(struct owners_snapshot_dump_tree_meter *m,
					       uint64_t size)
{
	if (!m)
		return;
	m->base += size;
	meter_tell(m, m->base);
}

void owners_snapshot_dump_tree_at(struct owners_snapshot_dump_tree *t, unsigned long line)
{
	t->line = line;
}

void owners_snapshot_dump_tree_begin(struct owners_snapshot_dump_tree *t)
{
	forget_document(t);
	owners_error_clear(&t->err);
	t->failed = 0;
	t->doc_line = t->line;
}

int owners_snapshot_dump_tree_error(struct owners_snapshot_dump_tree *t, struct owners_error *err)
{
	if (!t->failed)
		return 0;
	if (t->err.code)
		owners_error_set(err, t->err.code, "%s", t->err.msg.ptr);
	else
		owners_error_set(err, t->failed, "%s", owners_errcode_name(t->failed));
	return t->failed;
}

/* Records the failure (the first one wins) and returns its code. */
static int fail(struct owners_snapshot_dump_tree *t, int code)
{
	if (!t->failed)
		t->failed = code;
	if (code == OWNERS_ENOMEM)
		owners_error_oom(&t->err);
	return t->failed;
}

static const char *str_or_empty(const struct owners_json_value *v, const char *key)
{
	const char *s = owners_json_string(owners_json_get(v, key));

	return s ? s : "";
}

/* "PodList" -> "Pod": the type of a typed List's elements; "" for kubectl's
 * generic List, whose elements always say their own. */
static size_t element_kind_len(const char *list_kind)
{
	size_t n = strlen(list_kind);

	if (n <= 4 || strcmp(list_kind + n - 4, "List"))
		return 0;
	return n - 4;
}

/* kubectl's List, or a typed one. */
static int is_list_kind(const char *kind)
{
	size_t n = strlen(kind);

	return n >= 4 && !strcmp(kind + n - 4, "List");
}

static int hand_out(struct owners_snapshot_dump_tree *t, const struct owners_json_value *object,
		    unsigned long line, size_t index, int in_list)
{
	struct owners_snapshot_dump_tree_item it;
	struct owners_buf kind = OWNERS_BUF_INIT;
	const char *list_kind = t->root ? str_or_empty(t->root, "kind") : "";
	int rc;

	it.object = object;
	it.api_version = str_or_empty(object, "apiVersion");
	it.kind = str_or_empty(object, "kind");
	it.line = line;
	it.index = index;
	it.in_list = in_list;
	if (in_list && (!*it.kind || !*it.api_version) && element_kind_len(list_kind)) {
		if (owners_buf_add(&kind, list_kind, element_kind_len(list_kind)))
			return fail(t, OWNERS_ENOMEM);
		it.kind = kind.ptr;
		it.api_version = str_or_empty(t->root, "apiVersion");
	}
	rc = t->sink.item ? t->sink.item(t->sink.ctx, &it, &t->err) : 0;
	owners_buf_clear(&kind);
	return rc ? fail(t, rc) : 0;
}

/* Whether the List's kind may still come: not when it came, nor when its
 * metadata did (a Go program writes kind first, and sorted keys put it
 * before metadata: a List with metadata and no kind has none). */
static int kind_may_come(const struct owners_snapshot_dump_tree *t)
{
	return !owners_json_get(t->root, "kind") && !owners_json_get(t->root, "metadata");
}

/* An element of the items ended: handed out now, or kept until the List's
 * own kind is read when it has none and the List's may still come. */
static int item_done(struct owners_snapshot_dump_tree *t, struct owners_json_value *object)
{
	size_t index = t->items++;
	int rc;

	if (t->shape == OWNERS_SNAPSHOT_DUMP_LIST && kind_may_come(t) &&
	    (!owners_json_get(object, "kind") || !owners_json_get(object, "apiVersion"))) {
		if (OWNERS_GROW(t->pending, t->cap_pending, t->n_pending + 1)) {
			owners_json_value_free(object);
			return fail(t, OWNERS_ENOMEM);
		}
		t->pending[t->n_pending].object = object;
		t->pending[t->n_pending].line = t->item_line;
		t->pending[t->n_pending++].index = index;
		return 0;
	}
	rc = hand_out(t, object, t->item_line, index, 1);
	owners_json_value_free(object);
	return rc;
}

static struct owners_json_value *node_new(enum owners_json_type type)
{
	struct owners_json_value *v = calloc(1, sizeof(*v));

	if (v)
		v->type = type;
	return v;
}

/* Links v under the innermost frame (with the pending key in an object). */
static int attach(struct owners_snapshot_dump_tree *t, struct owners_json_value *v)
{
	struct owners_json_value *parent = t->stack[t->depth - 1].v;

	if (OWNERS_GROW(parent->items, parent->cap, parent->count + 1) ||
	    (parent->type == OWNERS_JSON_OBJECT &&
	     OWNERS_GROW(parent->keys, parent->cap_keys, parent->count + 1))) {
		owners_json_value_free(v);
		return fail(t, OWNERS_ENOMEM);
	}
	if (parent->type == OWNERS_JSON_OBJECT) {
		parent->keys[parent->count] = t->key;
		t->key = NULL;
	}
	parent->items[parent->count++] = v;
	return 0;
}

/* Makes v the innermost frame. Too deep: fails, and v stays the caller's
 * (freed by it when not linked into the document already). */
static int push(struct owners_snapshot_dump_tree *t, struct owners_json_value *v, enum role role)
{
	if (t->depth == TREE_MAX_DEPTH) {
		owners_error_set(&t->err, OWNERS_EPROTO, "nested more than %d levels deep",
				 TREE_MAX_DEPTH);
		return fail(t, OWNERS_EPROTO);
	}
	t->stack[t->depth].v = v;
	t->stack[t->depth++].role = role;
	return 0;
}

/* The document's first value. */
static int open_root(struct owners_snapshot_dump_tree *t, enum owners_json_type type)
{
	struct owners_json_value *v;

	t->had_root = 1;
	if (type == OWNERS_JSON_ARRAY) {
		t->shape = OWNERS_SNAPSHOT_DUMP_ARRAY;
		return push(t, NULL, R_ROOT_ARRAY);
	}
	if (!(v = node_new(type)))
		return fail(t, OWNERS_ENOMEM);
	t->root = v;
	t->shape = OWNERS_SNAPSHOT_DUMP_OBJECT;
	return push(t, v, R_OBJECT);
}

int owners_snapshot_dump_tree_open(struct owners_snapshot_dump_tree *t, enum owners_json_type type)
{
	enum role parent, role = R_PLAIN;
	enum next next = t->next;
	struct owners_json_value *v;

	if (t->failed)
		return t->failed;
	if (!t->depth)
		return open_root(t, type);
	parent = t->stack[t->depth - 1].role;
	t->next = NEXT_KEEP;
	if ((parent == R_ROOT_ARRAY || parent == R_ITEMS) && type != OWNERS_JSON_OBJECT) {
		/* Something else than objects: not a List, not an error. */
		t->others++;
		return OWNERS_JSON_SKIP;
	}
	if (parent == R_ITEMS || parent == R_ROOT_ARRAY) {
		if (!(v = node_new(type)))
			return fail(t, OWNERS_ENOMEM);
		t->item_line = t->line;
		if (push(t, v, R_OBJECT)) {
			owners_json_value_free(v); /* an item is linked nowhere */
			return t->failed;
		}
		return 0;
	}
	if (next == NEXT_SKIP) {
		free(t->key);
		t->key = NULL;
		return OWNERS_JSON_SKIP;
	}
	if (next == NEXT_MARK) {
		if (!(v = node_new(OWNERS_JSON_NULL)))
			return fail(t, OWNERS_ENOMEM);
		return attach(t, v) ? t->failed : OWNERS_JSON_SKIP;
	}
	if (next == NEXT_ITEMS && type == OWNERS_JSON_ARRAY) {
		free(t->key);
		t->key = NULL;
		t->shape = OWNERS_SNAPSHOT_DUMP_LIST;
		return push(t, NULL, R_ITEMS);
	}
	if (parent == R_OBJECT && type == OWNERS_JSON_OBJECT && t->key &&
	    !strcmp(t->key, "metadata"))
		role = R_META;
	if (!(v = node_new(type)))
		return fail(t, OWNERS_ENOMEM);
	if (attach(t, v))
		return t->failed;
	return push(t, v, role);
}

int owners_snapshot_dump_tree_close(struct owners_snapshot_dump_tree *t)
{
	struct frame f;

	if (t->failed)
		return t->failed;
	if (!t->depth)
		return 0;
	f = t->stack[--t->depth];
	/* An item's own map: handed out (the document's root waits for the
	 * end, when it is known whether it was a List). */
	if (f.role == R_OBJECT && t->depth > 0)
		return item_done(t, f.v);
	return 0;
}

int owners_snapshot_dump_tree_wants_key(const struct owners_snapshot_dump_tree *t)
{
	const struct frame *f = t->depth ? &t->stack[t->depth - 1] : NULL;

	return f && f->v && f->v->type == OWNERS_JSON_OBJECT && !t->key && t->next == NEXT_KEEP;
}

static int key_is(const char *s, size_t len, const char *word)
{
	return strlen(word) == len && !memcmp(s, word, len);
}

/* What becomes of the value of key s in a frame of role. */
static enum next decide(const struct owners_snapshot_dump_tree *t, enum role role, const char *s,
			size_t len)
{
	if (role == R_OBJECT) {
		if (t->depth == 1 && key_is(s, len, "items"))
			return NEXT_ITEMS;
		if (!t->shallow || key_is(s, len, "apiVersion") || key_is(s, len, "kind") ||
		    key_is(s, len, "metadata"))
			return NEXT_KEEP;
		return key_is(s, len, "status") ? NEXT_MARK : NEXT_SKIP;
	}
	if (role == R_META) {
		/* Big, and nothing owners reads (annotations: not in a
		 * shallow read, which checks the rest of metadata). */
		if (key_is(s, len, "managedFields") ||
		    (t->shallow && key_is(s, len, "annotations")))
			return NEXT_SKIP;
		return NEXT_KEEP;
	}
	return NEXT_KEEP;
}

int owners_snapshot_dump_tree_key(struct owners_snapshot_dump_tree *t, const char *s, size_t len)
{
	if (t->failed)
		return t->failed;
	if (!t->depth || !t->stack[t->depth - 1].v)
		return 0;
	free(t->key);
	if (!(t->key = owners_strndup(s, len)))
		return fail(t, OWNERS_ENOMEM);
	/* A key with a NUL in it (JSON allows \u0000) could never be read
	 * back by name: refused, rather than compared short. */
	if (strlen(t->key) != len) {
		owners_error_set(&t->err, OWNERS_EPROTO, "a key holds a NUL character");
		return fail(t, OWNERS_EPROTO);
	}
	t->next = decide(t, t->stack[t->depth - 1].role, s, len);
	return 0;
}

static int scalar_root(struct owners_snapshot_dump_tree *t, enum owners_json_type type)
{
	if (!t->had_root)
		t->shape = type == OWNERS_JSON_NULL ? OWNERS_SNAPSHOT_DUMP_EMPTY
						    : OWNERS_SNAPSHOT_DUMP_OTHER;
	t->had_root = 1;
	return 0;
}

int owners_snapshot_dump_tree_scalar(struct owners_snapshot_dump_tree *t,
				     enum owners_json_type type, const char *s, size_t len)
{
	enum next next = t->next;
	enum role parent;
	struct owners_json_value *v;

	if (t->failed)
		return t->failed;
	if (!t->depth)
		return scalar_root(t, type);
	parent = t->stack[t->depth - 1].role;
	if (parent == R_ROOT_ARRAY || parent == R_ITEMS) {
		t->others++;
		return 0;
	}
	t->next = NEXT_KEEP;
	if (next == NEXT_SKIP || (next == NEXT_ITEMS && type == OWNERS_JSON_NULL)) {
		/* "items": null is a List with none (what an empty typed
		 * list is written as by a Go program). */
		if (next == NEXT_ITEMS)
			t->shape = OWNERS_SNAPSHOT_DUMP_LIST;
		free(t->key);
		t->key = NULL;
		return 0;
	}
	if (!(v = node_new(next == NEXT_MARK ? OWNERS_JSON_NULL : type)))
		return fail(t, OWNERS_ENOMEM);
	if (next != NEXT_MARK) {
		v->boolean = type == OWNERS_JSON_BOOL && key_is(s, len, "true");
		if ((type == OWNERS_JSON_STRING || type == OWNERS_JSON_NUMBER) &&
		    !(v->string = owners_strndup(s, len))) {
			free(v);
			return fail(t, OWNERS_ENOMEM);
		}
	}
	return attach(t, v);
}

static int flush_pending(struct owners_snapshot_dump_tree *t)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < t->n_pending && !rc; i++)
		rc = hand_out(t, t->pending[i].object, t->pending[i].line, t->pending[i].index, 1);
	return rc;
}

int owners_snapshot_dump_tree_end(struct owners_snapshot_dump_tree *t)
{
	struct owners_snapshot_dump_tree_doc d;
	int rc = 0;

	if (t->failed)
		return t->failed;
	memset(&d, 0, sizeof(d));
	d.shape = t->shape;
	d.line = t->doc_line;
	d.kind = d.api_version = d.resource_version = "";
	if (t->shape == OWNERS_SNAPSHOT_DUMP_LIST)
		rc = flush_pending(t);
	/* One object, or one with a field of its own named items (a custom
	 * resource may have one): itself, without those. */
	if (!rc && (t->shape == OWNERS_SNAPSHOT_DUMP_OBJECT ||
		    (t->shape == OWNERS_SNAPSHOT_DUMP_LIST && *str_or_empty(t->root, "kind") &&
		     !is_list_kind(str_or_empty(t->root, "kind")))))
		rc = hand_out(t, t->root, t->doc_line, 0, 0);
	if (!rc && t->root) {
		d.kind = str_or_empty(t->root, "kind");
		d.api_version = str_or_empty(t->root, "apiVersion");
		d.resource_version =
			str_or_empty(owners_json_get(t->root, "metadata"), "resourceVersion");
	}
	d.described = t->root &&
		      (owners_json_get(t->root, "kind") || owners_json_get(t->root, "apiVersion") ||
		       owners_json_get(t->root, "metadata"));
	d.items = t->shape == OWNERS_SNAPSHOT_DUMP_OBJECT ? 1 : t->items;
	d.others = t->others;
	if (!rc && t->sink.document)
		rc = t->sink.document(t->sink.ctx, &d, &t->err);
	if (rc)
		return fail(t, rc);
	forget_document(t);
	return 0;
}
