/*
 * Exec credential plugins: small shell scripts written into a temporary
 * directory play the plugin. Standard input is /dev/null for the whole
 * test, so interactiveMode IfAvailable is deterministic.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base64.h"
#include "buf.h"
#include "owners_error.h"
#include "exec_credential.h"
#include "json.h"
#include "rest_config.h"
#include "tap.h"

#define V1 "client.authentication.k8s.io/v1"
#define V1BETA1 "client.authentication.k8s.io/v1beta1"
/* 2030-01-01T00:00:00Z */
#define EXPIRY 1893456000

static char dir[] = "/tmp/owners-test-exec-XXXXXX";

static const char *path_in(const char *name)
{
	static struct owners_buf b = OWNERS_BUF_INIT;

	owners_buf_clear(&b);
	if (name)
		owners_buf_addf(&b, "%s/%s", dir, name);
	return b.ptr;
}

/* Writes dir/name with a /bin/sh shebang and mode 0755; "@DIR@" in the
 * body becomes the temporary directory. */
static void script(const char *name, const char *body, int mode)
{
	struct owners_buf b = OWNERS_BUF_INIT;
	const char *p, *at;
	FILE *f;

	owners_buf_adds(&b, "#!/bin/sh\n");
	for (p = body; (at = strstr(p, "@DIR@")); p = at + 5) {
		owners_buf_add(&b, p, (size_t)(at - p));
		owners_buf_adds(&b, dir);
	}
	owners_buf_adds(&b, p);
	f = fopen(path_in(name), "w");
	if (f) {
		fwrite(b.ptr, 1, b.len, f);
		fclose(f);
	}
	chmod(path_in(name), (mode_t)mode);
	owners_buf_clear(&b);
}

static char *slurp(const char *name)
{
	struct owners_buf b = OWNERS_BUF_INIT;
	char chunk[4096];
	size_t n;
	FILE *f = fopen(path_in(name), "rb");

	if (!f)
		return NULL;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		owners_buf_add(&b, chunk, n);
	fclose(f);
	return owners_buf_detach(&b);
}

static int runs(const char *counter)
{
	char *s = slurp(counter);
	int n = 0;
	const char *p;

	for (p = s; p && *p; p++)
		n += *p == '\n';
	free(s);
	return n;
}

static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

static struct owners_rest_config *config(const char *api_version, const char *command)
{
	struct owners_rest_config *c;

	owners_rest_config_new(&c);
	c->server = owners_strdup("https://api.example.com:6443");
	c->exec = calloc(1, sizeof(*c->exec));
	c->exec->api_version = owners_strdup(api_version);
	c->exec->command = owners_strdup(command);
	c->exec->interactive_mode = owners_strdup("Never");
	return c;
}

static void add_env(struct owners_rest_config *c, const char *name, const char *value)
{
	struct owners_exec_config *e = c->exec;

	e->env_names = realloc(e->env_names, (e->n_env + 1) * sizeof(char *));
	e->env_values = realloc(e->env_values, (e->n_env + 1) * sizeof(char *));
	e->env_names[e->n_env] = owners_strdup(name);
	e->env_values[e->n_env] = owners_strdup(value);
	e->n_env++;
}

static void add_arg(struct owners_rest_config *c, const char *arg)
{
	struct owners_exec_config *e = c->exec;

	e->args = realloc(e->args, (e->n_args + 1) * sizeof(char *));
	e->args[e->n_args++] = owners_strdup(arg);
}

/* The error message of a refresh that must fail ("(no error)" otherwise). */
static const char *refresh_fails(struct owners_rest_config *c, int *code)
{
	static struct owners_buf msg = OWNERS_BUF_INIT;
	struct owners_error err = OWNERS_ERROR_INIT;
	int rc;

	owners_buf_clear(&msg);
	if (!c)
		return NULL;
	rc = owners_exec_credential_refresh(c, 1000, 0, &err);
	if (code)
		*code = rc;
	owners_buf_adds(&msg, rc ? owners_error_message(&err) : "(no error)");
	owners_error_clear(&err);
	return msg.ptr;
}

