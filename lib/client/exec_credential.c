/*
 * Running exec credential plugins, the way client-go does
 * (k8s.io/client-go/plugin/pkg/client/auth/exec), minus its shell-free
 * pitfalls done by hand: everything the child needs (argv, envp, the paths
 * to try) is built before fork(), so the child only calls async-signal-safe
 * functions (dup2, sigaction, execve, write, _exit), which is what POSIX
 * allows after fork() in a process that may have threads (libcurl's
 * resolver). The plugin's env is therefore given to execve() as a complete
 * envp rather than set with setenv(): same effect (set in the child only),
 * no malloc between fork and exec.
 */
#include "exec_credential.h"
#include "clock.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base64.h"
#include "json.h"
#include "timeutil.h"

extern char **environ;

#define OUTPUT_LIMIT (1024 * 1024)
#define DEFAULT_TIMEOUT_MS 60000L
/* A credential this close to its expiry could expire in flight. */
#define EXPIRY_SLACK_SECONDS 10
#define EXEC_INFO_ENV "KUBERNETES_EXEC_INFO"
/* Used when PATH is unset, as glibc's execvp does (minus the cwd). */
#define DEFAULT_PATH "/usr/local/bin:/usr/bin:/bin"

#ifndef NSIG
#define NSIG 65
#endif

/* ---- parsing ------------------------------------------------------------ */

/* A string member or NULL; -1 when present with another type (null counts
 * as absent, as in Go's decoder). */
static int member_string(const char **out, const struct owners_json_value *obj,
			 const char *key)
{
	const struct owners_json_value *v = owners_json_get(obj, key);

	*out = NULL;
	if (!v || v->type == OWNERS_JSON_NULL)
		return 0;
	if (v->type != OWNERS_JSON_STRING)
		return -1;
	*out = *v->string ? v->string : NULL;
	return 0;
}

int owners_exec_credential_parse(struct owners_rest_config_exec_credential *out, const char *data,
				 size_t len, const char *expected_api_version,
				 struct owners_error *err)
{
	struct owners_rest_config_exec_credential cred = { 0 };
	struct owners_json_value *root = NULL;
	const struct owners_json_value *status;
	const char *api_version, *kind, *token, *cert, *key, *expiry;
	int rc;

	owners_buf_init(&cred.client_cert_data);
	owners_buf_init(&cred.client_key_data);
	if (owners_json_parse(&root, data, len, NULL)) {
		rc = owners_error_set(err, OWNERS_EEXEC, "invalid ExecCredential: not a JSON document");
		goto out;
	}
	if (root->type != OWNERS_JSON_OBJECT) {
		rc = owners_error_set(err, OWNERS_EEXEC, "invalid ExecCredential: not a JSON object");
		goto out;
	}
	if (member_string(&api_version, root, "apiVersion") || member_string(&kind, root, "kind")) {
		rc = owners_error_set(err, OWNERS_EEXEC,
				      "invalid ExecCredential: apiVersion and kind must be strings");
		goto out;
	}
	if (expected_api_version && (!api_version || strcmp(api_version, expected_api_version))) {
		rc = owners_error_set(err, OWNERS_EEXEC,
				      "invalid ExecCredential: apiVersion is '%s', the kubeconfig asks for '%s'",
				      api_version ? api_version : "", expected_api_version);
		goto out;
	}
	if (!kind || strcmp(kind, "ExecCredential")) {
		rc = owners_error_set(err, OWNERS_EEXEC,
				      "invalid ExecCredential: kind is '%s', not 'ExecCredential'",
				      kind ? kind : "");
		goto out;
	}
	status = owners_json_get(root, "status");
	if (!status || status->type != OWNERS_JSON_OBJECT) {
		rc = owners_error_set(err, OWNERS_EEXEC, "invalid ExecCredential: no status");
		goto out;
	}
	if (member_string(&token, status, "token") ||
	    member_string(&cert, status, "clientCertificateData") ||
	    member_string(&key, status, "clientKeyData") ||
	    member_string(&expiry, status, "expirationTimestamp")) {
		rc = owners_error_set(err, OWNERS_EEXEC,
				      "invalid ExecCredential: status fields must be strings");
		goto out;
	}
	if (!token && !cert && !key) {
		rc = owners_error_set(err, OWNERS_EEXEC,
				      "invalid ExecCredential: neither a token nor a client certificate");
		goto out;
	}
	if (!cert != !key) {
		rc = owners_error_set(err, OWNERS_EEXEC,
				      "invalid ExecCredential: a client certificate needs both clientCertificateData and clientKeyData");
		goto out;
	}
	if (expiry && owners_time_parse_rfc3339(&cred.expires_at, expiry)) {
		rc = owners_error_set(err, OWNERS_EEXEC,
				      "invalid ExecCredential: expirationTimestamp '%s' is not RFC 3339",
				      expiry);
		goto out;
	}
	if ((token && !(cred.token = owners_strdup(token))) ||
	    (cert && owners_buf_adds(&cred.client_cert_data, cert)) ||
	    (key && owners_buf_adds(&cred.client_key_data, key))) {
		rc = owners_error_oom(err);
		goto out;
	}
	cred.valid = 1;
	owners_rest_config_exec_credential_clear(out);
	*out = cred; /* the buffers move; cred is not used again */
	owners_buf_init(&cred.client_cert_data);
	owners_buf_init(&cred.client_key_data);
	cred.token = NULL;
	rc = 0;
out:
	owners_rest_config_exec_credential_clear(&cred);
	/* The tree holds the token: wipe it before it goes back to malloc. */
	status = owners_json_get(root, "status");
	if (status && status->type == OWNERS_JSON_OBJECT) {
		size_t i;

		for (i = 0; i < status->count; i++)
			if (status->items[i]->string)
				owners_wipe(status->items[i]->string,
					    strlen(status->items[i]->string));
	}
	owners_json_value_free(root);
	return rc;
}

