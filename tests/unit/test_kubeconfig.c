/*
 * The kubeconfig loader, against fixtures in data/kubeconfig/ (the working
 * directory is tests/unit) and, for the in-cluster and ~/.kube/config
 * cases, temporary directories. The process environment is never read:
 * every test passes its own owners_kubeconfig_env.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "owners_error.h"
#include "kubeconfig.h"
#include "strv.h"
#include "tap.h"

#define D "data/kubeconfig"

static char *cwd;

static void ov_reset(struct owners_kubeconfig_overrides *ov)
{
	memset(ov, 0, sizeof(*ov));
	ov->insecure_skip_tls_verify = -1;
}

static void env_reset(struct owners_kubeconfig_env *env)
{
	memset(env, 0, sizeof(*env));
	env->serviceaccount_dir = "/nonexistent/owners-test-serviceaccount";
}

/* "<cwd>/rel": what relative references resolve to. */
static const char *abs_path(const char *rel)
{
	static struct owners_buf b = OWNERS_BUF_INIT;

	owners_buf_clear(&b);
	if (!rel)
		return NULL;
	owners_buf_addf(&b, "%s/%s", cwd, rel);
	return b.ptr;
}

static int same_as_file(const struct owners_buf *b, const char *path)
{
	char *data = NULL;
	size_t len = 0;
	FILE *f = fopen(path, "rb");
	int same;

	if (!f)
		return 0;
	data = malloc(1 << 16);
	len = fread(data, 1, 1 << 16, f);
	fclose(f);
	same = len == b->len && !memcmp(data, b->ptr, len);
	free(data);
	return same;
}

static struct owners_rest_config *load(const struct owners_kubeconfig_overrides *ov,
				       const struct owners_kubeconfig_env *env)
{
	struct owners_error err = OWNERS_ERROR_INIT;
	struct owners_rest_config *cfg = NULL;
	int rc = owners_kubeconfig_load(&cfg, ov, env, &err);

	if (rc)
		printf("# unexpected error %d: %s\n", rc, owners_error_message(&err));
	if (rc && cfg)
		printf("# and *out was set on failure\n");
	owners_error_clear(&err);
	return rc ? NULL : cfg;
}

static struct owners_rest_config *load_ctx(const char *file, const char *context)
{
	struct owners_kubeconfig_overrides ov;
	struct owners_kubeconfig_env env;

	ov_reset(&ov);
	env_reset(&env);
	ov.kubeconfig = file;
	ov.context = context;
	return load(&ov, &env);
}

/* The message of a load that must fail; code gets the error code. */
static const char *fails(const struct owners_kubeconfig_overrides *ov,
			 const struct owners_kubeconfig_env *env, int *code)
{
	static struct owners_buf msg = OWNERS_BUF_INIT;
	struct owners_error err = OWNERS_ERROR_INIT;
	struct owners_rest_config *cfg = (void *)&msg; /* must be reset to NULL */

	owners_buf_clear(&msg);
	if (!ov)
		return NULL;
	*code = owners_kubeconfig_load(&cfg, ov, env, &err);
	if (!*code) {
		owners_rest_config_free(cfg);
		return "(no error)";
	}
	if (cfg)
		owners_buf_adds(&msg, "(*out not NULL) ");
	owners_buf_adds(&msg, owners_error_message(&err));
	if (err.code != *code)
		owners_buf_adds(&msg, " (err.code differs from the return value)");
	owners_error_clear(&err);
	return msg.ptr;
}

static const char *fails_ctx(const char *file, const char *context, int *code)
{
	struct owners_kubeconfig_overrides ov;
	struct owners_kubeconfig_env env;

	ov_reset(&ov);
	env_reset(&env);
	ov.kubeconfig = file;
	ov.context = context;
	return fails(&ov, &env, code);
}

static const char *fmt(const char *f, const char *a)
{
	static struct owners_buf b = OWNERS_BUF_INIT;

	owners_buf_clear(&b);
	if (f)
		owners_buf_addf(&b, f, a);
	return b.ptr;
}

