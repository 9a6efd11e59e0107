#include "snapshot_write.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "file_stream.h"
#include "json.h"
#include "resource_json.h"
#include "snapshot_batch.h"
#include "snapshot_file.h"

#define SNAPSHOT_API_VERSION "owners.dev/v1"

/* Format 2's batches are cut at this size: a frame read back is this
 * large, give or take an object. */
#define BATCH_BYTES (64 * 1024)

struct owners_snapshot_writer {
	struct owners_file_writer *file;
	enum owners_snapshot_format format;
	struct owners_buf doc;
	/* The list (format 1) or batch (format 2) open: its frame kind
	 * (OWNERS_SNAPSHOT_FRAME_*; 0 none) and, for objects, their type. */
	char open_frame;
	const struct owners_resource *open_type;
	uint64_t objects, lists;
	uint64_t in_list; /* objects in the list document open */
};

int owners_snapshot_write_open(struct owners_snapshot_writer **out, const char *path,
			       enum owners_snapshot_format format, struct owners_error *err)
{
	struct owners_snapshot_writer *w = calloc(1, sizeof(*w));
	int rc;

	*out = NULL;
	if (!w)
		return owners_error_oom(err);
	w->format = format == OWNERS_SNAPSHOT_FORMAT_JSON ? OWNERS_SNAPSHOT_FORMAT_JSON : OWNERS_SNAPSHOT_FORMAT_FRAMES;
	if ((rc = owners_file_writer_open(&w->file, path, err))) {
		free(w);
		return rc;
	}
	if (w->format == OWNERS_SNAPSHOT_FORMAT_FRAMES &&
	    (rc = owners_file_writer_write(w->file, OWNERS_SNAPSHOT_MAGIC, OWNERS_SNAPSHOT_MAGIC_LEN, err))) {
		owners_file_writer_abandon(w->file);
		free(w);
		return rc;
	}
	*out = w;
	return 0;
}

/* Writes what doc holds and empties it. */
static int put(struct owners_snapshot_writer *w, struct owners_error *err)
{
	int rc = owners_file_writer_write(w->file, w->doc.ptr, w->doc.len, err);

	w->doc.len = 0;
	return rc;
}

/* Format 2: what doc holds as one frame of kind tag, and doc emptied. */
static int put_frame(struct owners_snapshot_writer *w, char tag, struct owners_error *err)
{
	unsigned char head[OWNERS_SNAPSHOT_FRAME_HEAD];
	uint32_t n = (uint32_t)w->doc.len;
	int rc;

	if (w->doc.len > OWNERS_SNAPSHOT_FRAME_MAX) {
		rc = owners_error_set(err, OWNERS_EINVAL, "a snapshot record of %zu bytes: more than a frame holds",
				      w->doc.len);
		w->doc.len = 0;
		return rc;
	}
	uint32_t crc = owners_crc32(w->doc.ptr, w->doc.len);

	head[0] = (unsigned char)tag;
	head[1] = (unsigned char)(n & 0xff);
	head[2] = (unsigned char)((n >> 8) & 0xff);
	head[3] = (unsigned char)((n >> 16) & 0xff);
	head[4] = (unsigned char)(n >> 24);
	head[5] = (unsigned char)(crc & 0xff);
	head[6] = (unsigned char)((crc >> 8) & 0xff);
	head[7] = (unsigned char)((crc >> 16) & 0xff);
	head[8] = (unsigned char)(crc >> 24);
	rc = owners_file_writer_write(w->file, (const char *)head, sizeof(head), err);
	return rc ? (w->doc.len = 0, rc) : put(w, err);
}

static int close_list(struct owners_snapshot_writer *w, struct owners_error *err)
{
	char tag = w->open_frame;

	if (!tag)
		return 0;
	w->open_type = NULL;
	w->open_frame = 0;
	if (w->format == OWNERS_SNAPSHOT_FORMAT_FRAMES)
		return put_frame(w, tag, err);
	if (owners_buf_adds(&w->doc, "\n]}\n"))
		return owners_error_oom(err);
	return put(w, err);
}

/* A record of its own: one line (format 1), one frame of kind tag
 * (format 2). */
static int record(struct owners_snapshot_writer *w, struct owners_json_gen *j, char tag, struct owners_error *err)
{
	int rc = owners_json_gen_error(j);

	owners_json_gen_free(j);
	if (rc || owners_buf_addc(&w->doc, '\n'))
		return owners_error_oom(err);
	return w->format == OWNERS_SNAPSHOT_FORMAT_FRAMES ? put_frame(w, tag, err) : put(w, err);
}

