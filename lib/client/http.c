/*
 * The HTTP client (see http.h for what it does and the rules for callers).
 *
 * Shape: one CURLM multi handle drives every transfer. A request waits in
 * the `ready` queue until the token bucket and max_in_flight let it start;
 * an attempt then gets an easy handle of its own (configured afresh, so
 * nothing leaks from one request into the next: see handle_new()),
 * and when it ends the request either finishes (on_done) or goes to the
 * `delayed` list until its backoff has passed, then back to `ready`.
 *
 * Connections: easy handles in one multi handle share its connection
 * cache; a share handle adds the TLS session and DNS caches, which libcurl
 * otherwise keeps per easy handle. CURLPIPE_MULTIPLEX plus CURLOPT_PIPEWAIT
 * puts every request on one HTTP/2 connection when ALPN selects h2 (as
 * kube-apiserver does); over HTTP/1.1 each request in flight needs its own
 * connection, up to MAX_HOST_CONNECTIONS.
 */
#include "http.h"

#include <curl/curl.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "clock.h"
#include "exec_credential.h"
#include "http_redact.h"
#include "http_retry.h"
#include "json.h"
#include "rate_limit.h"

#ifndef OWNERS_VERSION
#define OWNERS_VERSION "0.0.0"
#endif

/* As many requests in flight as one HTTP/2 connection carries: the
 * SETTINGS_MAX_CONCURRENT_STREAMS kube-apiserver advertises unless told
 * otherwise (100). More would not reach the server sooner: libcurl (7.88)
 * opens a connection of its own for each request past a full one, up to
 * MAX_HOST_CONNECTIONS, each with its TLS handshake and buffers. Measured
 * on a 258-list scan: 250 in flight opened 32 connections; 100 keep to
 * one, a third less memory and no slower, on loopback or a 40 ms link. */
#define DEFAULT_MAX_IN_FLIGHT 100
/* Connections to one host: HTTP/2 needs one (more only past the server's
 * stream limit); over HTTP/1.1 each request in flight holds one, and the
 * rest wait for a free one inside libcurl. */
#define MAX_HOST_CONNECTIONS 32

/* Where distributions keep their CA bundle: Debian and Ubuntu, RHEL and
 * Fedora, openSUSE and SLES, Alpine. The release binary is static and has
 * no built-in default, so it looks, as Go's crypto/x509 does. */
static const char *const system_ca_bundles[] = {
	"/etc/ssl/certs/ca-certificates.crt",
	"/etc/pki/tls/certs/ca-bundle.crt",
	"/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem",
	"/etc/ssl/ca-bundle.pem",
	"/etc/ssl/cert.pem",
	NULL,
};

/* SSL_CERT_FILE when set (as OpenSSL and Go honour it), else the first
 * bundle that exists; NULL: none (libcurl's own default, if any). */
static const char *find_system_ca(void)
{
	const char *env = getenv("SSL_CERT_FILE");
	size_t i;

	if (env && *env)
		return env;
	for (i = 0; system_ca_bundles[i]; i++)
		if (access(system_ca_bundles[i], R_OK) == 0)
			return system_ca_bundles[i];
	return NULL;
}
#define CONNECT_TIMEOUT_MS 10000L
#define ERROR_BODY_MAX (1024 * 1024)  /* error bodies are Status objects: small */
#define LOG_BODY_MAX (10 * 1024)
#define LOG_HEADERS_MAX (64 * 1024)
#define TOKEN_FILE_MAX (1024 * 1024)
#define IDLE_POLL_MS 1000
/* The answer deadline when the options leave it 0 (see answer_deadline_ms
 * in http.h): client-go's HTTP/2 health check (ReadIdleTimeout) gives a
 * silent connection as long before it pings. */
#define DEFAULT_ANSWER_DEADLINE_MS 30000L
/* Once an answer has begun, the server sends the rest at once: a gap this
 * long in its body is a stall (a TCP retransmission needs five losses in a
 * row, from Linux's 200 ms, to leave one), not a slow server; and
 * kube-apiserver's headers leave with the body's first bytes (Go's HTTP/2
 * writer sends them on the first flush), so headers with no body at all
 * for the shorter one are a stall too. Seen: libcurl 7.88 stopping the
 * body of an HTTP/2 answer at the same byte each time (18,230 of a
 * FlowSchema list; about one snapshot in 40 beside interactive commands,
 * the JSON lists of the READY/STATUS phase: its flow-control stalls,
 * curl#10988); the server had sent it all, and closed the connection
 * when it had been idle 90 s, which is what ended the wait before. */
#define STALL_DEADLINE_MS 5000L
#define BODYLESS_DEADLINE_MS 2000L
/* libcurl's receive buffer (its default is 16 KiB). The stalls above came
 * each time with an answer just over one buffer (17,671 to 20,162 bytes):
 * libcurl 7.88 hands an HTTP/2 stream's data on a buffer at a time, and
 * what is left waits for news on the connection. An answer that fits in
 * one buffer is handed on whole. The memory is touched only as far as an
 * answer fills it. */
#define RECEIVE_BUFFER_BYTES (512L * 1024)

struct xfer;

struct xlist {
	struct xfer *head, *tail;
	size_t n;
};

/* The client's state for one submitted request (r->priv). */
struct xfer {
	struct owners_http_client *c;
	struct owners_http_request *r;
	struct xfer *prev, *next;     /* in ready, delayed or in_flight */
	CURL *easy;                   /* while in flight */
	struct curl_slist *headers;   /* while in flight */
	int64_t started_us;
	int64_t first_started_us;     /* the first attempt's start: the request's deadline counts from it */
	int no_answer;                /* the last attempt got no response at all */
	int64_t not_before_us;        /* while delayed */
	unsigned test_held : 1;       /* delayed by the test hook, not a retry */
	unsigned test_lost : 1;       /* this attempt never handed to libcurl (the test hook) */
	unsigned answered : 1;        /* this attempt's answer began (its status line came) */
	unsigned unanswered : 1;      /* this attempt was given up: nothing came by the deadline */
	int64_t progress_us;          /* this attempt's start, or the last bytes of its answer */
	unsigned fresh_connect : 1;   /* the next attempt opens a connection of its own */
	unsigned cred_gen;            /* credentials this attempt was sent with */
	int reauthed;                 /* the one retry after a 401 was used */
	int consumer_failed;
	int oom;
	int long_lived;               /* r->long_lived when submitted */
	size_t body_bytes;            /* of this attempt's response */
	struct owners_buf resp_headers; /* for the log, -v >= 8 */
	struct owners_buf log_body;   /* start of a streamed body, -v >= 8 */
	char errbuf[CURL_ERROR_SIZE];
};

struct owners_http_client {
	struct owners_rest_config *cfg;
	struct owners_http_options opt;
	const char *system_ca;        /* the system's CA bundle (find_system_ca()) */
	struct owners_http_retry retry; /* the retry policy, with its jitter */
	int said_no_answer;           /* opt.notice told of a server that does not answer */

	CURLM *multi;
	CURLSH *share;
	int global_init;

	char *base_url;               /* what libcurl is given, tls_server_name as host */
	char *display_base;           /* cfg->server without a trailing slash */
	struct curl_slist *connect_to; /* tls_server_name -> real host */
	char *host_header;            /* "Host: real-host:port" with tls_server_name */
	char *token;                  /* cfg->token, or read from cfg->token_file */

	struct xlist ready, delayed, in_flight;
	size_t long_lived;            /* long-lived requests queued or in flight */
	size_t long_lived_in_flight;  /* of which in flight (outside max_in_flight) */
	int woken;                    /* owners_http_wake() during a wait */

	struct owners_rate_limit bucket; /* --qps, --burst */
	int apf_seen;             /* a response carried API Priority and Fairness headers */
	int loopback;             /* the server is on this machine (and no proxy) */

	unsigned cred_gen;            /* bumped whenever credentials change */
	unsigned long sent;
	int running;
	int failed;                   /* a client failure ended a run: no more submits */
};

/* ---- small helpers ----------------------------------------------------- */

static long us_to_ms_ceil(int64_t us)
{
	return us <= 0 ? 0 : (long)((us + 999) / 1000);
}

/* Tokens pass through these: they must not linger in freed memory. */
static void free_secret(char *p)
{
	if (p) {
		owners_wipe(p, strlen(p));
		free(p);
	}
}

static void free_headers(struct curl_slist *l)
{
	struct curl_slist *h;

	for (h = l; h; h = h->next)
		if (h->data)
			owners_wipe(h->data, strlen(h->data));
	curl_slist_free_all(l);
}

static void xl_push_back(struct xlist *l, struct xfer *x)
{
	x->next = NULL;
	x->prev = l->tail;
	if (l->tail)
		l->tail->next = x;
	else
		l->head = x;
	l->tail = x;
	l->n++;
}

static void xl_push_front(struct xlist *l, struct xfer *x)
{
	x->prev = NULL;
	x->next = l->head;
	if (l->head)
		l->head->prev = x;
	else
		l->tail = x;
	l->head = x;
	l->n++;
}