static int refresh(struct owners_rest_config *c, int64_t now, int force)
{
	struct owners_error err = OWNERS_ERROR_INIT;
	int rc = owners_exec_credential_refresh(c, now, force, &err);

	if (rc)
		printf("# refresh failed: %s\n", owners_error_message(&err));
	owners_error_clear(&err);
	return rc;
}

static void test_token(void)
{
	struct owners_rest_config *c;

	script("token.sh",
	       "echo run >> @DIR@/token.count\n"
	       "cat <<EOF\n"
	       "{\"apiVersion\": \"" V1 "\", \"kind\": \"ExecCredential\",\n"
	       " \"status\": {\"token\": \"tok-$MY_VAR\"}}\n"
	       "EOF\n",
	       0755);
	c = config(V1, path_in("token.sh"));
	add_env(c, "MY_VAR", "from-env");
	ok(getenv("MY_VAR") == NULL, "MY_VAR is not set in the test process");
	ok(refresh(c, 1000, 0) == 0, "a token plugin runs");
	is_str(c->exec_cred.token, "tok-from-env", "its token, built from the env given to it");
	ok(c->exec_cred.valid, "the credential is valid");
	is_int(c->exec_cred.expires_at, 0, "no expirationTimestamp: 0");
	ok(c->exec_cred.client_cert_data.len == 0, "no client certificate");
	ok(getenv("MY_VAR") == NULL, "the plugin's env was never set in the parent");
	ok(c->token == NULL, "the token is not copied to the static token");

	ok(refresh(c, 4000000000LL, 0) == 0 && runs("token.count") == 1,
	   "without an expiry the credential is reused, however late");
	ok(refresh(c, 1000, 1) == 0 && runs("token.count") == 2, "force runs it again");
	owners_rest_config_free(c);
}

static void test_expiry(void)
{
	struct owners_rest_config *c;

	script("expiring.sh",
	       "echo run >> @DIR@/expiring.count\n"
	       "n=$(wc -l < @DIR@/expiring.count | tr -d ' ')\n"
	       "printf '{\"apiVersion\":\"" V1 "\",\"kind\":\"ExecCredential\",\"status\":{"
	       "\"token\":\"t%s\",\"expirationTimestamp\":\"2030-01-01T00:00:00Z\"}}' $n\n",
	       0755);
	c = config(V1, path_in("expiring.sh"));
	ok(refresh(c, 1000, 0) == 0 && runs("expiring.count") == 1, "first refresh runs the plugin");
	is_str(c->exec_cred.token, "t1", "first token");
	is_int(c->exec_cred.expires_at, EXPIRY, "expirationTimestamp parsed");
	ok(refresh(c, 2000, 0) == 0 && runs("expiring.count") == 1, "second refresh reuses it");
	is_str(c->exec_cred.token, "t1", "same token");
	ok(refresh(c, EXPIRY - 11, 0) == 0 && runs("expiring.count") == 1,
	   "11 s before expiry: still reused");
	ok(refresh(c, EXPIRY - 10, 0) == 0 && runs("expiring.count") == 2,
	   "10 s before expiry: too close, the plugin runs again");
	is_str(c->exec_cred.token, "t2", "new token");
	ok(refresh(c, 3000, 1) == 0 && runs("expiring.count") == 3, "force re-runs a valid one");
	is_str(c->exec_cred.token, "t3", "newer token");
	ok(refresh(c, EXPIRY + 5000, 0) == 0 && runs("expiring.count") == 4,
	   "after expiry it runs again");
	owners_rest_config_free(c);
}