static void test_single_file(void)
{
	struct owners_rest_config *c;

	c = load_ctx(D "/basic.yaml", NULL);
	ok(c != NULL, "basic.yaml loads with its current-context");
	if (c) {
		is_str(c->context_name, "dev", "current-context is used without --context");
		is_str(c->cluster_name, "dev-cluster", "the context's cluster");
		is_str(c->user_name, "dev-user", "the context's user");
		is_str(c->server, "https://dev.example.com:6443", "the trailing slash is stripped");
		is_str(c->namespace_, "dev-ns", "the context's namespace");
		is_str(c->token, "dev-token", "an inline token");
		ok(c->token_file == NULL, "no token file for an inline token");
		ok(same_as_file(&c->ca_data, D "/certs/ca.crt"),
		   "certificate-authority is read relative to the kubeconfig's directory");
		ok(!c->insecure_skip_tls_verify, "TLS is verified by default");
		ok(!c->in_cluster, "not in-cluster");
		ok(c->exec == NULL, "no exec plugin");
		ok(c->client_cert_data.len == 0 && c->client_key_data.len == 0, "no client cert");
	}
	owners_rest_config_free(c);

	c = load_ctx(D "/basic.yaml", "prod");
	ok(c != NULL, "--context prod");
	if (c) {
		is_str(c->server, "https://prod.example.com", "prod server");
		is_str(c->ca_data.ptr,
		       "-----BEGIN CERTIFICATE-----\nINLINE CA\n-----END CERTIFICATE-----\n",
		       "certificate-authority-data is decoded to PEM");
		is_str(c->tls_server_name, "api.prod.internal", "tls-server-name");
		is_str(c->proxy_url, "http://proxy.example.com:3128", "proxy-url");
		is_str(c->namespace_, "default", "no namespace in the context: default");
		is_str(c->client_cert_data.ptr,
		       "-----BEGIN CERTIFICATE-----\nINLINE CLIENT CERT\n-----END CERTIFICATE-----\n",
		       "client-certificate-data is decoded");
		is_str(c->client_key_data.ptr,
		       "-----BEGIN PRIVATE KEY-----\nINLINE CLIENT KEY\n-----END PRIVATE KEY-----\n",
		       "client-key-data wrapped over several lines is decoded");
		ok(c->token == NULL, "no token for a cert user");
		is_str(c->impersonate_user, "admin", "as: impersonates a user");
		is_int(c->n_impersonate_groups, 2, "as-groups: two groups");
		if (c->n_impersonate_groups == 2) {
			is_str(c->impersonate_groups[0], "system:masters", "first group");
			is_str(c->impersonate_groups[1], "ops", "second group");
		}
	}
	owners_rest_config_free(c);

	c = load_ctx(D "/basic.yaml", "files");
	ok(c != NULL, "--context files");
	if (c) {
		ok(same_as_file(&c->client_cert_data, D "/certs/client.crt"),
		   "client-certificate file relative to the kubeconfig");
		ok(same_as_file(&c->client_key_data, D "/certs/client.key"),
		   "client-key file given as ./certs/... relative to the kubeconfig");
	}
	owners_rest_config_free(c);

	c = load_ctx(D "/basic.yaml", "tokenfile");
	ok(c != NULL, "--context tokenfile");
	if (c) {
		is_str(c->token, "token-from-file", "tokenFile is read, its newline trimmed");
		is_str(c->token_file, abs_path(D "/certs/token"),
		       "token_file is absolute, relative to the kubeconfig's directory");
		ok(c->insecure_skip_tls_verify, "insecure-skip-tls-verify: true");
		ok(c->ca_data.len == 0, "no CA");
	}
	owners_rest_config_free(c);

	c = load_ctx(D "/basic.yaml", "bare");
	ok(c != NULL, "--context bare");
	if (c) {
		is_str(c->server, "https://10.0.0.2:6443", "a server without a scheme gets https://");
		ok(c->user_name == NULL && c->token == NULL, "a context without a user: anonymous");
	}
	owners_rest_config_free(c);
}

