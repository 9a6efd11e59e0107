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
 * must keep each alive (path and body unchanged) until its on_done has run;
 * owners_http_request_clear() frees what the client put inside. The
 * client never frees a request, and never touches one again after calling
 * its on_done (so on_done may free it, or fill it again and resubmit it).
 *
 * Threading and callbacks: a client belongs to one thread. Everything runs
 * inside owners_http_run(): on_attempt, on_data and the log callback are
 * called from within libcurl and may only call owners_http_submit();
 * on_done is called from the client's loop and may call
 * owners_http_submit() too (the run goes on until nothing is queued or in
 * flight), but never owners_http_run(), owners_http_do() (both refuse with
 * OWNERS_EINVAL) or owners_http_client_free().
 *
 * Credentials: owners_http_client_new() reads cfg->token_file when there is
 * no cfg->token, and runs the exec plugin (if any) so that its failure is
 * one error up front; before each attempt an expired exec credential is
 * refreshed. A 401 re-runs the plugin (or re-reads the token file) once and
 * retries that request once. Secrets are wiped before memory is freed.
 *
 * Timeouts and retries: request_timeout_ms bounds each attempt; connecting
 * is bounded by 10 s (or that, when smaller). Retries take a rate-limit
 * token like first attempts. Besides the client's own retries, libcurl
 * itself resends a request once when a reused keep-alive connection turns
 * out to be closed before any answer came (the usual idle-connection race).
 *
 * libcurl: owners_http_client_new() calls curl_global_init() and
 * owners_http_client_free() the matching curl_global_cleanup() (libcurl
 * counts them), so a program need not, but may, do so itself.
 *
 * tls_server_name: libcurl cannot override SNI alone. The client puts
 * tls_server_name in the URL it gives libcurl (so SNI and certificate
 * verification use it) and maps that name to the real server with
 * CURLOPT_CONNECT_TO; the Host header still names the real server, as
 * client-go does. Logs and messages show the real server.
 */
#ifndef OWNERS_HTTP_H
#define OWNERS_HTTP_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "owners_error.h"
#include "rest_config.h"

struct owners_http_options {
	double qps;               /* <= 0: no limit */
	int burst;
	/* Lift the rate limit once a response shows that the server runs API
	 * Priority and Fairness (X-Kubernetes-PF-FlowSchema-UID): the server
	 * then queues and sheds load itself (429 + Retry-After, honoured), and
	 * max_in_flight still bounds what this client asks at once. */
	int trust_apf;
	long request_timeout_ms;  /* 0: none */
	/* Without request_timeout_ms, how long one attempt of an ordinary
	 * request may have nothing from the server (its answer not begun, or
	 * stopped) before it is given up and tried again on a new connection
	 * (0: 30 s). A request can stall on a connection that is otherwise
	 * alive, and nothing else would end that wait: kube-apiserver closes
	 * a connection only once it has been idle for 90 s. */
	long answer_deadline_ms;
	int max_in_flight;        /* 0: default (100, kube-apiserver's HTTP/2 stream limit) */
	int max_retries;          /* for connection errors, 5xx and 429; -1 default (5),
				     0 none (a zeroed struct means no retries) */
	int verbosity;            /* -v level: 6 logs requests, 7 request headers,
				     8 bodies and response headers, 9 libcurl's trace */
	void (*log)(void *ctx, const char *line); /* one line, no newline */
	void *log_ctx;
	/* Told once (with log_ctx), at any verbosity, when the server has not
	 * answered in time and the request will be tried again: "cannot
	 * reach ...: connection timed out; retrying for up to 15 s". May be
	 * NULL. */
	void (*notice)(void *ctx, const char *line);
	long backoff_base_ms;     /* first retry delay, doubled each time; 0: 100 */
	long backoff_max_ms;      /* 0: 5000 */
	/* The e2e suites' lag: a request whose path holds this text is sent
	 * this much later (each time it is submitted), so that one type's
	 * lists or watch lag another's as they do on a loaded server. NULL:
	 * none. */
	const char *test_delay_match;
	long test_delay_ms;
	/* Told (with log_ctx) each time a request is held so, "holding a GET
	 * request for 3000 ms: /api/...", before it waits: a suite strikes a
	 * fault on it,
	 * so that the request goes out into the fault whatever the machine's
	 * load. May be NULL. */
	void (*test_delay_notice)(void *ctx, const char *line);
	/* Asked (with log_ctx) every 50 ms while such a request is held:
	 * nonzero sends it at once, so that a suite ends the hold the moment
	 * its fault is in place rather than racing a timer. May be NULL. */
	int (*test_delay_released)(void *ctx);
	/* The e2e suites' lost request: the first attempt of a request whose
	 * path holds this text is counted as sent but never handed to the
	 * connection, as a stream the server never received; only the answer
	 * deadline ends it. NULL: none. */
	const char *test_unanswered_match;
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
	/* Retries: a request that may not have reached the server (the
	 * connection broke after it was sent, or a timeout) is sent again only
	 * when repeating it is harmless: GET, HEAD, PUT, DELETE, or any request
	 * with idempotent set (e.g. a PATCH with a resourceVersion or UID
	 * precondition). Failures before sending, 429 and 503 are retried for
	 * every method; other 5xx for POST/PATCH only with a Retry-After. */
	int idempotent;
	/* A watch: it lasts until the server ends it, or timeout_ms (0: no
	 * limit; --request-timeout bounds ordinary requests, not this). It
	 * does not count toward max_in_flight, owners_http_run() does not
	 * wait for it (owners_http_wait() does), and the client never retries
	 * it after it started: the watcher resumes it from the last
	 * resourceVersion it saw, which a resend of the same path would not. */
	int long_lived;
	long timeout_ms;
	/* How much of the answer libcurl holds for it at most before handing
	 * it on (0: 512 KiB, which keeps most answers whole; see
	 * RECEIVE_BUFFER_BYTES in http.c). Every request in flight may fill
	 * that much while others are read: one of many megabytes, which no
	 * buffer keeps whole, asks for less. */
	size_t receive_buffer;

