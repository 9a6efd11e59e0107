/*
 * Which objects a command's arguments name: their types resolved (and
 * kept resolved across a refreshed discovery), categories expanded, and
 * the objects they select in the scanned graph with the command line's
 * namespace, -A and -l (lib/graph/selection.h), and the ones not found.
 */
#ifndef OWNERS_CMD_SESSION_SELECT_H
#define OWNERS_CMD_SESSION_SELECT_H

#include <stdint.h>

#include "object_args.h"
#include "output.h"
#include "selection.h"
#include "session.h"

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

/* Resolves the arguments the session holds (as typed) against the
 * current types (session_discover() calls it after every refresh). 0, or
 * the error code with session_error(s) set. */
int session_resolve_held(struct session *s);

#endif