static void test_merge(void)
{
	struct owners_kubeconfig_overrides ov;
	struct owners_kubeconfig_env env;
	struct owners_rest_config *c;
	struct owners_buf list = OWNERS_BUF_INIT;
	struct owners_error err = OWNERS_ERROR_INIT;
	char **names = NULL;
	int rc;

	ov_reset(&ov);
	env_reset(&env);
	owners_buf_adds(&list, D "/merge-a.yaml:" D "/does-not-exist.yaml::" D "/b/merge-b.yaml:");
	env.kubeconfig_env = list.ptr;
	env.home = "/nonexistent/home"; /* ignored: KUBECONFIG is set */

	c = load(&ov, &env);
	ok(c != NULL, "KUBECONFIG with a missing file and empty entries loads");
	if (c) {
		is_str(c->context_name, "a-ctx", "the first file's current-context wins");
		is_str(c->server, "https://a.example.com", "the first file's 'shared' cluster wins");
		is_str(c->token, "a-token", "the first file's 'shared-user' wins");
	}
	owners_rest_config_free(c);

	ov.context = "b-ctx";
	c = load(&ov, &env);
	ok(c != NULL, "a context only the second file has");
	if (c) {
		is_str(c->server, "https://only-b.example.com", "its cluster from the second file");
		ok(same_as_file(&c->ca_data, D "/b/ca-b.crt"),
		   "the second file's CA path is relative to the second file's directory");
		is_str(c->token, "token-b", "tokenFile relative to the second file, trimmed");
		is_str(c->token_file, abs_path(D "/b/token-b"), "token_file from the second file");
	}
	owners_rest_config_free(c);

	ov.context = "shared-ctx";
	c = load(&ov, &env);
	ok(c != NULL, "a context both files define");
	if (c) {
		is_str(c->namespace_, "from-a", "the first file's context wins");
		is_str(c->server, "https://a.example.com", "with the first file's cluster");
	}
	owners_rest_config_free(c);

	ov.context = "mixed-ctx";
	c = load(&ov, &env);
	ok(c != NULL, "a context in one file naming a cluster of the other");
	if (c) {
		is_str(c->server, "https://only-a.example.com", "cluster found in the other file");
		is_str(c->token, "a-token", "user found by name across files, first wins");
	}
	owners_rest_config_free(c);

	rc = owners_kubeconfig_contexts(&names, &ov, &env, &err);
	ok(rc == 0 && names, "contexts of the merged files");
	if (names) {
		is_str(names[0], "a-ctx", "sorted: a-ctx");
		is_str(names[1], "b-ctx", "sorted: b-ctx");
		is_str(names[2], "mixed-ctx", "sorted: mixed-ctx");
		is_str(names[3], "shared-ctx", "shared-ctx once, though both files have it");
		ok(names[4] == NULL, "NULL-terminated, no duplicates");
	}
	owners_strv_free_terminated(names);
	names = NULL;

	/* The other order: the other file wins. */
	ov_reset(&ov);
	owners_buf_reset(&list);
	owners_buf_adds(&list, D "/b/merge-b.yaml:" D "/merge-a.yaml");
	env.kubeconfig_env = list.ptr;
	c = load(&ov, &env);
	ok(c != NULL, "reversed KUBECONFIG");
	if (c) {
		is_str(c->context_name, "b-ctx", "now b's current-context wins");
	}
	owners_rest_config_free(c);
	ov.context = "shared-ctx";
	c = load(&ov, &env);
	if (c)
		is_str(c->namespace_, "from-b", "and b's copy of a shared context");
	else
		ok(0, "reversed shared-ctx loads");
	owners_rest_config_free(c);

	/* --kubeconfig alone: KUBECONFIG is not read at all. */
	ov_reset(&ov);
	ov.kubeconfig = D "/b/merge-b.yaml";
	ov.context = "a-ctx";
	is_str(fails(&ov, &env, &rc), "context 'a-ctx' not found in kubeconfig",
	       "--kubeconfig replaces the KUBECONFIG list");

	/* ~/.kube/config only when KUBECONFIG is unset or empty */
	ov_reset(&ov);
	env.kubeconfig_env = "";
	env.home = "/nonexistent/home";
	is_str(fails(&ov, &env, &rc),
	       "no configuration found: set --kubeconfig or KUBECONFIG, or create ~/.kube/config",
	       "empty KUBECONFIG, no ~/.kube/config: nothing found");
	is_int(rc, OWNERS_ECONFIG, "no configuration is OWNERS_ECONFIG");

	env.kubeconfig_env = D "/missing-1.yaml:" D "/missing-2.yaml";
	is_str(fails(&ov, &env, &rc),
	       "no configuration found: KUBECONFIG is '" D "/missing-1.yaml:" D "/missing-2.yaml', and no file "
	       "it names exists or holds a cluster",
	       "KUBECONFIG with only missing files: nothing found, and the files named (not 'set KUBECONFIG')");

	rc = owners_kubeconfig_contexts(&names, &ov, &env, &err);
	ok(rc == 0 && names && names[0] == NULL, "no files: an empty list of contexts, no error");
	owners_strv_free_terminated(names);
	names = NULL;

	ov.kubeconfig = D "/malformed.yaml";
	rc = owners_kubeconfig_contexts(&names, &ov, &env, &err);
	ok(rc == OWNERS_ECONFIG && names == NULL, "contexts of a malformed file: an error");
	owners_error_clear(&err);

	owners_buf_clear(&list);
}

static void test_home(void)
{
	char tmpl[] = "/tmp/owners-test-home-XXXXXX";
	struct owners_kubeconfig_overrides ov;
	struct owners_kubeconfig_env env;
	struct owners_rest_config *c;
	struct owners_buf p = OWNERS_BUF_INIT;
	FILE *f;

	ok(mkdtemp(tmpl) != NULL, "a temporary HOME");
	owners_buf_addf(&p, "%s/.kube", tmpl);
	mkdir(p.ptr, 0700);
	owners_buf_adds(&p, "/token");
	f = fopen(p.ptr, "w");
	if (f) {
		fputs("home-token\n", f);
		fclose(f);
	}
	owners_buf_reset(&p);
	owners_buf_addf(&p, "%s/.kube/config", tmpl);
	f = fopen(p.ptr, "w");
	if (f) {
		fputs("current-context: h\n"
		      "clusters: [{name: c, cluster: {server: 'https://home.example.com'}}]\n"
		      "users: [{name: u, user: {tokenFile: token}}]\n"
		      "contexts: [{name: h, context: {cluster: c, user: u, namespace: home-ns}}]\n",
		      f);
		fclose(f);
	}
	ov_reset(&ov);
	env_reset(&env);
	env.home = tmpl;
	c = load(&ov, &env);
	ok(c != NULL, "~/.kube/config is read when KUBECONFIG is unset");
	if (c) {
		is_str(c->server, "https://home.example.com", "its server");
		is_str(c->token, "home-token", "its tokenFile relative to ~/.kube");
		is_str(c->namespace_, "home-ns", "its namespace");
	}
	owners_rest_config_free(c);

	ov.namespace_ = "flag-ns";
	c = load(&ov, &env);
	if (c)
		is_str(c->namespace_, "flag-ns", "--namespace wins over the context's namespace");
	else
		ok(0, "load with --namespace");
	owners_rest_config_free(c);

	unlink(p.ptr);
	owners_buf_reset(&p);
	owners_buf_addf(&p, "%s/.kube/token", tmpl);
	unlink(p.ptr);
	owners_buf_reset(&p);
	owners_buf_addf(&p, "%s/.kube", tmpl);
	rmdir(p.ptr);
	rmdir(tmpl);
	owners_buf_clear(&p);
}

