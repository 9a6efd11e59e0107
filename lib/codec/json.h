/*
 * JSON, through yajl (every yajl call of the project is in json.c, the
 * parser, and json_gen.c, the generator; json_tree.c builds its tree on
 * the parser's callbacks, so the library could be replaced in two files).
 *
 * Three tools:
 *  - a streaming parser fed chunk by chunk (HTTP bodies are never held
 *    whole); callbacks get strings as (pointer, length) that are NOT
 *    NUL-terminated and die when the callback returns: copy what you keep;
 *  - a small tree (owners_json_value) for small documents only: exec
 *    credential output, Status bodies, discovery documents;
 *  - a generator that appends to an owners_buf, compact or in kubectl's
 *    -o json layout; it keeps its first error (every later call returns
 *    it), so a sequence of calls may be checked once, at the end.
 *
 * Ownership: owners_json_parse() returns a tree the caller frees with
 * owners_json_value_free(); getters return borrowed pointers into it.
 */
#ifndef OWNERS_JSON_H
#define OWNERS_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "owners_error.h"

/* ---- streaming parser ------------------------------------------------ */

/* Each callback returns 0 to go on, non-zero to stop the parse (the feed
 * then fails with OWNERS_EPROTO unless the callback recorded an error).
 * on_start_map and on_start_array may return OWNERS_JSON_SKIP instead: the
 * value they open is then passed over with no callback at all, its
 * content only scanned for strings and brackets (fast: for the big parts
 * of a document that nobody reads, such as managedFields). */
#define OWNERS_JSON_SKIP 2
struct owners_json_callbacks {
	int (*on_null)(void *ctx);
	int (*on_bool)(void *ctx, int value);
	int (*on_number)(void *ctx, const char *text, size_t len);
	int (*on_string)(void *ctx, const char *s, size_t len);
	int (*on_start_map)(void *ctx);
	int (*on_key)(void *ctx, const char *s, size_t len);
	int (*on_end_map)(void *ctx);
	int (*on_start_array)(void *ctx);
	int (*on_end_array)(void *ctx);
};

struct owners_json_parser;

/* 0, or OWNERS_ENOMEM (*out NULL). */
int owners_json_parser_new(struct owners_json_parser **out, const struct owners_json_callbacks *cb,
			   void *ctx);
int owners_json_parser_feed(struct owners_json_parser *p, const char *data, size_t len,
			    struct owners_error *err);
/* Call once after the last chunk: a truncated document is an error. */
int owners_json_parser_finish(struct owners_json_parser *p, struct owners_error *err);
void owners_json_parser_free(struct owners_json_parser *p);

/* ---- small tree ------------------------------------------------------ */

enum owners_json_type {
	OWNERS_JSON_NULL,
	OWNERS_JSON_BOOL,
	OWNERS_JSON_NUMBER,
	OWNERS_JSON_STRING,
	OWNERS_JSON_OBJECT,
	OWNERS_JSON_ARRAY,
};

struct owners_json_value {
	enum owners_json_type type;
	int boolean;
	char *string;               /* STRING; NUMBER keeps its text here */
	size_t count;               /* OBJECT/ARRAY: number of items */
	char **keys;                /* OBJECT */
	struct owners_json_value **items;
	size_t cap;                 /* room in items */
	size_t cap_keys;            /* room in keys */
};

int owners_json_parse(struct owners_json_value **out, const char *data, size_t len,
		      struct owners_error *err);
/* The same, with the parser fed `step` bytes at a time (0: all at once),
 * as an HTTP body arrives: the fuzzers check that the tree never depends
 * on where the chunks end. */
int owners_json_parse_steps(struct owners_json_value **out, const char *data, size_t len,
			    size_t step, struct owners_error *err);
void owners_json_value_free(struct owners_json_value *v);

/* The small tree built from events someone else's parser drives (a
 * list's items, each built as it streams in and never written out as
 * text): feed it owners_json_builder_events() with the builder as their
 * context, one value at a time, then take the value. */
