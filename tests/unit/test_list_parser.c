/*
 * The streaming list parser: every kept field of every item, the list's
 * own metadata, the same answer however the body is cut into chunks,
 * garbage refused cleanly, and a large list parsed fast.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "buf.h"
#include "owners_error.h"
#include "list_parser.h"
#include "tap.h"

/* ---- helpers ----------------------------------------------------------- */

static int read_file(struct owners_buf *out, const char *path)
{
	char chunk[4096];
	size_t n;
	FILE *f = fopen(path, "rb");

	if (!f)
		return -1;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		if (owners_buf_add(out, chunk, n)) {
			fclose(f);
			return -1;
		}
	fclose(f);
	return 0;
}

/* Every item becomes one line with every field, so whole runs can be
 * compared with strcmp. */
struct dump {
	struct owners_buf text;
	size_t items;
	int abort_at;   /* 1-based item at which to return abort_rc; 0: never */
	int abort_rc;
};

static int dump_item(void *ctx, const struct owners_object_meta *m, struct owners_error *err)
{
	struct dump *d = ctx;
	struct owners_buf *b = &d->text;
	size_t i;

	d->items++;
	if (d->abort_at && (int)d->items == d->abort_at) {
		if (d->abort_rc == OWNERS_ECONFLICT)
			owners_error_set(err, d->abort_rc, "stopped by the callback at '%s'", m->name);
		return d->abort_rc;
	}
	owners_buf_addf(b, "name=%s ns=%s uid=%s rv=%s ct=%s dt=%s fin=[", m->name, m->namespace_,
			m->uid, m->resource_version, m->creation_timestamp, m->deletion_timestamp);
	for (i = 0; i < m->n_finalizers; i++)
		owners_buf_addf(b, "%s%s", i ? "," : "", m->finalizers[i]);
	owners_buf_adds(b, "] refs=[");
	for (i = 0; i < m->n_owner_refs; i++) {
		const struct owners_owner_ref_meta *r = &m->owner_refs[i];

		owners_buf_addf(b, "%s%s %s %s %s c=%d b=%d", i ? ";" : "", r->api_version, r->kind,
				r->name, r->uid, r->controller, r->block_owner_deletion);
	}
	owners_buf_adds(b, "] labels={");
	for (i = 0; i < m->n_labels; i++)
		owners_buf_addf(b, "%s%s=%s", i ? "," : "", m->labels[i].key, m->labels[i].value);
	owners_buf_adds(b, "}\n");
	return 0;
}

/* What a parse produced: the item lines and the list's metadata. */
static void summary(struct owners_buf *out, struct owners_list_parser *p, struct dump *d, int rc)
{
	owners_buf_reset(out);
	owners_buf_addf(out, "rc=%d kind=%s apiVersion=%s rv=%s continue=%s remaining=%lld count=%zu\n%s",
			rc, owners_list_parser_kind(p), owners_list_parser_api_version(p),
			owners_list_parser_resource_version(p),
			owners_list_parser_continue_token(p),
			(long long)owners_list_parser_remaining_item_count(p),
			owners_list_parser_item_count(p), d->text.ptr);
}

/* A document and where it is cut when fed (positions, increasing). */
struct feed {
	const char *data;
	size_t len;
	const size_t *cuts;
	size_t n_cuts;
};

/* Parses data fed in the given cut points. */
static int parse_cuts(struct owners_buf *out, int keep_labels, const struct feed *in,
		      struct owners_error *err)
{
	struct owners_list_parser *p = NULL;
	struct dump d = { OWNERS_BUF_INIT, 0, 0, 0 };
	size_t at = 0, i;
	int rc;

	rc = owners_list_parser_new(&p, keep_labels, dump_item, &d);
	if (rc)
		return rc;
	for (i = 0; !rc && i <= in->n_cuts; i++) {
		size_t end = i < in->n_cuts ? in->cuts[i] : in->len;

		rc = owners_list_parser_feed(p, in->data + at, end - at, err);
		at = end;
	}
	if (!rc)
		rc = owners_list_parser_finish(p, err);
	summary(out, p, &d, rc);
	owners_buf_clear(&d.text);
	owners_list_parser_free(p);
	return rc;
}

static int parse_whole(struct owners_buf *out, int keep_labels, const char *data, size_t len,
		       struct owners_error *err)
{
	return parse_cuts(out, keep_labels, &(struct feed){ data, len, NULL, 0 }, err);
}

