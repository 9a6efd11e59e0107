/*
 * snapgen: a synthetic cluster written straight to an owners snapshot
 * (format 2, owners' own writer), deterministically from a seed, at any
 * size: the 1M and 10M rows of tests/bench/README.md are read from it
 * with --from, where no local control plane could hold them.
 *
 *   snapgen -objects N [-seed S] [-change PERCENT] [-ndjson FILE] -o FILE
 *
 * The shapes are the bench cluster's (tests/bench/tools/cmd/seed), with
 * the same names, in max(4, N/1000) namespaces bench-0... (bench-0 holds
 * a tenth of the objects when that is more than an even share):
 *   - apps: Deployment web-I -> ReplicaSets web-I-old (scaled to 0) and
 *     web-I-cur -> 10 Pods web-I-cur-J (controller references,
 *     blockOwnerDeletion);
 *   - Widgets (widgets.bench.owners.test) w-I owning ConfigMaps w-I-a and
 *     w-I-b and Secret w-I-s; w-I-b is owned by w-(I+1) too;
 *   - one ConfigMap in four of those Widgets' namespaces held in deletion
 *     by a finalizer (held-I);
 *   - dangling references: one Pod in 200 names a ReplicaSet that is not
 *     there (absent), one ConfigMap in 200 names its Widget by name with
 *     another UID (uid-mismatch);
 *   - in bench-0, a chain ConfigMap deep-000 <- deep-001 <- ... 100 long
 *     (when bench-0 holds 200 objects or more);
 *   - the rest of each namespace's share: ConfigMaps cm-I nothing owns;
 * plus 200 filler CRD types (thingNNN.gMM.bench.owners.test) that hold
 * nothing, as the bench cluster's discovery does.
 *
 * -change P writes the same cluster with P percent of its objects changed
 * (a third gone, a third with new labels and resourceVersion, a third
 * with a new sibling), for `owners diff` of two snapshots.
 *
 * -ndjson FILE also writes every object as one JSON object a line
 * (apiVersion, kind, metadata), what `seed -load FILE` puts into a local
 * control plane's etcd: the same objects live, which is how the
 * generator is shown honest (tests/bench/snapgen-honest).
 *
 * Everything in it is a function of N, S and P: the UIDs come from a
 * seeded generator, the timestamps count from a fixed time.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fake_types.h"
#include "json.h"
#include "owners_error.h"
#include "snapshot_write.h"

#define BASE_TIME 1767225600 /* 2026-01-01T00:00:00Z */
#define GROUP     "bench.owners.test"
#define FINALIZER "bench.owners.test/hold"
#define DEEP      100

/* splitmix64: small, fast, and the same everywhere. */
static uint64_t next_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* A version 4 UUID from the generator. */
static void make_uid(uint64_t *state, char out[37])
{
	uint64_t a = next_random(state), b = next_random(state);

	snprintf(out, 37, "%08" PRIx64 "-%04" PRIx64 "-4%03" PRIx64 "-%04" PRIx64 "-%012" PRIx64,
		 a >> 32, (a >> 16) & 0xffff, a & 0xfff, (uint64_t)(0x8000 | ((b >> 48) & 0x3fff)),
		 (uint64_t)(b & 0xffffffffffffu));
}

