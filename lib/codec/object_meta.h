/*
 * The metadata of one object as a list response carries it, handed out by
 * the streaming list parser one item at a time.
 *
 * Ownership: everything in an owners_object_meta is borrowed from the
 * parser and is valid only during the item callback; copy what you keep.
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
