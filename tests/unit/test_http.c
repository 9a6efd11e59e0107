/*
 * The HTTP client's own mechanics, against http_test_server.py (a transport
 * fixture, not an API server): headers and credentials, status mapping,
 * retries and backoff, Retry-After, timeouts, connection failures,
 * streaming, on_done submitting more, concurrency and rate limits, log
 * redaction, and TLS (CA from memory, wrong CA, insecure, tls_server_name,
 * client certificates). Also the URL escaping helpers.
 *
 * Run from tests/unit (the server script is found there). Needs python3 and
 * openssl; without them the server tests are skipped.
 */
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "http.h"
#include "json.h"
#include "rest_config.h"
#include "tap.h"
#include "url.h"

/* ---- fixtures ---------------------------------------------------------- */

struct server {
	pid_t pid;
	int port;
};

/* Starts the fixture with extra arguments; it prints its port first. */
static int server_start(struct server *s, const char *const *extra)
{
	const char *argv[16];
	int fds[2], n = 0, i;
	char line[32];
	ssize_t got;
	size_t len = 0;

	argv[n++] = "python3";
	argv[n++] = "http_test_server.py";
	for (i = 0; extra && extra[i] && n < 15; i++)
		argv[n++] = extra[i];
	argv[n] = NULL;
	if (pipe(fds))
		return -1;
	s->pid = fork();
	if (s->pid < 0)
		return -1;
	if (s->pid == 0) {
		dup2(fds[1], 1);
		close(fds[0]);
		close(fds[1]);
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(fds[1]);
	while (len < sizeof(line) - 1 && (got = read(fds[0], line + len, 1)) == 1 &&
	       line[len] != '\n')
		len++;
	line[len] = '\0';
	close(fds[0]);
	s->port = atoi(line);
	return s->port > 0 ? 0 : -1;
}

static void server_stop(struct server *s)
{
	if (s->pid > 0) {
		kill(s->pid, SIGTERM);
		waitpid(s->pid, NULL, 0);
	}
	s->pid = 0;
}

static struct owners_rest_config *config_for(const char *scheme, int port)
{
	struct owners_rest_config *cfg;
	char url[64];

	owners_rest_config_new(&cfg);
	snprintf(url, sizeof(url), "%s://127.0.0.1:%d", scheme, port);
	cfg->server = owners_strdup(url);
	return cfg;
}

static struct owners_http_options fast_options(void)
{
	struct owners_http_options o;

	memset(&o, 0, sizeof(o));
	o.max_retries = -1;
	o.backoff_base_ms = 5;
	o.backoff_max_ms = 20;
	return o;
}

struct log_capture {
	struct owners_buf text;
	int lines;
};

static void capture_log(void *ctx, const char *line)
{
	struct log_capture *l = ctx;

	owners_buf_adds(&l->text, line);
	owners_buf_addc(&l->text, '\n');
	l->lines++;
}

static double elapsed_ms(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) * 1e3 + (double)(t1.tv_nsec - t0->tv_nsec) / 1e6;
}

/* GET (or method) path with a fresh request; the caller releases it. */
static int do_req(struct owners_http_client *c, struct owners_http_request *r, const char *method,
		  const char *path)
{
	owners_http_request_init(r);
	r->method = method;
	owners_buf_sets(&r->path, path);
	return owners_http_do(c, r);
}

/* Value number idx of header `name` as /echo saw it, or NULL (static). */
static const char *echo_header(const struct owners_http_request *r, const char *name, size_t idx)
{
	static char out[512];
	struct owners_json_value *v = NULL;
	struct owners_error e = OWNERS_ERROR_INIT;
	const struct owners_json_value *h;
	const char *s = NULL;

	if (owners_json_parse(&v, r->response.ptr, r->response.len, &e))
		goto out;
	h = owners_json_path(v, "headers", name, NULL);
	if (h && h->type == OWNERS_JSON_ARRAY && idx < h->count)
		s = owners_json_string(h->items[idx]);
	if (s)
		snprintf(out, sizeof(out), "%s", s);
out:
	owners_json_value_free(v);
	owners_error_clear(&e);
	return s ? out : NULL;
}

static const char *echo_field(const struct owners_http_request *r, const char *name)
{
	static char out[512];
	struct owners_json_value *v = NULL;
	struct owners_error e = OWNERS_ERROR_INIT;
	const char *s = NULL;

	if (!owners_json_parse(&v, r->response.ptr, r->response.len, &e))
		s = owners_json_string(owners_json_get(v, name));
	if (s)
		snprintf(out, sizeof(out), "%s", s);
	owners_json_value_free(v);
	owners_error_clear(&e);
	return s ? out : NULL;
}

/* The fixture's counters for key. */
static long server_hits(int port, const char *key, long *peak)
{
	struct owners_rest_config *cfg = config_for("http", port);
	struct owners_http_options o = fast_options();
	struct owners_http_client *c = NULL;
	struct owners_http_request r;
	struct owners_error e = OWNERS_ERROR_INIT;
	struct owners_json_value *v = NULL;
	char path[128];
	long hits = -1;

	snprintf(path, sizeof(path), "/hits?key=%s", key);
	owners_http_request_init(&r);
	if (owners_http_client_new(&c, cfg, &o, &e))
		goto out;
	if (do_req(c, &r, "GET", path) || owners_json_parse(&v, r.response.ptr, r.response.len, &e))
		goto out;
	hits = (long)owners_json_int(owners_json_get(v, "hits"), -1);
	if (peak)
		*peak = (long)owners_json_int(owners_json_get(v, "peak"), -1);
out:
	owners_json_value_free(v);
	owners_http_request_clear(&r);
	owners_http_client_free(c);
	owners_rest_config_free(cfg);
	owners_error_clear(&e);
	return hits;
}

static int free_port(void)
{
	struct sockaddr_in a;
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0), port = 0;

	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (!bind(fd, (struct sockaddr *)&a, sizeof(a)) &&
	    !getsockname(fd, (struct sockaddr *)&a, &len))
		port = ntohs(a.sin_port);
	close(fd);
	return port;
}

static int read_file(struct owners_buf *out, const char *path)
{
	char chunk[4096];
	size_t n;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		owners_buf_add(out, chunk, n);
	fclose(f);
	return 0;
}

static int write_file(const char *path, const char *text, mode_t mode)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs(text, f);
	fclose(f);
	return chmod(path, mode);
}

/* ---- url --------------------------------------------------------------- */

static void test_url(void)
{
	struct owners_buf b = OWNERS_BUF_INIT;

	owners_url_escape(&b, "app=web,tier!=db");
	is_str(b.ptr, "app%3Dweb%2Ctier%21%3Ddb", "url: a label selector is escaped");
	owners_buf_reset(&b);
	owners_url_escape(&b, "a b/c~._-Z9");
	is_str(b.ptr, "a%20b%2Fc~._-Z9", "url: unreserved characters stay, the rest is encoded");
	owners_buf_reset(&b);
	owners_url_escape(&b, "\xc3\xa9");
	is_str(b.ptr, "%C3%A9", "url: UTF-8 bytes are encoded one by one");
	owners_buf_reset(&b);
	owners_url_escapen(&b, "a\0b", 3);
	is_str(b.ptr, "a%00b", "url: escapen takes a length");
	owners_buf_sets(&b, "/api/v1/pods");
	owners_url_add_query(&b, "limit", "500");
	owners_url_add_query(&b, "labelSelector", "app in (a,b)");
	is_str(b.ptr, "/api/v1/pods?limit=500&labelSelector=app%20in%20%28a%2Cb%29",
	       "url: add_query starts with ? then uses &");
	owners_buf_clear(&b);
}