static struct owners_json_gen *record_open(struct owners_snapshot_writer *w, const char *kind,
					   struct owners_error *err)
{
	struct owners_json_gen *j;

	if (close_list(w, err))
		return NULL;
	if (owners_json_gen_new(&j, &w->doc, 0)) {
		owners_error_oom(err);
		return NULL;
	}
	owners_json_gen_map_open(j);
	owners_json_gen_kv(j, "apiVersion", SNAPSHOT_API_VERSION);
	owners_json_gen_kv(j, "kind", kind);
	return j;
}

static void kv_or_null(struct owners_json_gen *j, const char *key, const char *v)
{
	owners_json_gen_string(j, key);
	if (v)
		owners_json_gen_string(j, v);
	else
		owners_json_gen_null(j);
}

int owners_snapshot_write_header(struct owners_snapshot_writer *w, const struct owners_snapshot_header *h,
				 const struct owners_resource_table *types, struct owners_error *err)
{
	struct owners_json_gen *j = record_open(w, "Snapshot", err);

	if (!j)
		return err->code;
	owners_json_gen_kv_int(j, "format", w->format);
	owners_json_gen_kv_time(j, "takenAt", h->taken_at);
	owners_json_gen_kv(j, "server", h->server ? h->server : "");
	owners_json_gen_kv(j, "serverVersion", h->server_version ? h->server_version : "");
	kv_or_null(j, "namespace", h->namespace_);
	owners_json_gen_kv_bool(j, "clusterScoped", h->cluster_scoped);
	if (h->has_relations)
		owners_json_gen_kv_bool(j, "related", 1);
	kv_or_null(j, "labelSelector", h->label_selector);
	owners_json_gen_string(j, "discovery");
	owners_resource_json_gen(j, types, w->format);
	owners_json_gen_map_close(j);
	return record(w, j, OWNERS_SNAPSHOT_FRAME_RECORD, err);
}

static void gen_refs(struct owners_json_gen *j, const struct owners_object_meta *m)
{
	size_t i;

	owners_json_gen_string(j, "ownerReferences");
	owners_json_gen_array_open(j);
	for (i = 0; i < m->n_owner_refs; i++) {
		const struct owners_owner_ref_meta *r = &m->owner_refs[i];
		unsigned has = m->owner_ref_fields ? m->owner_ref_fields[i]
						   : (r->controller ? OWNERS_REF_HAS_CONTROLLER : 0) |
						     (r->block_owner_deletion ? OWNERS_REF_HAS_BLOCK_OWNER_DELETION : 0);

		owners_json_gen_map_open(j);
		owners_json_gen_kv(j, "apiVersion", r->api_version);
		owners_json_gen_kv(j, "kind", r->kind);
		owners_json_gen_kv(j, "name", r->name);
		owners_json_gen_kv(j, "uid", r->uid);
		if (has & OWNERS_REF_HAS_CONTROLLER)
			owners_json_gen_kv_bool(j, "controller", r->controller);
		if (has & OWNERS_REF_HAS_BLOCK_OWNER_DELETION)
			owners_json_gen_kv_bool(j, "blockOwnerDeletion", r->block_owner_deletion);
		owners_json_gen_map_close(j);
	}
	owners_json_gen_array_close(j);
}

/* The object as a PartialObjectMetadata item: exactly what the list
 * parser hands on, so that a read gives back the same metadata. */
static void gen_meta(struct owners_json_gen *j, const struct owners_object_meta *m)
{
	size_t i;

	owners_json_gen_map_open(j);
	owners_json_gen_string(j, "metadata");
	owners_json_gen_map_open(j);
	owners_json_gen_kv(j, "name", m->name);
	if (*m->namespace_)
		owners_json_gen_kv(j, "namespace", m->namespace_);
	owners_json_gen_kv(j, "uid", m->uid);
	owners_json_gen_kv(j, "resourceVersion", m->resource_version);
	if (*m->creation_timestamp)
		owners_json_gen_kv(j, "creationTimestamp", m->creation_timestamp);
	if (*m->deletion_timestamp)
		owners_json_gen_kv(j, "deletionTimestamp", m->deletion_timestamp);
	if (m->n_labels) {
		owners_json_gen_string(j, "labels");
		owners_json_gen_map_open(j);
		for (i = 0; i < m->n_labels; i++)
			owners_json_gen_kv(j, m->labels[i].key, m->labels[i].value);
		owners_json_gen_map_close(j);
	}
	if (m->n_finalizers)
		owners_json_gen_kv_strings(j, "finalizers", m->finalizers, m->n_finalizers);
	if (m->n_owner_refs)
		gen_refs(j, m);
	owners_json_gen_map_close(j);
	owners_json_gen_map_close(j);
}

