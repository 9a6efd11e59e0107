/*
 * What every cluster command does first: load the kubeconfig, open the
 * HTTP client, discover types, then scan into the owner graph; and the
 * warnings summary for types that could not be listed.
 */
#ifndef OWNERS_CMD_SESSION_H
#define OWNERS_CMD_SESSION_H

#include "access_review.h"
#include "owners_error.h"
#include "graph.h"
#include "http.h"
#include "object_args.h"
#include "options.h"
#include "resource.h"
#include "rest_config.h"
#include "scan.h"
#include "scan_warnings.h"
#include "selection.h"

/* A set of types, for a scan's want filter: session_types_want() accepts
 * a type whose resource (any version) is in it. types is the owner's to
 * free. */
struct session_types {
	const struct owners_resource **types;
	size_t count, cap;
};
int session_types_want(void *ctx, const struct owners_resource *r);
/* Adds r unless its resource is in already. 0, or OWNERS_ENOMEM. */
int session_types_add(struct session_types *set, const struct owners_resource *r);

struct session {
	struct owners_cli *cli;
	struct owners_rest_config *cfg;
	struct owners_http_client *http;
	struct owners_resource_table types;
	int types_loaded;
	int types_fresh;           /* discovery was fetched in this run */
	struct owners_graph *graph;
	struct owners_scan_report scan;
	const char *namespace_;    /* effective namespace (flag or context) */
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
	/* Told each list's resourceVersion as the scans make them (a watch
	 * starts there); NULL when nobody asks. Called with r NULL when a
	 * refreshed discovery voids what was listed so far (the scan starts
	 * again, and r of the earlier calls is gone). */
	int (*on_listed)(void *ctx, const struct owners_resource *r, const char *ns, const char *rv);
	void *on_listed_ctx;
	struct owners_error err;
};

/* Loads the kubeconfig and opens the HTTP client, no request yet.
 * Returns 0, or the error code with s->err set (nothing printed: the
 * caller words it). */
int session_connect(struct session *s, struct owners_cli *cli);
/* Another connection to the same server with the same options (a reader
 * whose requests must not serve the run's watches). 0, or the error in
 * s->err. */
int session_client_new(struct session *s, struct owners_http_client **out);
/* session_connect(), then discovery (from the cache when fresh). */
enum exit_code session_open(struct session *s, struct owners_cli *cli);
/* Refetches discovery (a name did not resolve against the cache). */
enum exit_code session_rediscover(struct session *s);
/* Makes discovery current before anything is resolved or scanned: what
 * deletes or patches, and what predicts what the GC will do, must see the
 * types the GC sees now, not a cache up to hours old. Returns 0, or
 * prints the error and returns the exit code. */
enum exit_code session_require_current_types(struct session *s);
/* Resolves a typed type name, rediscovering once on a miss. */
enum exit_code session_resolve_type(struct session *s, const char *typed, const struct owners_resource **out);
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
/* ns NULL: all namespaces. Lists what the GC tracks (and the types of
 * session_also_list()), then, in a second pass, the types the GC does not
 * track that own something the first pass saw, so that such owners are
 * looked up as the GC looks them up instead of read as unknown. */
enum exit_code session_scan(struct session *s, const char *ns);
/* Scans again (same scope), replacing the graph and the report; want,
 * when set, limits the types listed (see owners_scan_options). */
enum exit_code session_rescan(struct session *s, const char *ns,
		   int (*want)(void *ctx, const struct owners_resource *r), void *want_ctx);
/* What the scan could not see, as the lines every command warns with on
 * stderr (one format, decided here): one per failed
 * discovery group; forbidden types together on one line; any other list
 * failure on its own line; then the command's notes. extra: reports of
 * further scans (n_extra, may be 0). Free with session_warnings_free(). */
int session_warnings(const struct session *s, const struct owners_scan_report *extra,
		     size_t n_extra, char ***out, size_t *n);
void session_warnings_free(char **lines, size_t n);
/* The same, structured and every type named, for a document's
 * "warnings" (owners_scan_warnings_list()); *out is the caller's
 * (owners_scan_warnings_list_free()). 0, or OWNERS_ENOMEM. */