/* ---- plain HTTP ------------------------------------------------------------ */

static void test_headers(int port)
{
	struct owners_rest_config *cfg = config_for("http", port);
	struct owners_http_options o = fast_options();
	struct owners_http_client *c = NULL;
	struct owners_http_request r;
	struct owners_error e = OWNERS_ERROR_INIT;
	const char *ua;

	cfg->token = owners_strdup("tok-123456789");
	cfg->impersonate_user = owners_strdup("jane");
	cfg->impersonate_groups = calloc(2, sizeof(char *));
	cfg->impersonate_groups[0] = owners_strdup("devs");
	cfg->impersonate_groups[1] = owners_strdup("ops");
	cfg->n_impersonate_groups = 2;
	is_int(owners_http_client_new(&c, cfg, &o, &e), 0, "client: created");

	is_int(do_req(c, &r, "GET", "/echo?x=1"), 0, "GET /echo succeeds");
	is_int(r.status, 200, "GET /echo: 200");
	is_int(r.attempts, 1, "GET /echo: one attempt");
	is_str(echo_field(&r, "method"), "GET", "GET /echo: the method");
	is_str(echo_field(&r, "path"), "/echo?x=1", "GET /echo: the path and query");
	is_str(echo_header(&r, "authorization", 0), "Bearer tok-123456789",
	       "the bearer token is sent");
	is_str(echo_header(&r, "impersonate-user", 0), "jane", "Impersonate-User is sent");
	is_str(echo_header(&r, "impersonate-group", 0), "devs", "Impersonate-Group: the first");
	is_str(echo_header(&r, "impersonate-group", 1), "ops", "Impersonate-Group: the second");
	is_str(echo_header(&r, "accept", 0), "application/json", "Accept defaults to JSON");
	ua = echo_header(&r, "user-agent", 0);
	ok(ua && !strncmp(ua, "owners/", 7), "User-Agent is owners/<version> (%s)", ua ? ua : "");
	ok(echo_header(&r, "expect", 0) == NULL, "no Expect header");
	owners_http_request_clear(&r);

	owners_http_request_init(&r);
	r.method = "POST";
	r.accept = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1";
	owners_buf_sets(&r.path, "/echo");
	owners_buf_sets(&r.body, "{\"a\":1}");
	is_int(owners_http_do(c, &r), 0, "POST /echo succeeds");
	is_str(echo_field(&r, "body"), "{\"a\":1}", "POST: the body arrives");
	is_str(echo_header(&r, "content-type", 0), "application/json",
	       "POST: Content-Type defaults to JSON");
	is_str(echo_header(&r, "accept", 0),
	       "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1",
	       "a custom Accept is sent");
	owners_http_request_clear(&r);

	owners_http_request_init(&r);
	r.method = "PATCH";
	r.content_type = "application/merge-patch+json";
	owners_buf_sets(&r.path, "/echo");
	owners_buf_sets(&r.body, "{\"metadata\":{\"finalizers\":null}}");
	is_int(owners_http_do(c, &r), 0, "PATCH /echo succeeds");
	is_str(echo_field(&r, "method"), "PATCH", "PATCH: the method");
	is_str(echo_header(&r, "content-type", 0), "application/merge-patch+json",
	       "PATCH: the content type");
	owners_http_request_clear(&r);

	owners_http_request_init(&r);
	r.method = "DELETE";
	owners_buf_sets(&r.path, "/echo");
	owners_buf_sets(&r.body, "{\"preconditions\":{\"uid\":\"u1\"}}");
	is_int(owners_http_do(c, &r), 0, "DELETE with a body succeeds");
	is_str(echo_field(&r, "method"), "DELETE", "DELETE: the method");
	is_str(echo_field(&r, "body"), "{\"preconditions\":{\"uid\":\"u1\"}}", "DELETE: the body");
	owners_http_request_clear(&r);

	is_int(do_req(c, &r, "HEAD", "/echo"), 0, "HEAD succeeds");
	is_int(r.status, 200, "HEAD: 200");
	is_int(r.response.len, 0, "HEAD: no body");
	owners_http_request_clear(&r);

	is_int(do_req(c, &r, "GET", "/big?size=3000000"), 0, "a large 2xx body");
	is_int(r.response.len, 3000000, "a 2xx body is kept whole");
	owners_http_request_clear(&r);

	owners_http_client_free(c);
	owners_rest_config_free(cfg);
	owners_error_clear(&e);
}

static void test_token_file(int port)
{
	struct owners_rest_config *cfg = config_for("http", port);
	struct owners_http_options o = fast_options();
	struct owners_http_client *c = NULL;
	struct owners_http_request r;
	struct owners_error e = OWNERS_ERROR_INIT;
	char dir[] = "/tmp/owners-http-tokXXXXXX", path[64];

	ok(mkdtemp(dir) != NULL, "token file: temp dir");
	snprintf(path, sizeof(path), "%s/token", dir);
	write_file(path, "file-token-abcdef\n", 0600);
	cfg->token_file = owners_strdup(path);
	is_int(owners_http_client_new(&c, cfg, &o, &e), 0, "token file: client created");
	is_int(do_req(c, &r, "GET", "/echo"), 0, "token file: GET succeeds");
	is_str(echo_header(&r, "authorization", 0), "Bearer file-token-abcdef",
	       "token file: read and trimmed");
	owners_http_request_clear(&r);
	owners_http_client_free(c);
	c = NULL;

	free(cfg->token_file);
	cfg->token_file = owners_strdup("/nonexistent/owners/token");
	is_int(owners_http_client_new(&c, cfg, &o, &e), OWNERS_ECONFIG,
	       "token file: a missing one fails the client");
	is_str(owners_error_message(&e),
	       "cannot read token file '/nonexistent/owners/token': No such file or directory",
	       "token file: the message names the file");
	ok(c == NULL, "token file: no client");
	unlink(path);
	rmdir(dir);
	owners_rest_config_free(cfg);
	owners_error_clear(&e);
}

