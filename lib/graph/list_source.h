/*
 * Where a scan's lists come from: the seam between what is scanned and
 * how the lists are read. A scan hands its source the options of one
 * scan (the types it wants, where, the page size, the callbacks); the
 * source fills the graph (or hands each object to on_object) and reports
 * what could not be listed, exactly as owners_scan_run() does.
 *
 * One source today, a live cluster (owners_list_source_live(): each list
 * a paged request to the API server); a file of lists recorded earlier (a
 * snapshot) is the next, read through the same struct, so that nothing
 * above the seam (the two-pass scan, -l, the cross-namespace look-up)
 * knows which one it reads.
 *
 * Ownership: a source borrows what ctx points to (the live one, the HTTP
 * client, which must outlive it) and holds nothing to free.
 */
#ifndef OWNERS_LIST_SOURCE_H
#define OWNERS_LIST_SOURCE_H

#include "graph.h"
#include "http.h"
#include "owners_error.h"
#include "resource.h"
#include "scan.h"

struct owners_list_source {
	/* Lists what o asks for into g (NULL with o->on_object), the failures
	 * in report (the caller's: owners_scan_report_clear()). 0, or an
	 * OWNERS_E* code with err set when the scan itself could not run. */
	int (*list)(void *ctx, struct owners_graph *g, const struct owners_resource_table *types,
		    const struct owners_scan_options *o, struct owners_scan_report *report,
		    struct owners_error *err);
	void *ctx;
};

/* The live cluster behind c: owners_scan_run() over c. */
void owners_list_source_live(struct owners_list_source *out, struct owners_http_client *c);

/* Lists through src (see the list member). */
int owners_list_source_scan(const struct owners_list_source *src, struct owners_graph *g,
			    const struct owners_resource_table *types, const struct owners_scan_options *o,
			    struct owners_scan_report *report, struct owners_error *err);

#endif
