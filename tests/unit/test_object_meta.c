/* The two decoders of a list, JSON (list_parser.c) and protobuf
 * (list_proto.c), hand on the same owners_object_meta for the same
 * objects: every field, compared one by one, with labels kept and not.
 * The objects are written as owners_object_meta values, encoded both
 * ways here (the JSON with the project's generator, the protobuf with the
 * code protoc-c generates), decoded by each, and each result compared with
 * the other and with what was encoded. See object_meta.h for the path a
 * new field takes. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "k8s_list.pb-c.h"
#include "list_parser.h"
#include "list_proto.h"
#include "tap.h"
#include "timeutil.h"

/* Added a field? Compare it in differ() below, give it a value in the
 * objects, and read it in both decoders (the checklist in object_meta.h);
 * then count it here. */
static_assert(sizeof(struct owners_object_meta) == 10 * sizeof(void *) + 3 * sizeof(size_t),
	      "added a field to owners_object_meta? compare it below and in both decoders");
static_assert(sizeof(struct owners_owner_ref_meta) == 4 * sizeof(char *) + 2 * sizeof(int),
	      "added a field to owners_owner_ref_meta? compare it below and in both decoders");
static_assert(sizeof(struct owners_label_meta) == 2 * sizeof(char *),
	      "added a field to owners_label_meta? compare it below and in both decoders");

#define BOTH (OWNERS_REF_HAS_CONTROLLER | OWNERS_REF_HAS_BLOCK_OWNER_DELETION)
#define N(a) (sizeof(a) / sizeof((a)[0]))

/* ---- the objects --------------------------------------------------------- */

/* Every boolean of a reference true, false and absent, alone and together. */
static const struct owners_owner_ref_meta alpha_refs[] = {
	{ "apps/v1", "ReplicaSet", "rs-alpha", "7d0c1e2f-0001-4a00-8000-00000000a001", 1, 1 },
	{ "v1", "ConfigMap", "cm-beta", "7d0c1e2f-0002-4a00-8000-00000000a002", 0, 0 },
	{ "example.com/v1beta1", "Widget", "w-gamma", "7d0c1e2f-0003-4a00-8000-00000000a003", 0,
	  0 },
	{ "batch/v1", "Job", "job-delta", "7d0c1e2f-0004-4a00-8000-00000000a004", 1, 0 },
	{ "v1", "Pod", "pod-epsilon", "7d0c1e2f-0005-4a00-8000-00000000a005", 0, 1 },
	{ "v1", "Secret", "secret-zeta", "7d0c1e2f-0006-4a00-8000-00000000a006", 0, 0 },
	{ "v1", "Service", "svc-eta", "7d0c1e2f-0007-4a00-8000-00000000a007", 1, 0 },
};
static const unsigned char alpha_ref_fields[] = {
	BOTH,
	BOTH,
	0,
	OWNERS_REF_HAS_CONTROLLER,
	OWNERS_REF_HAS_BLOCK_OWNER_DELETION,
	OWNERS_REF_HAS_BLOCK_OWNER_DELETION, /* "blockOwnerDeletion": false alone */
	BOTH,                                /* controller true, blockOwnerDeletion false */
};
static const char *const alpha_fins[] = { "example.com/first-hold", "foregroundDeletion",
					  "orphan" };
static const struct owners_label_meta alpha_labels[] = {
	{ "app.kubernetes.io/name", "alpha" },
	{ "tier", "" },
	{ "example.com/quoted", "say \"hi\" \xe2\x80\x94 \xc3\xbc \\ end" },
};

static const struct owners_owner_ref_meta gamma_refs[] = {
	{ "apps/v1", "Deployment", "deploy-gamma", "7d0c1e2f-0008-4a00-8000-00000000c001", 0, 1 },
};
static const unsigned char gamma_ref_fields[] = { OWNERS_REF_HAS_BLOCK_OWNER_DELETION };
static const char *const gamma_fins[] = { "kubernetes.io/pvc-protection" };
static const struct owners_label_meta gamma_labels[] = { { "only", "one" } };

