/*
 * The client-side rate limit (--qps, --burst): a token bucket, as
 * client-go's. The bucket holds up to burst tokens and starts full; it
 * fills at qps tokens a second; each request's attempt takes one, or
 * waits until one is due. Pure accounting on a clock the caller reads: no
 * sleeping, no clock of its own.
 *
 * Ownership: a struct owners_rate_limit is the caller's (no allocation,
 * nothing to free).
 */
#ifndef OWNERS_RATE_LIMIT_H
#define OWNERS_RATE_LIMIT_H

#include <stdint.h>

struct owners_rate_limit {
	double qps;      /* tokens a second; <= 0: no limit */
	double burst;    /* the bucket's size (at least one token) */
	double tokens;   /* in the bucket at last_us */
	int64_t last_us; /* when tokens was last brought up to date */
};

/* A full bucket at now_us (microseconds on a monotonic clock); burst
 * below 1 is taken as 1. */
void owners_rate_limit_init(struct owners_rate_limit *b, double qps, int burst, int64_t now_us);
/* Takes a token at now_us: 0 when one was there (or there is no limit);
 * else, taking nothing, how many microseconds until one is due. */
int64_t owners_rate_limit_take(struct owners_rate_limit *b, int64_t now_us);

#endif
