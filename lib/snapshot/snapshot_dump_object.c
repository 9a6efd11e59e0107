#include "snapshot_dump_object.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"

void owners_snapshot_dump_object_meta_init(struct owners_snapshot_dump_object_meta *m)
{
	memset(m, 0, sizeof(*m));
}

void owners_snapshot_dump_object_meta_clear(struct owners_snapshot_dump_object_meta *m)
{
	free(m->finalizers);
	free(m->refs);
	free(m->ref_fields);
	free(m->labels);
	owners_snapshot_dump_object_meta_init(m);
}

static const char *type_words(const struct owners_json_value *v)
{
	switch (v->type) {
	case OWNERS_JSON_NULL: return "null";
	case OWNERS_JSON_BOOL: return "a boolean";
	case OWNERS_JSON_NUMBER: return "a number";
	case OWNERS_JSON_STRING: return "a string";
	case OWNERS_JSON_ARRAY: return "an array";
	case OWNERS_JSON_OBJECT: break;
	}
	return "an object";
}

static int wrong(struct owners_error *err, const char *field, const struct owners_json_value *v,
		 const char *want)
{
	return owners_error_set(err, OWNERS_EPROTO, "%s is %s, expected %s", field, type_words(v),
				want);
}

/* parent's key as a string: "" when absent or null; *out, or an error. */
static int get_string(const char **out, const struct owners_json_value *parent, const char *key,
		      const char *field, struct owners_error *err)
{
	const struct owners_json_value *v = owners_json_get(parent, key);

	*out = "";
	if (!v || v->type == OWNERS_JSON_NULL)
		return 0;
	if (v->type != OWNERS_JSON_STRING)
		return wrong(err, field, v, "a string");
	*out = v->string;
	return 0;
}

/* parent's key as an array or an object (want): NULL when absent or null. */
static int get_container(const struct owners_json_value **out,
			 const struct owners_json_value *parent, const char *key,
			 enum owners_json_type want, struct owners_error *err)
{
	const struct owners_json_value *v = owners_json_get(parent, key);
	char field[64];

	*out = NULL;
	if (!v || v->type == OWNERS_JSON_NULL)
		return 0;
	if (v->type != want) {
		snprintf(field, sizeof(field), "metadata.%s", key);
		return wrong(err, field, v, want == OWNERS_JSON_ARRAY ? "an array" : "an object");
	}
	*out = v;
	return 0;
}

static int read_finalizers(struct owners_snapshot_dump_object_meta *m,
			   const struct owners_json_value *md, struct owners_error *err)
{
	const struct owners_json_value *a;
	size_t i;
	int rc;

	if ((rc = get_container(&a, md, "finalizers", OWNERS_JSON_ARRAY, err)) || !a)
		return rc;
	if (OWNERS_GROW(m->finalizers, m->cap_finalizers, a->count))
		return owners_error_oom(err);
	for (i = 0; i < a->count; i++) {
		if (a->items[i]->type != OWNERS_JSON_STRING) {
			char field[64];

			snprintf(field, sizeof(field), "metadata.finalizers[%zu]", i);
			return wrong(err, field, a->items[i], "a string");
		}
		m->finalizers[i] = a->items[i]->string;
	}
	m->meta.finalizers = m->finalizers;
	m->meta.n_finalizers = a->count;
	return 0;
}

