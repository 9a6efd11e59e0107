/* Metadata lists in protobuf: pages packed here with the generated code,
 * read back by the decoder the scan uses. */
#include <stdlib.h>
#include <string.h>

#include "k8s_list.pb-c.h"
#include "list_proto.h"
#include "tap.h"

struct seen {
	char text[2048];
	size_t items;
};

static int on_item(void *ctx, const struct owners_object_meta *m, struct owners_error *err)
{
	struct seen *s = ctx;
	size_t used = strlen(s->text), i;

	(void)err;
	used += (size_t)snprintf(s->text + used, sizeof(s->text) - used, "%s/%s uid=%s rv=%s c=%s d=%s f=",
				 m->namespace_, m->name, m->uid, m->resource_version, m->creation_timestamp,
				 m->deletion_timestamp);
	for (i = 0; i < m->n_finalizers; i++)
		used += (size_t)snprintf(s->text + used, sizeof(s->text) - used, "%s,", m->finalizers[i]);
	for (i = 0; i < m->n_owner_refs; i++)
		used += (size_t)snprintf(s->text + used, sizeof(s->text) - used, " ref=%s|%s|%s|%s|%d%d|%u",
					 m->owner_refs[i].api_version, m->owner_refs[i].kind, m->owner_refs[i].name,
					 m->owner_refs[i].uid, m->owner_refs[i].controller,
					 m->owner_refs[i].block_owner_deletion, m->owner_ref_fields[i]);
	snprintf(s->text + used, sizeof(s->text) - used, "\n");
	s->items++;
	return 0;
}

static int count_item(void *ctx, const struct owners_object_meta *m, struct owners_error *err)
{
	(void)m;
	(void)err;
	((struct seen *)ctx)->items++;
	return 0;
}

/* A page: two pods, one owned (controller: true, blockOwnerDeletion absent),
 * one in deletion with finalizers; then "k8s\0" + Unknown around it. */
static size_t page_with(uint8_t **out, const char *kind, const char *cont, const uint8_t *extra,
			size_t extra_len)
{
	Owners__K8s__Time created = OWNERS__K8S__TIME__INIT, deleted = OWNERS__K8S__TIME__INIT;
	Owners__K8s__OwnerReference ref = OWNERS__K8S__OWNER_REFERENCE__INIT, *refs[1] = { &ref };
	Owners__K8s__ObjectMeta m1 = OWNERS__K8S__OBJECT_META__INIT, m2 = OWNERS__K8S__OBJECT_META__INIT;
	Owners__K8s__PartialObjectMetadata i1 = OWNERS__K8S__PARTIAL_OBJECT_METADATA__INIT;
	Owners__K8s__PartialObjectMetadata i2 = OWNERS__K8S__PARTIAL_OBJECT_METADATA__INIT, *items[2] = { &i1, &i2 };
	Owners__K8s__ListMeta lm = OWNERS__K8S__LIST_META__INIT;
	Owners__K8s__PartialObjectMetadataList list = OWNERS__K8S__PARTIAL_OBJECT_METADATA_LIST__INIT;
	Owners__K8s__TypeMeta tm = OWNERS__K8S__TYPE_META__INIT;
	Owners__K8s__Unknown env = OWNERS__K8S__UNKNOWN__INIT;
	char *fins[2] = { "foregroundDeletion", "example.com/hold" };
	size_t n;

	created.has_seconds = 1;
	created.seconds = 1767225600; /* 2026-01-01T00:00:00Z */
	deleted.has_seconds = 1;
	deleted.seconds = 1767229200;
	ref.apiversion = "apps/v1";
	ref.kind = "ReplicaSet";
	ref.name = "web-1";
	ref.uid = "rs-uid";
	ref.has_controller = 1;
	ref.controller = 1;
	m1.name = "p1";
	m1.namespace_ = "ns";
	m1.uid = "u1";
	m1.resourceversion = "7";
	m1.creationtimestamp = &created;
	m1.n_ownerreferences = 1;
	m1.ownerreferences = refs;
	m2.name = "p2";
	m2.namespace_ = "ns";
	m2.uid = "u2";
	m2.resourceversion = "8";
	m2.creationtimestamp = &created;
	m2.deletiontimestamp = &deleted;
	m2.n_finalizers = 2;
	m2.finalizers = fins;
	i1.metadata = &m1;
	i2.metadata = &m2;
	lm.continue_ = (char *)cont;
	list.metadata = &lm;
	list.n_items = 2;
	list.items = items;
	tm.apiversion = "meta.k8s.io/v1";
	tm.kind = (char *)kind;
	env.typemeta = &tm;
	env.has_raw = 1;
	/* room for fields a later server may add (see unknown_fields()) */
	env.raw.len = owners__k8s__partial_object_metadata_list__get_packed_size(&list);
	env.raw.data = malloc(env.raw.len + extra_len);
	owners__k8s__partial_object_metadata_list__pack(&list, env.raw.data);
	if (extra_len)
		memcpy(env.raw.data + env.raw.len, extra, extra_len);
	env.raw.len += extra_len;
	n = owners__k8s__unknown__get_packed_size(&env);
	*out = malloc(n + 4);
	memcpy(*out, "k8s\0", 4);
	owners__k8s__unknown__pack(&env, *out + 4);
	free(env.raw.data);
	return n + 4;
}