/* ---- what the child gets ------------------------------------------------ */

struct spawn {
	char **argv;         /* strings borrowed from the exec config */
	char **envp;         /* environ entries borrowed, the rest in owned_env */
	char **owned_env;
	size_t n_owned_env;
	char **paths;        /* the paths execve() tries, in order */
	size_t n_paths;
	int stdin_fd;        /* -1: inherit (interactive) */
	int stdout_fd;
	int status_fd;       /* the child writes errno here when exec fails */
};

static void spawn_clear(struct spawn *sp)
{
	size_t i;

	free(sp->argv);
	free(sp->envp);
	for (i = 0; i < sp->n_owned_env; i++) {
		/* KUBERNETES_EXEC_INFO and plugin env may carry secrets. */
		owners_wipe(sp->owned_env[i], strlen(sp->owned_env[i]));
		free(sp->owned_env[i]);
	}
	free(sp->owned_env);
	for (i = 0; i < sp->n_paths; i++)
		free(sp->paths[i]);
	free(sp->paths);
	memset(sp, 0, sizeof(*sp));
}

/* KUBERNETES_EXEC_INFO: an ExecCredential with only the spec. */
static int exec_info(struct owners_buf *out, const struct owners_rest_config *cfg,
		     int interactive)
{
	const struct owners_exec_config *e = cfg->exec;
	struct owners_buf ca = OWNERS_BUF_INIT;
	struct owners_json_gen *g;
	int rc;

	if (owners_json_gen_new(&g, out, 0))
		return OWNERS_ENOMEM;
	rc = owners_json_gen_typed_open(g, "ExecCredential", e->api_version);
	if (!rc)
		rc = owners_json_gen_string(g, "spec");
	if (!rc)
		rc = owners_json_gen_map_open(g);
	if (!rc)
		rc = owners_json_gen_string(g, "interactive");
	if (!rc)
		rc = owners_json_gen_bool(g, interactive);
	if (!rc && e->provide_cluster_info) {
		rc = owners_json_gen_string(g, "cluster");
		if (!rc)
			rc = owners_json_gen_map_open(g);
		if (!rc)
			rc = owners_json_gen_kv(g, "server", cfg->server);
		if (!rc)
			rc = owners_json_gen_kv(g, "tls-server-name", cfg->tls_server_name);
		if (!rc && cfg->insecure_skip_tls_verify) {
			rc = owners_json_gen_string(g, "insecure-skip-tls-verify");
			if (!rc)
				rc = owners_json_gen_bool(g, 1);
		}
		if (!rc && cfg->ca_data.len) {
			rc = owners_base64_encode(&ca, cfg->ca_data.ptr, cfg->ca_data.len);
			if (!rc)
				rc = owners_json_gen_kv(g, "certificate-authority-data", ca.ptr);
		}
		if (!rc)
			rc = owners_json_gen_kv(g, "proxy-url", cfg->proxy_url);
		if (!rc)
			rc = owners_json_gen_map_close(g);
	}
	if (!rc)
		rc = owners_json_gen_map_close(g);
	if (!rc)
		rc = owners_json_gen_map_close(g);
	owners_json_gen_free(g);
	owners_buf_clear(&ca);
	return rc ? OWNERS_ENOMEM : 0;
}

