/*
 * The scanner: lists every type the garbage collector can act on (list,
 * watch and delete verbs; no subresources; no events) as metadata only
 * (PartialObjectMetadataList), paginated, all types in flight at once,
 * each response parsed as a stream straight into the graph.
 *
 * A type that fails to list (forbidden, broken) does not fail the scan: it
 * is recorded in the graph (owners_graph_note_listing) so whatever depends
 * on it reads as unknown, and it is returned in the report.
 *
 * Ownership: the report owns its strings (owners_scan_report_clear()).
 */
#ifndef OWNERS_SCAN_H
#define OWNERS_SCAN_H

#include <stddef.h>

#include "owners_error.h"
#include "graph.h"
#include "http.h"
#include "list_page.h"
#include "resource.h"

struct owners_scan_options {
	/* Namespaced types are listed here only; NULL lists all namespaces. */
	const char *namespace_;
	/* Cluster-scoped types are listed too (they can own namespaced objects). */
	int cluster_scoped;
	/* Objects per page (limit); 0: OWNERS_DEFAULT_PAGE_SIZE for a
	 * list's first page, then four times the last up to
	 * OWNERS_GROWN_PAGE_SIZE (see owners_list_page_limit()). */
	size_t page_size;
	/* When set, only types it accepts are listed (the others read as not
	 * listed: unknown, never absent). */
	int (*want)(void *ctx, const struct owners_resource *r);
	void *want_ctx;
	/* Only this type, whatever owners_scan_wants() says of it (NULL:
	 * every type the scan wants, filtered by want). */
	const struct owners_resource *only;
	/* Types listed besides those the GC tracks (want still filters):
	 * objects of a type the GC ignores that are named as roots, or that
	 * own tracked objects (an events.k8s.io Event can). */
	const struct owners_resource *const *extra;
	size_t n_extra;
	/* Only objects with these labels (a label selector; NULL: all). */
	const char *label_selector;
	/* When set, every object goes to on_object instead of into the graph
	 * (which may then be NULL, and no listing is noted in it); a non-zero
	 * return stops that type's list as a failure. */
	int (*on_object)(void *ctx, const struct owners_resource *r,
			 const struct owners_object_meta *m);
	void *on_object_ctx;
	/* When set, shown every object as it is read, before it goes into
	 * the graph or to on_object (a snapshot writes it); a non-zero
	 * return fails the type's list. */
	int (*tap)(void *ctx, const struct owners_resource *r, const struct owners_object_meta *m);
	void *tap_ctx;
	/* Ask for JSON only. Otherwise protobuf comes first in the Accept
	 * header, JSON as the fallback (some aggregated API servers speak only
	 * JSON), and each page is read by the Content-Type it comes with. */
	int json_only;
	/* When set, called as each type's list comes back whole, with the
	 * list's resourceVersion ("" when the server sent none): where a
	 * watch of the type picks up. A non-zero return fails the scan. */
	int (*on_listed)(void *ctx, const struct owners_resource *r, const char *namespace_,
			 const char *resource_version);
	void *on_listed_ctx;
	/* Keep each object's labels in the graph (node->labels), for the
	 * columns that show them; otherwise they are skipped as read. */
	int keep_labels;
};

struct owners_scan_failure {
	const struct owners_resource *resource;
	int code;
	char *message;  /* "cannot list 'secrets' in namespace 'default': forbidden" */
	/* The server's or the client's own words for the failed request
	 * alone: 'secrets is forbidden: User "x" cannot list resource
	 * "secrets" in API group "" in the namespace "default"', "TLS
	 * verification of https://... failed: ...". NULL when the list failed
	 * on what came back rather than on the request. */
	char *detail;
};

/* A list that waited out the HTTP client's answer deadline: a request of
 * it got no answer and was sent again, so the list spans that wait. */
struct owners_scan_wait {
	const struct owners_resource *resource;
	char *namespace_;  /* NULL: every namespace, or a cluster-scoped type */
	int unanswered;    /* requests given up unanswered */
	long waited_ms;    /* the time those took */
	long took_ms;      /* the whole list's */
};

struct owners_scan_report {
	struct owners_scan_failure *failures;
	size_t n_failures;
	size_t cap_failures;
	struct owners_scan_wait *waits;  /* in the order the lists ended; sorted by owners_scan_report_sort() */
	size_t n_waits;
	size_t cap_waits;
	size_t types_listed;
	size_t objects;
	size_t pages;
	size_t restarts;  /* lists restarted after 410 Expired */
};

/* Whether the scanner lists this type at all. */
int owners_scan_wants(const struct owners_resource *r);

/* Whether a scan with options o lists r (every source of lists decides
 * alike). */
int owners_scan_selects(const struct owners_scan_options *o, const struct owners_resource *r);
/* A list that failed, as a source tells it. */
struct owners_scan_failed {
	const struct owners_resource *resource;
	const char *namespace_; /* NULL: every namespace, or cluster-scoped */
	int code;
	const char *message;
	const char *detail;     /* NULL when none */
};

/* Adds the failed list f to rep (message and detail copied) and, when g
 * is given, notes it in the graph. 0 or OWNERS_ENOMEM. */
int owners_scan_report_failure(struct owners_scan_report *rep, struct owners_graph *g,
			       const struct owners_scan_failed *f);

int owners_scan_run(struct owners_graph *g, struct owners_http_client *c,
		    const struct owners_resource_table *types, const struct owners_scan_options *o,
		    struct owners_scan_report *report, struct owners_error *err);
void owners_scan_report_clear(struct owners_scan_report *r);
/* Adds a copy of w to rep. 0 or OWNERS_ENOMEM. */
int owners_scan_report_wait(struct owners_scan_report *rep, const struct owners_scan_wait *w);
/* The wait rep holds for r's list in ns (NULL: none). */
const struct owners_scan_wait *owners_scan_report_find_wait(const struct owners_scan_report *rep,
							    const struct owners_resource *r, const char *ns);
/* The failures in one order, whatever order the lists failed in: by
 * group, resource and version, then message; the waits by type and
 * namespace (every list source's report is sorted so,
 * owners_list_source_scan()). */
void owners_scan_report_sort(struct owners_scan_report *r);


#endif