static void xl_remove(struct xlist *l, struct xfer *x)
{
	if (x->prev)
		x->prev->next = x->next;
	else
		l->head = x->next;
	if (x->next)
		x->next->prev = x->prev;
	else
		l->tail = x->prev;
	x->prev = x->next = NULL;
	l->n--;
}

static const char *reason_phrase(long status)
{
	switch (status) {
	case 200: return "OK";
	case 201: return "Created";
	case 202: return "Accepted";
	case 204: return "No Content";
	case 301: return "Moved Permanently";
	case 302: return "Found";
	case 303: return "See Other";
	case 304: return "Not Modified";
	case 307: return "Temporary Redirect";
	case 308: return "Permanent Redirect";
	case 400: return "Bad Request";
	case 401: return "Unauthorized";
	case 403: return "Forbidden";
	case 404: return "Not Found";
	case 405: return "Method Not Allowed";
	case 406: return "Not Acceptable";
	case 408: return "Request Timeout";
	case 409: return "Conflict";
	case 410: return "Gone";
	case 413: return "Request Entity Too Large";
	case 415: return "Unsupported Media Type";
	case 422: return "Unprocessable Entity";
	case 429: return "Too Many Requests";
	case 500: return "Internal Server Error";
	case 501: return "Not Implemented";
	case 502: return "Bad Gateway";
	case 503: return "Service Unavailable";
	case 504: return "Gateway Timeout";
	}
	return "";
}

/* ---- logging ----------------------------------------------------------- */

/* Every log line goes out through here, so redaction cannot be forgotten.
 * A line that cannot be made safe (out of memory) is dropped. */
static void emit(struct owners_http_client *c, struct owners_buf *line)
{
	const char *const secrets[] = { c->token, c->cfg->exec_cred.token };

	if (owners_http_redact_line(line, secrets, sizeof(secrets) / sizeof(secrets[0])))
		return;
	c->opt.log(c->opt.log_ctx, line->ptr);
}

static void http_log(struct owners_http_client *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void http_log(struct owners_http_client *c, const char *fmt, ...)
{
	struct owners_buf line = OWNERS_BUF_INIT;
	va_list ap;
	int rc;

	if (!c->opt.log)
		return;
	va_start(ap, fmt);
	rc = owners_buf_vaddf(&line, fmt, ap);
	va_end(ap);
	if (!rc)
		emit(c, &line);
	owners_buf_clear(&line);
}

static void log_body(struct owners_http_client *c, const char *label, const char *data,
		     size_t shown, size_t total)
{
	if (total > shown)
		http_log(c, "%s: %.*s [truncated %zu bytes]", label, (int)shown, data,
			 total - shown);
	else
		http_log(c, "%s: %.*s", label, (int)shown, data);
}

/* -v=9: libcurl's trace, one log line per line of it. Payload bytes and
 * TLS records are not traced (binary, and bodies are logged at 8). */
static int on_debug(CURL *e, curl_infotype type, char *data, size_t size, void *ud)
{
	struct xfer *x = ud;
	const char *prefix, *p = data, *end = data + size;

	(void)e;
	if (type == CURLINFO_TEXT)
		prefix = "* ";
	else if (type == CURLINFO_HEADER_IN)
		prefix = "< ";
	else if (type == CURLINFO_HEADER_OUT)
		prefix = "> ";
	else
		return 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (len && p[len - 1] == '\r')
			len--;
		if (len)
			http_log(x->c, "%s%.*s", prefix, (int)len, p);
		p = nl ? nl + 1 : end;
	}
	return 0;
}

/* ---- errors ------------------------------------------------------------ */

static int status_code(long status)
{
	switch (status) {
	case 400:
	case 405:
	case 422:
		return OWNERS_EINVAL;
	case 401: return OWNERS_EAUTH;
	case 403: return OWNERS_EFORBIDDEN;
	case 404: return OWNERS_ENOTFOUND;
	case 409: return OWNERS_ECONFLICT;
	case 410: return OWNERS_EGONE;
	case 429: return OWNERS_ESERVER;
	}
	return status >= 500 ? OWNERS_ESERVER : OWNERS_EPROTO;
}

/* The reason for a failed status: the Status object's message when the
 * body is one, else the status' own words. */
static int status_reason(struct owners_buf *out, long status, const char *body, size_t len)
{
	struct owners_json_value *v = NULL;
	struct owners_error ignored = OWNERS_ERROR_INIT;
	const char *msg = NULL, *phrase = reason_phrase(status);
	int rc;

	/* 401 carries "Unauthorized" and nothing more useful. */
	if (status == 401)
		return owners_buf_adds(out, "unauthorized");
	if (len && !owners_json_parse(&v, body, len, &ignored))
		msg = owners_json_string(owners_json_get(v, "message"));
	owners_error_clear(&ignored);
	if (msg && *msg) {
		rc = owners_buf_adds(out, msg);
	} else if (*phrase && status >= 400) {
		size_t start = out->len, i;

		rc = owners_buf_adds(out, phrase);
		for (i = start; !rc && i < out->len; i++)
			if (out->ptr[i] >= 'A' && out->ptr[i] <= 'Z')
				out->ptr[i] = (char)(out->ptr[i] - 'A' + 'a');
	} else {
		rc = owners_buf_addf(out, "the server answered %ld", status);
	}
	owners_json_value_free(v);
	return rc;
}

static int set_status_error(struct owners_error *err, long status, const char *body, size_t len,
			    int attempts)
{
	struct owners_buf reason = OWNERS_BUF_INIT;
	int code = status_code(status), rc;

	rc = status_reason(&reason, status, body, len);
	if (rc)
		code = owners_error_oom(err);
	else if (owners_http_retry_status(status) && attempts > 1)
		owners_error_set(err, code, "the server answered %ld after %d attempts: %s", status,
				 attempts, reason.ptr);
	else
		owners_error_set(err, code, "%s", reason.ptr);
	owners_buf_clear(&reason);
	return code;
}

int owners_http_error(struct owners_error *err, const struct owners_http_request *r,
		      const char *what)
{
	struct owners_error tmp = OWNERS_ERROR_INIT;
	const struct owners_error *src = &r->err;
	int code;

	if (!r->err.code) {
		if (r->status >= 200 && r->status < 300)
			return 0;
		/* Not filled by this client (or not yet): judge from the status. */
		if (r->status)
			set_status_error(&tmp, r->status, r->response.ptr, r->response.len,
					 r->attempts);
		else
			owners_error_set(&tmp, OWNERS_ENET, "no response");
		src = &tmp;
	}
	code = src->code;
	if (what)
		owners_error_set(err, code, "%s: %s", what, owners_error_message(src));
	else
		owners_error_set(err, code, "%s", owners_error_message(src));
	owners_error_clear(&tmp);
	return code;
}

/* ---- credentials ------------------------------------------------------- */

static int read_token_file(char **out, const char *path, struct owners_error *err)
{
	struct owners_buf b = OWNERS_BUF_INIT;
	FILE *f = NULL;
	char chunk[4096];
	size_t n, start = 0;
	int rc = 0;

	*out = NULL;
	f = fopen(path, "re");
	if (!f) {
		rc = owners_error_set(err, OWNERS_ECONFIG, "cannot read token file '%s': %s", path,
				      strerror(errno));
		goto out;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		if (b.len + n > TOKEN_FILE_MAX) {
			rc = owners_error_set(err, OWNERS_ECONFIG, "token file '%s' is too large",
					      path);
			goto out;
		}
		if (owners_buf_add(&b, chunk, n)) {
			rc = owners_error_oom(err);
			goto out;
		}
	}
	if (ferror(f)) {
		rc = owners_error_set(err, OWNERS_ECONFIG, "cannot read token file '%s': %s", path,
				      strerror(errno));
		goto out;
	}
	/* Files written by editors and kubelet end with a newline. */
	while (b.len && strchr(" \t\r\n", b.ptr[b.len - 1]))
		owners_buf_truncate(&b, b.len - 1);
	while (start < b.len && strchr(" \t\r\n", b.ptr[start]))
		start++;
	if (start == b.len) {
		rc = owners_error_set(err, OWNERS_ECONFIG, "token file '%s' is empty", path);
		goto out;
	}
	*out = owners_strdup(b.ptr + start);
	if (!*out)
		rc = owners_error_oom(err);
out:
	if (f)
		fclose(f);
	owners_wipe(b.ptr, b.cap);
	owners_buf_clear(&b);
	return rc;
}

/* Runs (or reuses) the exec plugin; bumps cred_gen when it ran. */
static int exec_refresh(struct owners_http_client *c, int force, struct owners_error *err)
{
	struct owners_rest_config_exec_credential *ec = &c->cfg->exec_cred;
	int was_valid = ec->valid;
	int64_t old_expiry = ec->expires_at;
	int rc;

	rc = owners_exec_credential_refresh(c->cfg, owners_clock_wall(), force, err);
	if (!rc && (force || !was_valid || ec->expires_at != old_expiry))
		c->cred_gen++;
	return rc;
}

