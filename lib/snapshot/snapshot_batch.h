/*
 * The two binary records of snapshot format 2 (the frames around them:
 * snapshot_file.h): a batch of objects of one type, and a batch of
 * READY/STATUS records. They hold what the JSON lists of format 1 hold,
 * field for field, in the form that is cheapest to read back: strings
 * NUL-terminated where they stand (a reader hands out pointers into the
 * batch, copying nothing), counts as varints (LEB128, as protobuf's).
 *
 *   objects:  group\0 version\0 resource\0  then, until the batch ends:
 *             name\0 namespace\0 uid\0 resourceVersion\0
 *             creationTimestamp\0 deletionTimestamp\0     (RFC 3339 or "")
 *             varint n, n x (key\0 value\0)                labels
 *             varint n, n x (finalizer\0)
 *             varint n, n x (apiVersion\0 kind\0 name\0 uid\0 flags)
 *                     flags: 1 controller, 2 has controller,
 *                            4 blockOwnerDeletion, 8 has it
 *   statuses: until the batch ends: uid\0 ready\0 status\0
 *             health (one byte: 0 none, 1 ok, 2 pending, 3 bad)
 *             isReady (one byte: 0 or 1)
 *
 * A batch is decoded whole or refused: a string not ended inside it, a
 * count larger than what is left, an unknown flag or health: OWNERS_EPROTO
 * with the offset in the batch and what was wrong.
 *
 * Ownership: an owners_snapshot_batch_reader owns the arrays it hands out
 * (valid during the callback); the strings point into the caller's batch.
 */
#ifndef OWNERS_SNAPSHOT_BATCH_H
#define OWNERS_SNAPSHOT_BATCH_H

#include <stddef.h>

#include "buf.h"
#include "object_meta.h"
#include "object_status.h"
#include "owners_error.h"

/* Starts an objects batch of the type group/version/resource in b. */
int owners_snapshot_batch_objects_begin(struct owners_buf *b, const char *group, const char *version,
					const char *resource);
int owners_snapshot_batch_add_object(struct owners_buf *b, const struct owners_object_meta *m);
int owners_snapshot_batch_add_status(struct owners_buf *b, const char *uid, const struct owners_object_status *s);

struct owners_snapshot_batch_reader {
	const char **strings;   /* finalizers */
	size_t strings_cap;
	struct owners_label_meta *labels;
	size_t labels_cap;
	struct owners_owner_ref_meta *refs;
	unsigned char *ref_fields;
	size_t refs_cap;
};

typedef int (*owners_snapshot_batch_object_fn)(void *ctx, const struct owners_object_meta *m);
typedef int (*owners_snapshot_batch_status_fn)(void *ctx, const char *uid, const struct owners_object_status *s);

/* A batch of objects: its bytes, the type it is of, and where its
 * objects begin (the strings point into data). */
struct owners_snapshot_batch_objects {
	const char *data;
	size_t len;
	const char *group, *version, *resource;
	size_t body;
};

/* Reads the type of the batch data[0..len) into *out. */
int owners_snapshot_batch_objects_open(struct owners_snapshot_batch_objects *out, const char *data, size_t len,
				       struct owners_error *err);
/* Each object of the batch to fn, in order; fn's non-zero code stops the
 * read and is returned. */
int owners_snapshot_batch_read_objects(struct owners_snapshot_batch_reader *r,
				       const struct owners_snapshot_batch_objects *b,
				       owners_snapshot_batch_object_fn fn, void *ctx, struct owners_error *err);
/* Each object's UID and its references' UIDs to fn, in order: a first
 * pass, for a reader that asks ahead for what it will look up. */
int owners_snapshot_batch_read_uids(struct owners_snapshot_batch_reader *r,
				    const struct owners_snapshot_batch_objects *b,
				    void (*fn)(void *ctx, const char *uid), void *ctx,
				    struct owners_error *err);
int owners_snapshot_batch_read_statuses(const char *data, size_t len, owners_snapshot_batch_status_fn fn,
					void *ctx, struct owners_error *err);
void owners_snapshot_batch_reader_clear(struct owners_snapshot_batch_reader *r);

#endif