	/* filled by the client; check err.code first */
	long status;                /* HTTP status, 0 when no response */
	int64_t date;               /* the response's Date (unix seconds, the server's clock), 0: none */
	struct owners_buf response; /* the body, unless streamed (error bodies always kept) */
	struct owners_buf response_type; /* its Content-Type ("" when none), known before on_data */
	struct owners_buf retry_after; /* internal */
	/* set when the request failed (no response, status >= 300, or on_data
	 * failed: then the consumer's own error if it set one here, else
	 * OWNERS_EPROTO "response could not be parsed") */
	struct owners_error err;
	int attempts;
	/* Attempts the client gave up on because the server said nothing
	 * within the answer deadline (see owners_http_options), and the time
	 * they took together: a list that waited so is reported. */
	int unanswered;
	long unanswered_ms;
	/* private to the client */
	void *priv;
};

struct owners_http_client;

/* opt may be NULL: no rate limit, no timeout, the default retries and
 * concurrency, no log. */
int owners_http_client_new(struct owners_http_client **out, struct owners_rest_config *cfg,
			   const struct owners_http_options *opt, struct owners_error *err);
void owners_http_client_free(struct owners_http_client *c);

/* Prepares a request with defaults (GET, empty path/body). */
void owners_http_request_init(struct owners_http_request *r);
/* Frees what is inside r (not r) and leaves r as owners_http_request_init()
 * makes it; r must not be queued or in flight. */
void owners_http_request_clear(struct owners_http_request *r);

/* Queues r; it starts when the rate limit and max_in_flight allow. Resets
 * what the client fills in r. Fails (and r is not queued, on_done will not
 * run) only when out of memory, r is already queued, or the client failed. */
int owners_http_submit(struct owners_http_client *c, struct owners_http_request *r);
/* Runs until no request is queued or in flight (long-lived ones aside:
 * they go on being served, and keep running after it returns); returns
 * non-zero only for a failure of the client itself (per-request failures
 * are in r->err). */
int owners_http_run(struct owners_http_client *c, struct owners_error *err);
/* Serves every request, long-lived ones included, for up to timeout_ms
 * (< 0: no limit), and returns earlier only when fd (>= 0) becomes
 * readable or a callback called owners_http_wake(): the loop of a program
 * that watches, which wakes on its own timers and signals (a self-pipe)
 * between events. With nothing in flight it still sleeps its time out. */
int owners_http_wait(struct owners_http_client *c, long timeout_ms, int fd, struct owners_error *err);
/* From a callback: the owners_http_wait() in progress returns once the
 * callback does (something needs the caller's attention). */
void owners_http_wake(struct owners_http_client *c);
/* submit + run for one request (and whatever else is queued); returns
 * r->err.code. */
int owners_http_do(struct owners_http_client *c, struct owners_http_request *r);

/* Sets err from a failed request: "<what>: <reason>", the reason taken from
 * the Status body's message when there is one ("forbidden", "not found",
 * ...); the code maps 401/403/404/409/410/5xx to OWNERS_E*. what may be
 * NULL (the reason alone). Returns the code, 0 when r did not fail. */
int owners_http_error(struct owners_error *err, const struct owners_http_request *r,
		      const char *what);

/* Number of requests sent (attempts), for tests and benchmarks. */
unsigned long owners_http_requests_sent(const struct owners_http_client *c);

#endif