static const struct owners_object_meta objects[] = {
	/* namespaced, in deletion, every field set */
	{
		.name = "obj-alpha",
		.namespace_ = "ns-one",
		.uid = "0a1b2c3d-0000-4000-8000-00000000000a",
		.resource_version = "123456789",
		.creation_timestamp = "2024-02-29T12:34:56Z",
		.deletion_timestamp = "2025-07-04T01:02:03Z",
		.finalizers = alpha_fins,
		.n_finalizers = N(alpha_fins),
		.owner_refs = alpha_refs,
		.n_owner_refs = N(alpha_refs),
		.owner_ref_fields = alpha_ref_fields,
		.labels = alpha_labels,
		.n_labels = N(alpha_labels),
	},
	/* cluster-scoped, only what every object has: everything else absent */
	{
		.name = "node-beta",
		.namespace_ = "",
		.uid = "0a1b2c3d-0000-4000-8000-00000000000b",
		.resource_version = "1",
		.creation_timestamp = "",
		.deletion_timestamp = "",
	},
	/* live, one of each */
	{
		.name = "pvc-gamma",
		.namespace_ = "ns-two",
		.uid = "0a1b2c3d-0000-4000-8000-00000000000c",
		.resource_version = "42",
		.creation_timestamp = "1999-12-31T23:59:59Z",
		.deletion_timestamp = "",
		.finalizers = gamma_fins,
		.n_finalizers = N(gamma_fins),
		.owner_refs = gamma_refs,
		.n_owner_refs = N(gamma_refs),
		.owner_ref_fields = gamma_ref_fields,
		.labels = gamma_labels,
		.n_labels = N(gamma_labels),
	},
};

#define LIST_RV       "987654321"
#define LIST_CONTINUE "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6OTg3NjU0MzIxfQ"

static unsigned ref_fields(const struct owners_object_meta *m, size_t i)
{
	return m->owner_ref_fields ? m->owner_ref_fields[i] : 0;
}

/* ---- encoding ------------------------------------------------------------ */

static int json_ref(struct owners_json_gen *g, const struct owners_object_meta *m, size_t i)
{
	const struct owners_owner_ref_meta *r = &m->owner_refs[i];

	owners_json_gen_map_open(g);
	owners_json_gen_kv(g, "apiVersion", r->api_version);
	owners_json_gen_kv(g, "kind", r->kind);
	owners_json_gen_kv(g, "name", r->name);
	owners_json_gen_kv(g, "uid", r->uid);
	if (ref_fields(m, i) & OWNERS_REF_HAS_CONTROLLER)
		owners_json_gen_kv_bool(g, "controller", r->controller);
	if (ref_fields(m, i) & OWNERS_REF_HAS_BLOCK_OWNER_DELETION)
		owners_json_gen_kv_bool(g, "blockOwnerDeletion", r->block_owner_deletion);
	return owners_json_gen_map_close(g);
}

/* As the apiserver writes an item: empty strings and lists left out, and
 * fields owners does not read around the ones it does. */
static int json_item(struct owners_json_gen *g, const struct owners_object_meta *m)
{
	size_t i;

	owners_json_gen_typed_open(g, "PartialObjectMetadata", "meta.k8s.io/v1");
	owners_json_gen_string(g, "metadata");
	owners_json_gen_map_open(g);
	owners_json_gen_kv(g, "name", m->name);
	if (*m->namespace_)
		owners_json_gen_kv(g, "namespace", m->namespace_);
	owners_json_gen_kv(g, "uid", m->uid);
	owners_json_gen_kv(g, "resourceVersion", m->resource_version);
	owners_json_gen_kv_int(g, "generation", 3);
	if (*m->creation_timestamp)
		owners_json_gen_kv(g, "creationTimestamp", m->creation_timestamp);
	if (*m->deletion_timestamp) {
		owners_json_gen_kv(g, "deletionTimestamp", m->deletion_timestamp);
		owners_json_gen_kv_int(g, "deletionGracePeriodSeconds", 0);
	}
	if (m->n_labels) {
		owners_json_gen_string(g, "labels");
		owners_json_gen_map_open(g);
		for (i = 0; i < m->n_labels; i++)
			owners_json_gen_kv(g, m->labels[i].key, m->labels[i].value);
		owners_json_gen_map_close(g);
	}
	owners_json_gen_string(g, "annotations");
	owners_json_gen_map_open(g);
	owners_json_gen_kv(g, "note", "not read");
	owners_json_gen_map_close(g);
	if (m->n_owner_refs) {
		owners_json_gen_string(g, "ownerReferences");
		owners_json_gen_array_open(g);
		for (i = 0; i < m->n_owner_refs; i++)
			json_ref(g, m, i);
		owners_json_gen_array_close(g);
	}
	if (m->n_finalizers)
		owners_json_gen_kv_strings(g, "finalizers", m->finalizers, m->n_finalizers);
	owners_json_gen_map_close(g);
	return owners_json_gen_map_close(g);
}

