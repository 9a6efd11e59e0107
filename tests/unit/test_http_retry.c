/* The HTTP client's retry policy (lib/client/http_retry.h): which answers
 * and failures are tried again, how long it waits, and when a request's
 * time is spent. No server: the decisions alone. */
#include <string.h>
#include <time.h>

#include "http.h"
#include "http_retry.h"
#include "tap.h"

static struct owners_http_retry policy(int max_retries, long base, long max)
{
	struct owners_http_options opt;
	struct owners_http_retry p;

	memset(&opt, 0, sizeof(opt));
	opt.max_retries = max_retries;
	opt.backoff_base_ms = base;
	opt.backoff_max_ms = max;
	owners_http_retry_init(&p, &opt, 12345);
	return p;
}

static void defaults(void)
{
	struct owners_http_retry p = policy(-1, 0, 0);

	is_int(p.max_retries, 5, "max_retries -1: 5");
	is_int(p.backoff_base_ms, 100, "backoff base 0: 100 ms");
	is_int(p.backoff_max_ms, 5000, "backoff max 0: 5 s");
	p = policy(0, 800, 200);
	is_int(p.max_retries, 0, "max_retries 0: none (a zeroed struct)");
	is_int(p.backoff_max_ms, 800, "a max below the base is raised to it");
	ok(owners_http_retry_left(&p, 0) && !owners_http_retry_left(&p, 1),
	   "no retries: the first attempt is the only one");
	p = policy(2, 0, 0);
	ok(owners_http_retry_left(&p, 2) && !owners_http_retry_left(&p, 3),
	   "2 retries: three attempts in all");
	{
		struct owners_http_options opt;
		struct owners_http_retry z;

		memset(&opt, 0, sizeof(opt));
		owners_http_retry_init(&z, &opt, 0);
		ok(z.rng != 0, "a zero seed is replaced (xorshift would stay at zero)");
	}
}