int session_warnings_list(const struct session *s, const struct owners_scan_report *extra, size_t n_extra,
			  struct owners_scan_warning_list *out);
/* Adds a line to the scan's warnings (a new scan drops them). 0, or
 * OWNERS_ENOMEM. */
int session_note(struct session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prints session_warnings() of the session's own scan on stderr. */
void session_warn_scan(const struct session *s);
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
void session_close(struct session *s);
/* A namespaced run: the owners of nodes (n of them) that read absent are
 * looked for in every namespace, only for their types (one list each,
 * metadata only), so that an owner living elsewhere reads
 * invalid-namespace, as the GC, which sees every namespace, reports it. A
 * list that fails leaves them absent, and a note among the scan's
 * warnings says why. Prints the error, returns the exit code. */
enum exit_code session_look_across_namespaces(struct session *s, const uint32_t *nodes, size_t n);

/* Asks for every permission of checks at once (SelfSubjectAccessReview)
 * before a command's first change; each denied one is said with its
 * example object (examples[i], a node of the session's graph), then
 * "nothing was deleted or changed: NEEDED_BY needs ...", EXIT_INCOMPLETE.
 * Takes checks and examples (frees them). */
enum exit_code session_check_access(struct session *s, struct owners_access_check *checks, uint32_t *examples,
				    size_t n, const char *needed_by);

/* ---- which objects the arguments name (lib/graph/selection.h) ---- */

/* The arguments' types, resolved (rediscovering once on a miss) to the
 * version the scan lists, every TYPE before anything is read, so that a
 * mistake changes nothing; with also_list, a type the GC does not track is
 * listed by the scans too (session_also_list()). *out (n entries, borrowing
 * objs' names) is the session's: kept pointing into the current discovery
 * whenever it is refreshed, freed by session_close() (once per session: a
 * second call replaces it). Prints the error, returns the exit code. */
enum exit_code session_resolve_args(struct session *s, const struct owners_object_arg *objs, size_t n,
			 int also_list, struct owners_selection_arg **out);

/* Categories among the arguments, as kubectl reads them: a TYPE that is
 * no type's name but a category's ("all") is replaced by every type of
 * the category (owners_type_expand()), each as "resource.group", so that
 * every command sees one argument per type. A category with a NAME
 * ("all/web") is a usage error. *objs and *n are replaced (the old array
 * freed) only when a category was expanded; a TYPE that resolves to
 * nothing is left for session_resolve_args() to say. Prints the error,
 * returns the exit code. */
enum exit_code session_expand_categories(struct session *s, struct owners_object_arg **objs, size_t *n);

/* Where each argument is, each once (owners_selection_targets()), for a
 * command that works on names and reads no graph. *out is the caller's
 * (owners_selection_targets_free()). Prints the error, returns the exit
 * code. */
enum exit_code session_targets(struct session *s, const struct owners_selection_arg *args, size_t n,
		    struct owners_selection_target **out, size_t *n_out);

/* How a command reads its arguments (see owners_selection_options). */
struct session_selection {
	enum owners_selection_missing missing;
	int absent_owners;
	int everything_when_none; /* no argument: everything in the namespace (-A: everywhere) */
	int everything_flags;     /* owners_graph_mark() flags for it */
	int deleted_only;         /* session_select_nodes(): only objects in deletion */
};

/* The objects args select in the scanned graph, with the command line's
 * namespace, -A and -l (-l matches through the API server), in argument
 * order, each once. Prints the error, returns the exit code. */
enum exit_code session_select(struct session *s, const struct owners_selection_arg *args, size_t n,
		   const struct session_selection *how, struct owners_selection *out);
/* The same as a list in graph order (only objects in deletion with
 * how->deleted_only). *out is the caller's to free(). */
enum exit_code session_select_nodes(struct session *s, const struct owners_selection_arg *args, size_t n,
				    const struct session_selection *how, uint32_t **out, size_t *n_out);
/* Prints the objects sel did not find (OWNERS_SELECTION_MISSING_NOTED),
 * one error line each, after what was found was printed, as kubectl get
 * does; returns EXIT_ERROR when there were any, else rc. */
enum exit_code session_say_not_found(const struct owners_selection *sel, int rc);

#endif