/* ---- fixtures: every field of every item ------------------------------- */

static const char pom_expected[] =
	"rc=0 kind=PartialObjectMetadataList apiVersion=meta.k8s.io/v1 rv=48213 "
	"continue=eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6NDgyMTMsInN0YXJ0Ijoia3ViZS1zeXN0ZW0vY29yZWRucy01ZDc4Yzk4NjlkXHUwMDAwIn0 "
	"remaining=17 count=5\n"
	"name=web-7d4f98c6b7 ns=default uid=0b6f3c2e-5d0a-4b7e-9a51-8f2f6c1d3e01 rv=48100 "
	"ct=2024-05-01T10:00:00Z dt= fin=[] "
	"refs=[apps/v1 Deployment web 6a4e8f1b-2c3d-4e5f-8a9b-0c1d2e3f4a5b c=1 b=1] "
	"labels={app=web,pod-template-hash=7d4f98c6b7}\n"
	"name=node-lease-holder ns= uid=c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f rv=301 "
	"ct=2024-04-30T08:12:45Z dt= fin=[] "
	"refs=[v1 Node kind-control-plane 9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a c=0 b=0] labels={}\n"
	"name=old-batch-28562400 ns=jobs uid=11111111-2222-4333-8444-555555555555 rv=47990 "
	"ct=2024-05-01T09:00:00Z dt=2024-05-01T10:05:00Z "
	"fin=[foregroundDeletion,batch.kubernetes.io/job-tracking] "
	"refs=[batch/v1 CronJob old-batch 22222222-3333-4444-8555-666666666666 c=1 b=1;"
	"example.com/v1alpha1 Widget gadget 33333333-4444-4555-8666-777777777777 c=0 b=0;"
	"v1 ConfigMap settings 44444444-5555-4666-8777-888888888888 c=0 b=1] "
	"labels={batch.kubernetes.io/controller-uid=22222222-3333-4444-8555-666666666666,"
	"team=caf\xc3\xa9 \"quoted\"}\n"
	"name=stuck-namespace ns= uid=55555555-6666-4777-8888-999999999999 rv=48001 "
	"ct=2024-04-29T00:00:00Z dt=2024-04-30T00:00:00Z fin=[example.com/cleanup] refs=[] "
	"labels={kubernetes.io/metadata.name=stuck-namespace}\n"
	"name=coredns-5d78c9869d ns=kube-system uid=66666666-7777-4888-8999-aaaaaaaaaaaa rv=512 "
	"ct=2024-04-30T08:13:00Z dt= fin=[] "
	"refs=[apps/v1 Deployment coredns 77777777-8888-4999-8aaa-bbbbbbbbbbbb c=1 b=1] labels={}\n";

static const char pods_expected[] =
	"rc=0 kind=PodList apiVersion=v1 rv=5123 continue= remaining=-1 count=2\n"
	"name=web-7d4f98c6b7-x2k9p ns=default uid=aaaaaaaa-0000-4000-8000-000000000001 rv=5001 "
	"ct=2024-05-01T10:00:01Z dt= fin=[] "
	"refs=[apps/v1 ReplicaSet web-7d4f98c6b7 0b6f3c2e-5d0a-4b7e-9a51-8f2f6c1d3e01 c=1 b=1] "
	"labels={}\n"
	"name=scratch-user ns=batch uid=aaaaaaaa-0000-4000-8000-000000000002 rv=5100 "
	"ct=2024-05-01T10:01:00Z dt=2024-05-01T10:02:00Z fin=[kubernetes.io/pvc-protection-test] "
	"refs=[batch/v1 Job scratch bbbbbbbb-0000-4000-8000-000000000003 c=1 b=1] labels={}\n";