static void test_overrides(void)
{
	struct owners_kubeconfig_overrides ov;
	struct owners_kubeconfig_env env;
	struct owners_rest_config *c;
	const char *groups[] = { "g1", "g2", "g3" };
	int rc;

	env_reset(&env);
	ov_reset(&ov);
	ov.kubeconfig = D "/basic.yaml";

	ov.cluster = "prod-cluster";
	c = load(&ov, &env);
	ok(c != NULL, "--cluster");
	if (c) {
		is_str(c->context_name, "dev", "the context stays");
		is_str(c->cluster_name, "prod-cluster", "--cluster replaces the context's cluster");
		is_str(c->server, "https://prod.example.com", "with that cluster's server");
		is_str(c->token, "dev-token", "the context's user stays");
		is_str(c->namespace_, "dev-ns", "the context's namespace stays");
	}
	owners_rest_config_free(c);

	ov_reset(&ov);
	ov.kubeconfig = D "/basic.yaml";
	ov.user = "cert-user";
	c = load(&ov, &env);
	ok(c != NULL, "--user");
	if (c) {
		is_str(c->user_name, "cert-user", "--user replaces the context's user");
		ok(c->token == NULL, "the context's user's token is gone");
		ok(same_as_file(&c->client_cert_data, D "/certs/client.crt"), "the new user's cert");
	}
	owners_rest_config_free(c);

	ov_reset(&ov);
	ov.kubeconfig = D "/basic.yaml";
	ov.context = "prod";
	ov.server = "https://override.example.com:8443/";
	ov.token = "flag-token";
	ov.as = "someone";
	ov.as_groups = groups;
	ov.n_as_groups = 3;
	ov.namespace_ = "flag-ns";
	c = load(&ov, &env);
	ok(c != NULL, "--server --token --as --as-group --namespace");
	if (c) {
		is_str(c->server, "https://override.example.com:8443", "--server wins, slash stripped");
		ok(c->tls_server_name == NULL,
		   "--server clears the kubeconfig's tls-server-name (as client-go does)");
		is_str(c->ca_data.ptr,
		       "-----BEGIN CERTIFICATE-----\nINLINE CA\n-----END CERTIFICATE-----\n",
		       "the kubeconfig's CA stays");
		is_str(c->token, "flag-token", "--token wins");
		ok(c->client_cert_data.len > 0 && c->client_key_data.len > 0,
		   "--token keeps the client certificate (both may be sent)");
		is_str(c->impersonate_user, "someone", "--as wins");
		is_int(c->n_impersonate_groups, 3, "--as-group replaces as-groups");
		if (c->n_impersonate_groups == 3)
			is_str(c->impersonate_groups[2], "g3", "third group");
		is_str(c->namespace_, "flag-ns", "--namespace");
	}
	owners_rest_config_free(c);

	ov_reset(&ov);
	ov.kubeconfig = D "/basic.yaml";
	ov.context = "prod";
	ov.tls_server_name = "flag.internal";
	ov.certificate_authority = D "/certs/ca.crt";
	c = load(&ov, &env);
	ok(c != NULL, "--tls-server-name --certificate-authority");
	if (c) {
		is_str(c->tls_server_name, "flag.internal", "--tls-server-name wins");
		ok(same_as_file(&c->ca_data, D "/certs/ca.crt"),
		   "--certificate-authority (relative to the working directory) replaces CA data");
	}
	owners_rest_config_free(c);

	ov_reset(&ov);
	ov.kubeconfig = D "/basic.yaml";
	ov.context = "tokenfile";
	ov.token = "flag-token";
	ov.insecure_skip_tls_verify = 0;
	c = load(&ov, &env);
	ok(c != NULL, "--token over a tokenFile user, --insecure-skip-tls-verify=false");
	if (c) {
		is_str(c->token, "flag-token", "--token wins over tokenFile");
		ok(c->token_file == NULL, "and the token file is dropped, so nobody re-reads it");
		ok(!c->insecure_skip_tls_verify, "--insecure-skip-tls-verify=false wins");
	}
	owners_rest_config_free(c);

	ov_reset(&ov);
	ov.kubeconfig = D "/basic.yaml";
	ov.insecure_skip_tls_verify = 1;
	c = load(&ov, &env);
	ok(c != NULL, "--insecure-skip-tls-verify on a cluster with a CA file");
	if (c) {
		ok(c->insecure_skip_tls_verify, "insecure");
		ok(c->ca_data.len == 0, "the kubeconfig's CA is dropped instead of clashing");
	}
	owners_rest_config_free(c);

	ov.certificate_authority = D "/certs/ca.crt";
	is_str(fails(&ov, &env, &rc),
	       "--insecure-skip-tls-verify and --certificate-authority cannot be used together",
	       "both TLS flags: usage error");
	is_int(rc, OWNERS_EINVAL, "OWNERS_EINVAL");

	ov_reset(&ov);
	ov.kubeconfig = D "/basic.yaml";
	ov.certificate_authority = "no-such-ca.crt";
	is_str(fails(&ov, &env, &rc),
	       "cannot read certificate-authority 'no-such-ca.crt' of cluster 'dev-cluster': No such file or directory",
	       "a missing --certificate-authority file");
	is_int(rc, OWNERS_EIO, "OWNERS_EIO");

	/* Flags alone, no kubeconfig at all: kubectl --server=... --token=... */
	ov_reset(&ov);
	env_reset(&env);
	ov.server = "https://flags-only.example.com";
	ov.token = "t";
	c = load(&ov, &env);
	ok(c != NULL, "--server without any kubeconfig");
	if (c) {
		is_str(c->server, "https://flags-only.example.com", "server from the flag");
		is_str(c->token, "t", "token from the flag");
		is_str(c->namespace_, "default", "namespace default");
		ok(c->context_name == NULL && c->cluster_name == NULL, "no context, no cluster");
	}
	owners_rest_config_free(c);

	/* A kubeconfig without current-context */
	ov_reset(&ov);
	ov.kubeconfig = D "/no-current.yaml";
	is_str(fails(&ov, &env, &rc),
	       "no current context in kubeconfig: set current-context or use --context",
	       "no current-context and no --context");
	is_int(rc, OWNERS_ECONFIG, "OWNERS_ECONFIG");
	ov.context = "ctx";
	c = load(&ov, &env);
	ok(c && !strcmp(c->token, "t"), "the same file with --context");
	owners_rest_config_free(c);
	ov.context = NULL;
	ov.cluster = "c";
	ov.user = "u";
	c = load(&ov, &env);
	ok(c && !strcmp(c->server, "https://c.example.com") && !strcmp(c->token, "t"),
	   "or with --cluster and --user and no context");
	owners_rest_config_free(c);
}