static size_t page(uint8_t **out, const char *kind, const char *cont)
{
	return page_with(out, kind, cont, NULL, 0);
}

/* Fields the decoder does not know are passed over (a varint, a 64-bit
 * and a 32-bit one); a group, which Kubernetes never writes, is refused. */
static void unknown_fields(void)
{
	static const uint8_t later[] = { 0x48, 0x96, 0x01,                              /* 9: varint 150 */
					 0x51, 1, 2, 3, 4, 5, 6, 7, 8,                    /* 10: fixed64 */
					 0x5d, 1, 2, 3, 4 };                              /* 11: fixed32 */
	static const uint8_t group[] = { 0x63 };                                        /* 12: start group */
	struct owners_error err = OWNERS_ERROR_INIT;
	struct seen s;
	uint8_t *buf;
	char *cont = NULL;
	size_t len;
	int rc;

	len = page_with(&buf, "PartialObjectMetadataList", "", later, sizeof(later));
	memset(&s, 0, sizeof(s));
	rc = owners_list_proto_decode((const char *)buf, len, on_item, &s, &cont, &err);
	ok(rc == 0 && s.items == 2 && !cont, "fields of a later server are passed over");
	free(buf);
	len = page_with(&buf, "PartialObjectMetadataList", "", group, sizeof(group));
	memset(&s, 0, sizeof(s));
	rc = owners_list_proto_decode((const char *)buf, len, on_item, &s, &cont, &err);
	ok(rc == OWNERS_EPROTO && s.items == 2, "a group after the items is refused (the items before it were read)");
	owners_error_clear(&err);
	free(buf);
}

/* Feeds the page in pieces; what was read, as text, and the token. */
static int feed_in(const uint8_t *buf, size_t len, const size_t *cuts, size_t n_cuts, struct seen *s,
		   char **cont)
{
	struct owners_error err = OWNERS_ERROR_INIT;
	struct owners_list_proto *p;
	size_t i, from = 0;
	int rc = 0;

	memset(s, 0, sizeof(*s));
	*cont = NULL;
	if (owners_list_proto_new(&p, on_item, s))
		return OWNERS_ENOMEM;
	for (i = 0; !rc && i <= n_cuts; i++) {
		size_t to = i < n_cuts ? cuts[i] : len;

		rc = owners_list_proto_feed(p, (const char *)buf + from, to - from, &err);
		from = to;
	}
	if (!rc)
		rc = owners_list_proto_finish(p, cont, &err);
	owners_list_proto_free(p);
	owners_error_clear(&err);
	return rc;
}

/* The body arrives in pieces cut anywhere: in the magic, in a varint, in
 * a key, in an item, between the list and the envelope's end. Every split
 * in two, and one byte at a time, reads what the whole page reads. */
static void splits(const uint8_t *buf, size_t len)
{
	struct seen whole, piece;
	char *cont_whole, *cont;
	size_t cut, bad = 0, *bytes = malloc(len * sizeof(*bytes));
	int rc;

	feed_in(buf, len, NULL, 0, &whole, &cont_whole);
	for (cut = 0; cut <= len; cut++) {
		rc = feed_in(buf, len, &cut, 1, &piece, &cont);
		if (rc || strcmp(piece.text, whole.text) || !cont || strcmp(cont, cont_whole))
			bad++;
		free(cont);
	}
	is_int((long)bad, 0, "split in two at every byte: the same items and token");
	for (cut = 0; cut < len; cut++)
		bytes[cut] = cut;
	rc = feed_in(buf, len, bytes, len, &piece, &cont);
	ok(rc == 0 && !strcmp(piece.text, whole.text) && cont && !strcmp(cont, cont_whole),
	   "one byte at a time: the same items and token");
	{
		struct owners_error err = OWNERS_ERROR_INIT;
		struct owners_list_proto *p;
		size_t items_before = (size_t)-1;

		memset(&piece, 0, sizeof(piece));
		owners_list_proto_new(&p, on_item, &piece);
		for (cut = 0; cut < len && items_before == (size_t)-1; cut++) {
			owners_list_proto_feed(p, (const char *)buf + cut, 1, &err);
			if (owners_list_proto_continue_token(p))
				items_before = piece.items;
		}
		ok(items_before == 0 && !strcmp(owners_list_proto_continue_token(p), cont_whole),
		   "the continue token is known before the first item (the next page can be asked for at once)");
		owners_list_proto_free(p);
		owners_error_clear(&err);
	}
	free(cont);
	free(cont_whole);
	free(bytes);
}

