/* owners' snapshot format, written by snapshot_write.c and read back by
 * snapshot_file.c (through owners_snapshot_read()): what is read is what
 * was written, field for field (the metadata as the list parser hands it
 * on, "controller": false kept apart from no controller field, labels,
 * finalizers, lists that failed, statuses, facts), plain and gzip; a file
 * cut short, of a later format, or with a wrong count is refused with the
 * file and the line named. Both formats: 1 (JSON documents) and 2 (frames
 * with binary batches), which must read back the same records; format 2's
 * damage (a frame cut short, a batch that does not decode, an unknown
 * frame) is refused with the byte its frame begins at. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "fake_types.h"
#include "file_stream.h"
#include "snapshot.h"
#include "snapshot_write.h"
#include "tap.h"

/* Everything a read hands out, one line per callback. */
static int t_header(void *ctx, const struct owners_snapshot_header *h)
{
	return owners_buf_addf(ctx, "header %s at=%lld server=%s version=%s ns=%s selector=%s discovery=%d\n",
			       h->format, (long long)h->taken_at, h->server, h->server_version,
			       h->namespace_ ? h->namespace_ : "(all)", h->label_selector ? h->label_selector : "(none)",
			       h->has_discovery);
}

static int t_types(void *ctx, const struct owners_resource_table *t)
{
	size_t i;
	int rc = 0;

	for (i = 0; !rc && i < t->count; i++)
		rc = owners_buf_addf(ctx, "type %s %s ns=%d\n", t->items[i].api_version, t->items[i].resource,
				     t->items[i].namespaced);
	for (i = 0; !rc && i < t->n_failed; i++)
		rc = owners_buf_addf(ctx, "failed %s: %s stale=%d\n", t->failed_groups[i], t->failed_reasons[i],
				     owners_resource_table_failed_stale(t, i));
	return rc;
}

static int t_object(void *ctx, const struct owners_resource *r, const struct owners_object_meta *m)
{
	struct owners_buf *b = ctx;
	size_t i;
	int rc = owners_buf_addf(b, "object %s %s/%s uid=%s rv=%s created=%s deleted=%s", r->resource,
				 m->namespace_, m->name, m->uid, m->resource_version, m->creation_timestamp,
				 m->deletion_timestamp);

	for (i = 0; !rc && i < m->n_finalizers; i++)
		rc = owners_buf_addf(b, " fin=%s", m->finalizers[i]);
	for (i = 0; !rc && i < m->n_labels; i++)
		rc = owners_buf_addf(b, " label=%s:%s", m->labels[i].key, m->labels[i].value);
	for (i = 0; !rc && i < m->n_owner_refs; i++)
		rc = owners_buf_addf(b, " ref=%s,%s,%s,%s,c%d,b%d,f%u", m->owner_refs[i].api_version,
				     m->owner_refs[i].kind, m->owner_refs[i].name, m->owner_refs[i].uid,
				     m->owner_refs[i].controller, m->owner_refs[i].block_owner_deletion,
				     m->owner_ref_fields ? m->owner_ref_fields[i] : 99u);
	return rc ? rc : owners_buf_adds(b, "\n");
}

static int t_listed(void *ctx, const struct owners_snapshot_listed *l)
{
	return owners_buf_addf(ctx, "listed %s ns=%s rv=%s code=%d message=%s detail=%s%s\n", l->type->resource,
			       l->namespace_ ? l->namespace_ : "(all)", l->resource_version, l->code,
			       l->code ? l->message : "", l->detail ? l->detail : "(none)",
			       l->unanswered ? " waited" : "") ||
	       (l->unanswered && owners_buf_addf(ctx, "  unanswered=%d waited=%ldms took=%ldms\n", l->unanswered,
						 l->waited_ms, l->took_ms));
}

static int t_fact(void *ctx, const struct owners_snapshot_fact *f)
{
	if (f->kind == OWNERS_SNAPSHOT_FACT_STATUS)
		return owners_buf_addf(ctx, "status %s %s %s h%d r%d\n", f->uid, f->status->ready, f->status->status,
				       (int)f->status->health, f->status->is_ready);
	return owners_buf_addf(ctx, "fact %d %s at=%lld %.*s\n", (int)f->kind, f->path ? f->path : "-",
			       (long long)f->read_at, (int)f->json_len, f->json);
}