static void rfc3339(int64_t t, char out[32])
{
	time_t tt = (time_t)t;
	struct tm tm;

	gmtime_r(&tt, &tm);
	strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* One object to write: its metadata, and up to two owners. */
struct object {
	const struct owners_resource *type;
	char ns[32], name[64], uid[37], rv[24], created[32], deleted[32];
	const char *finalizer;
	struct owners_owner_ref_meta refs[2];
	char ref_names[2][64], ref_uids[2][37];
	size_t n_refs;
	struct owners_label_meta labels[2];
	size_t n_labels;
};

struct generator {
	uint64_t uids;    /* the UIDs' generator */
	uint64_t changes; /* which objects -change touches */
	unsigned change;  /* percent */
	uint64_t serial;  /* resourceVersion and creation order */
	struct owners_snapshot_writer *w;
	FILE *ndjson;
	struct owners_error err;
	uint64_t written;
	int failed;
};

static void ndjson_object(struct generator *g, const struct object *o)
{
	struct owners_buf b = OWNERS_BUF_INIT;
	struct owners_json_gen *j;
	size_t i;

	if (!g->ndjson || owners_json_gen_new(&j, &b, 0))
		return;
	owners_json_gen_typed_open(j, o->type->kind, o->type->api_version);
	owners_json_gen_stringn(j, "metadata", 8);
	owners_json_gen_map_open(j);
	owners_json_gen_kv(j, "name", o->name);
	if (*o->ns)
		owners_json_gen_kv(j, "namespace", o->ns);
	owners_json_gen_kv(j, "uid", o->uid);
	owners_json_gen_kv(j, "creationTimestamp", o->created);
	if (*o->deleted) {
		owners_json_gen_kv(j, "deletionTimestamp", o->deleted);
		owners_json_gen_kv_int(j, "deletionGracePeriodSeconds", 0);
	}
	if (o->finalizer)
		owners_json_gen_kv_strings(j, "finalizers", &o->finalizer, 1);
	if (o->n_labels) {
		owners_json_gen_stringn(j, "labels", 6);
		owners_json_gen_map_open(j);
		for (i = 0; i < o->n_labels; i++)
			owners_json_gen_kv(j, o->labels[i].key, o->labels[i].value);
		owners_json_gen_map_close(j);
	}
	if (o->n_refs) {
		owners_json_gen_stringn(j, "ownerReferences", 15);
		owners_json_gen_array_open(j);
		for (i = 0; i < o->n_refs; i++) {
			owners_json_gen_map_open(j);
			owners_json_gen_kv(j, "apiVersion", o->refs[i].api_version);
			owners_json_gen_kv(j, "kind", o->refs[i].kind);
			owners_json_gen_kv(j, "name", o->refs[i].name);
			owners_json_gen_kv(j, "uid", o->refs[i].uid);
			if (o->refs[i].controller)
				owners_json_gen_kv_bool(j, "controller", 1);
			if (o->refs[i].block_owner_deletion)
				owners_json_gen_kv_bool(j, "blockOwnerDeletion", 1);
			owners_json_gen_map_close(j);
		}
		owners_json_gen_array_close(j);
	}
	owners_json_gen_map_close(j);
	owners_json_gen_map_close(j);
	if (!owners_json_gen_error(j))
		fprintf(g->ndjson, "%s\n", b.ptr);
	owners_json_gen_free(j);
	owners_buf_clear(&b);
}

static void write_object(struct generator *g, const struct object *o)
{
	struct owners_object_meta m;
	unsigned char fields[2];
	size_t i;

	if (g->failed)
		return;
	memset(&m, 0, sizeof(m));
	m.name = o->name;
	m.namespace_ = o->ns;
	m.uid = o->uid;
	m.resource_version = o->rv;
	m.creation_timestamp = o->created;
	m.deletion_timestamp = o->deleted;
	m.finalizers = o->finalizer ? &o->finalizer : NULL;
	m.n_finalizers = o->finalizer ? 1 : 0;
	m.owner_refs = o->refs;
	m.n_owner_refs = o->n_refs;
	for (i = 0; i < o->n_refs; i++)
		fields[i] =
			(o->refs[i].controller ? OWNERS_REF_HAS_CONTROLLER : 0) |
			(o->refs[i].block_owner_deletion ? OWNERS_REF_HAS_BLOCK_OWNER_DELETION : 0);
	m.owner_ref_fields = fields;
	m.labels = o->labels;
	m.n_labels = o->n_labels;
	if (owners_snapshot_write_object(g->w, o->type, &m, &g->err))
		g->failed = 1;
	ndjson_object(g, o);
	g->written++;
}

/* A new object of type in ns (the next UID and time, whatever -change
 * does with it, so that the two snapshots of a seed share the rest). */
static void start(struct generator *g, struct object *o, const struct owners_resource *type,
		  const char *ns, const char *name)
{
	memset(o, 0, sizeof(*o));
	o->type = type;
	snprintf(o->ns, sizeof(o->ns), "%s", type->namespaced ? ns : "");
	snprintf(o->name, sizeof(o->name), "%s", name);
	make_uid(&g->uids, o->uid);
	g->serial++;
	snprintf(o->rv, sizeof(o->rv), "%" PRIu64, g->serial);
	rfc3339(BASE_TIME + (int64_t)(g->serial / 100), o->created);
}

static void own(struct object *o, const struct object *owner, int controller)
{
	struct owners_owner_ref_meta *r = &o->refs[o->n_refs];

	snprintf(o->ref_names[o->n_refs], sizeof(o->ref_names[0]), "%s", owner->name);
	snprintf(o->ref_uids[o->n_refs], sizeof(o->ref_uids[0]), "%s", owner->uid);
	r->api_version = owner->type->api_version;
	r->kind = owner->type->kind;
	r->name = o->ref_names[o->n_refs];
	r->uid = o->ref_uids[o->n_refs];
	r->controller = controller;
	r->block_owner_deletion = controller;
	o->n_refs++;
}

static void label(struct object *o, const char *key, const char *value)
{
	o->labels[o->n_labels].key = key;
	o->labels[o->n_labels].value = value;
	o->n_labels++;
}

/* Written as generated, or changed by -change: gone, relabelled, or
 * with a sibling. */
static void emit(struct generator *g, struct object *o)
{
	uint64_t r;

	if (!g->change) {
		write_object(g, o);
		return;
	}
	r = next_random(&g->changes) % 300;
	if (r >= 3 * g->change) {
		write_object(g, o);
	} else if (r < g->change) {
		/* gone */
	} else if (r < 2 * g->change) {
		o->n_labels = 0;
		label(o, "changed", "yes");
		snprintf(o->rv, sizeof(o->rv), "%" PRIu64, (uint64_t)(g->serial + 1000000000u));
		write_object(g, o);
	} else {
		struct object sibling = *o;

		write_object(g, o);
		snprintf(sibling.name, sizeof(sibling.name), "%.50s-new", o->name);
		make_uid(&g->changes, sibling.uid);
		sibling.n_refs = o->n_refs;
		write_object(g, &sibling);
	}
}

struct types {
	const struct owners_resource *namespaces, *pods, *configmaps, *secrets, *deployments,
		*replicasets, *widgets;
};

/* Objects are written a type at a time (the writer batches a type's
 * objects together), as a scan lists them: each pass below makes the
 * whole cluster's objects and keeps those of one type. */
enum pass {
	P_NAMESPACES,
	P_DEPLOYMENTS,
	P_REPLICASETS,
	P_PODS,
	P_WIDGETS,
	P_CONFIGMAPS,
	P_SECRETS,
	P_END
};

struct plan {
	uint64_t objects;
	size_t n_namespaces;
	uint64_t *per_ns; /* objects in each */
};

/* One namespace's objects, of the pass's type only. Every pass walks the
 * same sequence of UIDs and serials, so an object's UID is the same in
 * each (the owners' UIDs, made in an earlier pass, are made again). */
static void namespace_objects(struct generator *g, const struct types *t, enum pass pass, size_t k,
			      uint64_t budget)
{
	char ns[32], name[64];
	struct object deploy, rs_old, rs_cur, pod, widget, prev_widget, a, b, s, held, chain, link;
	uint64_t made = 0, app, i;
	int have_prev = 0;

	snprintf(ns, sizeof(ns), "bench-%zu", k);
	start(g, &a, t->namespaces, "", ns);
	/* (the label the apiserver gives every Namespace) */
	label(&a, "kubernetes.io/metadata.name", a.name);
	if (pass == P_NAMESPACES)
		emit(g, &a);
	made++;
	if (k == 0 && budget >= 2 * DEEP) {
		/* the chain: deep-000 owns deep-001, which owns deep-002... */
		for (i = 0; i < DEEP; i++) {
			snprintf(name, sizeof(name), "deep-%03" PRIu64, i);
			start(g, &link, t->configmaps, ns, name);
			if (i)
				own(&link, &chain, 0);
			if (pass == P_CONFIGMAPS)
				emit(g, &link);
			chain = link;
			made++;
		}
	}
	for (app = 0; made + 17 <= budget; app++) {
		char rsname[64], rsold[64];

		snprintf(name, sizeof(name), "web-%" PRIu64, app);
		start(g, &deploy, t->deployments, ns, name);
		label(&deploy, "app", deploy.name);
		snprintf(rsold, sizeof(rsold), "%.40s-old", name);
		start(g, &rs_old, t->replicasets, ns, rsold);
		own(&rs_old, &deploy, 1);
		snprintf(rsname, sizeof(rsname), "%.40s-cur", name);
		start(g, &rs_cur, t->replicasets, ns, rsname);
		own(&rs_cur, &deploy, 1);
		label(&rs_cur, "app", deploy.name);
		if (pass == P_DEPLOYMENTS)
			emit(g, &deploy);
		if (pass == P_REPLICASETS) {
			emit(g, &rs_old);
			emit(g, &rs_cur);
		}
		for (i = 0; i < 10; i++) {
			snprintf(name, sizeof(name), "%.40s-%" PRIu64, rsname, i);
			start(g, &pod, t->pods, ns, name);
			label(&pod, "app", deploy.name);
			own(&pod, &rs_cur, 1);
			/* one Pod in 200 names a ReplicaSet that is not there */
			if ((g->serial % 200) == 7) {
				make_uid(&g->uids, pod.ref_uids[0]);
				snprintf(pod.ref_names[0], sizeof(pod.ref_names[0]), "%.40s-gone",
					 rsname);
			}
			if (pass == P_PODS)
				emit(g, &pod);
		}
		/* a Widget and what it owns */
		snprintf(name, sizeof(name), "w-%" PRIu64, app);
		start(g, &widget, t->widgets, ns, name);
		if (pass == P_WIDGETS)
			emit(g, &widget);
		snprintf(name, sizeof(name), "w-%" PRIu64 "-a", app);
		start(g, &a, t->configmaps, ns, name);
		own(&a, &widget, 1);
		/* one in 200 names its Widget with another UID */
		if ((g->serial % 200) == 11)
			make_uid(&g->uids, a.ref_uids[0]);
		snprintf(name, sizeof(name), "w-%" PRIu64 "-b", app);
		start(g, &b, t->configmaps, ns, name);
		own(&b, &widget, 1);
		if (have_prev)
			own(&b, &prev_widget, 0);
		snprintf(name, sizeof(name), "w-%" PRIu64 "-s", app);
		start(g, &s, t->secrets, ns, name);
		own(&s, &widget, 1);
		if (pass == P_CONFIGMAPS) {
			emit(g, &a);
			emit(g, &b);
		}
		if (pass == P_SECRETS)
			emit(g, &s);
		made += 17;
		/* held in deletion by a finalizer, one in four apps */
		if (app % 4 == 3 && made < budget) {
			snprintf(name, sizeof(name), "held-%" PRIu64, app);
			start(g, &held, t->configmaps, ns, name);
			own(&held, &widget, 1);
			held.finalizer = FINALIZER;
			rfc3339(BASE_TIME + 3600, held.deleted);
			if (pass == P_CONFIGMAPS)
				emit(g, &held);
			made++;
		}
		prev_widget = widget;
		have_prev = 1;
	}
	/* the rest of the namespace's share: ConfigMaps nothing owns */
	for (i = 0; made < budget; i++, made++) {
		snprintf(name, sizeof(name), "cm-%" PRIu64, i);
		start(g, &a, t->configmaps, ns, name);
		if (pass == P_CONFIGMAPS)
			emit(g, &a);
	}
}

static void listed(struct generator *g, const struct owners_resource *type)
{
	struct owners_snapshot_listed l;

	if (g->failed)
		return;
	memset(&l, 0, sizeof(l));
	l.type = type;
	l.resource_version = "";
	if (owners_snapshot_write_listed(g->w, &l, &g->err))
		g->failed = 1;
}

static int add_types(struct owners_resource_table *table)
{
	static const struct fake_type base[] = {
		{ "", "v1", "namespaces", "namespace", "Namespace", "ns", 0, 1 },
		{ "", "v1", "pods", "pod", "Pod", "po", 1, 1 },
		{ "", "v1", "configmaps", "configmap", "ConfigMap", "cm", 1, 1 },
		{ "", "v1", "secrets", "secret", "Secret", NULL, 1, 1 },
		{ "apps", "v1", "deployments", "deployment", "Deployment", "deploy", 1, 1 },
		{ "apps", "v1", "replicasets", "replicaset", "ReplicaSet", "rs", 1, 1 },
		{ GROUP, "v1", "widgets", "widget", "Widget", NULL, 1, 1 },
	};
	char group[64], plural[32], singular[32], kind[32];
	size_t i;

	for (i = 0; i < sizeof(base) / sizeof(*base); i++)
		if (fake_type_add(table, &base[i]))
			return -1;
	for (i = 0; i < 200; i++) {
		snprintf(group, sizeof(group), "g%02zu.%s", i / 10, GROUP);
		snprintf(plural, sizeof(plural), "thing%03zus", i);
		snprintf(singular, sizeof(singular), "thing%03zu", i);
		snprintf(kind, sizeof(kind), "Thing%03zu", i);
		if (fake_type_add(table, &(const struct fake_type){ group, "v1", plural, singular,
								    kind, NULL, i % 5 != 0, 1 }))
			return -1;
	}
	return 0;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: snapgen -objects N [-seed S] [-change PERCENT] [-ndjson FILE] -o FILE\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct owners_resource_table table;
	struct owners_snapshot_header h;
	struct generator g;
	struct types t;
	const char *out = NULL, *ndjson = NULL;
	uint64_t objects = 0, seed = 1, share, first, left;
	size_t n_ns, k, i;
	unsigned change = 0;
	int pass;

	for (i = 1; i < (size_t)argc; i += 2) {
		const char *v = i + 1 < (size_t)argc ? argv[i + 1] : NULL;

		if (!v)
			usage();
		if (!strcmp(argv[i], "-objects"))
			objects = strtoull(v, NULL, 10);
		else if (!strcmp(argv[i], "-seed"))
			seed = strtoull(v, NULL, 10);
		else if (!strcmp(argv[i], "-change"))
			change = (unsigned)strtoul(v, NULL, 10);
		else if (!strcmp(argv[i], "-ndjson"))
			ndjson = v;
		else if (!strcmp(argv[i], "-o"))
			out = v;
		else
			usage();
	}
	if (!objects || !out || change > 33)
		usage();
	memset(&table, 0, sizeof(table));
	if (add_types(&table)) {
		fprintf(stderr, "snapgen: out of memory\n");
		return 1;
	}
	t.namespaces = owners_resource_by_gvk(&table, "v1", "Namespace");
	t.pods = owners_resource_by_gvk(&table, "v1", "Pod");
	t.configmaps = owners_resource_by_gvk(&table, "v1", "ConfigMap");
	t.secrets = owners_resource_by_gvk(&table, "v1", "Secret");
	t.deployments = owners_resource_by_gvk(&table, "apps/v1", "Deployment");
	t.replicasets = owners_resource_by_gvk(&table, "apps/v1", "ReplicaSet");
	t.widgets = owners_resource_by_gvk(&table, GROUP "/v1", "Widget");

	memset(&g, 0, sizeof(g));
	g.change = change;
	g.err = (struct owners_error)OWNERS_ERROR_INIT;
	if (ndjson && !(g.ndjson = fopen(ndjson, "w"))) {
		perror(ndjson);
		return 1;
	}
	memset(&h, 0, sizeof(h));
	h.format = "owners snapshot";
	h.taken_at = BASE_TIME + 86400;
	h.server = "https://snapgen.invalid";
	h.server_version = "v1.34.1";
	h.cluster_scoped = 1;
	h.has_discovery = 1;
	if (owners_snapshot_write_open(&g.w, out, OWNERS_SNAPSHOT_FORMAT, &g.err) ||
	    owners_snapshot_write_header(g.w, &h, &table, &g.err)) {
		fprintf(stderr, "snapgen: %s\n", owners_error_message(&g.err));
		return 1;
	}
	/* the bench cluster's spread: bench-0 a tenth when that is more */
	n_ns = objects / 1000 > 4 ? (size_t)(objects / 1000) : 4;
	share = objects / n_ns;
	first = objects / 10 > share ? objects / 10 : share;
	for (pass = P_NAMESPACES; pass < P_END; pass++) {
		g.uids = seed;
		g.changes = seed ^ 0x5eedull;
		g.serial = 0;
		left = objects;
		for (k = 0; k < n_ns && !g.failed; k++) {
			uint64_t budget = k == 0 ? first : (left / (n_ns - k));

			namespace_objects(&g, &t, (enum pass)pass, k, budget);
			left = left > budget ? left - budget : 0;
		}
	}
	for (i = 0; i < table.count; i++)
		listed(&g, &table.items[i]);
	if (g.failed || owners_snapshot_write_close(g.w, 0, &g.err)) {
		fprintf(stderr, "snapgen: %s\n", owners_error_message(&g.err));
		return 1;
	}
	if (g.ndjson && fclose(g.ndjson)) {
		perror(ndjson);
		return 1;
	}
	fprintf(stderr, "snapgen: %" PRIu64 " objects in %zu namespaces written to %s\n", g.written,
		n_ns, out);
	owners_resource_table_clear(&table);
	return 0;
}
