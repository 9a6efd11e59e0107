#include "snapshot_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "json.h"
#include "json_split.h"
#include "list_parser.h"
#include "resource_json.h"
#include "snapshot_batch.h"
#include "timeutil.h"

#define SNAPSHOT_API_VERSION "owners.dev/v1"
#define HEAD "{\"apiVersion\":\"" SNAPSHOT_API_VERSION "\",\"kind\":\"Snapshot\""
/* A record other than a list is a line of metadata; the header carries
 * discovery (a few hundred kilobytes). Anything larger is damage. */
#define RECORD_MAX OWNERS_SNAPSHOT_FRAME_MAX
#define CHUNK (256 * 1024)

struct reader {
	const char *path;
	const struct owners_snapshot_visitor *v;
	struct owners_json_split split;
	struct owners_list_parser *lp;
	struct owners_buf doc;          /* the record being read, unless it is a list */
	int doc_large;
	const struct owners_resource *doc_type;
	struct owners_resource_table types;
	int have_header, ended, stopped;
	int framed;                     /* format 2 */
	uint64_t frame_at;              /* format 2: the byte the frame read begins at */
	struct owners_snapshot_batch_reader batch;
	const struct owners_resource *batch_type;
	uint64_t objects;
	struct owners_error why;        /* a failure inside a callback, with its line */
};

int owners_snapshot_file_recognise(const char *head, size_t len)
{
	size_t n = strlen(HEAD);

	return (len >= n && !memcmp(head, HEAD, n)) ||
	       (len >= OWNERS_SNAPSHOT_MAGIC_LEN && !memcmp(head, OWNERS_SNAPSHOT_MAGIC, OWNERS_SNAPSHOT_MAGIC_LEN));
}

static int fail(struct reader *r, const char *what)
{
	if (r->framed)
		return owners_error_set(&r->why, OWNERS_EPROTO, "byte %llu: %s", (unsigned long long)r->frame_at,
					what);
	return owners_error_set(&r->why, OWNERS_EPROTO, "line %lu: %s", r->split.doc_line, what);
}

/* A callback's code: OWNERS_ESTOP ends the read without a failure. */
static int callback(struct reader *r, int rc)
{
	if (rc == OWNERS_ESTOP) {
		r->stopped = 1;
		return rc;
	}
	if (rc && !r->why.code)
		owners_error_set(&r->why, rc, "%s", owners_errcode_name(rc));
	return rc;
}

static const struct owners_resource *list_type(struct reader *r)
{
	const char *kind = owners_list_parser_kind(r->lp);
	size_t n = strlen(kind);
	char k[256];

	if (n <= 4 || n - 4 >= sizeof(k) || strcmp(kind + n - 4, "List"))
		return NULL;
	memcpy(k, kind, n - 4);
	k[n - 4] = 0;
	return owners_resource_by_gvk(&r->types, owners_list_parser_api_version(r->lp), k);
}

static int on_item(void *ctx, const struct owners_object_meta *m, struct owners_error *err)
{
	struct reader *r = ctx;
	char what[512];

	(void)err;
	if (!r->have_header)
		return fail(r, "objects before the Snapshot record");
	if (!r->doc_type && !(r->doc_type = list_type(r))) {
		snprintf(what, sizeof(what), "a list of %.100s %.100s, a type the snapshot's discovery does not hold",
			 owners_list_parser_api_version(r->lp), owners_list_parser_kind(r->lp));
		return fail(r, what);
	}
	if (!*m->uid || !*m->name)
		return fail(r, "an object without a name or a uid");
	r->objects++;
	return r->v->object ? callback(r, r->v->object(r->v->ctx, r->doc_type, m)) : 0;
}

static const struct owners_resource *find_type(const struct owners_resource_table *t, const char *group,
					       const char *version, const char *resource)
{
	size_t i;

	if (!group || !version || !resource)
		return NULL;
	for (i = 0; i < t->count; i++)
		if (!strcmp(t->items[i].group, group) && !strcmp(t->items[i].version, version) &&
		    !strcmp(t->items[i].resource, resource))
			return &t->items[i];
	return NULL;
}

