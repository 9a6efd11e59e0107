/*
 * What the user named on the command line, kubectl style, before types
 * are resolved against discovery:
 *   TYPE/NAME [TYPE/NAME...]   deployment/web pod/web-1
 *   TYPE NAME [NAME...]        deploy web api
 *   TYPE[,TYPE...]             with -l SELECTOR (or alone where a command
 *                              accepts "every object of the type")
 *
 * Ownership: the array and its strings belong to the caller
 * (owners_object_args_free()).
 */
#ifndef OWNERS_OBJECT_ARGS_H
#define OWNERS_OBJECT_ARGS_H

#include <stddef.h>

#include "error.h"

struct owners_object_arg {
	char *type;  /* as typed: "deploy", "deployments.apps" */
	char *name;  /* NULL: every object of the type (that matches the selector) */
};

/* allow_type_only: a bare TYPE (no names) is accepted; commands accept it
 * when a selector is given or when they can act on all objects of a type. */
int owners_object_args_parse(struct owners_object_arg **out, size_t *n_out,
			     const char *const *args, size_t n_args, int allow_type_only,
			     struct owners_error *err);
void owners_object_args_free(struct owners_object_arg *a, size_t n);

#endif