static void test_fixtures(void)
{
	struct owners_buf pom = OWNERS_BUF_INIT, pods = OWNERS_BUF_INIT, got = OWNERS_BUF_INIT;
	struct owners_error err = OWNERS_ERROR_INIT;
	int rc;

	ok(!read_file(&pom, "data/list_partial_metadata.json"), "read the PartialObjectMetadataList fixture");
	ok(!read_file(&pods, "data/list_pods.json"), "read the PodList fixture");

	rc = parse_whole(&got, 1, pom.ptr, pom.len, &err);
	is_int(rc, 0, "PartialObjectMetadataList parses");
	is_str(got.ptr, pom_expected, "every field of every item, labels kept, list metadata");
	owners_error_clear(&err);

	rc = parse_whole(&got, 0, pom.ptr, pom.len, &err);
	is_int(rc, 0, "PartialObjectMetadataList parses without labels");
	ok(strstr(got.ptr, "labels={app") == NULL && strstr(got.ptr, "labels={}\n"),
	   "labels are skipped when not asked for");

	rc = parse_whole(&got, 0, pods.ptr, pods.len, &err);
	is_int(rc, 0, "a full PodList parses");
	is_str(got.ptr, pods_expected,
	       "spec/status skipped, nested metadata in spec ignored, metadata after spec found");
	owners_error_clear(&err);

	owners_buf_clear(&pom);
	owners_buf_clear(&pods);
	owners_buf_clear(&got);
}

/* ---- chunking: the same answer for every split ------------------------- */

static void test_splits(const char *path, int keep_labels)
{
	struct owners_buf doc = OWNERS_BUF_INIT, want = OWNERS_BUF_INIT, got = OWNERS_BUF_INIT;
	struct owners_error err = OWNERS_ERROR_INIT;
	size_t i, bad = 0, first_bad = 0;
	size_t *cuts;

	if (read_file(&doc, path)) {
		ok(0, "read %s", path);
		return;
	}
	is_int(parse_whole(&want, keep_labels, doc.ptr, doc.len, &err), 0, "%s parses whole", path);

	for (i = 0; i <= doc.len; i++) {
		int rc = parse_cuts(&got, keep_labels, &(struct feed){ doc.ptr, doc.len, &i, 1 }, &err);

		if (rc || strcmp(got.ptr, want.ptr)) {
			if (!bad++)
				first_bad = i;
		}
		owners_error_clear(&err);
	}
	ok(!bad, "%s split in two at each of its %zu boundaries: identical results (first bad %zu)",
	   path, doc.len + 1, first_bad);

	cuts = malloc(doc.len * sizeof(*cuts));
	for (i = 0; cuts && i < doc.len; i++)
		cuts[i] = i + 1;
	is_int(parse_cuts(&got, keep_labels,
			  &(struct feed){ doc.ptr, doc.len, cuts, cuts ? doc.len : 0 }, &err),
	       0,
	       "%s fed byte by byte parses", path);
	is_str(got.ptr, want.ptr, "%s fed byte by byte: identical results", path);
	free(cuts);

	owners_error_clear(&err);
	owners_buf_clear(&doc);
	owners_buf_clear(&want);
	owners_buf_clear(&got);
}

/* ---- garbage ----------------------------------------------------------- */

struct bad_case {
	const char *json;
	int keep_labels;
	const char *message; /* a part of the expected message */
};