static const char *string_or_null(const struct owners_json_value *doc, const char *key)
{
	return owners_json_string(owners_json_get(doc, key));
}

static int read_header(struct reader *r, const struct owners_json_value *doc)
{
	struct owners_snapshot_header h;
	const struct owners_json_value *disc = owners_json_get(doc, "discovery");
	int64_t format = owners_json_int(owners_json_get(doc, "format"), 0);
	char what[160];

	if (r->have_header)
		return fail(r, "a second Snapshot record");
	if (format > OWNERS_SNAPSHOT_FORMAT || format < OWNERS_SNAPSHOT_FORMAT_JSON) {
		snprintf(what, sizeof(what), "snapshot format %lld; this owners reads format %d and older%s",
			 (long long)format, OWNERS_SNAPSHOT_FORMAT,
			 format > OWNERS_SNAPSHOT_FORMAT ? ": a newer owners wrote it" : "");
		return fail(r, what);
	}
	if ((format == OWNERS_SNAPSHOT_FORMAT_JSON) == r->framed) {
		snprintf(what, sizeof(what), "a Snapshot record of format %lld in a file laid out as format %d",
			 (long long)format, r->framed ? 2 : 1);
		return fail(r, what);
	}
	memset(&h, 0, sizeof(h));
	h.path = r->path;
	h.format = "owners snapshot";
	if (owners_time_parse_rfc3339(&h.taken_at, string_or_null(doc, "takenAt") ? string_or_null(doc, "takenAt") : ""))
		return fail(r, "the Snapshot record has no valid takenAt");
	h.server = string_or_null(doc, "server") ? string_or_null(doc, "server") : "";
	h.server_version = string_or_null(doc, "serverVersion") ? string_or_null(doc, "serverVersion") : "";
	h.namespace_ = string_or_null(doc, "namespace");
	h.cluster_scoped = owners_json_bool(owners_json_get(doc, "clusterScoped"), 1);
	h.has_relations = owners_json_bool(owners_json_get(doc, "related"), 0);
	h.label_selector = string_or_null(doc, "labelSelector");
	h.has_discovery = 1;
	if (!disc || owners_resource_json_read(&r->types, disc))
		return fail(r, "the Snapshot record's discovery is damaged");
	owners_resource_table_mark_tracked(&r->types);
	r->have_header = 1;
	if (r->v->header && callback(r, r->v->header(r->v->ctx, &h)))
		return r->why.code ? r->why.code : OWNERS_ESTOP;
	if (r->v->types && callback(r, r->v->types(r->v->ctx, &r->types)))
		return r->why.code ? r->why.code : OWNERS_ESTOP;
	return 0;
}

static int read_listed(struct reader *r, const struct owners_json_value *doc)
{
	struct owners_snapshot_listed l;

	memset(&l, 0, sizeof(l));
	l.type = find_type(&r->types, string_or_null(doc, "group"), string_or_null(doc, "version"),
			   string_or_null(doc, "resource"));
	if (!l.type)
		return fail(r, "a Listed record of a type the snapshot's discovery does not hold");
	l.namespace_ = string_or_null(doc, "namespace");
	l.resource_version = string_or_null(doc, "resourceVersion") ? string_or_null(doc, "resourceVersion") : "";
	l.code = (int)owners_json_int(owners_json_get(doc, "code"), 0);
	l.message = string_or_null(doc, "message") ? string_or_null(doc, "message") : "";
	l.detail = string_or_null(doc, "detail");
	l.unanswered = (int)owners_json_int(owners_json_get(doc, "unanswered"), 0);
	l.waited_ms = (long)owners_json_int(owners_json_get(doc, "waitedMs"), 0);
	l.took_ms = (long)owners_json_int(owners_json_get(doc, "tookMs"), 0);
	if (l.code > 0 || l.code < OWNERS_EIO)
		return fail(r, "a Listed record with an unknown code");
	if (l.unanswered < 0 || l.waited_ms < 0 || l.took_ms < 0)
		return fail(r, "a Listed record with a negative wait");
	return r->v->listed ? callback(r, r->v->listed(r->v->ctx, &l)) : 0;
}