static const char *current_token(const struct owners_http_client *c)
{
	const struct owners_rest_config_exec_credential *ec = &c->cfg->exec_cred;

	if (c->cfg->exec && ec->valid && ec->token && *ec->token)
		return ec->token;
	return c->token;
}

/* ---- building an attempt ----------------------------------------------- */

static int add_header(struct curl_slist **list, struct owners_error *err, const char *name,
		      const char *value)
{
	struct owners_buf line = OWNERS_BUF_INIT;
	struct curl_slist *l;

	/* A line break would let a value (a token from a file or a plugin, a
	 * user name) inject headers. */
	if (strpbrk(value, "\r\n"))
		return owners_error_set(err, OWNERS_ECONFIG,
					"the %s header cannot contain a line break", name);
	if (owners_buf_addf(&line, "%s: %s", name, value))
		return owners_error_oom(err);
	l = curl_slist_append(*list, line.ptr);
	owners_wipe(line.ptr, line.cap);
	owners_buf_clear(&line);
	if (!l)
		return owners_error_oom(err);
	*list = l;
	return 0;
}

static int method_has_body(const char *m)
{
	return strcmp(m, "GET") && strcmp(m, "HEAD");
}

static int build_headers(struct owners_http_client *c, struct xfer *x, struct owners_error *err)
{
	struct owners_http_request *r = x->r;
	const char *token = current_token(c);
	struct owners_buf auth = OWNERS_BUF_INIT;
	struct curl_slist *l;
	size_t i;
	int rc;

	rc = add_header(&x->headers, err, "Accept", r->accept ? r->accept : "application/json");
	if (!rc && method_has_body(r->method) && (r->body.len || r->content_type))
		rc = add_header(&x->headers, err, "Content-Type",
				r->content_type ? r->content_type : "application/json");
	if (!rc && token) {
		if (owners_buf_addf(&auth, "Bearer %s", token))
			rc = owners_error_oom(err);
		else
			rc = add_header(&x->headers, err, "Authorization", auth.ptr);
		owners_wipe(auth.ptr, auth.cap);
		owners_buf_clear(&auth);
	}
	if (!rc && c->cfg->impersonate_user)
		rc = add_header(&x->headers, err, "Impersonate-User", c->cfg->impersonate_user);
	for (i = 0; !rc && i < c->cfg->n_impersonate_groups; i++)
		rc = add_header(&x->headers, err, "Impersonate-Group",
				c->cfg->impersonate_groups[i]);
	if (rc)
		return rc;
	if (c->host_header) {
		l = curl_slist_append(x->headers, c->host_header);
		if (!l)
			return owners_error_oom(err);
		x->headers = l;
	}
	/* No "Expect: 100-continue" round trip before large bodies. */
	l = curl_slist_append(x->headers, "Expect:");
	if (!l)
		return owners_error_oom(err);
	x->headers = l;
	return 0;
}

static size_t on_header(char *buf, size_t size, size_t n, void *ud)
{
	struct xfer *x = ud;
	struct owners_http_request *r = x->r;
	size_t total = size * n, len = total;

	x->progress_us = owners_clock_us();
	if (len >= 5 && !memcmp(buf, "HTTP/", 5)) {
		x->answered = 1;
		/* A new response (after a 1xx): forget the previous one's. */
		owners_buf_reset(&r->retry_after);
		owners_buf_reset(&r->response_type);
		owners_buf_reset(&x->resp_headers);
		r->date = 0;
		return total;
	}
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
		len--;
	if (!len && x->long_lived && x->c->opt.verbosity >= 6 && x->c->opt.log) {
		/* A watch is logged when its answer begins, as kubectl does:
		 * it may never end. */
		long code = 0;

		curl_easy_getinfo(x->easy, CURLINFO_RESPONSE_CODE, &code);
		if (code >= 200)
			http_log(x->c, "%s %s%s %ld%s%s in %lld ms (watching)", r->method,
				 x->c->display_base, r->path.ptr, code,
				 *reason_phrase(code) ? " " : "", reason_phrase(code),
				 (long long)((owners_clock_us() - x->started_us) / 1000));
	}
	if (len > 31 && !strncasecmp(buf, "x-kubernetes-pf-flowschema-uid:", 31))
		x->c->apf_seen = 1;
	if (len > 13 && !strncasecmp(buf, "content-type:", 13)) {
		size_t s = 13;

		while (s < len && (buf[s] == ' ' || buf[s] == '\t'))
			s++;
		owners_buf_reset(&r->response_type);
		owners_buf_add(&r->response_type, buf + s, len - s);
	}
	if (len > 5 && len < 64 && !strncasecmp(buf, "date:", 5)) {
		char date[64];
		time_t t;

		memcpy(date, buf + 5, len - 5);
		date[len - 5] = '\0';
		t = curl_getdate(date, NULL);
		r->date = t > 0 ? (int64_t)t : 0;
	}
	if (len > 12 && !strncasecmp(buf, "retry-after:", 12)) {
		size_t s = 12;

		while (s < len && (buf[s] == ' ' || buf[s] == '\t'))
			s++;
		owners_buf_reset(&r->retry_after);
		/* Without memory the header is simply not honoured. */
		owners_buf_add(&r->retry_after, buf + s, len - s);
	}
	if (len && x->c->opt.verbosity >= 8 && x->resp_headers.len + len < LOG_HEADERS_MAX) {
		if (owners_buf_add(&x->resp_headers, buf, len) ||
		    owners_buf_addc(&x->resp_headers, '\n'))
			owners_buf_reset(&x->resp_headers);
	}
	return total;
}

static size_t on_write(char *ptr, size_t size, size_t n, void *ud)
{
	struct xfer *x = ud;
	struct owners_http_request *r = x->r;
	size_t len = size * n;
	long code = 0;

	curl_easy_getinfo(x->easy, CURLINFO_RESPONSE_CODE, &code);
	x->progress_us = owners_clock_us();
	x->body_bytes += len;
	if (code >= 200 && code < 300) {
		if (!r->on_data) {
			if (owners_buf_add(&r->response, ptr, len)) {
				x->oom = 1;
				return 0;
			}
			return len;
		}
		if (x->c->opt.verbosity >= 8 && x->log_body.len < LOG_BODY_MAX) {
			size_t keep = LOG_BODY_MAX - x->log_body.len;

			/* Only for the log: without memory it is just shorter. */
			owners_buf_add(&x->log_body, ptr, len < keep ? len : keep);
		}
		if (r->on_data(r->ctx, ptr, len)) {
			x->consumer_failed = 1;
			return 0;
		}
		return len;
	}
	/* An error body is a Status object; anything huge is not worth more
	 * than its start, and a hostile server cannot fill memory with it. */
	if (r->response.len < ERROR_BODY_MAX) {
		size_t keep = ERROR_BODY_MAX - r->response.len;

		if (owners_buf_add(&r->response, ptr, len < keep ? len : keep)) {
			x->oom = 1;
			return 0;
		}
	}
	return len;
}

/* A new handle for each attempt: libcurl 7.88 takes a receive buffer
 * size only before a handle's first transfer (over HTTP/2 a reused handle
 * refuses it, and curl_easy_reset() puts it back to 16 KiB). Connections
 * and TLS sessions live in the multi handle and the share, not here, so
 * nothing is lost with it. */
static CURL *handle_new(void)
{
	return curl_easy_init();
}

static void handle_free(CURL *e)
{
	if (e)
		curl_easy_cleanup(e);
}

static CURLcode set_blob(CURL *e, CURLoption opt, const struct owners_buf *b)
{
	struct curl_blob blob;

	blob.data = b->ptr;
	blob.len = b->len;
	/* libcurl keeps its own copy: an exec credential refreshed (and
	 * freed) while a connection still uses the old one stays safe. */
	blob.flags = CURL_BLOB_COPY;
	return curl_easy_setopt(e, opt, &blob);
}

/* What is left of the request's whole wait, every attempt and the pauses
 * between them (kubectl's --request-timeout bounds one request; retrying
 * must not make it several times longer): 0 without a limit, at least 1. */
static long request_time_left_ms(const struct owners_http_client *c, const struct xfer *x)
{
	long limit = c->opt.request_timeout_ms, used;

	if (limit <= 0)
		return 0;
	used = x->r->attempts ? (long)((owners_clock_us() - x->first_started_us) / 1000) : 0;
	return used < limit ? limit - used : 1;
}

/* Every option is set in turn until one fails: cc keeps the first failure. */
#define SET(opt, val)                                                                              \
	do {                                                                                       \
		if (cc == CURLE_OK)                                                                \
			cc = curl_easy_setopt(e, opt, val);                                        \
	} while (0)

/* Whom the server is checked against, and the client certificate (an exec
 * credential's, when it gives one, rather than the kubeconfig's). */