static void test_errors(void)
{
	struct owners_rest_config *c;
	struct owners_kubeconfig_overrides ov;
	struct owners_kubeconfig_env env;
	const char *m;
	int rc;

	is_str(fails_ctx(D "/basic.yaml", "nope", &rc), "context 'nope' not found in kubeconfig",
	       "unknown --context");
	is_int(rc, OWNERS_ECONFIG, "OWNERS_ECONFIG");
	is_str(fails_ctx(D "/basic.yaml", "missing-cluster", &rc),
	       "cluster 'nope' not found in kubeconfig", "a context naming an unknown cluster");
	is_str(fails_ctx(D "/basic.yaml", "missing-user", &rc),
	       "user 'ghost' not found in kubeconfig", "a context naming an unknown user");
	is_str(fails_ctx(D "/basic.yaml", "no-cluster", &rc), "context 'no-cluster' has no cluster",
	       "a context without a cluster");
	is_str(fails_ctx(D "/basic.yaml", "empty-context", &rc),
	       "context 'empty-context' has no cluster", "a context with a null body");
	is_str(fails_ctx(D "/basic.yaml", "no-server", &rc), "cluster 'serverless' has no server",
	       "a cluster without a server");

	ov_reset(&ov);
	env_reset(&env);
	ov.kubeconfig = D "/basic.yaml";
	ov.cluster = "nope";
	is_str(fails(&ov, &env, &rc), "cluster 'nope' not found in kubeconfig", "unknown --cluster");
	ov.cluster = NULL;
	ov.user = "nope";
	is_str(fails(&ov, &env, &rc), "user 'nope' not found in kubeconfig", "unknown --user");

	/* reading files */
	is_str(fails_ctx(D "/nope.yaml", NULL, &rc),
	       "cannot read kubeconfig '" D "/nope.yaml': No such file or directory",
	       "a missing --kubeconfig file is an error");
	is_int(rc, OWNERS_EIO, "OWNERS_EIO");
	is_str(fails_ctx(D "/certs", NULL, &rc),
	       "cannot read kubeconfig '" D "/certs': Is a directory",
	       "a directory as --kubeconfig");
	ov_reset(&ov);
	env_reset(&env);
	env.kubeconfig_env = D "/basic.yaml:" D "/certs";
	is_str(fails(&ov, &env, &rc), "cannot read kubeconfig '" D "/certs': Is a directory",
	       "an unreadable KUBECONFIG entry is an error (only missing ones are skipped)");
	is_str(fails_ctx(D "/empty.yaml", NULL, &rc),
	       "no configuration found in kubeconfig '" D "/empty.yaml'",
	       "an empty --kubeconfig file");

	/* YAML syntax */
	m = fails_ctx(D "/malformed.yaml", NULL, &rc);
	is_str(m,
	       "cannot parse kubeconfig '" D "/malformed.yaml': while scanning a quoted scalar found unexpected end of stream at line 7",
	       "an unterminated quote: libyaml's problem and line");
	is_int(rc, OWNERS_ECONFIG, "OWNERS_ECONFIG");
	m = fails_ctx(D "/bad-indent.yaml", NULL, &rc);
	is_str(m,
	       "cannot parse kubeconfig '" D "/bad-indent.yaml': while parsing a block collection did not find expected '-' indicator at line 4",
	       "bad indentation: libyaml's problem and line");
	m = fails_ctx(D "/bad-utf8.yaml", NULL, &rc);
	ok(!strncmp(m, "cannot parse kubeconfig '" D "/bad-utf8.yaml': invalid ", 52) &&
		   strstr(m, "at byte 11"),
	   "invalid UTF-8: the byte offset (%s)", m);

	/* shapes */
	is_str(fails_ctx(D "/wrong-top.yaml", NULL, &rc),
	       "invalid kubeconfig '" D "/wrong-top.yaml': the top level must be a mapping, not a list (line 1)",
	       "a list at the top level");
	is_str(fails_ctx(D "/wrong-clusters.yaml", NULL, &rc),
	       "invalid kubeconfig '" D "/wrong-clusters.yaml': 'clusters' must be a list, not a mapping (line 3)",
	       "clusters as a mapping");
	is_str(fails_ctx(D "/wrong-item.yaml", "fine", &rc),
	       "invalid kubeconfig '" D "/wrong-item.yaml': 'contexts' entries must be mappings, not a scalar (line 4)",
	       "a scalar in the contexts list");
	is_str(fails_ctx(D "/wrong-body.yaml", NULL, &rc),
	       "invalid kubeconfig '" D "/wrong-body.yaml': 'user' of user 'u' must be a mapping, not a list (line 3)",
	       "a user body that is a list");
	is_str(fails_ctx(D "/duplicate.yaml", NULL, &rc),
	       "invalid kubeconfig '" D "/duplicate.yaml': duplicate cluster name 'twice' (line 4)",
	       "a name twice in one file (kubectl refuses it too)");

	/* fields, each failing only when its context is selected */
	c = load_ctx(D "/errors.yaml", NULL);
	ok(c != NULL, "errors.yaml's good context loads");
	owners_rest_config_free(c);
	is_str(fails_ctx(D "/errors.yaml", "bad-b64", &rc),
	       "invalid base64 in 'certificate-authority-data' of cluster 'bad-b64'",
	       "bad base64 in certificate-authority-data");
	is_int(rc, OWNERS_ECONFIG, "OWNERS_ECONFIG");
	is_str(fails_ctx(D "/errors.yaml", "bad-key-b64", &rc),
	       "invalid base64 in 'client-key-data' of user 'bad-key-b64'",
	       "bad base64 in client-key-data");
	is_str(fails_ctx(D "/errors.yaml", "both-ca", &rc),
	       "cluster 'both-ca' sets both certificate-authority and certificate-authority-data",
	       "CA file and data both set");
	is_str(fails_ctx(D "/errors.yaml", "insecure-and-ca", &rc),
	       "cluster 'insecure-and-ca' sets both insecure-skip-tls-verify and a certificate authority",
	       "insecure and a CA both set");
	is_str(fails_ctx(D "/errors.yaml", "quoted-bool", &rc),
	       "invalid kubeconfig '" D "/errors.yaml': 'insecure-skip-tls-verify' of cluster 'quoted-bool' must be true or false, not a scalar (line 24)",
	       "a quoted \"true\" is not a boolean");
	is_str(fails_ctx(D "/errors.yaml", "missing-ca", &rc),
	       fmt("cannot read certificate-authority '%s' of cluster 'missing-ca': No such file or directory",
		   abs_path(D "/certs/missing-ca.crt")),
	       "a missing CA file, named with its resolved path");
	is_int(rc, OWNERS_EIO, "OWNERS_EIO");
	is_str(fails_ctx(D "/errors.yaml", "list-server", &rc),
	       "invalid kubeconfig '" D "/errors.yaml': 'server' of cluster 'list-server' must be a string, not a list (line 31)",
	       "a list where a string is expected");
	is_str(fails_ctx(D "/errors.yaml", "bad-proxy", &rc),
	       "invalid proxy-url 'ftp://proxy' of cluster 'bad-proxy': the scheme must be http, https or socks5",
	       "a proxy-url with an unsupported scheme");
	is_str(fails_ctx(D "/errors.yaml", "token-map", &rc),
	       "invalid kubeconfig '" D "/errors.yaml': 'token' of user 'token-map' must be a string, not a mapping (line 45)",
	       "a mapping where the token should be");
	is_str(fails_ctx(D "/errors.yaml", "nul-token", &rc),
	       "invalid kubeconfig '" D "/errors.yaml': 'token' contains a NUL byte (line 48)",
	       "a token with a NUL byte");
	is_str(fails_ctx(D "/errors.yaml", "gcp", &rc),
	       "user 'gcp' uses auth-provider 'gcp', which is not supported: use an exec credential plugin (e.g. gke-gcloud-auth-plugin, kubelogin)",
	       "auth-provider is refused with a way out");
	is_int(rc, OWNERS_ECONFIG, "OWNERS_ECONFIG");
	ok(strstr(fails_ctx(D "/errors.yaml", "basic", &rc), "username/password") != NULL,
	   "basic auth is refused");
	is_str(fails_ctx(D "/errors.yaml", "cert-no-key", &rc),
	       "user 'cert-no-key' has a client certificate without a key, or a key without a certificate",
	       "a client certificate without a key");
	is_str(fails_ctx(D "/errors.yaml", "both-cert", &rc),
	       "user 'both-cert' sets both client-certificate and client-certificate-data",
	       "client cert file and data both set");
	is_str(fails_ctx(D "/errors.yaml", "missing-cert", &rc),
	       fmt("cannot read client-certificate '%s' of user 'missing-cert': No such file or directory",
		   abs_path(D "/certs/missing.crt")),
	       "a missing client certificate file");
	is_str(fails_ctx(D "/errors.yaml", "groups-without-as", &rc),
	       "user 'groups-without-as' requests impersonated groups without impersonating a user (set 'as' or --as)",
	       "as-groups without as");
	is_str(fails_ctx(D "/errors.yaml", "exec-bad-mode", &rc),
	       "exec plugin of user 'exec-bad-mode' has invalid interactiveMode 'Sometimes' (want Never, IfAvailable or Always)",
	       "an unknown interactiveMode");
	is_str(fails_ctx(D "/errors.yaml", "exec-bad-env", &rc),
	       "invalid kubeconfig '" D "/errors.yaml': 'exec.env' of user 'exec-bad-env' must be a list of {name, value} mappings, not a scalar (line 77)",
	       "exec env as NAME=value strings");
	ok(strstr(fails_ctx(D "/errors.yaml", "exec-env-no-name", &rc), "invalid env name ''") !=
		   NULL,
	   "an exec env entry without a name");
	is_str(fails_ctx(D "/errors.yaml", "exec-old-api", &rc),
	       "exec plugin of user 'exec-old-api' has unsupported apiVersion 'client.authentication.k8s.io/v1alpha1' (want 'client.authentication.k8s.io/v1' or 'client.authentication.k8s.io/v1beta1')",
	       "exec apiVersion v1alpha1");
	is_str(fails_ctx(D "/errors.yaml", "exec-no-command", &rc),
	       "exec plugin of user 'exec-no-command' has no command", "exec without a command");
	is_str(fails_ctx(D "/errors.yaml", "exec-args-map", &rc),
	       "invalid kubeconfig '" D "/errors.yaml': 'args' of user 'exec-args-map' must be a list, not a mapping (line 92)",
	       "exec args as a mapping");

	/* No configuration anywhere */
	ov_reset(&ov);
	env_reset(&env);
	is_str(fails(&ov, &env, &rc),
	       "no configuration found: set --kubeconfig or KUBECONFIG, or create ~/.kube/config",
	       "no KUBECONFIG, no HOME, not in a cluster");
	is_int(rc, OWNERS_ECONFIG, "OWNERS_ECONFIG");
	fails(NULL, NULL, NULL);
}

