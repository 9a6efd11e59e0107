/*
 * One object of a dump, as a snapshot's visitor takes it: its metadata as
 * a list response carries it (object_meta.h), read from the object's whole
 * tree (snapshot_dump_tree.h), with the same values and the same defaults
 * as the list parser's ("" for an absent string, the ownerReferences'
 * boolean fields said present or not), and of a wrong type refused with
 * the field named ("metadata.finalizers[1] is a number, expected a
 * string") rather than read as absent.
 *
 * Ownership: the metadata's strings point into the object's tree (valid
 * while it is); its arrays belong to the struct, reused from one object to
 * the next, until owners_snapshot_dump_object_meta_clear().
 */
#ifndef OWNERS_SNAPSHOT_DUMP_OBJECT_H
#define OWNERS_SNAPSHOT_DUMP_OBJECT_H

#include "json.h"
#include "object_meta.h"
#include "owners_error.h"

struct owners_snapshot_dump_object_meta {
	struct owners_object_meta meta;
	const char **finalizers;
	size_t cap_finalizers;
	struct owners_owner_ref_meta *refs;
	size_t cap_refs;
	unsigned char *ref_fields;
	size_t cap_ref_fields;
	struct owners_label_meta *labels;
	size_t cap_labels;
};

void owners_snapshot_dump_object_meta_init(struct owners_snapshot_dump_object_meta *m);
void owners_snapshot_dump_object_meta_clear(struct owners_snapshot_dump_object_meta *m);

/* Fills m->meta from object's metadata. 0, OWNERS_ENOMEM, or OWNERS_EPROTO
 * with err naming the field. */
int owners_snapshot_dump_object_meta_read(struct owners_snapshot_dump_object_meta *m,
					  const struct owners_json_value *object,
					  struct owners_error *err);

#endif
