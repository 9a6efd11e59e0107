#include "list_source.h"

static int list_live(void *ctx, struct owners_graph *g, const struct owners_resource_table *types,
		     const struct owners_scan_options *o, struct owners_scan_report *report,
		     struct owners_error *err)
{
	return owners_scan_run(g, ctx, types, o, report, err);
}

void owners_list_source_live(struct owners_list_source *out, struct owners_http_client *c)
{
	out->list = list_live;
	out->ctx = c;
}

int owners_list_source_scan(const struct owners_list_source *src, struct owners_graph *g,
			    const struct owners_resource_table *types, const struct owners_scan_options *o,
			    struct owners_scan_report *report, struct owners_error *err)
{
	int rc = src->list(src->ctx, g, types, o, report, err);

	/* failures in one order, not the order the lists failed in */
	owners_scan_report_sort(report);
	return rc;
}