static CURLcode configure_tls(struct owners_http_client *c, CURL *e)
{
	const struct owners_rest_config *cfg = c->cfg;
	const struct owners_rest_config_exec_credential *ec = &cfg->exec_cred;
	const struct owners_buf *cert = &cfg->client_cert_data, *key = &cfg->client_key_data;
	CURLcode cc = CURLE_OK;

	/* TLS: verify unless the configuration explicitly says not to. */
	SET(CURLOPT_SSLVERSION, (long)CURL_SSLVERSION_TLSv1_2);
	if (cfg->insecure_skip_tls_verify) {
		SET(CURLOPT_SSL_VERIFYPEER, 0L);
		SET(CURLOPT_SSL_VERIFYHOST, 0L);
	} else {
		SET(CURLOPT_SSL_VERIFYPEER, 1L);
		SET(CURLOPT_SSL_VERIFYHOST, 2L);
	}
	if (cfg->ca_data.len) {
		/* The cluster's CA alone, like client-go: not the system
		 * bundle as well. */
		SET(CURLOPT_CAINFO, (char *)NULL);
		SET(CURLOPT_CAPATH, (char *)NULL);
		if (cc == CURLE_OK)
			cc = set_blob(e, CURLOPT_CAINFO_BLOB, &cfg->ca_data);
	} else if (c->system_ca) {
		SET(CURLOPT_CAINFO, c->system_ca);
	}
	/* A proxy's certificate is checked against the system's CAs. */
	if (c->system_ca)
		SET(CURLOPT_PROXY_CAINFO, c->system_ca);
	if (cfg->exec && ec->valid && ec->client_cert_data.len && ec->client_key_data.len) {
		cert = &ec->client_cert_data;
		key = &ec->client_key_data;
	}
	if (cert->len && key->len) {
		SET(CURLOPT_SSLCERTTYPE, "PEM");
		if (cc == CURLE_OK)
			cc = set_blob(e, CURLOPT_SSLCERT_BLOB, cert);
		SET(CURLOPT_SSLKEYTYPE, "PEM");
		if (cc == CURLE_OK)
			cc = set_blob(e, CURLOPT_SSLKEY_BLOB, key);
	}
	return cc;
}

static CURLcode configure(struct owners_http_client *c, struct xfer *x, CURL *e,
			  const char *url)
{
	struct owners_http_request *r = x->r;
	const struct owners_rest_config *cfg = c->cfg;
	long timeout = x->long_lived ? r->timeout_ms : request_time_left_ms(c, x);
	long connect_timeout = CONNECT_TIMEOUT_MS;
	CURLcode cc = CURLE_OK;

	SET(CURLOPT_URL, url);
	SET(CURLOPT_PRIVATE, (void *)x);
	SET(CURLOPT_NOSIGNAL, 1L);
	SET(CURLOPT_SHARE, c->share);
#if LIBCURL_VERSION_NUM >= 0x075500
	SET(CURLOPT_PROTOCOLS_STR, "http,https");
#else
	SET(CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
	SET(CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_2TLS);
	/* Wait for the first connection to say whether it multiplexes
	 * rather than opening one connection per concurrent request. */
	SET(CURLOPT_PIPEWAIT, 1L);
	SET(CURLOPT_TCP_KEEPALIVE, 1L);
	SET(CURLOPT_ERRORBUFFER, x->errbuf);
	SET(CURLOPT_USERAGENT, "owners/" OWNERS_VERSION);
	/* Lists of thousands of objects compress well; the apiserver
	 * gzips large responses when asked. Not over the loopback interface
	 * (a local cluster, kind's port mapping): there bytes are free and
	 * compressing costs the server CPU that the client shares with it,
	 * for nothing (about a tenth of a scan's CPU on both sides). */
	if (!c->loopback)
		SET(CURLOPT_ACCEPT_ENCODING, "");
	SET(CURLOPT_HTTPHEADER, x->headers);
	SET(CURLOPT_WRITEFUNCTION, on_write);
	SET(CURLOPT_WRITEDATA, (void *)x);
	SET(CURLOPT_HEADERFUNCTION, on_header);
	SET(CURLOPT_BUFFERSIZE, r->receive_buffer ? (long)r->receive_buffer : RECEIVE_BUFFER_BYTES);
	SET(CURLOPT_HEADERDATA, (void *)x);
	if (timeout > 0 && timeout < connect_timeout)
		connect_timeout = timeout;
	if (timeout <= 0 && x->no_answer && !x->long_lived) {
		/* Without a limit, trying a server that never answered stops
		 * at OWNERS_HTTP_NO_ANSWER_GIVE_UP_MS, this attempt included (waiting for
		 * another request's connection too, which the connect timeout
		 * does not count). */
		long left = OWNERS_HTTP_NO_ANSWER_GIVE_UP_MS -
			    (long)((owners_clock_us() - x->first_started_us) / 1000);

		timeout = left > 0 ? left : 1;
	}
	SET(CURLOPT_CONNECTTIMEOUT_MS, connect_timeout);
	if (timeout > 0)
		SET(CURLOPT_TIMEOUT_MS, timeout);
	/* The attempt before was lost on its connection: not that one again. */
	if (x->fresh_connect)
		SET(CURLOPT_FRESH_CONNECT, 1L);
	if (c->connect_to)
		SET(CURLOPT_CONNECT_TO, c->connect_to);
	if (cfg->proxy_url && *cfg->proxy_url)
		SET(CURLOPT_PROXY, cfg->proxy_url);

	if (cc == CURLE_OK)
		cc = configure_tls(c, e);

	if (!strcmp(r->method, "GET")) {
		SET(CURLOPT_HTTPGET, 1L);
	} else if (!strcmp(r->method, "HEAD")) {
		SET(CURLOPT_NOBODY, 1L);
	} else {
		/* The body is borrowed: the request keeps it alive and
		 * unchanged until on_done. */
		SET(CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)r->body.len);
		SET(CURLOPT_POSTFIELDS, r->body.ptr);
		if (strcmp(r->method, "POST"))
			SET(CURLOPT_CUSTOMREQUEST, r->method);
	}

	if (c->opt.verbosity >= 9 && c->opt.log) {
		SET(CURLOPT_DEBUGFUNCTION, on_debug);
		SET(CURLOPT_DEBUGDATA, (void *)x);
		SET(CURLOPT_VERBOSE, 1L);
	}
	return cc;
}
#undef SET

static void log_request(struct owners_http_client *c, struct xfer *x)
{
	struct owners_http_request *r = x->r;
	const struct curl_slist *h;

	http_log(c, "%s %s%s", r->method, c->display_base, r->path.ptr);
	http_log(c, "Request Headers:");
	http_log(c, "    User-Agent: owners/%s", OWNERS_VERSION);
	for (h = x->headers; h; h = h->next)
		if (h->data && strcmp(h->data, "Expect:"))
			http_log(c, "    %s", h->data);
	if (c->opt.verbosity >= 8 && method_has_body(r->method) && r->body.len)
		log_body(c, "Request Body", r->body.ptr,
			 r->body.len < LOG_BODY_MAX ? r->body.len : LOG_BODY_MAX, r->body.len);
}

/* Starts the next attempt of x; on failure x's request has err set and
 * the caller finishes it. */
static int start_attempt(struct owners_http_client *c, struct xfer *x)
{
	struct owners_http_request *r = x->r;
	struct owners_buf url = OWNERS_BUF_INIT;
	CURL *e = NULL;
	CURLcode cc;
	CURLMcode mc;
	int rc = 0;

	r->status = 0;
	r->date = 0;
	owners_buf_reset(&r->response);
	owners_buf_reset(&r->retry_after);
	owners_buf_reset(&r->response_type);
	owners_error_clear(&r->err);
	owners_buf_reset(&x->resp_headers);
	owners_buf_reset(&x->log_body);
	x->body_bytes = 0;
	x->consumer_failed = 0;
	x->oom = 0;
	x->answered = 0;
	x->unanswered = 0;
	x->test_lost = 0;
	x->errbuf[0] = '\0';

	/* An exec credential may expire during a long run (--wait). */
	if (c->cfg->exec && (rc = exec_refresh(c, 0, &r->err)))
		goto out;
	x->cred_gen = c->cred_gen;
	if ((rc = build_headers(c, x, &r->err)))
		goto out;
	if (owners_buf_addf(&url, "%s%s", c->base_url, r->path.ptr)) {
		rc = owners_error_oom(&r->err);
		goto out;
	}
	e = handle_new();
	if (!e) {
		rc = owners_error_oom(&r->err);
		goto out;
	}
	x->easy = e;
	cc = configure(c, x, e, url.ptr);
	x->fresh_connect = 0;
	if (cc == CURLE_OUT_OF_MEMORY) {
		rc = owners_error_oom(&r->err);
		goto out;
	} else if (cc != CURLE_OK) {
		rc = owners_error_set(&r->err, OWNERS_EINVAL, "cannot prepare %s %s%s: %s",
				      r->method, c->display_base, r->path.ptr,
				      curl_easy_strerror(cc));
		goto out;
	}
	if (c->opt.verbosity >= 7 && c->opt.log)
		log_request(c, x);
	if (r->on_attempt)
		r->on_attempt(r->ctx);
	/* The test hook's lost request: in flight, on the clock, never sent. */
	x->test_lost = !r->attempts && !x->long_lived && c->opt.test_unanswered_match &&
		       strstr(r->path.ptr, c->opt.test_unanswered_match);
	mc = x->test_lost ? CURLM_OK : curl_multi_add_handle(c->multi, e);
	if (mc == CURLM_OUT_OF_MEMORY) {
		rc = owners_error_oom(&r->err);
		goto out;
	} else if (mc != CURLM_OK) {
		rc = owners_error_set(&r->err, OWNERS_ENET, "cannot start %s %s%s: %s", r->method,
				      c->display_base, r->path.ptr, curl_multi_strerror(mc));
		goto out;
	}
	if (!r->attempts)
		x->first_started_us = owners_clock_us();
	r->attempts++;
	c->sent++;
	x->started_us = owners_clock_us();
	x->progress_us = x->started_us;
	xl_push_back(&c->in_flight, x);
	c->long_lived_in_flight += (size_t)x->long_lived;
out:
	if (rc) {
		handle_free(x->easy);
		x->easy = NULL;
		free_headers(x->headers);
		x->headers = NULL;
	}
	owners_buf_clear(&url);
	return rc;
}