static void test_status_errors(int port)
{
	static const struct {
		long status;
		int code;
		const char *msg;
	} cases[] = {
		{ 400, OWNERS_EINVAL, "injected 400" },
		{ 401, OWNERS_EAUTH, "unauthorized" },
		{ 403, OWNERS_EFORBIDDEN, "injected 403" },
		{ 404, OWNERS_ENOTFOUND, "injected 404" },
		{ 409, OWNERS_ECONFLICT, "injected 409" },
		{ 410, OWNERS_EGONE, "injected 410" },
		{ 422, OWNERS_EINVAL, "injected 422" },
		{ 501, OWNERS_ESERVER, "injected 501" },
	};
	struct owners_rest_config *cfg = config_for("http", port);
	struct owners_http_options o = fast_options();
	struct owners_http_client *c = NULL;
	struct owners_http_request r;
	struct owners_error e = OWNERS_ERROR_INIT;
	char path[64];
	size_t i;

	owners_http_client_new(&c, cfg, &o, &e);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(path, sizeof(path), "/status/%ld", cases[i].status);
		is_int(do_req(c, &r, "GET", path), cases[i].code, "%ld maps to %s", cases[i].status,
		       owners_errcode_name(cases[i].code));
		is_int(r.status, cases[i].status, "%ld: the status is kept", cases[i].status);
		is_str(owners_error_message(&r.err), cases[i].msg, "%ld: the message",
		       cases[i].status);
		is_int(r.attempts, 1, "%ld: not retried", cases[i].status);
		ok(strstr(r.response.ptr, "\"kind\": \"Status\"") != NULL, "%ld: the body is kept",
		   cases[i].status);
		owners_http_request_clear(&r);
	}

	do_req(c, &r, "GET", "/status/404");
	is_int(owners_http_error(&e, &r, "cannot get 'v1 pods/x'"), OWNERS_ENOTFOUND,
	       "owners_http_error: the code");
	is_str(owners_error_message(&e), "cannot get 'v1 pods/x': injected 404",
	       "owners_http_error: what, then the server's message");
	owners_error_clear(&e);
	owners_http_request_clear(&r);

	do_req(c, &r, "GET", "/echo");
	is_int(owners_http_error(&e, &r, "x"), 0, "owners_http_error: 0 for a success");
	is_int(e.code, 0, "owners_http_error: nothing set for a success");
	owners_http_request_clear(&r);

	is_int(do_req(c, &r, "GET", "/big?status=404&size=2000000"), OWNERS_ENOTFOUND,
	       "a huge error body");
	is_int(r.response.len, 1024 * 1024, "an error body is capped at 1 MiB");
	is_str(owners_error_message(&r.err), "not found", "not a Status: the generic reason");
	owners_http_request_clear(&r);

	is_int(do_req(c, &r, "GET", "/big?status=302&size=10"), OWNERS_EPROTO,
	       "a redirect is not followed");
	is_str(owners_error_message(&r.err), "the server answered 302", "302: the message");
	owners_http_request_clear(&r);

	owners_http_client_free(c);
	owners_rest_config_free(cfg);
	owners_error_clear(&e);
}

static void test_retries(int port)
{
	struct owners_rest_config *cfg = config_for("http", port);
	struct owners_http_options o = fast_options();
	struct owners_http_client *c = NULL;
	struct owners_http_request r;
	struct owners_error e = OWNERS_ERROR_INIT;
	struct timespec t0;
	unsigned long sent;
	double ms;

	o.max_retries = 3;
	owners_http_client_new(&c, cfg, &o, &e);

	is_int(do_req(c, &r, "GET", "/status/503?key=r1&times=2"), 0, "503 twice, then 200");
	is_int(r.status, 200, "503 retried: 200 in the end");
	is_int(r.attempts, 3, "503 retried: three attempts");
	is_int(server_hits(port, "r1", NULL), 3, "503 retried: the server saw three");
	owners_http_request_clear(&r);

	sent = owners_http_requests_sent(c);
	is_int(do_req(c, &r, "GET", "/status/500?key=r2"), OWNERS_ESERVER, "500 for ever");
	is_int(r.attempts, 4, "500: 1 + max_retries attempts");
	is_int(owners_http_requests_sent(c) - sent, 4, "requests_sent counts attempts");
	is_str(owners_error_message(&r.err), "the server answered 500 after 4 attempts: injected 500",
	       "500: the message says how often");
	owners_http_request_clear(&r);

	is_int(do_req(c, &r, "POST", "/status/500?key=r3&times=1"), OWNERS_ESERVER,
	       "POST: a 500 without Retry-After is not retried");
	is_int(r.attempts, 1, "POST 500: one attempt");
	is_str(owners_error_message(&r.err), "injected 500", "POST 500: the server's message");
	owners_http_request_clear(&r);

	is_int(do_req(c, &r, "POST", "/status/500?key=r4&times=1&retry_after=0"), 0,
	       "POST: a 500 with Retry-After is retried");
	is_int(r.attempts, 2, "POST 500 + Retry-After: two attempts");
	owners_http_request_clear(&r);

	is_int(do_req(c, &r, "POST", "/status/503?key=r5&times=1"), 0, "POST: a 503 is retried");
	owners_http_request_clear(&r);

	clock_gettime(CLOCK_MONOTONIC, &t0);
	is_int(do_req(c, &r, "GET", "/status/429?key=r6&times=1&retry_after=1"), 0,
	       "429 with Retry-After: 1, then 200");
	ms = elapsed_ms(&t0);
	ok(ms >= 950 && ms < 3000, "429: Retry-After was honoured (%.0f ms)", ms);
	is_int(r.attempts, 2, "429: two attempts");
	owners_http_request_clear(&r);

	/* Resets on a fresh client each: libcurl itself silently resends a
	 * request once when a reused keep-alive connection turns out to be
	 * dead before any answer, which would hide the first reset. */
	owners_http_client_free(c);
	owners_http_client_new(&c, cfg, &o, &e);
	is_int(do_req(c, &r, "GET", "/reset?key=r7&times=2"), 0, "GET: connection resets retried");
	is_int(r.attempts, 3, "GET reset: three attempts");
	owners_http_request_clear(&r);

	owners_http_client_free(c);
	owners_http_client_new(&c, cfg, &o, &e);
	is_int(do_req(c, &r, "POST", "/reset?key=r8&times=1"), OWNERS_ENET,
	       "POST: a reset after sending is not retried");
	is_int(r.attempts, 1, "POST reset: one attempt");
	ok(!strncmp(owners_error_message(&r.err), "lost the connection to http://127.0.0.1:", 40),
	   "POST reset: the message (%s)", owners_error_message(&r.err));
	owners_http_request_clear(&r);

	owners_http_client_free(c);
	owners_http_client_new(&c, cfg, &o, &e);
	owners_http_request_init(&r);
	r.method = "PATCH";
	r.idempotent = 1;
	owners_buf_sets(&r.path, "/reset?key=r9&times=1");
	is_int(owners_http_do(c, &r), 0, "PATCH marked idempotent: a reset is retried");
	is_int(r.attempts, 2, "idempotent PATCH: two attempts");
	owners_http_request_clear(&r);

	owners_http_client_free(c);
	c = NULL;

	/* No retries at all with max_retries 0. */
	o.max_retries = 0;
	owners_http_client_new(&c, cfg, &o, &e);
	is_int(do_req(c, &r, "GET", "/status/503?key=r10&times=1"), OWNERS_ESERVER,
	       "max_retries 0: no retry");
	is_str(owners_error_message(&r.err), "injected 503", "max_retries 0: the server's message");
	owners_http_request_clear(&r);
	owners_http_client_free(c);
	c = NULL;

	/* The request timeout bounds the whole wait, retries included. */
	o.max_retries = 1;
	o.request_timeout_ms = 300;
	owners_http_client_new(&c, cfg, &o, &e);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	is_int(do_req(c, &r, "GET", "/slow?ms=1500&key=r11"), OWNERS_ETIMEOUT, "a slow answer times out");
	ms = elapsed_ms(&t0);
	is_int(r.attempts, 1, "timeout: no second attempt once the request's time is spent");
	/* (the upper bound tells the timeout from the slow answer, 1500 ms,
	 * with room for a loaded machine: ctest -j, sanitizers) */
	ok(ms >= 280 && ms < 1450, "timeout: the whole wait is the request timeout, not the answer's 1500 ms (%.0f ms)", ms);
	ok(strstr(owners_error_message(&r.err), "timed out after 300 ms") != NULL,
	   "timeout: the message (%s)", owners_error_message(&r.err));
	owners_http_request_clear(&r);
	owners_http_client_free(c);
	owners_rest_config_free(cfg);
	owners_error_clear(&e);
}