/* Opens a list document for type: the List a server would send for it. */
static int open_list(struct owners_snapshot_writer *w, const struct owners_resource *type,
		     struct owners_error *err)
{
	int rc;

	if ((rc = close_list(w, err)))
		return rc;
	if (owners_buf_adds(&w->doc, "{\"apiVersion\":") || owners_json_quote(&w->doc, type->api_version, strlen(type->api_version)) ||
	    owners_buf_adds(&w->doc, ",\"kind\":") ||
	    owners_buf_addf(&w->doc, "\"%sList\",\"items\":[\n", type->kind))
		return owners_error_oom(err);
	w->open_type = type;
	w->open_frame = OWNERS_SNAPSHOT_FRAME_OBJECTS;
	w->in_list = 0;
	w->lists++;
	return 0;
}

/* Format 2: the object in the batch of its type, cut at BATCH_BYTES. */
static int batch_object(struct owners_snapshot_writer *w, const struct owners_resource *type,
			const struct owners_object_meta *m, struct owners_error *err)
{
	int rc;

	if (w->open_type != type) {
		if ((rc = close_list(w, err)))
			return rc;
		if (owners_snapshot_batch_objects_begin(&w->doc, type->group, type->version, type->resource))
			return owners_error_oom(err);
		w->open_type = type;
		w->open_frame = OWNERS_SNAPSHOT_FRAME_OBJECTS;
		w->lists++;
	}
	if (owners_snapshot_batch_add_object(&w->doc, m))
		return owners_error_oom(err);
	w->objects++;
	return w->doc.len >= BATCH_BYTES ? close_list(w, err) : 0;
}

int owners_snapshot_write_object(struct owners_snapshot_writer *w, const struct owners_resource *type,
				 const struct owners_object_meta *m, struct owners_error *err)
{
	struct owners_json_gen *j;
	int rc;

	if (w->format == OWNERS_SNAPSHOT_FORMAT_FRAMES)
		return batch_object(w, type, m, err);
	if (w->open_type != type && (rc = open_list(w, type, err)))
		return rc;
	if (w->in_list++ && owners_buf_adds(&w->doc, ",\n"))
		return owners_error_oom(err);
	if (owners_json_gen_new(&j, &w->doc, 0))
		return owners_error_oom(err);
	gen_meta(j, m);
	rc = owners_json_gen_error(j);
	owners_json_gen_free(j);
	if (rc)
		return owners_error_oom(err);
	w->objects++;
	return w->doc.len >= BATCH_BYTES ? put(w, err) : 0;
}

int owners_snapshot_write_listed(struct owners_snapshot_writer *w, const struct owners_snapshot_listed *l,
				 struct owners_error *err)
{
	struct owners_json_gen *j = record_open(w, "Listed", err);

	if (!j)
		return err->code;
	owners_json_gen_kv(j, "group", l->type->group);
	owners_json_gen_kv(j, "version", l->type->version);
	owners_json_gen_kv(j, "resource", l->type->resource);
	kv_or_null(j, "namespace", l->namespace_);
	owners_json_gen_kv(j, "resourceVersion", l->resource_version ? l->resource_version : "");
	owners_json_gen_kv_int(j, "code", l->code);
	if (l->code) {
		owners_json_gen_kv(j, "message", l->message ? l->message : "");
		owners_json_gen_kv(j, "detail", l->detail);
	}
	if (l->unanswered) {
		owners_json_gen_kv_int(j, "unanswered", l->unanswered);
		owners_json_gen_kv_int(j, "waitedMs", l->waited_ms);
		owners_json_gen_kv_int(j, "tookMs", l->took_ms);
	}
	owners_json_gen_map_close(j);
	return record(w, j, OWNERS_SNAPSHOT_FRAME_RECORD, err);
}

static const char *const health_names[] = { "", "ok", "pending", "bad" };