static size_t env_name_len(const char *entry)
{
	const char *eq = strchr(entry, '=');

	return eq ? (size_t)(eq - entry) : strlen(entry);
}

static int same_name(const char *entry, const char *name)
{
	size_t n = env_name_len(entry);

	return strlen(name) == n && !strncmp(entry, name, n);
}

/* The parent's environment, then the plugin's env (the last of duplicate
 * names wins, like Go's exec.Cmd), then KUBERNETES_EXEC_INFO. */
static int build_env(struct spawn *sp, const struct owners_exec_config *e, const char *info)
{
	struct owners_buf entry = OWNERS_BUF_INIT;
	size_t n_environ = 0, n = 0, i, j;
	int shadowed;

	while (environ && environ[n_environ])
		n_environ++;
	sp->envp = calloc(n_environ + e->n_env + 2, sizeof(*sp->envp));
	sp->owned_env = calloc(e->n_env + 1, sizeof(*sp->owned_env));
	if (!sp->envp || !sp->owned_env)
		return OWNERS_ENOMEM;
	for (i = 0; i < n_environ; i++) {
		shadowed = same_name(environ[i], EXEC_INFO_ENV);
		for (j = 0; !shadowed && j < e->n_env; j++)
			shadowed = same_name(environ[i], e->env_names[j]);
		if (!shadowed)
			sp->envp[n++] = environ[i];
	}
	for (i = 0; i <= e->n_env; i++) {
		const char *name = i < e->n_env ? e->env_names[i] : EXEC_INFO_ENV;
		const char *value = i < e->n_env ? e->env_values[i] : info;

		shadowed = !strcmp(name, EXEC_INFO_ENV) && i < e->n_env;
		for (j = i + 1; !shadowed && j < e->n_env; j++)
			shadowed = !strcmp(name, e->env_names[j]);
		if (shadowed)
			continue;
		owners_buf_reset(&entry);
		if (owners_buf_addf(&entry, "%s=%s", name, value))
			goto oom;
		sp->owned_env[sp->n_owned_env] = owners_buf_detach(&entry);
		if (!sp->owned_env[sp->n_owned_env])
			goto oom;
		sp->envp[n++] = sp->owned_env[sp->n_owned_env++];
	}
	owners_buf_clear(&entry);
	return 0;
oom:
	owners_buf_clear(&entry);
	return OWNERS_ENOMEM;
}

/* The PATH search of execvp, done before fork() with the parent's PATH
 * (as Go's exec.Command does), so the child only tries execve(). Empty
 * PATH entries (meaning the working directory) are skipped on purpose. */
static int build_paths(struct spawn *sp, const char *command)
{
	struct owners_buf b = OWNERS_BUF_INIT;
	const char *path = getenv("PATH"), *p, *colon;
	size_t n = 1;

	if (strchr(command, '/')) {
		sp->paths = calloc(1, sizeof(*sp->paths));
		if (!sp->paths || !(sp->paths[0] = owners_strdup(command)))
			return OWNERS_ENOMEM;
		sp->n_paths = 1;
		return 0;
	}
	if (!path)
		path = DEFAULT_PATH;
	for (p = path; *p; p++)
		n += *p == ':';
	sp->paths = calloc(n, sizeof(*sp->paths));
	if (!sp->paths)
		return OWNERS_ENOMEM;
	for (p = path;; p = colon + 1) {
		colon = strchr(p, ':');
		if (!colon)
			colon = p + strlen(p);
		if (colon > p) {
			owners_buf_reset(&b);
			if (owners_buf_add(&b, p, (size_t)(colon - p)) || owners_buf_addc(&b, '/') ||
			    owners_buf_adds(&b, command) ||
			    !(sp->paths[sp->n_paths] = owners_buf_detach(&b))) {
				owners_buf_clear(&b);
				return OWNERS_ENOMEM;
			}
			sp->n_paths++;
		}
		if (!*colon)
			break;
	}
	owners_buf_clear(&b);
	return 0;
}

