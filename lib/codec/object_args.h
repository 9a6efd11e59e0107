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

#include "owners_error.h"

struct owners_object_arg {
	char *type;  /* as typed: "deploy", "deployments.apps" */
	char *name;  /* NULL: every object of the type (that matches the selector) */
};

/* Whether a bare TYPE (no names) is accepted: by commands that act on
 * every object of a type, or on those -l selects. */
enum owners_type_alone {
	OWNERS_TYPE_ALONE_REFUSED,       /* a name is needed */
	OWNERS_TYPE_ALONE_ALLOWED,
	/* refused now, but -l (or --all) would allow it: the error says so */
	OWNERS_TYPE_ALONE_WITH_SELECTOR,
};

int owners_object_args_parse(struct owners_object_arg **out, size_t *n_out,
			     const char *const *args, size_t n_args, enum owners_type_alone type_alone,
			     struct owners_error *err);
void owners_object_args_free(struct owners_object_arg *a, size_t n);

#endif