/* An attempt whose answer has not begun by the answer deadline is given
 * up and sent again on a new connection; one answering in time is left
 * alone; --request-timeout turns the deadline off. */
static void test_answer_deadline(int port)
{
	struct owners_rest_config *cfg = config_for("http", port);
	struct owners_http_options o = fast_options();
	struct owners_http_client *c = NULL;
	struct owners_http_request r;
	struct owners_error e = OWNERS_ERROR_INIT;
	struct timespec t0;
	double ms;

	o.answer_deadline_ms = 400;
	owners_http_client_new(&c, cfg, &o, &e);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	is_int(do_req(c, &r, "GET", "/slow?ms=5000&key=d1&times=1"), 0,
	       "a first attempt left unanswered: given up, the second answered");
	ms = elapsed_ms(&t0);
	is_int(r.attempts, 2, "unanswered: two attempts");
	is_int(r.unanswered, 1, "unanswered: the request says one attempt went unanswered");
	ok(r.unanswered_ms >= 380 && r.unanswered_ms < 4000, "unanswered: its time is the deadline's (%ld ms)",
	   r.unanswered_ms);
	ok(ms < 4500, "unanswered: not the server's 5 s (%.0f ms)", ms);
	owners_http_request_clear(&r);

	is_int(do_req(c, &r, "GET", "/slow?ms=100&key=d2"), 0, "an answer inside the deadline");
	is_int(r.attempts, 1, "answered in time: one attempt");
	is_int(r.unanswered, 0, "answered in time: nothing unanswered");
	owners_http_request_clear(&r);

	is_int(do_req(c, &r, "GET", "/stream?chunks=3&delay_ms=1500&key=d8&times=1"), 0,
	       "an answer that stops after its first bytes: given up, the second whole");
	is_int(r.unanswered, 1, "stopped: counted as a silence given up");
	is_int(r.attempts, 2, "stopped: two attempts");
	owners_http_request_clear(&r);

	is_int(do_req(c, &r, "POST", "/slow?ms=5000&key=d3&times=1"), OWNERS_ETIMEOUT,
	       "a POST left unanswered is not sent again: it may have been received");
	is_int(r.attempts, 1, "unanswered POST: one attempt");
	ok(strstr(owners_error_message(&r.err), "got no answer in 0.4 s") != NULL,
	   "unanswered POST: the message (%s)", owners_error_message(&r.err));
	owners_http_request_clear(&r);
	owners_http_client_free(c);

	/* The test hook's lost request: never sent, ended by the deadline. */
	o.test_unanswered_match = "key=d4";
	owners_http_client_new(&c, cfg, &o, &e);
	is_int(do_req(c, &r, "GET", "/slow?ms=0&key=d4"), 0, "a lost first attempt: the second answered");
	is_int(r.unanswered, 1, "lost: counted unanswered");
	is_int(server_hits(port, "d4", NULL), 1, "lost: the server saw only the second attempt");
	owners_http_request_clear(&r);
	owners_http_client_free(c);

	/* With a request timeout, the user's limit is the only one. */
	o.test_unanswered_match = NULL;
	o.request_timeout_ms = 3000;
	owners_http_client_new(&c, cfg, &o, &e);
	is_int(do_req(c, &r, "GET", "/slow?ms=900&key=d5&times=1"), 0,
	       "--request-timeout: an answer after the deadline is waited for");
	is_int(r.attempts, 1, "--request-timeout: one attempt");
	is_int(r.unanswered, 0, "--request-timeout: nothing given up");
	owners_http_request_clear(&r);
	owners_http_client_free(c);

	/* ... which ends a lost attempt too, though libcurl never saw it. */
	o.test_unanswered_match = "key=d6";
	o.request_timeout_ms = 500;
	owners_http_client_new(&c, cfg, &o, &e);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ok(do_req(c, &r, "GET", "/slow?ms=0&key=d6") != 0, "--request-timeout: a lost attempt fails at the limit");
	ms = elapsed_ms(&t0);
	ok(ms >= 480 && ms < 4000, "--request-timeout: ... after the limit, not never (%.0f ms)", ms);
	owners_http_request_clear(&r);
	owners_http_client_free(c);
	owners_rest_config_free(cfg);
	owners_error_clear(&e);
}

static void count_notice(void *ctx, const char *line)
{
	struct owners_buf *b = ctx;

	owners_buf_addf(b, "%s\n", line);
}

static void test_connection_refused(void)
{
	int port = free_port();
	struct owners_rest_config *cfg = config_for("http", port);
	struct owners_http_options o = fast_options();
	struct owners_http_client *c = NULL;
	struct owners_http_request r;
	struct owners_error e = OWNERS_ERROR_INIT;
	char want[128];

	struct owners_buf notices = OWNERS_BUF_INIT;

	o.max_retries = 2;
	o.notice = count_notice;
	o.log_ctx = &notices;
	owners_http_client_new(&c, cfg, &o, &e);
	is_int(do_req(c, &r, "DELETE", "/x"), OWNERS_ENET, "connection refused: ENET");
	is_int(r.attempts, 3, "connection refused: retried (nothing was sent, any method)");
	ok(!notices.len, "connection refused: retried without a notice (it takes a second or two)");
	owners_buf_clear(&notices);
	is_int(r.status, 0, "connection refused: no status");
	snprintf(want, sizeof(want), "cannot reach http://127.0.0.1:%d: Connection refused", port);
	is_str(owners_error_message(&r.err), want, "connection refused: the message");
	owners_http_request_clear(&r);
	owners_http_client_free(c);
	owners_rest_config_free(cfg);
	owners_error_clear(&e);

	owners_rest_config_new(&cfg);
	cfg->server = owners_strdup("ftp://example.com");
	is_int(owners_http_client_new(&c, cfg, &o, &e), OWNERS_ECONFIG, "an ftp server is refused");
	is_str(owners_error_message(&e),
	       "invalid server URL 'ftp://example.com': the scheme must be https or http",
	       "bad scheme: the message");
	owners_rest_config_free(cfg);
	owners_error_clear(&e);
}

/* ---- streaming and callbacks --------------------------------------------- */

struct stream_ctx {
	struct owners_http_request *r;
	struct owners_buf data;
	int calls, attempts, fail_after, set_own_error, done;
};

static int stream_data(void *ctx, const char *data, size_t len)
{
	struct stream_ctx *s = ctx;

	s->calls++;
	owners_buf_add(&s->data, data, len);
	if (s->fail_after && s->calls >= s->fail_after) {
		if (s->set_own_error)
			owners_error_set(&s->r->err, OWNERS_EINVAL, "the consumer says no");
		return 1;
	}
	return 0;
}

static void stream_attempt(void *ctx)
{
	struct stream_ctx *s = ctx;

	s->attempts++;
	owners_buf_reset(&s->data);
}

static void stream_done(void *ctx, struct owners_http_request *r)
{
	struct stream_ctx *s = ctx;

	s->done++;
	(void)r;
}

