/*
 * Which objects a command's arguments name: TYPE/NAME (or TYPE NAME), a
 * TYPE alone (every object of it, or with -l those that match), with no
 * argument everything in the namespace, in one namespace or in all (-A).
 * Every command resolves its arguments here, so that they mean the same
 * everywhere and fail in the same words.
 *
 * Two steps. owners_selection_targets() needs no cluster: where each
 * argument is (its namespace), refusing what cannot mean anything (a name
 * across all namespaces, a name beside -l), each object once. A command
 * that works on names only stops there. owners_selection_find() then
 * looks the targets up in a scanned graph, and refuses to read "absent"
 * from a list that was never made or that failed.
 *
 * Ownership: targets (owners_selection_targets_free()) and a selection
 * (owners_selection_clear()) are the caller's; both borrow the types and
 * names of the arguments they were made from.
 */
#ifndef OWNERS_SELECTION_H
#define OWNERS_SELECTION_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "owners_error.h"
#include "graph.h"

/* One argument of the command line, its type resolved (the version the
 * scan lists, see owners_graph_lookup_type()). */
struct owners_selection_arg {
	const struct owners_resource *type;
	const char *name; /* NULL: the type alone */
};

/* Where the arguments are read. */
struct owners_selection_scope {
	const char *namespace_; /* the namespace the command works in */
	int all_namespaces;     /* -A */
	/* -A widens where a named root's dependents are sought, not where
	 * the root is (tree, delete, finalizers, as kubectl-tree's -A): a
	 * name is looked for in namespace_ still. Unset, a name with -A is
	 * refused as kubectl refuses it. */
	int names_in_namespace;
	const char *selector;   /* -l, or NULL: a type alone then means its objects that match */
	/* With no argument at all: every object in the namespace (every
	 * object with -A), widened by these owners_graph_mark() flags. Unset,
	 * no argument selects nothing. */
	int everything_when_none;
	int everything_flags;
};

struct owners_selection_target {
	const struct owners_resource *type; /* NULL: everything (no argument) */
	/* "" for a cluster-scoped type; NULL every namespace (a type alone
	 * or everything, with -A) */
	const char *namespace_;
	const char *name; /* NULL: every object of the type (that matches -l) */
	int flags;        /* owners_graph_mark() flags, for everything */
};

/* The targets of args, each once, in the order given. Fails with
 * OWNERS_EINVAL (a usage error: a name across all namespaces, a name with
 * a selector) or OWNERS_ENOMEM, err set. */
int owners_selection_targets(struct owners_selection_target **out, size_t *n,
			     const struct owners_selection_arg *args, size_t n_args,
			     const struct owners_selection_scope *scope, struct owners_error *err);
void owners_selection_targets_free(struct owners_selection_target *targets);

/* What a named object that is not there means. */
enum owners_selection_missing {
	OWNERS_SELECTION_MISSING_FAILS,   /* an error, the first one found */
	OWNERS_SELECTION_MISSING_NOTED,   /* a line in not_found, the rest still found (kubectl get) */
	OWNERS_SELECTION_MISSING_IGNORED, /* nothing (--ignore-not-found; a watch: it may come) */
};

struct owners_selection_options {
	enum owners_selection_missing missing;
	/* A named object that is gone while dependents still point at it
	 * selects the owner they point at (its virtual node): a cascade
	 * interrupted after its root went resumes from there. */
	int absent_owners;
	/* The graph is a watch's: its lists were checked when it was made,
	 * and a list failing since is the watch's to say, not a reason to
	 * stop showing what is known. */
	int skip_listing_checks;
	/* The graph is a file's (--from): a named object it holds is selected
	 * whatever its type's listing says (a dump holds single objects, a
	 * must-gather a namespace's own object: it is there); one it does not
	 * hold still needs its type's list to be called absent. A type alone
	 * in every namespace is selected where its lists of some namespaces
	 * were made whole (a dump's per-namespace lists). */
	int found_is_enough;
	/* A type alone with the scope's selector: sets marks[i] for every
	 * node i of target t that matches (the server decides, through a
	 * list with the selector, or a watch's own view). 0 or an error code
	 * with err set. Required when the scope has a selector. */
	int (*match)(void *ctx, unsigned char *marks, const struct owners_selection_target *t,
		     struct owners_error *err);
	void *match_ctx;
};

enum {
	OWNERS_SELECTED = 1,       /* selected, however */
	OWNERS_SELECTED_NAMED = 2, /* named, or matched by -l: asked about one by one */
};

struct owners_selection {
	uint32_t *nodes;       /* in the order of the targets, each node once */
	size_t count, cap;
	unsigned char *picked; /* a byte per graph node: OWNERS_SELECTED_* bits, 0 when not */
	/* MISSING_NOTED: one line per object not found, each ending "\n" */
	struct owners_buf not_found;
	size_t n_not_found;
};
#define OWNERS_SELECTION_INIT { NULL, 0, 0, NULL, OWNERS_BUF_INIT, 0 }

/* Looks targets up in g: out is filled (after owners_selection_clear()
 * of what it held); on failure it is left empty. Fails, err set, with OWNERS_ENOTFOUND (an object not
 * found, MISSING_FAILS), OWNERS_EINVAL (a type that cannot be listed, or
 * that the garbage collector does not track and the scan did not list),
 * the code of a list that failed, or OWNERS_ENOMEM. */
int owners_selection_find(struct owners_selection *out, struct owners_graph *g,
			  const struct owners_selection_target *targets, size_t n,
			  const struct owners_selection_options *o, struct owners_error *err);
/* Adds node to s unless it is there already: what a command selects
 * besides its arguments (a watch keeps a root that went while its
 * dependents stay). 0, or OWNERS_ENOMEM. */
int owners_selection_add(struct owners_selection *s, uint32_t node);
void owners_selection_clear(struct owners_selection *s);

#endif