static int read_status(struct reader *r, const struct owners_json_value *doc)
{
	static const char *const health[] = { "", "ok", "pending", "bad" };
	struct owners_object_status st;
	struct owners_snapshot_fact f;
	const char *h = string_or_null(doc, "health");
	int i;

	memset(&st, 0, sizeof(st));
	memset(&f, 0, sizeof(f));
	f.kind = OWNERS_SNAPSHOT_FACT_STATUS;
	f.uid = string_or_null(doc, "uid");
	st.ready = (char *)string_or_null(doc, "ready");
	st.status = (char *)string_or_null(doc, "status");
	st.is_ready = owners_json_bool(owners_json_get(doc, "isReady"), 0);
	for (i = 0; h && i < 4 && strcmp(h, health[i]); i++)
		;
	if (!f.uid || !st.ready || !st.status || !h || i == 4)
		return fail(r, "a damaged Status record");
	st.health = (enum owners_health)i;
	f.status = &st;
	return r->v->fact ? callback(r, r->v->fact(r->v->ctx, &f)) : 0;
}

static int read_object_fact(struct reader *r, const struct owners_json_value *doc,
			    enum owners_snapshot_fact_kind kind)
{
	const struct owners_json_value *o = owners_json_get(doc, "object");
	struct owners_snapshot_fact f;
	struct owners_json_gen *j;
	struct owners_buf text = OWNERS_BUF_INIT;
	int rc;

	if (!o || o->type != OWNERS_JSON_OBJECT)
		return fail(r, "a fact record without its object");
	if (!r->v->fact)
		return 0;
	if (owners_json_gen_new(&j, &text, 0))
		return owners_error_oom(&r->why);
	owners_json_gen_value(j, o);
	rc = owners_json_gen_error(j);
	owners_json_gen_free(j);
	if (rc) {
		owners_buf_clear(&text);
		return owners_error_oom(&r->why);
	}
	memset(&f, 0, sizeof(f));
	f.kind = kind;
	f.path = string_or_null(doc, "path");
	f.uid = string_or_null(doc, "uid");
	if (string_or_null(doc, "readAt"))
		owners_time_parse_rfc3339(&f.read_at, string_or_null(doc, "readAt"));
	f.json = text.ptr;
	f.json_len = text.len;
	rc = callback(r, r->v->fact(r->v->ctx, &f));
	owners_buf_clear(&text);
	return rc;
}

static int read_end(struct reader *r, const struct owners_json_value *doc)
{
	char what[160];

	if ((uint64_t)owners_json_int(owners_json_get(doc, "objects"), -1) != r->objects) {
		snprintf(what, sizeof(what), "the End record counts %lld objects, the file holds %llu",
			 (long long)owners_json_int(owners_json_get(doc, "objects"), -1),
			 (unsigned long long)r->objects);
		return fail(r, what);
	}
	r->ended = 1;
	return r->v->end ? callback(r, r->v->end(r->v->ctx)) : 0;
}

/* A record other than a list: what its kind says. */
static int read_record(struct reader *r, const char *data, size_t len)
{
	struct owners_json_value *doc = NULL;
	const char *kind, *api;
	struct owners_error perr = OWNERS_ERROR_INIT;
	int rc;

	if (owners_json_parse(&doc, data, len, &perr)) {
		rc = fail(r, owners_error_message(&perr));
		owners_error_clear(&perr);
		return rc;
	}
	kind = string_or_null(doc, "kind");
	api = string_or_null(doc, "apiVersion");
	if (!kind || !api || strcmp(api, SNAPSHOT_API_VERSION))
		rc = fail(r, "a document that is neither a list of objects nor an owners.dev/v1 record");
	else if (!strcmp(kind, "Snapshot"))
		rc = read_header(r, doc);
	else if (!r->have_header)
		rc = fail(r, "the file does not begin with its Snapshot record");
	else if (!strcmp(kind, "Listed"))
		rc = read_listed(r, doc);
	else if (!strcmp(kind, "Status"))
		rc = read_status(r, doc);
	else if (!strcmp(kind, "Read"))
		rc = read_object_fact(r, doc, OWNERS_SNAPSHOT_FACT_OBJECT);
	else if (!strcmp(kind, "PodClaims"))
		rc = read_object_fact(r, doc, OWNERS_SNAPSHOT_FACT_POD_CLAIMS);
	else if (!strcmp(kind, "Event"))
		rc = read_object_fact(r, doc, OWNERS_SNAPSHOT_FACT_EVENT);
	else if (!strcmp(kind, "Uses") && string_or_null(doc, "uid"))
		rc = read_object_fact(r, doc, OWNERS_SNAPSHOT_FACT_USES);
	else if (!strcmp(kind, "UsesRead"))
		rc = read_object_fact(r, doc, OWNERS_SNAPSHOT_FACT_USES_READ);
	else if (!strcmp(kind, "End"))
		rc = read_end(r, doc);
	else
		rc = fail(r, "a record of an unknown kind");
	owners_json_value_free(doc);
	return rc;
}