/* ---- ending an attempt ------------------------------------------------- */

static void xfer_free(struct xfer *x)
{
	if (!x)
		return;
	free_headers(x->headers);
	owners_buf_clear(&x->resp_headers);
	owners_buf_clear(&x->log_body);
	free(x);
}

/* Hands the request back to its owner. Nothing touches r afterwards: the
 * owner may free or resubmit it in on_done. */
static void finish(struct xfer *x)
{
	struct owners_http_request *r = x->r;

	x->c->long_lived -= (size_t)x->long_lived;
	r->priv = NULL;
	xfer_free(x);
	if (r->on_done)
		r->on_done(r->ctx, r);
}

enum outcome { DONE, RETRY, REAUTH };

static long answer_deadline_ms(const struct owners_http_client *c)
{
	return c->opt.answer_deadline_ms > 0 ? c->opt.answer_deadline_ms : DEFAULT_ANSWER_DEADLINE_MS;
}

/* How long x may have nothing from the server: before its answer begins,
 * the answer deadline; after, a stall's (never longer). */
static long silence_allowed_ms(const struct owners_http_client *c, const struct xfer *x)
{
	long answer = answer_deadline_ms(c);
	long stall = x->body_bytes ? STALL_DEADLINE_MS : BODYLESS_DEADLINE_MS;

	return x->answered && stall < answer ? stall : answer;
}

/* A curl failure: sets err and says whether another attempt may help. */
static int curl_failure(struct owners_http_client *c, struct xfer *x, CURLcode result,
			int *retry)
{
	struct owners_http_request *r = x->r;
	const char *detail = x->errbuf[0] ? x->errbuf : curl_easy_strerror(result);
	const char *server = c->display_base;
	curl_off_t pretransfer = 0;
	long os_errno = 0;

	*retry = 0;
	curl_easy_getinfo(x->easy, CURLINFO_OS_ERRNO, &os_errno);
	curl_easy_getinfo(x->easy, CURLINFO_PRETRANSFER_TIME_T, &pretransfer);
	switch (result) {
	case CURLE_PEER_FAILED_VERIFICATION:
	case CURLE_SSL_CACERT_BADFILE:
	case CURLE_SSL_ISSUER_ERROR:
	case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
	case CURLE_SSL_INVALIDCERTSTATUS:
		/* Trying again will not change who the server is. */
		return owners_error_set(&r->err, OWNERS_ETLS, "TLS verification of %s failed: %s",
					server, detail);
	case CURLE_SSL_CONNECT_ERROR:
		/* The connection reset or closed during the handshake: that is
		 * the network (a proxy or load balancer dropping it), not TLS,
		 * and nothing was sent yet, so any request may try again. */
		if (os_errno == ECONNRESET || os_errno == ECONNABORTED || os_errno == EPIPE ||
		    os_errno == ETIMEDOUT || strstr(detail, "reset by peer") ||
		    strstr(detail, "unexpected eof") || strstr(detail, "SSL_ERROR_SYSCALL")) {
			*retry = 1;
			return owners_error_set(&r->err, OWNERS_ENET,
						"lost the connection to %s during the TLS handshake: %s",
						server, os_errno ? strerror((int)os_errno) : detail);
		}
		/* fall through */
	case CURLE_SSL_CIPHER:
	case CURLE_SSL_ENGINE_NOTFOUND:
	case CURLE_SSL_ENGINE_SETFAILED:
	case CURLE_SSL_ENGINE_INITFAILED:
	case CURLE_SSL_CRL_BADFILE:
	case CURLE_USE_SSL_FAILED:
		return owners_error_set(&r->err, OWNERS_ETLS, "TLS handshake with %s failed: %s",
					server, detail);
	case CURLE_SSL_CERTPROBLEM:
		return owners_error_set(&r->err, OWNERS_ETLS,
					"cannot use the client certificate for %s: %s", server,
					detail);
	case CURLE_URL_MALFORMAT:
		return owners_error_set(&r->err, OWNERS_EINVAL, "invalid URL %s%s: %s", server,
					r->path.ptr, detail);
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_RESOLVE_PROXY:
	case CURLE_COULDNT_CONNECT:
		/* Nothing was sent: safe to repeat whatever the method. */
		*retry = 1;
		return owners_error_set(&r->err, OWNERS_ENET, "cannot reach %s: %s", server,
					os_errno ? strerror((int)os_errno) : detail);
	case CURLE_OPERATION_TIMEDOUT:
		if (x->unanswered) {
			/* Given up by the answer deadline: sent or not, the
			 * server said nothing; safe to send again only when
			 * repeating it is harmless. */
			*retry = owners_http_retry_idempotent(r);
			if (x->answered)
				return owners_error_set(&r->err, OWNERS_ETIMEOUT,
							"%s %s%s stopped answering: nothing came for %g s",
							r->method, server, r->path.ptr,
							(double)silence_allowed_ms(c, x) / 1000);
			return owners_error_set(&r->err, OWNERS_ETIMEOUT,
						"%s %s%s got no answer in %g s", r->method, server,
						r->path.ptr, (double)answer_deadline_ms(c) / 1000);
		}
		if (!pretransfer) {
			*retry = 1;
			return owners_error_set(&r->err, OWNERS_ENET,
						"cannot reach %s: connection timed out", server);
		}
		*retry = owners_http_retry_idempotent(r);
		if (c->opt.request_timeout_ms <= 0)
			return owners_error_set(&r->err, OWNERS_ETIMEOUT, "%s %s%s timed out: %s",
						r->method, server, r->path.ptr, detail);
		return owners_error_set(&r->err, OWNERS_ETIMEOUT,
					"%s %s%s timed out after %ld ms", r->method, server,
					r->path.ptr, c->opt.request_timeout_ms);
	case CURLE_RECV_ERROR:
		/* With TLS 1.3 a server that rejects our client certificate
		 * says so in an alert read after the handshake: that is a TLS
		 * failure, and a retry would get the same alert. */
		if (strstr(detail, "SSL") && strstr(detail, "alert"))
			return owners_error_set(&r->err, OWNERS_ETLS,
						"TLS handshake with %s failed: %s", server, detail);
		/* fall through */
	case CURLE_SEND_ERROR:
	case CURLE_GOT_NOTHING:
	case CURLE_PARTIAL_FILE:
	case CURLE_HTTP2:
	case CURLE_HTTP2_STREAM:
	case CURLE_BAD_CONTENT_ENCODING:
		/* The request may have reached the server. */
		*retry = owners_http_retry_idempotent(r);
		return owners_error_set(&r->err, OWNERS_ENET, "lost the connection to %s: %s",
					server, os_errno ? strerror((int)os_errno) : detail);
	default:
		return owners_error_set(&r->err, OWNERS_ENET, "%s %s%s failed: %s", r->method,
					server, r->path.ptr, detail);
	}
}

/* "application/json" of "application/json;as=...;v=v1": the log shows
 * what was spoken, not every parameter. */
static size_t media_type_len(const struct owners_buf *t)
{
	const char *semi = t->len ? strchr(t->ptr, ';') : NULL;

	return semi ? (size_t)(semi - t->ptr) : t->len;
}