static const struct bad_case bad_cases[] = {
	{ "", 0, "empty list response" },
	{ "   \n", 0, "empty list response" },
	{ "not json", 0, "invalid JSON" },
	{ "{\"items\":[", 0, "" },
	{ "{\"items\":[{\"metadata\":{\"name\":\"a\"", 0, "" },
	{ "[]", 0, "the document is an array, expected an object" },
	{ "\"PodList\"", 0, "the document is a string, expected an object" },
	{ "{\"items\":{}}", 0, "'items' is an object, expected an array" },
	{ "{\"items\":\"none\"}", 0, "'items' is a string, expected an array" },
	{ "{\"items\":[1]}", 0, "'items[0]' is a number, expected an object" },
	{ "{\"items\":[{\"metadata\":{}},\"x\"]}", 0, "'items[1]' is a string, expected an object" },
	{ "{\"items\":[null]}", 0, "'items[0]' is null, expected an object" },
	{ "{\"items\":[{\"metadata\":\"x\"}]}", 0,
	  "'items[0].metadata' is a string, expected an object" },
	{ "{\"items\":[{\"metadata\":[]}]}", 0, "'items[0].metadata' is an array, expected an object" },
	{ "{\"items\":[{\"spec\":{}}]}", 0, "'items[0]' has no metadata" },
	{ "{\"items\":[{\"metadata\":{\"name\":5}}]}", 0,
	  "'items[0].metadata.name' is a number, expected a string" },
	{ "{\"items\":[{\"metadata\":{\"uid\":{\"a\":1}}}]}", 0,
	  "'items[0].metadata.uid' is an object, expected a string" },
	{ "{\"items\":[{\"metadata\":{\"uid\":\"a\\u0000b\"}}]}", 0,
	  "'items[0].metadata.uid' contains a NUL character" },
	{ "{\"items\":[{\"metadata\":{\"finalizers\":\"x\"}}]}", 0,
	  "'items[0].metadata.finalizers' is a string, expected an array" },
	{ "{\"items\":[{\"metadata\":{\"finalizers\":[\"a\",1]}}]}", 0,
	  "'items[0].metadata.finalizers[1]' is a number, expected a string" },
	{ "{\"items\":[{\"metadata\":{\"ownerReferences\":{}}}]}", 0,
	  "'items[0].metadata.ownerReferences' is an object, expected an array" },
	{ "{\"items\":[{\"metadata\":{\"ownerReferences\":[{},\"x\"]}}]}", 0,
	  "'items[0].metadata.ownerReferences[1]' is a string, expected an object" },
	{ "{\"items\":[{\"metadata\":{\"ownerReferences\":[{\"controller\":\"yes\"}]}}]}", 0,
	  "'items[0].metadata.ownerReferences[0].controller' is a string, expected a boolean" },
	{ "{\"items\":[{\"metadata\":{\"ownerReferences\":[{\"uid\":[]}]}}]}", 0,
	  "'items[0].metadata.ownerReferences[0].uid' is an array, expected a string" },
	{ "{\"items\":[{\"metadata\":{\"labels\":[]}}]}", 1,
	  "'items[0].metadata.labels' is an array, expected an object" },
	{ "{\"items\":[{\"metadata\":{\"labels\":{\"app\":1}}}]}", 1,
	  "'items[0].metadata.labels.app' is a number, expected a string" },
	{ "{\"items\":[{\"metadata\":{\"labels\":{\"a\":\"b\",\"k\\u0000\":\"v\"}}}]}", 1,
	  "'items[0].metadata.labels.' contains a NUL character" },
	{ "{\"items\":[{\"metadata\":{\"labels\":{\"app\":\"v\\u0000\"}}}]}", 1,
	  "'items[0].metadata.labels.app' contains a NUL character" },
	{ "{\"items\":[{\"metadata\":{\"ownerReferences\":[{\"uid\":\"\\u0000\"}]}}]}", 0,
	  "'items[0].metadata.ownerReferences[0].uid' contains a NUL character" },
	{ "{\"metadata\":{\"continue\":\"a\\u0000\"},\"items\":[]}", 0,
	  "'metadata.continue' contains a NUL character" },
	{ "{\"metadata\":\"x\",\"items\":[]}", 0, "'metadata' is a string, expected an object" },
	{ "{\"metadata\":{\"continue\":7},\"items\":[]}", 0,
	  "'metadata.continue' is a number, expected a string" },
	{ "{\"metadata\":{\"remainingItemCount\":\"3\"},\"items\":[]}", 0,
	  "'metadata.remainingItemCount' is a string, expected a number" },
	{ "{\"metadata\":{\"remainingItemCount\":-1},\"items\":[]}", 0,
	  "expected a non-negative integer" },
	{ "{\"metadata\":{\"remainingItemCount\":1.5},\"items\":[]}", 0,
	  "expected a non-negative integer" },
	{ "{\"kind\":[],\"items\":[]}", 0, "'kind' is an array, expected a string" },
	{ "{\"items\":[]} x", 0, "invalid JSON" },
	{ "{\"items\":[]}{\"items\":[]}", 0, "invalid JSON" },
	{ "{\"items\":[{\"metadata\":{\"name\":\"\xff\xfe\"}}]}", 0, "invalid JSON" },
	{ "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"x\"}}", 0, "a 'Pod' has no 'items'" },
	{ "{}", 0, "no 'items'" },
	{ "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
	  "\"message\":\"The provided continue parameter is too old to display a consistent list "
	  "result.\",\"reason\":\"Expired\",\"code\":410}",
	  0, "the server sent a status instead of a list: Expired: The provided continue parameter" },
};

