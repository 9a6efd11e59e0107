/*
 * owners version: this build (version, commit, the libraries it runs
 * with) and the API server's version (GET /version), as `kubectl version`
 * shows them; -o json|yaml in kubectl's shape (clientVersion,
 * serverVersion) plus the libraries. `owners --version` is the client
 * part alone (cmd/main.c).
 */
#include <curl/curl.h>
#include <protobuf-c/protobuf-c.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "commands.h"
#include "json.h"
#include "output.h"
#include "server_version.h"
#include "session_connect.h"
#include "sink.h"

static const char *const version_outputs[] = { "json", "yaml", NULL };

struct version_options {
	int client_only;        /* --client */
};

#define OPT_STRUCT struct version_options
const struct opt version_opts[] = {
	OPT_BOOL("client", 0, client_only, NULL,
		 "this build only: do not ask the server for its version"),
	OPT_OUTPUT("json or yaml: kubectl's clientVersion and serverVersion, plus the...",
		   "json or yaml: kubectl's clientVersion and serverVersion, plus the libraries"),
	OPT_END,
};
#undef OPT_STRUCT

/* GOOS/GOARCH words, as kubectl's platform field writes them. */
#if defined(__linux__)
#define OWNERS_GOOS "linux"
#elif defined(__APPLE__)
#define OWNERS_GOOS "darwin"
#elif defined(__FreeBSD__)
#define OWNERS_GOOS "freebsd"
#else
#define OWNERS_GOOS "unknown"
#endif
#if defined(__x86_64__)
#define OWNERS_GOARCH "amd64"
#elif defined(__aarch64__)
#define OWNERS_GOARCH "arm64"
#else
#define OWNERS_GOARCH "unknown"
#endif
static const char *platform(void)
{
	return OWNERS_GOOS "/" OWNERS_GOARCH;
}

static const char *tls_version(const curl_version_info_data *curl)
{
	return curl->ssl_version ? curl->ssl_version : "no TLS";
}

/* clientVersion: "0.1.0" gives major "0" and minor "1", as kubectl
 * splits v1.32.4; then the libraries owners runs with. */
static void client_json(struct owners_json_gen *j, const curl_version_info_data *curl)
{
	char major[16] = "", minor[16] = "", git[64];
	const char *v = OWNERS_VERSION, *dot = strchr(v, '.');

	if (dot && (size_t)(dot - v) < sizeof(major)) {
		const char *dot2 = strchr(dot + 1, '.');
		size_t n = dot2 ? (size_t)(dot2 - dot - 1) : strlen(dot + 1);

		memcpy(major, v, (size_t)(dot - v));
		major[dot - v] = '\0';
		if (n < sizeof(minor)) {
			memcpy(minor, dot + 1, n);
			minor[n] = '\0';
		}
	}
	snprintf(git, sizeof(git), "v%s", v);
	owners_json_gen_string(j, "clientVersion");
	owners_json_gen_map_open(j);
	owners_json_gen_kv(j, "major", major);
	owners_json_gen_kv(j, "minor", minor);
	owners_json_gen_kv(j, "gitVersion", git);
	owners_json_gen_kv(j, "gitCommit", OWNERS_GIT_COMMIT);
	owners_json_gen_kv(j, "platform", platform());
	owners_json_gen_map_close(j);
	owners_json_gen_string(j, "libraries");
	owners_json_gen_map_open(j);
	owners_json_gen_kv(j, "libcurl", curl->version);
	owners_json_gen_kv(j, "tls", tls_version(curl));
	owners_json_gen_kv(j, "yajl", owners_json_library_version());
	owners_json_gen_kv(j, "libyaml", yaml_get_version_string());
	owners_json_gen_kv(j, "protobuf-c", protobuf_c_version());
	owners_json_gen_map_close(j);
}

static int client_text(struct owners_buf *out, const curl_version_info_data *curl)
{
	return owners_buf_addf(out, "owners %s (commit %s)\nlibcurl %s (%s)\nyajl %s\nlibyaml %s\nprotobuf-c %s\n",
			       OWNERS_VERSION, OWNERS_GIT_COMMIT, curl->version, tls_version(curl),
			       owners_json_library_version(), yaml_get_version_string(), protobuf_c_version());
}

/* The server's /version, or NULL with the reason in err. */
static struct owners_json_value *server_version(struct owners_cli *cli, struct owners_error *err)
{
	struct owners_json_value *doc = NULL;
	struct session *s = session_new();

	if (!s) {
		owners_error_oom(err);
		return NULL;
	}
	if (!session_connect(s, cli))
		owners_server_version_get(&doc, session_http(s), session_error(s));
	if (!doc)
		owners_error_set(err,
				 session_error(s)->code ? session_error(s)->code : OWNERS_EINVAL,
				 "%s", owners_error_message(session_error(s)));
	session_close(s);
	return doc;
}

