/*
 * The HTTP client's retry policy, as pure decisions: which answers are
 * worth another attempt, which requests may be sent twice, how long to
 * wait before the next attempt (exponential backoff with jitter, or the
 * server's Retry-After), and whether that wait still fits in the
 * request's time. lib/client/http.c asks these and does the waiting; none
 * of them sends, sleeps or reads a clock.
 *
 * The rules (client-go's, where it has them):
 *  - a connection that failed before anything was sent may be retried for
 *    any method; one that broke after sending, only for a request that is
 *    harmless to repeat (owners_http_retry_idempotent());
 *  - 429, and 5xx except 501, are worth retrying: 429 and 503 for every
 *    method (the server turned the request away unprocessed), other 5xx
 *    for a request harmless to repeat or one the server gave a
 *    Retry-After;
 *  - at most max_retries attempts after the first;
 *  - the wait: Retry-After when the server sent one (at most 30 s),
 *    spread over half as long again; else base * 2^(n-1), capped at max,
 *    at a random point in its upper half.
 *
 * Ownership: a struct owners_http_retry is the caller's (no allocation,
 * nothing to free); requests and strings are borrowed.
 */
#ifndef OWNERS_HTTP_RETRY_H
#define OWNERS_HTTP_RETRY_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "http.h"

/* Without --request-timeout, how long a request keeps trying a server that
 * never answers (timeouts, refused connections): about what kubectl gives
 * one. */
#define OWNERS_HTTP_NO_ANSWER_GIVE_UP_MS 45000L

struct owners_http_retry {
	int max_retries;        /* attempts after the first */
	long backoff_base_ms;   /* the first retry's wait, doubled each time */
	long backoff_max_ms;    /* the longest wait between attempts */
	uint64_t rng;           /* jitter state (xorshift64*): spread, not secrecy */
};

/* The policy of options opt (max_retries -1: 5; backoff 0: 100 ms base,
 * 5000 ms max, and max never below base), with jitter from seed (any
 * value; 0 is replaced by a fixed non-zero one). */
void owners_http_retry_init(struct owners_http_retry *p, const struct owners_http_options *opt,
			    uint64_t seed);

/* Whether an attempt that ended after `attempts` tries may have another. */
int owners_http_retry_left(const struct owners_http_retry *p, int attempts);
/* Whether the HTTP status is one another attempt may change: 429, 5xx
 * except 501 Not Implemented. */
int owners_http_retry_status(long status);
/* Whether r may be sent again when it may have reached the server: GET,
 * HEAD, PUT, DELETE, or r->idempotent (a conditional PATCH). */
int owners_http_retry_idempotent(const struct owners_http_request *r);
/* Whether r, answered with r->status after r->attempts tries, is tried
 * again (the rules above; r->retry_after is the Retry-After header). */
int owners_http_retry_response(const struct owners_http_retry *p,
			       const struct owners_http_request *r);

/* The backoff before attempt attempts + 1: base * 2^(attempts-1), capped,
 * then a random point in its upper half, so that requests failing
 * together do not all come back at the same instant. Advances p->rng. */
long owners_http_retry_backoff_ms(struct owners_http_retry *p, int attempts);
/* A Retry-After value (len bytes, NUL-terminated): seconds, or an HTTP
 * date (against now, the wall clock); at most 30 s. -1 when empty or
 * unreadable; 0 for a date in the past. */
long owners_http_retry_after_ms(const char *value, size_t len, time_t now);
/* The wait before retrying r's answer (owners_http_retry_response() said
 * yes): its Retry-After plus up to half as much again (every request the
 * server turned away at once got the same answer: spread, they do not all
 * come back together), else the backoff. now: the wall clock. */
long owners_http_retry_delay_ms(struct owners_http_retry *p, const struct owners_http_request *r,
				time_t now);
/* Whether another attempt after delay_ms still ends inside the request's
 * whole wait: used_ms spent so far since its first attempt, limit_ms its
 * --request-timeout (0 none: then OWNERS_HTTP_NO_ANSWER_GIVE_UP_MS when
 * the server never answered, answered 0, else no limit). */
int owners_http_retry_fits(long used_ms, long delay_ms, long limit_ms, int answered);

#endif