/* One ownerReference: its strings, and which booleans it has at all. */
static int read_ref(struct owners_owner_ref_meta *r, unsigned char *fields,
		    const struct owners_json_value *v, size_t i, struct owners_error *err)
{
	static const char *const keys[] = { "apiVersion", "kind", "name", "uid" };
	const char **slots[] = { &r->api_version, &r->kind, &r->name, &r->uid };
	const struct owners_json_value *b;
	char field[80];
	size_t k;
	int rc;

	if (v->type != OWNERS_JSON_OBJECT) {
		snprintf(field, sizeof(field), "metadata.ownerReferences[%zu]", i);
		return wrong(err, field, v, "an object");
	}
	for (k = 0; k < 4; k++) {
		snprintf(field, sizeof(field), "metadata.ownerReferences[%zu].%s", i, keys[k]);
		if ((rc = get_string(slots[k], v, keys[k], field, err)))
			return rc;
	}
	*fields = 0;
	r->controller = r->block_owner_deletion = 0;
	if ((b = owners_json_get(v, "controller")) && b->type == OWNERS_JSON_BOOL) {
		*fields |= OWNERS_REF_HAS_CONTROLLER;
		r->controller = b->boolean;
	}
	if ((b = owners_json_get(v, "blockOwnerDeletion")) && b->type == OWNERS_JSON_BOOL) {
		*fields |= OWNERS_REF_HAS_BLOCK_OWNER_DELETION;
		r->block_owner_deletion = b->boolean;
	}
	return 0;
}

static int read_refs(struct owners_snapshot_dump_object_meta *m, const struct owners_json_value *md,
		     struct owners_error *err)
{
	const struct owners_json_value *a;
	size_t i;
	int rc;

	if ((rc = get_container(&a, md, "ownerReferences", OWNERS_JSON_ARRAY, err)) || !a)
		return rc;
	if (OWNERS_GROW(m->refs, m->cap_refs, a->count) ||
	    OWNERS_GROW(m->ref_fields, m->cap_ref_fields, a->count))
		return owners_error_oom(err);
	for (i = 0; i < a->count; i++)
		if ((rc = read_ref(&m->refs[i], &m->ref_fields[i], a->items[i], i, err)))
			return rc;
	m->meta.owner_refs = m->refs;
	m->meta.owner_ref_fields = m->ref_fields;
	m->meta.n_owner_refs = a->count;
	return 0;
}

static int read_labels(struct owners_snapshot_dump_object_meta *m,
		       const struct owners_json_value *md, struct owners_error *err)
{
	const struct owners_json_value *o;
	size_t i;
	int rc;

	if ((rc = get_container(&o, md, "labels", OWNERS_JSON_OBJECT, err)) || !o)
		return rc;
	if (OWNERS_GROW(m->labels, m->cap_labels, o->count))
		return owners_error_oom(err);
	for (i = 0; i < o->count; i++) {
		char field[64];

		snprintf(field, sizeof(field), "metadata.labels.%.40s", o->keys[i]);
		m->labels[i].key = o->keys[i];
		if ((rc = get_string(&m->labels[i].value, o, o->keys[i], field, err)))
			return rc;
	}
	m->meta.labels = m->labels;
	m->meta.n_labels = o->count;
	return 0;
}

int owners_snapshot_dump_object_meta_read(struct owners_snapshot_dump_object_meta *m,
					  const struct owners_json_value *object,
					  struct owners_error *err)
{
	static const char *const keys[] = { "name",
					    "namespace",
					    "uid",
					    "resourceVersion",
					    "creationTimestamp",
					    "deletionTimestamp" };
	const char **slots[] = { &m->meta.name,
				 &m->meta.namespace_,
				 &m->meta.uid,
				 &m->meta.resource_version,
				 &m->meta.creation_timestamp,
				 &m->meta.deletion_timestamp };
	const struct owners_json_value *md = owners_json_get(object, "metadata");
	char field[64];
	size_t k;
	int rc;

	memset(&m->meta, 0, sizeof(m->meta));
	if (md && md->type != OWNERS_JSON_OBJECT && md->type != OWNERS_JSON_NULL)
		return wrong(err, "metadata", md, "an object");
	for (k = 0; k < 6; k++) {
		snprintf(field, sizeof(field), "metadata.%s", keys[k]);
		if ((rc = get_string(slots[k], md, keys[k], field, err)))
			return rc;
	}
	if ((rc = read_finalizers(m, md, err)) || (rc = read_refs(m, md, err)))
		return rc;
	return read_labels(m, md, err);
}