static void test_garbage(void)
{
	struct owners_buf got = OWNERS_BUF_INIT;
	size_t i;

	for (i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		const struct bad_case *c = &bad_cases[i];
		struct owners_error err = OWNERS_ERROR_INIT;
		int rc = parse_whole(&got, c->keep_labels, c->json, strlen(c->json), &err);

		is_int(rc, OWNERS_EPROTO, "garbage %zu is refused", i);
		ok(err.code == OWNERS_EPROTO && strstr(owners_error_message(&err), c->message),
		   "garbage %zu says '%s'", i, c->message);
		if (!strstr(owners_error_message(&err), c->message))
			printf("#   message: %s\n", owners_error_message(&err));
		owners_error_clear(&err);
	}

	/* Labels of the wrong shape do not matter when labels are not kept. */
	{
		struct owners_error err = OWNERS_ERROR_INIT;
		const char *doc = "{\"items\":[{\"metadata\":{\"labels\":[1,{\"a\":[]}],\"name\":\"n\"}}]}";

		is_int(parse_whole(&got, 0, doc, strlen(doc), &err), 0,
		       "skipped labels are not checked");
		owners_error_clear(&err);
	}
	owners_buf_clear(&got);
}

/* Valid documents at the edges of the shape. */
static void test_edges(void)
{
	static const struct {
		const char *json;
		const char *want;
	} cases[] = {
		{ "{\"items\":null}", "rc=0 kind= apiVersion= rv= continue= remaining=-1 count=0\n" },
		{ "{\"items\":[],\"metadata\":{\"remainingItemCount\":null,\"continue\":null}}",
		  "rc=0 kind= apiVersion= rv= continue= remaining=-1 count=0\n" },
		{ "{\"metadata\":{\"remainingItemCount\":0},\"items\":[]}",
		  "rc=0 kind= apiVersion= rv= continue= remaining=0 count=0\n" },
		{ " \n{\"items\":[{\"metadata\":{\"name\":\"a\",\"finalizers\":null,\"ownerReferences\":null,"
		  "\"labels\":null,\"deletionTimestamp\":null,\"creationTimestamp\":null}}]} \n",
		  "rc=0 kind= apiVersion= rv= continue= remaining=-1 count=1\n"
		  "name=a ns= uid= rv= ct= dt= fin=[] refs=[] labels={}\n" },
		{ "{\"items\":[{\"metadata\":{\"ownerReferences\":[{\"controller\":null,\"kind\":\"K\"}],"
		  "\"finalizers\":[\"a\"],\"finalizers\":[\"b\"]}}]}",
		  "rc=0 kind= apiVersion= rv= continue= remaining=-1 count=1\n"
		  "name= ns= uid= rv= ct= dt= fin=[b] refs=[ K   c=0 b=0] labels={}\n" },
		{ "{\"items\":[{\"metadata\":{\"labels\":{\"a\":null,\"b\":\"\"}}}]}",
		  "rc=0 kind= apiVersion= rv= continue= remaining=-1 count=1\n"
		  "name= ns= uid= rv= ct= dt= fin=[] refs=[] labels={b=}\n" },
	};
	struct owners_buf got = OWNERS_BUF_INIT;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct owners_error err = OWNERS_ERROR_INIT;

		parse_whole(&got, 1, cases[i].json, strlen(cases[i].json), &err);
		is_str(got.ptr, cases[i].want, "valid edge case %zu parses as expected", i);
		owners_error_clear(&err);
	}
	owners_buf_clear(&got);
}

static void test_truncation(void)
{
	struct owners_buf doc = OWNERS_BUF_INIT, got = OWNERS_BUF_INIT;
	size_t i, end, wrong = 0;

	if (read_file(&doc, "data/list_partial_metadata.json")) {
		ok(0, "read fixture");
		return;
	}
	end = strrchr(doc.ptr, '}') - doc.ptr;
	for (i = 0; i <= end; i++) {
		struct owners_error err = OWNERS_ERROR_INIT;

		if (parse_whole(&got, 1, doc.ptr, i, &err) != OWNERS_EPROTO ||
		    err.code != OWNERS_EPROTO)
			wrong++;
		owners_error_clear(&err);
	}
	is_int(wrong, 0, "every one of the %zu truncations of the fixture is OWNERS_EPROTO", end + 1);
	owners_buf_clear(&doc);
	owners_buf_clear(&got);
}

