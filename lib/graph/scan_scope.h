/*
 * Where a command's scan reads: one namespace or every one, and whether
 * what the command answers can hold cluster-scoped objects (the warnings
 * then name only the types that could not be listed and matter, see
 * owners_graph_type_can_hold_answer()). One rule for every command, so
 * that "scan all namespaces?" is decided in one place.
 *
 * Ownership: plain values; the request borrows its roots.
 */
#ifndef OWNERS_GRAPH_SCAN_SCOPE_H
#define OWNERS_GRAPH_SCAN_SCOPE_H

#include <stddef.h>

#include "selection.h"

enum owners_scope_rule {
	/* -A alone decides (graph, gc, dangling: their arguments filter
	 * what they look at, not where it may live) */
	OWNERS_SCOPE_NAMESPACE,
	/* the command answers about roots: a cluster-scoped root's
	 * dependents may live in any namespace (tree, delete, finalizers,
	 * why) */
	OWNERS_SCOPE_ROOTS,
};

struct owners_scope_request {
	enum owners_scope_rule rule;
	int all_namespaces;  /* -A */
	/* the answer is above the roots (tree --up): owners are named by
	 * references, a cluster-scoped root reads no namespace more */
	int upward;
	/* a Namespace root's content is read apart, by the command itself
	 * (finalizers): as a root it reaches one namespace */
	int namespaces_apart;
	const struct owners_selection_arg *roots;
	size_t n_roots;
};

struct owners_scan_scope {
	int everywhere;             /* every namespace, else the command's one */
	int answer_namespaced_only; /* the answer holds namespaced objects only */
};

void owners_scan_scope_decide(struct owners_scan_scope *out, const struct owners_scope_request *req);

#endif