static void stream_setup(struct stream_ctx *s, struct owners_http_request *r, const char *path)
{
	memset(s, 0, sizeof(*s));
	owners_buf_init(&s->data);
	s->r = r;
	owners_http_request_init(r);
	owners_buf_sets(&r->path, path);
	r->on_data = stream_data;
	r->on_attempt = stream_attempt;
	r->on_done = stream_done;
	r->ctx = s;
}

static void test_streaming(int port)
{
	struct owners_rest_config *cfg = config_for("http", port);
	struct owners_http_options o = fast_options();
	struct owners_http_client *c = NULL;
	struct owners_http_request r;
	struct owners_error e = OWNERS_ERROR_INIT;
	struct stream_ctx s;

	owners_http_client_new(&c, cfg, &o, &e);

	stream_setup(&s, &r, "/stream?chunks=5&delay_ms=30");
	is_int(owners_http_do(c, &r), 0, "stream: succeeds");
	is_str(s.data.ptr, "chunk-0\nchunk-1\nchunk-2\nchunk-3\nchunk-4\n", "stream: every byte, in order");
	ok(s.calls >= 2, "stream: delivered in pieces as they come (%d calls)", s.calls);
	is_int(r.response.len, 0, "stream: nothing kept in response");
	is_int(s.attempts, 1, "stream: on_attempt before the attempt");
	is_int(s.done, 1, "stream: on_done once");
	owners_http_request_clear(&r);
	owners_buf_clear(&s.data);

	stream_setup(&s, &r, "/stream?chunks=5&delay_ms=30");
	s.fail_after = 1;
	is_int(owners_http_do(c, &r), OWNERS_EPROTO, "stream: a consumer failure aborts");
	is_str(owners_error_message(&r.err), "response could not be parsed",
	       "stream: the generic message");
	is_int(r.attempts, 1, "stream: a consumer failure is not retried");
	is_int(s.done, 1, "stream: on_done after an abort");
	owners_http_request_clear(&r);
	owners_buf_clear(&s.data);

	stream_setup(&s, &r, "/stream?chunks=5&delay_ms=30");
	s.fail_after = 2;
	s.set_own_error = 1;
	is_int(owners_http_do(c, &r), OWNERS_EINVAL, "stream: the consumer's own error is kept");
	is_str(owners_error_message(&r.err), "the consumer says no", "stream: the consumer's message");
	owners_http_request_clear(&r);
	owners_buf_clear(&s.data);

	stream_setup(&s, &r, "/status/503?key=s1&times=1");
	is_int(owners_http_do(c, &r), 0, "stream: retried after a 503");
	is_int(s.attempts, 2, "stream: on_attempt before each attempt");
	ok(strstr(s.data.ptr, "\"ok\": true") && !strstr(s.data.ptr, "injected"),
	   "stream: only the 2xx body reaches on_data");
	owners_http_request_clear(&r);
	owners_buf_clear(&s.data);

	stream_setup(&s, &r, "/status/404");
	is_int(owners_http_do(c, &r), OWNERS_ENOTFOUND, "stream: an error status");
	is_int(s.calls, 0, "stream: an error body does not reach on_data");
	ok(strstr(r.response.ptr, "injected 404") != NULL, "stream: the error body is kept");
	owners_http_request_clear(&r);
	owners_buf_clear(&s.data);

	owners_http_client_free(c);
	owners_rest_config_free(cfg);
	owners_error_clear(&e);
}

struct pager {
	struct owners_http_client *c;
	int pages, failures, nested_rc;
	struct owners_buf seen;
};

/* Submits the next "page" from on_done, reusing the same request. */
static void pager_done(void *ctx, struct owners_http_request *r)
{
	struct pager *p = ctx;

	if (r->err.code)
		p->failures++;
	owners_buf_addf(&p->seen, "%s;", r->path.ptr);
	if (++p->pages == 1) {
		struct owners_http_request nested;

		owners_http_request_init(&nested);
		owners_buf_sets(&nested.path, "/echo");
		p->nested_rc = owners_http_do(p->c, &nested);
		owners_http_request_clear(&nested);
	}
	if (p->pages < 10) {
		owners_buf_reset(&r->path);
		owners_buf_addf(&r->path, "/echo?page=%d", p->pages);
		if (owners_http_submit(p->c, r))
			p->failures++;
	}
}

static void count_done(void *ctx, struct owners_http_request *r)
{
	int *n = ctx;

	(*n)++;
	(void)r;
}

static void test_lifecycle(int port)
{
	struct owners_rest_config *cfg = config_for("http", port);
	struct owners_http_options o = fast_options();
	struct owners_http_client *c = NULL;
	struct owners_http_request r[3];
	struct owners_error e = OWNERS_ERROR_INIT;
	int i, done = 0;

	owners_http_client_new(&c, cfg, &o, &e);
	is_int(owners_http_run(c, &e), 0, "run with nothing queued returns at once");
	for (i = 0; i < 3; i++) {
		owners_http_request_init(&r[i]);
		owners_buf_sets(&r[i].path, "/echo");
		r[i].on_done = count_done;
		r[i].ctx = &done;
		owners_http_submit(c, &r[i]);
	}
	owners_http_client_free(c);
	is_int(done, 0, "freeing a client with queued requests: no on_done");
	ok(r[0].priv == NULL && r[2].priv == NULL, "freeing a client detaches its requests");
	for (i = 0; i < 3; i++)
		owners_http_request_clear(&r[i]);
	owners_http_client_new(&c, cfg, NULL, &e);
	is_int(do_req(c, &r[0], "GET", "/echo"), 0, "a client with default options (opt NULL)");
	owners_http_request_clear(&r[0]);
	owners_http_client_free(c);
	owners_rest_config_free(cfg);
	owners_error_clear(&e);
}

static void slow_done(void *ctx, struct owners_http_request *r)
{
	int *n = ctx;

	if (!r->err.code && r->status == 200)
		(*n)++;
}

