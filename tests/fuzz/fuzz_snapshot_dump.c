/* libFuzzer target: the readers of other people's dumps
 * (lib/snapshot/snapshot_dump*.c), on one file. The first byte says where
 * the rest goes: a file given alone (JSON or YAML, found from its first
 * byte: kubectl get output, kubectl cluster-info dump's stdout), a
 * must-gather's namespace List, a support bundle's per-namespace List or
 * custom resources' array, or kubectl cluster-info dump's directory. The
 * visitor touches every string it is handed (so the sanitizers see a bad
 * pointer) and checks the order snapshot.h promises: header once, then the
 * types, then objects, lists and facts whose types are in the table, then
 * end once, only on success. */
#define _XOPEN_SOURCE 700 /* nftw */
#include <ftw.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "snapshot_dump.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct seen {
	int headers, types, ends;
	unsigned percent; /* the progress told so far: it only grows, never past 100 */
	const struct owners_resource_table *table;
	size_t bytes;
};

static void in_table(const struct seen *s, const struct owners_resource *r)
{
	if (!s->table || r < s->table->items || r >= s->table->items + s->table->count)
		abort();
}

static int v_header(void *ctx, const struct owners_snapshot_header *h)
{
	struct seen *s = ctx;

	if (s->headers++ || s->types || s->ends)
		abort();
	s->bytes += strlen(h->format) + strlen(h->server_version) + strlen(h->server) +
		    strlen(h->path) + (h->namespace_ ? strlen(h->namespace_) : 0) +
		    (h->taken_at_from ? strlen(h->taken_at_from) : 0);
	return 0;
}

static int v_types(void *ctx, const struct owners_resource_table *t)
{
	struct seen *s = ctx;
	size_t i;

	if (!s->headers || s->types++)
		abort();
	s->table = t;
	for (i = 0; i < t->count; i++)
		s->bytes += strlen(t->items[i].resource) + strlen(t->items[i].api_version) +
			    strlen(t->items[i].singular) + strlen(t->items[i].group);
	return 0;
}

static int v_object(void *ctx, const struct owners_resource *type,
		    const struct owners_object_meta *m)
{
	struct seen *s = ctx;
	size_t i;

	in_table(s, type);
	if (!*m->uid || s->ends)
		abort();
	s->bytes += strlen(m->name) + strlen(m->namespace_) + strlen(m->resource_version) +
		    strlen(m->creation_timestamp) + strlen(m->deletion_timestamp);
	for (i = 0; i < m->n_owner_refs; i++)
		s->bytes += strlen(m->owner_refs[i].uid) + strlen(m->owner_refs[i].kind) +
			    strlen(m->owner_refs[i].name) + strlen(m->owner_refs[i].api_version) +
			    m->owner_ref_fields[i];
	for (i = 0; i < m->n_finalizers; i++)
		s->bytes += strlen(m->finalizers[i]);
	for (i = 0; i < m->n_labels; i++)
		s->bytes += strlen(m->labels[i].key) + strlen(m->labels[i].value);
	return 0;
}

static int v_listed(void *ctx, const struct owners_snapshot_listed *l)
{
	struct seen *s = ctx;

	in_table(s, l->type);
	s->bytes += strlen(l->resource_version) + (l->namespace_ ? strlen(l->namespace_) : 0);
	return 0;
}

static int v_fact(void *ctx, const struct owners_snapshot_fact *f)
{
	struct seen *s = ctx;

	if (!s->types || s->ends)
		abort();
	if (f->kind == OWNERS_SNAPSHOT_FACT_STATUS)
		s->bytes += strlen(f->uid) + strlen(f->status->ready) + strlen(f->status->status);
	else if (!f->json || strlen(f->json) != f->json_len || (f->path && !*f->path))
		abort();
	return 0;
}

static int v_end(void *ctx)
{
	struct seen *s = ctx;

	if (!s->types || s->ends++)
		abort();
	return 0;
}

static void v_progress(void *ctx, unsigned percent, uint64_t size)
{
	struct seen *s = ctx;

	(void)size;
	if (percent < s->percent || percent > 100)
		abort();
	s->percent = percent;
}

static void mkdirs(const char *base, const char *rel)
{
	char path[256], *p;

	snprintf(path, sizeof(path), "%s/%s", base, rel);
	for (p = path + strlen(base) + 1; (p = strchr(p, '/')); p++) {
		*p = 0;
		mkdir(path, 0700);
		*p = '/';
	}
}

static char base[64]; /* this process's dump folder */
static void remove_base(void);

/* Where the input goes, by the first byte; the path read. */
static const char *place(const uint8_t *data, size_t size, char *dir, size_t cap)
{
	static const char *const files[] = {
		"alone.json",
		"mg/namespaces/demo/core/pods.yaml",
		"sb/cluster-resources/pods/demo.json",
		"sb/cluster-resources/custom-resources/widgets.example.com/demo.json",
		"ci/demo/replication-controllers.json",
	};
	static const char *const roots[] = { "alone.json", "mg", "sb", "sb", "ci" };
	static char path[256];
	size_t which = size ? data[0] % 5 : 0;
	FILE *f;

	if (!base[0]) {
		snprintf(base, sizeof(base), "/tmp/owners-fuzz-dump.%ld", (long)getpid());
		atexit(remove_base);
	}
	mkdir(base, 0700);
	mkdirs(base, files[which]);
	snprintf(path, sizeof(path), "%s/%s", base, files[which]);
	if ((f = fopen(path, "w"))) {
		if (size > 1)
			fwrite(data + 1, 1, size - 1, f);
		fclose(f);
	}
	if (which == 4) { /* cluster-info dump's directory needs its nodes too */
		snprintf(path, sizeof(path), "%s/ci/nodes.json", base);
		if ((f = fopen(path, "w"))) {
			fputs("{\"kind\":\"NodeList\",\"apiVersion\":\"v1\",\"items\":null}\n", f);
			fclose(f);
		}
	}
	snprintf(dir, cap, "%s/%s", base, roots[which]);
	return dir;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *at)
{
	(void)st;
	(void)flag;
	(void)at;
	remove(path);
	return 0;
}

/* The dump's folder is kept from input to input (each writes one of its
 * layouts into it) and goes when the fuzzer ends. */
static void remove_base(void)
{
	nftw(base, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct seen s;
	struct owners_snapshot_visitor v = { v_header, v_types, v_object,   v_listed, v_fact,
					     v_end,    &s,      v_progress, NULL };
	struct owners_error err = OWNERS_ERROR_INIT;
	struct owners_snapshot_dump_counts c;
	char dir[256];
	int rc;

	memset(&s, 0, sizeof(s));
	rc = owners_snapshot_dump_read_counted(&c, place(data, size, dir, sizeof(dir)), &v, &err);
	/* Success is a whole walk; a failure says why, on one line. */
	if (!rc && (s.headers != 1 || s.types != 1 || s.ends != 1))
		abort();
	if (rc && (!err.msg.len || strchr(err.msg.ptr, '\n')))
		abort();
	owners_error_clear(&err);
	return 0;
}