/* Moves fd above the standard descriptors, close-on-exec, so dup2() onto
 * 0 and 1 in the child can never clobber one of our own pipes. */
static int fd_high(int fd)
{
	int high;

	if (fd < 0 || fd > 2)
		return fd;
	high = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	close(fd);
	return high;
}

static int make_pipe(int fds[2])
{
	if (pipe(fds))
		return -1;
	fds[0] = fd_high(fds[0]);
	fds[1] = fd_high(fds[1]);
	if (fds[0] < 0 || fds[1] < 0 || fcntl(fds[0], F_SETFD, FD_CLOEXEC) ||
	    fcntl(fds[1], F_SETFD, FD_CLOEXEC))
		return -1;
	return 0;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* Between fork() and exec: async-signal-safe calls only. */
static void __attribute__((noreturn)) run_child(const struct spawn *sp)
{
	struct sigaction dfl, old;
	sigset_t none;
	int sig, saved = ENOENT;
	size_t i;
	ssize_t w;

	/* Handlers of the parent must not run here; ignored SIGPIPE (libcurl
	 * users ignore it) must not leak into the plugin. exec resets caught
	 * signals itself, but a pending one would run first once unblocked. */
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	for (sig = 1; sig < NSIG; sig++) {
		if (sig == SIGKILL || sig == SIGSTOP || sigaction(sig, NULL, &old))
			continue;
		if (old.sa_handler != SIG_DFL && (old.sa_handler != SIG_IGN || sig == SIGPIPE))
			sigaction(sig, &dfl, NULL);
	}
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);

	if ((sp->stdin_fd >= 0 && dup2(sp->stdin_fd, 0) < 0) || dup2(sp->stdout_fd, 1) < 0) {
		saved = errno;
	} else {
		for (i = 0; i < sp->n_paths; i++) {
			execve(sp->paths[i], sp->argv, sp->envp);
			/* execvp's rules: keep looking past a missing or
			 * non-executable candidate, stop on anything else. */
			if (errno == EACCES)
				saved = EACCES;
			else if (errno != ENOENT && errno != ENOTDIR) {
				saved = errno;
				break;
			}
		}
	}
	do
		w = write(sp->status_fd, &saved, sizeof(saved));
	while (w < 0 && errno == EINTR);
	_exit(127);
}

