/*
 * Keeping an owner graph current, as a controller keeps its cache: one
 * watch per type, from the resourceVersion of the list that filled the
 * graph, each event applied to the graph as it comes (objects appear,
 * change their owners, go), and READY/STATUS kept for the types watched
 * with their full objects.
 *
 * What can go wrong is handled where client-go's reflector handles it:
 *  - the server ends a watch after its timeout: it resumes from the last
 *    resourceVersion (or bookmark) at once, unseen;
 *  - 410 Gone (the resourceVersion is older than the server keeps, e.g.
 *    after a compaction): that type is listed again (objects no longer
 *    there are forgotten) and watched from the new list;
 *  - a broken connection, a restarting server, 5xx: resumed from the last
 *    resourceVersion after a backoff (0.5 s doubling to 30 s);
 *  - a user who may list a type but not watch it: that type is listed
 *    again every OWNERS_WATCH_POLL_MS instead.
 * Each kind of failure of a type is told once through warn(), in words
 * that name the type; nothing is printed.
 *
 * Usage: owners_watch_add() each type, then loop: owners_http_wait() for
 * up to owners_watch_next_ms(), owners_watch_service() (relists and
 * resumes due; synchronous), owners_watch_take_changes() (the graph is
 * linked again when anything changed).
 *
 * Ownership: the watch borrows the graph, the client and the types (they
 * outlive it); it owns its status array (owners_watch_status()).
 */
#ifndef OWNERS_WATCH_H
#define OWNERS_WATCH_H

#include <stddef.h>
#include <stdint.h>

#include "owners_error.h"
#include "graph.h"
#include "http.h"
#include "object_status.h"
#include "resource.h"
#include "scan.h"

/* A type that may be listed but not watched is listed this often. */
#define OWNERS_WATCH_POLL_MS 10000
/* The first pause after a failed watch; doubled up to the second. */
#define OWNERS_WATCH_BACKOFF_MS 500
#define OWNERS_WATCH_BACKOFF_MAX_MS 30000

struct owners_watch_options {
	/* How relists list (page size, JSON only, labels): the scan's own. */
	struct owners_scan_options list;
	/* One line per failure, worded for the user; may be NULL. */
	void (*warn)(void *ctx, const char *line);
	void *warn_ctx;
};

struct owners_watch_stats {
	size_t watches;     /* types watched (or polled) */
	size_t events;      /* ADDED, MODIFIED and DELETED applied */
	size_t relists;     /* lists made again (410, or polling) */
	size_t resumes;     /* watches resumed after they ended */
};

struct owners_watch;

int owners_watch_new(struct owners_watch **out, struct owners_graph *g, struct owners_http_client *c,
		     const struct owners_resource_table *types, const struct owners_watch_options *o);
void owners_watch_free(struct owners_watch *w);

/* Watches r in ns (NULL: everywhere or cluster-scoped) from
 * resource_version ("" or NULL: lists it first). full: events carry whole
 * objects and READY/STATUS is kept for them; otherwise metadata only.
 * selector: only objects with these labels, and then the events do not
 * touch the graph: they keep the set owners_watch_selected() answers
 * (the roots of tree -l), started from the objects there now. A type
 * already watched (same selector) is left as it is. */
int owners_watch_add(struct owners_watch *w, const struct owners_resource *r, const char *ns,
		     const char *resource_version, int full, const char *selector);
/* Whether the object of this UID is in the set of a selector's watch. */
int owners_watch_selected(const struct owners_watch *w, const char *uid);

/* Starts what is due (resumes after a backoff, relists, polls). Runs the
 * client (owners_http_run) for relists; events keep arriving meanwhile. */
int owners_watch_service(struct owners_watch *w, struct owners_error *err);
/* Milliseconds until owners_watch_service() has something to do; -1: only
 * when an event comes. */
long owners_watch_next_ms(const struct owners_watch *w);
/* Whether the graph changed since the last call; when it did, the graph
 * is linked again. 1 changed, 0 not, or OWNERS_ENOMEM. */
int owners_watch_take_changes(struct owners_watch *w);
/* READY/STATUS per node index (count: the graph's node count, at least);
 * grown as the graph grows. Entries of nodes never fetched are empty. */
struct owners_object_status *owners_watch_status(struct owners_watch *w, size_t *count);
void owners_watch_get_stats(const struct owners_watch *w, struct owners_watch_stats *out);

#endif