static void test_exec_config(void)
{
	struct owners_rest_config *c = load_ctx(D "/exec.yaml", NULL);
	struct owners_exec_config *e = c ? c->exec : NULL;

	ok(e != NULL, "an exec user loads");
	if (e) {
		is_str(e->api_version, "client.authentication.k8s.io/v1", "apiVersion");
		is_str(e->command, abs_path(D "/bin/get-token"),
		       "a command with a slash is relative to the kubeconfig");
		is_int(e->n_args, 3, "three args");
		if (e->n_args == 3) {
			is_str(e->args[0], "--cluster", "arg 1");
			is_str(e->args[1], "my cluster", "arg 2 keeps its space");
			is_str(e->args[2], "42", "arg 3, a number, as text");
		}
		is_int(e->n_env, 2, "two env entries");
		if (e->n_env == 2) {
			is_str(e->env_names[0], "AWS_PROFILE", "env name");
			is_str(e->env_values[0], "prod", "env value");
			is_str(e->env_names[1], "EMPTY", "env without a value");
			is_str(e->env_values[1], "", "is empty");
		}
		is_str(e->install_hint, "get-token is in the foo package\n", "installHint");
		ok(e->provide_cluster_info, "provideClusterInfo");
		is_str(e->interactive_mode, "Never", "interactiveMode");
		ok(!c->exec_cred.valid, "no credential yet");
		ok(c->token == NULL, "no static token");
	}
	owners_rest_config_free(c);

	c = load_ctx(D "/exec.yaml", "path");
	e = c ? c->exec : NULL;
	ok(e != NULL, "a v1beta1 exec user loads");
	if (e) {
		is_str(e->command, "gke-gcloud-auth-plugin", "a bare command stays for the PATH search");
		ok(e->interactive_mode == NULL, "no interactiveMode: NULL (IfAvailable)");
		ok(!e->provide_cluster_info, "provideClusterInfo defaults to false");
		ok(e->n_args == 0 && e->n_env == 0, "no args, no env");
	}
	owners_rest_config_free(c);
}