static int t_end(void *ctx)
{
	return owners_buf_adds(ctx, "end\n");
}

static const struct owners_owner_ref_meta refs[] = {
	{ "apps/v1", "ReplicaSet", "web-1", "u-rs", 1, 1 },
	{ "v1", "ConfigMap", "other", "u-other", 0, 0 },
	{ "v1", "ConfigMap", "bare", "u-bare", 0, 0 },
};
static const unsigned char ref_fields[] = { OWNERS_REF_HAS_CONTROLLER | OWNERS_REF_HAS_BLOCK_OWNER_DELETION,
					    OWNERS_REF_HAS_CONTROLLER, 0 };
static const char *const fins[] = { "example.com/hold", "foregroundDeletion" };
static const struct owners_label_meta labels[] = { { "app", "web" }, { "tier", "a \"quoted\" value" } };

static void write_snapshot(const char *path, const struct owners_resource_table *t, int format)
{
	struct owners_snapshot_writer *w = NULL;
	struct owners_error err = OWNERS_ERROR_INIT;
	struct owners_snapshot_header h = {
		NULL, NULL, 1700000000, NULL, "https://10.0.0.1:6443", "v1.36.3", NULL, 1,
		NULL, 1,    0,          0
	};
	struct owners_object_meta pod = { "web-1-abc", "shop", "u-pod", "42", "2023-11-14T22:13:20Z",
					  "2023-11-14T22:20:00Z", fins, 2, refs, 3, ref_fields, labels, 2 };
	struct owners_object_meta cm = { "cfg", "shop", "u-cm", "43", "2023-11-14T22:13:21Z", "", NULL, 0,
					 refs + 1, 1, NULL, NULL, 0 };
	struct owners_object_meta ns = { "shop", "", "u-ns", "7", "", "", NULL, 0, NULL, 0, NULL, NULL, 0 };
	struct owners_object_status st = { "1/1", "Running", OWNERS_HEALTH_OK, 1 };
	/* (the pods' list waited out an unanswered request: kept with it) */
	struct owners_snapshot_listed ok_list = { &t->items[0], NULL, "100", 0, NULL, NULL, 1, 30001, 31250 };
	struct owners_snapshot_listed refused = { &t->items[1], "shop", "", OWNERS_EFORBIDDEN,
						  "cannot list 'secrets' in namespace 'shop': forbidden",
						  "secrets is forbidden: User \"x\" cannot list", 0, 0, 0 };
	struct owners_snapshot_fact status = { OWNERS_SNAPSHOT_FACT_STATUS, "u-pod", &st, NULL, NULL, 0, 0 };
	const char *lease = "{\"spec\":{\"renewTime\":\"2023-11-14T22:13:19.000000Z\",\"leaseDurationSeconds\":15}}";
	struct owners_snapshot_fact object = { OWNERS_SNAPSHOT_FACT_OBJECT, NULL, NULL, "/apis/x/leases/kcm", lease,
					       strlen(lease), 1699999999 };

	ok(!owners_snapshot_write_open(&w, path, format, &err), "opened %s (format %d)", path,
	   format);
	owners_snapshot_write_header(w, &h, t, &err);
	owners_snapshot_write_object(w, &t->items[0], &pod, &err);
	owners_snapshot_write_object(w, &t->items[2], &cm, &err);
	owners_snapshot_write_object(w, &t->items[0], &pod, &err); /* a type again: a list of its own */
	owners_snapshot_write_object(w, &t->items[3], &ns, &err);
	owners_snapshot_write_listed(w, &ok_list, &err);
	owners_snapshot_write_listed(w, &refused, &err);
	owners_snapshot_write_fact(w, &status, &err);
	ok(!owners_snapshot_write_fact(w, &object, &err), "records written: %s", owners_error_message(&err));
	ok(!owners_snapshot_write_close(w, 1.5, &err), "closed: %s", owners_error_message(&err));
	owners_error_clear(&err);
}

