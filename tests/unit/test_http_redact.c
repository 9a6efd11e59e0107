/* What the HTTP client's log never shows (lib/client/http_redact.h):
 * credentials after "authorization", known secrets anywhere, control
 * characters. No server: the rules alone, on lines like those the client
 * logs. */
#include <string.h>

#include "buf.h"
#include "http_redact.h"
#include "tap.h"

/* Runs fn on a copy of in; returns the result (a static buffer: one at a
 * time) or "(error)". */
static const char *run(int (*fn)(struct owners_buf *), const char *in)
{
	static struct owners_buf line = OWNERS_BUF_INIT;

	owners_buf_clear(&line);
	if (owners_buf_adds(&line, in) || fn(&line))
		return "(error)";
	return line.ptr;
}

static const char *secret_run(const char *in, const char *secret)
{
	static struct owners_buf line = OWNERS_BUF_INIT;

	owners_buf_clear(&line);
	if (owners_buf_adds(&line, in) || owners_http_redact_secret(&line, secret))
		return "(error)";
	return line.ptr;
}

static void authorization(void)
{
	is_str(run(owners_http_redact_authorization, "    Authorization: Bearer abc.def-ghi"),
	       "    Authorization: Bearer <redacted>", "a request header: the scheme stays, the token goes");
	is_str(run(owners_http_redact_authorization, "> authorization: Basic dXNlcjpwYXNz"),
	       "> authorization: Basic <redacted>", "any case, any scheme");
	is_str(run(owners_http_redact_authorization, "[authorization: Bearer tok123]"),
	       "[authorization: Bearer <redacted>]", "libcurl's HTTP/2 trace: the bracket stays");
	is_str(run(owners_http_redact_authorization,
		   "{\"headers\":{\"authorization\": [\"Bearer tok\"],\"x\":1}}"),
	       "{\"headers\":{\"authorization\": [\"Bearer <redacted>\"],\"x\":1}}",
	       "a body echoing headers as JSON");
	is_str(run(owners_http_redact_authorization, "Authorization: tokenwithoutscheme"),
	       "Authorization: <redacted>", "a credential without a scheme word");
	is_str(run(owners_http_redact_authorization, "authorization=abc; next=1"),
	       "authorization=<redacted>; next=1", "a query-like field ends at ';'");
	is_str(run(owners_http_redact_authorization,
		   "GET https://h/apis/rbac.authorization.k8s.io/v1/clusterroles 200 OK"),
	       "GET https://h/apis/rbac.authorization.k8s.io/v1/clusterroles 200 OK",
	       "the RBAC group in a URL is not a credential");
	is_str(run(owners_http_redact_authorization, "Authorization: Bearer a, Authorization: Bearer b"),
	       "Authorization: Bearer <redacted>, Authorization: Bearer <redacted>",
	       "every occurrence on the line");
	is_str(run(owners_http_redact_authorization, "Authorization:"),
	       "Authorization:", "nothing after the name: nothing to redact");
	is_str(run(owners_http_redact_authorization, "no credentials here"),
	       "no credentials here", "an ordinary line is unchanged");
	is_str(run(owners_http_redact_authorization, ""), "", "an empty line is unchanged");
}

static void secrets(void)
{
	is_str(secret_run("token sk-0123456789 echoed twice: sk-0123456789.", "sk-0123456789"),
	       "token <redacted> echoed twice: <redacted>.", "a secret wherever it appears, every time");
	is_str(secret_run("short abc1234 stays", "abc1234"), "short abc1234 stays",
	       "a secret under 8 bytes is not looked for");
	is_str(secret_run("exactly abcd1234!", "abcd1234"), "exactly <redacted>!",
	       "8 bytes is enough");
	is_str(secret_run("nothing to hide", NULL), "nothing to hide", "no secret: unchanged");
	is_str(secret_run("abcdefgh", "abcdefghi"), "abcdefgh", "a line shorter than the secret");
	is_str(secret_run("xxabcdefghabcdefghxx", "abcdefgh"), "xx<redacted><redacted>xx",
	       "back to back");
}

static void controls(void)
{
	is_str(run(owners_http_redact_controls, "a\x1b[2Jb"), "a\\x1b[2Jb",
	       "an escape sequence from a server is written out, not sent to the terminal");
	is_str(run(owners_http_redact_controls, "l1\r\nl2\tx\x7f"), "l1\\r\\nl2 x\\x7f",
	       "CR, LF as escapes; a tab as a space; DEL as hex");
	is_str(run(owners_http_redact_controls, "plain text, UTF-8 \xc3\xa9"),
	       "plain text, UTF-8 \xc3\xa9", "printable bytes and UTF-8 are kept");
}

static void whole_line(void)
{
	const char *const s[] = { NULL, "s3cr3t-token-value", "exec-token-value" };
	struct owners_buf line = OWNERS_BUF_INIT;
	int rc;

	rc = owners_buf_adds(&line, "Authorization: Bearer s3cr3t-token-value, "
				    "body: {\"t\":\"exec-token-value\"}\x07\n");
	if (!rc)
		rc = owners_http_redact_line(&line, s, 3);
	is_int(rc, 0, "a whole line redacted");
	is_str(line.ptr,
	       "Authorization: Bearer <redacted>, body: {\"t\":\"<redacted>\"}\\x07\\n",
	       "authorization, both secrets (NULL skipped) and control characters");
	ok(!strstr(line.ptr, "s3cr3t") && !strstr(line.ptr, "exec-token"), "no secret is left");
	owners_buf_clear(&line);
}

int main(void)
{
	authorization();
	secrets();
	controls();
	whole_line();
	return tap_done();
}