static void test_status_kind(void)
{
	const char *doc = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},"
			  "\"status\":\"Failure\",\"message\":\"forbidden\",\"code\":403}";
	struct owners_list_parser *p = NULL;
	struct owners_error err = OWNERS_ERROR_INIT;

	owners_list_parser_new(&p, 0, NULL, NULL);
	is_int(owners_list_parser_feed(p, doc, strlen(doc), &err), 0, "a Status feeds");
	is_int(owners_list_parser_finish(p, &err), OWNERS_EPROTO, "a Status is not a list");
	is_str(owners_list_parser_kind(p), "Status", "its kind is visible");
	is_str(owners_error_message(&err), "the server sent a status instead of a list: forbidden",
	       "the message carries the Status's message");
	owners_error_clear(&err);
	owners_list_parser_free(p);
}

/* ---- callback, reuse, depth -------------------------------------------- */

static void test_callback_abort(void)
{
	struct owners_buf doc = OWNERS_BUF_INIT;
	struct owners_list_parser *p = NULL;
	struct owners_error err = OWNERS_ERROR_INIT;
	struct dump d = { OWNERS_BUF_INIT, 0, 2, OWNERS_ECONFLICT };
	int rc;

	read_file(&doc, "data/list_partial_metadata.json");
	is_int(owners_list_parser_new(&p, 0, dump_item, &d), 0, "parser made");
	rc = owners_list_parser_feed(p, doc.ptr, doc.len, &err);
	is_int(rc, OWNERS_ECONFLICT, "the callback's code comes back from the feed");
	is_str(owners_error_message(&err), "stopped by the callback at 'node-lease-holder'",
	       "with the callback's message");
	is_int(d.items, 2, "no item after the aborting one");
	is_int(owners_list_parser_item_count(p), 2, "item_count counts the aborting item");
	owners_error_clear(&err);
	is_int(owners_list_parser_feed(p, "", 0, &err), OWNERS_ECONFLICT, "a failed parser stays failed");
	is_int(owners_list_parser_finish(p, &err), OWNERS_ECONFLICT, "finish too");
	owners_error_clear(&err);

	/* No message from the callback: the code's own text. */
	owners_list_parser_reset(p);
	d.items = 0;
	d.abort_at = 1;
	d.abort_rc = OWNERS_ENOMEM;
	rc = owners_list_parser_feed(p, doc.ptr, doc.len, &err);
	is_int(rc, OWNERS_ENOMEM, "after a reset the parser runs again (and aborts again)");
	is_str(owners_error_message(&err), "out of memory", "generic message");
	owners_error_clear(&err);

	d.abort_at = 3;
	d.abort_rc = 7;
	owners_list_parser_reset(p);
	d.items = 0;
	is_int(owners_list_parser_feed(p, doc.ptr, doc.len, &err), OWNERS_EINVAL,
	       "a positive callback result stops the parse as OWNERS_EINVAL");
	owners_error_clear(&err);

	owners_buf_clear(&d.text);
	owners_buf_clear(&doc);
	owners_list_parser_free(p);
}

static void test_reuse(void)
{
	const char *a = "{\"kind\":\"PodList\",\"metadata\":{\"continue\":\"tok\",\"resourceVersion\":\"9\","
			"\"remainingItemCount\":3},\"items\":[{\"metadata\":{\"name\":\"a\"}}]}";
	const char *b = "{\"items\":[{\"metadata\":{\"name\":\"b\"}},{\"metadata\":{\"name\":\"c\"}}]}";
	struct owners_list_parser *p = NULL;
	struct owners_error err = OWNERS_ERROR_INIT;
	struct dump d = { OWNERS_BUF_INIT, 0, 0, 0 };

	owners_list_parser_new(&p, 0, dump_item, &d);
	owners_list_parser_feed(p, a, strlen(a), &err);
	is_int(owners_list_parser_finish(p, &err), 0, "first page");
	is_str(owners_list_parser_continue_token(p), "tok", "first page's continue token");
	is_int(owners_list_parser_remaining_item_count(p), 3, "remainingItemCount");
	owners_list_parser_reset(p);
	is_str(owners_list_parser_continue_token(p), "", "reset forgets the continue token");
	is_int(owners_list_parser_remaining_item_count(p), -1, "and the remaining count");
	is_int(owners_list_parser_item_count(p), 0, "and the item count");
	owners_list_parser_feed(p, b, strlen(b), &err);
	is_int(owners_list_parser_finish(p, &err), 0, "second page");
	is_str(owners_list_parser_continue_token(p), "", "last page: no continue token");
	is_str(owners_list_parser_kind(p), "", "no kind in the second document");
	is_int(owners_list_parser_item_count(p), 2, "second page's items");
	is_int(d.items, 3, "three items in all");

	/* A feed after a truncated document has failed, then a clean retry. */
	owners_list_parser_reset(p);
	owners_list_parser_feed(p, b, 10, &err);
	is_int(owners_list_parser_finish(p, &err), OWNERS_EPROTO, "truncated page fails");
	owners_error_clear(&err);
	owners_list_parser_reset(p);
	owners_list_parser_feed(p, b, strlen(b), &err);
	is_int(owners_list_parser_finish(p, &err), 0, "the retry after reset succeeds");

	owners_error_clear(&err);
	owners_buf_clear(&d.text);
	owners_list_parser_free(p);
	owners_list_parser_free(NULL);
}

