/* The HTTP client's retry policy (see http_retry.h). */
#include "http_retry.h"

#include <curl/curl.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_MAX_RETRIES 5
#define DEFAULT_BACKOFF_BASE_MS 100
#define DEFAULT_BACKOFF_MAX_MS 5000
#define RETRY_AFTER_MAX_S 30 /* a server asking for more is not waited for longer */
/* Any non-zero seed: xorshift stays at 0 from 0. */
#define FALLBACK_SEED 88172645463325252ULL

void owners_http_retry_init(struct owners_http_retry *p, const struct owners_http_options *opt,
			    uint64_t seed)
{
	p->max_retries = opt->max_retries < 0 ? DEFAULT_MAX_RETRIES : opt->max_retries;
	p->backoff_base_ms = opt->backoff_base_ms > 0 ? opt->backoff_base_ms
						      : DEFAULT_BACKOFF_BASE_MS;
	p->backoff_max_ms = opt->backoff_max_ms > 0 ? opt->backoff_max_ms : DEFAULT_BACKOFF_MAX_MS;
	if (p->backoff_max_ms < p->backoff_base_ms)
		p->backoff_max_ms = p->backoff_base_ms;
	p->rng = seed ? seed : FALLBACK_SEED;
}

static uint64_t next_random(struct owners_http_retry *p)
{
	/* xorshift64*: jitter needs spread, not secrecy. */
	p->rng ^= p->rng >> 12;
	p->rng ^= p->rng << 25;
	p->rng ^= p->rng >> 27;
	return p->rng * 2685821657736338717ULL;
}

int owners_http_retry_left(const struct owners_http_retry *p, int attempts)
{
	return attempts <= p->max_retries;
}

int owners_http_retry_status(long status)
{
	return status == 429 || (status >= 500 && status != 501);
}

int owners_http_retry_idempotent(const struct owners_http_request *r)
{
	return r->idempotent || !strcmp(r->method, "GET") || !strcmp(r->method, "HEAD") ||
	       !strcmp(r->method, "PUT") || !strcmp(r->method, "DELETE");
}

int owners_http_retry_response(const struct owners_http_retry *p,
			       const struct owners_http_request *r)
{
	/* 429 and 503: turned away before any work was done. Another 5xx
	 * may have done part of a POST or PATCH: only when the server says
	 * when to come back is it asking for the request again. */
	return owners_http_retry_status(r->status) && owners_http_retry_left(p, r->attempts) &&
	       (owners_http_retry_idempotent(r) || r->status == 429 || r->status == 503 ||
		r->retry_after.len);
}

long owners_http_retry_backoff_ms(struct owners_http_retry *p, int attempts)
{
	long d = p->backoff_base_ms;
	int i;

	for (i = 1; i < attempts && d < p->backoff_max_ms; i++)
		d *= 2;
	if (d > p->backoff_max_ms)
		d = p->backoff_max_ms;
	if (d < 2)
		return d;
	return d / 2 + (long)(next_random(p) % (uint64_t)(d / 2 + 1));
}

long owners_http_retry_after_ms(const char *value, size_t len, time_t now)
{
	long s;
	char *end;

	if (!len)
		return -1;
	errno = 0;
	s = strtol(value, &end, 10);
	if (end == value || *end || errno || s < 0) {
		time_t t = curl_getdate(value, NULL);

		if (t == (time_t)-1)
			return -1;
		s = (long)(t - now);
		if (s < 0)
			s = 0;
	}
	if (s > RETRY_AFTER_MAX_S)
		s = RETRY_AFTER_MAX_S;
	return s * 1000;
}

long owners_http_retry_delay_ms(struct owners_http_retry *p, const struct owners_http_request *r,
				time_t now)
{
	long delay = owners_http_retry_after_ms(r->retry_after.ptr, r->retry_after.len, now);

	if (delay < 0)
		return owners_http_retry_backoff_ms(p, r->attempts);
	/* The server said when; every request it turned away in the same
	 * instant got the same answer. Spread them over half as long again,
	 * or they come back together and are turned away together, until
	 * the retries run out (seen against --max-requests-inflight=1). */
	if (delay > 0)
		delay += (long)(next_random(p) % (uint64_t)(delay / 2 + 1));
	return delay;
}

int owners_http_retry_fits(long used_ms, long delay_ms, long limit_ms, int answered)
{
	if (limit_ms <= 0 && !answered)
		limit_ms = OWNERS_HTTP_NO_ANSWER_GIVE_UP_MS;
	return limit_ms <= 0 || used_ms + delay_ms < limit_ms;
}