struct owners_json_builder;
int owners_json_builder_new(struct owners_json_builder **out);
void owners_json_builder_free(struct owners_json_builder *b);
const struct owners_json_callbacks *owners_json_builder_events(void);
/* The value the events built (the caller's to free), and the builder
 * empty for the next: 0; OWNERS_ENOMEM when building ran out of memory;
 * OWNERS_EPROTO when no whole value was built. */
int owners_json_builder_take(struct owners_json_builder *b, struct owners_json_value **out);
/* Drops a value half built (its document was cut short). */
void owners_json_builder_reset(struct owners_json_builder *b);

/* NULL when v is not an object or has no such key. */
const struct owners_json_value *owners_json_get(const struct owners_json_value *v,
						const char *key);
/* Follows a path of keys: owners_json_path(v, "status", "token", NULL). */
const struct owners_json_value *owners_json_path(const struct owners_json_value *v, ...);
/* The string, or NULL when v is NULL or not a string. */
const char *owners_json_string(const struct owners_json_value *v);
/* How many elements v has when it is an array; 0 otherwise (NULL too). */
size_t owners_json_array_count(const struct owners_json_value *v);
/* 1 for true, 0 for false, dflt otherwise. */
int owners_json_bool(const struct owners_json_value *v, int dflt);
/* The number (integer part), or dflt. */
int64_t owners_json_int(const struct owners_json_value *v, int64_t dflt);

/* ---- generator ------------------------------------------------------- */

struct owners_json_gen;

/* Appends to buf; pretty indents with four spaces (kubectl's -o json) and
 * ends the document with a newline. 0, or OWNERS_ENOMEM (*out NULL).
 * Each call on the generator returns 0, or the
 * generator's first error: OWNERS_ENOMEM, or OWNERS_EINVAL for a misuse
 * (a key that is not a string, a close that does not match, a second
 * document, more than 127 levels: yajl's limit). */
int owners_json_gen_new(struct owners_json_gen **out, struct owners_buf *buf, int pretty);
void owners_json_gen_free(struct owners_json_gen *g);
/* The first error of any call so far, 0 when there was none. */
int owners_json_gen_error(const struct owners_json_gen *g);
int owners_json_gen_string(struct owners_json_gen *g, const char *s);
int owners_json_gen_stringn(struct owners_json_gen *g, const char *s, size_t len);
int owners_json_gen_int(struct owners_json_gen *g, long long v);
/* A number written as its text (as a parser read it: never rounded). */
int owners_json_gen_number(struct owners_json_gen *g, const char *text, size_t len);
int owners_json_gen_bool(struct owners_json_gen *g, int v);
int owners_json_gen_null(struct owners_json_gen *g);
int owners_json_gen_map_open(struct owners_json_gen *g);
int owners_json_gen_map_close(struct owners_json_gen *g);
int owners_json_gen_array_open(struct owners_json_gen *g);
int owners_json_gen_array_close(struct owners_json_gen *g);
/* Writes "key": string; skipped when value is NULL. */
int owners_json_gen_kv(struct owners_json_gen *g, const char *key, const char *value);
/* "key": value pairs; the time one writes RFC 3339 UTC and is skipped
 * when t is 0 (unset). */
/* Opens an object and writes its "kind" and "apiVersion" first, as every
 * Kubernetes-style document starts. */
int owners_json_gen_typed_open(struct owners_json_gen *g, const char *kind, const char *api_version);
int owners_json_gen_kv_bool(struct owners_json_gen *g, const char *key, int value);
int owners_json_gen_kv_int(struct owners_json_gen *g, const char *key, long long value);
int owners_json_gen_kv_time(struct owners_json_gen *g, const char *key, int64_t t);
/* "key": [the n strings] (an empty array when n is 0). */
int owners_json_gen_kv_strings(struct owners_json_gen *g, const char *key, const char *const *strings,
			       size_t n);
/* Re-emits a parsed tree. */
int owners_json_gen_value(struct owners_json_gen *g, const struct owners_json_value *v);

/* "2.1.0": the version of yajl owners runs with. */
const char *owners_json_library_version(void);

/* Appends s as a JSON string literal (with quotes) to out. */
int owners_json_quote(struct owners_buf *out, const char *s, size_t len);

#endif