static int json_list(struct owners_buf *out, const struct owners_object_meta *objs, size_t n)
{
	struct owners_json_gen *g;
	size_t i;
	int rc;

	if (owners_json_gen_new(&g, out, 0))
		return OWNERS_ENOMEM;
	owners_json_gen_typed_open(g, "PartialObjectMetadataList", "meta.k8s.io/v1");
	owners_json_gen_string(g, "metadata");
	owners_json_gen_map_open(g);
	owners_json_gen_kv(g, "resourceVersion", LIST_RV);
	owners_json_gen_kv(g, "continue", LIST_CONTINUE);
	owners_json_gen_map_close(g);
	owners_json_gen_string(g, "items");
	owners_json_gen_array_open(g);
	for (i = 0; i < n; i++)
		json_item(g, &objs[i]);
	owners_json_gen_array_close(g);
	owners_json_gen_map_close(g);
	rc = owners_json_gen_error(g);
	owners_json_gen_free(g);
	return rc;
}

/* What a protobuf ObjectMeta points at, freed after packing. */
struct proto_item {
	Owners__K8s__PartialObjectMetadata item;
	Owners__K8s__ObjectMeta meta;
	Owners__K8s__Time created, deleted;
	Owners__K8s__OwnerReference *refs;
	Owners__K8s__OwnerReference **ref_ptrs;
	Owners__K8s__ObjectMeta__LabelsEntry *labels;
	Owners__K8s__ObjectMeta__LabelsEntry **label_ptrs;
};

static int proto_time(Owners__K8s__Time *t, const char *text)
{
	int64_t secs;

	owners__k8s__time__init(t);
	if (owners_time_parse_rfc3339(&secs, text))
		return -1;
	t->has_seconds = 1;
	t->seconds = secs;
	return 0;
}

static int proto_item(struct proto_item *p, const struct owners_object_meta *m)
{
	size_t i;

	owners__k8s__partial_object_metadata__init(&p->item);
	owners__k8s__object_meta__init(&p->meta);
	p->item.metadata = &p->meta;
	p->meta.name = (char *)m->name;
	p->meta.namespace_ = *m->namespace_ ? (char *)m->namespace_ : NULL;
	p->meta.uid = (char *)m->uid;
	p->meta.resourceversion = (char *)m->resource_version;
	if (*m->creation_timestamp) {
		if (proto_time(&p->created, m->creation_timestamp))
			return -1;
		p->meta.creationtimestamp = &p->created;
	}
	if (*m->deletion_timestamp) {
		if (proto_time(&p->deleted, m->deletion_timestamp))
			return -1;
		p->meta.deletiontimestamp = &p->deleted;
	}
	p->meta.n_finalizers = m->n_finalizers;
	p->meta.finalizers = (char **)m->finalizers;
	p->refs = calloc(m->n_owner_refs + 1, sizeof(*p->refs));
	p->ref_ptrs = calloc(m->n_owner_refs + 1, sizeof(*p->ref_ptrs));
	p->labels = calloc(m->n_labels + 1, sizeof(*p->labels));
	p->label_ptrs = calloc(m->n_labels + 1, sizeof(*p->label_ptrs));
	if (!p->refs || !p->ref_ptrs || !p->labels || !p->label_ptrs)
		return -1;
	for (i = 0; i < m->n_owner_refs; i++) {
		Owners__K8s__OwnerReference *r = &p->refs[i];

		owners__k8s__owner_reference__init(r);
		r->apiversion = (char *)m->owner_refs[i].api_version;
		r->kind = (char *)m->owner_refs[i].kind;
		r->name = (char *)m->owner_refs[i].name;
		r->uid = (char *)m->owner_refs[i].uid;
		r->has_controller = (ref_fields(m, i) & OWNERS_REF_HAS_CONTROLLER) != 0;
		r->controller = m->owner_refs[i].controller;
		r->has_blockownerdeletion =
			(ref_fields(m, i) & OWNERS_REF_HAS_BLOCK_OWNER_DELETION) != 0;
		r->blockownerdeletion = m->owner_refs[i].block_owner_deletion;
		p->ref_ptrs[i] = r;
	}
	p->meta.n_ownerreferences = m->n_owner_refs;
	p->meta.ownerreferences = p->ref_ptrs;
	for (i = 0; i < m->n_labels; i++) {
		owners__k8s__object_meta__labels_entry__init(&p->labels[i]);
		p->labels[i].key = (char *)m->labels[i].key;
		p->labels[i].value = (char *)m->labels[i].value;
		p->label_ptrs[i] = &p->labels[i];
	}
	p->meta.n_labels = m->n_labels;
	p->meta.labels = p->label_ptrs;
	return 0;
}

