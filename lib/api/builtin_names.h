/*
 * The short names and categories kubectl knows Kubernetes' built-in types
 * by ("cm", "deploy", "all"), fixed by the API server's own resource
 * definitions: for a source without discovery (another tool's dump),
 * whose types are made from its objects' kinds, so that `cm/held` and
 * `all` mean there what they mean against a cluster.
 *
 * Ownership: everything returned is static.
 */
#ifndef OWNERS_BUILTIN_NAMES_H
#define OWNERS_BUILTIN_NAMES_H

#include <stddef.h>

struct owners_builtin_names {
	const char *const *short_names; /* NULL-terminated, never NULL */
	const char *const *categories;  /* NULL-terminated, never NULL */
};

/* The names of the built-in type group/resource ("" for the core group),
 * or both lists empty for any other. */
struct owners_builtin_names owners_builtin_names_of(const char *group, const char *resource);

#endif
