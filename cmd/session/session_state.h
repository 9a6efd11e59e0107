/*
 * What a session holds, for the session's own files (the .c files of
 * cmd/session/) and its unit test only: a command asks session.h's
 * functions instead, so that what the session keeps can change without a
 * command knowing (tests/layers refuses this header anywhere else).
 */
#ifndef OWNERS_CMD_SESSION_STATE_H
#define OWNERS_CMD_SESSION_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "list_shuffle.h"
#include "list_source.h"
#include "owners_error.h"
#include "resource.h"
#include "scan.h"
#include "session.h"

struct owners_object_arg;
struct owners_selection_arg;

/* A set of types, for a scan's want filter: session_types_want() accepts
 * a type whose resource (any version) is in it. types is the owner's to
 * free. */
struct session_types {
	const struct owners_resource **types;
	size_t count, cap;
};

struct session_snapshot;

struct session {
	struct owners_cli *cli;
	/* --from: the snapshot read instead of the cluster (NULL: live). */
	struct session_snapshot *snap;
	/* The time the answer is about: the snapshot's, else the clock's. */
	int64_t now;
	/* OWNERS_TEST_NOW, read once when the session connects (0: none):
	 * session_now() is asked on every frame of a watch. */
	int64_t fixed_now;
	struct owners_rest_config *cfg;
	struct owners_http_client *http;
	/* Where every scan of the session reads its lists (the live cluster
	 * behind http; lib/graph/list_source.h). */
	struct owners_list_source lists;
	/* OWNERS_TEST_SHUFFLE: the lists above, handed on in a seed's order
	 * (lib/graph/list_shuffle.h); lists then reads through it. */
	struct owners_list_shuffle shuffle;
	struct owners_resource_table types;
	int types_loaded;
	int types_fresh; /* discovery was fetched in this run */
	struct owners_graph *graph;
	struct owners_scan_report scan;
	const char *namespace_; /* effective namespace (flag or context) */
	int (*want)(void *ctx, const struct owners_resource *r); /* scan filter */
	void *want_ctx;
	/* Types the GC does not track that this command names as roots
	 * (session_also_list()): listed by every scan besides the tracked ones. */
	struct session_types extra;
	/* The arguments session_resolve_args() resolved (args, the
	 * session's) from their typed names (typed, the caller's): resolved
	 * again whenever discovery is refreshed, so that they point into the
	 * current table. */
	const struct owners_object_arg *typed;
	struct owners_selection_arg *args;
	size_t n_args;
	int also_list;
	/* Tables a refresh replaced, kept until the session closes: a type
	 * pointer held anywhere never dangles. */
	struct owners_resource_table *retired;
	size_t n_retired, cap_retired;
	/* Further warnings a command adds about this scan (session_note()),
	 * worded by it, given out with the scan's own by session_warnings(). */
	char **notes;
	size_t n_notes, cap_notes;
	/* Set by a command whose answer holds namespaced objects only (see
	 * owners_graph_type_can_hold_answer()): the warnings then name the
	 * types that could not be listed and matter, and count the rest. */
	int answer_namespaced_only;
	/* Set by a command that answers about roots: a name given with -A is
	 * the namespace's, -A widening where its dependents are sought. */
	int names_in_namespace;
	/* Told each list's resourceVersion as the scans make them (a watch
	 * starts there); NULL when nobody asks. Called with r NULL when a
	 * refreshed discovery voids what was listed so far (the scan starts
	 * again, and r of the earlier calls is gone). */
	int (*on_listed)(void *ctx, const struct owners_resource *r, const char *ns,
			 const char *rv);
	void *on_listed_ctx;
	/* A command that asks for relations: the scans keep the labels
	 * Pods are selected by (session_relations.h). */
	int related;
	/* An upward scan (session_scan_upward()): what its first pass reads. */
	struct {
		int on;
		const struct owners_selection_arg *roots;
		size_t n_roots;
		int users; /* and the types that may use the roots' kinds */
	} upward;
	struct owners_error err;
};

int session_types_want(void *ctx, const struct owners_resource *r);
/* Adds r unless its resource is in already. 0, or OWNERS_ENOMEM. */
int session_types_add(struct session_types *set, const struct owners_resource *r);

#endif