static void log_attempt(struct owners_http_client *c, struct xfer *x, CURLcode result,
			long delay_ms)
{
	struct owners_http_request *r = x->r;
	long long ms = (long long)((owners_clock_us() - x->started_us) / 1000);
	struct owners_buf tail = OWNERS_BUF_INIT;
	const struct owners_buf *body;

	if (c->opt.verbosity < 6 || !c->opt.log)
		return;
	if (delay_ms >= 0 &&
	    owners_buf_addf(&tail, "; retrying in %ld ms (attempt %d of %d)", delay_ms,
			    r->attempts + 1, c->retry.max_retries + 1))
		goto out;
	if (result == CURLE_OK || x->consumer_failed || x->oom)
		http_log(c, "%s %s%s %ld%s%s in %lld ms%s%.*s%s%s", r->method, c->display_base, r->path.ptr,
			 r->status, *reason_phrase(r->status) ? " " : "", reason_phrase(r->status), ms,
			 r->response_type.len ? " (" : "", (int)media_type_len(&r->response_type),
			 r->response_type.len ? r->response_type.ptr : "", r->response_type.len ? ")" : "",
			 tail.ptr);
	else
		http_log(c, "%s %s%s failed in %lld ms: %s%s", r->method, c->display_base,
			 r->path.ptr, ms, x->errbuf[0] ? x->errbuf : curl_easy_strerror(result),
			 tail.ptr);
	if (c->opt.verbosity < 8)
		goto out;
	if (x->resp_headers.len) {
		const char *p = x->resp_headers.ptr, *nl;

		http_log(c, "Response Headers:");
		while ((nl = strchr(p, '\n'))) {
			http_log(c, "    %.*s", (int)(nl - p), p);
			p = nl + 1;
		}
	}
	body = x->log_body.len ? &x->log_body : &r->response;
	if (x->body_bytes)
		log_body(c, "Response Body", body->ptr,
			 body->len < LOG_BODY_MAX ? body->len : LOG_BODY_MAX, x->body_bytes);
out:
	owners_buf_clear(&tail);
}

/* Whether another attempt after delay_ms still ends inside the request's
 * whole wait (owners_http_retry_fits()). */
static int retry_fits(const struct owners_http_client *c, const struct xfer *x, long delay_ms)
{
	long used = (long)((owners_clock_us() - x->first_started_us) / 1000);

	return owners_http_retry_fits(used, delay_ms, c->opt.request_timeout_ms, x->r->status != 0);
}

/* Once per client, at default verbosity: the server has not answered in
 * time and owners tries again, rather than a silent minute. */
static void tell_no_answer(struct owners_http_client *c, const struct xfer *x)
{
	const struct owners_http_request *r = x->r;
	struct owners_buf line = OWNERS_BUF_INIT;
	long limit = c->opt.request_timeout_ms > 0 ? c->opt.request_timeout_ms : OWNERS_HTTP_NO_ANSWER_GIVE_UP_MS;
	int rc;

	if (c->said_no_answer || !c->opt.notice)
		return;
	c->said_no_answer = 1;
	/* (an answer that began and stopped has no time limit: the server is
	 * there, and a new connection is what the retry is for) */
	if (x->answered && x->unanswered)
		rc = owners_buf_addf(&line, "%s; sending it again on a new connection", owners_error_message(&r->err));
	else
		rc = owners_buf_addf(&line, "%s; retrying for up to %ld s%s", owners_error_message(&r->err),
				     (limit + 999) / 1000, c->opt.request_timeout_ms > 0 ? "" : " (--request-timeout sets it)");
	if (!rc)
		c->opt.notice(c->opt.log_ctx, line.ptr);
	owners_buf_clear(&line);
}

/* x got a 401 and its credentials can be renewed: client-go runs the exec
 * plugin again (or reads the token file again) and retries the request
 * once, at the front of the queue. With nothing new to send, the request
 * ends with the 401. */
static void reauth(struct owners_http_client *c, struct xfer *x)
{
	struct owners_http_request *r = x->r;
	int rc = 0, unchanged = 0;

	/* Concurrent requests that failed with the same credentials
	 * need one refresh, not one each. */
	if (x->cred_gen == c->cred_gen) {
		if (c->cfg->exec) {
			rc = exec_refresh(c, 1, &r->err);
		} else {
			char *t = NULL;

			/* A rotated service account token. */
			rc = read_token_file(&t, c->cfg->token_file, &r->err);
			if (!rc && c->token && !strcmp(t, c->token)) {
				free_secret(t);
				unchanged = 1;
			} else if (!rc) {
				free_secret(c->token);
				c->token = t;
				c->cred_gen++;
			}
		}
	}
	if (rc || unchanged) {
		set_status_error(&r->err, r->status, r->response.ptr, r->response.len, r->attempts);
		finish(x);
		return;
	}
	if (c->opt.verbosity >= 6 && c->opt.log)
		http_log(c, "%s %s%s: credentials refreshed after 401, retrying", r->method,
			 c->display_base, r->path.ptr);
	xl_push_front(&c->ready, x);
}

/* The attempt on x ended with result: finish the request, or queue the
 * next attempt. */
static void attempt_done(struct owners_http_client *c, struct xfer *x, CURLcode result)
{
	struct owners_http_request *r = x->r;
	enum outcome what = DONE;
	long delay = -1;
	int retry = 0;

	curl_easy_getinfo(x->easy, CURLINFO_RESPONSE_CODE, &r->status);
	if (x->oom) {
		owners_error_oom(&r->err);
	} else if (x->consumer_failed) {
		/* The consumer may have recorded its own, better error. */
		owners_error_set(&r->err, OWNERS_EPROTO, "response could not be parsed");
	} else if (result != CURLE_OK) {
		curl_failure(c, x, result, &retry);
		if (retry && owners_http_retry_left(&c->retry, r->attempts)) {
			what = RETRY;
			delay = owners_http_retry_backoff_ms(&c->retry, r->attempts);
		}
	} else if (r->status >= 200 && r->status < 300) {
		/* success */
	} else if (r->status == 401 && !x->reauthed &&
		   (c->cfg->exec || (c->cfg->token_file && !c->cfg->token))) {
		/* client-go: a 401 with an exec plugin runs the plugin again
		 * and retries the request once. */
		x->reauthed = 1;
		what = REAUTH;
	} else if (owners_http_retry_response(&c->retry, r)) {
		what = RETRY;
		delay = owners_http_retry_delay_ms(&c->retry, r, owners_clock_wall());
	}
	if (what == RETRY && x->long_lived) {
		what = DONE; /* the watcher resumes it from where it got to */
		delay = -1;
	}
	if (what == RETRY && !retry_fits(c, x, delay)) {
		what = DONE; /* the request's whole wait is spent: r->err says why */
		delay = -1;
	}
	x->no_answer = result != CURLE_OK && !r->status;
	if (x->unanswered) {
		r->unanswered++;
		r->unanswered_ms += (long)((owners_clock_us() - x->started_us) / 1000);
		x->fresh_connect = 1;
	}
	/* A refused connection is retried in a second or two: only waiting
	 * on a server that says nothing is worth a line. */
	if (what == RETRY && (x->no_answer || x->unanswered) && result == CURLE_OPERATION_TIMEDOUT)
		tell_no_answer(c, x);
	if (what != DONE && r->err.code)
		owners_error_clear(&r->err);
	log_attempt(c, x, result, delay);

	if (!x->test_lost)
		curl_multi_remove_handle(c->multi, x->easy);
	xl_remove(&c->in_flight, x);
	c->long_lived_in_flight -= (size_t)x->long_lived;
	handle_free(x->easy);
	x->easy = NULL;
	free_headers(x->headers);
	x->headers = NULL;

	if (what == REAUTH) {
		reauth(c, x);
		return;
	}
	if (what == RETRY) {
		x->not_before_us = owners_clock_us() + (int64_t)delay * 1000;
		xl_push_back(&c->delayed, x);
		return;
	}
	if (result == CURLE_OK && !r->err.code && (r->status < 200 || r->status >= 300))
		set_status_error(&r->err, r->status, r->response.ptr, r->response.len, r->attempts);
	finish(x);
}

/* ---- the loop ---------------------------------------------------------- */

/* Takes a token; else returns how long until one is due (microseconds).
 * A server that runs API Priority and Fairness is trusted to shed load
 * itself when opt.trust_apf says so: no token is needed then. */
static int64_t bucket_take(struct owners_http_client *c, int64_t now)
{
	if (c->opt.trust_apf && c->apf_seen)
		return 0;
	return owners_rate_limit_take(&c->bucket, now);
}

static void promote_delayed(struct owners_http_client *c, int64_t now)
{
	struct xfer *x = c->delayed.head, *next;
	int released = -1; /* asked at most once a turn */

	for (; x; x = next) {
		next = x->next;
		if (x->test_held && x->not_before_us > now && c->opt.test_delay_released) {
			if (released < 0)
				released = c->opt.test_delay_released(c->opt.log_ctx) != 0;
			if (released)
				x->not_before_us = now;
		}
		if (x->not_before_us <= now) {
			x->test_held = 0;
			xl_remove(&c->delayed, x);
			/* A retry has waited its turn already. */
			xl_push_front(&c->ready, x);
		}
	}
}

/* Starts what the limits allow; returns the wait for the next token when
 * the rate limit is what holds the queue back, else -1. */
static int64_t start_ready(struct owners_http_client *c, int64_t now)
{
	while (c->ready.head &&
	       (c->ready.head->long_lived ||
		(int)(c->in_flight.n - c->long_lived_in_flight) < c->opt.max_in_flight)) {
		struct xfer *x = c->ready.head;
		int64_t wait = bucket_take(c, now);

		if (wait > 0)
			return wait;
		xl_remove(&c->ready, x);
		if (start_attempt(c, x))
			finish(x);
	}
	return -1;
}