static void test_client_cert(void)
{
	struct owners_rest_config *c;

	script("cert.sh",
	       "cat <<'EOF'\n"
	       "{\"apiVersion\":\"" V1BETA1 "\",\"kind\":\"ExecCredential\",\"status\":{\n"
	       "\"clientCertificateData\":\"-----BEGIN CERTIFICATE-----\\nCERT\\n-----END CERTIFICATE-----\\n\",\n"
	       "\"clientKeyData\":\"-----BEGIN PRIVATE KEY-----\\nKEY\\n-----END PRIVATE KEY-----\\n\",\n"
	       "\"expirationTimestamp\":\"2030-01-01T02:00:00+02:00\"}}\n"
	       "EOF\n",
	       0755);
	c = config(V1BETA1, path_in("cert.sh"));
	ok(refresh(c, 1000, 0) == 0, "a v1beta1 client certificate plugin");
	is_str(c->exec_cred.client_cert_data.ptr,
	       "-----BEGIN CERTIFICATE-----\nCERT\n-----END CERTIFICATE-----\n", "certificate PEM");
	is_str(c->exec_cred.client_key_data.ptr,
	       "-----BEGIN PRIVATE KEY-----\nKEY\n-----END PRIVATE KEY-----\n", "key PEM");
	ok(c->exec_cred.token == NULL, "no token");
	is_int(c->exec_cred.expires_at, EXPIRY, "an expiry with an offset");
	owners_rest_config_free(c);
}

static void test_environment(void)
{
	struct owners_rest_config *c;
	struct owners_json_value *info = NULL;
	struct owners_error err = OWNERS_ERROR_INIT;
	struct owners_buf ca64 = OWNERS_BUF_INIT;
	char *s;

	script("env.sh",
	       "printf '%s' \"$KUBERNETES_EXEC_INFO\" > @DIR@/info.json\n"
	       "printf '%s|%s|%s|%s' \"$PARENT_ONLY\" \"$OVERRIDDEN\" \"$TWICE\" \"$EMPTY\" > @DIR@/env.txt\n"
	       "printf '%s|%s|%s|%s' \"$#\" \"$1\" \"$2\" \"$3\" > @DIR@/args.txt\n"
	       "cat > @DIR@/stdin.txt\n"
	       "echo '{\"apiVersion\":\"" V1 "\",\"kind\":\"ExecCredential\",\"status\":{\"token\":\"x\"}}'\n",
	       0755);
	setenv("PARENT_ONLY", "parent", 1);
	setenv("OVERRIDDEN", "parent", 1);
	c = config(V1, path_in("env.sh"));
	free(c->exec->interactive_mode);
	c->exec->interactive_mode = NULL; /* IfAvailable; stdin is not a terminal */
	add_env(c, "OVERRIDDEN", "child");
	add_env(c, "TWICE", "first");
	add_env(c, "TWICE", "second");
	add_env(c, "EMPTY", "");
	add_arg(c, "a b");
	add_arg(c, "$HOME");
	add_arg(c, "*");
	c->exec->provide_cluster_info = 1;
	c->tls_server_name = owners_strdup("api.internal");
	owners_buf_adds(&c->ca_data, "-----BEGIN CERTIFICATE-----\nCA\n-----END CERTIFICATE-----\n");
	ok(refresh(c, 1000, 0) == 0, "the environment plugin runs");

	s = slurp("env.txt");
	is_str(s, "parent|child|second|", "the parent's env is inherited, the plugin's env wins, the last duplicate wins");
	free(s);
	is_str(getenv("OVERRIDDEN"), "parent", "the parent's value is untouched");
	s = slurp("args.txt");
	is_str(s, "3|a b|$HOME|*", "args go through an argv array, never a shell");
	free(s);
	s = slurp("stdin.txt");
	is_str(s, "", "stdin is /dev/null when not interactive");
	free(s);

	s = slurp("info.json");
	ok(s && owners_json_parse(&info, s, strlen(s), &err) == 0, "KUBERNETES_EXEC_INFO is JSON");
	owners_base64_encode(&ca64, c->ca_data.ptr, c->ca_data.len);
	is_str(owners_json_string(owners_json_get(info, "kind")), "ExecCredential", "its kind");
	is_str(owners_json_string(owners_json_get(info, "apiVersion")), V1, "its apiVersion");
	is_int(owners_json_bool(owners_json_path(info, "spec", "interactive", NULL), -1), 0,
	       "spec.interactive is false");
	is_str(owners_json_string(owners_json_path(info, "spec", "cluster", "server", NULL)),
	       "https://api.example.com:6443", "spec.cluster.server (provideClusterInfo)");
	is_str(owners_json_string(owners_json_path(info, "spec", "cluster", "tls-server-name", NULL)),
	       "api.internal", "spec.cluster.tls-server-name");
	is_str(owners_json_string(owners_json_path(info, "spec", "cluster",
						   "certificate-authority-data", NULL)),
	       ca64.ptr, "spec.cluster.certificate-authority-data is the CA in base64");
	ok(owners_json_path(info, "spec", "cluster", "insecure-skip-tls-verify", NULL) == NULL,
	   "insecure-skip-tls-verify omitted when false");
	owners_json_value_free(info);
	info = NULL;
	free(s);

	c->exec->provide_cluster_info = 0;
	ok(refresh(c, 1000, 1) == 0, "again without provideClusterInfo");
	s = slurp("info.json");
	ok(s && owners_json_parse(&info, s, strlen(s), &err) == 0 &&
		   owners_json_path(info, "spec", "cluster", NULL) == NULL &&
		   owners_json_path(info, "spec", "interactive", NULL) != NULL,
	   "no spec.cluster then, spec.interactive still there");
	owners_json_value_free(info);
	free(s);

	unsetenv("PARENT_ONLY");
	unsetenv("OVERRIDDEN");
	owners_buf_clear(&ca64);
	owners_error_clear(&err);
	owners_rest_config_free(c);
}

