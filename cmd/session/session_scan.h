/*
 * A session's scan: what the GC tracks (and the types named as roots)
 * listed into the owner graph, then the owner types the first pass found
 * a reference to; a whole scan again when discovery turns out stale; and
 * one type's list on its own (-l, completion). Every list goes through
 * the session's list source.
 */
#ifndef OWNERS_CMD_SESSION_SCAN_H
#define OWNERS_CMD_SESSION_SCAN_H

#include "output.h"
#include "selection.h"
#include "session.h"

/* Lists r (in the version owners lists it, see owners_graph_lookup_type())
 * in every scan even if the GC does not track it: a type named as a root
 * (an Event can be deleted, an events.k8s.io Event can own objects). A type
 * that cannot be listed is left out. 0, or OWNERS_ENOMEM. */
int session_also_list(struct session *s, const struct owners_resource *r);
/* The version of r whose list the scan made (what to look objects of type
 * r up in). */
const struct owners_resource *session_listed_type(const struct session *s, const struct owners_resource *r);
/* The options every list of this run shares (page size, list format);
 * the rest zeroed. */
void session_scan_options(const struct session *s, struct owners_scan_options *o);
/* OWNERS_LIST_FORMAT=json: every list (the scan's and the status lists)
 * in JSON only, to debug or to compare. */
int session_json_only(void);
/* Under the test hook OWNERS_TEST_SHUFFLE=SEED, the lists (just set: live
 * or a snapshot) is read through a shuffle of that seed from now on. */
void session_lists_shuffle(struct session *s);
/* ns NULL: all namespaces. Lists what the GC tracks (and the types of
 * session_also_list()), then, in a second pass, the types the GC does not
 * track that own something the first pass saw, so that such owners are
 * looked up as the GC looks them up instead of read as unknown. */
enum exit_code session_scan(struct session *s, const char *ns);
/* The scan of an answer above the roots (tree --up): the roots' types
 * first, and with users every type that may use one of their kinds (who
 * uses them, for relations); then, pass after pass, the owner types what
 * was read names, until the owners of every object read are read. Types
 * nothing on the way up names are not listed: the requests grow with the
 * types an answer crosses, not with every type the server has. From a
 * snapshot, which every pass would read whole again, it is one scan of
 * everything. The roots are borrowed for the call. */
enum exit_code session_scan_upward(struct session *s, const char *ns,
				   const struct owners_selection_arg *roots, size_t n, int users);
/* Scans again (same scope), replacing the graph and the report; want,
 * when set, limits the types listed (see owners_scan_options). */
enum exit_code session_rescan(struct session *s, const char *ns,
		   int (*want)(void *ctx, const struct owners_resource *r), void *want_ctx);
/* One paged list of a type, each object handed to on_object and none
 * kept: the scan's own list (-l roots, completion). */
struct session_list {
	const struct owners_resource *type;
	const char *ns;       /* NULL: everywhere */
	const char *selector; /* only the objects with these labels; NULL: all */
	int (*on_object)(void *ctx, const struct owners_resource *r, const struct owners_object_meta *m);
	void *ctx;
};
int session_list_type(struct session *s, const struct session_list *l, struct owners_scan_report *report);

#endif