static void kill_and_reap(pid_t pid)
{
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

/* 0 with *status, or 1 when the deadline (-1: none) passed first. */
static int reap(pid_t pid, int *status, int64_t deadline)
{
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	pid_t r;

	for (;;) {
		r = waitpid(pid, status, deadline < 0 ? 0 : WNOHANG);
		if (r == pid)
			return 0;
		if (r < 0 && errno != EINTR) {
			*status = 0; /* SIGCHLD ignored by the application: no status */
			return 0;
		}
		if (r == 0) {
			if (owners_clock_ms() >= deadline)
				return 1;
			nanosleep(&tick, NULL);
		}
	}
}

static int interactive_for(int *interactive, const struct owners_exec_config *e,
			   struct owners_error *err)
{
	const char *mode = e->interactive_mode ? e->interactive_mode : "IfAvailable";

	*interactive = 0;
	if (!strcmp(mode, "Never"))
		return 0;
	if (!strcmp(mode, "Always") && !isatty(0))
		return owners_error_set(err, OWNERS_EEXEC,
					"credential plugin '%s' needs a terminal (interactiveMode Always) but standard input is not one",
					e->command);
	*interactive = isatty(0);
	return 0;
}

/* poll() or read() on the plugin's output failed: errno says why. */
static int read_error(struct owners_error *err, const char *command)
{
	return owners_error_set(err, OWNERS_EEXEC, "cannot read from credential plugin '%s': %s",
				command, strerror(errno));
}

static int timeout_error(struct owners_error *err, const char *command, long ms)
{
	if (ms % 1000)
		return owners_error_set(err, OWNERS_EEXEC,
					"credential plugin '%s' did not finish within %ldms", command,
					ms);
	return owners_error_set(err, OWNERS_EEXEC,
				"credential plugin '%s' did not finish within %lds", command,
				ms / 1000);
}

/* A plugin once forked, as git's run-command keeps a child_process: its
 * pid until it is reaped (-1 after), the read ends of its stdout and of
 * the pipe it reports a failed execve() on, and the write ends until the
 * fork has given them to it. */
struct plugin {
	pid_t pid;
	int out_pipe[2];
	int status_pipe[2];
};

/* argv, envp (with KUBERNETES_EXEC_INFO = info) and the paths to try,
 * built before fork(): the child may not allocate. */
static int prepare_spawn(struct spawn *sp, const struct owners_exec_config *e, const char *info)
{
	size_t i;

	if (build_env(sp, e, info) || build_paths(sp, e->command))
		return OWNERS_ENOMEM;
	sp->argv = calloc(e->n_args + 2, sizeof(*sp->argv));
	if (!sp->argv)
		return OWNERS_ENOMEM;
	sp->argv[0] = e->command;
	for (i = 0; i < e->n_args; i++)
		sp->argv[i + 1] = e->args[i];
	return 0;
}

/* Forks the plugin with its stdin on /dev/null unless interactive; the
 * parent keeps only the read ends of the pipes. */
static int start_plugin(struct plugin *pl, struct spawn *sp, const char *command, int interactive,
			struct owners_error *err)
{
	sigset_t all, old;

	if (make_pipe(pl->out_pipe) || make_pipe(pl->status_pipe))
		return owners_error_set(err, OWNERS_EEXEC, "cannot run credential plugin '%s': %s",
					command, strerror(errno));
	if (!interactive) {
		sp->stdin_fd = fd_high(open("/dev/null", O_RDONLY | O_CLOEXEC));
		if (sp->stdin_fd < 0)
			return owners_error_set(
				err, OWNERS_EEXEC,
				"cannot run credential plugin '%s': cannot open /dev/null: %s",
				command, strerror(errno));
	}
	sp->stdout_fd = pl->out_pipe[1];
	sp->status_fd = pl->status_pipe[1];

	/* Blocked so that no handler of ours runs in the child. */
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, &old);
	pl->pid = fork();
	if (pl->pid == 0)
		run_child(sp);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (pl->pid < 0)
		return owners_error_set(err, OWNERS_EEXEC, "cannot run credential plugin '%s': %s",
					command, strerror(errno));
	close_fd(&pl->out_pipe[1]);
	close_fd(&pl->status_pipe[1]);
	close_fd(&sp->stdin_fd);
	return 0;
}

/* execve() failed with child_errno: ENOENT is a missing plugin, and its
 * installHint says how to get it. */
static int exec_error(struct owners_error *err, const struct owners_exec_config *e, int child_errno)
{
	int hint_len = e->install_hint ? (int)strlen(e->install_hint) : 0;

	if (child_errno != ENOENT)
		return owners_error_set(err, OWNERS_EEXEC, "cannot run credential plugin '%s': %s",
					e->command, strerror(child_errno));
	while (hint_len && strchr(" \t\r\n", e->install_hint[hint_len - 1]))
		hint_len--;
	if (hint_len)
		return owners_error_set(err, OWNERS_EEXEC, "credential plugin '%s' not found: %.*s",
					e->command, hint_len, e->install_hint);
	return owners_error_set(err, OWNERS_EEXEC, "credential plugin '%s' not found", e->command);
}

/* 0 once the plugin runs, or the error of an execve() that failed (the
 * child, which then exits at once, is reaped). */
static int check_exec(struct plugin *pl, const struct owners_exec_config *e,
		      struct owners_error *err)
{
	int child_errno, status;
	ssize_t n;

	/* EOF here means execve() succeeded (the pipe is close-on-exec). */
	do
		n = read(pl->status_pipe[0], &child_errno, sizeof(child_errno));
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)sizeof(child_errno))
		return 0;
	reap(pl->pid, &status, -1);
	pl->pid = -1;
	return exec_error(err, e, child_errno);
}

/* The plugin's stdout into out until EOF: at most OUTPUT_LIMIT bytes,
 * before the deadline (-1: none). */