static int end_document(struct reader *r)
{
	struct owners_error perr = OWNERS_ERROR_INIT;
	int rc = owners_list_parser_finish(r->lp, &perr);

	if (r->doc_type || !rc) {
		/* a list of objects */
		if (rc)
			rc = fail(r, owners_error_message(&perr));
	} else if (r->doc_large) {
		rc = fail(r, "a record larger than any a snapshot writes");
	} else {
		rc = read_record(r, r->doc.ptr, r->doc.len);
	}
	owners_error_clear(&perr);
	owners_list_parser_reset(r->lp);
	r->doc.len = 0;
	r->doc_large = 0;
	r->doc_type = NULL;
	return rc;
}

static int on_part(void *ctx, const char *data, size_t len, int last)
{
	struct reader *r = ctx;
	struct owners_error perr = OWNERS_ERROR_INIT;
	int rc;

	if (r->ended)
		return fail(r, "a document after the End record");
	rc = owners_list_parser_feed(r->lp, data, len, &perr);
	if (r->stopped || r->why.code) {
		owners_error_clear(&perr);
		return r->stopped ? OWNERS_ESTOP : r->why.code;
	}
	owners_error_clear(&perr);
	/* A parser failure here may be a record (no items): read_record
	 * judges it as JSON. A list is never buffered. */
	(void)rc;
	if (!r->doc_type && !r->doc_large) {
		if (r->doc.len + len > RECORD_MAX)
			r->doc_large = 1;
		else if (owners_buf_add(&r->doc, data, len))
			return owners_error_oom(&r->why);
	}
	if (r->doc_type)
		r->doc.len = 0;
	return last ? end_document(r) : 0;
}

static int run(struct reader *r, struct owners_file_reader *in, const char *head, size_t len)
{
	char *chunk = malloc(CHUNK); /* the heap: two files may be read at once */
	struct owners_error ferr = OWNERS_ERROR_INIT;
	size_t got = len;
	const char *p = head;
	int rc = 0;

	if (!chunk)
		return owners_error_oom(&r->why);
	for (;;) {
		if (got && (rc = owners_json_split_feed(&r->split, p, got, &ferr)))
			break;
		if ((rc = owners_file_reader_read(in, chunk, CHUNK, &got, &ferr)))
			break;
		if (!got) {
			rc = owners_json_split_finish(&r->split, &ferr);
			break;
		}
		p = chunk;
	}
	free(chunk);
	if (ferr.code && !r->why.code)
		owners_error_set(&r->why, ferr.code, "%s", owners_error_message(&ferr));
	owners_error_clear(&ferr);
	return rc;
}

/* Format 2: one batch of objects, each handed on as a list's item is. */
static int on_batch_object(void *ctx, const struct owners_object_meta *m)
{
	struct reader *r = ctx;

	if (!*m->uid || !*m->name)
		return fail(r, "an object without a name or a uid");
	r->objects++;
	return r->v->object ? callback(r, r->v->object(r->v->ctx, r->batch_type, m)) : 0;
}

static void on_batch_uid(void *ctx, const char *uid)
{
	struct reader *r = ctx;

	r->v->ahead(r->v->ctx, r->batch_type, uid);
}

