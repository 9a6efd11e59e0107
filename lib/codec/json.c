#include "json.h"

#include <stdarg.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>
#include <stdio.h>

/* ---- streaming parser ------------------------------------------------ */

/*
 * Our own tokenizer (yajl's took half of a scan's CPU): strict JSON for
 * everything handed to a callback (strings' UTF-8 and escapes, numbers,
 * literals, structure), and a fast path for values a callback declines
 * (OWNERS_JSON_SKIP): their bytes are only scanned for strings and
 * brackets, at a few instructions a byte, with no callback at all. Tokens
 * split between two chunks are carried over in a small buffer.
 */

enum jstate {
	J_VALUE,        /* a value must come (document start, after ':' or ',' in an array) */
	J_ARRAY_FIRST,  /* after '[': a value or ']' */
	J_OBJECT_FIRST, /* after '{': a key or '}' */
	J_KEY,          /* after ',' in an object: a key */
	J_COLON,        /* after a key */
	J_AFTER,        /* after a value inside a container: ',' or its closing bracket */
	J_DONE,         /* after the document: whitespace only */
};

struct owners_json_parser {
	const struct owners_json_callbacks *cb;
	void *ctx;
	unsigned char *stack; /* '{' or '[' per open container */
	size_t depth, cap;
	enum jstate state;
	size_t skip;          /* > 0: inside a declined value, this many brackets deep */
	int skip_string;      /* ... and inside a string of it */
	int skip_escape;      /* ... right after a backslash */
	int carry;            /* a token continues in the next chunk: 'S' string, 'K' key, 'N' number, 'L' literal */
	int carry_escape;     /* the carried string's last byte is an unpaired backslash */
	struct owners_buf raw;  /* the carried token's bytes (strings: without the quotes) */
	struct owners_buf text; /* a decoded string */
	size_t offset;        /* bytes fed before the current chunk */
	int failed;           /* sticky: OWNERS_EPROTO or OWNERS_ENOMEM */
};

/* Byte classes inside a string: 0 plain, 1 '"', 2 '\\', 3 control, 4 non-ASCII. */
static unsigned char str_class[256];
/* Byte classes while skipping: 0 nothing, 1 '"', 2 '{' '[', 3 '}' ']'. */
static unsigned char skip_class[256];

static void classes_init(void)
{
	int c;

	if (str_class['"'])
		return;
	for (c = 0; c < 0x20; c++)
		str_class[c] = 3;
	for (c = 0x80; c < 0x100; c++)
		str_class[c] = 4;
	str_class['\\'] = 2;
	skip_class['"'] = 1;
	skip_class['{'] = skip_class['['] = 2;
	skip_class['}'] = skip_class[']'] = 3;
	str_class['"'] = 1; /* last: it marks the tables as built */
}

struct owners_json_parser *owners_json_parser_new(const struct owners_json_callbacks *cb,
						   void *ctx)
{
	struct owners_json_parser *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	classes_init();
	p->cb = cb;
	p->ctx = ctx;
	p->state = J_VALUE;
	owners_buf_init(&p->raw);
	owners_buf_init(&p->text);
	/* Numbers stay text (on_number), so 64-bit values are never rounded. */
	return p;
}

void owners_json_parser_free(struct owners_json_parser *p)
{
	if (!p)
		return;
	free(p->stack);
	owners_buf_release(&p->raw);
	owners_buf_release(&p->text);
	free(p);
}

static int jfail(struct owners_json_parser *p, struct owners_error *err, const char *what, size_t at)
{
	if (!p->failed)
		p->failed = OWNERS_EPROTO;
	owners_error_set(err, OWNERS_EPROTO, "invalid JSON: %s at byte %zu", what, p->offset + at);
	return OWNERS_EPROTO;
}

/* A callback said stop (it may have recorded its own error). */
static int jstop(struct owners_json_parser *p, struct owners_error *err)
{
	if (!p->failed)
		p->failed = OWNERS_EPROTO;
	owners_error_set(err, OWNERS_EPROTO, "unexpected JSON structure");
	return OWNERS_EPROTO;
}

static int joom(struct owners_json_parser *p, struct owners_error *err)
{
	p->failed = OWNERS_ENOMEM;
	return owners_error_oom(err);
}

static void after_value(struct owners_json_parser *p)
{
	p->state = p->depth ? J_AFTER : J_DONE;
}