static int read_output(struct owners_buf *out, int fd, int64_t deadline, long timeout,
		       const char *command, struct owners_error *err)
{
	struct pollfd pfd;
	size_t room;
	ssize_t n;

	for (;;) {
		pfd.fd = fd;
		pfd.events = POLLIN;
		pfd.revents = 0;
		n = poll(&pfd, 1,
			 deadline < 0 ? -1 : (int)(deadline > owners_clock_ms() ? deadline - owners_clock_ms() : 0));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return read_error(err, command);
		if (n == 0)
			return timeout_error(err, command, timeout);
		if (owners_buf_grow(out, 64 * 1024))
			return owners_error_oom(err);
		room = out->cap - out->len - 1;
		/* One byte past the limit is enough to know it was crossed. */
		if (room > OUTPUT_LIMIT + 1 - out->len)
			room = OUTPUT_LIMIT + 1 - out->len;
		n = read(fd, out->ptr + out->len, room);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n < 0)
			return read_error(err, command);
		if (n == 0)
			return 0;
		out->len += (size_t)n;
		out->ptr[out->len] = '\0';
		if (out->len > OUTPUT_LIMIT)
			return owners_error_set(err, OWNERS_EEXEC,
						"credential plugin '%s' wrote more than 1 MiB",
						command);
	}
}

/* Waits for the plugin (until the deadline: past it, the caller kills it)
 * and checks how it ended. */
static int finish_plugin(struct plugin *pl, int64_t deadline, long timeout, const char *command,
			 struct owners_error *err)
{
	int status = 0;

	if (reap(pl->pid, &status, deadline))
		return timeout_error(err, command, timeout);
	pl->pid = -1;
	if (WIFSIGNALED(status))
		return owners_error_set(err, OWNERS_EEXEC,
					"credential plugin '%s' was killed by signal %d", command,
					WTERMSIG(status));
	if (WIFEXITED(status) && WEXITSTATUS(status))
		return owners_error_set(err, OWNERS_EEXEC,
					"credential plugin '%s' exited with status %d", command,
					WEXITSTATUS(status));
	return 0;
}

/* Runs the plugin and collects its stdout into out (at most 1 MiB). */
static int run_plugin(struct owners_buf *out, const struct owners_rest_config *cfg,
		      struct owners_error *err)
{
	const struct owners_exec_config *e = cfg->exec;
	struct owners_buf info = OWNERS_BUF_INIT;
	struct spawn sp = { 0 };
	struct plugin pl = { -1, { -1, -1 }, { -1, -1 } };
	long timeout = e->timeout_ms > 0 ? e->timeout_ms : DEFAULT_TIMEOUT_MS;
	int64_t deadline;
	int interactive, rc;

	sp.stdin_fd = -1;
	if ((rc = interactive_for(&interactive, e, err)))
		goto out;
	/* A plugin waiting for a human gets no deadline. */
	deadline = interactive ? -1 : owners_clock_ms() + timeout;
	if (exec_info(&info, cfg, interactive) || prepare_spawn(&sp, e, info.ptr)) {
		rc = owners_error_oom(err);
		goto out;
	}
	if (!(rc = start_plugin(&pl, &sp, e->command, interactive, err)) &&
	    !(rc = check_exec(&pl, e, err)) &&
	    !(rc = read_output(out, pl.out_pipe[0], deadline, timeout, e->command, err)))
		rc = finish_plugin(&pl, deadline, timeout, e->command, err);
out:
	if (pl.pid > 0)
		kill_and_reap(pl.pid);
	close_fd(&pl.out_pipe[0]);
	close_fd(&pl.out_pipe[1]);
	close_fd(&pl.status_pipe[0]);
	close_fd(&pl.status_pipe[1]);
	close_fd(&sp.stdin_fd);
	spawn_clear(&sp);
	owners_wipe(info.ptr, info.len);
	owners_buf_clear(&info);
	return rc;
}

int owners_exec_credential_refresh(struct owners_rest_config *cfg, int64_t now, int force,
				   struct owners_error *err)
{
	struct owners_rest_config_exec_credential *cred = &cfg->exec_cred;
	struct owners_buf output = OWNERS_BUF_INIT;
	int rc;

	if (!cfg->exec)
		return owners_error_set(err, OWNERS_ECONFIG, "no credential plugin configured");
	if (!force && cred->valid &&
	    (cred->expires_at == 0 || now < cred->expires_at - EXPIRY_SLACK_SECONDS))
		return 0;
	/* Expired or refused by the server: never to be sent again. */
	owners_rest_config_exec_credential_clear(cred);
	rc = run_plugin(&output, cfg, err);
	if (!rc) {
		rc = owners_exec_credential_parse(cred, output.ptr, output.len,
						  cfg->exec->api_version, err);
		if (rc)
			owners_error_prefix(err, "credential plugin '%s'", cfg->exec->command);
	}
	if (output.cap)
		owners_wipe(output.ptr, output.cap);
	owners_buf_clear(&output);
	return rc;
}