/* The order a reader is told UIDs ahead and handed objects in. */
static void t_ahead(void *ctx, const struct owners_resource *r, const char *uid)
{
	if (uid)
		owners_buf_addf(ctx, "ahead %s %s\n", r->resource, uid);
	else
		owners_buf_addf(ctx, "forget %s\n", r->resource);
}

static int t_uid_only(void *ctx, const struct owners_resource *r,
		      const struct owners_object_meta *m)
{
	return owners_buf_addf(ctx, "object %s %s\n", r->resource, m->uid);
}

static int read_ahead(const char *path, struct owners_buf *out, struct owners_error *err)
{
	struct owners_snapshot_visitor v = { NULL, NULL, t_uid_only, NULL,   NULL,
					     NULL, out,  NULL,       t_ahead };

	return owners_snapshot_read(path, &v, err);
}

static int read_back(const char *path, struct owners_buf *out, struct owners_error *err)
{
	struct owners_snapshot_visitor v = { t_header, t_types, t_object, t_listed, t_fact,
					     t_end,    out,     NULL,     NULL };

	return owners_snapshot_read(path, &v, err);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *p = NULL;
	long n;

	*len = 0;
	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) > 0 && !fseek(f, 0, SEEK_SET) && (p = malloc((size_t)n)))
		*len = fread(p, 1, (size_t)n, f);
	fclose(f);
	return p;
}

static void spill(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (f) {
		fwrite(data, 1, len, f);
		fclose(f);
	}
}

/* The offset of the first frame of kind in a format 2 file; 0 if none. */
static size_t frame_of(const char *p, size_t len, char kind)
{
	size_t at = 8;

	while (at + 9 <= len) {
		size_t n = (unsigned char)p[at + 1] | (size_t)(unsigned char)p[at + 2] << 8 |
			   (size_t)(unsigned char)p[at + 3] << 16 | (size_t)(unsigned char)p[at + 4] << 24;

		if (p[at] == kind)
			return at;
		at += 9 + n;
	}
	return 0;
}

/* The frame at p (its head: kind, length, CRC32) given the CRC32 of its
 * payload as it is now. */
static void reseal(char *p)
{
	size_t n = (unsigned char)p[1] | (size_t)(unsigned char)p[2] << 8 | (size_t)(unsigned char)p[3] << 16 |
		   (size_t)(unsigned char)p[4] << 24;
	uint32_t crc = owners_crc32(p + 9, n);

	p[5] = (char)(crc & 0xff);
	p[6] = (char)((crc >> 8) & 0xff);
	p[7] = (char)((crc >> 16) & 0xff);
	p[8] = (char)(crc >> 24);
}

/* A damaged copy of the format 2 file at path is refused with want in
 * the message. */
static void refused(const char *dir, const char *data, size_t len, const char *what, const char *want)
{
	struct owners_buf b = OWNERS_BUF_INIT;
	struct owners_error err = OWNERS_ERROR_INIT;
	char bad[256];
	int rc;

	snprintf(bad, sizeof(bad), "%s/bad2.owners", dir);
	spill(bad, data, len);
	rc = read_back(bad, &b, &err);
	is_int(rc, OWNERS_EPROTO, "format 2, %s: refused", what);
	ok(strstr(owners_error_message(&err), bad) && strstr(owners_error_message(&err), want),
	   "... naming the file and '%s': %s", want, owners_error_message(&err));
	owners_buf_clear(&b);
	owners_error_clear(&err);
}