/* A failure of the client itself: every request ends with it, and the
 * client takes no more. */
static void fail_all(struct owners_http_client *c, int code, const char *msg)
{
	struct xlist *lists[] = { &c->in_flight, &c->ready, &c->delayed };
	size_t i;

	c->failed = code;
	for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		struct xfer *x;

		while ((x = lists[i]->head)) {
			xl_remove(lists[i], x);
			if (lists[i] == &c->in_flight)
				c->long_lived_in_flight -= (size_t)x->long_lived;
			if (x->easy) {
				curl_multi_remove_handle(c->multi, x->easy);
				handle_free(x->easy);
				x->easy = NULL;
			}
			owners_error_clear(&x->r->err);
			owners_error_set(&x->r->err, code, "HTTP client failure: %s", msg);
			finish(x);
		}
	}
}

/* Gives up an attempt that had nothing from the server for the deadline,
 * its answer not begun or stopped (none with --request-timeout: the
 * request's own limit is the user's choice, and libcurl keeps it):
 * 1 when it did (one a turn: its on_done may change the list), else 0,
 * with *timeout_ms lowered to the next deadline due. */
static int give_up_unanswered(struct owners_http_client *c, int64_t now, long *timeout_ms)
{
	int by_request = c->opt.request_timeout_ms > 0;
	struct xfer *x;

	for (x = c->in_flight.head; x; x = x->next) {
		int64_t due;

		if (x->long_lived || (by_request && !x->test_lost))
			continue;
		/* (libcurl times the request's own limit, except on an attempt
		 * the test hook never handed to it) */
		due = by_request ? x->first_started_us + (int64_t)c->opt.request_timeout_ms * 1000
				 : x->progress_us + (int64_t)silence_allowed_ms(c, x) * 1000;
		if (now < due) {
			if (us_to_ms_ceil(due - now) < *timeout_ms)
				*timeout_ms = us_to_ms_ceil(due - now);
			continue;
		}
		x->unanswered = !by_request;
		snprintf(x->errbuf, sizeof(x->errbuf), "%s %ld ms (%zu bytes of body)",
			 x->answered ? "answer stopped for" : "no answer in",
			 by_request ? c->opt.request_timeout_ms : silence_allowed_ms(c, x), x->body_bytes);
		attempt_done(c, x, CURLE_OPERATION_TIMEDOUT);
		return 1;
	}
	return 0;
}

static int drain(struct owners_http_client *c)
{
	CURLMsg *msg;
	int left, n = 0;

	while ((msg = curl_multi_info_read(c->multi, &left))) {
		char *p = NULL;

		if (msg->msg != CURLMSG_DONE)
			continue;
		curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, &p);
		/* msg dies with the removal in attempt_done: read it first. */
		attempt_done(c, (struct xfer *)p, msg->data.result);
		n++;
	}
	return n;
}

/* The loop of owners_http_run() (waiting 0: until only long-lived
 * requests are left) and owners_http_wait() (waiting 1: until wait_ms
 * passed, when >= 0, fd is readable, a callback woke it, or nothing at all
 * is left). */
static int loop(struct owners_http_client *c, int waiting, long wait_ms, int fd,
		struct owners_error *err)
{
	int64_t deadline =
		waiting && wait_ms >= 0 ? owners_clock_us() + (int64_t)wait_ms * 1000 : 0;
	int rc = 0;

	if (c->running)
		return owners_error_set(err, OWNERS_EINVAL,
					"the HTTP client cannot be run from its own callbacks");
	if (c->failed)
		return owners_error_set(err, c->failed, "the HTTP client failed earlier");
	c->running = 1;
	for (;;) {
		int64_t now = owners_clock_us(), token_wait;
		long timeout = IDLE_POLL_MS;
		size_t pending;
		struct curl_waitfd wfd;
		CURLMcode mc;
		int still, nfds = 0;

		promote_delayed(c, now);
		token_wait = start_ready(c, now);
		pending = c->in_flight.n + c->ready.n + c->delayed.n;
		/* A wait sleeps its time out even with nothing in flight: the
		 * caller's own timers (a watch resumed after a backoff) are
		 * what it waits for; returning at once would spin. */
		if ((!waiting && (!pending || pending == c->long_lived)) || (waiting && c->woken))
			break;
		if (waiting && deadline && now >= deadline)
			break;
		if (c->in_flight.n) {
			mc = curl_multi_perform(c->multi, &still);
			if (mc != CURLM_OK)
				goto fail;
			/* Something ended: its slot (and on_done's submissions)
			 * can start at once. */
			if (drain(c))
				continue;
		}
		if (give_up_unanswered(c, now, &timeout))
			continue;
		if (token_wait >= 0 && us_to_ms_ceil(token_wait) < timeout)
			timeout = us_to_ms_ceil(token_wait);
		if (c->delayed.n) {
			struct xfer *x;

			for (x = c->delayed.head; x; x = x->next) {
				if (us_to_ms_ceil(x->not_before_us - now) < timeout)
					timeout = us_to_ms_ceil(x->not_before_us - now);
				if (x->test_held && c->opt.test_delay_released && timeout > 50)
					timeout = 50;
			}
		}
		if (waiting && deadline && us_to_ms_ceil(deadline - now) < timeout)
			timeout = us_to_ms_ceil(deadline - now);
		if (waiting && fd >= 0) {
			wfd.fd = fd;
			wfd.events = CURL_WAIT_POLLIN;
			wfd.revents = 0;
			nfds = 1;
		}
		/* Unlike curl_multi_wait, this sleeps the full timeout even
		 * with nothing in flight: the wait for a rate-limit token or
		 * a backoff. */
		mc = curl_multi_poll(c->multi, nfds ? &wfd : NULL, (unsigned)nfds, (int)timeout, NULL);
		if (mc != CURLM_OK)
			goto fail;
		if (nfds && wfd.revents)
			break;
		continue;
fail:
		rc = mc == CURLM_OUT_OF_MEMORY ? OWNERS_ENOMEM : OWNERS_ENET;
		fail_all(c, rc, curl_multi_strerror(mc));
		owners_error_set(err, rc, "HTTP client failure: %s", curl_multi_strerror(mc));
		break;
	}
	/* A wake during a run (not a wait) is kept for the next wait. */
	if (waiting)
		c->woken = 0;
	c->running = 0;
	return rc;
}

int owners_http_run(struct owners_http_client *c, struct owners_error *err)
{
	return loop(c, 0, -1, -1, err);
}

int owners_http_wait(struct owners_http_client *c, long timeout_ms, int fd, struct owners_error *err)
{
	return loop(c, 1, timeout_ms, fd, err);
}

void owners_http_wake(struct owners_http_client *c)
{
	c->woken = 1;
}

/* ---- requests ---------------------------------------------------------- */

void owners_http_request_init(struct owners_http_request *r)
{
	memset(r, 0, sizeof(*r));
	r->method = "GET";
	owners_buf_init(&r->path);
	owners_buf_init(&r->body);
	owners_buf_init(&r->response);
	owners_buf_init(&r->retry_after);
	owners_buf_init(&r->response_type);
	owners_buf_init(&r->err.msg);
}

void owners_http_request_clear(struct owners_http_request *r)
{
	if (!r)
		return;
	owners_buf_clear(&r->path);
	owners_buf_clear(&r->body);
	owners_buf_clear(&r->response);
	owners_buf_clear(&r->retry_after);
	owners_buf_clear(&r->response_type);
	owners_error_clear(&r->err);
	/* r->priv is the client's while r is queued (clearing r then is a
	 * bug in the caller) and NULL otherwise: nothing to free here. Back
	 * to what owners_http_request_init() makes, so that r may be filled
	 * and submitted again. */
	owners_http_request_init(r);
}

int owners_http_submit(struct owners_http_client *c, struct owners_http_request *r)
{
	struct xfer *x;

	if (c->failed)
		return c->failed;
	if (r->priv)
		return OWNERS_EINVAL;
	x = calloc(1, sizeof(*x));
	if (!x)
		return OWNERS_ENOMEM;
	x->c = c;
	x->r = r;
	owners_buf_init(&x->resp_headers);
	owners_buf_init(&x->log_body);
	if (!r->method)
		r->method = "GET";
	r->status = 0;
	r->date = 0;
	r->attempts = 0;
	r->unanswered = 0;
	r->unanswered_ms = 0;
	owners_buf_reset(&r->response);
	owners_buf_reset(&r->retry_after);
	owners_buf_reset(&r->response_type);
	owners_error_clear(&r->err);
	r->priv = x;
	x->long_lived = r->long_lived != 0;
	c->long_lived += (size_t)x->long_lived;
	if (c->opt.test_delay_match && r->path.ptr && strstr(r->path.ptr, c->opt.test_delay_match)) {
		x->not_before_us = owners_clock_us() + (int64_t)c->opt.test_delay_ms * 1000;
		x->test_held = 1;
		if (c->opt.test_delay_notice) {
			struct owners_buf line = OWNERS_BUF_INIT;

			if (!owners_buf_addf(&line, "holding a %s request for %ld ms: %s", r->method ? r->method : "GET",
					     c->opt.test_delay_ms, r->path.ptr))
				c->opt.test_delay_notice(c->opt.log_ctx, line.ptr);
			owners_buf_clear(&line);
		}
		xl_push_back(&c->delayed, x);
		return 0;
	}
	xl_push_back(&c->ready, x);
	return 0;
}