static void test_deep_nesting(void)
{
	struct owners_buf doc = OWNERS_BUF_INIT, got = OWNERS_BUF_INIT;
	struct owners_error err = OWNERS_ERROR_INIT;
	size_t depth = 100000, i;
	int rc;

	owners_buf_adds(&doc, "{\"items\":[{\"status\":");
	for (i = 0; i < depth; i++)
		owners_buf_adds(&doc, i % 2 ? "[" : "{\"a\":");
	owners_buf_adds(&doc, "1");
	for (i = depth; i-- > 0;)
		owners_buf_adds(&doc, i % 2 ? "]" : "}");
	owners_buf_adds(&doc, ",\"metadata\":{\"name\":\"deep\",\"annotations\":{\"x\":\"y\"}}}]}");
	rc = parse_whole(&got, 0, doc.ptr, doc.len, &err);
	is_int(rc, 0, "an item with %zu levels of skipped nesting parses", depth);
	ok(strstr(got.ptr, "name=deep ") != NULL, "and its metadata is read");
	if (rc)
		printf("#   %s\n", owners_error_message(&err));
	owners_error_clear(&err);
	owners_buf_clear(&doc);
	owners_buf_clear(&got);
}

/* ---- a large list ------------------------------------------------------ */

struct big {
	size_t items, refs, sample_ok;
};

