#include "list_proto.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "k8s_list.pb-c.h"

static const char magic[4] = { 'k', '8', 's', 0 };

/* RFC 3339, as the JSON encoding writes a metav1.Time. */
static void rfc3339(char out[32], const Owners__K8s__Time *t)
{
	struct tm tm;
	time_t secs;

	out[0] = '\0';
	if (!t || !t->has_seconds)
		return;
	secs = (time_t)t->seconds;
	if (gmtime_r(&secs, &tm))
		strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static const char *or_empty(const char *s)
{
	return s ? s : "";
}

static int item(const Owners__K8s__PartialObjectMetadata *it, owners_list_parser_item_fn on_item,
		void *ctx, int keep_labels, struct owners_error *err)
{
	const Owners__K8s__ObjectMeta *m = it->metadata;
	struct owners_label_meta *labels = NULL;
	struct owners_owner_ref_meta *refs = NULL;
	unsigned char *fields = NULL;
	struct owners_object_meta meta;
	char created[32], deleted[32];
	size_t i;
	int rc;

	if (!m)
		return owners_error_set(err, OWNERS_EPROTO, "unexpected list response: an item without metadata");
	memset(&meta, 0, sizeof(meta));
	if (m->n_ownerreferences) {
		refs = calloc(m->n_ownerreferences, sizeof(*refs));
		fields = calloc(m->n_ownerreferences, 1);
		if (!refs || !fields) {
			free(refs);
			free(fields);
			return owners_error_oom(err);
		}
	}
	for (i = 0; i < m->n_ownerreferences; i++) {
		const Owners__K8s__OwnerReference *r = m->ownerreferences[i];

		refs[i].api_version = or_empty(r->apiversion);
		refs[i].kind = or_empty(r->kind);
		refs[i].name = or_empty(r->name);
		refs[i].uid = or_empty(r->uid);
		refs[i].controller = r->has_controller && r->controller;
		refs[i].block_owner_deletion = r->has_blockownerdeletion && r->blockownerdeletion;
		/* Which booleans the reference has at all, as the JSON says it. */
		fields[i] = (r->has_controller ? OWNERS_REF_HAS_CONTROLLER : 0) |
			    (r->has_blockownerdeletion ? OWNERS_REF_HAS_BLOCK_OWNER_DELETION : 0);
	}
	if (keep_labels && m->n_labels) {
		if (!(labels = calloc(m->n_labels, sizeof(*labels)))) {
			free(refs);
			free(fields);
			return owners_error_oom(err);
		}
		for (i = 0; i < m->n_labels; i++) {
			labels[i].key = or_empty(m->labels[i]->key);
			labels[i].value = or_empty(m->labels[i]->value);
		}
		meta.labels = labels;
		meta.n_labels = m->n_labels;
	}
	rfc3339(created, m->creationtimestamp);
	rfc3339(deleted, m->deletiontimestamp);
	meta.name = or_empty(m->name);
	meta.namespace_ = or_empty(m->namespace_);
	meta.uid = or_empty(m->uid);
	meta.resource_version = or_empty(m->resourceversion);
	meta.creation_timestamp = created;
	meta.deletion_timestamp = deleted;
	meta.finalizers = (const char *const *)m->finalizers;
	meta.n_finalizers = m->n_finalizers;
	meta.owner_refs = refs;
	meta.n_owner_refs = m->n_ownerreferences;
	meta.owner_ref_fields = fields;
	rc = on_item(ctx, &meta, err);
	free(labels);
	free(refs);
	free(fields);
	if (rc && !(err && err->code))
		owners_error_set(err, rc < 0 ? rc : OWNERS_EINVAL, "stopped by the item callback");
	return rc < 0 ? rc : rc ? OWNERS_EINVAL : 0;
}

/* ---- the wire format, for the two outer layers ------------------------
 *
 * The envelope (Unknown) and the list are walked here field by field as
 * the bytes arrive: the envelope's small fields are read when whole, its
 * list is entered rather than waited for, and each item is unpacked (by
 * protobuf-c) and handed on as soon as its last byte is in. What is held
 * is one field at most, however many objects the page has: a page of
 * 5,000 pods' metadata is 4 MB that never needs to be in memory at once. */

enum stage {
	STAGE_MAGIC,    /* before "k8s\0" */
	STAGE_ENVELOPE, /* between the envelope's fields */
	STAGE_LIST,     /* inside the envelope's raw bytes: the list */
	STAGE_FAILED,   /* an error was returned; only a reset goes on */
};

struct owners_list_proto {
	owners_list_parser_item_fn on_item;
	void *ctx;
	struct owners_buf pending; /* the start of a field (or the magic) a chunk cut short */
	enum stage stage;
	uint64_t list_left;   /* bytes of the list not yet read (STAGE_LIST) */
	int list_seen;        /* the envelope's list has begun */
	char *kind;           /* the envelope's TypeMeta kind, once read */
	char *continue_token; /* the last ListMeta's, as protobuf reads a repeated message */
	char *resource_version; /* the ListMeta's: where a watch of the type starts */
	int keep_labels;      /* hand on metadata.labels */
	owners_list_proto_raw_fn on_raw; /* set: items handed on as bytes */
	void *raw_ctx;
};

/* One field's header, as far as the bytes go. */
struct field {
	uint32_t number;
	unsigned type;       /* wire type: 0 varint, 1 fixed64, 2 length-delimited, 5 fixed32 */
	size_t header;       /* bytes of key (and length) */
	uint64_t body;       /* bytes after the header */
};

/* A varint in [p, end): 1 read (*used bytes), 0 more bytes needed, -1 not
 * a varint (more than 10 bytes). */
static int varint_at(const uint8_t *p, const uint8_t *end, uint64_t *v, size_t *used)
{
	unsigned shift;
	size_t i;

	*v = 0;
	for (i = 0, shift = 0; i < 10; i++, shift += 7) {
		if (p + i == end)
			return 0;
		*v |= (uint64_t)(p[i] & 0x7f) << shift;
		if (!(p[i] & 0x80)) {
			*used = i + 1;
			return 1;
		}
	}
	return -1;
}

/* The header of the field at p: 1 read, 0 more bytes needed, -1 malformed
 * (groups, which Kubernetes never writes, and reserved wire types too). */
static int field_at(const uint8_t *p, const uint8_t *end, struct field *f)
{
	uint64_t key, v;
	size_t used, more;
	int rc;

	if ((rc = varint_at(p, end, &key, &used)) <= 0)
		return rc;
	if (key >> 3 == 0 || key >> 3 > UINT32_MAX)
		return -1;
	f->number = (uint32_t)(key >> 3);
	f->type = (unsigned)(key & 7);
	f->header = used;
	switch (f->type) {
	case 0: /* the body is a varint: its length is known once it is all there */
		if ((rc = varint_at(p + used, end, &v, &more)) <= 0)
			return rc;
		f->body = more;
		return 1;
	case 1: f->body = 8; return 1;
	case 2:
		if ((rc = varint_at(p + used, end, &v, &more)) <= 0)
			return rc;
		f->header += more;
		f->body = v;
		return 1;
	case 5: f->body = 4; return 1;
	default: return -1;
	}
}

static int malformed(struct owners_error *err, const char *what)
{
	return owners_error_set(err, OWNERS_EPROTO, "unexpected list response: %s", what);
}

/* The list's items are only read from a PartialObjectMetadataList: the
 * envelope names its kind before the list (Kubernetes writes fields in
 * order). */
static int check_kind(const struct owners_list_proto *p, struct owners_error *err)
{
	const char *kind = p->kind ? p->kind : "";
	size_t n = strlen(kind);

	if (!strcmp(kind, "PartialObjectMetadataList"))
		return p->on_raw ? owners_error_set(err, OWNERS_EPROTO, "unexpected list response: metadata only, "
									"whole objects expected")
				 : 0;
	if (p->on_raw && n > 4 && !strcmp(kind + n - 4, "List"))
		return 0;
	return owners_error_set(err, OWNERS_EPROTO, "unexpected list response: a protobuf %s, expected %s",
				*kind ? kind : "message without a kind",
				p->on_raw ? "a list" : "a PartialObjectMetadataList");
}

static int envelope_field(struct owners_list_proto *p, const struct field *f, const uint8_t *body,
			  struct owners_error *err)
{
	Owners__K8s__TypeMeta *tm;

	if (f->number == 1 && f->type == 2) {
		if (!(tm = owners__k8s__type_meta__unpack(NULL, (size_t)f->body, body)))
			return malformed(err, "the protobuf envelope cannot be decoded");
		free(p->kind);
		p->kind = owners_strdup(tm->kind ? tm->kind : "");
		owners__k8s__type_meta__free_unpacked(tm, NULL);
		return p->kind ? 0 : owners_error_oom(err);
	}
	if (f->number == 3 && f->type == 2 && f->body)
		return owners_error_set(err, OWNERS_EPROTO, "unexpected list response: content encoding '%.*s'",
					(int)(f->body > 64 ? 64 : f->body), (const char *)body);
	return 0;
}

static int list_field(struct owners_list_proto *p, const struct field *f, const uint8_t *body,
		      struct owners_error *err)
{
	Owners__K8s__PartialObjectMetadata *it;
	Owners__K8s__ListMeta *lm;
	int rc;

	if (f->number == 1 && f->type == 2) {
		if (!(lm = owners__k8s__list_meta__unpack(NULL, (size_t)f->body, body)))
			return malformed(err, "the protobuf list cannot be decoded");
		free(p->continue_token);
		p->continue_token = lm->continue_ && *lm->continue_ ? owners_strdup(lm->continue_) : NULL;
		rc = lm->continue_ && *lm->continue_ && !p->continue_token ? owners_error_oom(err) : 0;
		free(p->resource_version);
		p->resource_version = lm->resourceversion && *lm->resourceversion
					      ? owners_strdup(lm->resourceversion) : NULL;
		if (!rc && lm->resourceversion && *lm->resourceversion && !p->resource_version)
			rc = owners_error_oom(err);
		owners__k8s__list_meta__free_unpacked(lm, NULL);
		return rc;
	}
	if (f->number == 2 && f->type == 2 && p->on_raw) {
		rc = p->on_raw(p->raw_ctx, (const char *)body, (size_t)f->body, err);
		if (rc && !(err && err->code))
			owners_error_set(err, rc < 0 ? rc : OWNERS_EINVAL, "stopped by the item callback");
		return rc < 0 ? rc : rc ? OWNERS_EINVAL : 0;
	}
	if (f->number == 2 && f->type == 2) {
		if (!(it = owners__k8s__partial_object_metadata__unpack(NULL, (size_t)f->body, body)))
			return malformed(err, "the protobuf list cannot be decoded");
		rc = item(it, p->on_item, p->ctx, p->keep_labels, err);
		owners__k8s__partial_object_metadata__free_unpacked(it, NULL);
		return rc;
	}
	return 0;
}

/* Reads what can be read of [*at, end): the magic, whole fields, the
 * start of the list. 0 when it needs more bytes, an error code else. */
static int read_some(struct owners_list_proto *p, const uint8_t **at, const uint8_t *end,
		     struct owners_error *err)
{
	const uint8_t *q = *at;
	struct field f;
	int rc = 0, got;

	while (!rc && q < end) {
		if (p->stage == STAGE_MAGIC) {
			if ((size_t)(end - q) < sizeof(magic))
				break;
			if (memcmp(q, magic, sizeof(magic)))
				return owners_error_set(err, OWNERS_EPROTO, "unexpected list response: not "
									    "Kubernetes protobuf (no \"k8s\\0\" magic)");
			q += sizeof(magic);
			p->stage = STAGE_ENVELOPE;
			continue;
		}
		if (p->stage == STAGE_LIST && !p->list_left) {
			p->stage = STAGE_ENVELOPE;
			continue;
		}
		/* Inside the list, a field never runs past the list's end. */
		if (p->stage == STAGE_LIST) {
			const uint8_t *list_end = (uint64_t)(end - q) > p->list_left ? q + p->list_left : end;

			got = field_at(q, list_end, &f);
			if (got < 0 || (got == 0 && list_end < end) ||
			    (got > 0 && f.body > p->list_left - f.header))
				return malformed(err, "the protobuf list cannot be decoded");
		} else if ((got = field_at(q, end, &f)) < 0) {
			return malformed(err, "the protobuf envelope cannot be decoded");
		}
		if (!got)
			break;
		if (p->stage == STAGE_ENVELOPE && f.number == 2 && f.type == 2) {
			/* the list: entered now, read as it comes */
			if (p->list_seen)
				return malformed(err, "two lists in one protobuf envelope");
			if ((rc = check_kind(p, err)))
				return rc;
			p->list_seen = 1;
			p->list_left = f.body;
			p->stage = STAGE_LIST;
			q += f.header;
			continue;
		}
		if (f.body > (uint64_t)(end - q) - f.header)
			break; /* the rest of the field is still to come */
		rc = p->stage == STAGE_LIST ? list_field(p, &f, q + f.header, err)
					    : envelope_field(p, &f, q + f.header, err);
		if (p->stage == STAGE_LIST)
			p->list_left -= f.header + f.body;
		q += f.header + (size_t)f.body;
	}
	*at = q;
	return rc;
}

int owners_list_proto_new(struct owners_list_proto **out, owners_list_parser_item_fn on_item,
			  void *ctx)
{
	struct owners_list_proto *p = calloc(1, sizeof(*p));

	*out = p;
	if (!p)
		return OWNERS_ENOMEM;
	p->on_item = on_item;
	p->ctx = ctx;
	owners_buf_init(&p->pending);
	return 0;
}

void owners_list_proto_keep_labels(struct owners_list_proto *p, int keep)
{
	p->keep_labels = keep;
}

void owners_list_proto_raw_items(struct owners_list_proto *p, owners_list_proto_raw_fn fn, void *ctx)
{
	p->on_raw = fn;
	p->raw_ctx = ctx;
}

void owners_list_proto_reset(struct owners_list_proto *p)
{
	owners_buf_clear(&p->pending);
	p->stage = STAGE_MAGIC;
	p->list_left = 0;
	p->list_seen = 0;
	free(p->kind);
	p->kind = NULL;
	free(p->continue_token);
	p->continue_token = NULL;
	free(p->resource_version);
	p->resource_version = NULL;
}

void owners_list_proto_free(struct owners_list_proto *p)
{
	if (!p)
		return;
	owners_list_proto_reset(p); /* releases what it held */
	free(p);
}

const char *owners_list_proto_continue_token(const struct owners_list_proto *p)
{
	return p->stage == STAGE_FAILED ? NULL : p->continue_token;
}

const char *owners_list_proto_resource_version(const struct owners_list_proto *p)
{
	return p->stage == STAGE_FAILED || !p->resource_version ? "" : p->resource_version;
}

size_t owners_list_proto_held(const struct owners_list_proto *p)
{
	return p->pending.cap;
}

/* How many bytes the next thing to read takes, from those [q, end) that
 * begin it: the magic, a field (of the list: its header only), or, while
 * a field's header is incomplete, one byte more than there are. */
static size_t next_size(const struct owners_list_proto *p, const uint8_t *q, const uint8_t *end)
{
	struct field f;
	int got;

	if (p->stage == STAGE_MAGIC)
		return sizeof(magic);
	if ((got = field_at(q, end, &f)) < 0)
		return (size_t)(end - q); /* read_some() says what is wrong */
	if (!got)
		return (size_t)(end - q) + 1;
	if ((p->stage != STAGE_LIST || !p->list_left) && f.number == 2 && f.type == 2)
		return f.header;
	return f.body > SIZE_MAX - f.header ? SIZE_MAX : f.header + (size_t)f.body;
}

/* Reads the held bytes and keeps only what is left unread (nothing, once
 * they complete what they began: they are given no more than that). */
static int read_held(struct owners_list_proto *p, struct owners_error *err)
{
	const uint8_t *at = (const uint8_t *)p->pending.ptr;
	int rc = read_some(p, &at, at + p->pending.len, err);
	size_t used = (size_t)((const char *)at - p->pending.ptr);

	if (used) {
		memmove(p->pending.ptr, p->pending.ptr + used, p->pending.len - used);
		owners_buf_truncate(&p->pending, p->pending.len - used);
	}
	return rc;
}

int owners_list_proto_feed(struct owners_list_proto *p, const char *data, size_t len,
			   struct owners_error *err)
{
	const uint8_t *at, *end;
	int rc = 0;

	if (p->stage == STAGE_FAILED)
		return owners_error_set(err, OWNERS_EINVAL, "list decoder used after an error");
	/* A thing begun in an earlier chunk is completed from this one with
	 * just the bytes it lacks, so what is held stays one field (not a
	 * field and a chunk); the rest of the chunk is read in place. */
	while (!rc && p->pending.len && len) {
		size_t have = p->pending.len,
		       want = next_size(p, (const uint8_t *)p->pending.ptr,
					(const uint8_t *)p->pending.ptr + p->pending.len),
		       take = want > have ? want - have : 0;

		if (take > len)
			take = len;
		if (owners_buf_add(&p->pending, data, take)) {
			rc = owners_error_oom(err);
			break;
		}
		data += take;
		len -= take;
		rc = read_held(p, err);
	}
	if (!rc && len) {
		at = (const uint8_t *)data;
		end = at + len;
		rc = read_some(p, &at, end, err);
		if (!rc && at < end && owners_buf_add(&p->pending, at, (size_t)(end - at)))
			rc = owners_error_oom(err);
	}
	if (rc)
		p->stage = STAGE_FAILED;
	return rc;
}

int owners_list_proto_finish(struct owners_list_proto *p, char **continue_token, struct owners_error *err)
{
	int rc = 0;

	*continue_token = NULL;
	if (p->stage == STAGE_FAILED)
		return owners_error_set(err, OWNERS_EINVAL, "list decoder used after an error");
	if (p->stage == STAGE_MAGIC)
		rc = owners_error_set(err, OWNERS_EPROTO,
				      "unexpected list response: not Kubernetes protobuf (no \"k8s\\0\" magic)");
	else if (p->stage == STAGE_LIST && p->list_left)
		rc = malformed(err, "the protobuf list is cut short");
	else if (p->pending.len)
		rc = malformed(err, "the protobuf envelope is cut short");
	else if (!p->list_seen)
		rc = check_kind(p, err) ? OWNERS_EPROTO : malformed(err, "no list in the protobuf envelope");
	if (!rc) {
		*continue_token = p->continue_token;
		p->continue_token = NULL;
	}
	p->stage = rc ? STAGE_FAILED : p->stage;
	return rc;
}

int owners_list_proto_decode(const char *data, size_t len, owners_list_parser_item_fn on_item,
			     void *ctx, char **continue_token, struct owners_error *err)
{
	struct owners_list_proto *p;
	int rc;

	*continue_token = NULL;
	if (owners_list_proto_new(&p, on_item, ctx))
		return owners_error_oom(err);
	rc = owners_list_proto_feed(p, data, len, err);
	if (!rc)
		rc = owners_list_proto_finish(p, continue_token, err);
	owners_list_proto_free(p);
	return rc;
}