static void statuses(void)
{
	static const long yes[] = { 429, 500, 502, 503, 504, 599 };
	static const long no[] = { 200, 304, 400, 401, 403, 404, 409, 410, 422, 501 };
	size_t i;
	int all = 1;

	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		all &= owners_http_retry_status(yes[i]);
	ok(all, "429 and 5xx are worth another attempt");
	all = 1;
	for (i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		all &= !owners_http_retry_status(no[i]);
	ok(all, "2xx, 3xx, other 4xx and 501 Not Implemented are not");
}

static void request(struct owners_http_request *r, const char *method, long status, int attempts)
{
	owners_http_request_clear(r);
	r->method = method;
	r->status = status;
	r->attempts = attempts;
}

static void idempotence_and_responses(void)
{
	struct owners_http_retry p = policy(5, 0, 0);
	struct owners_http_request r;

	owners_http_request_init(&r);
	request(&r, "GET", 0, 1);
	ok(owners_http_retry_idempotent(&r), "GET may be sent twice");
	request(&r, "DELETE", 0, 1);
	ok(owners_http_retry_idempotent(&r), "DELETE may be sent twice");
	request(&r, "PUT", 0, 1);
	ok(owners_http_retry_idempotent(&r), "PUT may be sent twice");
	request(&r, "PATCH", 0, 1);
	ok(!owners_http_retry_idempotent(&r), "a PATCH may not");
	r.idempotent = 1;
	ok(owners_http_retry_idempotent(&r), "unless it says it is (a resourceVersion precondition)");
	request(&r, "POST", 0, 1);
	ok(!owners_http_retry_idempotent(&r), "a POST may not");

	request(&r, "GET", 500, 1);
	ok(owners_http_retry_response(&p, &r), "GET 500: tried again");
	request(&r, "POST", 500, 1);
	ok(!owners_http_retry_response(&p, &r), "POST 500: not (it may have been done)");
	owners_buf_adds(&r.retry_after, "1");
	ok(owners_http_retry_response(&p, &r), "POST 500 with a Retry-After: tried again");
	request(&r, "POST", 429, 1);
	ok(owners_http_retry_response(&p, &r), "POST 429: turned away unprocessed, tried again");
	request(&r, "PATCH", 503, 1);
	ok(owners_http_retry_response(&p, &r), "PATCH 503: tried again");
	request(&r, "GET", 404, 1);
	ok(!owners_http_retry_response(&p, &r), "GET 404: an answer, not tried again");
	request(&r, "GET", 501, 1);
	ok(!owners_http_retry_response(&p, &r), "GET 501: not tried again");
	request(&r, "GET", 503, 6);
	ok(!owners_http_retry_response(&p, &r), "GET 503 after 6 attempts (5 retries): no more");
	request(&r, "GET", 503, 5);
	ok(owners_http_retry_response(&p, &r), "GET 503 after 5 attempts: one more");
	owners_http_request_clear(&r);
}

static void backoff(void)
{
	struct owners_http_retry p = policy(5, 100, 1000);
	long d;
	int n, in_range = 1;

	/* attempt n waits base * 2^(n-1) capped, at a point in its upper half */
	for (n = 0; n < 200; n++) {
		d = owners_http_retry_backoff_ms(&p, 1);
		in_range &= d >= 50 && d <= 100;
	}
	ok(in_range, "after the first attempt: 50..100 ms (upper half of the base)");
	in_range = 1;
	for (n = 0; n < 200; n++) {
		d = owners_http_retry_backoff_ms(&p, 3);
		in_range &= d >= 200 && d <= 400;
	}
	ok(in_range, "after the third: 200..400 ms (doubled twice)");
	in_range = 1;
	for (n = 0; n < 200; n++) {
		d = owners_http_retry_backoff_ms(&p, 30);
		in_range &= d >= 500 && d <= 1000;
	}
	ok(in_range, "after many: capped at the max, 500..1000 ms");
	{
		struct owners_http_retry a = policy(5, 100, 1000), b = policy(5, 100, 1000);
		long da = owners_http_retry_backoff_ms(&a, 4), db = owners_http_retry_backoff_ms(&b, 4);
		int differ = 0;

		is_int(da, db, "the same seed draws the same delays");
		for (n = 0; n < 20; n++)
			differ |= owners_http_retry_backoff_ms(&a, 4) != da;
		ok(differ, "jitter: the delays are not all the same");
	}
	p = policy(5, 1, 1);
	is_int(owners_http_retry_backoff_ms(&p, 1), 1, "a 1 ms backoff has no room for jitter");
}

static void retry_after(void)
{
	time_t now = 1445412480; /* Wed, 21 Oct 2015 07:28:00 GMT */

	is_int(owners_http_retry_after_ms("3", 1, now), 3000, "seconds");
	is_int(owners_http_retry_after_ms("0", 1, now), 0, "zero: at once");
	is_int(owners_http_retry_after_ms("120", 3, now), 30000, "more than 30 s is cut to 30 s");
	is_int(owners_http_retry_after_ms("", 0, now), -1, "absent");
	is_int(owners_http_retry_after_ms("soon", 4, now), -1, "unreadable");
	is_int(owners_http_retry_after_ms("3x", 2, now), -1, "not all digits, not a date");
	is_int(owners_http_retry_after_ms("Wed, 21 Oct 2015 07:28:10 GMT", 29, now), 10000,
	       "an HTTP date 10 s ahead");
	is_int(owners_http_retry_after_ms("Wed, 21 Oct 2015 07:27:00 GMT", 29, now), 0,
	       "a date in the past: at once");
	is_int(owners_http_retry_after_ms("Wed, 21 Oct 2015 08:28:00 GMT", 29, now), 30000,
	       "a date an hour ahead: 30 s");
}

static void delay(void)
{
	struct owners_http_retry p = policy(5, 100, 1000);
	struct owners_http_request r;
	long d;
	int n, in_range = 1;

	owners_http_request_init(&r);
	request(&r, "GET", 429, 1);
	owners_buf_adds(&r.retry_after, "2");
	for (n = 0; n < 200; n++) {
		d = owners_http_retry_delay_ms(&p, &r, 0);
		in_range &= d >= 2000 && d <= 3000;
	}
	ok(in_range, "Retry-After 2: 2..3 s (spread over half as long again)");
	request(&r, "GET", 429, 1);
	owners_buf_adds(&r.retry_after, "0");
	is_int(owners_http_retry_delay_ms(&p, &r, 0), 0, "Retry-After 0: at once, no spread");
	request(&r, "GET", 503, 2);
	d = owners_http_retry_delay_ms(&p, &r, 0);
	ok(d >= 100 && d <= 200, "no Retry-After: the backoff (%ld ms after 2 attempts)", d);
	owners_http_request_clear(&r);
}

static void fits(void)
{
	ok(owners_http_retry_fits(1000, 500, 2000, 1), "inside --request-timeout");
	ok(!owners_http_retry_fits(1800, 500, 2000, 1), "past --request-timeout");
	ok(!owners_http_retry_fits(1500, 500, 2000, 1), "ending exactly at it is past it");
	ok(owners_http_retry_fits(600000, 5000, 0, 1), "no timeout and an answer: no limit");
	ok(owners_http_retry_fits(40000, 4000, 0, 0), "a silent server: tried for up to 45 s");
	ok(!owners_http_retry_fits(42000, 4000, 0, 0), "and no longer");
}

int main(void)
{
	defaults();
	statuses();
	idempotence_and_responses();
	backoff();
	retry_after();
	delay();
	fits();
	return tap_done();
}