static int big_item(void *ctx, const struct owners_object_meta *m, struct owners_error *err)
{
	struct big *b = ctx;

	if (b->items == 12341 && !strcmp(m->name, "pod-12341") &&
	    !strcmp(m->uid, "00000000-0000-4000-8000-000000012341") &&
	    !strcmp(m->namespace_, "ns-41") && m->n_owner_refs == 1 &&
	    !strcmp(m->owner_refs[0].name, "rs-1234") && m->owner_refs[0].controller &&
	    m->n_finalizers == 1 && !strcmp(m->finalizers[0], "example.com/f"))
		b->sample_ok = 1;
	b->items++;
	b->refs += m->n_owner_refs;
	return 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void test_large(void)
{
	const size_t n = 50000, chunk = 16384;
	struct owners_buf doc = OWNERS_BUF_INIT;
	struct owners_list_parser *p = NULL;
	struct owners_error err = OWNERS_ERROR_INIT;
	struct big b = { 0, 0, 0 };
	size_t i, at;
	double t0, dt;
	int rc = 0;

	/* Shaped like a real PartialObjectMetadataList of pods: about 1.3 kB
	 * per item, most of it managedFields and annotations to skip. */
	owners_buf_adds(&doc, "{\"kind\":\"PartialObjectMetadataList\",\"apiVersion\":\"meta.k8s.io/v1\","
			      "\"metadata\":{\"resourceVersion\":\"777\"},\"items\":[");
	for (i = 0; i < n; i++)
		owners_buf_addf(
			&doc,
			"%s{\"kind\":\"PartialObjectMetadata\",\"apiVersion\":\"meta.k8s.io/v1\",\"metadata\":{"
			"\"name\":\"pod-%zu\",\"generateName\":\"rs-%zu-\",\"namespace\":\"ns-%zu\","
			"\"uid\":\"00000000-0000-4000-8000-%012zu\",\"resourceVersion\":\"%zu\","
			"\"creationTimestamp\":\"2024-05-01T10:00:00Z\","
			"\"labels\":{\"app\":\"app-%zu\",\"pod-template-hash\":\"5d78c9869d\"},"
			"\"annotations\":{\"kubectl.kubernetes.io/restartedAt\":\"2024-05-01T10:00:00Z\","
			"\"prometheus.io/scrape\":\"true\"},"
			"\"ownerReferences\":[{\"apiVersion\":\"apps/v1\",\"kind\":\"ReplicaSet\","
			"\"name\":\"rs-%zu\",\"uid\":\"11111111-0000-4000-8000-%012zu\",\"controller\":true,"
			"\"blockOwnerDeletion\":true}],%s"
			"\"managedFields\":[{\"manager\":\"kube-controller-manager\",\"operation\":\"Update\","
			"\"apiVersion\":\"v1\",\"time\":\"2024-05-01T10:00:00Z\",\"fieldsType\":\"FieldsV1\","
			"\"fieldsV1\":{\"f:metadata\":{\"f:generateName\":{},\"f:labels\":{\".\":{},\"f:app\":{},"
			"\"f:pod-template-hash\":{}},\"f:ownerReferences\":{\".\":{},\"k:{\\\"uid\\\":\\\"11111111\\\"}\":{}}},"
			"\"f:spec\":{\"f:containers\":{\"k:{\\\"name\\\":\\\"main\\\"}\":{\".\":{},\"f:image\":{},"
			"\"f:imagePullPolicy\":{},\"f:name\":{},\"f:resources\":{},\"f:terminationMessagePath\":{},"
			"\"f:terminationMessagePolicy\":{}}},\"f:dnsPolicy\":{},\"f:enableServiceLinks\":{},"
			"\"f:restartPolicy\":{},\"f:schedulerName\":{},\"f:securityContext\":{},"
			"\"f:terminationGracePeriodSeconds\":{}}}},{\"manager\":\"kubelet\",\"operation\":\"Update\","
			"\"apiVersion\":\"v1\",\"time\":\"2024-05-01T10:00:03Z\",\"fieldsType\":\"FieldsV1\","
			"\"fieldsV1\":{\"f:status\":{\"f:conditions\":{\"k:{\\\"type\\\":\\\"Ready\\\"}\":{\".\":{},"
			"\"f:lastProbeTime\":{},\"f:lastTransitionTime\":{},\"f:status\":{},\"f:type\":{}}},"
			"\"f:containerStatuses\":{},\"f:hostIP\":{},\"f:phase\":{},\"f:podIP\":{},\"f:startTime\":{}}},"
			"\"subresource\":\"status\"}]}}",
			i ? "," : "", i, i / 10, i % 100, i, 1000 + i, i % 50, i / 10, i / 10,
			i % 7 ? "" : "\"finalizers\":[\"example.com/f\"],");
	owners_buf_adds(&doc, "]}");

	owners_list_parser_new(&p, 0, big_item, &b);
	t0 = now();
	for (at = 0; !rc && at < doc.len; at += chunk)
		rc = owners_list_parser_feed(p, doc.ptr + at, doc.len - at < chunk ? doc.len - at : chunk,
					     &err);
	if (!rc)
		rc = owners_list_parser_finish(p, &err);
	dt = now() - t0;
	is_int(rc, 0, "a %zu-item list (%.1f MB) parses", n, doc.len / 1e6);
	is_int(b.items, n, "every item seen");
	is_int(owners_list_parser_item_count(p), n, "item_count agrees");
	is_int(b.refs, n, "every owner reference seen");
	ok(b.sample_ok, "item 12341 has the right name, namespace, uid, owner and finalizer");
	is_str(owners_list_parser_resource_version(p), "777", "list resourceVersion");
	printf("# throughput: %.1f MB/s, %.0f items/s (%zu items, %.1f MB in %.3f s%s)\n",
	       doc.len / 1e6 / dt, n / dt, n, doc.len / 1e6, dt,
#if defined(__SANITIZE_ADDRESS__)
	       ", under ASan"
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
	       ", under ASan"
#else
	       ""
#endif
#else
	       ""
#endif
	);
	owners_error_clear(&err);
	owners_list_parser_free(p);
	owners_buf_clear(&doc);
}

int main(void)
{
	test_fixtures();
	test_splits("data/list_partial_metadata.json", 1);
	test_splits("data/list_pods.json", 0);
	test_garbage();
	test_edges();
	test_truncation();
	test_status_kind();
	test_callback_abort();
	test_reuse();
	test_deep_nesting();
	test_large();
	return tap_done();
}