static int gen_fact_body(struct owners_json_gen *j, const struct owners_snapshot_fact *f)
{
	struct owners_json_value *v = NULL;
	int rc;

	switch (f->kind) {
	case OWNERS_SNAPSHOT_FACT_STATUS:
		owners_json_gen_kv(j, "uid", f->uid);
		owners_json_gen_kv(j, "ready", f->status->ready ? f->status->ready : "");
		owners_json_gen_kv(j, "status", f->status->status ? f->status->status : "");
		owners_json_gen_kv(j, "health", health_names[f->status->health & 3]);
		owners_json_gen_kv_bool(j, "isReady", f->status->is_ready);
		return 0;
	case OWNERS_SNAPSHOT_FACT_OBJECT:
	case OWNERS_SNAPSHOT_FACT_POD_CLAIMS:
	case OWNERS_SNAPSHOT_FACT_EVENT:
	case OWNERS_SNAPSHOT_FACT_USES:
	case OWNERS_SNAPSHOT_FACT_USES_READ:
		if (f->kind == OWNERS_SNAPSHOT_FACT_USES)
			owners_json_gen_kv(j, "uid", f->uid);
		if (f->path)
			owners_json_gen_kv(j, "path", f->path);
		if (f->read_at)
			owners_json_gen_kv_time(j, "readAt", f->read_at);
		if ((rc = owners_json_parse(&v, f->json, f->json_len, NULL)))
			return rc;
		owners_json_gen_string(j, "object");
		owners_json_gen_value(j, v);
		owners_json_value_free(v);
		return 0;
	}
	return OWNERS_EINVAL;
}

static const char *const fact_kinds[] = {
	"Status", "Read", "PodClaims", "Event", "Uses", "UsesRead"
};

/* Format 2: the status in the batch of statuses, cut at BATCH_BYTES. */
static int batch_status(struct owners_snapshot_writer *w, const struct owners_snapshot_fact *f,
			struct owners_error *err)
{
	int rc;

	if (w->open_frame != OWNERS_SNAPSHOT_FRAME_STATUSES) {
		if ((rc = close_list(w, err)))
			return rc;
		w->open_frame = OWNERS_SNAPSHOT_FRAME_STATUSES;
	}
	if (owners_snapshot_batch_add_status(&w->doc, f->uid, f->status))
		return owners_error_oom(err);
	return w->doc.len >= BATCH_BYTES ? close_list(w, err) : 0;
}

int owners_snapshot_write_fact(struct owners_snapshot_writer *w, const struct owners_snapshot_fact *f,
			       struct owners_error *err)
{
	struct owners_json_gen *j;
	int rc;

	if (w->format == OWNERS_SNAPSHOT_FORMAT_FRAMES && f->kind == OWNERS_SNAPSHOT_FACT_STATUS)
		return batch_status(w, f, err);
	if (!(j = record_open(w, fact_kinds[f->kind], err)))
		return err->code;
	if ((rc = gen_fact_body(j, f))) {
		owners_json_gen_free(j);
		w->doc.len = 0;
		return owners_error_set(err, rc, "a %s record could not be written", fact_kinds[f->kind]);
	}
	owners_json_gen_map_close(j);
	return record(w, j, OWNERS_SNAPSHOT_FRAME_FACT, err);
}

int owners_snapshot_write_close(struct owners_snapshot_writer *w, double seconds,
				struct owners_error *err)
{
	struct owners_json_gen *j = record_open(w, "End", err);
	char secs[64];
	int rc;

	if (!j) {
		owners_snapshot_write_abandon(w);
		return err->code;
	}
	owners_json_gen_kv_int(j, "objects", (long long)w->objects);
	snprintf(secs, sizeof(secs), "%.3f", seconds);
	owners_json_gen_string(j, "seconds");
	owners_json_gen_number(j, secs, strlen(secs));
	owners_json_gen_map_close(j);
	if ((rc = record(w, j, OWNERS_SNAPSHOT_FRAME_RECORD, err))) {
		owners_snapshot_write_abandon(w);
		return rc;
	}
	rc = owners_file_writer_close(w->file, err);
	owners_buf_clear(&w->doc);
	free(w);
	return rc;
}

void owners_snapshot_write_abandon(struct owners_snapshot_writer *w)
{
	if (!w)
		return;
	owners_file_writer_abandon(w->file);
	owners_buf_clear(&w->doc);
	free(w);
}

uint64_t owners_snapshot_write_objects(const struct owners_snapshot_writer *w)
{
	return w->objects;
}

uint64_t owners_snapshot_write_bytes(const struct owners_snapshot_writer *w)
{
	return owners_file_writer_bytes(w->file);
}
