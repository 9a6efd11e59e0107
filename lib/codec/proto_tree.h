/*
 * A protobuf message read into the small JSON tree (json.h), by a schema
 * that names the fields wanted: what lets code written against an
 * object's JSON (lib/api/object_status.c) read the same object sent in
 * Kubernetes' protobuf, which is several times cheaper for the server to
 * send and for owners to read.
 *
 * The tree is what the JSON encoding would hold for those fields, as Go's
 * encoding/json writes Kubernetes' types with omitempty: an empty string
 * is left out (the protobuf encoding writes it); numbers, booleans and
 * messages are kept as they come. Fields the schema does not name are
 * passed over unread; a repeated field is an array in wire order; a
 * message named without fields is an empty object (enough to count).
 *
 * A message that is not well-formed protobuf, or a field of the wrong
 * wire type for its schema, fails with OWNERS_EPROTO.
 *
 * Ownership: *out is the caller's, freed with owners_json_value_free().
 */
#ifndef OWNERS_PROTO_TREE_H
#define OWNERS_PROTO_TREE_H

#include <stddef.h>
#include <stdint.h>

#include "json.h"

enum owners_proto_type {
	OWNERS_PROTO_STRING,
	OWNERS_PROTO_INT,     /* int32 or int64: a varint */
	OWNERS_PROTO_BOOL,
	OWNERS_PROTO_MESSAGE,
};

struct owners_proto_schema;

struct owners_proto_field {
	uint32_t number;
	const char *name;     /* its JSON name */
	enum owners_proto_type type;
	int repeated;
	const struct owners_proto_schema *message; /* OWNERS_PROTO_MESSAGE */
};

struct owners_proto_schema {
	const struct owners_proto_field *fields;
	size_t count;
};

int owners_proto_tree(struct owners_json_value **out, const struct owners_proto_schema *schema,
		      const char *data, size_t len);

#endif
