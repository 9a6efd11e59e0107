/* libFuzzer target: owners' snapshot reader (lib/snapshot/snapshot_file.c) on
 * any bytes, plain or gzip, through the file it reads from: every
 * callback's arguments are read, and a failure must carry a message
 * naming the file. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input_file.h"
#include "snapshot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t sink;

/* uid is NULL at a batch's edges ("forget what was told"); the type may be
 * NULL then too, so both are read only when the hook names an object. */
static const char *last_told;

/* uid is NULL at a batch's edges ("forget what was told"); within a batch
 * the text is told at rising addresses, which the graph's memo of what it
 * was told relies on: a fall is a broken promise, so abort. */
static void on_ahead(void *ctx, const struct owners_resource *r, const char *uid)
{
	(void)ctx;
	if (!uid) {
		last_told = NULL;
		return;
	}
	if (last_told && uid < last_told)
		abort();
	last_told = uid;
	sink += strlen(r->resource) + strlen(uid);
}

static int on_types(void *ctx, const struct owners_resource_table *t)
{
	(void)ctx;
	sink += t->count + t->n_failed;
	return 0;
}

static int on_object(void *ctx, const struct owners_resource *r, const struct owners_object_meta *m)
{
	size_t i;

	(void)ctx;
	sink += strlen(r->kind) + strlen(m->name) + strlen(m->uid) + strlen(m->namespace_);
	for (i = 0; i < m->n_owner_refs; i++)
		sink += strlen(m->owner_refs[i].uid) + strlen(m->owner_refs[i].kind);
	for (i = 0; i < m->n_labels; i++)
		sink += strlen(m->labels[i].key) + strlen(m->labels[i].value);
	return 0;
}

static int on_listed(void *ctx, const struct owners_snapshot_listed *l)
{
	(void)ctx;
	sink += strlen(l->type->resource) + strlen(l->message) + (l->namespace_ ? strlen(l->namespace_) : 0);
	return 0;
}

static int on_fact(void *ctx, const struct owners_snapshot_fact *f)
{
	(void)ctx;
	if (f->status)
		sink += strlen(f->status->ready) + strlen(f->status->status) + strlen(f->uid);
	if (f->json)
		sink += strlen(f->json) + (f->path ? strlen(f->path) : 0);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	struct owners_snapshot_visitor v = { NULL, on_types, on_object, on_listed, on_fact,
					     NULL, NULL,     NULL,      on_ahead };
	struct owners_error err = OWNERS_ERROR_INIT;

	if (!fuzz_input_file(path, sizeof(path), "snapshot", "", data, size))
		return 0;
	if (owners_snapshot_read(path, &v, &err) && !strstr(owners_error_message(&err), path))
		abort(); /* every failure names the file */
	owners_error_clear(&err);
	unlink(path);
	return 0;
}