/* "k8s\0" and a runtime.Unknown around the list, as the apiserver sends it. */
static int proto_list(struct owners_buf *out, const struct owners_object_meta *objs, size_t n)
{
	Owners__K8s__PartialObjectMetadataList list =
		OWNERS__K8S__PARTIAL_OBJECT_METADATA_LIST__INIT;
	Owners__K8s__ListMeta lm = OWNERS__K8S__LIST_META__INIT;
	Owners__K8s__TypeMeta tm = OWNERS__K8S__TYPE_META__INIT;
	Owners__K8s__Unknown env = OWNERS__K8S__UNKNOWN__INIT;
	struct proto_item *items = calloc(n, sizeof(*items));
	Owners__K8s__PartialObjectMetadata **ptrs = calloc(n, sizeof(*ptrs));
	size_t i, len;
	int rc = -1;

	if (!items || !ptrs)
		goto out;
	for (i = 0; i < n; i++) {
		if (proto_item(&items[i], &objs[i]))
			goto out;
		ptrs[i] = &items[i].item;
	}
	lm.resourceversion = LIST_RV;
	lm.continue_ = LIST_CONTINUE;
	list.metadata = &lm;
	list.n_items = n;
	list.items = ptrs;
	tm.apiversion = "meta.k8s.io/v1";
	tm.kind = "PartialObjectMetadataList";
	env.typemeta = &tm;
	env.has_raw = 1;
	env.raw.len = owners__k8s__partial_object_metadata_list__get_packed_size(&list);
	env.raw.data = malloc(env.raw.len);
	if (!env.raw.data)
		goto out;
	owners__k8s__partial_object_metadata_list__pack(&list, env.raw.data);
	len = owners__k8s__unknown__get_packed_size(&env);
	if (owners_buf_add(out, "k8s\0", 4) || owners_buf_grow(out, len))
		goto out;
	owners__k8s__unknown__pack(&env, (uint8_t *)out->ptr + out->len);
	out->len += len;
	rc = 0;
out:
	free(env.raw.data);
	for (i = 0; items && i < n; i++) {
		free(items[i].refs);
		free(items[i].ref_ptrs);
		free(items[i].labels);
		free(items[i].label_ptrs);
	}
	free(items);
	free(ptrs);
	return rc;
}

/* ---- what the decoders handed on, kept past the callback -------------- */

struct decoded {
	struct owners_object_meta items[8];
	size_t n;
	size_t overflow; /* items past the end of items[] */
};

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