/* Strict UTF-8: no overlong forms, no surrogates, nothing past U+10FFFF. */
static int utf8_valid(const unsigned char *s, size_t n)
{
	size_t i = 0;

	while (i < n) {
		unsigned char c = s[i];

		if (c < 0x80) {
			i++;
		} else if (c >= 0xc2 && c <= 0xdf) {
			if (i + 1 >= n || (s[i + 1] & 0xc0) != 0x80)
				return 0;
			i += 2;
		} else if (c >= 0xe0 && c <= 0xef) {
			if (i + 2 >= n || (s[i + 1] & 0xc0) != 0x80 || (s[i + 2] & 0xc0) != 0x80 ||
			    (c == 0xe0 && s[i + 1] < 0xa0) || (c == 0xed && s[i + 1] > 0x9f))
				return 0;
			i += 3;
		} else if (c >= 0xf0 && c <= 0xf4) {
			if (i + 3 >= n || (s[i + 1] & 0xc0) != 0x80 || (s[i + 2] & 0xc0) != 0x80 ||
			    (s[i + 3] & 0xc0) != 0x80 || (c == 0xf0 && s[i + 1] < 0x90) ||
			    (c == 0xf4 && s[i + 1] > 0x8f))
				return 0;
			i += 4;
		} else {
			return 0;
		}
	}
	return 1;
}

