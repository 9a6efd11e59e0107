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

static int item(const Owners__K8s__PartialObjectMetadata *it, owners_list_item_fn on_item, void *ctx,
		struct owners_error *err)
{
	const Owners__K8s__ObjectMeta *m = it->metadata;
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
	free(refs);
	free(fields);
	if (rc && !(err && err->code))
		owners_error_set(err, rc < 0 ? rc : OWNERS_EINVAL, "stopped by the item callback");
	return rc < 0 ? rc : rc ? OWNERS_EINVAL : 0;
}

/* ---- the wire format, for the two outer layers ------------------------
 *
 * The envelope (Unknown) and the list are walked here field by field, so
 * that the page's bytes are read in place and one item at a time is
 * unpacked (by protobuf-c) and handed on: memory stays that of the page
 * however many objects it holds. Unpacking the list whole would hold
 * every item's structures, and a copy of the envelope's raw bytes, at
 * once. */

struct wire {
	const uint8_t *p, *end;
};

/* A base-128 varint of at most 10 bytes; 0 when it runs past the end. */
static int wire_varint(struct wire *w, uint64_t *v)
{
	unsigned shift;

	*v = 0;
	for (shift = 0; shift < 70 && w->p < w->end; shift += 7) {
		uint8_t b = *w->p++;

		*v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return 1;
	}
	return 0;
}

/* The next field: its number, and for a length-delimited one its bytes
 * (other wire types are skipped over). 0 at the end, -1 when malformed. */
static int wire_field(struct wire *w, uint32_t *number, const uint8_t **data, size_t *len)
{
	uint64_t key, v;

	*data = NULL;
	*len = 0;
	if (w->p == w->end)
		return 0;
	if (!wire_varint(w, &key) || key >> 3 == 0 || key >> 3 > UINT32_MAX)
		return -1;
	*number = (uint32_t)(key >> 3);
	switch (key & 7) {
	case 0: /* varint */ return wire_varint(w, &v) ? 1 : -1;
	case 1: /* 64-bit */
		if (w->end - w->p < 8)
			return -1;
		w->p += 8;
		return 1;
	case 2: /* length-delimited */
		if (!wire_varint(w, &v) || v > (uint64_t)(w->end - w->p))
			return -1;
		*data = w->p;
		*len = (size_t)v;
		w->p += v;
		return 1;
	case 5: /* 32-bit */
		if (w->end - w->p < 4)
			return -1;
		w->p += 4;
		return 1;
	default: /* groups (never written by Kubernetes) and reserved types */ return -1;
	}
}

static int malformed(struct owners_error *err, const char *what)
{
	return owners_error_set(err, OWNERS_EPROTO, "unexpected list response: %s", what);
}

/* The envelope: what kind of message it carries, in which encoding, and
 * where its bytes are (in place). */
static int read_envelope(const uint8_t *data, size_t len, const uint8_t **raw, size_t *raw_len,
			 struct owners_error *err)
{
	struct wire w = { data, data + len };
	Owners__K8s__TypeMeta *tm = NULL;
	const uint8_t *f;
	size_t n;
	uint32_t number;
	int more, rc = 0, encoded = 0;

	*raw = NULL;
	*raw_len = 0;
	while (!rc && (more = wire_field(&w, &number, &f, &n)) > 0) {
		if (number == 1 && f) {
			if (tm)
				owners__k8s__type_meta__free_unpacked(tm, NULL);
			if (!(tm = owners__k8s__type_meta__unpack(NULL, n, f)))
				rc = malformed(err, "the protobuf envelope cannot be decoded");
		} else if (number == 2 && f) {
			*raw = f;
			*raw_len = n;
		} else if (number == 3 && f && n) {
			encoded = 1;
			rc = owners_error_set(err, OWNERS_EPROTO,
					      "unexpected list response: content encoding '%.*s'",
					      (int)(n > 64 ? 64 : n), (const char *)f);
		}
	}
	if (!rc && more < 0)
		rc = malformed(err, "the protobuf envelope cannot be decoded");
	if (!rc && !encoded) {
		const char *kind = tm && tm->kind ? tm->kind : "";

		if (strcmp(kind, "PartialObjectMetadataList"))
			rc = owners_error_set(err, OWNERS_EPROTO,
					      "unexpected list response: a protobuf %s, expected a "
					      "PartialObjectMetadataList",
					      *kind ? kind : "message without a kind");
	}
	if (tm)
		owners__k8s__type_meta__free_unpacked(tm, NULL);
	return rc;
}

int owners_list_proto_decode(const char *data, size_t len, owners_list_item_fn on_item, void *ctx,
			     char **continue_token, struct owners_error *err)
{
	Owners__K8s__ListMeta *lm = NULL;
	const uint8_t *raw, *f;
	struct wire w;
	size_t raw_len, n;
	uint32_t number;
	int more = 0, rc;

	*continue_token = NULL;
	if (len < sizeof(magic) || memcmp(data, magic, sizeof(magic)))
		return owners_error_set(err, OWNERS_EPROTO,
					"unexpected list response: not Kubernetes protobuf (no \"k8s\\0\" magic)");
	if ((rc = read_envelope((const uint8_t *)data + sizeof(magic), len - sizeof(magic), &raw,
				&raw_len, err)))
		return rc;
	w.p = raw;
	w.end = raw ? raw + raw_len : raw;
	while (!rc && (more = wire_field(&w, &number, &f, &n)) > 0) {
		if (number == 1 && f) {
			/* the ListMeta: the last one read counts, as in protobuf */
			if (lm)
				owners__k8s__list_meta__free_unpacked(lm, NULL);
			if (!(lm = owners__k8s__list_meta__unpack(NULL, n, f)))
				rc = malformed(err, "the protobuf list cannot be decoded");
		} else if (number == 2 && f) {
			Owners__K8s__PartialObjectMetadata *it =
				owners__k8s__partial_object_metadata__unpack(NULL, n, f);

			if (!it) {
				rc = malformed(err, "the protobuf list cannot be decoded");
				break;
			}
			rc = item(it, on_item, ctx, err);
			owners__k8s__partial_object_metadata__free_unpacked(it, NULL);
		}
	}
	if (!rc && more < 0)
		rc = malformed(err, "the protobuf list cannot be decoded");
	if (!rc && lm && lm->continue_ && *lm->continue_ &&
	    !(*continue_token = owners_strdup(lm->continue_)))
		rc = owners_error_oom(err);
	if (lm)
		owners__k8s__list_meta__free_unpacked(lm, NULL);
	return rc;
}