static int keep(void *ctx, const struct owners_object_meta *m, struct owners_error *err)
{
	struct decoded *d = ctx;
	struct owners_object_meta *c;
	struct owners_owner_ref_meta *refs;
	struct owners_label_meta *labels;
	unsigned char *fields = NULL;
	char **fins;
	size_t i;

	(void)err;
	if (d->n == N(d->items)) {
		d->overflow++;
		return 0;
	}
	c = &d->items[d->n++];
	*c = *m; /* the counts; every pointer is replaced below */
	c->name = dup_or_null(m->name);
	c->namespace_ = dup_or_null(m->namespace_);
	c->uid = dup_or_null(m->uid);
	c->resource_version = dup_or_null(m->resource_version);
	c->creation_timestamp = dup_or_null(m->creation_timestamp);
	c->deletion_timestamp = dup_or_null(m->deletion_timestamp);
	fins = calloc(m->n_finalizers + 1, sizeof(*fins));
	refs = calloc(m->n_owner_refs + 1, sizeof(*refs));
	labels = calloc(m->n_labels + 1, sizeof(*labels));
	if (m->owner_ref_fields)
		fields = calloc(m->n_owner_refs + 1, 1);
	c->finalizers = (const char *const *)fins;
	c->owner_refs = refs;
	c->owner_ref_fields = fields;
	c->labels = labels;
	if (!fins || !refs || !labels || (m->owner_ref_fields && !fields))
		return OWNERS_ENOMEM; /* what was copied is freed with the rest */
	for (i = 0; i < m->n_finalizers; i++)
		fins[i] = dup_or_null(m->finalizers[i]);
	for (i = 0; i < m->n_owner_refs; i++) {
		refs[i] = m->owner_refs[i];
		refs[i].api_version = dup_or_null(m->owner_refs[i].api_version);
		refs[i].kind = dup_or_null(m->owner_refs[i].kind);
		refs[i].name = dup_or_null(m->owner_refs[i].name);
		refs[i].uid = dup_or_null(m->owner_refs[i].uid);
		if (fields)
			fields[i] = m->owner_ref_fields[i];
	}
	for (i = 0; i < m->n_labels; i++) {
		labels[i].key = dup_or_null(m->labels[i].key);
		labels[i].value = dup_or_null(m->labels[i].value);
	}
	return 0;
}

static void decoded_clear(struct decoded *d)
{
	size_t i, j;

	for (i = 0; i < d->n; i++) {
		struct owners_object_meta *c = &d->items[i];

		free((char *)c->name);
		free((char *)c->namespace_);
		free((char *)c->uid);
		free((char *)c->resource_version);
		free((char *)c->creation_timestamp);
		free((char *)c->deletion_timestamp);
		for (j = 0; c->finalizers && j < c->n_finalizers; j++)
			free((char *)c->finalizers[j]);
		for (j = 0; c->owner_refs && j < c->n_owner_refs; j++) {
			free((char *)c->owner_refs[j].api_version);
			free((char *)c->owner_refs[j].kind);
			free((char *)c->owner_refs[j].name);
			free((char *)c->owner_refs[j].uid);
		}
		for (j = 0; c->labels && j < c->n_labels; j++) {
			free((char *)c->labels[j].key);
			free((char *)c->labels[j].value);
		}
		free((void *)c->finalizers);
		free((void *)c->owner_refs);
		free((void *)c->owner_ref_fields);
		free((void *)c->labels);
	}
	memset(d, 0, sizeof(*d));
}

/* ---- comparing ------------------------------------------------------------ */

static void str_field(struct owners_buf *why, const char *field, const char *a, const char *b)
{
	if (a && b && !strcmp(a, b))
		return;
	owners_buf_addf(why, "\n#     %s: '%s' vs '%s'", field, a ? a : "(null)", b ? b : "(null)");
}

static void int_field(struct owners_buf *why, const char *field, long long a, long long b)
{
	if (a != b)
		owners_buf_addf(why, "\n#     %s: %lld vs %lld", field, a, b);
}

