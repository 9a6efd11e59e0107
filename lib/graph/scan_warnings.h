/*
 * What a scan could not see, worded once for every command: the lines
 * each command warns with on stderr and puts in its document's
 * "warnings". One line per failed discovery group; the forbidden types
 * together on one line, those that can hold part of the answer named
 * (the others counted, named under -v=1); any other list failure on its
 * own line; then the command's own notes.
 *
 * Ownership: the input is borrowed; *out and its lines are the caller's
 * (owners_strv_free()).
 */
#ifndef OWNERS_GRAPH_SCAN_WARNINGS_H
#define OWNERS_GRAPH_SCAN_WARNINGS_H

#include <stddef.h>

#include "graph.h"
#include "resource.h"
#include "scan.h"

struct owners_scan_warnings_input {
	const struct owners_resource_table *types; /* its failed groups; may be NULL */
	const struct owners_scan_report *scan;     /* the scan's report; may be NULL */
	const struct owners_scan_report *more;     /* further scans' reports (n_more) */
	size_t n_more;
	/* which forbidden types matter (owners_graph_type_can_hold_answer());
	 * NULL: every one does */
	const struct owners_graph *g;
	int answer_namespaced_only;
	int name_all;                              /* -v=1: every forbidden type named */
	char *const *notes;                        /* appended as they are */
	size_t n_notes;
};

/* Types named on the forbidden line at default verbosity. */
#define OWNERS_FORBIDDEN_NAMED 8

/* 0, or OWNERS_ENOMEM (*out then NULL). */
int owners_scan_warnings(char ***out, size_t *n, const struct owners_scan_warnings_input *in);

#endif