int owners_http_do(struct owners_http_client *c, struct owners_http_request *r)
{
	struct owners_error err = OWNERS_ERROR_INIT;
	int rc;

	/* Checked before submitting: a request queued here and left behind
	 * would finish after the caller's stack frame is gone. */
	if (c->running) {
		owners_error_clear(&r->err);
		return owners_error_set(&r->err, OWNERS_EINVAL,
					"the HTTP client cannot be run from its own callbacks");
	}
	rc = owners_http_submit(c, r);
	if (rc) {
		owners_error_clear(&r->err);
		if (rc == OWNERS_ENOMEM)
			return owners_error_oom(&r->err);
		return owners_error_set(&r->err, rc, "cannot submit %s %s", r->method, r->path.ptr);
	}
	rc = owners_http_run(c, &err);
	if (rc && !r->err.code)
		owners_error_set(&r->err, rc, "%s", owners_error_message(&err));
	owners_error_clear(&err);
	return r->err.code;
}

unsigned long owners_http_requests_sent(const struct owners_http_client *c)
{
	return c->sent;
}

/* ---- the client -------------------------------------------------------- */

/* Works out the URL libcurl is given and, with tls_server_name, the
 * CONNECT_TO mapping and Host header that go with it. */
static int setup_urls(struct owners_http_client *c, struct owners_error *err)
{
	const struct owners_rest_config *cfg = c->cfg;
	struct owners_buf b = OWNERS_BUF_INIT;
	CURLU *u = NULL;
	char *scheme = NULL, *host = NULL, *port = NULL, *given_port = NULL, *path = NULL;
	size_t plen;
	int rc = 0, tls_name;
	struct curl_slist *l;

	if (!cfg->server || !*cfg->server)
		return owners_error_set(err, OWNERS_ECONFIG, "no server to talk to");
	u = curl_url();
	if (!u)
		return owners_error_oom(err);
	if (curl_url_set(u, CURLUPART_URL, cfg->server, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_PATH, &path, 0) != CURLUE_OK) {
		rc = owners_error_set(err, OWNERS_ECONFIG, "invalid server URL '%s'", cfg->server);
		goto out;
	}
	if (strcasecmp(scheme, "https") && strcasecmp(scheme, "http")) {
		rc = owners_error_set(err, OWNERS_ECONFIG,
				      "invalid server URL '%s': the scheme must be https or http",
				      cfg->server);
		goto out;
	}
	if (curl_url_get(u, CURLUPART_PORT, &given_port, 0) != CURLUE_OK)
		given_port = NULL;
	c->loopback = (!cfg->proxy_url || !*cfg->proxy_url) &&
		      (!strcasecmp(host, "localhost") || !strncmp(host, "127.", 4) ||
		       !strcmp(host, "[::1]") || !strcmp(host, "::1"));
	/* A server URL may carry a path prefix (a proxy in front of the
	 * apiserver): keep it, without its trailing slash. */
	plen = strlen(path);
	while (plen && path[plen - 1] == '/')
		plen--;
	tls_name = cfg->tls_server_name && *cfg->tls_server_name && !strcasecmp(scheme, "https");
	if (owners_buf_addf(&b, "%s://%s:%s%.*s", scheme, tls_name ? cfg->tls_server_name : host,
			    port, (int)plen, path))
		goto oom;
	c->base_url = owners_buf_detach(&b);
	if (!c->base_url)
		goto oom;
	plen = strlen(cfg->server);
	while (plen && cfg->server[plen - 1] == '/')
		plen--;
	c->display_base = owners_strndup(cfg->server, plen);
	if (!c->display_base)
		goto oom;
	if (tls_name) {
		if (owners_buf_addf(&b, "%s:%s:%s:%s", cfg->tls_server_name, port, host, port))
			goto oom;
		l = curl_slist_append(NULL, b.ptr);
		if (!l)
			goto oom;
		c->connect_to = l;
		owners_buf_reset(&b);
		if (owners_buf_addf(&b, "Host: %s%s%s", host, given_port ? ":" : "",
				    given_port ? given_port : ""))
			goto oom;
		c->host_header = owners_buf_detach(&b);
		if (!c->host_header)
			goto oom;
	}
	goto out;
oom:
	rc = owners_error_oom(err);
out:
	owners_buf_clear(&b);
	curl_free(scheme);
	curl_free(host);
	curl_free(port);
	curl_free(given_port);
	curl_free(path);
	curl_url_cleanup(u);
	return rc;
}

int owners_http_client_new(struct owners_http_client **out, struct owners_rest_config *cfg,
			   const struct owners_http_options *opt, struct owners_error *err)
{
	struct owners_http_client *c = NULL;
	long conns;
	int rc = 0;

	*out = NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return owners_error_oom(err);
	c->cfg = cfg;
	if (opt)
		c->opt = *opt;
	else
		c->opt.max_retries = -1;
	if (c->opt.max_in_flight <= 0)
		c->opt.max_in_flight = DEFAULT_MAX_IN_FLIGHT;
	owners_rate_limit_init(&c->bucket, c->opt.qps, c->opt.burst, owners_clock_us());
	/* Jitter seeded per process and client: two clients retrying
	 * together must not draw the same delays. */
	owners_http_retry_init(&c->retry, &c->opt,
			       (uint64_t)owners_clock_us() ^ ((uint64_t)getpid() << 32) ^
				       (uint64_t)(uintptr_t)c);

	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
		rc = owners_error_set(err, OWNERS_ENOMEM, "cannot initialise libcurl");
		goto out;
	}
	c->global_init = 1;
	if ((rc = setup_urls(c, err)))
		goto out;
	if (!cfg->token && cfg->token_file && *cfg->token_file &&
	    (rc = read_token_file(&c->token, cfg->token_file, err)))
		goto out;
	if (cfg->token && !(c->token = owners_strdup(cfg->token))) {
		rc = owners_error_oom(err);
		goto out;
	}
	/* Run the plugin now: its failure (not installed, login needed) is
	 * one clear error up front rather than one per request. */
	if (cfg->exec && (rc = exec_refresh(c, 0, err)))
		goto out;

	c->multi = curl_multi_init();
	c->share = curl_share_init();
	if (!c->multi || !c->share) {
		rc = owners_error_oom(err);
		goto out;
	}
	/* One thread: the share needs no lock callbacks. */
	if (curl_share_setopt(c->share, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION) ||
	    curl_share_setopt(c->share, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS)) {
		rc = owners_error_oom(err);
		goto out;
	}
	c->system_ca = find_system_ca();
	conns = c->opt.max_in_flight < MAX_HOST_CONNECTIONS ? c->opt.max_in_flight : MAX_HOST_CONNECTIONS;
	if (curl_multi_setopt(c->multi, CURLMOPT_PIPELINING, (long)CURLPIPE_MULTIPLEX) ||
	    curl_multi_setopt(c->multi, CURLMOPT_MAX_HOST_CONNECTIONS, conns) ||
	    curl_multi_setopt(c->multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, conns) ||
	    curl_multi_setopt(c->multi, CURLMOPT_MAXCONNECTS, conns) ||
	    (c->opt.max_in_flight > 100 &&
	     curl_multi_setopt(c->multi, CURLMOPT_MAX_CONCURRENT_STREAMS, (long)c->opt.max_in_flight))) {
		rc = owners_error_set(err, OWNERS_ENOMEM, "cannot configure libcurl");
		goto out;
	}
out:
	if (rc) {
		owners_http_client_free(c);
		return rc;
	}
	*out = c;
	return 0;
}

void owners_http_client_free(struct owners_http_client *c)
{
	struct xlist *lists[3];
	size_t i;

	if (!c)
		return;
	lists[0] = &c->in_flight;
	lists[1] = &c->ready;
	lists[2] = &c->delayed;
	/* Requests still queued are the caller's: detach them, no on_done. */
	for (i = 0; i < 3; i++) {
		struct xfer *x;

		while ((x = lists[i]->head)) {
			xl_remove(lists[i], x);
			if (x->easy) {
				curl_multi_remove_handle(c->multi, x->easy);
				curl_easy_cleanup(x->easy);
			}
			x->r->priv = NULL;
			xfer_free(x);
		}
	}
	/* The multi handle goes after its easy handles, the share after
	 * every handle that used it. */
	if (c->multi)
		curl_multi_cleanup(c->multi);
	if (c->share)
		curl_share_cleanup(c->share);
	curl_slist_free_all(c->connect_to);
	free(c->base_url);
	free(c->display_base);
	free(c->host_header);
	free_secret(c->token);
	if (c->global_init)
		curl_global_cleanup();
	free(c);
}
