/* Other people's dumps through the snapshot visitor (lib/snapshot/snapshot_dump.c):
 * each format written by the test into a temporary directory, in the shape
 * its tool writes it, and what the visitor hears of it, as a transcript. */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "buf.h"
#include "snapshot_dump.h"
#include "snapshot_dump_types.h"
#include "tap.h"

static char root[] = "/tmp/owners-test-dump.XXXXXX";

/* ---- fixtures ------------------------------------------------------------- */

/* Writes root/rel (parents made), with mtime when not 0. */
static void put(const char *rel, const char *text, time_t mtime)
{
	struct owners_buf p = OWNERS_BUF_INIT;
	char *slash;
	FILE *f;

	owners_buf_addf(&p, "%s/%s", root, rel);
	for (slash = strchr(p.ptr + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = 0;
		mkdir(p.ptr, 0700);
		*slash = '/';
	}
	f = fopen(p.ptr, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	if (mtime) {
		struct timeval tv[2] = { { mtime, 0 }, { mtime, 0 } };

		utimes(p.ptr, tv);
	}
	owners_buf_clear(&p);
}

static const char *at(const char *rel)
{
	static struct owners_buf p = OWNERS_BUF_INIT;

	owners_buf_reset(&p);
	owners_buf_addf(&p, "%s/%s", root, rel);
	return p.ptr;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* ---- the transcript -------------------------------------------------------- */

struct seen {
	struct owners_buf text;
	int headers, ends;
	int stop_after; /* objects before OWNERS_ESTOP; 0 never */
	int objects;
};

#define SEEN_INIT                                                                                  \
	{                                                                                          \
		OWNERS_BUF_INIT, 0, 0, 0, 0                                                        \
	}

static int v_header(void *ctx, const struct owners_snapshot_header *h)
{
	struct seen *s = ctx;

	s->headers++;
	owners_buf_addf(&s->text, "header %s at=%lld from=%s version=%s ns=%s cluster=%d disc=%d\n",
			h->format, (long long)h->taken_at,
			h->taken_at_from ? h->taken_at_from : "-", h->server_version,
			h->namespace_ ? h->namespace_ : "*", h->cluster_scoped, h->has_discovery);
	return 0;
}

static int v_types(void *ctx, const struct owners_resource_table *t)
{
	struct seen *s = ctx;
	size_t i;

	for (i = 0; i < t->count; i++) {
		const struct owners_resource *r = &t->items[i];

		owners_buf_addf(&s->text, "type %s %s %s/%s ns=%d status=%d tracked=%d verbs=%u\n",
				r->api_version, r->kind, r->resource, r->singular, r->namespaced,
				r->has_status, r->gc_tracked, r->verbs);
	}
	return 0;
}

static int v_object(void *ctx, const struct owners_resource *type,
		    const struct owners_object_meta *m)
{
	struct seen *s = ctx;
	size_t i;

	owners_buf_addf(&s->text, "object %s %s/%s uid=%s rv=%s created=%s deleted=%s",
			type->resource, m->namespace_, m->name, m->uid, m->resource_version,
			m->creation_timestamp, m->deletion_timestamp);
	for (i = 0; i < m->n_finalizers; i++)
		owners_buf_addf(&s->text, " fin=%s", m->finalizers[i]);
	for (i = 0; i < m->n_labels; i++)
		owners_buf_addf(&s->text, " label=%s:%s", m->labels[i].key, m->labels[i].value);
	for (i = 0; i < m->n_owner_refs; i++)
		owners_buf_addf(&s->text, " ref=%s/%s/%s/%s/c%d/b%d/f%u",
				m->owner_refs[i].api_version, m->owner_refs[i].kind,
				m->owner_refs[i].name, m->owner_refs[i].uid,
				m->owner_refs[i].controller, m->owner_refs[i].block_owner_deletion,
				m->owner_ref_fields ? m->owner_ref_fields[i] : 9);
	owners_buf_adds(&s->text, "\n");
	return s->stop_after && ++s->objects == s->stop_after ? OWNERS_ESTOP : 0;
}

static int v_listed(void *ctx, const struct owners_snapshot_listed *l)
{
	struct seen *s = ctx;

	owners_buf_addf(&s->text, "listed %s %s rv=%s code=%d\n", l->type->resource,
			l->namespace_ ? l->namespace_ : "*", l->resource_version, l->code);
	return 0;
}

static int v_fact(void *ctx, const struct owners_snapshot_fact *f)
{
	struct seen *s = ctx;

	if (f->kind == OWNERS_SNAPSHOT_FACT_STATUS)
		owners_buf_addf(&s->text, "status %s %s %s\n", f->uid, f->status->ready,
				f->status->status);
	else
		owners_buf_addf(&s->text, "fact %s %s %.*s\n",
				f->kind == OWNERS_SNAPSHOT_FACT_EVENT        ? "event"
				: f->kind == OWNERS_SNAPSHOT_FACT_POD_CLAIMS ? "pod_claims"
									     : "object",
				f->path ? f->path : "-", (int)f->json_len, f->json);
	return 0;
}

static int v_end(void *ctx)
{
	struct seen *s = ctx;

	s->ends++;
	owners_buf_adds(&s->text, "end\n");
	return 0;
}

/* Reads root/rel; the transcript in s, the error in err. */
static int read_dump(struct seen *s, struct owners_snapshot_dump_counts *c, const char *rel,
		     struct owners_error *err)
{
	struct owners_snapshot_visitor v = { v_header, v_types, v_object, v_listed, v_fact,
					     v_end,    s,       NULL,     NULL };
	int stop = s->stop_after;

	owners_buf_clear(&s->text);
	memset(s, 0, sizeof(*s));
	owners_buf_init(&s->text);
	s->stop_after = stop;
	owners_error_clear(err);
	return owners_snapshot_dump_read_counted(c, rel[0] == '-' ? rel : at(rel), &v, err);
}

static int has(const struct seen *s, const char *line)
{
	return strstr(s->text.ptr, line) != NULL;
}

static size_t count_of(const struct seen *s, const char *what)
{
	size_t n = 0;
	const char *p = s->text.ptr;

	while ((p = strstr(p, what))) {
		n++;
		p++;
	}
	return n;
}

/* ---- kubectl get -o json|yaml ----------------------------------------------- */

/* kubectl get all,ep,netpol,nodes -A -o json: a List of mixed kinds, keys as
 * kubectl sorts them (apiVersion, items, kind, metadata). */
static const char list_json[] =
	"{\n"
	"    \"apiVersion\": \"v1\",\n"
	"    \"items\": [\n"
	"        {\"apiVersion\": \"apps/v1\", \"kind\": \"Deployment\", \"metadata\": {\"name\": "
	"\"web\",\n"
	"         \"namespace\": \"demo\", \"uid\": \"d-1\", \"resourceVersion\": \"10\",\n"
	"         \"creationTimestamp\": \"2026-01-01T00:00:00Z\", \"managedFields\": "
	"[{\"manager\": \"x\"}]},\n"
	"         \"spec\": {\"replicas\": 2}, \"status\": {\"replicas\": 2, \"readyReplicas\": "
	"1}},\n"
	"        {\"apiVersion\": \"apps/v1\", \"kind\": \"ReplicaSet\", \"metadata\": {\"name\": "
	"\"web-1\",\n"
	"         \"namespace\": \"demo\", \"uid\": \"r-1\", \"ownerReferences\": "
	"[{\"apiVersion\": \"apps/v1\",\n"
	"         \"kind\": \"Deployment\", \"name\": \"web\", \"uid\": \"d-1\", \"controller\": "
	"true,\n"
	"         \"blockOwnerDeletion\": true}]}, \"status\": {\"replicas\": 2, "
	"\"readyReplicas\": 2}},\n"
	"        {\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"metadata\": {\"name\": \"web-1-a\", "
	"\"namespace\": \"demo\",\n"
	"         \"uid\": \"p-1\", \"labels\": {\"app\": \"web\"}, \"finalizers\": "
	"[\"example.com/hold\"],\n"
	"         \"deletionTimestamp\": \"2026-01-02T00:00:00Z\", \"ownerReferences\": "
	"[{\"apiVersion\": \"apps/v1\",\n"
	"         \"kind\": \"ReplicaSet\", \"name\": \"web-1\", \"uid\": \"r-1\", \"controller\": "
	"false}]},\n"
	"         \"status\": {\"phase\": \"Running\"}},\n"
	"        {\"apiVersion\": \"v1\", \"kind\": \"Endpoints\", \"metadata\": {\"name\": "
	"\"web\", \"namespace\": \"other\",\n"
	"         \"uid\": \"e-1\"}},\n"
	"        {\"apiVersion\": \"networking.k8s.io/v1\", \"kind\": \"NetworkPolicy\", "
	"\"metadata\": {\"name\": \"deny\",\n"
	"         \"namespace\": \"demo\", \"uid\": \"n-1\"}},\n"
	"        {\"apiVersion\": \"v1\", \"kind\": \"Node\", \"metadata\": {\"name\": \"node1\", "
	"\"uid\": \"node-1\"},\n"
	"         \"status\": {\"conditions\": [{\"type\": \"Ready\", \"status\": \"True\"}]}}\n"
	"    ],\n"
	"    \"kind\": \"List\",\n"
	"    \"metadata\": {\"resourceVersion\": \"\"}\n"
	"}\n";

/* The same objects as kubectl get -o yaml writes them. */
static const char list_yaml[] = "apiVersion: v1\n"
				"items:\n"
				"- apiVersion: apps/v1\n"
				"  kind: Deployment\n"
				"  metadata:\n"
				"    creationTimestamp: \"2026-01-01T00:00:00Z\"\n"
				"    managedFields:\n"
				"    - manager: x\n"
				"    name: web\n"
				"    namespace: demo\n"
				"    resourceVersion: \"10\"\n"
				"    uid: d-1\n"
				"  spec:\n"
				"    replicas: 2\n"
				"  status:\n"
				"    readyReplicas: 1\n"
				"    replicas: 2\n"
				"- apiVersion: apps/v1\n"
				"  kind: ReplicaSet\n"
				"  metadata:\n"
				"    name: web-1\n"
				"    namespace: demo\n"
				"    ownerReferences:\n"
				"    - apiVersion: apps/v1\n"
				"      blockOwnerDeletion: true\n"
				"      controller: true\n"
				"      kind: Deployment\n"
				"      name: web\n"
				"      uid: d-1\n"
				"    uid: r-1\n"
				"  status:\n"
				"    readyReplicas: 2\n"
				"    replicas: 2\n"
				"- apiVersion: v1\n"
				"  kind: Pod\n"
				"  metadata:\n"
				"    deletionTimestamp: \"2026-01-02T00:00:00Z\"\n"
				"    finalizers:\n"
				"    - example.com/hold\n"
				"    labels:\n"
				"      app: web\n"
				"    name: web-1-a\n"
				"    namespace: demo\n"
				"    ownerReferences:\n"
				"    - apiVersion: apps/v1\n"
				"      controller: false\n"
				"      kind: ReplicaSet\n"
				"      name: web-1\n"
				"      uid: r-1\n"
				"    uid: p-1\n"
				"  status:\n"
				"    phase: Running\n"
				"- apiVersion: v1\n"
				"  kind: Endpoints\n"
				"  metadata:\n"
				"    name: web\n"
				"    namespace: other\n"
				"    uid: e-1\n"
				"- apiVersion: networking.k8s.io/v1\n"
				"  kind: NetworkPolicy\n"
				"  metadata:\n"
				"    name: deny\n"
				"    namespace: demo\n"
				"    uid: n-1\n"
				"- apiVersion: v1\n"
				"  kind: Node\n"
				"  metadata:\n"
				"    name: node1\n"
				"    uid: node-1\n"
				"  status:\n"
				"    conditions:\n"
				"    - status: \"True\"\n"
				"      type: Ready\n"
				"kind: List\n"
				"metadata:\n"
				"  resourceVersion: \"\"\n";

static void test_kubectl_list(void)
{
	struct seen s = SEEN_INIT, y = SEEN_INIT;
	struct owners_snapshot_dump_counts c;
	struct owners_error err = OWNERS_ERROR_INIT;

	put("list.json", list_json, 1767225600);
	put("list.yaml", list_yaml, 1767225600);
	ok(read_dump(&s, &c, "list.json", &err) == 0, "a kubectl List (JSON) reads: %s",
	   owners_error_message(&err));
	ok(has(&s, "header kubectl List at=1767225600 from=the newest modification time of the "
		   "files read version= ns=* cluster=1 disc=0\n"),
	   "header: the format, the file's time and where it came from, no discovery, every "
	   "namespace (objects in two), cluster-scoped objects in it");
	ok(has(&s,
	       "type apps/v1 Deployment deployments/deployment ns=1 status=1 tracked=1 verbs=31\n"),
	   "a type from its objects: plural, singular, namespaced, with a status, listable and "
	   "tracked");
	ok(has(&s, "type v1 Endpoints endpoints/endpoints ns=1 status=0") &&
		   has(&s,
		       "type networking.k8s.io/v1 NetworkPolicy networkpolicies/networkpolicy") &&
		   has(&s, "type v1 Node nodes/node ns=0 status=1"),
	   "plurals as client-go guesses them (endpoints stays, y -> ies), scope from the objects");
	is_int(count_of(&s, "\ntype "), 6, "one type per kind in the List");
	ok(has(&s,
	       "object pods demo/web-1-a uid=p-1 rv= created= deleted=2026-01-02T00:00:00Z "
	       "fin=example.com/hold label=app:web ref=apps/v1/ReplicaSet/web-1/r-1/c0/b0/f1\n"),
	   "an object's metadata: deletion, finalizers, labels, a reference saying controller: "
	   "false");
	ok(has(&s, "ref=apps/v1/Deployment/web/d-1/c1/b1/f3\n"),
	   "a controller reference that blocks its owner's deletion");
	ok(has(&s, "object deployments demo/web uid=d-1 rv=10 created=2026-01-01T00:00:00Z"),
	   "resourceVersion and creationTimestamp");
	ok(has(&s, "status node-1 True Ready\n") && has(&s, "status p-1 ") &&
		   has(&s, "status d-1 1/2"),
	   "READY/STATUS of the objects of types with a status");
	ok(!has(&s, "status e-1") && !has(&s, "status n-1"), "none for types without a status");
	ok(has(&s, "listed deployments * rv= code=0\n") &&
		   has(&s, "listed endpoints * rv= code=0\n") &&
		   has(&s, "listed nodes * rv= code=0\n"),
	   "each type in the List is whole, in every namespace");
	is_int(count_of(&s, "\nlisted "), 6, "one listed record per type");
	ok(s.headers == 1 && s.ends == 1 && has(&s, "end\n"), "header once, end once");
	is_int(c.objects, 6, "six objects handed out");
	ok(read_dump(&y, &c, "list.yaml", &err) == 0, "the same List as YAML reads: %s",
	   owners_error_message(&err));
	is_str(y.text.ptr, s.text.ptr, "YAML and JSON of the same objects: the same transcript");
	owners_buf_clear(&s.text);
	owners_buf_clear(&y.text);
	owners_error_clear(&err);
}

static const char one_deployment[] =
	"{\"apiVersion\": \"apps/v1\", \"kind\": \"Deployment\", \"metadata\": {\"name\": "
	"\"api\",\n"
	" \"namespace\": \"demo\", \"uid\": \"d-2\"}, \"status\": {}}\n";
static const char pods_in_demo[] =
	"{\"apiVersion\": \"v1\", \"items\": [{\"apiVersion\": \"v1\", \"kind\": \"Pod\",\n"
	"  \"metadata\": {\"name\": \"p\", \"namespace\": \"demo\", \"uid\": \"p-9\"}}],\n"
	" \"kind\": \"List\", \"metadata\": {\"resourceVersion\": \"\"}}\n";

static void test_several_documents(void)
{
	struct seen s = SEEN_INIT;
	struct owners_snapshot_dump_counts c;
	struct owners_error err = OWNERS_ERROR_INIT;
	struct owners_buf text = OWNERS_BUF_INIT;

	owners_buf_adds(&text, one_deployment);
	owners_buf_adds(&text, pods_in_demo);
	put("two.json", text.ptr, 0);
	ok(read_dump(&s, &c, "two.json", &err) == 0, "two JSON documents one after the other: %s",
	   owners_error_message(&err));
	ok(has(&s, "object deployments demo/api uid=d-2") && has(&s, "object pods demo/p uid=p-9"),
	   "the objects of both");
	ok(has(&s, "header kubectl List") && has(&s, "ns=demo cluster=0 "),
	   "every object in one namespace: the dump's namespace, no cluster-scoped type");
	ok(has(&s, "listed pods demo rv= code=0\n"),
	   "a type in a List: whole in the dump's namespace");
	ok(!has(&s, "listed deployments"),
	   "an object alone (kubectl get deploy NAME) claims nothing");
	put("multi.yaml",
	    "---\n"
	    "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: api\n  namespace: demo\n  "
	    "uid: d-2\n"
	    "---\n"
	    "apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: p\n"
	    "    namespace: demo\n    uid: p-9\nkind: List\nmetadata:\n  resourceVersion: \"\"\n"
	    "---\n"
	    "# nothing\n",
	    0);
	ok(read_dump(&s, &c, "multi.yaml", &err) == 0, "YAML documents separated by ---: %s",
	   owners_error_message(&err));
	ok(has(&s, "object deployments demo/api uid=d-2") &&
		   has(&s, "object pods demo/p uid=p-9") &&
		   has(&s, "listed pods demo rv= code=0\n") && !has(&s, "listed deployments"),
	   "the same from YAML, an empty document at the end passed over");
	is_int(c.not_objects, 0, "an empty document is not counted as something else");
	owners_buf_clear(&text);
	owners_buf_clear(&s.text);
	owners_error_clear(&err);
}

/* ---- what cannot be placed --------------------------------------------------- */

static void test_without_uid(void)
{
	struct seen s = SEEN_INIT;
	struct owners_snapshot_dump_counts c;
	struct owners_error err = OWNERS_ERROR_INIT;

	put("nouid.yaml",
	    "apiVersion: v1\nitems:\n"
	    "- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: a\n    namespace: demo\n    "
	    "uid: p-1\n"
	    "- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: b\n    namespace: demo\n"
	    "- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: c\n    namespace: demo\n"
	    "kind: List\nmetadata: {}\n",
	    0);
	ok(read_dump(&s, &c, "nouid.yaml", &err) == 0,
	   "a List with objects without a uid reads: %s", owners_error_message(&err));
	is_int(c.without_uid, 2, "the two without a uid passed over, and counted");
	is_int(c.objects, 1, "the one with a uid handed out");
	ok(!has(&s, "ConfigMap"), "a type whose objects all lack a uid is not in the table");
	ok(!has(&s, "listed pods"), "nor is a type with an object missing claimed whole");
	put("manifests.yaml",
	    "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\n"
	    "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: b\n",
	    0);
	ok(read_dump(&s, &c, "manifests.yaml", &err) == OWNERS_EPROTO &&
		   strstr(owners_error_message(&err), "manifests.yaml: none of its 2 objects has a "
						      "metadata.uid"),
	   "manifests (no uid anywhere) are refused, saying why: %s", owners_error_message(&err));
	ok(s.headers == 0, "before the visitor heard anything");
	owners_buf_clear(&s.text);
	owners_error_clear(&err);
}

/* ---- damaged and unrelated input --------------------------------------------- */

static void expect_failure(const char *rel, int code, const char *words, const char *what)
{
	struct seen s = SEEN_INIT;
	struct owners_error err = OWNERS_ERROR_INIT;
	int rc = read_dump(&s, NULL, rel, &err);

	ok(rc == code && strstr(owners_error_message(&err), words) && !strchr(err.msg.ptr, '\n'),
	   "%s: one line saying '%s' (got %d: %s)", what, words, rc, owners_error_message(&err));
	ok(s.headers == 0 && s.ends == 0, "%s: the visitor heard nothing", what);
	owners_buf_clear(&s.text);
	owners_error_clear(&err);
}

static void test_damaged(void)
{
	char cut[sizeof(list_json)], words[128];
	struct owners_buf bin = OWNERS_BUF_INIT;
	int i, lines = 1;

	memcpy(cut, list_json, sizeof(list_json) / 2);
	cut[sizeof(list_json) / 2] = 0;
	for (i = 0; cut[i]; i++)
		lines += cut[i] == '\n';
	put("cut.json", cut, 0);
	snprintf(words, sizeof(words),
		 "cut.json: line %d: the file ends inside the JSON document "
		 "that starts at line 1: it is cut short",
		 lines);
	expect_failure("cut.json", OWNERS_EPROTO, words, "a JSON List cut short");
	put("cut.yaml",
	    "apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata:\n"
	    "    name: \"web\n",
	    0);
	expect_failure("cut.yaml", OWNERS_EPROTO, "cut.yaml: line 7: invalid YAML",
		       "a YAML List cut short");
	put("bad.json", "{\"apiVersion\": \"v1\", \"items\": [\n  {\"kind\": \"Pod\",, }\n]}\n", 0);
	expect_failure("bad.json", OWNERS_EPROTO, "bad.json: line 2: invalid JSON",
		       "a JSON syntax error, with its line");
	put("alias.yaml", "a: &x {kind: Pod}\nb: *x\n", 0);
	expect_failure("alias.yaml", OWNERS_EPROTO, "alias.yaml: line 2: an alias (*x)",
		       "a YAML alias");
	put("wrong.json",
	    "{\"apiVersion\": \"v1\", \"items\": [{\"apiVersion\": \"v1\", \"kind\": \"Pod\",\n"
	    " \"metadata\": {\"name\": \"p\", \"uid\": \"u\", \"finalizers\": [5]}}],\n"
	    " \"kind\": \"List\"}\n",
	    0);
	expect_failure(
		"wrong.json", OWNERS_EPROTO,
		"wrong.json: line 2: items[0]: metadata.finalizers[0] is a number, expected a "
		"string",
		"a metadata field of the wrong type, named");
	for (i = 0; i < 3000; i++)
		owners_buf_addc(&bin, (char)(i * 131 % 251 + 1));
	put("garbage.json", bin.ptr, 0);
	expect_failure("garbage.json", OWNERS_EPROTO, "garbage.json: ", "bytes that are no dump");
	put("text.txt", "hello: world\n", 0);
	expect_failure("text.txt", OWNERS_EPROTO,
		       "text.txt: not a snapshot or a dump owners reads (no Kubernetes List or "
		       "object in it",
		       "a YAML file with no Kubernetes object");
	put("unrelated/docker-compose.yml", "services:\n  web:\n    image: nginx\n", 0);
	put("unrelated/config.yaml", "items:\n- a\n- b\n", 0);
	put("unrelated/README.md", "# hello\n", 0);
	expect_failure("unrelated", OWNERS_EPROTO,
		       "unrelated: not a snapshot or a dump owners reads",
		       "a directory of unrelated YAML");
	put("empty/notes.txt", "nothing\n", 0);
	expect_failure("empty", OWNERS_EPROTO,
		       "empty: not a snapshot or a dump owners reads (looked for",
		       "a directory with no file a dump is written as");
	expect_failure("missing", OWNERS_EIO, "missing: cannot read", "a path that is not there");
	put("mgempty/namespaces/demo/README", "nothing gathered\n", 0);
	expect_failure("mgempty", OWNERS_EPROTO,
		       "mgempty: not a snapshot or a dump owners reads (read as must-gather: no "
		       "Kubernetes List or object in its 0 files)",
		       "a must-gather with nothing gathered");
	owners_buf_clear(&bin);
}

static void test_directory(void)
{
	struct seen s = SEEN_INIT;
	struct owners_snapshot_dump_counts c;
	struct owners_error err = OWNERS_ERROR_INIT;

	put("k/pods.json", pods_in_demo, 1767225600);
	put("k/sub/deploy.yaml",
	    "apiVersion: v1\nitems:\n- apiVersion: apps/v1\n  kind: Deployment\n"
	    "  metadata:\n    name: api\n    namespace: demo\n    uid: d-2\nkind: List\n",
	    1767229200);
	put("k/sub/again.json", pods_in_demo, 1767225600);
	put("k/notes.txt", "taken before the upgrade\n", 1767290000);
	ok(read_dump(&s, &c, "k", &err) == 0, "a directory of kubectl files, to any depth: %s",
	   owners_error_message(&err));
	ok(has(&s, "object pods demo/p uid=p-9") && has(&s, "object deployments demo/api uid=d-2"),
	   "the objects of every file");
	ok(has(&s, "at=1767229200 "), "taken at the newest modification time of the files read");
	is_int(c.skipped_files, 1, "a file neither JSON nor YAML by name: passed over, counted");
	is_int(c.duplicates, 1, "an object read twice (same uid) is handed out once");
	is_int(count_of(&s, "object pods demo/p "), 1, "once");
	ok(has(&s, "listed pods demo rv=") && has(&s, "listed deployments demo rv="),
	   "each file's Lists claimed");
	owners_buf_clear(&s.text);
	owners_error_clear(&err);
}

/* ---- kubectl cluster-info dump ------------------------------------------------- */

/* A typed List as kubectl cluster-info dump prints it: TypeMeta first, no
 * kind on the items, "items": null when there are none. */
static void typed_list(struct owners_buf *out, const char *kind, const char *api_version,
		       const char *items)
{
	owners_buf_addf(
		out,
		"{\n    \"kind\": \"%s\",\n    \"apiVersion\": \"%s\",\n    \"metadata\": {\n"
		"        \"resourceVersion\": \"7\"\n    },\n    \"items\": %s\n}\n",
		kind, api_version, items ? items : "null");
}

static const char *const cycle_kinds[] = { "EventList",      "ReplicationControllerList",
					   "ServiceList",    "DaemonSetList",
					   "DeploymentList", "ReplicaSetList",
					   "PodList" };

/* One namespace's seven Lists; items[i] for the i-th (NULL none). */
static void cluster_info_namespace(struct owners_buf *out, const char *const items[7])
{
	size_t i;

	for (i = 0; i < 7; i++)
		typed_list(out, cycle_kinds[i], i >= 3 && i <= 5 ? "apps/v1" : "v1", items[i]);
}

static void test_cluster_info_stdout(void)
{
	struct seen s = SEEN_INIT;
	struct owners_snapshot_dump_counts c;
	struct owners_error err = OWNERS_ERROR_INIT;
	struct owners_buf text = OWNERS_BUF_INIT;
	const char *def[7] = {
		NULL,
		NULL,
		"[{\"metadata\": {\"name\": \"kubernetes\", \"namespace\": \"default\", "
		"\"uid\": \"s-1\"}, \"spec\": {\"type\": \"ClusterIP\"}, \"status\": {}}]",
		NULL,
		NULL,
		NULL,
		NULL
	};
	const char *demo[7] = {
		"[{\"metadata\": {\"name\": \"e1\", \"namespace\": \"demo\", "
		"\"uid\": \"ev-1\"}, \"reason\": \"Killing\", \"involvedObject\": "
		"{\"kind\": \"Pod\", \"name\": \"p\", \"uid\": \"pod-1\"}}]",
		NULL,
		NULL,
		NULL,
		NULL,
		NULL,
		"[{\"metadata\": {\"name\": \"p\", \"namespace\": \"demo\", \"uid\": "
		"\"p-1\"}, \"status\": {\"phase\": \"Pending\"}}]"
	};
	const char *quiet[7] = { NULL, NULL, NULL, NULL, NULL, NULL, NULL };

	typed_list(&text, "NodeList", "v1",
		   "[{\"metadata\": {\"name\": \"n1\", \"uid\": \"node-1\"}, \"status\": {}}]");
	cluster_info_namespace(&text, def);
	cluster_info_namespace(&text, demo);
	owners_buf_adds(
		&text,
		"==== START logs for container c of pod demo/p ====\n"
		"{\"level\": \"info\", \"msg\": \"[not a document\"}\n{ unbalanced\n"
		"==== END logs for container c of pod demo/q ====\n"
		"the last line, no newline==== END logs for container c of pod demo/p ====\n");
	cluster_info_namespace(&text, quiet);
	put("cluster-info.txt", text.ptr, 0);
	ok(read_dump(&s, &c, "cluster-info.txt", &err) == 0,
	   "kubectl cluster-info dump's stdout, pods' logs between its Lists: %s",
	   owners_error_message(&err));
	ok(has(&s, "header kubectl cluster-info dump "), "said to be cluster-info dump's");
	ok(has(&s, "type v1 Pod pods/pod ns=1") && has(&s, "object pods demo/p uid=p-1") &&
		   has(&s, "object services default/kubernetes uid=s-1"),
	   "items without kind take their List's");
	ok(has(&s, "listed nodes * rv=7") && has(&s, "listed services default rv=7") &&
		   has(&s, "listed pods default rv=7") && has(&s, "listed pods demo rv=7") &&
		   has(&s, "listed events default rv=7"),
	   "each List whole in its group's namespace, an empty one too");
	is_int(count_of(&s, "\nlisted "), 7,
	       "a namespace with nothing in any List names no namespace");
	ok(has(&s, "fact event pod-1 {\"metadata\":{\"name\":\"e1\""),
	   "an Event, as JSON text, keyed by the object it is about (#52)");
	is_int(c.objects, 4, "the node, the service, the event, the pod");
	owners_buf_clear(&text);
	owners_buf_clear(&s.text);
	owners_error_clear(&err);
}

static void test_cluster_info_directory(void)
{
	struct seen s = SEEN_INIT;
	struct owners_error err = OWNERS_ERROR_INIT;
	struct owners_buf text = OWNERS_BUF_INIT;
	static const char *const files[7] = { "events",      "replication-controllers",
					      "services",    "daemonsets",
					      "deployments", "replicasets",
					      "pods" };
	char rel[64];
	size_t i;

	put("ci/nodes.yaml",
	    "apiVersion: v1\nitems:\n- metadata:\n    name: n1\n    uid: node-1\n"
	    "kind: NodeList\nmetadata:\n  resourceVersion: \"5\"\n",
	    0);
	for (i = 0; i < 7; i++) {
		owners_buf_reset(&text);
		typed_list(&text, cycle_kinds[i], i >= 3 && i <= 5 ? "apps/v1" : "v1",
			   i == 1 ? "[{\"metadata\": {\"name\": \"rc\", \"namespace\": \"demo\", "
				    "\"uid\": \"rc-1\"}, \"status\": {\"replicas\": 0}}]"
				  : NULL);
		snprintf(rel, sizeof(rel), "ci/demo/%s.json", files[i]);
		put(rel, text.ptr, 0);
	}
	put("ci/demo/p/logs.txt", "{ not json\n", 0);
	ok(read_dump(&s, NULL, "ci", &err) == 0, "kubectl cluster-info dump --output-directory: %s",
	   owners_error_message(&err));
	ok(has(&s, "header kubectl cluster-info dump "), "found by its files");
	ok(has(&s, "type v1 ReplicationController replicationcontrollers/replicationcontroller"),
	   "replication-controllers.json is replicationcontrollers");
	ok(has(&s, "object nodes /n1 uid=node-1"),
	   "a YAML List's items without kind wait for the List's kind, after them");
	ok(has(&s, "listed replicationcontrollers demo rv=7") && has(&s, "listed nodes * rv=5"),
	   "each file is its type's List, whole");
	owners_buf_clear(&text);
	owners_buf_clear(&s.text);
	owners_error_clear(&err);
}

/* ---- must-gather ------------------------------------------------------------------ */

#define IMAGE "mg/quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-0123abcd"

static void put_must_gather(void)
{
	put("mg/timestamp",
	    "2026-01-01 11:00:00.123456789 +0100 CET m=+0.016738541\n"
	    "2026-01-01 10:05:00.5 +0000 UTC m=+300.5\n",
	    0);
	put("mg/must-gather.logs", "[must-gather      ] OUT gathering\n", 0);
	put(IMAGE "/namespaces/demo/demo.yaml",
	    "apiVersion: v1\nkind: Namespace\nmetadata:\n  deletionTimestamp: "
	    "\"2026-01-01T09:00:00Z\"\n"
	    "  finalizers:\n  - example.com/cleanup\n  name: demo\n  uid: ns-1\n"
	    "spec:\n  finalizers:\n  - kubernetes\nstatus:\n  phase: Terminating\n",
	    0);
	put(IMAGE "/namespaces/demo/core/pods.yaml",
	    "apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: p\n"
	    "    namespace: demo\n    uid: p-1\n  status:\n    phase: Running\nkind: PodList\n"
	    "metadata:\n  resourceVersion: \"4242\"\n",
	    0);
	put(IMAGE "/namespaces/demo/apps/deployments.yaml",
	    "apiVersion: apps/v1\nitems: []\nkind: DeploymentList\nmetadata:\n  resourceVersion: "
	    "\"4242\"\n",
	    0);
	put(IMAGE "/namespaces/demo/pods/p/p.yaml",
	    "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  namespace: demo\n  uid: p-1\n", 0);
	put(IMAGE "/namespaces/demo/pods/p/c/c/logs/current.log", "{ not yaml: [\n", 0);
	put(IMAGE "/namespaces/demo/example.com/widgets/w.yaml",
	    "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n  namespace: demo\n"
	    "  uid: w-1\n",
	    0);
	put(IMAGE "/cluster-scoped-resources/core/nodes.yaml",
	    "apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata:\n    name: n1\n"
	    "    uid: node-1\nkind: NodeList\nmetadata:\n  resourceVersion: \"4300\"\n",
	    0);
	put(IMAGE "/cluster-scoped-resources/core/persistentvolumes/pv1.yaml",
	    "apiVersion: v1\nkind: PersistentVolume\nmetadata:\n  name: pv1\n  uid: pv-1\n", 0);
	put(IMAGE "/host_service_logs/masters/kubelet_service.log", "Jan 01 kubelet\n", 0);
	put(IMAGE "/version", "openshift/must-gather\n4.16.0\n", 0);
}

static void test_must_gather(void)
{
	struct seen s = SEEN_INIT, img = SEEN_INIT;
	struct owners_snapshot_dump_counts c;
	struct owners_error err = OWNERS_ERROR_INIT;

	put_must_gather();
	ok(read_dump(&s, &c, "mg", &err) == 0, "a must-gather's top directory: %s",
	   owners_error_message(&err));
	ok(has(&s, "header must-gather at=1767261600 from=the must-gather's timestamp file (when gathering started) "),
	   "taken at the timestamp file's first time (gathering's start, #52), its zone applied");
	ok(has(&s, "ns=demo cluster=1 "), "one namespace gathered, cluster-scoped objects too");
	ok(has(&s, "listed pods demo rv=4242") && has(&s, "listed nodes * rv=4300"),
	   "namespaces/NS/<group>/<plural>.yaml and cluster-scoped-resources/<group>/<plural>.yaml "
	   "are whole");
	ok(!has(&s, "listed widgets") && !has(&s, "listed persistentvolumes") &&
		   !has(&s, "listed namespaces"),
	   "objects read one by one claim nothing");
	ok(!has(&s, "listed deployments"), "an empty List of a type with no object: not a type");
	ok(has(&s, "type example.com/v1 Widget widgets/widget"), "the plural from the directory");
	ok(has(&s,
	       "fact object /api/v1/namespaces/demo {\"apiVersion\":\"v1\",\"kind\":\"Namespace\""),
	   "a Namespace, whole, at its API path");
	ok(has(&s, "fact object /api/v1/persistentvolumes/pv1 "), "a PersistentVolume, whole");
	ok(has(&s, "status ns-1 - Terminating"), "a Namespace's phase");
	is_int(c.duplicates, 0, "namespaces/NS/pods/ (each pod again, and its logs) is not read");
	is_int(c.objects, 5, "the namespace, the pod, the widget, the node, the volume");
	ok(read_dump(&img, &c, IMAGE, &err) == 0, "one image's directory: %s",
	   owners_error_message(&err));
	ok(has(&img, "header must-gather at=1767261600 "), "its timestamp is its parent's");
	is_str(strchr(img.text.ptr, '\n'), strchr(s.text.ptr, '\n'), "the same objects either way");
	owners_buf_clear(&s.text);
	owners_buf_clear(&img.text);
	owners_error_clear(&err);
}

/* ---- support bundle ---------------------------------------------------------------- */

#define BUNDLE "sb/support-bundle-2026-01-01T10_00_00"

static void put_bundle(void)
{
	static const char widgets[] =
		"[\n  {\"apiVersion\": \"example.com/v1\", \"kind\": \"Widget\", \"metadata\": "
		"{\"name\": \"w\", \"namespace\": \"demo\", \"uid\": \"w-1\"}}\n]\n";

	/* Older troubleshoot: typed Lists written without TypeMeta. */
	put(BUNDLE "/cluster-resources/pods/demo.json",
	    "{\n  \"metadata\": {\"resourceVersion\": \"77\"},\n  \"items\": [\n"
	    "    {\"metadata\": {\"name\": \"p\", \"namespace\": \"demo\", \"uid\": \"p-1\"},\n"
	    "     \"status\": {\"phase\": \"Running\"}}\n  ]\n}\n",
	    1767261600);
	put(BUNDLE "/cluster-resources/pods/logs/demo/p/c.log", "{ not json\n", 1767261600);
	put(BUNDLE "/cluster-resources/pods-errors.json", "[\"forbidden\"]\n", 1767261600);
	put(BUNDLE "/cluster-resources/pvs.json",
	    "{\"kind\": \"PersistentVolumeList\", \"apiVersion\": \"v1\", \"metadata\": "
	    "{\"resourceVersion\": \"78\"}, \"items\": [{\"kind\": \"PersistentVolume\", "
	    "\"apiVersion\": \"v1\", \"metadata\": {\"name\": \"pv1\", \"uid\": \"pv-1\"}, "
	    "\"status\": {\"phase\": \"Released\"}}]}\n",
	    1767261600);
	put(BUNDLE "/cluster-resources/custom-resources/widgets.example.com/demo.json", widgets,
	    1767261600);
	put(BUNDLE "/cluster-resources/custom-resources/widgets.example.com/demo.yaml", widgets,
	    1767261600);
	put(BUNDLE "/cluster-resources/auth-cani-list/demo.json",
	    "{\"kind\": \"SelfSubjectRulesReview\", \"apiVersion\": \"authorization.k8s.io/v1\"}\n",
	    1767261600);
	put(BUNDLE "/cluster-resources/resources.json", "[{\"groupVersion\": \"v1\"}]\n",
	    1767261600);
	put(BUNDLE "/cluster-info/cluster_version.json",
	    "{\n  \"info\": {\"major\": \"1\", \"minor\": \"36\", \"gitVersion\": \"v1.36.3\"},\n"
	    "  \"string\": \"v1.36.3\"\n}\n",
	    1767261600);
	put(BUNDLE "/version.yaml", "apiVersion: troubleshoot.sh/v1beta2\nkind: SupportBundle\n",
	    1767261600);
}

static void test_bundle(void)
{
	struct seen s = SEEN_INIT;
	struct owners_snapshot_dump_counts c;
	struct owners_error err = OWNERS_ERROR_INIT;

	put_bundle();
	ok(read_dump(&s, &c, "sb", &err) == 0, "a support bundle, unpacked: %s",
	   owners_error_message(&err));
	ok(has(&s, "header support bundle at=1767261600 from=the newest modification time of the "
		   "files read version=v1.36.3 "),
	   "the server's version from cluster-info/cluster_version.json; no time of its own");
	ok(has(&s, "object pods demo/p uid=p-1") && has(&s, "type v1 Pod pods/pod"),
	   "items without kind or apiVersion: the directory's type");
	ok(has(&s, "listed pods demo rv=77") && has(&s, "listed persistentvolumes * rv=78") &&
		   has(&s, "listed widgets demo rv="),
	   "cluster-resources/<resource>/<ns>.json, <resource>.json and custom resources' arrays "
	   "are whole");
	is_int(count_of(&s, "object widgets"), 1,
	       "a custom resource's .yaml beside its .json: read once");
	is_int(c.duplicates, 0, "not even read");
	ok(!has(&s, "SelfSubjectRulesReview") && c.not_objects == 0,
	   "RBAC reviews, errors and discovery files are not read");
	ok(has(&s, "fact object /api/v1/persistentvolumes/pv1 "), "a PersistentVolume, whole");
	owners_buf_clear(&s.text);
	owners_error_clear(&err);
}

/* ---- facts, an early stop, standard input, plurals ---------------------------------- */

static void test_facts(void)
{
	struct seen s = SEEN_INIT;
	struct owners_error err = OWNERS_ERROR_INIT;

	put("facts.yaml",
	    "apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata:\n  name: "
	    "kube-controller-manager\n"
	    "  namespace: kube-system\n  uid: l-1\nspec:\n  holderIdentity: kcm_1\n"
	    "  leaseDurationSeconds: 15\n  renewTime: \"2026-01-01T00:00:10.123456Z\"\n---\n"
	    "apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata:\n  name: other\n"
	    "  namespace: kube-system\n  uid: l-2\n---\n"
	    "apiVersion: v1\nkind: Event\nmetadata:\n  name: e\n  namespace: demo\n  uid: ev-1\n"
	    "reason: FailedDelete\ncount: 3\ninvolvedObject: {kind: ConfigMap, name: c, uid: cm-9}\n---\n"
	    "apiVersion: v1\nkind: Event\nmetadata:\n  name: about-nothing\n  namespace: demo\n  uid: ev-3\n"
	    "reason: Other\n---\n"
	    "apiVersion: events.k8s.io/v1\nkind: Event\nmetadata:\n  name: e2\n  namespace: demo\n"
	    "  uid: ev-2\n",
	    0);
	ok(read_dump(&s, NULL, "facts.yaml", &err) == 0, "Leases and Events: %s",
	   owners_error_message(&err));
	ok(has(&s, "fact object /apis/coordination.k8s.io/v1/namespaces/kube-system/leases/"
		   "kube-controller-manager {\"apiVersion\":\"coordination.k8s.io/v1\",\"kind\":"
		   "\"Lease\""),
	   "the controller-manager's Lease, whole, at its API path");
	ok(has(&s, "\"leaseDurationSeconds\":15,"), "its numbers stay numbers");
	is_int(count_of(&s, "fact object"), 1, "no other Lease");
	ok(has(&s, "fact event cm-9 {\"apiVersion\":\"v1\",\"kind\":\"Event\"") &&
		   has(&s, "\"reason\":\"FailedDelete\",\"count\":3,"),
	   "a core/v1 Event, as JSON text");
	is_int(count_of(&s, "fact event"), 1,
	       "an events.k8s.io Event is no core/v1 Event; one about no object is passed over");
	owners_buf_clear(&s.text);
	owners_error_clear(&err);
}

static const char claims_list[] =
	"apiVersion: v1\nitems:\n"
	"- apiVersion: v1\n  kind: PersistentVolumeClaim\n  metadata:\n    name: data\n"
	"    namespace: demo\n    uid: c-1\n    finalizers:\n    - kubernetes.io/pvc-protection\n"
	"- apiVersion: v1\n  kind: PersistentVolumeClaim\n  metadata:\n    name: lone\n"
	"    namespace: lone\n    uid: c-2\n"
	"- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: db\n    namespace: demo\n"
	"    uid: p-1\n  spec:\n    nodeName: n1\n    volumes:\n    - name: d\n"
	"      persistentVolumeClaim:\n        claimName: data\n"
	"- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: web\n    namespace: demo\n"
	"    uid: p-2\n  spec:\n    volumes:\n    - name: c\n      configMap:\n        name: x\n"
	"kind: List\nmetadata: {}\n";

static void test_pod_claims(void)
{
	struct seen s = SEEN_INIT;
	struct owners_error err = OWNERS_ERROR_INIT;

	put("claims.yaml", claims_list, 0);
	ok(read_dump(&s, NULL, "claims.yaml", &err) == 0, "claims and the pods mounting them: %s",
	   owners_error_message(&err));
	ok(has(&s, "fact pod_claims demo {\"kind\":\"PodList\",\"apiVersion\":\"v1\","
		   "\"metadata\":{},\"items\":[{\"apiVersion\":\"v1\",\"kind\":\"Pod\","
		   "\"metadata\":{\"name\":\"db\""),
	   "a namespace with a claim: its pods that mount one, as a PodList");
	ok(!has(&s, "\"name\":\"web\""), "a pod with no claim is not among them");
	ok(has(&s, "fact pod_claims lone {\"kind\":\"PodList\",\"apiVersion\":\"v1\","
		   "\"metadata\":{},\"items\":[]}\n"),
	   "every pod is in the dump: a namespace with a claim and no pod holding it says so");
	put("claims-alone.yaml",
	    "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: data\n"
	    "  namespace: demo\n  uid: c-1\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: db\n"
	    "  namespace: demo\n  uid: p-1\n",
	    0);
	ok(read_dump(&s, NULL, "claims-alone.yaml", &err) == 0 && !has(&s, "pod_claims"),
	   "pods read one by one: which pods hold a claim is not known, and not said");
	owners_buf_clear(&s.text);
	owners_error_clear(&err);
}

static void test_stop_and_stdin(void)
{
	struct seen s = SEEN_INIT;
	struct owners_snapshot_dump_counts c;
	struct owners_error err = OWNERS_ERROR_INIT;

	s.stop_after = 1;
	ok(read_dump(&s, &c, "list.json", &err) == 0, "a visitor ending the read early: 0");
	ok(s.ends == 0 && c.objects == 0 && count_of(&s, "object ") == 1,
	   "nothing after the object that stopped it, no end");
	s.stop_after = 0;
	if (!freopen(at("list.yaml"), "r", stdin)) {
		tap_skip("standard input cannot be replaced here");
		return;
	}
	ok(read_dump(&s, &c, "-", &err) == 0, "standard input (read twice: kept in a copy): %s",
	   owners_error_message(&err));
	ok(has(&s, "header kubectl List at=0 from=unknown: standard input has no time ") &&
		   has(&s, "object pods demo/web-1-a uid=p-1") && c.objects == 6,
	   "its objects, and no time");
	owners_buf_clear(&s.text);
	owners_error_clear(&err);
}

static void test_plural(void)
{
	static const char *const cases[][2] = {
		{ "Endpoints", "endpoints" },
		{ "NetworkPolicy", "networkpolicies" },
		{ "Ingress", "ingresses" },
		{ "StorageClass", "storageclasses" },
		{ "Pod", "pods" },
		{ "CustomResourceDefinition", "customresourcedefinitions" },
		{ "Status", "statuses" },
		/* client-go's guess, wrong in English: only a layout that names
		 * its plural (must-gather, bundle) knows better */
		{ "Gateway", "gatewaies" },
	};
	struct owners_buf b = OWNERS_BUF_INIT;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		owners_buf_reset(&b);
		owners_snapshot_dump_types_plural(&b, cases[i][0]);
		is_str(b.ptr, cases[i][1], "%s: %s, as client-go guesses", cases[i][0],
		       cases[i][1]);
	}
	owners_buf_clear(&b);
}

/* A directory with two kinds of dump in it is refused, both named (#52):
 * one read and the other passed over in silence would answer for half. */
static void test_two_dumps(void)
{
	struct seen s = SEEN_INIT;
	struct owners_snapshot_dump_counts c;
	struct owners_error err = OWNERS_ERROR_INIT;

	put("two/must-gather/timestamp", "2026-01-01 10:00:00 +0000 UTC\n", 0);
	put("two/must-gather/img/namespaces/demo/core/configmaps.yaml",
	    "apiVersion: v1\nkind: ConfigMapList\nitems: []\nmetadata: {}\n", 0);
	put("two/bundle/cluster-resources/configmaps/demo.json", "{\"kind\": \"ConfigMapList\", \"items\": []}\n", 0);
	ok(read_dump(&s, &c, "two", &err) == OWNERS_EPROTO, "a must-gather beside a support bundle: refused");
	ok(strstr(owners_error_message(&err), "holds two dumps, a must-gather and a support bundle: give --from "
			       "the directory of one of them") != NULL,
	   "... both named: %s", owners_error_message(&err));
	ok(read_dump(&s, &c, "two/bundle", &err) == 0, "one of them alone reads: %s", owners_error_message(&err));
	owners_buf_clear(&s.text);
	owners_error_clear(&err);
}

int main(void)
{
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 1;
	}
	test_kubectl_list();
	test_several_documents();
	test_without_uid();
	test_damaged();
	test_directory();
	test_cluster_info_stdout();
	test_cluster_info_directory();
	test_must_gather();
	test_bundle();
	test_two_dumps();
	test_facts();
	test_pod_claims();
	test_stop_and_stdin();
	test_plural();
	nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return tap_done();
}
