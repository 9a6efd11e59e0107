/*
 * The objects of a dump's documents, one at a time: a builder fed the
 * events of one parser (JSON through json.h's callbacks in
 * snapshot_dump_json.c, YAML through libyaml's events in
 * snapshot_dump_yaml.c) that hands out each object as a small tree
 * (json.h) the moment its closing brace is read, then frees it, so that a
 * List of any length is never held whole.
 *
 * A document is one of:
 *  - a List: an object with an "items" array (kubectl's kind List, a typed
 *    PodList from kubectl cluster-info dump or a support bundle, a
 *    must-gather file); each element is an object, handed out as an item;
 *  - a bare array of objects (a support bundle's custom resources);
 *  - one object (kubectl get NAME -o json, a must-gather object file);
 *  - anything else (a scalar, an empty YAML document): no item, only the
 *    document's shape.
 * An element of the items or of a bare array that is no object is passed
 * over, and counted: a file that is no dump is not an error here. An
 * object with a field of its own named items (not a List: its kind does
 * not end in List) is handed out too, without that field.
 * An element of a typed List carries no kind of its own (the API server
 * writes items without TypeMeta): it takes the List's ("PodList" -> "Pod")
 * and apiVersion. When the List's kind comes after its items (YAML sorts
 * keys: apiVersion, items, kind, metadata), such elements wait for the
 * List's end; a List whose metadata came first and no kind has none (a
 * Go program writes kind first), and its elements go out at once.

 * Two depths: full (every field but metadata.managedFields, for the
 * objects handed on) and shallow (apiVersion, kind, metadata but its
 * managedFields and annotations, and a null "status" when the object has
 * one: what building the types and checking metadata need, the rest
 * skipped through fast).
 *
 * Ownership: every pointer handed to a sink callback is borrowed for that
 * call only. The builder owns its trees; _free() releases it.
 */
#ifndef OWNERS_SNAPSHOT_DUMP_TREE_H
#define OWNERS_SNAPSHOT_DUMP_TREE_H

#include <stddef.h>
#include <stdint.h>

#include "json.h"
#include "owners_error.h"

/* One object of a document. */
struct owners_snapshot_dump_tree_item {
	const struct owners_json_value *object;
	/* The object's own apiVersion and kind, else its List's element type;
	 * "" when neither says. */
	const char *api_version;
	const char *kind;
	unsigned long line; /* where the object starts, from 1 */
	size_t index;       /* items[index] in its List */
	int in_list;        /* 0: the document is this one object */
};

enum owners_snapshot_dump_tree_shape {
	OWNERS_SNAPSHOT_DUMP_EMPTY,  /* an empty YAML document, or null */
	OWNERS_SNAPSHOT_DUMP_OTHER,  /* a scalar: no object */
	OWNERS_SNAPSHOT_DUMP_OBJECT, /* one object */
	OWNERS_SNAPSHOT_DUMP_LIST,   /* an object with "items" */
	OWNERS_SNAPSHOT_DUMP_ARRAY,  /* a bare array of objects */
};

/* A document, once it ended. */
struct owners_snapshot_dump_tree_doc {
	enum owners_snapshot_dump_tree_shape shape;
	/* A List's own: "PodList", "v1", its metadata.resourceVersion; "" absent. */
	const char *kind;
	const char *api_version;
	const char *resource_version;
	/* The root says what it is: it has a kind, an apiVersion or a
	 * metadata (a List of nothing is a List; a file with a key named
	 * items is not). */
	int described;
	size_t items;       /* items handed out */
	size_t others;      /* elements that are no object: passed over */
	unsigned long line; /* where the document starts */
};

/* Each returns 0 to go on; anything else ends the read with that code
 * (OWNERS_ESTOP included), err set by the callback when it has words. */
struct owners_snapshot_dump_tree_sink {
	int (*item)(void *ctx, const struct owners_snapshot_dump_tree_item *it,
		    struct owners_error *err);
	int (*document)(void *ctx, const struct owners_snapshot_dump_tree_doc *d,
			struct owners_error *err);
	void *ctx;
};

struct owners_snapshot_dump_tree;

/* shallow: see above. 0, or OWNERS_ENOMEM (*out NULL). */
int owners_snapshot_dump_tree_new(struct owners_snapshot_dump_tree **out,
				  const struct owners_snapshot_dump_tree_sink *sink, int shallow);
void owners_snapshot_dump_tree_free(struct owners_snapshot_dump_tree *t);

/* How far the reading of the dump's files is: the reader tells the tree
 * the byte its parser reached in the file, and the meter the whole. */
struct owners_snapshot_dump_tree_meter {
	void (*progress)(void *ctx, unsigned percent, uint64_t size);
	void *ctx;
	uint64_t total; /* every file's size, twice (the scan and the objects) */
	uint64_t base;  /* the files read before this one */
	uint64_t said;  /* what it was last told */
};

/* The meter told of what the parsers read into t (NULL: none). */
void owners_snapshot_dump_tree_set_meter(struct owners_snapshot_dump_tree *t,
					 struct owners_snapshot_dump_tree_meter *m);
/* The parser reached byte `at` of the file. */
void owners_snapshot_dump_tree_read_to(struct owners_snapshot_dump_tree *t, uint64_t at);
/* The file is read (its size): the meter's base moves past it. */
void owners_snapshot_dump_tree_meter_file_done(struct owners_snapshot_dump_tree_meter *m,
					       uint64_t size);

/* ---- the parser's events ------------------------------------------- */

/* The line the next events come from (for the items' line). */
void owners_snapshot_dump_tree_at(struct owners_snapshot_dump_tree *t, unsigned long line);
/* A new document starts (forgets any earlier one). */
void owners_snapshot_dump_tree_begin(struct owners_snapshot_dump_tree *t);
/* A map or an array opens: 0, OWNERS_JSON_SKIP when the builder declines
 * its content (the caller passes it over and sends no close for it), or
 * a negative code (see _error()). */
int owners_snapshot_dump_tree_open(struct owners_snapshot_dump_tree *t, enum owners_json_type type);
int owners_snapshot_dump_tree_close(struct owners_snapshot_dump_tree *t);
/* Whether the next scalar is a map's key (YAML's events do not say). */
int owners_snapshot_dump_tree_wants_key(const struct owners_snapshot_dump_tree *t);
int owners_snapshot_dump_tree_key(struct owners_snapshot_dump_tree *t, const char *s, size_t len);
/* A scalar value: OWNERS_JSON_NULL, _BOOL ("true"/"false"), _NUMBER (its
 * text) or _STRING. */
int owners_snapshot_dump_tree_scalar(struct owners_snapshot_dump_tree *t,
				     enum owners_json_type type, const char *s, size_t len);
/* The document ended: hands out a single object or the Lists' waiting
 * items, then the document itself. */
int owners_snapshot_dump_tree_end(struct owners_snapshot_dump_tree *t);

/* After a failed event: its code and message (the sink's or the
 * builder's own, such as "items[3] is a string, expected an object")
 * copied into err; 0 (err untouched) when the builder did not fail. It
 * takes a new document only after _begin(). */
int owners_snapshot_dump_tree_error(struct owners_snapshot_dump_tree *t, struct owners_error *err);

#endif
