/* The seam a scan reads its lists through: a source other than the live
 * cluster (a file of lists, next) fills the graph and the report as
 * owners_scan_run() would, with the options the scan asked for. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_objects.h"
#include "fake_types.h"
#include "list_source.h"
#include "tap.h"

/* A recorded list: one pod of namespace "a", and secrets refused. */
struct recorded {
	const struct owners_resource *pods, *secrets;
	const char *asked_namespace;
	int calls;
};

static int list_recorded(void *ctx, struct owners_graph *g, const struct owners_resource_table *types,
			 const struct owners_scan_options *o, struct owners_scan_report *report,
			 struct owners_error *err)
{
	struct recorded *rec = ctx;

	(void)types;
	(void)err;
	rec->calls++;
	rec->asked_namespace = o->namespace_;
	memset(report, 0, sizeof(*report));
	if (fake_object_try_add(g, rec->pods, FAKE_OBJECT("a", "web", "u-web")))
		return OWNERS_ENOMEM;
	owners_graph_note_listing(g, rec->pods, "a", 0, NULL);
	if (!(report->failures = calloc(1, sizeof(*report->failures))))
		return OWNERS_ENOMEM;
	report->failures[0].resource = rec->secrets;
	report->failures[0].code = OWNERS_EFORBIDDEN;
	report->failures[0].message = strdup("cannot list 'secrets' in namespace 'a': forbidden");
	report->n_failures = report->cap_failures = 1;
	report->types_listed = 1;
	report->objects = 1;
	return 0;
}

int main(void)
{
	struct owners_resource_table types;
	struct owners_list_source src = { list_recorded, NULL }, live;
	struct owners_scan_options o;
	struct owners_scan_report report;
	struct owners_error err = OWNERS_ERROR_INIT;
	struct owners_graph *g = NULL;
	struct recorded rec;
	int not_a_client;

	owners_resource_table_init(&types);
	fake_type_add(&types, &(struct fake_type){ "", "v1", "pods", "pod", "Pod", NULL, 1, 1 });
	fake_type_add(&types, &(struct fake_type){ "", "v1", "secrets", "secret", "Secret", NULL, 1, 1 });
	memset(&rec, 0, sizeof(rec));
	rec.pods = owners_resource_by_gvk(&types, "v1", "Pod");
	rec.secrets = owners_resource_by_gvk(&types, "v1", "Secret");
	src.ctx = &rec;
	memset(&o, 0, sizeof(o));
	o.namespace_ = "a";

	ok(owners_graph_new(&g, &types) == 0, "graph created");
	is_int(owners_list_source_scan(&src, g, &types, &o, &report, &err), 0, "a scan through another source");
	is_int(rec.calls, 1, "the source is asked once");
	is_str(rec.asked_namespace, "a", "with the scan's options");
	ok(owners_graph_find_uid(g, "u-web") != OWNERS_NO_NODE, "its objects are in the graph");
	ok(report.n_failures == 1 && report.failures[0].code == OWNERS_EFORBIDDEN,
	   "its failures are in the report, as a live scan's are");
	owners_scan_report_clear(&report);
	owners_graph_free(g);

	owners_list_source_live(&live, (struct owners_http_client *)&not_a_client);
	ok(live.list && live.ctx == (void *)&not_a_client, "the live source lists over the client given");
	owners_error_clear(&err);
	owners_resource_table_clear(&types);
	return tap_done();
}
