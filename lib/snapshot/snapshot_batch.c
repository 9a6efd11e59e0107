#include "snapshot_batch.h"

#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "varint.h"

#define FLAG_CONTROLLER 1u
#define FLAG_HAS_CONTROLLER 2u
#define FLAG_BLOCK 4u
#define FLAG_HAS_BLOCK 8u

static int add_string(struct owners_buf *b, const char *s)
{
	return owners_buf_add(b, s ? s : "", strlen(s ? s : "") + 1);
}

int owners_snapshot_batch_objects_begin(struct owners_buf *b, const char *group, const char *version,
					const char *resource)
{
	return add_string(b, group) || add_string(b, version) || add_string(b, resource) ? OWNERS_ENOMEM : 0;
}

static unsigned ref_flags(const struct owners_object_meta *m, size_t i)
{
	const struct owners_owner_ref_meta *r = &m->owner_refs[i];
	/* A decoder that does not say which fields a reference has (the
	 * protobuf one) has them only when true. */
	unsigned has = m->owner_ref_fields ? m->owner_ref_fields[i]
					   : (r->controller ? OWNERS_REF_HAS_CONTROLLER : 0) |
					     (r->block_owner_deletion ? OWNERS_REF_HAS_BLOCK_OWNER_DELETION : 0);

	return (r->controller ? FLAG_CONTROLLER : 0) | (has & OWNERS_REF_HAS_CONTROLLER ? FLAG_HAS_CONTROLLER : 0) |
	       (r->block_owner_deletion ? FLAG_BLOCK : 0) |
	       (has & OWNERS_REF_HAS_BLOCK_OWNER_DELETION ? FLAG_HAS_BLOCK : 0);
}

int owners_snapshot_batch_add_object(struct owners_buf *b, const struct owners_object_meta *m)
{
	size_t i;
	int rc = add_string(b, m->name) || add_string(b, m->namespace_) || add_string(b, m->uid) ||
		 add_string(b, m->resource_version) || add_string(b, m->creation_timestamp) ||
		 add_string(b, m->deletion_timestamp) || owners_varint_add(b, m->n_labels);

	for (i = 0; !rc && i < m->n_labels; i++)
		rc = add_string(b, m->labels[i].key) || add_string(b, m->labels[i].value);
	rc = rc || owners_varint_add(b, m->n_finalizers);
	for (i = 0; !rc && i < m->n_finalizers; i++)
		rc = add_string(b, m->finalizers[i]);
	rc = rc || owners_varint_add(b, m->n_owner_refs);
	for (i = 0; !rc && i < m->n_owner_refs; i++) {
		const struct owners_owner_ref_meta *r = &m->owner_refs[i];

		rc = add_string(b, r->api_version) || add_string(b, r->kind) || add_string(b, r->name) ||
		     add_string(b, r->uid) || owners_buf_addc(b, (char)ref_flags(m, i));
	}
	return rc ? OWNERS_ENOMEM : 0;
}

int owners_snapshot_batch_add_status(struct owners_buf *b, const char *uid, const struct owners_object_status *s)
{
	return add_string(b, uid) || add_string(b, s->ready) || add_string(b, s->status) ||
			       owners_buf_addc(b, (char)(s->health & 3)) || owners_buf_addc(b, s->is_ready ? 1 : 0)
		       ? OWNERS_ENOMEM
		       : 0;
}

/* A cursor over one batch; the first fault is kept with its offset. */
struct cursor {
	const char *data;
	size_t len, at;
	struct owners_error *err;
};

static int fault(struct cursor *c, const char *what)
{
	return owners_error_set(c->err, OWNERS_EPROTO, "%s at byte %zu of a batch of %zu", what, c->at, c->len);
}

static int take_string(struct cursor *c, const char **out)
{
	const char *end = c->at < c->len ? memchr(c->data + c->at, 0, c->len - c->at) : NULL;

	if (!end)
		return fault(c, "a string not ended");
	*out = c->data + c->at;
	c->at = (size_t)(end - c->data) + 1;
	return 0;
}

static int take_byte(struct cursor *c, unsigned *out)
{
	if (c->at >= c->len)
		return fault(c, "a record cut short");
	*out = (unsigned char)c->data[c->at++];
	return 0;
}

/* A count: never more than the bytes left, as each counted thing takes
 * at least one. */
static int take_count(struct cursor *c, size_t *out)
{
	const unsigned char *p = (const unsigned char *)c->data + c->at, *end = (const unsigned char *)c->data + c->len;
	uint64_t v;

	if (owners_varint_read(&p, end, &v))
		return fault(c, "a count cut short");
	c->at = (size_t)((const char *)p - c->data);
	if (v > c->len - c->at)
		return fault(c, "a count larger than the batch");
	*out = (size_t)v;
	return 0;
}

int owners_snapshot_batch_objects_open(struct owners_snapshot_batch_objects *out, const char *data, size_t len,
				       struct owners_error *err)
{
	struct cursor c = { data, len, 0, err };
	int rc;

	memset(out, 0, sizeof(*out));
	out->data = data;
	out->len = len;
	rc = take_string(&c, &out->group);
	if (!rc)
		rc = take_string(&c, &out->version);
	if (!rc)
		rc = take_string(&c, &out->resource);
	out->body = c.at;
	return rc;
}