static int read_objects(struct reader *r, const char *data, size_t len)
{
	struct owners_snapshot_batch_objects b;
	struct owners_error berr = OWNERS_ERROR_INIT;
	/* the UIDs told ahead only to a visitor that is handed the objects */
	int telling = r->v->ahead && r->v->object;
	int rc;

	if (!r->have_header)
		return fail(r, "objects before the Snapshot record");
	rc = owners_snapshot_batch_objects_open(&b, data, len, &berr);
	if (!rc && !(r->batch_type = find_type(&r->types, b.group, b.version, b.resource)))
		rc = fail(r, "a batch of objects of a type the snapshot's discovery does not hold");
	if (!rc && telling) {
		r->v->ahead(r->v->ctx, r->batch_type, NULL);
		rc = owners_snapshot_batch_read_uids(&r->batch, &b, on_batch_uid, r, &berr);
	}
	if (!rc)
		rc = owners_snapshot_batch_read_objects(&r->batch, &b, on_batch_object, r, &berr);
	if (telling && r->batch_type)
		r->v->ahead(r->v->ctx, r->batch_type, NULL); /* the batch's text goes */
	if (rc && berr.code && !r->why.code)
		fail(r, owners_error_message(&berr));
	owners_error_clear(&berr);
	return rc;
}

static int on_batch_status(void *ctx, const char *uid, const struct owners_object_status *s)
{
	struct reader *r = ctx;
	struct owners_snapshot_fact f;

	memset(&f, 0, sizeof(f));
	f.kind = OWNERS_SNAPSHOT_FACT_STATUS;
	f.uid = uid;
	f.status = s;
	return callback(r, r->v->fact(r->v->ctx, &f));
}

static int read_statuses(struct reader *r, const char *data, size_t len)
{
	struct owners_error berr = OWNERS_ERROR_INIT;
	int rc;

	if (!r->have_header)
		return fail(r, "statuses before the Snapshot record");
	if (!r->v->fact)
		return 0;
	rc = owners_snapshot_batch_read_statuses(data, len, on_batch_status, r, &berr);
	if (rc && berr.code && !r->why.code)
		fail(r, owners_error_message(&berr));
	owners_error_clear(&berr);
	return rc;
}

static int read_frame(struct reader *r, char kind, const char *data, size_t len)
{
	char what[64];

	if (r->ended)
		return fail(r, "a frame after the End record");
	if (!r->have_header && kind != OWNERS_SNAPSHOT_FRAME_RECORD)
		return fail(r, "the file does not begin with its Snapshot record");
	switch (kind) {
	case OWNERS_SNAPSHOT_FRAME_RECORD:
		return read_record(r, data, len);
	case OWNERS_SNAPSHOT_FRAME_FACT:
		return r->v->fact ? read_record(r, data, len) : 0;
	case OWNERS_SNAPSHOT_FRAME_OBJECTS:
		return read_objects(r, data, len);
	case OWNERS_SNAPSHOT_FRAME_STATUSES:
		return read_statuses(r, data, len);
	}
	snprintf(what, sizeof(what), "a frame of an unknown kind (0x%02x)", (unsigned char)kind);
	return fail(r, what);
}

/* The CRC32 a frame's head carries is its payload's. */
static int crc_matches(const unsigned char *frame, uint32_t len)
{
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
	(void)frame;
	(void)len;
	return 1;
#else
	uint32_t want = (uint32_t)frame[5] | (uint32_t)frame[6] << 8 | (uint32_t)frame[7] << 16 |
			(uint32_t)frame[8] << 24;

	return owners_crc32(frame + OWNERS_SNAPSHOT_FRAME_HEAD, len) == want;
#endif
}

/* Format 2: frames, each read whole into one buffer (never more than a
 * frame and a chunk), decoded and dropped. */