static int hex4(const unsigned char *s, unsigned *out)
{
	unsigned v = 0;
	int i;

	for (i = 0; i < 4; i++) {
		unsigned char c = s[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return -1;
	}
	*out = v;
	return 0;
}

static int put_utf8(struct owners_buf *b, unsigned cp)
{
	char u[4];
	size_t n;

	if (cp < 0x80) {
		u[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		u[0] = (char)(0xc0 | cp >> 6);
		u[1] = (char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		u[0] = (char)(0xe0 | cp >> 12);
		u[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		u[2] = (char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		u[0] = (char)(0xf0 | cp >> 18);
		u[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
		u[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
		u[3] = (char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	return owners_buf_add(b, u, n);
}

/* Decodes the escapes of a string's raw bytes into p->text; -1: a bad
 * escape or a raw control character, -2: out of memory. */
static int decode_string(struct owners_json_parser *p, const unsigned char *s, size_t n)
{
	size_t i = 0, start = 0;

	owners_buf_reset(&p->text);
	while (i < n) {
		unsigned char c = s[i];
		unsigned cp, lo;

		if (c < 0x20)
			return -1;
		if (c != '\\') {
			i++;
			continue;
		}
		if (owners_buf_add(&p->text, (const char *)s + start, i - start))
			return -2;
		if (i + 1 >= n)
			return -1;
		switch (s[i + 1]) {
		case '"': c = '"'; break;
		case '\\': c = '\\'; break;
		case '/': c = '/'; break;
		case 'b': c = '\b'; break;
		case 'f': c = '\f'; break;
		case 'n': c = '\n'; break;
		case 'r': c = '\r'; break;
		case 't': c = '\t'; break;
		case 'u':
			if (i + 6 > n || hex4(s + i + 2, &cp))
				return -1;
			i += 6;
			if (cp >= 0xd800 && cp <= 0xdbff && i + 6 <= n && s[i] == '\\' && s[i + 1] == 'u' &&
			    !hex4(s + i + 2, &lo) && lo >= 0xdc00 && lo <= 0xdfff) {
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
				i += 6;
			} else if (cp >= 0xd800 && cp <= 0xdfff) {
				cp = 0xfffd; /* a lone surrogate has no UTF-8 form */
			}
			if (put_utf8(&p->text, cp))
				return -2;
			start = i;
			continue;
		default:
			return -1;
		}
		if (owners_buf_addc(&p->text, (char)c))
			return -2;
		i += 2;
		start = i;
	}
	if (owners_buf_add(&p->text, (const char *)s + start, n - start))
		return -2;
	return 0;
}

/* A complete string token (raw bytes between the quotes). */
static int emit_string(struct owners_json_parser *p, const unsigned char *s, size_t n, int escapes,
		       int high, int key, size_t at, struct owners_error *err)
{
	const char *out = (const char *)s;
	int r;

	if (high && !utf8_valid(s, n))
		return jfail(p, err, "invalid UTF-8 in a string", at);
	if (escapes) {
		r = decode_string(p, s, n);
		if (r == -2)
			return joom(p, err);
		if (r)
			return jfail(p, err, "invalid escape or control character in a string", at);
		out = p->text.ptr;
		n = p->text.len;
	}
	if (key) {
		p->state = J_COLON;
		r = p->cb->on_key ? p->cb->on_key(p->ctx, out, n) : 0;
	} else {
		after_value(p);
		r = p->cb->on_string ? p->cb->on_string(p->ctx, out, n) : 0;
	}
	return r ? jstop(p, err) : 0;
}

static int number_valid(const unsigned char *s, size_t n)
{
	size_t i = 0;

	if (i < n && s[i] == '-')
		i++;
	if (i >= n)
		return 0;
	if (s[i] == '0') {
		i++;
	} else if (s[i] >= '1' && s[i] <= '9') {
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++;
	} else {
		return 0;
	}
	if (i < n && s[i] == '.') {
		if (++i >= n || s[i] < '0' || s[i] > '9')
			return 0;
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++;
	}
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			i++;
		if (i >= n || s[i] < '0' || s[i] > '9')
			return 0;
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++;
	}
	return i == n;
}

static int is_number_char(unsigned char c)
{
	return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

static int emit_scalar(struct owners_json_parser *p, int kind, const unsigned char *s, size_t n,
		       size_t at, struct owners_error *err)
{
	int r = 0;

	after_value(p);
	if (kind == 'N') {
		if (!number_valid(s, n))
			return jfail(p, err, "malformed number", at);
		r = p->cb->on_number ? p->cb->on_number(p->ctx, (const char *)s, n) : 0;
	} else if (n == 4 && !memcmp(s, "true", 4)) {
		r = p->cb->on_bool ? p->cb->on_bool(p->ctx, 1) : 0;
	} else if (n == 5 && !memcmp(s, "false", 5)) {
		r = p->cb->on_bool ? p->cb->on_bool(p->ctx, 0) : 0;
	} else if (n == 4 && !memcmp(s, "null", 4)) {
		r = p->cb->on_null ? p->cb->on_null(p->ctx) : 0;
	} else {
		return jfail(p, err, "invalid literal", at);
	}
	return r ? jstop(p, err) : 0;
}

static int push(struct owners_json_parser *p, unsigned char c)
{
	if (p->depth == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 32;
		unsigned char *s = realloc(p->stack, cap);

		if (!s)
			return -1;
		p->stack = s;
		p->cap = cap;
	}
	p->stack[p->depth++] = c;
	return 0;
}

/* The first '"' or '\\' at or after s[i] (n when none): eight bytes a step
 * where the byte order allows (the zero-byte test's lowest hit is exact). */
static size_t find_quote_or_backslash(const unsigned char *s, size_t i, size_t n)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && defined(__GNUC__)
	const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;

	while (i + 8 <= n) {
		uint64_t v, q, b, hit;

		memcpy(&v, s + i, 8);
		q = v ^ 0x2222222222222222ULL;
		b = v ^ 0x5c5c5c5c5c5c5c5cULL;
		hit = (((q - ones) & ~q) | ((b - ones) & ~b)) & highs;
		if (hit)
			return i + ((size_t)__builtin_ctzll(hit) >> 3);
		i += 8;
	}
#endif
	while (i < n && s[i] != '"' && s[i] != '\\')
		i++;
	return i;
}

/* Skips a declined value's bytes from s[i]; returns where it stopped. */
static size_t skip_scan(struct owners_json_parser *p, const unsigned char *s, size_t i, size_t n)
{
	while (i < n) {
		if (p->skip_string) {
			if (p->skip_escape) {
				p->skip_escape = 0;
				i++;
			}
			i = find_quote_or_backslash(s, i, n);
			if (i >= n)
				break;
			if (s[i] == '\\') {
				p->skip_escape = 1;
				i++;
				continue;
			}
			p->skip_string = 0;
			i++;
			continue;
		}
		while (i < n && !skip_class[s[i]])
			i++;
		if (i >= n)
			break;
		switch (skip_class[s[i++]]) {
		case 1:
			p->skip_string = 1;
			break;
		case 2:
			p->skip++;
			break;
		case 3:
			if (!--p->skip) {
				after_value(p);
				return i;
			}
			break;
		}
	}
	return i;
}

/* Continues a carried token with the new chunk; returns bytes used, or
 * (size_t)-1 after a failure. */
static size_t carry_on(struct owners_json_parser *p, const unsigned char *s, size_t n,
		       struct owners_error *err)
{
	size_t i = 0;
	int rc;

	if (p->carry == 'S' || p->carry == 'K') {
		for (; i < n; i++) {
			if (p->carry_escape) {
				p->carry_escape = 0;
				continue;
			}
			if (s[i] == '\\')
				p->carry_escape = 1;
			else if (s[i] == '"')
				break;
		}
		if (owners_buf_add(&p->raw, (const char *)s, i)) {
			joom(p, err);
			return (size_t)-1;
		}
		if (i >= n)
			return n;
		p->carry_escape = 0;
		/* The slow path: check and decode whatever it holds. */
		rc = emit_string(p, (const unsigned char *)p->raw.ptr, p->raw.len, 1, 1,
				 p->carry == 'K', 0, err);
		p->carry = 0;
		return rc ? (size_t)-1 : i + 1;
	}
	while (i < n && (p->carry == 'N' ? is_number_char(s[i]) : (s[i] >= 'a' && s[i] <= 'z')))
		i++;
	if (owners_buf_add(&p->raw, (const char *)s, i)) {
		joom(p, err);
		return (size_t)-1;
	}
	if (i >= n)
		return n;
	rc = emit_scalar(p, p->carry, (const unsigned char *)p->raw.ptr, p->raw.len, 0, err);
	p->carry = 0;
	return rc ? (size_t)-1 : i;
}

int owners_json_parser_feed(struct owners_json_parser *p, const char *data, size_t len,
			    struct owners_error *err)
{
	const unsigned char *s = (const unsigned char *)data;
	size_t i = 0;
	int rc = 0;

	if (p->failed)
		return owners_error_set(err, p->failed, "invalid JSON: the parse failed already");
	if (p->carry) {
		i = carry_on(p, s, len, err);
		if (i == (size_t)-1)
			return p->failed;
	}
	while (i < len && !rc) {
		unsigned char c;

		if (p->skip) {
			i = skip_scan(p, s, i, len);
			continue;
		}
		c = s[i];
		if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
			i++;
			continue;
		}
		switch (p->state) {
		case J_DONE:
			return jfail(p, err, "trailing garbage after the document", i);
		case J_COLON:
			if (c != ':')
				return jfail(p, err, "':' expected after a key", i);
			p->state = J_VALUE;
			i++;
			continue;
		case J_AFTER:
			if (c == ',') {
				p->state = p->stack[p->depth - 1] == '{' ? J_KEY : J_VALUE;
				i++;
				continue;
			}
			if ((c == '}' || c == ']') && p->stack[p->depth - 1] == (c == '}' ? '{' : '[')) {
				goto close;
			}
			return jfail(p, err, "',' or a closing bracket expected", i);
		case J_OBJECT_FIRST:
			if (c == '}')
				goto close;
			/* fall through */
		case J_KEY:
			if (c != '"')
				return jfail(p, err, "a key (a string) expected", i);
			break;
		case J_ARRAY_FIRST:
			if (c == ']')
				goto close;
			/* fall through */
		case J_VALUE:
			break;
		}

		/* A key or a value starts at s[i]. */
		if (c == '"') {
			size_t j = i + 1;
			int escapes = 0, high = 0, key = p->state == J_OBJECT_FIRST || p->state == J_KEY;

			for (;;) {
				unsigned char k;

				while (j < len && !(k = str_class[s[j]]))
					j++;
				if (j >= len)
					break;
				if (k == 1)
					break;
				if (k == 2) {
					escapes = 1;
					j += 2;
				} else if (k == 3) {
					return jfail(p, err, "unescaped control character in a string", j);
				} else {
					high = 1;
					j++;
				}
			}
			if (j >= len) {
				/* Continues in the next chunk. */
				p->carry = key ? 'K' : 'S';
				p->carry_escape = j > len; /* the chunk ended right after a backslash */
				owners_buf_reset(&p->raw);
				if (owners_buf_add(&p->raw, (const char *)s + i + 1, len - i - 1))
					return joom(p, err);
				p->offset += len;
				return 0;
			}
			rc = emit_string(p, s + i + 1, j - i - 1, escapes, high, key, i, err);
			i = j + 1;
			continue;
		}
		if (c == '{' || c == '[') {
			int r;

			if (c == '{')
				r = p->cb->on_start_map ? p->cb->on_start_map(p->ctx) : 0;
			else
				r = p->cb->on_start_array ? p->cb->on_start_array(p->ctx) : 0;
			i++;
			if (r == OWNERS_JSON_SKIP) {
				p->skip = 1;
				continue;
			}
			if (r)
				return jstop(p, err);
			if (push(p, c))
				return joom(p, err);
			p->state = c == '{' ? J_OBJECT_FIRST : J_ARRAY_FIRST;
			continue;
		}
		if (c == '-' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z')) {
			int kind = (c >= 'a' && c <= 'z') ? 'L' : 'N';
			size_t j = i;

			while (j < len && (kind == 'N' ? is_number_char(s[j]) : (s[j] >= 'a' && s[j] <= 'z')))
				j++;
			if (j >= len) {
				p->carry = kind;
				owners_buf_reset(&p->raw);
				if (owners_buf_add(&p->raw, (const char *)s + i, len - i))
					return joom(p, err);
				p->offset += len;
				return 0;
			}
			rc = emit_scalar(p, kind, s + i, j - i, i, err);
			i = j;
			continue;
		}
		return jfail(p, err, "unexpected character", i);
close:
		{
			int r;

			p->depth--;
			after_value(p);
			if (c == '}')
				r = p->cb->on_end_map ? p->cb->on_end_map(p->ctx) : 0;
			else
				r = p->cb->on_end_array ? p->cb->on_end_array(p->ctx) : 0;
			i++;
			if (r)
				return jstop(p, err);
		}
	}
	p->offset += len;
	return rc ? p->failed : 0;
}

int owners_json_parser_finish(struct owners_json_parser *p, struct owners_error *err)
{
	if (p->failed)
		return owners_error_set(err, p->failed, "invalid JSON: the parse failed already");
	/* A number or literal may end the document. */
	if ((p->carry == 'N' || p->carry == 'L') && !p->depth && !p->skip) {
		int rc = emit_scalar(p, p->carry, (const unsigned char *)p->raw.ptr, p->raw.len, 0, err);

		p->carry = 0;
		if (rc)
			return rc;
	}
	if (p->state != J_DONE || p->carry || p->skip)
		return jfail(p, err, "premature end of the document", 0);
	return 0;
}

/* ---- small tree ------------------------------------------------------ */

#define TREE_MAX_DEPTH 256

struct tree_builder {
	struct owners_json_value *root;
	struct owners_json_value *stack[TREE_MAX_DEPTH];
	size_t depth;
	char *pending_key;
	int oom;
};

void owners_json_value_free(struct owners_json_value *v)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < v->count; i++) {
		if (v->keys)
			free(v->keys[i]);
		owners_json_value_free(v->items[i]);
	}
	free(v->keys);
	free(v->items);
	free(v->string);
	free(v);
}

static int tree_attach(struct tree_builder *b, struct owners_json_value *v)
{
	struct owners_json_value *parent;

	if (!v) {
		b->oom = 1;
		return 1;
	}
	if (!b->depth) {
		if (b->root) { /* a second top-level value: not one document */
			owners_json_value_free(v);
			return 1;
		}
		b->root = v;
		return 0;
	}
	parent = b->stack[b->depth - 1];
	if (parent->count == parent->cap) {
		size_t cap = parent->cap ? parent->cap * 2 : 4;
		struct owners_json_value **items = realloc(parent->items, cap * sizeof(*items));
		char **keys;

		if (!items)
			goto oom;
		parent->items = items;
		if (parent->type == OWNERS_JSON_OBJECT) {
			keys = realloc(parent->keys, cap * sizeof(*keys));
			if (!keys)
				goto oom;
			parent->keys = keys;
		}
		parent->cap = cap;
	}
	if (parent->type == OWNERS_JSON_OBJECT) {
		parent->keys[parent->count] = b->pending_key;
		b->pending_key = NULL;
	}
	parent->items[parent->count++] = v;
	return 0;
oom:
	owners_json_value_free(v);
	b->oom = 1;
	return 1;
}

static struct owners_json_value *tree_new(enum owners_json_type type)
{
	struct owners_json_value *v = calloc(1, sizeof(*v));

	if (v)
		v->type = type;
	return v;
}

static int t_null(void *ctx)
{
	return tree_attach(ctx, tree_new(OWNERS_JSON_NULL));
}

static int t_bool(void *ctx, int value)
{
	struct owners_json_value *v = tree_new(OWNERS_JSON_BOOL);

	if (v)
		v->boolean = value;
	return tree_attach(ctx, v);
}

static int t_scalar(void *ctx, enum owners_json_type type, const char *s, size_t len)
{
	struct owners_json_value *v = tree_new(type);

	if (v && !(v->string = owners_strndup(s, len))) {
		free(v);
		v = NULL;
	}
	return tree_attach(ctx, v);
}

static int t_number(void *ctx, const char *s, size_t len)
{
	return t_scalar(ctx, OWNERS_JSON_NUMBER, s, len);
}

static int t_string(void *ctx, const char *s, size_t len)
{
	return t_scalar(ctx, OWNERS_JSON_STRING, s, len);
}

static int t_open(void *ctx, enum owners_json_type type)
{
	struct tree_builder *b = ctx;
	struct owners_json_value *v;

	if (b->depth == TREE_MAX_DEPTH)
		return 1;
	v = tree_new(type);
	if (tree_attach(b, v))
		return 1;
	b->stack[b->depth++] = v;
	return 0;
}

static int t_start_map(void *ctx)
{
	return t_open(ctx, OWNERS_JSON_OBJECT);
}

static int t_start_array(void *ctx)
{
	return t_open(ctx, OWNERS_JSON_ARRAY);
}

static int t_key(void *ctx, const char *s, size_t len)
{
	struct tree_builder *b = ctx;

	free(b->pending_key);
	b->pending_key = owners_strndup(s, len);
	if (!b->pending_key) {
		b->oom = 1;
		return 1;
	}
	return 0;
}

static int t_close(void *ctx)
{
	struct tree_builder *b = ctx;

	b->depth--;
	return 0;
}

static const struct owners_json_callbacks tree_callbacks = {
	t_null, t_bool, t_number, t_string, t_start_map, t_key, t_close, t_start_array, t_close,
};

int owners_json_parse(struct owners_json_value **out, const char *data, size_t len,
		      struct owners_error *err)
{
	struct tree_builder b;
	struct owners_json_parser *p;
	int rc;

	*out = NULL;
	memset(&b, 0, sizeof(b));
	p = owners_json_parser_new(&tree_callbacks, &b);
	if (!p)
		return owners_error_oom(err);
	rc = owners_json_parser_feed(p, data, len, NULL);
	if (!rc)
		rc = owners_json_parser_finish(p, NULL);
	if (!rc && !b.root)
		rc = OWNERS_EPROTO;
	if (rc) {
		/* Out of memory in the tree (b.oom) or in the tokenizer itself
		 * (its nesting stack, a token split across chunks). */
		if (b.oom || rc == OWNERS_ENOMEM)
			rc = owners_error_oom(err);
		else
			rc = owners_error_set(err, OWNERS_EPROTO, "invalid JSON document");
		owners_json_value_free(b.root);
		b.root = NULL;
	}
	free(b.pending_key);
	owners_json_parser_free(p);
	*out = b.root;
	return rc;
}

const struct owners_json_value *owners_json_get(const struct owners_json_value *v,
						const char *key)
{
	size_t i;

	if (!v || v->type != OWNERS_JSON_OBJECT)
		return NULL;
	for (i = 0; i < v->count; i++)
		if (!strcmp(v->keys[i], key))
			return v->items[i];
	return NULL;
}

const struct owners_json_value *owners_json_path(const struct owners_json_value *v, ...)
{
	va_list ap;
	const char *key;

	va_start(ap, v);
	while (v && (key = va_arg(ap, const char *)))
		v = owners_json_get(v, key);
	va_end(ap);
	return v;
}

const char *owners_json_string(const struct owners_json_value *v)
{
	return v && v->type == OWNERS_JSON_STRING ? v->string : NULL;
}

int owners_json_bool(const struct owners_json_value *v, int dflt)
{
	return v && v->type == OWNERS_JSON_BOOL ? v->boolean : dflt;
}

int64_t owners_json_int(const struct owners_json_value *v, int64_t dflt)
{
	char *end;
	long long n;

	if (!v || v->type != OWNERS_JSON_NUMBER)
		return dflt;
	n = strtoll(v->string, &end, 10);
	return end == v->string ? dflt : (int64_t)n;
}

/* ---- generator ------------------------------------------------------- */

/* Written straight into the caller's buffer: compact, or pretty in the
 * layout kubectl's -o json uses (two-space indent, "key": value, an empty
 * container as [] or {} on one line, a newline after the document). The
 * first error is kept: every later call returns it, so a caller may check
 * only the last one. */
#define GEN_MAX_DEPTH 128

struct owners_json_gen {
	struct owners_buf *out;
	int pretty;
	int err;                  /* the first error, kept */
	int depth;
	int done;                 /* the document is complete */
	char kind[GEN_MAX_DEPTH]; /* '{' or '[' per open container */
	size_t count[GEN_MAX_DEPTH]; /* tokens written in it (a map counts keys and values) */
};

struct owners_json_gen *owners_json_gen_new(struct owners_buf *out, int pretty)
{
	struct owners_json_gen *g = calloc(1, sizeof(*g));

	if (!g)
		return NULL;
	g->out = out;
	g->pretty = pretty;
	return g;
}

void owners_json_gen_free(struct owners_json_gen *g)
{
	free(g);
}

int owners_json_gen_error(const struct owners_json_gen *g)
{
	return g->err;
}

static int gen_fail(struct owners_json_gen *g, int rc)
{
	if (!g->err)
		g->err = rc;
	return g->err;
}

static int gen_indent(struct owners_json_gen *g, int depth)
{
	int rc = owners_buf_addc(g->out, '\n');

	while (!rc && depth-- > 0)
		rc = owners_buf_adds(g->out, "  ");
	return rc;
}

/* What goes before a token: the separator and indentation its place in
 * the open container asks for. A key must be a string. */
static int gen_before(struct owners_json_gen *g, int is_string)
{
	size_t *n;
	int rc = 0;

	if (g->err)
		return g->err;
	if (!g->depth)
		return g->done ? gen_fail(g, OWNERS_EINVAL) : 0;
	n = &g->count[g->depth - 1];
	if (g->kind[g->depth - 1] == '{' && *n % 2) {
		rc = owners_buf_adds(g->out, g->pretty ? ": " : ":");
	} else {
		if (g->kind[g->depth - 1] == '{' && !is_string)
			return gen_fail(g, OWNERS_EINVAL);
		if (*n)
			rc = owners_buf_addc(g->out, ',');
		if (!rc && g->pretty)
			rc = gen_indent(g, g->depth);
	}
	(*n)++;
	return rc ? gen_fail(g, OWNERS_ENOMEM) : 0;
}

/* After a complete value: at the top, the document is done. */
static int gen_after(struct owners_json_gen *g, int rc)
{
	if (rc)
		return gen_fail(g, rc);
	if (!g->depth) {
		g->done = 1;
		if (g->pretty && owners_buf_addc(g->out, '\n'))
			return gen_fail(g, OWNERS_ENOMEM);
	}
	return 0;
}

/* A string as JSON: the short escapes where JSON has them, \u00XX for the
 * other control characters; everything else (UTF-8 included) as is. */
static int gen_quoted(struct owners_buf *out, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t i, run = 0;
	int rc = owners_buf_addc(out, '"');

	for (i = 0; !rc && i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		const char *esc = NULL;
		char u[7];

		switch (c) {
		case '"': esc = "\\\""; break;
		case '\\': esc = "\\\\"; break;
		case '\n': esc = "\\n"; break;
		case '\r': esc = "\\r"; break;
		case '\t': esc = "\\t"; break;
		case '\b': esc = "\\b"; break;
		case '\f': esc = "\\f"; break;
		default:
			if (c < 0x20) {
				snprintf(u, sizeof(u), "\\u00%c%c", hex[c >> 4], hex[c & 15]);
				esc = u;
			}
		}
		if (!esc) {
			run++;
			continue;
		}
		rc = owners_buf_add(out, s + i - run, run);
		run = 0;
		if (!rc)
			rc = owners_buf_adds(out, esc);
	}
	if (!rc)
		rc = owners_buf_add(out, s + len - run, run);
	return rc ? rc : owners_buf_addc(out, '"');
}

int owners_json_gen_stringn(struct owners_json_gen *g, const char *s, size_t len)
{
	int rc = gen_before(g, 1);

	if (rc)
		return rc;
	if (gen_quoted(g->out, s, len))
		return gen_fail(g, OWNERS_ENOMEM);
	/* a key is not a value: the document cannot end on it */
	if (g->depth && g->kind[g->depth - 1] == '{' && g->count[g->depth - 1] % 2)
		return 0;
	return gen_after(g, 0);
}

int owners_json_gen_string(struct owners_json_gen *g, const char *s)
{
	return owners_json_gen_stringn(g, s, strlen(s));
}

static int gen_raw(struct owners_json_gen *g, const char *text)
{
	int rc = gen_before(g, 0);

	if (rc)
		return rc;
	return gen_after(g, owners_buf_adds(g->out, text) ? OWNERS_ENOMEM : 0);
}

int owners_json_gen_int(struct owners_json_gen *g, long long v)
{
	char text[32];

	snprintf(text, sizeof(text), "%lld", v);
	return gen_raw(g, text);
}

int owners_json_gen_bool(struct owners_json_gen *g, int v)
{
	return gen_raw(g, v ? "true" : "false");
}

int owners_json_gen_null(struct owners_json_gen *g)
{
	return gen_raw(g, "null");
}

static int gen_open(struct owners_json_gen *g, char bracket)
{
	int rc = gen_before(g, 0);

	if (rc)
		return rc;
	if (g->depth >= GEN_MAX_DEPTH)
		return gen_fail(g, OWNERS_EINVAL);
	if (owners_buf_addc(g->out, bracket))
		return gen_fail(g, OWNERS_ENOMEM);
	g->kind[g->depth] = bracket;
	g->count[g->depth] = 0;
	g->depth++;
	return 0;
}

static int gen_close(struct owners_json_gen *g, char open, char bracket)
{
	size_t n;

	if (g->err)
		return g->err;
	if (!g->depth || g->kind[g->depth - 1] != open)
		return gen_fail(g, OWNERS_EINVAL);
	n = g->count[g->depth - 1];
	if (open == '{' && n % 2)
		return gen_fail(g, OWNERS_EINVAL); /* a key without its value */
	g->depth--;
	if (n && g->pretty && gen_indent(g, g->depth))
		return gen_fail(g, OWNERS_ENOMEM);
	return gen_after(g, owners_buf_addc(g->out, bracket) ? OWNERS_ENOMEM : 0);
}

int owners_json_gen_map_open(struct owners_json_gen *g)
{
	return gen_open(g, '{');
}

int owners_json_gen_map_close(struct owners_json_gen *g)
{
	return gen_close(g, '{', '}');
}

int owners_json_gen_array_open(struct owners_json_gen *g)
{
	return gen_open(g, '[');
}

int owners_json_gen_array_close(struct owners_json_gen *g)
{
	return gen_close(g, '[', ']');
}

int owners_json_gen_kv(struct owners_json_gen *g, const char *key, const char *value)
{
	int rc;

	if (!value)
		return 0;
	rc = owners_json_gen_string(g, key);
	return rc ? rc : owners_json_gen_string(g, value);
}

int owners_json_gen_typed_open(struct owners_json_gen *g, const char *kind, const char *api_version)
{
	int rc = owners_json_gen_map_open(g);

	if (!rc)
		rc = owners_json_gen_kv(g, "kind", kind);
	if (!rc)
		rc = owners_json_gen_kv(g, "apiVersion", api_version);
	return rc;
}

int owners_json_gen_kv_bool(struct owners_json_gen *g, const char *key, int value)
{
	int rc = owners_json_gen_string(g, key);

	return rc ? rc : owners_json_gen_bool(g, value);
}

int owners_json_gen_kv_int(struct owners_json_gen *g, const char *key, long long value)
{
	int rc = owners_json_gen_string(g, key);

	return rc ? rc : owners_json_gen_int(g, value);
}

int owners_json_gen_kv_time(struct owners_json_gen *g, const char *key, int64_t t)
{
	char text[32];
	time_t tt = (time_t)t;
	struct tm tm;

	if (!t)
		return 0;
	if (!gmtime_r(&tt, &tm) || !strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &tm))
		return OWNERS_EINVAL;
	return owners_json_gen_kv(g, key, text);
}

int owners_json_gen_value(struct owners_json_gen *g, const struct owners_json_value *v)
{
	size_t i;
	int rc = 0;

	switch (v->type) {
	case OWNERS_JSON_NULL:
		return owners_json_gen_null(g);
	case OWNERS_JSON_BOOL:
		return owners_json_gen_bool(g, v->boolean);
	case OWNERS_JSON_NUMBER:
		return gen_raw(g, v->string);
	case OWNERS_JSON_STRING:
		return owners_json_gen_string(g, v->string);
	case OWNERS_JSON_OBJECT:
		rc = owners_json_gen_map_open(g);
		for (i = 0; !rc && i < v->count; i++) {
			rc = owners_json_gen_string(g, v->keys[i]);
			if (!rc)
				rc = owners_json_gen_value(g, v->items[i]);
		}
		return rc ? rc : owners_json_gen_map_close(g);
	case OWNERS_JSON_ARRAY:
		rc = owners_json_gen_array_open(g);
		for (i = 0; !rc && i < v->count; i++)
			rc = owners_json_gen_value(g, v->items[i]);
		return rc ? rc : owners_json_gen_array_close(g);
	}
	return OWNERS_EINVAL;
}

int owners_json_quote(struct owners_buf *out, const char *s, size_t len)
{
	return gen_quoted(out, s, len);
}