static void test_concurrency(int port)
{
	struct owners_rest_config *cfg = config_for("http", port);
	struct owners_http_options o = fast_options();
	struct owners_http_client *c = NULL;
	struct owners_http_request r, *many;
	struct owners_error e = OWNERS_ERROR_INIT;
	struct pager p;
	struct timespec t0;
	long peak = -1;
	int i, good = 0;
	double ms;

	owners_http_client_new(&c, cfg, &o, &e);
	memset(&p, 0, sizeof(p));
	owners_buf_init(&p.seen);
	p.c = c;
	owners_http_request_init(&r);
	owners_buf_sets(&r.path, "/echo?page=0");
	r.on_done = pager_done;
	r.ctx = &p;
	is_int(owners_http_submit(c, &r), 0, "pager: first page submitted");
	is_int(owners_http_submit(c, &r), OWNERS_EINVAL, "pager: a queued request cannot be resubmitted");
	is_int(owners_http_run(c, &e), 0, "pager: run returns 0");
	is_int(p.pages, 10, "pager: on_done's submissions ran in the same run");
	is_int(p.failures, 0, "pager: no failure");
	ok(!strncmp(p.seen.ptr, "/echo?page=0;/echo?page=1;", 26), "pager: in order");
	is_int(p.nested_rc, OWNERS_EINVAL, "owners_http_do from on_done is refused");
	owners_http_request_clear(&r);
	owners_buf_clear(&p.seen);
	owners_http_client_free(c);
	c = NULL;

	/* max_in_flight bounds what the server sees at once. */
	o.max_in_flight = 8;
	owners_http_client_new(&c, cfg, &o, &e);
	many = calloc(100, sizeof(*many));
	for (i = 0; i < 100; i++) {
		owners_http_request_init(&many[i]);
		owners_buf_sets(&many[i].path, "/slow?ms=30&key=c8");
		many[i].on_done = slow_done;
		many[i].ctx = &good;
		owners_http_submit(c, &many[i]);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	is_int(owners_http_run(c, &e), 0, "100 requests: run returns 0");
	ms = elapsed_ms(&t0);
	is_int(good, 100, "100 requests: all 200");
	is_int(owners_http_requests_sent(c), 100, "100 requests: 100 sent");
	is_int(server_hits(port, "c8", &peak), 100, "100 requests: the server saw 100");
	ok(peak <= 8 && peak >= 4, "max_in_flight 8: at most 8 at once, and in parallel (peak %ld)",
	   peak);
	ok(ms < 3000, "100 requests of 30 ms, 8 at a time: %.0f ms", ms);
	for (i = 0; i < 100; i++)
		owners_http_request_clear(&many[i]);
	owners_http_client_free(c);
	c = NULL;

	/* The default over HTTP/1.1 (this server): 100 asked at once, at
	 * most 32 connections, so at most 32 in flight. */
	o.max_in_flight = 0;
	good = 0;
	owners_http_client_new(&c, cfg, &o, &e);
	for (i = 0; i < 64; i++) {
		owners_http_request_init(&many[i]);
		owners_buf_sets(&many[i].path, "/slow?ms=100&key=c32");
		many[i].on_done = slow_done;
		many[i].ctx = &good;
		owners_http_submit(c, &many[i]);
	}
	is_int(owners_http_run(c, &e), 0, "64 requests: run returns 0");
	is_int(good, 64, "64 requests: all 200");
	server_hits(port, "c32", &peak);
	ok(peak <= 32 && peak >= 16, "HTTP/1.1 by default: at most 32 at once, one per connection (peak %ld)", peak);
	for (i = 0; i < 64; i++)
		owners_http_request_clear(&many[i]);
	owners_http_client_free(c);
	c = NULL;

	/* Rate limit: burst 1, 20 qps: 11 requests take >= 500 ms. */
	o.qps = 20;
	o.burst = 1;
	good = 0;
	owners_http_client_new(&c, cfg, &o, &e);
	for (i = 0; i < 11; i++) {
		owners_http_request_init(&many[i]);
		owners_buf_sets(&many[i].path, "/echo");
		many[i].on_done = slow_done;
		many[i].ctx = &good;
		owners_http_submit(c, &many[i]);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	owners_http_run(c, &e);
	ms = elapsed_ms(&t0);
	is_int(good, 11, "qps 20: all 200");
	/* (the upper bound only catches a limiter several times too slow:
	 * a loaded machine, ctest -j, sanitizers, must not fail it) */
	ok(ms >= 480 && ms < 4000, "qps 20, burst 1: 11 requests in %.0f ms (>= 500, < 4000)", ms);
	for (i = 0; i < 11; i++)
		owners_http_request_clear(&many[i]);
	owners_http_client_free(c);
	c = NULL;

	/* A burst goes at once. */
	o.qps = 2;
	o.burst = 6;
	good = 0;
	owners_http_client_new(&c, cfg, &o, &e);
	for (i = 0; i < 6; i++) {
		owners_http_request_init(&many[i]);
		owners_buf_sets(&many[i].path, "/echo");
		many[i].on_done = slow_done;
		many[i].ctx = &good;
		owners_http_submit(c, &many[i]);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	owners_http_run(c, &e);
	ms = elapsed_ms(&t0);
	is_int(good, 6, "burst 6: all 200");
	/* without the burst they take 2500 ms (5 waits of 500) */
	ok(ms < 1500, "qps 2, burst 6: 6 requests at once (%.0f ms, < 1500; 2500 without the burst)", ms);
	for (i = 0; i < 6; i++)
		owners_http_request_clear(&many[i]);
	owners_http_client_free(c);
	free(many);

	owners_rest_config_free(cfg);
	owners_error_clear(&e);
}

/* ---- logging ------------------------------------------------------------- */

static void test_logging(int port)
{
	struct owners_rest_config *cfg = config_for("http", port);
	struct owners_http_options o = fast_options();
	struct owners_http_client *c = NULL;
	struct owners_http_request r;
	struct owners_error e = OWNERS_ERROR_INIT;
	struct log_capture log = { OWNERS_BUF_INIT, 0 };
	char want[128];

	cfg->token = owners_strdup("s3cr3t-t0ken-abcdef");
	o.log = capture_log;
	o.log_ctx = &log;
	o.verbosity = 6;
	owners_http_client_new(&c, cfg, &o, &e);
	do_req(c, &r, "GET", "/echo?limit=500");
	owners_http_request_clear(&r);
	snprintf(want, sizeof(want), "GET http://127.0.0.1:%d/echo?limit=500 200 OK in ", port);
	ok(!strncmp(log.text.ptr, want, strlen(want)), "-v=6: one line per request");
	if (strncmp(log.text.ptr, want, strlen(want)))
		printf("#   got: %s", log.text.ptr);
	{
		const char *ms = strstr(log.text.ptr, " ms");

		/* "... in 3 ms (application/json)": the time, then what the
		 * answer's Content-Type said, without its parameters. */
		ok(ms && (!strcmp(ms, " ms\n") || (!strncmp(ms, " ms (", 5) && strchr(ms, ')') &&
						     !strcmp(strchr(ms, ')'), ")\n") && !strchr(ms, ';'))),
		   "-v=6: ends with the time and the answer's media type");
		if (ms)
			printf("#   %s", ms);
	}
	is_int(log.lines, 1, "-v=6: nothing else");
	owners_buf_reset(&log.text);
	log.lines = 0;

	do_req(c, &r, "GET", "/status/503?key=l1&times=1");
	owners_http_request_clear(&r);
	ok(strstr(log.text.ptr, "503 Service Unavailable in ") &&
	   strstr(log.text.ptr, "; retrying in ") && strstr(log.text.ptr, "(attempt 2 of 6)"),
	   "-v=6: a retry is logged with its delay");
	is_int(log.lines, 2, "-v=6: one line per attempt");
	owners_http_client_free(c);
	c = NULL;
	owners_buf_reset(&log.text);

	o.verbosity = 9;
	owners_http_client_new(&c, cfg, &o, &e);
	owners_http_request_init(&r);
	r.method = "POST";
	owners_buf_sets(&r.path, "/echo");
	owners_buf_sets(&r.body, "{\"hello\":\"world\"}");
	owners_http_do(c, &r);
	owners_http_request_clear(&r);
	ok(strstr(log.text.ptr, "s3cr3t") == NULL, "-v=9: the token never appears");
	ok(strstr(log.text.ptr, "    Authorization: Bearer <redacted>\n") != NULL,
	   "-v=7: request headers, Authorization redacted");
	ok(strstr(log.text.ptr, "> Authorization: Bearer <redacted>\n") != NULL,
	   "-v=9: libcurl's trace, Authorization redacted");
	ok(strstr(log.text.ptr, "Request Body: {\"hello\":\"world\"}\n") != NULL, "-v=8: the request body");
	ok(strstr(log.text.ptr, "Response Body: {\"method\": \"POST\"") != NULL, "-v=8: the response body");
	ok(strstr(log.text.ptr, "Response Headers:\n") != NULL, "-v=8: the response headers");
	ok(strstr(log.text.ptr, "\n* ") != NULL, "-v=9: libcurl's own lines");
	/* /echo sends the token back in its body: the log must still hide it. */
	ok(strstr(log.text.ptr, "<redacted>\"]") != NULL, "-v=8: a token echoed in a body is redacted");
	owners_http_client_free(c);

	owners_buf_clear(&log.text);
	owners_rest_config_free(cfg);
	owners_error_clear(&e);
}

/* ---- exec credential ------------------------------------------------------ */

static void test_exec_reauth(int port, const char *dir)
{
	struct owners_rest_config *cfg = config_for("http", port);
	struct owners_http_options o = fast_options();
	struct owners_http_client *c = NULL;
	struct owners_http_request r;
	struct owners_error e = OWNERS_ERROR_INIT;
	struct owners_buf script = OWNERS_BUF_INIT, count = OWNERS_BUF_INIT;
	char path[256], count_path[256];

	/* First run: a token the server rejects; then the good one. */
	snprintf(path, sizeof(path), "%s/plugin.sh", dir);
	snprintf(count_path, sizeof(count_path), "%s/runs", dir);
	owners_buf_addf(&script,
			"#!/bin/sh\n"
			"n=$(cat '%s' 2>/dev/null || echo 0); n=$((n+1)); echo $n > '%s'\n"
			"if [ $n -eq 1 ]; then t=bad-token-123; else t=good-token-456; fi\n"
			"printf '{\"apiVersion\":\"client.authentication.k8s.io/v1\","
			"\"kind\":\"ExecCredential\",\"status\":{\"token\":\"%%s\"}}' $t\n",
			count_path, count_path);
	write_file(path, script.ptr, 0700);
	cfg->exec = calloc(1, sizeof(*cfg->exec));
	cfg->exec->api_version = owners_strdup("client.authentication.k8s.io/v1");
	cfg->exec->command = owners_strdup(path);
	cfg->exec->interactive_mode = owners_strdup("Never");

	is_int(owners_http_client_new(&c, cfg, &o, &e), 0, "exec: the client runs the plugin");
	is_int(do_req(c, &r, "GET", "/auth?token=good-token-456&key=x1"), 0,
	       "exec: a 401 re-runs the plugin and retries");
	is_int(r.attempts, 2, "exec: two attempts");
	is_int(server_hits(port, "x1", NULL), 2, "exec: the server saw both");
	owners_http_request_clear(&r);
	read_file(&count, count_path);
	is_str(count.ptr, "2\n", "exec: the plugin ran twice");
	owners_buf_reset(&count);

	is_int(do_req(c, &r, "GET", "/auth?token=other&key=x2"), OWNERS_EAUTH,
	       "exec: a second 401 after the refresh is final");
	is_int(r.attempts, 2, "exec: retried once only");
	is_str(owners_error_message(&r.err), "unauthorized", "exec: the message");
	owners_http_request_clear(&r);
	read_file(&count, count_path);
	is_str(count.ptr, "3\n", "exec: one more plugin run");

	owners_http_client_free(c);
	unlink(path);
	unlink(count_path);
	owners_buf_clear(&script);
	owners_buf_clear(&count);
	owners_rest_config_free(cfg);
	owners_error_clear(&e);
}

/* ---- TLS ------------------------------------------------------------------ */

static int make_certs(const char *dir)
{
	struct owners_buf cmd = OWNERS_BUF_INIT;
	int rc;

	/* EC keys: fast to make. ca signs the server and client certificates;
	 * other-ca is a CA nobody here trusts. */
	owners_buf_addf(
		&cmd,
		"set -e; cd '%s'; exec 2>/dev/null >/dev/null\n"
		"key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out $1; }\n"
		"ca() { key $1.key; openssl req -x509 -new -key $1.key -out $1.crt -days 2 -subj /CN=$1; }\n"
		"leaf() { key $1.key; openssl req -new -key $1.key -out $1.csr -subj /CN=$2;\n"
		"  printf '%%s\\n' \"$3\" > $1.ext;\n"
		"  openssl x509 -req -in $1.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 2"
		" -out $1.crt -extfile $1.ext; }\n"
		"ca ca; ca other-ca\n"
		"leaf ip 127.0.0.1 'subjectAltName=IP:127.0.0.1'\n"
		"leaf kube kubernetes 'subjectAltName=DNS:kubernetes'\n"
		"leaf client test-user 'extendedKeyUsage=clientAuth'\n",
		dir);
	rc = system(cmd.ptr);
	owners_buf_clear(&cmd);
	return rc;
}

static int tls_get(struct owners_rest_config *cfg, struct owners_http_request *r)
{
	struct owners_http_options o = fast_options();
	struct owners_http_client *c = NULL;
	struct owners_error e = OWNERS_ERROR_INIT;
	int rc;

	o.max_retries = 1;
	owners_http_request_init(r);
	rc = owners_http_client_new(&c, cfg, &o, &e);
	if (!rc) {
		owners_buf_sets(&r->path, "/echo");
		rc = owners_http_do(c, r);
	} else {
		owners_error_set(&r->err, rc, "%s", owners_error_message(&e));
	}
	owners_http_client_free(c);
	owners_error_clear(&e);
	return rc;
}

/* One client, one request after another and then several at once, each
 * a new transfer on the connection the first opened: every one prepares
 * and answers. (Over HTTP/2, libcurl 7.88 refused a receive buffer size
 * on a handle that had carried a transfer: valgrind.t and the suites
 * against kube-apiserver see that; this server speaks HTTP/1.1.) */
static void tls_again(struct owners_rest_config *cfg)
{
	struct owners_http_options o = fast_options();
	struct owners_http_client *c = NULL;
	struct owners_error e = OWNERS_ERROR_INIT;
	struct owners_http_request rs[6];
	int i, good = 0;

	owners_http_client_new(&c, cfg, &o, &e);
	for (i = 0; i < 3; i++) {
		owners_http_request_init(&rs[i]);
		owners_buf_sets(&rs[i].path, "/echo");
		good += owners_http_do(c, &rs[i]) == 0 && rs[i].status == 200;
	}
	for (i = 3; i < 6; i++) {
		owners_http_request_init(&rs[i]);
		rs[i].method = i == 4 ? "PATCH" : i == 5 ? "DELETE" : "GET";
		owners_buf_sets(&rs[i].path, "/echo");
		owners_http_submit(c, &rs[i]);
	}
	owners_http_run(c, &e);
	for (i = 3; i < 6; i++)
		good += !rs[i].err.code && rs[i].status == 200;
	is_int(good, 6, "TLS: six requests on one client, three in turn and three at once, all answered (%s)",
	       owners_error_message(&rs[0].err));
	for (i = 0; i < 6; i++)
		owners_http_request_clear(&rs[i]);
	owners_http_client_free(c);
	owners_error_clear(&e);
}

static void test_tls(const char *dir)
{
	struct server ip = { 0, 0 }, kube = { 0, 0 };
	struct owners_rest_config *cfg;
	struct owners_http_request r;
	char a[256], b[256], cc[256], want[256];
	const char *ip_args[5], *kube_args[7];

	if (make_certs(dir)) {
		tap_skip("the TLS tests: openssl could not make certificates");
		return;
	}
	snprintf(a, sizeof(a), "%s/ip.crt", dir);
	snprintf(b, sizeof(b), "%s/ip.key", dir);
	ip_args[0] = "--cert", ip_args[1] = a, ip_args[2] = "--key", ip_args[3] = b, ip_args[4] = NULL;
	ok(!server_start(&ip, ip_args), "TLS server (certificate for IP 127.0.0.1)");

	/* the right CA, from memory */
	cfg = config_for("https", ip.port);
	snprintf(cc, sizeof(cc), "%s/ca.crt", dir);
	read_file(&cfg->ca_data, cc);
	is_int(tls_get(cfg, &r), 0, "TLS: verified with the CA from ca_data");
	is_int(r.status, 200, "TLS: 200");
	owners_http_request_clear(&r);
	tls_again(cfg);

	/* the wrong CA */
	owners_buf_reset(&cfg->ca_data);
	snprintf(cc, sizeof(cc), "%s/other-ca.crt", dir);
	read_file(&cfg->ca_data, cc);
	is_int(tls_get(cfg, &r), OWNERS_ETLS, "TLS: a wrong CA fails verification");
	is_int(r.attempts, 1, "TLS: a verification failure is not retried");
	snprintf(want, sizeof(want),
		 "TLS verification of https://127.0.0.1:%d failed: SSL certificate problem: ", ip.port);
	ok(!strncmp(owners_error_message(&r.err), want, strlen(want)), "TLS: the message (%s)",
	   owners_error_message(&r.err));
	owners_http_request_clear(&r);

	/* no CA: the system store does not know the test CA */
	owners_buf_clear(&cfg->ca_data);
	is_int(tls_get(cfg, &r), OWNERS_ETLS, "TLS: verification is on without a CA too");
	owners_http_request_clear(&r);

	cfg->insecure_skip_tls_verify = 1;
	is_int(tls_get(cfg, &r), 0, "TLS: insecure_skip_tls_verify skips verification");
	owners_http_request_clear(&r);
	owners_rest_config_free(cfg);
	server_stop(&ip);

	/* A server whose certificate names only "kubernetes", wanting a
	 * client certificate from the test CA. */
	snprintf(a, sizeof(a), "%s/kube.crt", dir);
	snprintf(b, sizeof(b), "%s/kube.key", dir);
	snprintf(cc, sizeof(cc), "%s/ca.crt", dir);
	kube_args[0] = "--cert", kube_args[1] = a, kube_args[2] = "--key", kube_args[3] = b;
	kube_args[4] = "--client-ca", kube_args[5] = cc, kube_args[6] = NULL;
	ok(!server_start(&kube, kube_args), "TLS server (certificate for kubernetes, client certs)");
	cfg = config_for("https", kube.port);
	read_file(&cfg->ca_data, cc);
	snprintf(a, sizeof(a), "%s/client.crt", dir);
	snprintf(b, sizeof(b), "%s/client.key", dir);
	read_file(&cfg->client_cert_data, a);
	read_file(&cfg->client_key_data, b);

	is_int(tls_get(cfg, &r), OWNERS_ETLS, "TLS: 127.0.0.1 is not a name in the certificate");
	ok(strstr(owners_error_message(&r.err), "127.0.0.1") != NULL, "TLS: the message (%s)",
	   owners_error_message(&r.err));
	owners_http_request_clear(&r);

	cfg->tls_server_name = owners_strdup("kubernetes");
	is_int(tls_get(cfg, &r), 0, "TLS: tls_server_name verifies against kubernetes");
	is_str(echo_field(&r, "client_cn"), "test-user", "TLS: the client certificate was sent");
	snprintf(want, sizeof(want), "127.0.0.1:%d", kube.port);
	is_str(echo_header(&r, "host", 0), want, "TLS: the Host header names the real server");
	owners_http_request_clear(&r);

	/* The same client certificate from an exec plugin instead. */
	owners_buf_clear(&cfg->client_cert_data);
	owners_buf_clear(&cfg->client_key_data);
	{
		struct owners_buf script = OWNERS_BUF_INIT;
		char plugin[256];

		snprintf(plugin, sizeof(plugin), "%s/cert-plugin.py", dir);
		owners_buf_addf(&script,
				"#!/usr/bin/env python3\n"
				"import json\n"
				"print(json.dumps({'apiVersion': 'client.authentication.k8s.io/v1',\n"
				"  'kind': 'ExecCredential', 'status': {\n"
				"  'clientCertificateData': open('%s').read(),\n"
				"  'clientKeyData': open('%s').read()}}))\n",
				a, b);
		write_file(plugin, script.ptr, 0700);
		owners_buf_clear(&script);
		cfg->exec = calloc(1, sizeof(*cfg->exec));
		cfg->exec->api_version = owners_strdup("client.authentication.k8s.io/v1");
		cfg->exec->command = owners_strdup(plugin);
		cfg->exec->interactive_mode = owners_strdup("Never");
		is_int(tls_get(cfg, &r), 0, "TLS: a client certificate from an exec plugin");
		is_str(echo_field(&r, "client_cn"), "test-user", "TLS: the plugin's certificate was sent");
		owners_http_request_clear(&r);
		owners_exec_config_free(cfg->exec);
		cfg->exec = NULL;
		owners_rest_config_exec_credential_clear(&cfg->exec_cred);
		unlink(plugin);
	}

	ok(tls_get(cfg, &r) != 0, "TLS: without a client certificate the server refuses (%s)",
	   owners_error_message(&r.err));
	/* TLS 1.3 rejects the client after the handshake: usually we read
	 * the server's alert (ETLS), but the reset can come first while the
	 * request is still being written (ENET, "Broken pipe"). */
	ok(r.err.code == OWNERS_ETLS || r.err.code == OWNERS_ENET,
	   "TLS: that is a TLS (or, racing the alert, a connection) error");
	owners_http_request_clear(&r);

	owners_rest_config_free(cfg);
	server_stop(&kube);
}

int main(void)
{
	struct server plain = { 0, 0 };
	char dir[] = "/tmp/owners-http-testXXXXXX";
	char cmd[128];

	/* The fixture's deaths and resets must not kill us. */
	signal(SIGPIPE, SIG_IGN);
	test_url();
	if (access("http_test_server.py", R_OK) || system("python3 -c '' 2>/dev/null")) {
		tap_skip("the server tests: python3 or http_test_server.py not available (run from tests/unit)");
		return tap_done();
	}
	if (server_start(&plain, NULL)) {
		ok(0, "the test server starts");
		return tap_done();
	}
	if (!mkdtemp(dir)) {
		ok(0, "temp dir");
		server_stop(&plain);
		return tap_done();
	}
	test_headers(plain.port);
	test_token_file(plain.port);
	test_status_errors(plain.port);
	test_retries(plain.port);
	test_answer_deadline(plain.port);
	test_connection_refused();
	test_streaming(plain.port);
	test_concurrency(plain.port);
	test_lifecycle(plain.port);
	test_logging(plain.port);
	test_exec_reauth(plain.port, dir);
	server_stop(&plain);
	test_tls(dir);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		ok(0, "cleanup");
	return tap_done();
}