static int run_framed(struct reader *r, struct owners_file_reader *in, const char *head, size_t len)
{
	struct owners_buf in_buf = OWNERS_BUF_INIT;
	struct owners_error ferr = OWNERS_ERROR_INIT;
	size_t at = OWNERS_SNAPSHOT_MAGIC_LEN, got;
	int rc = 0, eof = 0;

	r->framed = 1;
	r->frame_at = at;
	if (owners_buf_add(&in_buf, head, len))
		return owners_error_oom(&r->why);
	while (!rc) {
		const unsigned char *p = (const unsigned char *)in_buf.ptr + at;
		size_t have = in_buf.len - at, need = OWNERS_SNAPSHOT_FRAME_HEAD;
		uint32_t n = 0;

		if (have >= OWNERS_SNAPSHOT_FRAME_HEAD) {
			n = (uint32_t)p[1] | (uint32_t)p[2] << 8 | (uint32_t)p[3] << 16 | (uint32_t)p[4] << 24;
			if (n > OWNERS_SNAPSHOT_FRAME_MAX) {
				rc = fail(r, "a frame larger than any a snapshot writes");
				break;
			}
			need += n;
		}
		if (have >= need) {
			if (!crc_matches(p, n)) {
				rc = fail(r, "a frame whose checksum does not match its bytes (the file is damaged)");
				break;
			}
			rc = read_frame(r, (char)p[0], (const char *)p + OWNERS_SNAPSHOT_FRAME_HEAD, n);
			at += need;
			r->frame_at += need;
			continue;
		}
		if (eof) {
			if (have)
				rc = fail(r, "cut short inside a frame (the file was truncated)");
			break;
		}
		/* Keep only the frame not yet read, then read on. */
		memmove(in_buf.ptr, in_buf.ptr + at, have);
		in_buf.len = have;
		at = 0;
		if (owners_buf_grow(&in_buf, (need > have ? need - have : 0) + CHUNK)) {
			rc = owners_error_oom(&r->why);
			break;
		}
		rc = owners_file_reader_read(in, in_buf.ptr + in_buf.len, CHUNK + (need > have ? need - have : 0),
					     &got, &ferr);
		in_buf.len += got;
		eof = !got;
	}
	if (ferr.code && !r->why.code)
		owners_error_set(&r->why, ferr.code, "%s", owners_error_message(&ferr));
	owners_error_clear(&ferr);
	owners_buf_clear(&in_buf);
	return rc;
}

int owners_snapshot_file_read(struct owners_file_reader *in, const char *path, const char *head,
			      size_t len, const struct owners_snapshot_visitor *v, struct owners_error *err)
{
	struct reader r;
	int rc;

	memset(&r, 0, sizeof(r));
	r.path = path;
	r.v = v;
	r.split.on_part = on_part;
	r.split.ctx = &r;
	owners_resource_table_init(&r.types);
	if (owners_list_parser_new(&r.lp, 1, on_item, &r))
		return owners_error_oom(err);
	if (len >= OWNERS_SNAPSHOT_MAGIC_LEN && !memcmp(head, OWNERS_SNAPSHOT_MAGIC, OWNERS_SNAPSHOT_MAGIC_LEN))
		rc = run_framed(&r, in, head, len);
	else
		rc = run(&r, in, head, len);
	if (r.stopped)
		rc = 0;
	else if (!rc && !r.ended && r.framed)
		rc = owners_error_set(&r.why, OWNERS_EPROTO,
				      r.have_header ? "cut short at byte %llu: no End record (the snapshot was not "
						      "finished, or the file was truncated)"
						    : "byte %llu: not an owners snapshot",
				      (unsigned long long)r.frame_at);
	else if (!rc && !r.ended)
		rc = owners_error_set(&r.why, OWNERS_EPROTO,
				      r.have_header ? "cut short after line %lu: no End record (the snapshot "
						      "was not finished, or the file was truncated)"
						    : "line %lu: not an owners snapshot",
				      r.split.line + 1);
	else if (rc && !r.why.code)
		owners_error_set(&r.why, rc, "%s", owners_errcode_name(rc));
	if (rc)
		owners_error_set(err, r.why.code == OWNERS_ENOMEM ? OWNERS_ENOMEM : r.why.code, "%s: %s", path,
				 owners_error_message(&r.why));
	owners_error_clear(&r.why);
	owners_list_parser_free(r.lp);
	owners_snapshot_batch_reader_clear(&r.batch);
	owners_buf_clear(&r.doc);
	owners_resource_table_clear(&r.types);
	return rc;
}