static int write_file(const char *dir, const char *name, const char *content)
{
	struct owners_buf p = OWNERS_BUF_INIT;
	FILE *f;
	int rc = -1;

	owners_buf_addf(&p, "%s/%s", dir, name);
	f = fopen(p.ptr, "w");
	if (f) {
		fputs(content, f);
		rc = fclose(f);
	}
	owners_buf_clear(&p);
	return rc;
}

static void remove_file(const char *dir, const char *name)
{
	struct owners_buf p = OWNERS_BUF_INIT;

	owners_buf_addf(&p, "%s/%s", dir, name);
	unlink(p.ptr);
	owners_buf_clear(&p);
}

static void test_in_cluster(void)
{
	char sa[] = "/tmp/owners-test-sa-XXXXXX";
	struct owners_kubeconfig_overrides ov;
	struct owners_kubeconfig_env env;
	struct owners_rest_config *c;
	int rc;

	ok(mkdtemp(sa) != NULL, "a temporary serviceaccount directory");
	write_file(sa, "token", "sa-token\n");
	write_file(sa, "ca.crt", "-----BEGIN CERTIFICATE-----\nCLUSTER CA\n-----END CERTIFICATE-----\n");
	write_file(sa, "namespace", "kube-system\n");

	ov_reset(&ov);
	env_reset(&env);
	env.serviceaccount_dir = sa;
	env.service_host = "10.96.0.1";
	env.service_port = "443";
	c = load(&ov, &env);
	ok(c != NULL, "in-cluster when no kubeconfig exists");
	if (c) {
		ok(c->in_cluster, "in_cluster is set");
		is_str(c->server, "https://10.96.0.1:443", "server from the service env");
		is_str(c->token, "sa-token", "the service account token, trimmed");
		is_str(c->token_file, fmt("%s/token", sa), "token_file set, for rotation");
		is_str(c->ca_data.ptr,
		       "-----BEGIN CERTIFICATE-----\nCLUSTER CA\n-----END CERTIFICATE-----\n",
		       "ca.crt");
		is_str(c->namespace_, "kube-system", "the namespace file, trimmed");
		ok(c->context_name == NULL, "no context name");
		ok(!c->insecure_skip_tls_verify, "TLS verified");
	}
	owners_rest_config_free(c);

	env.service_host = "fd00:10:96::1";
	env.service_port = "6443";
	ov.namespace_ = "flag-ns";
	ov.token = "flag-token";
	c = load(&ov, &env);
	ok(c != NULL, "in-cluster with an IPv6 service host");
	if (c) {
		is_str(c->server, "https://[fd00:10:96::1]:6443", "the IPv6 host is bracketed");
		is_str(c->namespace_, "flag-ns", "--namespace wins over the namespace file");
		is_str(c->token, "flag-token", "--token wins over the service account");
		ok(c->token_file == NULL, "and the token file is not re-read later");
	}
	owners_rest_config_free(c);

	remove_file(sa, "namespace");
	remove_file(sa, "ca.crt");
	ov_reset(&ov);
	env.kubeconfig_env = D "/missing.yaml";
	c = load(&ov, &env);
	ok(c != NULL, "in-cluster when KUBECONFIG lists only missing files");
	if (c) {
		is_str(c->namespace_, "default", "no namespace file: default");
		ok(c->ca_data.len == 0, "no ca.crt: the system roots (client-go only logs it)");
	}
	owners_rest_config_free(c);

	env.kubeconfig_env = D "/basic.yaml";
	c = load(&ov, &env);
	ok(c && !c->in_cluster && !strcmp(c->server, "https://dev.example.com:6443"),
	   "a kubeconfig wins over in-cluster");
	owners_rest_config_free(c);
	env.kubeconfig_env = NULL;

	ov.server = "https://flag.example.com";
	c = load(&ov, &env);
	ok(c && !c->in_cluster && !strcmp(c->server, "https://flag.example.com") && !c->token,
	   "--server without a kubeconfig is not in-cluster (as kubectl)");
	owners_rest_config_free(c);
	ov.server = NULL;

	env.service_port = "";
	is_str(fails(&ov, &env, &rc),
	       "no configuration found: set --kubeconfig or KUBECONFIG, or create ~/.kube/config",
	       "no KUBERNETES_SERVICE_PORT: not in-cluster");
	env.service_port = "443";

	remove_file(sa, "token");
	is_str(fails(&ov, &env, &rc),
	       "no configuration found: set --kubeconfig or KUBECONFIG, or create ~/.kube/config",
	       "no token file: not in-cluster (client-go's Possible())");
	rmdir(sa);
}

int main(void)
{
	size_t size = 4096;

	cwd = malloc(size);
	if (!cwd || !getcwd(cwd, size)) {
		printf("Bail out! getcwd\n");
		return 1;
	}
	test_single_file();
	test_merge();
	test_home();
	test_overrides();
	test_errors();
	test_exec_config();
	test_in_cluster();
	abs_path(NULL);
	fmt(NULL, NULL);
	free(cwd);
	return tap_done();
}