static void test_failures(void)
{
	struct owners_rest_config *c;
	struct owners_buf want = OWNERS_BUF_INIT, big = OWNERS_BUF_INIT;
	const char *json = "{\"apiVersion\":\"" V1 "\",\"kind\":\"ExecCredential\",\"status\":{\"token\":\"big\"}}";
	time_t start;
	int code;
	FILE *f;

	script("fail.sh", "echo 'plugin: cannot log in' >&2\nexit 3\n", 0755);
	c = config(V1, path_in("fail.sh"));
	owners_buf_addf(&want, "credential plugin '%s' exited with status 3", path_in("fail.sh"));
	is_str(refresh_fails(c, &code), want.ptr, "a non-zero exit status");
	is_int(code, OWNERS_EEXEC, "OWNERS_EEXEC");
	ok(!c->exec_cred.valid, "no credential after a failure");
	owners_rest_config_free(c);

	script("killed.sh", "kill -9 $$\n", 0755);
	c = config(V1, path_in("killed.sh"));
	owners_buf_reset(&want);
	owners_buf_addf(&want, "credential plugin '%s' was killed by signal 9", path_in("killed.sh"));
	is_str(refresh_fails(c, &code), want.ptr, "a plugin killed by a signal");
	owners_rest_config_free(c);

	c = config(V1, "owners-test-no-such-plugin");
	c->exec->install_hint = owners_strdup("install it with: apt install owners-test-plugin\n");
	is_str(refresh_fails(c, &code),
	       "credential plugin 'owners-test-no-such-plugin' not found: install it with: apt install owners-test-plugin",
	       "a command not in PATH: the installHint");
	is_int(code, OWNERS_EEXEC, "OWNERS_EEXEC");
	owners_rest_config_free(c);

	c = config(V1, "/nonexistent/owners-plugin");
	is_str(refresh_fails(c, &code), "credential plugin '/nonexistent/owners-plugin' not found",
	       "a missing absolute path, no hint");
	owners_rest_config_free(c);

	script("noexec.sh", "exit 0\n", 0644);
	c = config(V1, path_in("noexec.sh"));
	owners_buf_reset(&want);
	owners_buf_addf(&want, "cannot run credential plugin '%s': Permission denied",
			path_in("noexec.sh"));
	is_str(refresh_fails(c, &code), want.ptr, "a file that is not executable");
	owners_rest_config_free(c);

	script("yes.sh", "exec yes\n", 0755);
	c = config(V1, path_in("yes.sh"));
	owners_buf_reset(&want);
	owners_buf_addf(&want, "credential plugin '%s' wrote more than 1 MiB", path_in("yes.sh"));
	is_str(refresh_fails(c, &code), want.ptr, "endless output is cut at 1 MiB and the plugin killed");
	owners_rest_config_free(c);

	/* Exactly 1 MiB is still fine: JSON padded with spaces. */
	owners_buf_adds(&big, json);
	while (big.len < 1024 * 1024)
		owners_buf_addc(&big, ' ');
	f = fopen(path_in("big.json"), "w");
	if (f) {
		fwrite(big.ptr, 1, big.len, f);
		fclose(f);
	}
	script("big.sh", "cat @DIR@/big.json\n", 0755);
	c = config(V1, path_in("big.sh"));
	ok(refresh(c, 1000, 0) == 0 && !strcmp(c->exec_cred.token, "big"),
	   "output of exactly 1 MiB is accepted");
	owners_rest_config_free(c);
	owners_buf_addc(&big, ' ');
	f = fopen(path_in("big.json"), "w");
	if (f) {
		fwrite(big.ptr, 1, big.len, f);
		fclose(f);
	}
	c = config(V1, path_in("big.sh"));
	owners_buf_reset(&want);
	owners_buf_addf(&want, "credential plugin '%s' wrote more than 1 MiB", path_in("big.sh"));
	is_str(refresh_fails(c, &code), want.ptr, "one byte more is refused");
	owners_rest_config_free(c);

	script("slow.sh", "exec sleep 5\n", 0755);
	c = config(V1, path_in("slow.sh"));
	c->exec->timeout_ms = 300;
	start = time(NULL);
	owners_buf_reset(&want);
	owners_buf_addf(&want, "credential plugin '%s' did not finish within 300ms",
			path_in("slow.sh"));
	is_str(refresh_fails(c, &code), want.ptr, "a plugin that hangs is killed at the timeout");
	ok(time(NULL) - start < 3, "and the refresh returns early");
	owners_rest_config_free(c);

	script("closes.sh", "exec >&-\nexec sleep 5\n", 0755);
	c = config(V1, path_in("closes.sh"));
	c->exec->timeout_ms = 300;
	start = time(NULL);
	owners_buf_reset(&want);
	owners_buf_addf(&want, "credential plugin '%s' did not finish within 300ms",
			path_in("closes.sh"));
	is_str(refresh_fails(c, &code), want.ptr, "closing stdout early does not escape the timeout");
	ok(time(NULL) - start < 3, "and the refresh returns early");
	owners_rest_config_free(c);

	script("v1beta1.sh",
	       "echo '{\"apiVersion\":\"" V1BETA1 "\",\"kind\":\"ExecCredential\",\"status\":{\"token\":\"x\"}}'\n",
	       0755);
	c = config(V1, path_in("v1beta1.sh"));
	owners_buf_reset(&want);
	owners_buf_addf(&want,
			"credential plugin '%s': invalid ExecCredential: apiVersion is '" V1BETA1
			"', the kubeconfig asks for '" V1 "'",
			path_in("v1beta1.sh"));
	is_str(refresh_fails(c, &code), want.ptr, "an apiVersion other than the configured one");
	is_int(code, OWNERS_EEXEC, "OWNERS_EEXEC");
	owners_rest_config_free(c);

	script("garbage.sh", "echo 'Please log in at https://example.com'\n", 0755);
	c = config(V1, path_in("garbage.sh"));
	owners_buf_reset(&want);
	owners_buf_addf(&want, "credential plugin '%s': invalid ExecCredential: not a JSON document",
			path_in("garbage.sh"));
	is_str(refresh_fails(c, &code), want.ptr, "output that is not JSON");
	owners_rest_config_free(c);

	script("token.sh", "exit 0\n", 0755);
	c = config(V1, path_in("token.sh"));
	free(c->exec->interactive_mode);
	c->exec->interactive_mode = owners_strdup("Always");
	owners_buf_reset(&want);
	owners_buf_addf(&want,
			"credential plugin '%s' needs a terminal (interactiveMode Always) but standard input is not one",
			path_in("token.sh"));
	is_str(refresh_fails(c, &code), want.ptr, "interactiveMode Always without a terminal");
	owners_rest_config_free(c);

	owners_rest_config_new(&c);
	is_str(refresh_fails(c, &code), "no credential plugin configured", "no exec config");
	is_int(code, OWNERS_ECONFIG, "OWNERS_ECONFIG");
	owners_rest_config_free(c);

	owners_buf_clear(&want);
	owners_buf_clear(&big);
	refresh_fails(NULL, NULL);
}