static void ref_differ(struct owners_buf *why, const struct owners_object_meta *a,
		       const struct owners_object_meta *b, size_t i)
{
	const struct owners_owner_ref_meta *x = &a->owner_refs[i], *y = &b->owner_refs[i];
	char f[64];

#define REF_FIELD(name) (snprintf(f, sizeof(f), "ownerReferences[%zu].%s", i, name), f)
	str_field(why, REF_FIELD("apiVersion"), x->api_version, y->api_version);
	str_field(why, REF_FIELD("kind"), x->kind, y->kind);
	str_field(why, REF_FIELD("name"), x->name, y->name);
	str_field(why, REF_FIELD("uid"), x->uid, y->uid);
	int_field(why, REF_FIELD("controller"), x->controller, y->controller);
	int_field(why, REF_FIELD("blockOwnerDeletion"), x->block_owner_deletion,
		  y->block_owner_deletion);
	int_field(why, REF_FIELD("(fields present)"), ref_fields(a, i), ref_fields(b, i));
#undef REF_FIELD
}

/* Every field of a and b: what differs, one line each, into why. */
static void differ(struct owners_buf *why, const struct owners_object_meta *a,
		   const struct owners_object_meta *b)
{
	char f[64];
	size_t i;

	str_field(why, "name", a->name, b->name);
	str_field(why, "namespace", a->namespace_, b->namespace_);
	str_field(why, "uid", a->uid, b->uid);
	str_field(why, "resourceVersion", a->resource_version, b->resource_version);
	str_field(why, "creationTimestamp", a->creation_timestamp, b->creation_timestamp);
	str_field(why, "deletionTimestamp", a->deletion_timestamp, b->deletion_timestamp);
	int_field(why, "finalizers (count)", (long long)a->n_finalizers,
		  (long long)b->n_finalizers);
	for (i = 0; i < a->n_finalizers && i < b->n_finalizers; i++) {
		snprintf(f, sizeof(f), "finalizers[%zu]", i);
		str_field(why, f, a->finalizers[i], b->finalizers[i]);
	}
	int_field(why, "ownerReferences (count)", (long long)a->n_owner_refs,
		  (long long)b->n_owner_refs);
	for (i = 0; i < a->n_owner_refs && i < b->n_owner_refs; i++)
		ref_differ(why, a, b, i);
	int_field(why, "labels (count)", (long long)a->n_labels, (long long)b->n_labels);
	for (i = 0; i < a->n_labels && i < b->n_labels; i++) {
		snprintf(f, sizeof(f), "labels[%zu] key", i);
		str_field(why, f, a->labels[i].key, b->labels[i].key);
		snprintf(f, sizeof(f), "labels[%zu] value", i);
		str_field(why, f, a->labels[i].value, b->labels[i].value);
	}
}

static void same_meta(const struct owners_object_meta *a, const struct owners_object_meta *b,
		      const char *what)
{
	struct owners_buf why = OWNERS_BUF_INIT;

	differ(&why, a, b);
	ok(why.len == 0, "%s", what);
	if (why.len)
		printf("#   fields that differ (left vs right):%s\n", why.ptr);
	owners_buf_clear(&why);
}

/* ---- decoding -------------------------------------------------------------- */

static int decode_json(struct decoded *d, char **rv, char **cont, const struct owners_buf *body,
		       int keep_labels)
{
	struct owners_error err = OWNERS_ERROR_INIT;
	struct owners_list_parser *p;
	int rc;

	*rv = *cont = NULL;
	if (owners_list_parser_new(&p, keep_labels, keep, d))
		return OWNERS_ENOMEM;
	rc = owners_list_parser_feed(p, body->ptr, body->len, &err);
	if (!rc)
		rc = owners_list_parser_finish(p, &err);
	if (rc)
		printf("# JSON: %s\n", owners_error_message(&err));
	*rv = strdup(owners_list_parser_resource_version(p));
	*cont = strdup(owners_list_parser_continue_token(p));
	owners_list_parser_free(p);
	owners_error_clear(&err);
	return rc;
}

static int decode_proto(struct decoded *d, char **rv, char **cont, const struct owners_buf *body,
			int keep_labels)
{
	struct owners_error err = OWNERS_ERROR_INIT;
	struct owners_list_proto *p;
	int rc;

	*rv = *cont = NULL;
	if (owners_list_proto_new(&p, keep, d))
		return OWNERS_ENOMEM;
	owners_list_proto_keep_labels(p, keep_labels);
	rc = owners_list_proto_feed(p, body->ptr, body->len, &err);
	if (!rc)
		rc = owners_list_proto_finish(p, cont, &err);
	if (rc)
		printf("# protobuf: %s\n", owners_error_message(&err));
	*rv = strdup(owners_list_proto_resource_version(p));
	if (!*cont)
		*cont = strdup(""); /* the last page: "" as the JSON parser says it */
	owners_list_proto_free(p);
	owners_error_clear(&err);
	return rc;
}