static void framed_checks(const char *dir, const struct owners_resource_table *t, const char *want)
{
	struct owners_buf b = OWNERS_BUF_INIT;
	struct owners_error err = OWNERS_ERROR_INIT;
	char path[256], gzpath[256];
	size_t len, at;
	char *p, *copy;
	int rc;

	snprintf(path, sizeof(path), "%s/s.owners", dir);
	snprintf(gzpath, sizeof(gzpath), "%s/s.owners.gz", dir);
	write_snapshot(path, t, 2);
	rc = read_back(path, &b, &err);
	is_int(rc, 0, "format 2 read back: %s", owners_error_message(&err));
	is_str(b.ptr, want, "... the same records as format 1");
	owners_error_clear(&err);
	b.len = 0;
	write_snapshot(gzpath, t, 2);
	rc = read_back(gzpath, &b, &err);
	is_int(rc, 0, "format 2 gzip read back: %s", owners_error_message(&err));
	is_str(b.ptr, want, "... the same records");
	owners_error_clear(&err);
	b.len = 0;
	rc = read_ahead(path, &b, &err);
	is_int(rc, 0, "format 2 read with UIDs told ahead: %s", owners_error_message(&err));
	is_str(b.ptr,
	       "forget pods\nahead pods u-pod\nahead pods u-rs\nahead pods u-other\nahead pods "
	       "u-bare\n"
	       "object pods u-pod\nforget pods\n"
	       "forget configmaps\nahead configmaps u-cm\nahead configmaps u-other\nobject "
	       "configmaps u-cm\n"
	       "forget configmaps\n"
	       "forget pods\nahead pods u-pod\nahead pods u-rs\nahead pods u-other\nahead pods "
	       "u-bare\n"
	       "object pods u-pod\nforget pods\n"
	       "forget namespaces\nahead namespaces u-ns\nobject namespaces u-ns\nforget "
	       "namespaces\n",
	       "each batch's UIDs (its objects' and their owners') told before its objects, and "
	       "forgotten "
	       "before and after");
	owners_error_clear(&err);
	owners_buf_clear(&b);

	p = slurp(path, &len);
	ok(p && len > 8 && !memcmp(p, "\x89OWN\r\n\x1a\n", 8), "format 2 begins with its magic");
	if (!p)
		return;
	copy = malloc(len);
	refused(dir, p, len - 3, "cut inside its last frame", "cut short inside a frame");
	at = frame_of(p, len, 'O');
	ok(at > 0, "a batch of objects is written");
	/* the batch one byte shorter, sealed again: its last object ends
	 * before its flags, which the batch's decoder says */
	memcpy(copy, p, len);
	copy[at + 1] = (char)((unsigned char)copy[at + 1] - 1);
	memmove(copy + at + 9 + ((unsigned char)p[at + 1] - 1), copy + at + 9 + (unsigned char)p[at + 1],
		len - (at + 9 + (unsigned char)p[at + 1]));
	reseal(copy + at);
	{
		char want_at[80];

		snprintf(want_at, sizeof(want_at), "byte %zu: a record cut short", at);
		refused(dir, copy, len - 1, "a batch cut short", want_at);
	}
	/* one byte of a name changed: the frame's CRC32 says so */
	memcpy(copy, p, len);
	copy[at + 20] ^= 0x01;
	{
		char want_at[120];

		snprintf(want_at, sizeof(want_at), "byte %zu: a frame whose checksum does not match its bytes", at);
		refused(dir, copy, len, "a byte changed", want_at);
	}
	/* ... in a frame a graph read passes over, too (statuses) */
	memcpy(copy, p, len);
	ok(frame_of(p, len, 'S') > 0, "a batch of statuses is written");
	copy[frame_of(p, len, 'S') + 12] ^= 0x01;
	refused(dir, copy, len, "a byte changed in the statuses", "checksum does not match");
	memcpy(copy, p, len);
	copy[at] = 'Q';
	refused(dir, copy, len, "a frame of an unknown kind", "a frame of an unknown kind (0x51)");
	memcpy(copy, p, len);
	copy[at + 4] = 0x7f;
	refused(dir, copy, len, "a frame longer than any written", "a frame larger than any a snapshot writes");
	/* without the End frame: the last J frame is End */
	{
		size_t end = 8, last = 0;

		while (end + 9 <= len) {
			size_t n = (unsigned char)p[end + 1] | (size_t)(unsigned char)p[end + 2] << 8;

			if (p[end] == 'J')
				last = end;
			end += 9 + n;
		}
		refused(dir, p, last, "without its End frame", "no End record");
	}
	free(copy);
	free(p);
}