static int take_labels(struct owners_snapshot_batch_reader *r, struct cursor *c, struct owners_object_meta *m)
{
	size_t i;

	if (take_count(c, &m->n_labels))
		return c->err->code;
	if (OWNERS_GROW(r->labels, r->labels_cap, m->n_labels))
		return owners_error_oom(c->err);
	for (i = 0; i < m->n_labels; i++)
		if (take_string(c, &r->labels[i].key) || take_string(c, &r->labels[i].value))
			return c->err->code;
	m->labels = r->labels;
	return 0;
}

static int take_finalizers(struct owners_snapshot_batch_reader *r, struct cursor *c, struct owners_object_meta *m)
{
	size_t i;

	if (take_count(c, &m->n_finalizers))
		return c->err->code;
	if (OWNERS_GROW(r->strings, r->strings_cap, m->n_finalizers))
		return owners_error_oom(c->err);
	for (i = 0; i < m->n_finalizers; i++)
		if (take_string(c, &r->strings[i]))
			return c->err->code;
	m->finalizers = r->strings;
	return 0;
}

static int take_refs(struct owners_snapshot_batch_reader *r, struct cursor *c, struct owners_object_meta *m)
{
	size_t i, cap;
	unsigned flags = 0;

	if (take_count(c, &m->n_owner_refs))
		return c->err->code;
	cap = r->refs_cap;
	if (OWNERS_GROW(r->refs, cap, m->n_owner_refs))
		return owners_error_oom(c->err);
	if (cap != r->refs_cap) {
		unsigned char *f = realloc(r->ref_fields, cap);

		if (!f)
			return owners_error_oom(c->err);
		r->ref_fields = f;
		r->refs_cap = cap;
	}
	for (i = 0; i < m->n_owner_refs; i++) {
		struct owners_owner_ref_meta *ref = &r->refs[i];

		if (take_string(c, &ref->api_version) || take_string(c, &ref->kind) || take_string(c, &ref->name) ||
		    take_string(c, &ref->uid) || take_byte(c, &flags))
			return c->err->code;
		if (flags & ~15u)
			return fault(c, "an owner reference with unknown flags");
		ref->controller = !!(flags & FLAG_CONTROLLER);
		ref->block_owner_deletion = !!(flags & FLAG_BLOCK);
		r->ref_fields[i] = (unsigned char)((flags & FLAG_HAS_CONTROLLER ? OWNERS_REF_HAS_CONTROLLER : 0) |
						   (flags & FLAG_HAS_BLOCK ? OWNERS_REF_HAS_BLOCK_OWNER_DELETION : 0));
	}
	m->owner_refs = r->refs;
	m->owner_ref_fields = r->ref_fields;
	return 0;
}

/* The object at c into m (its arrays the reader's, until the next). */
static int take_object(struct owners_snapshot_batch_reader *r, struct cursor *c,
		       struct owners_object_meta *m)
{
	memset(m, 0, sizeof(*m));
	if (take_string(c, &m->name) || take_string(c, &m->namespace_) || take_string(c, &m->uid) ||
	    take_string(c, &m->resource_version) || take_string(c, &m->creation_timestamp) ||
	    take_string(c, &m->deletion_timestamp) || take_labels(r, c, m) ||
	    take_finalizers(r, c, m) || take_refs(r, c, m))
		return c->err->code;
	return 0;
}

int owners_snapshot_batch_read_objects(struct owners_snapshot_batch_reader *r,
				       const struct owners_snapshot_batch_objects *b,
				       owners_snapshot_batch_object_fn fn, void *ctx, struct owners_error *err)
{
	struct cursor c = { b->data, b->len, b->body, err };
	int rc;

	while (c.at < c.len) {
		struct owners_object_meta m;

		if ((rc = take_object(r, &c, &m)) || (rc = fn(ctx, &m)))
			return rc;
	}
	return 0;
}

int owners_snapshot_batch_read_uids(struct owners_snapshot_batch_reader *r,
				    const struct owners_snapshot_batch_objects *b,
				    void (*fn)(void *ctx, const char *uid), void *ctx,
				    struct owners_error *err)
{
	struct cursor c = { b->data, b->len, b->body, err };
	size_t i;
	int rc;

	while (c.at < c.len) {
		struct owners_object_meta m;

		if ((rc = take_object(r, &c, &m)))
			return rc;
		fn(ctx, m.uid);
		for (i = 0; i < m.n_owner_refs; i++)
			fn(ctx, m.owner_refs[i].uid);
	}
	return 0;
}

int owners_snapshot_batch_read_statuses(const char *data, size_t len, owners_snapshot_batch_status_fn fn,
					void *ctx, struct owners_error *err)
{
	struct cursor c = { data, len, 0, err };
	int rc;

	while (c.at < c.len) {
		struct owners_object_status s;
		const char *uid = NULL, *ready = NULL,
			   *status = NULL; /* (set, or an error returned) */
		unsigned health = 0, is_ready = 0;

		if (take_string(&c, &uid) || take_string(&c, &ready) || take_string(&c, &status) ||
		    take_byte(&c, &health) || take_byte(&c, &is_ready))
			return err->code;
		if (health > 3 || is_ready > 1)
			return fault(&c, "a status with an unknown health");
		memset(&s, 0, sizeof(s));
		s.ready = (char *)ready;
		s.status = (char *)status;
		s.health = (enum owners_health)health;
		s.is_ready = (int)is_ready;
		if ((rc = fn(ctx, uid, &s)))
			return rc;
	}
	return 0;
}

void owners_snapshot_batch_reader_clear(struct owners_snapshot_batch_reader *r)
{
	free(r->strings);
	free(r->labels);
	free(r->refs);
	free(r->ref_fields);
	memset(r, 0, sizeof(*r));
}