enum exit_code owners_version_client(void)
{
	struct owners_buf out = OWNERS_BUF_INIT;
	enum exit_code rc = client_text(&out, curl_version_info(CURLVERSION_NOW)) ? error_oom()
										    : output_document(&out, 0);

	owners_buf_clear(&out);
	return rc;
}

static enum exit_code validate(const struct owners_cli *cli, const void *opts,
			       const struct string_list *args)
{
	(void)cli;
	(void)opts;
	if (args->count)
		return usage_error("'%s version' takes no arguments", cli->program);
	return EXIT_OK;
}

/* What there is to print: the client always, the server's /version when
 * it was read. */
struct versions {
	const curl_version_info_data *curl;
	struct owners_json_value *server;
};

static int render_json(struct owners_buf *out, void *ctx, const struct owners_scan_warning *warnings,
		       size_t n_warnings)
{
	const struct versions *v = ctx;
	struct owners_json_gen *j;
	int rc;

	(void)warnings;
	(void)n_warnings;
	if ((rc = owners_json_gen_new(&j, out, 1)))
		return rc;
	owners_json_gen_map_open(j);
	client_json(j, v->curl);
	if (v->server) {
		owners_json_gen_string(j, "serverVersion");
		owners_json_gen_value(j, v->server);
	}
	owners_json_gen_map_close(j);
	rc = owners_json_gen_error(j);
	owners_json_gen_free(j);
	return rc;
}

static int render_text(struct owners_buf *out, void *ctx)
{
	const struct versions *v = ctx;

	return client_text(out, v->curl) ||
	       (v->server && owners_buf_addf(out, "server %s\n", owners_server_version_git(v->server)))
		       ? OWNERS_ENOMEM
		       : 0;
}

enum exit_code cmd_version(struct cmd_run *run)
{
	static const struct output_renderers renderers = { render_json, render_text, NULL };
	struct owners_error err = OWNERS_ERROR_INIT;
	struct versions v = { curl_version_info(CURLVERSION_NOW), NULL };
	const struct version_options *o = run->opts;
	enum exit_code rc;

	if (!o->client_only)
		v.server = server_version(run->cli, &err);
	rc = output_emit(run, &renderers, &v);
	/* As kubectl: the client's version is printed, then why the server's
	 * is not, and the exit status says it failed. */
	if (!o->client_only && !v.server) {
		warning_msg("%s", owners_error_message(&err));
		if (!rc)
			rc = EXIT_ERROR;
	}
	owners_json_value_free(v.server);
	owners_error_clear(&err);
	return rc;
}

/* The man page's detail beyond --help (see struct man_section). */
static const struct man_section version_man_sections[] = {
	{"THE SERVER'S VERSION",
		"The build's part names its version, commit, libcurl (and its TLS library), yajl,\n"
		"libyaml and protobuf-c; -o json has kubectl's clientVersion and serverVersion\n"
		"(the server's document as it wrote it) plus libraries:\n"
		"  $ owners version -o json | jq -r .serverVersion.gitVersion\n"
		"  v1.36.3"},
	{NULL, NULL},
};

/* The command: its usage, help, man page text and permissions. */
const struct command version_command = {
	.name = "version",
	.man_sections = version_man_sections,
	.fn = cmd_version,
	.validate = validate,
	.args = CMD_ARGS_NONE,
	CMD_OPTIONS(version_opts, struct version_options, NULL),
	.outputs = version_outputs,
	.usage = "owners version [--client] [-o json|yaml]",
	.summary = "print the version of owners, its libraries and the API server",
	.description = "Prints this build's version and git commit, the libraries it runs with, and\n"
		"the API server's version (GET /version), as kubectl version does. When the\n"
		"server cannot be reached or asked, the client's part is printed, one warning\n"
		"line says why, and the exit status is 1, as with kubectl version; --client\n"
		"does not ask the server (nor does the version flag of owners alone: see\n"
		"owners(1)).\n"
		"\n"
		"-o json prints kubectl's shape, plus the libraries:\n"
		"  {\"clientVersion\": {\"major\", \"minor\", \"gitVersion\", \"gitCommit\", \"platform\"},\n"
		"   \"libraries\": {\"libcurl\", \"tls\", \"yajl\", \"libyaml\", \"protobuf-c\"},\n"
		"   \"serverVersion\": the server's /version as it wrote it (\"major\", \"minor\",\n"
		"                    \"gitVersion\", \"gitCommit\", \"buildDate\", \"goVersion\",\n"
		"                    \"platform\", ...; absent when it could not be read)}\n"
		"-o yaml is the same document.",
	.examples = "  owners version\n"
		"  owners version -o json | jq -r .serverVersion.gitVersion\n"
		"  owners version --client",
	.rbac = "nothing beyond an authenticated user: /version is open to every one (system:public-info-viewer)",
};
