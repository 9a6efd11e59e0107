/* libFuzzer target: a snapshot read into a graph, as --from reads one
 * (lib/graph/snapshot_lists.c over lib/snapshot), on any bytes, twice:
 *
 *   - through the scan into the graph, where each format-2 batch's UIDs
 *     are told ahead (the visitor's `ahead`, owners_graph_prefetch_uid())
 *     and the graph looks them up by the text addresses it was told;
 *   - with every object handed on (the scan's on_object) and added one by
 *     one: nothing told ahead.
 *
 * Both graphs must hold the same nodes, each with the same name, kind,
 * namespace, resourceVersion and references to the same UIDs: what is
 * told ahead may make a read faster, never change what it reads. abort()
 * otherwise, which libFuzzer reports as a crash. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "graph.h"
#include "input_file.h"
#include "list_source.h"
#include "snapshot.h"
#include "snapshot_lists.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int on_types(void *ctx, const struct owners_resource_table *t)
{
	struct owners_resource_table *into = ctx;
	size_t i;

	for (i = 0; i < t->count; i++)
		if (owners_resource_table_add(into, &t->items[i]))
			return OWNERS_ENOMEM;
	owners_resource_table_mark_tracked(into);
	return OWNERS_ESTOP; /* the rest is read by each scan */
}

static int add_one_by_one(void *ctx, const struct owners_resource *r,
			  const struct owners_object_meta *m)
{
	return owners_graph_add(ctx, r, m);
}

/* Every scan of the whole snapshot, into g (or, with each, to each). */
static int read_into(struct owners_snapshot_reader *reader,
		     const struct owners_resource_table *types, struct owners_graph *g,
		     int (*each)(void *, const struct owners_resource *,
				 const struct owners_object_meta *))
{
	struct owners_snapshot_lists lists = { 0 };
	struct owners_list_source src;
	struct owners_scan_options o = { 0 };
	struct owners_scan_report report = { 0 };
	struct owners_error err = OWNERS_ERROR_INIT;
	int rc;

	lists.reader = reader;
	lists.shown = "the fuzzed snapshot";
	lists.scope = "taken";
	owners_snapshot_lists_source(&src, &lists);
	o.cluster_scoped = 1;
	if (each) {
		o.on_object = each;
		o.on_object_ctx = g;
	}
	rc = owners_list_source_scan(&src, each ? NULL : g, types, &o, &report, &err);
	owners_scan_report_clear(&report);
	owners_error_clear(&err);
	return rc ? rc : owners_graph_link(g);
}

static int same_text(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

/* Whether b holds every node of a as a holds it. */
static void check_holds(const struct owners_graph *a, const struct owners_graph *b)
{
	uint32_t i, j, k;

	for (i = 0; i < a->count; i++) {
		const struct owners_node *n = &a->nodes[i], *m;

		j = owners_graph_find_uid(b, OWNERS_NODE_UID(n));
		if (j >= b->count)
			abort(); /* a node the other read does not have */
		m = &b->nodes[j];
		if (n->virtual_ != m->virtual_ || n->n_refs != m->n_refs ||
		    !same_text(n->name, m->name) || !same_text(n->place->kind, m->place->kind) ||
		    !same_text(n->place->namespace_, m->place->namespace_) ||
		    strcmp(OWNERS_NODE_RV(n), OWNERS_NODE_RV(m)))
			abort(); /* the same UID read as another object */
		for (k = 0; k < n->n_refs; k++)
			if (strcmp(OWNERS_REF_UID(a, &n->refs[k]),
				   OWNERS_REF_UID(b, &m->refs[k])) ||
			    !same_text(n->refs[k].name, m->refs[k].name))
				abort(); /* a reference to another owner */
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	struct owners_snapshot_visitor v = { 0 };
	struct owners_snapshot_reader *reader = NULL;
	struct owners_resource_table types;
	struct owners_graph *told = NULL, *one_by_one = NULL;
	struct owners_error err = OWNERS_ERROR_INIT;
	int rc_told, rc_one;

	if (!fuzz_input_file(path, sizeof(path), "snapshot-graph", "", data, size))
		return 0;
	owners_resource_table_init(&types);
	v.types = on_types;
	v.ctx = &types;
	if (owners_snapshot_reader_open(&reader, path, path, NULL, &err) ||
	    owners_snapshot_reader_read(reader, &v, NULL, &err) || !types.count)
		goto done;
	if (owners_graph_new(&told, &types) || owners_graph_new(&one_by_one, &types))
		goto done;
	rc_told = read_into(reader, &types, told, NULL);
	rc_one = read_into(reader, &types, one_by_one, add_one_by_one);
	if (!rc_told != !rc_one)
		abort(); /* one read failed, the other did not */
	if (!rc_told) {
		if (told->count != one_by_one->count)
			abort();
		check_holds(told, one_by_one);
	}
done:
	owners_graph_free(told);
	owners_graph_free(one_by_one);
	owners_snapshot_reader_close(reader);
	owners_resource_table_clear(&types);
	owners_error_clear(&err);
	unlink(path);
	return 0;
}