int main(void)
{
	struct owners_resource_table t;
	struct owners_buf plain = OWNERS_BUF_INIT, gz = OWNERS_BUF_INIT, b = OWNERS_BUF_INIT;
	struct owners_error err = OWNERS_ERROR_INIT;
	char dir[] = "/tmp/test_snapshot_file.XXXXXX", path[256], gzpath[256], bad[256];
	FILE *f;
	int rc;

	owners_resource_table_init(&t);
	fake_type_add(&t, &(struct fake_type){ "", "v1", "pods", "pod", "Pod", "po", 1, 1 });
	fake_type_add(&t, &(struct fake_type){ "", "v1", "secrets", "secret", "Secret", NULL, 1, 1 });
	fake_type_add(&t, &(struct fake_type){ "", "v1", "configmaps", "configmap", "ConfigMap", "cm", 1, 1 });
	fake_type_add(&t, &(struct fake_type){ "", "v1", "namespaces", "namespace", "Namespace", "ns", 0, 1 });
	owners_resource_table_add_stale(&t, "metrics.k8s.io/v1beta1");
	free(t.failed_reasons[0]);
	t.failed_reasons[0] = strdup("ServiceNotFound: service/metrics-server is not present");
	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/s.json", dir);
	snprintf(gzpath, sizeof(gzpath), "%s/s.json.gz", dir);

	write_snapshot(path, &t, 1);
	rc = read_back(path, &plain, &err);
	is_int(rc, 0, "read back: %s", owners_error_message(&err));
	is_str(plain.ptr,
	       "header owners snapshot at=1700000000 server=https://10.0.0.1:6443 version=v1.36.3 ns=(all) "
	       "selector=(none) discovery=1\n"
	       "type v1 pods ns=1\ntype v1 secrets ns=1\ntype v1 configmaps ns=1\ntype v1 namespaces ns=0\n"
	       "failed metrics.k8s.io/v1beta1: ServiceNotFound: service/metrics-server is not present stale=1\n"
	       "object pods shop/web-1-abc uid=u-pod rv=42 created=2023-11-14T22:13:20Z deleted=2023-11-14T22:20:00Z "
	       "fin=example.com/hold fin=foregroundDeletion label=app:web label=tier:a \"quoted\" value "
	       "ref=apps/v1,ReplicaSet,web-1,u-rs,c1,b1,f3 ref=v1,ConfigMap,other,u-other,c0,b0,f1 "
	       "ref=v1,ConfigMap,bare,u-bare,c0,b0,f0\n"
	       "object configmaps shop/cfg uid=u-cm rv=43 created=2023-11-14T22:13:21Z deleted= "
	       "ref=v1,ConfigMap,other,u-other,c0,b0,f0\n"
	       "object pods shop/web-1-abc uid=u-pod rv=42 created=2023-11-14T22:13:20Z deleted=2023-11-14T22:20:00Z "
	       "fin=example.com/hold fin=foregroundDeletion label=app:web label=tier:a \"quoted\" value "
	       "ref=apps/v1,ReplicaSet,web-1,u-rs,c1,b1,f3 ref=v1,ConfigMap,other,u-other,c0,b0,f1 "
	       "ref=v1,ConfigMap,bare,u-bare,c0,b0,f0\n"
	       "object namespaces /shop uid=u-ns rv=7 created= deleted=\n"
	       "listed pods ns=(all) rv=100 code=0 message= detail=(none) waited\n"
	       "  unanswered=1 waited=30001ms took=31250ms\n"
	       "listed secrets ns=shop rv= code=-7 message=cannot list 'secrets' in namespace 'shop': forbidden "
	       "detail=secrets is forbidden: User \"x\" cannot list\n"
	       "status u-pod 1/1 Running h1 r1\n"
	       "fact 1 /apis/x/leases/kcm at=1699999999 "
	       "{\"spec\":{\"renewTime\":\"2023-11-14T22:13:19.000000Z\",\"leaseDurationSeconds\":15}}\n"
	       "end\n",
	       "every record read back as written");
	owners_error_clear(&err);

	write_snapshot(gzpath, &t, 1);
	f = fopen(gzpath, "rb");
	ok(f && fgetc(f) == 0x1f && fgetc(f) == 0x8b, "a name ending in .gz is written as gzip");
	if (f)
		fclose(f);
	rc = read_back(gzpath, &gz, &err);
	is_int(rc, 0, "gzip read back: %s", owners_error_message(&err));
	is_str(gz.ptr, plain.ptr, "... the same records as the plain file");
	owners_error_clear(&err);

	/* cut before its End record */
	snprintf(bad, sizeof(bad), "%s/cut.json", dir);
	{
		FILE *in = fopen(path, "rb"), *out = fopen(bad, "wb");
		char line[65536];

		while (in && out && fgets(line, sizeof(line), in))
			if (!strstr(line, "\"kind\":\"End\""))
				fputs(line, out);
		if (in)
			fclose(in);
		if (out)
			fclose(out);
	}
	owners_buf_clear(&b);
	rc = read_back(bad, &b, &err);
	is_int(rc, OWNERS_EPROTO, "a file without its End record is refused");
	ok(strstr(owners_error_message(&err), bad) && strstr(owners_error_message(&err), "cut short"),
	   "... naming the file: %s", owners_error_message(&err));
	owners_error_clear(&err);

	/* a later format */
	snprintf(bad, sizeof(bad), "%s/v3.json", dir);
	f = fopen(bad, "w");
	fputs("{\"apiVersion\":\"owners.dev/v1\",\"kind\":\"Snapshot\",\"format\":3}\n", f);
	fclose(f);
	rc = read_back(bad, &b, &err);
	is_int(rc, OWNERS_EPROTO, "a later format is refused");
	ok(strstr(owners_error_message(&err), "line 1: snapshot format 3; this owners reads format 2 and older: "
					      "a newer owners wrote it") != NULL,
	   "... saying which: %s", owners_error_message(&err));
	owners_error_clear(&err);

	/* format 2 in format 1's layout: damage, not a version */
	f = fopen(bad, "w");
	fputs("{\"apiVersion\":\"owners.dev/v1\",\"kind\":\"Snapshot\",\"format\":2}\n", f);
	fclose(f);
	rc = read_back(bad, &b, &err);
	is_int(rc, OWNERS_EPROTO, "a format 2 header in JSON documents is refused");
	ok(strstr(owners_error_message(&err), "line 1: a Snapshot record of format 2 in a file laid out as format 1"),
	   "... saying why: %s", owners_error_message(&err));
	owners_error_clear(&err);

	framed_checks(dir, &t, plain.ptr);

	/* an End that counts other objects than the file holds */
	snprintf(bad, sizeof(bad), "%s/count.json", dir);
	{
		FILE *in = fopen(path, "rb"), *out = fopen(bad, "wb");
		char line[65536];

		while (in && fgets(line, sizeof(line), in)) {
			char *p = strstr(line, "\"objects\":4");

			if (p)
				p[10] = '9';
			fputs(line, out);
		}
		if (in)
			fclose(in);
		if (out)
			fclose(out);
	}
	rc = read_back(bad, &b, &err);
	is_int(rc, OWNERS_EPROTO, "an End record whose count differs is refused");
	ok(strstr(owners_error_message(&err), "counts 9 objects, the file holds 4") != NULL, "... saying so: %s",
	   owners_error_message(&err));
	owners_error_clear(&err);

	/* a callback's OWNERS_ESTOP ends the read without a failure */
	{
		struct owners_snapshot_visitor v = { NULL, NULL, NULL, NULL, NULL,
						     NULL, NULL, NULL, NULL };

		ok(!owners_snapshot_read(path, &v, &err), "a read with no callbacks walks the whole file");
	}

	owners_buf_clear(&plain);
	owners_buf_clear(&gz);
	owners_buf_clear(&b);
	owners_resource_table_clear(&t);
	owners_error_clear(&err);
	snprintf(bad, sizeof(bad), "rm -rf '%s'", dir);
	if (system(bad))
		return 1;
	return tap_done();
}
