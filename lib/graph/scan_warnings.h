/*
 * What a scan could not see, worded once for every command: the lines
 * each command warns with on stderr and puts in its document's
 * "warnings". One line per failed discovery group; the forbidden types
 * together on one line, those that can hold part of the answer named
 * (the others counted, named under -v=1); any other list failure on its
 * own line; then the command's own notes.
 *
 * Documents take the structured form instead (owners_scan_warnings_list()):
 * one warning per failed group, per failed list and per forbidden type,
 * every one named, never counted: a script cannot pass -v=1 to a
 * document, and a count tells it nothing it can act on.
 *
 * Ownership: the input is borrowed; *out and its lines are the caller's
 * (owners_strv_free()); a list from owners_scan_warnings_list() is the
 * caller's (owners_scan_warnings_list_free()).
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

/* Why something could not be seen. */
enum owners_scan_warning_reason {
	OWNERS_SCAN_WARNING_DISCOVERY_FAILED, /* a group/version's discovery failed: its types are unknown */
	OWNERS_SCAN_WARNING_FORBIDDEN,        /* listing a type was refused to this user */
	OWNERS_SCAN_WARNING_LIST_FAILED,      /* listing a type failed otherwise */
	OWNERS_SCAN_WARNING_NOTE,             /* the command's own note */
};

/* One warning as a document carries it. */
struct owners_scan_warning {
	enum owners_scan_warning_reason reason;
	/* the type (group "" for the core group); discovery: the group and
	 * version only (resource NULL); a note: all NULL */
	char *group;
	char *version;
	char *resource;
	/* forbidden: whether objects of the type can be part of the answer
	 * (owners_graph_type_can_hold_answer()); else 1 */
	int can_hold_answer;
	char *message; /* the line's words for this one warning */
};

struct owners_scan_warning_list {
	struct owners_scan_warning *items;
	size_t n, cap;
};

/* "DiscoveryFailed", "Forbidden", "ListFailed", "Note". */
const char *owners_scan_warning_reason_name(enum owners_scan_warning_reason r);

/* Every warning, in the order of owners_scan_warnings()'s lines: failed
 * groups, failed lists, forbidden types (those that can hold part of the
 * answer first, each part sorted by name, a type refused by several
 * reports once), the notes. in->name_all is not read: all are named.
 * 0, or OWNERS_ENOMEM (*out then empty). */
int owners_scan_warnings_list(struct owners_scan_warning_list *out, const struct owners_scan_warnings_input *in);
/* Frees what the list holds and empties it (accepts an empty list). */
void owners_scan_warnings_list_free(struct owners_scan_warning_list *l);

#endif
