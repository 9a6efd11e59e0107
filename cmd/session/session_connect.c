#include "session_connect.h"
#include "session_state.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "buf.h"
#include "http.h"
#include "kubeconfig.h"
#include "options.h"
#include "rest_config.h"
#include "session_scan.h"
#include "session_discover.h"
#include "session_snapshot.h"
#include "test_hooks.h"

static void log_line(void *ctx, const char *line)
{
	(void)ctx;
	fprintf(stderr, "%s\n", line);
}

/* A server that does not answer: said once at default verbosity (at -v=6
 * every attempt is logged already). */
/* The request-delay hook says what it holds (faults.t strikes on it). */
static void delay_notice(void *ctx, const char *line)
{
	(void)ctx;
	fprintf(stderr, "owners: test hook: %s (OWNERS_TEST_DELAY_REQUESTS)\n", line);
	fflush(stderr);
}

static void retry_notice(void *ctx, const char *line)
{
	const struct owners_cli *cli = ctx;

	if (cli->verbosity < 6)
		warning_msg("%s", line);
}

/* Whose credentials the server was given, for messages: "the
 * credentials of user 'admin' (context 'admin')", the --token flag's, or
 * a pod's service account's; with --as, who they act as. */
void session_say_credentials(const struct session *s, struct owners_buf *b)
{
	const struct owners_rest_config *c = s->cfg;

	if (s->cli->token)
		owners_buf_adds(b, "the token given with --token");
	else if (c && c->in_cluster)
		owners_buf_adds(b, "this pod's service account token");
	else if (c && c->user_name)
		owners_buf_addf(b, "the credentials of user '%s'", c->user_name);
	else
		owners_buf_adds(b, "the credentials given");
	if (c && c->context_name && !c->in_cluster)
		owners_buf_addf(b, " (context '%s')", c->context_name);
	if (s->cli->as)
		owners_buf_addf(b, " acting as '%s'", s->cli->as);
}

/* 401 wherever it came (discovery, a list): the credentials are wrong or
 * have expired, and nothing else the command could say matters. */
enum exit_code session_credentials_rejected(const struct session *s)
{
	struct owners_buf who = OWNERS_BUF_INIT;

	session_say_credentials(s, &who);
	error_msg("the server at %s rejected %s (Unauthorized): wrong or expired; "
		  "log in again or fix the kubeconfig", s->cfg ? s->cfg->server : "?",
		  who.ptr ? who.ptr : "the credentials");
	owners_buf_clear(&who);
	return EXIT_ERROR;
}

enum exit_code session_fail(struct session *s)
{
	if (s->err.code == OWNERS_EAUTH)
		return session_credentials_rejected(s);
	return report_error(&s->err);
}

/* The client options every connection of the run shares: rate limits,
 * timeouts, the request log. Nonzero: the test hook's variable is
 * malformed. */
static int http_options(struct owners_http_options *ho, struct owners_cli *cli)
{
	memset(ho, 0, sizeof(*ho));
	/* Either flag given: that limit, always. Neither: 50/100 until the
	 * server shows API Priority and Fairness (see owners_cli_defaults). */
	ho->qps = cli->qps < 0 ? 50 : cli->qps;
	ho->burst = cli->burst < 0 ? 100 : (int)cli->burst;
	ho->trust_apf = cli->qps < 0 && cli->burst < 0;
	ho->request_timeout_ms = cli->request_timeout_ms;
	ho->max_retries = -1;
	ho->verbosity = (int)cli->verbosity;
	ho->log = log_line;
	ho->notice = retry_notice;
	ho->log_ctx = cli;
	ho->test_delay_notice = delay_notice;
	if (test_hook_delay_release_set())
		ho->test_delay_released = test_hook_delay_released;
	return test_hook_delay_requests(&ho->test_delay_match, &ho->test_delay_ms) ||
	       test_hook_unanswered(&ho->test_unanswered_match, &ho->answer_deadline_ms);
}

int session_connect(struct session *s, struct owners_cli *cli)
{
	struct owners_kubeconfig_overrides ov;
	struct owners_kubeconfig_env env;
	struct owners_http_options ho;

	if (cli->from)
		return session_connect_from(s, cli, cli->from);
	memset(s, 0, sizeof(*s));
	s->cli = cli;
	if (!test_hook_now(&s->fixed_now))
		s->fixed_now = 0;
	s->now = session_now(s);
	memset(&ov, 0, sizeof(ov));
	ov.kubeconfig = cli->kubeconfig;
	ov.context = cli->context;
	ov.cluster = cli->cluster;
	ov.user = cli->user;
	ov.namespace_ = cli->namespace_;
	ov.server = cli->server;
	ov.token = cli->token;
	ov.certificate_authority = cli->certificate_authority;
	ov.insecure_skip_tls_verify = cli->insecure_skip_tls_verify; /* -1: not given */
	ov.tls_server_name = cli->tls_server_name;
	ov.as = cli->as;
	ov.as_groups = cli->as_groups.items;
	ov.n_as_groups = cli->as_groups.count;
	owners_kubeconfig_env_from_process(&env);
	if (owners_kubeconfig_load(&s->cfg, &ov, &env, &s->err))
		return s->err.code;
	s->namespace_ = s->cfg->namespace_;
	if (http_options(&ho, cli))
		return owners_error_set(&s->err, OWNERS_EINVAL,
					"invalid OWNERS_TEST_DELAY_REQUESTS or OWNERS_TEST_UNANSWERED: want TEXT=SECONDS");
	if (owners_http_client_new(&s->http, s->cfg, &ho, &s->err))
		return s->err.code;
	owners_list_source_live(&s->lists, s->http);
	session_lists_shuffle(s);
	return 0;
}

int session_client_new(struct session *s, struct owners_http_client **out)
{
	struct owners_http_options ho;

	*out = NULL;
	if (http_options(&ho, s->cli))
		return owners_error_set(&s->err, OWNERS_EINVAL, "invalid OWNERS_TEST_DELAY_REQUESTS");
	return owners_http_client_new(out, s->cfg, &ho, &s->err);
}

enum exit_code session_open(struct session *s, struct owners_cli *cli)
{
	if (session_connect(s, cli) || session_discover(s, 0))
		return session_fail(s);
	return 0;
}