/* The envelope's fields, written by hand: the list before its kind is not
 * read (Kubernetes names the kind first); two lists in one envelope, and
 * a field running past the end of its list, are refused. */
static void out_of_order(void)
{
	static const uint8_t kind[] = { 0x0a, 0x1b, 0x12, 0x19, 'P', 'a', 'r', 't', 'i', 'a', 'l', 'O', 'b',
					'j', 'e', 'c', 't', 'M', 'e', 't', 'a', 'd', 'a', 't', 'a', 'L',
					'i', 's', 't' };
	static const uint8_t empty_list[] = { 0x12, 0x00 };
	static const uint8_t overrun[] = { 0x12, 0x03, 0x12, 0x05, 0x00 };
	struct owners_error err = OWNERS_ERROR_INIT;
	uint8_t body[128];
	char *cont = NULL;
	struct seen s;
	size_t n;
	int rc;

	memcpy(body, "k8s\0", 4);
	n = 4;
	memcpy(body + n, kind, sizeof(kind)), n += sizeof(kind);
	memcpy(body + n, empty_list, sizeof(empty_list)), n += sizeof(empty_list);
	memset(&s, 0, sizeof(s));
	rc = owners_list_proto_decode((const char *)body, n, on_item, &s, &cont, &err);
	ok(rc == 0 && s.items == 0 && !cont, "hand-written envelope: kind, then an empty list");
	memcpy(body + n, empty_list, sizeof(empty_list));
	rc = owners_list_proto_decode((const char *)body, n + sizeof(empty_list), on_item, &s, &cont, &err);
	ok(rc == OWNERS_EPROTO && strstr(err.msg.ptr, "two lists"), "two lists in one envelope are refused");
	owners_error_clear(&err);
	n = 4;
	memcpy(body + n, empty_list, sizeof(empty_list)), n += sizeof(empty_list);
	memcpy(body + n, kind, sizeof(kind)), n += sizeof(kind);
	rc = owners_list_proto_decode((const char *)body, n, on_item, &s, &cont, &err);
	ok(rc == OWNERS_EPROTO && strstr(err.msg.ptr, "without a kind"), "a list before its kind is refused");
	owners_error_clear(&err);
	n = 4;
	memcpy(body + n, kind, sizeof(kind)), n += sizeof(kind);
	memcpy(body + n, overrun, sizeof(overrun)), n += sizeof(overrun);
	rc = owners_list_proto_decode((const char *)body, n, on_item, &s, &cont, &err);
	ok(rc == OWNERS_EPROTO && strstr(err.msg.ptr, "list cannot be decoded"),
	   "an item running past the end of its list is refused");
	owners_error_clear(&err);
}

/* A page of 2,000 items read in 16 kB chunks, as curl hands them over:
 * the decoder holds the piece of one item between chunks, never the page. */
