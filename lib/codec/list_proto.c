#include "list_proto.h"

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

int owners_list_proto_decode(const char *data, size_t len, owners_list_item_fn on_item, void *ctx,
			     char **continue_token, struct owners_error *err)
{
	Owners__K8s__Unknown *env = NULL;
	Owners__K8s__PartialObjectMetadataList *list = NULL;
	const char *kind;
	size_t i;
	int rc = 0;

	*continue_token = NULL;
	if (len < sizeof(magic) || memcmp(data, magic, sizeof(magic)))
		return owners_error_set(err, OWNERS_EPROTO,
					"unexpected list response: not Kubernetes protobuf (no \"k8s\\0\" magic)");
	env = owners__k8s__unknown__unpack(NULL, len - sizeof(magic), (const uint8_t *)data + sizeof(magic));
	if (!env)
		return owners_error_set(err, OWNERS_EPROTO,
					"unexpected list response: the protobuf envelope cannot be decoded");
	kind = env->typemeta ? or_empty(env->typemeta->kind) : "";
	if (strcmp(kind, "PartialObjectMetadataList")) {
		rc = owners_error_set(err, OWNERS_EPROTO,
				      "unexpected list response: a protobuf %s, expected a PartialObjectMetadataList",
				      *kind ? kind : "message without a kind");
		goto out;
	}
	if (env->contentencoding && *env->contentencoding) {
		rc = owners_error_set(err, OWNERS_EPROTO, "unexpected list response: content encoding '%s'",
				      env->contentencoding);
		goto out;
	}
	list = owners__k8s__partial_object_metadata_list__unpack(NULL, env->has_raw ? env->raw.len : 0,
								 env->has_raw ? env->raw.data : NULL);
	if (!list) {
		rc = owners_error_set(err, OWNERS_EPROTO,
				      "unexpected list response: the protobuf list cannot be decoded");
		goto out;
	}
	for (i = 0; !rc && i < list->n_items; i++)
		rc = item(list->items[i], on_item, ctx, err);
	if (!rc && list->metadata && list->metadata->continue_ && *list->metadata->continue_ &&
	    !(*continue_token = owners_strdup(list->metadata->continue_)))
		rc = owners_error_oom(err);
out:
	if (list)
		owners__k8s__partial_object_metadata_list__free_unpacked(list, NULL);
	owners__k8s__unknown__free_unpacked(env, NULL);
	return rc;
}
