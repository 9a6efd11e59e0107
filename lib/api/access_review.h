/*
 * Asking the API server what the current user may do, before doing it:
 * SelfSubjectAccessReview (authorization.k8s.io/v1), the question behind
 * `kubectl auth can-i`. A destructive command asks for every permission its
 * whole plan needs before it changes anything, so that a missing one stops
 * it with nothing done, not half way through a cascade.
 *
 * The review is evaluated for the user the request is made as, so
 * impersonation (--as) is honoured. Every authenticated user may create
 * these reviews (the built-in system:basic-user role); when a review cannot
 * be made at all (the API is missing, it is forbidden, the network fails)
 * the verdict is UNKNOWN and the caller goes on: the requests themselves
 * are still authorized one by one.
 *
 * Ownership: a check's strings are borrowed (they must outlive the check);
 * reason is the check's own, freed by owners_access_checks_clear().
 */
#ifndef OWNERS_ACCESS_REVIEW_H
#define OWNERS_ACCESS_REVIEW_H

#include <stddef.h>

#include "buf.h"
#include "owners_error.h"
#include "http.h"

enum owners_access_verdict {
	OWNERS_ACCESS_UNKNOWN,
	OWNERS_ACCESS_ALLOWED,
	OWNERS_ACCESS_DENIED,
};

struct owners_access_check {
	const char *verb;       /* "delete", "patch" */
	const char *group;      /* "" for the core group */
	const char *resource;   /* plural: "deployments" */
	const char *namespace_; /* "" for a cluster-scoped resource */
	/* the answer */
	enum owners_access_verdict verdict;
	char *reason;           /* the authorizer's reason or the review's error; may be NULL */
	const char *subresource; /* "scale"; NULL or "": the object itself */
	/* one object by name (a Role's resourceNames may grant it alone);
	 * NULL or "": any object of the type */
	const char *name;
};

/* The request body: a SelfSubjectAccessReview of one resource attribute. */
int owners_access_review_json(struct owners_buf *out, const struct owners_access_check *c);
/* Reads the server's answer into c (verdict and reason). Returns
 * OWNERS_EPROTO when the body is not a review with a status. */
int owners_access_review_parse(struct owners_access_check *c, const char *data, size_t len,
			       struct owners_error *err);
/* Asks every check at once. Fails only when the client itself fails (or out
 * of memory); a review that could not be made leaves its check UNKNOWN. */
int owners_access_check_all(struct owners_http_client *h, struct owners_access_check *checks, size_t n,
			    struct owners_error *err);
/* Frees what each check owns and zeroes it; the array stays the caller's. */
void owners_access_checks_clear(struct owners_access_check *checks, size_t n);

#endif