static void agree(const struct owners_buf *json, const struct owners_buf *proto, int keep_labels)
{
	const char *mode = keep_labels ? "labels kept" : "labels skipped";
	struct decoded j = { 0 }, p = { 0 };
	char *j_rv, *j_cont, *p_rv, *p_cont;
	struct owners_object_meta want;
	char what[160];
	size_t i;

	is_int(decode_json(&j, &j_rv, &j_cont, json, keep_labels), 0, "%s: the JSON list decodes",
	       mode);
	is_int(decode_proto(&p, &p_rv, &p_cont, proto, keep_labels), 0,
	       "%s: the protobuf list decodes", mode);
	is_int(j.n + j.overflow, N(objects), "%s: JSON: every item handed on", mode);
	is_int(p.n + p.overflow, N(objects), "%s: protobuf: every item handed on", mode);
	is_str(p_rv, j_rv, "%s: the list's resourceVersion agrees", mode);
	is_str(p_cont, j_cont, "%s: the list's continue token agrees", mode);
	is_str(j_rv, LIST_RV, "%s: ... and is the one encoded", mode);
	is_str(j_cont, LIST_CONTINUE, "%s: ... and so is the token", mode);
	for (i = 0; i < N(objects) && i < j.n && i < p.n; i++) {
		snprintf(what, sizeof(what), "%s: %s: JSON and protobuf hand on the same metadata",
			 mode, objects[i].name);
		same_meta(&j.items[i], &p.items[i], what);
		want = objects[i];
		if (!keep_labels)
			want.n_labels = 0;
		snprintf(what, sizeof(what), "%s: %s: the metadata encoded, every field", mode,
			 objects[i].name);
		same_meta(&j.items[i], &want, what);
	}
	free(j_rv);
	free(j_cont);
	free(p_rv);
	free(p_cont);
	decoded_clear(&j);
	decoded_clear(&p);
}

/* The comparison itself sees a field that differs (so a decoder that
 * dropped one would not pass unnoticed). */
static void comparison_sees_differences(void)
{
	struct owners_object_meta a = objects[0], b = objects[0];
	struct owners_owner_ref_meta refs[N(alpha_refs)];
	unsigned char fields[N(alpha_ref_fields)];
	struct owners_buf why = OWNERS_BUF_INIT;

	memcpy(refs, alpha_refs, sizeof(refs));
	memcpy(fields, alpha_ref_fields, sizeof(fields));
	refs[3].block_owner_deletion = 1;
	fields[2] = OWNERS_REF_HAS_CONTROLLER;
	b.owner_refs = refs;
	b.owner_ref_fields = fields;
	b.deletion_timestamp = "";
	b.n_labels--;
	differ(&why, &a, &b);
	is_str(why.ptr,
	       "\n#     deletionTimestamp: '2025-07-04T01:02:03Z' vs ''"
	       "\n#     ownerReferences[2].(fields present): 0 vs 1"
	       "\n#     ownerReferences[3].blockOwnerDeletion: 0 vs 1"
	       "\n#     labels (count): 3 vs 2",
	       "a changed time, boolean, presence of a boolean and label count are each seen");
	owners_buf_clear(&why);
}

int main(void)
{
	struct owners_buf json = OWNERS_BUF_INIT, proto = OWNERS_BUF_INIT;

	is_int(json_list(&json, objects, N(objects)), 0, "the objects as a JSON list");
	is_int(proto_list(&proto, objects, N(objects)), 0, "the objects as a protobuf list");
	agree(&json, &proto, 1);
	agree(&json, &proto, 0);
	comparison_sees_differences();
	owners_buf_clear(&json);
	owners_buf_clear(&proto);
	return tap_done();
}