static const char *parse_fails(const char *json, const char *expected)
{
	static struct owners_buf msg = OWNERS_BUF_INIT;
	struct owners_rest_config_exec_credential cred = { 0 };
	struct owners_error err = OWNERS_ERROR_INIT;

	owners_buf_clear(&msg);
	if (!json)
		return NULL;
	owners_buf_init(&cred.client_cert_data);
	owners_buf_init(&cred.client_key_data);
	if (owners_exec_credential_parse(&cred, json, strlen(json), expected, &err))
		owners_buf_adds(&msg, owners_error_message(&err));
	else
		owners_buf_adds(&msg, "(no error)");
	owners_rest_config_exec_credential_clear(&cred);
	owners_error_clear(&err);
	return msg.ptr;
}

#define CRED(status) "{\"apiVersion\":\"" V1 "\",\"kind\":\"ExecCredential\",\"status\":" status "}"

static void test_parse(void)
{
	struct owners_rest_config_exec_credential cred = { 0 };
	struct owners_error err = OWNERS_ERROR_INIT;
	const char *good = CRED("{\"token\":\"new\",\"expirationTimestamp\":\"2030-01-01T00:00:00.5Z\"}");

	is_str(parse_fails(CRED("{\"token\":\"t\"}"), V1), "(no error)", "a minimal credential");
	is_str(parse_fails(CRED("{\"token\":\"t\"}"), NULL), "(no error)",
	       "no expected apiVersion: any is fine");
	is_str(parse_fails(CRED("{\"token\":\"t\",\"expirationTimestamp\":null}"), V1), "(no error)",
	       "a null expirationTimestamp");
	is_str(parse_fails("{\"apiVersion\":\"" V1 "\",\"kind\":\"ExecCredential\"}", V1),
	       "invalid ExecCredential: no status", "no status");
	is_str(parse_fails(CRED("[]"), V1), "invalid ExecCredential: no status",
	       "a status that is not an object");
	is_str(parse_fails(CRED("{}"), V1),
	       "invalid ExecCredential: neither a token nor a client certificate", "an empty status");
	is_str(parse_fails(CRED("{\"token\":\"\"}"), V1),
	       "invalid ExecCredential: neither a token nor a client certificate", "an empty token");
	is_str(parse_fails(CRED("{\"clientCertificateData\":\"c\"}"), V1),
	       "invalid ExecCredential: a client certificate needs both clientCertificateData and clientKeyData",
	       "a certificate without a key");
	is_str(parse_fails(CRED("{\"clientKeyData\":\"k\",\"token\":\"t\"}"), V1),
	       "invalid ExecCredential: a client certificate needs both clientCertificateData and clientKeyData",
	       "a key without a certificate");
	is_str(parse_fails(CRED("{\"token\":42}"), V1),
	       "invalid ExecCredential: status fields must be strings", "a numeric token");
	is_str(parse_fails(CRED("{\"token\":\"t\",\"expirationTimestamp\":\"tomorrow\"}"), V1),
	       "invalid ExecCredential: expirationTimestamp 'tomorrow' is not RFC 3339",
	       "a bad expirationTimestamp");
	is_str(parse_fails("{\"apiVersion\":\"" V1 "\",\"kind\":\"Secret\",\"status\":{\"token\":\"t\"}}", V1),
	       "invalid ExecCredential: kind is 'Secret', not 'ExecCredential'", "a wrong kind");
	is_str(parse_fails("{\"kind\":\"ExecCredential\",\"status\":{\"token\":\"t\"}}", V1),
	       "invalid ExecCredential: apiVersion is '', the kubeconfig asks for '" V1 "'",
	       "no apiVersion");
	is_str(parse_fails("[1,2]", V1), "invalid ExecCredential: not a JSON object", "an array");
	is_str(parse_fails("", V1), "invalid ExecCredential: not a JSON document", "nothing");
	is_str(parse_fails("{\"a\":1} {\"b\":2}", V1), "invalid ExecCredential: not a JSON document",
	       "two documents");

	/* A failed parse leaves the old credential alone; a good one replaces it. */
	owners_buf_init(&cred.client_cert_data);
	owners_buf_init(&cred.client_key_data);
	owners_exec_credential_parse(&cred, good, strlen(good), V1, &err);
	ok(cred.valid && !strcmp(cred.token, "new") && cred.expires_at == EXPIRY,
	   "parse fills the credential, a fraction in the expiry is fine");
	ok(owners_exec_credential_parse(&cred, "{}", 2, V1, &err) == OWNERS_EEXEC && cred.valid &&
		   !strcmp(cred.token, "new"),
	   "a failed parse leaves the previous credential as it was");
	owners_rest_config_exec_credential_clear(&cred);
	ok(!cred.valid && cred.token == NULL && cred.expires_at == 0, "clear empties it");
	/* Each in a child, so that a crash (or a sanitizer report, which
	 * exits 86) is a failed check, not a test that ends early. */
	fflush(stdout);
	{
		pid_t pid = fork();
		int st = -1;

		if (pid == 0) {
			owners_rest_config_exec_credential_clear(&cred);
			_exit(!cred.valid && cred.token == NULL && cred.expires_at == 0 &&
					      cred.client_cert_data.len == 0 && cred.client_key_data.len == 0
				      ? 0 : 1);
		}
		ok(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
		   "clear twice is fine: no crash, still empty (child status %d)", st);
		fflush(stdout);
		pid = fork();
		if (pid == 0) {
			owners_rest_config_exec_credential_clear(NULL);
			owners_rest_config_free(NULL);
			owners_exec_config_free(NULL);
			_exit(0);
		}
		ok(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
		   "destructors accept NULL: no crash (child status %d)", st);
	}
	owners_error_clear(&err);
	parse_fails(NULL, NULL);
}

int main(void)
{
	int null_fd = open("/dev/null", O_RDONLY), fds_before, fds_after;
	DIR *d;
	struct dirent *e;

	/* A terminal on stdin would make IfAvailable interactive. */
	if (null_fd >= 0) {
		dup2(null_fd, 0);
		close(null_fd);
	}
	if (!mkdtemp(dir)) {
		printf("Bail out! mkdtemp\n");
		return 1;
	}
	fds_before = open_fds();
	test_token();
	test_expiry();
	test_client_cert();
	test_environment();
	test_failures();
	test_parse();
	fds_after = open_fds();
	is_int(fds_after, fds_before, "no file descriptor leaked by any plugin run");

	d = opendir(dir);
	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.')
			unlink(path_in(e->d_name));
	if (d)
		closedir(d);
	rmdir(dir);
	path_in(NULL);
	return tap_done();
}