static void held_is_one_item(void)
{
	Owners__K8s__ObjectMeta *metas = calloc(2000, sizeof(*metas));
	Owners__K8s__PartialObjectMetadata *its = calloc(2000, sizeof(*its)), **items = calloc(2000, sizeof(*items));
	Owners__K8s__PartialObjectMetadataList list = OWNERS__K8S__PARTIAL_OBJECT_METADATA_LIST__INIT;
	Owners__K8s__TypeMeta tm = OWNERS__K8S__TYPE_META__INIT;
	Owners__K8s__Unknown env = OWNERS__K8S__UNKNOWN__INIT;
	struct owners_error err = OWNERS_ERROR_INIT;
	struct owners_list_proto *p;
	char names[2000][16], pad[600];
	struct seen s;
	uint8_t *buf;
	size_t i, n, at, held = 0, item_len;
	int rc = 0;

	memset(pad, 'x', sizeof(pad) - 1);
	pad[sizeof(pad) - 1] = '\0';
	for (i = 0; i < 2000; i++) {
		owners__k8s__object_meta__init(&metas[i]);
		owners__k8s__partial_object_metadata__init(&its[i]);
		snprintf(names[i], sizeof(names[i]), "cm-%04zu", i);
		metas[i].name = names[i];
		metas[i].namespace_ = "ns";
		metas[i].uid = pad; /* about the size of an object's metadata */
		its[i].metadata = &metas[i];
		items[i] = &its[i];
	}
	item_len = owners__k8s__partial_object_metadata__get_packed_size(&its[0]);
	list.n_items = 2000;
	list.items = items;
	tm.kind = "PartialObjectMetadataList";
	env.typemeta = &tm;
	env.has_raw = 1;
	env.raw.len = owners__k8s__partial_object_metadata_list__get_packed_size(&list);
	env.raw.data = malloc(env.raw.len);
	owners__k8s__partial_object_metadata_list__pack(&list, env.raw.data);
	n = owners__k8s__unknown__get_packed_size(&env) + 4;
	buf = malloc(n);
	memcpy(buf, "k8s\0", 4);
	owners__k8s__unknown__pack(&env, buf + 4);
	memset(&s, 0, sizeof(s));
	owners_list_proto_new(&p, count_item, &s);
	for (at = 0; !rc && at < n; at += 16384) {
		rc = owners_list_proto_feed(p, (const char *)buf + at, n - at < 16384 ? n - at : 16384, &err);
		if (owners_list_proto_held(p) > held)
			held = owners_list_proto_held(p);
	}
	{
		char *cont = NULL;

		if (!rc)
			rc = owners_list_proto_finish(p, &cont, &err);
		free(cont);
	}
	ok(rc == 0 && s.items == 2000, "a page of 2,000 items in 16 kB chunks: all read (%zu bytes)", n);
	ok(held <= 4 * item_len, "what is held between chunks: %zu bytes, an item is %zu", held, item_len);
	owners_list_proto_free(p);
	owners_error_clear(&err);
	free(buf);
	free(env.raw.data);
	free(items);
	free(its);
	free(metas);
}

int main(void)
{
	struct owners_error err = OWNERS_ERROR_INIT;
	struct seen s;
	uint8_t *buf;
	char *cont = NULL;
	size_t len, cut, bad_prefix = 0;
	int rc;

	len = page(&buf, "PartialObjectMetadataList", "next-token");
	memset(&s, 0, sizeof(s));
	rc = owners_list_proto_decode((const char *)buf, len, on_item, &s, &cont, &err);
	is_int(rc, 0, "a page decodes");
	is_str(s.text,
	       "ns/p1 uid=u1 rv=7 c=2026-01-01T00:00:00Z d= f= ref=apps/v1|ReplicaSet|web-1|rs-uid|10|1\n"
	       "ns/p2 uid=u2 rv=8 c=2026-01-01T00:00:00Z d=2026-01-01T01:00:00Z f=foregroundDeletion,example.com/hold,\n",
	       "names, UIDs, resourceVersions, times as RFC 3339, finalizers, references with which booleans they carry");
	is_str(cont ? cont : "(none)", "next-token", "the continue token");
	free(cont);
	cont = NULL;
	/* Every shorter body is refused cleanly (or, where protobuf cannot
	 * tell, reads fewer items), never read past its end. */
	for (cut = 0; cut < len; cut++) {
		memset(&s, 0, sizeof(s));
		rc = owners_list_proto_decode((const char *)buf, cut, on_item, &s, &cont, &err);
		if (rc != OWNERS_EPROTO || s.items > 2)
			bad_prefix++;
		free(cont);
		cont = NULL;
		owners_error_clear(&err);
	}
	is_int((long)bad_prefix, 0, "every truncation of the page: refused, never read past its end");
	splits(buf, len);
	free(buf);

	len = page(&buf, "Status", "");
	rc = owners_list_proto_decode((const char *)buf, len, on_item, &s, &cont, &err);
	ok(rc == OWNERS_EPROTO && strstr(err.msg.ptr, "a protobuf Status"), "another kind is refused, named");
	owners_error_clear(&err);
	free(buf);
	rc = owners_list_proto_decode("{\"items\":[]}", 12, on_item, &s, &cont, &err);
	ok(rc == OWNERS_EPROTO && strstr(err.msg.ptr, "magic"), "JSON where protobuf was announced is refused");
	owners_error_clear(&err);
	unknown_fields();
	out_of_order();
	held_is_one_item();
	return tap_done();
}
