/*
 * The HTTP client: libcurl multi, one connection pool, HTTP/2 when the
 * server offers it, many requests in flight, a client-side token-bucket
 * rate limit (--qps/--burst), retries with backoff on connection errors
 * and 5xx, 429 honouring Retry-After, a per-request timeout, credentials
 * (bearer token, client certificate from memory, exec plugin re-run on
 * 401, impersonation), and a request log at -v=6..9 with credentials
 * redacted. It never prints: log lines go to the log callback.
 *
 * Usage: fill a request, owners_http_submit() it, then owners_http_run()
 * until everything submitted (including what on_done submits, e.g. the
 * next page of a list) has finished.
 *
 * Ownership: the client borrows cfg (it must outlive the client; the
 * client may refresh cfg->exec_cred). Requests belong to the caller, who
 * must keep each alive until its on_done has run; owners_http_request_release()
 * frees what the client put inside.
 */
#ifndef OWNERS_HTTP_H
#define OWNERS_HTTP_H

#include <stddef.h>

#include "buf.h"
#include "error.h"
#include "rest_config.h"

struct owners_http_options {
	double qps;               /* <= 0: no limit */
	int burst;
	long request_timeout_ms;  /* 0: none */
	int max_in_flight;        /* 0: default (32) */
	int max_retries;          /* for connection errors, 5xx and 429; -1 default (5) */
	int verbosity;            /* -v level: 6 logs requests, 8 adds bodies */
	void (*log)(void *ctx, const char *line);
	void *log_ctx;
};

struct owners_http_request;

typedef int (*owners_http_data_fn)(void *ctx, const char *data, size_t len);
typedef void (*owners_http_done_fn)(void *ctx, struct owners_http_request *req);

struct owners_http_request {
	/* set by the caller */
	const char *method;         /* "GET", "DELETE", "PATCH", ... */
	struct owners_buf path;     /* "/apis/apps/v1/namespaces/x/deployments?limit=500" */
	const char *accept;         /* NULL: application/json */
	const char *content_type;   /* for a body */
	struct owners_buf body;
	/* When set, a 2xx body is streamed here instead of kept in `response`.
	 * on_attempt runs before each attempt (so a retried request can reset
	 * its parser); a non-zero return from on_data aborts the request. */
	owners_http_data_fn on_data;
	void (*on_attempt)(void *ctx);
	owners_http_done_fn on_done;
	void *ctx;

	/* filled by the client */
	long status;                /* HTTP status, 0 when no response */
	struct owners_buf response; /* the body, unless streamed (error bodies always kept) */
	struct owners_buf retry_after; /* internal */
	struct owners_error err;    /* set when the request failed (no response, or status >= 400) */
	int attempts;
	/* private to the client */
	void *priv;
};

struct owners_http_client;

int owners_http_client_new(struct owners_http_client **out, struct owners_rest_config *cfg,
			   const struct owners_http_options *opt, struct owners_error *err);
void owners_http_client_free(struct owners_http_client *c);

/* Prepares a request with defaults (GET, empty path/body). */
void owners_http_request_init(struct owners_http_request *r);
void owners_http_request_release(struct owners_http_request *r);

/* Queues r; it starts when the rate limit and max_in_flight allow. */
int owners_http_submit(struct owners_http_client *c, struct owners_http_request *r);
/* Runs until no request is queued or in flight; returns non-zero only for a
 * failure of the client itself (per-request failures are in r->err). */
int owners_http_run(struct owners_http_client *c, struct owners_error *err);
/* submit + run for one request; returns r->err.code. */
int owners_http_do(struct owners_http_client *c, struct owners_http_request *r);

/* Sets err from a failed request: "<what>: <reason>", the reason taken from
 * the Status body's message when there is one ("forbidden", "not found",
 * ...); the code maps 401/403/404/409/410/5xx to OWNERS_E*. */
int owners_http_error(struct owners_error *err, const struct owners_http_request *r,
		      const char *what);

/* Number of requests sent (attempts), for tests and benchmarks. */
unsigned long owners_http_requests_sent(const struct owners_http_client *c);

#endif
