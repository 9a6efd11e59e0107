/*
 * The metadata of one object as a list response carries it, handed out
 * one item at a time by either decoder of a list: JSON (list_parser.c,
 * which also reads each watch event's object for watch_stream.c) and
 * protobuf (list_proto.c). Both must hand on the same values for the same
 * object: a scan reads whichever the server speaks.
 *
 * A new field read from objects takes one path, every step of it:
 *  1. here: the field, and what it holds when an object does not have it
 *     ("" for a string, never NULL; 0 for a count);
 *  2. the JSON decoder, lib/codec/list_parser.c: a slot (enum meta_slot,
 *     or an array of its own with its reserve()), the key in on_key under
 *     W_META, its value in on_field_value, handed out in item_end;
 *  3. the protobuf decoder: the field in lib/codec/proto/k8s_list.proto
 *     with Kubernetes' own number (k8s.io/apimachinery
 *     pkg/apis/meta/v1/generated.proto), copied in list_proto.c's item();
 *  4. tests/unit/test_object_meta.c: a distinctive value in its objects
 *     (and an object without it), compared in differ(), counted in the
 *     size check at its top, which fails the build until then;
 *  5. what keeps it, if anything does: lib/graph/graph.c (struct
 *     owners_node in graph.h; fill_node, owners_graph_forget, copy_node)
 *     and tests/unit/fake_objects.h;
 *  6. readers of whole objects take metadata from a parsed JSON document
 *     instead, with owners_json_path (lib/api/object_io.c's
 *     owners_object_io_meta_string, finalizer_patch.c; lib/graph/status_fetch.c
 *     over list_items.c; lib/ops/cascade_exec.c, dangling_fix.c,
 *     orphan_release.c, why_events.c), and lib/api/pod_claims.c parses pods
 *     for lib/ops/stuck_fetch.c: change them only if they need the field.
 *
 * Ownership: everything in an owners_object_meta is borrowed from the
 * decoder and is valid only during the item callback; copy what you keep.
 */
#ifndef OWNERS_OBJECT_META_H
#define OWNERS_OBJECT_META_H

#include <stddef.h>
#include <stdint.h>

struct owners_owner_ref_meta {
	const char *api_version;
	const char *kind;
	const char *name;
	const char *uid;
	int controller;             /* 1 when "controller": true */
	int block_owner_deletion;   /* 1 when "blockOwnerDeletion": true */
};

#define OWNERS_REF_HAS_CONTROLLER 1u
#define OWNERS_REF_HAS_BLOCK_OWNER_DELETION 2u

struct owners_label_meta {
	const char *key;
	const char *value;
};

struct owners_object_meta {
	const char *name;
	const char *namespace_;        /* "" for cluster-scoped objects */
	const char *uid;
	const char *resource_version;
	const char *creation_timestamp; /* RFC 3339 text, "" when absent */
	const char *deletion_timestamp; /* RFC 3339 text, "" when absent */
	const char *const *finalizers;
	size_t n_finalizers;
	const struct owners_owner_ref_meta *owner_refs;
	size_t n_owner_refs;
	/* One per owner_refs entry (may be NULL): which of the boolean fields
	 * the reference has at all, so "controller": false can be written
	 * back as it was rather than dropped. */
	const unsigned char *owner_ref_fields;
	const struct owners_label_meta *labels; /* only when the parser was asked to keep labels */
	size_t n_labels;
};

#endif
