/*
 * Error codes and the error record that carries a message out of lib/.
 *
 * lib/ never prints and never exits. A failing function returns a negative
 * OWNERS_E* code and, when it was given a struct owners_error, writes one
 * line into it: lowercase, no full stop, what failed first, the subject
 * quoted, e.g. "cannot list 'apps/v1 deployments': forbidden". The first
 * error set wins, so the innermost, most specific message is what the user
 * sees; callers that want to add context use owners_error_prefix().
 *
 * Ownership: the record owns its message; owners_error_clear() frees it.
 */
#ifndef OWNERS_ERROR_H
#define OWNERS_ERROR_H

#include "buf.h"

enum owners_errcode {
	OWNERS_OK = 0,
	OWNERS_ENOMEM = -1,     /* allocation failed */
	OWNERS_EINVAL = -2,     /* bad input from the user (usage) */
	OWNERS_ECONFIG = -3,    /* kubeconfig or credentials unusable */
	OWNERS_ENET = -4,       /* cannot reach the server */
	OWNERS_ETLS = -5,       /* TLS handshake or verification failed */
	OWNERS_EAUTH = -6,      /* 401 */
	OWNERS_EFORBIDDEN = -7, /* 403 */
	OWNERS_ENOTFOUND = -8,  /* 404, or no such object/type */
	OWNERS_ECONFLICT = -9,  /* 409, precondition or resourceVersion */
	OWNERS_EPROTO = -10,    /* the server sent something we cannot read */
	OWNERS_EAMBIGUOUS = -11,/* a type name matches several resources */
	OWNERS_ETIMEOUT = -12,  /* a deadline passed */
	OWNERS_EGONE = -13,     /* 410: a list continue token expired */
	OWNERS_ESERVER = -14,   /* 5xx or 429 after retries */
	OWNERS_EEXEC = -15,     /* a credential plugin failed */
	OWNERS_EIO = -16,       /* a local file could not be read or written */
	OWNERS_ESTOP = -17,     /* a callback ended a walk early: not a failure */
};

struct owners_error {
	int code;
	struct owners_buf msg;
};

#define OWNERS_ERROR_INIT { 0, OWNERS_BUF_INIT }

/* Records code and message unless one is already recorded; returns code.
 * err may be NULL. */
int owners_error_set(struct owners_error *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Records "out of memory"; returns OWNERS_ENOMEM. */
int owners_error_oom(struct owners_error *err);
/* Prepends "prefix: " to a recorded message. */
void owners_error_prefix(struct owners_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void owners_error_clear(struct owners_error *err);
/* The message, or a generic text for the code when none was recorded. */
const char *owners_error_message(const struct owners_error *err);
const char *owners_errcode_name(int code);

/* The one way out of an allocation failure that cannot be reported: a
 * library owners uses that does not check its own allocations (yajl 2.1)
 * gets allocators that call owners_oom_fatal() instead of returning NULL.
 * It calls the handler the program set, which must end the process (the
 * command line prints its usual out-of-memory error and exits 1); with
 * none set, abort(). lib/ itself never prints or exits: the handler is the
 * program's. */
typedef void (*owners_oom_fatal_fn)(void);
void owners_set_oom_fatal(owners_oom_fatal_fn fn);
_Noreturn void owners_oom_fatal(void);

#endif
