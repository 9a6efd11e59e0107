/*
 * owners __complete WORD...: the completion engine every shell script and
 * kubectl's plugin completion (kubectl_complete-owners) ask. The words are
 * what follows the program's name on the command line, the last one being
 * the word under the cursor ("" for a new word). It prints the candidates,
 * one per line ("candidate<TAB>description" where there is one), then a
 * line ":N" with cobra's directive bits, which is what kubectl expects from
 * a plugin: 2 no space after the candidate, 4 no file names.
 *
 * Knowing the command line (which command, which flags take a value, which
 * words are positional) lives here once, read from the same option tables
 * as --help, instead of in three shell languages.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "kubeconfig.h"
#include "output.h"
#include "session_connect.h"
#include "session_discover.h"
#include "session_scan.h"
#include "sink.h"
#include "strv.h"

enum { DIRECTIVE_NO_SPACE = 2, DIRECTIVE_NO_FILES = 4 };

struct line {
	const struct command *cmd;
	const char **positional; /* after the command, flags and their values left out */
	size_t n_positional;
	const char **cluster;    /* the words that choose the cluster, for asking it */
	size_t n_cluster;
	const struct opt *value_of; /* the word under the cursor is this flag's value */
};

static int is_cluster_flag(const struct opt *o)
{
	static const char *const names[] = { "kubeconfig", "context", "cluster", "user", "namespace",
					     "server", "token", "as", "as-group", "certificate-authority",
					     "insecure-skip-tls-verify", "tls-server-name", "cache-dir",
					     "request-timeout", "from", NULL };
	size_t i;

	for (i = 0; names[i]; i++)
		if (!strcmp(o->long_name, names[i]))
			return 1;
	return 0;
}

/* Reads the words before the cursor: the command, its positional words,
 * the flags that choose the cluster, and whether the cursor is on a flag's
 * value. 0, or -1 when out of memory. */
static int read_line(struct line *l, char **words, int n)
{
	const struct opt *tables[3] = { owners_global_opts, NULL, NULL };
	const struct command *sub;
	int i;

	memset(l, 0, sizeof(*l));
	l->positional = calloc((size_t)n + 1, sizeof(*l->positional));
	l->cluster = calloc((size_t)n + 1, sizeof(*l->cluster));
	if (!l->positional || !l->cluster)
		return -1;
	for (i = 0; i < n - 1; i++) {
		const char *w = words[i];
		const struct opt *o = owners_opt_find_word(tables, w);

		if (w[0] == '-' && w[1]) {
			int next = owners_opt_value_follows(o, w);

			/* (not one whose value is the word being completed) */
			if (o && is_cluster_flag(o) && !(next && i + 1 == n - 1)) {
				l->cluster[l->n_cluster++] = w;
				if (next)
					l->cluster[l->n_cluster++] = words[i + 1];
			}
			if (next && i + 1 == n - 1)
				l->value_of = o; /* the cursor is on its value */
			if (next)
				i++;
			continue;
		}
		if (!l->cmd) {
			l->cmd = owners_command_find(w);
			if (l->cmd && l->cmd->hidden)
				l->cmd = NULL;
			tables[1] = l->cmd ? l->cmd->opts : NULL;
			if (!l->cmd)
				return 0; /* an unknown command: nothing to offer */
			continue;
		}
		if (!l->n_positional && (sub = owners_subcommand_find(l->cmd, w))) {
			/* `finalizers remove`: its own flags from here on */
			l->cmd = sub;
			tables[1] = sub->opts;
			continue;
		}
		l->positional[l->n_positional++] = w;
	}
	return 0;
}

static void put(const char *candidate, const char *description)
{
	if (description && *description)
		sink_printf("%s\t%s\n", candidate, description);
	else
		sink_printf("%s\n", candidate);
}

/* Candidates that start with prefix only: the shells filter too, but
 * kubectl passes everything through. */
static int starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* A flag, with the phrase its row gives completion (cli/options.h). */
static void put_flag(const char *spelling, const struct opt *o, const char *cur)
{
	if (starts(spelling, cur))
		put(spelling, o->summary ? o->summary : o->help);
}

static int complete_flags(const struct line *l, const char *cur)
{
	/* before the command: the root's own flags (--version) and the global ones */
	const struct opt *tables[3] = { l->cmd ? l->cmd->opts : owners_root_opts, owners_global_opts, NULL };
	char spelling[64];
	size_t t;
	const struct opt *o;
	int directive = DIRECTIVE_NO_FILES;

	for (t = 0; tables[t]; t++)
		for (o = tables[t]; o->long_name; o++) {
			if (o->hidden)
				continue;
			snprintf(spelling, sizeof(spelling), "--%s", o->long_name);
			put_flag(spelling, o, cur);
			if (o->short_name && cur[1] != '-') {
				snprintf(spelling, sizeof(spelling), "-%c", o->short_name);
				put_flag(spelling, o, cur);
			}
		}
	return directive;
}

/* The words that choose the cluster are global flags: no command's. */
static const struct opt_command cluster_only = { no_opts, NULL, NULL, NULL };

/* A session for the words that choose the cluster; stderr is closed by
 * the caller, so nothing of a failure reaches the command line. */
static int open_session(struct session **s, struct owners_cli *cli, struct string_list *rest,
			const struct line *l)
{
	owners_cli_defaults(cli);
	memset(rest, 0, sizeof(*rest));
	if (owners_cli_parse(cli, &cluster_only, (int)l->n_cluster, (char **)l->cluster, rest) ||
	    !(*s = session_new()))
		return -1;
	return session_open(*s, cli) ? -1 : 0; /* session_close() cleans up either way */
}

static int print_prefixed(void *ctx, const struct owners_resource *r, const struct owners_object_meta *m)
{
	const char *const *pre = ctx;

	(void)r;
	if (starts(m->name, pre[1]))
		sink_printf("%s%s\n", pre[0], m->name);
	return 0;
}

/* Object names of type `typed` ("deployments", "deploy"), each written
 * after prefix ("deployments/" or ""), those starting with cur. */
static void complete_names(struct session *s, const char *typed, const char *prefix, const char *cur)
{
	const struct owners_resource *r = NULL;
	struct owners_scan_report report;
	const char *pre[2] = { prefix, cur };
	struct session_list l = { NULL, NULL, NULL, NULL, NULL };

	if (session_resolve_type(s, typed, &r))
		return;
	l.type = r;
	l.ns = r->namespaced ? session_namespace(s) : NULL;
	l.on_object = print_prefixed;
	l.ctx = (void *)pre;
	if (!session_list_type(s, &l, &report))
		owners_scan_report_clear(&report);
}

static void complete_types(struct session *s, const char *cur)
{
	size_t i;

	for (i = 0; i < session_types(s)->count; i++) {
		const struct owners_resource *r = &session_types(s)->items[i];

		if (r->preferred && (r->verbs & OWNERS_VERB_LIST) && starts(r->resource, cur))
			sink_printf("%s/\n", r->resource);
	}
}

static int complete_value(const struct line *l, const struct opt *o, const char *prefix,
			  const char *cur, struct session *s, int have_session)
{
	if (o->complete == COMPLETE_FILE)
		return 0; /* the shell's own file names */
	const char *const *values = owners_opt_values(o, l->cmd ? l->cmd->outputs : NULL);

	if (o->complete == COMPLETE_VALUES && values) {
		const char *const *v;
		int no_space = 0;

		for (v = values; *v; v++)
			if (starts(*v, cur)) {
				sink_printf("%s%s\n", prefix, *v);
				/* jsonpath=: the template follows, no space */
				no_space |= (*v)[strlen(*v) - 1] == '=';
			}
		return DIRECTIVE_NO_FILES | (no_space ? DIRECTIVE_NO_SPACE : 0);
	} else if (o->complete == COMPLETE_CONTEXT) {
		struct owners_kubeconfig_overrides ov;
		struct owners_kubeconfig_env env;
		struct owners_cli cli;
		struct string_list rest;
		char **names = NULL, **n;

		owners_cli_defaults(&cli);
		memset(&rest, 0, sizeof(rest));
		memset(&ov, 0, sizeof(ov));
		if (!owners_cli_parse(&cli, &cluster_only, (int)l->n_cluster, (char **)l->cluster, &rest))
			ov.kubeconfig = cli.kubeconfig;
		ov.insecure_skip_tls_verify = -1;
		owners_kubeconfig_env_from_process(&env);
		if (!owners_kubeconfig_contexts(&names, &ov, &env, NULL))
			for (n = names; n && *n; n++)
				if (starts(*n, cur))
					sink_printf("%s%s\n", prefix, *n);
		owners_strv_free_terminated(names);
		owners_cli_clear(&cli, &rest);
	} else if (o->complete == COMPLETE_NAMESPACE && have_session) {
		complete_names(s, "namespaces", prefix, cur);
	}
	return DIRECTIVE_NO_FILES;
}

/* The positional words of the commands that name objects: TYPE/NAME,
 * TYPE NAME..., or a TYPE alone. */
static int complete_objects(const struct line *l, const char *cur, struct session *s)
{
	const char *const *pos = l->positional;
	size_t n = l->n_positional;
	const char *slash = strchr(cur, '/');

	if (n && !strchr(pos[0], '/')) {
		/* TYPE NAME...: the first word was the type */
		complete_names(s, pos[0], "", cur);
		return DIRECTIVE_NO_FILES;
	}
	if (slash) {
		/* TYPE/NA: names of TYPE, written as TYPE/NAME */
		char type[256], prefix[258];
		size_t len = (size_t)(slash - cur);

		if (len < sizeof(type)) {
			memcpy(type, cur, len);
			type[len] = '\0';
			snprintf(prefix, sizeof(prefix), "%s/", type);
			complete_names(s, type, prefix, slash + 1);
		}
		return DIRECTIVE_NO_FILES;
	}
	complete_types(s, cur);
	return DIRECTIVE_NO_FILES | DIRECTIVE_NO_SPACE;
}

enum exit_code owners_complete_words(int n, char **words)
{
	struct line l;
	struct session *s = NULL;
	struct owners_cli cli;
	struct string_list rest;
	const char *cur = n > 0 ? words[n - 1] : "";
	int directive = DIRECTIVE_NO_FILES, have_session = 0;
	size_t i;

	fclose(stderr); /* nothing may reach the terminal while completing */
	if (n < 1 || read_line(&l, words, n)) {
		sink_printf(":%d\n", directive);
		return EXIT_OK;
	}
	memset(&rest, 0, sizeof(rest));
	owners_cli_defaults(&cli);
	if (l.value_of) {
		if (l.value_of->complete == COMPLETE_NAMESPACE)
			have_session = !open_session(&s, &cli, &rest, &l);
		directive = complete_value(&l, l.value_of, "", cur, s, have_session);
	} else if (cur[0] == '-' && cur[1] == '-' && strchr(cur, '=')) {
		/* --flag=VALUE in one word */
		const struct opt *tables[3] = { l.cmd ? l.cmd->opts : NULL, owners_global_opts, NULL };
		const struct opt *o = owners_opt_find_word(l.cmd ? tables : tables + 1, cur);
		char prefix[64];
		size_t len = (size_t)(strchr(cur, '=') - cur) + 1;

		if (o && len < sizeof(prefix)) {
			memcpy(prefix, cur, len);
			prefix[len] = '\0';
			if (o->complete == COMPLETE_NAMESPACE)
				have_session = !open_session(&s, &cli, &rest, &l);
			directive = complete_value(&l, o, prefix, cur + len, s, have_session);
		}
	} else if (cur[0] == '-') {
		directive = complete_flags(&l, cur);
	} else if (!l.cmd) {
		const struct command *c;

		for (i = 0; (c = owners_command_at(i)); i++)
			if (!c->hidden && starts(c->name, cur))
				put(c->name, c->summary);
	} else if (l.cmd->args == CMD_ARGS_SHELL) {
		static const char *const shells[] = { "bash", "zsh", "fish", NULL };

		for (i = 0; !l.n_positional && shells[i]; i++)
			if (starts(shells[i], cur))
				put(shells[i], NULL);
	} else if (l.cmd->args == CMD_ARGS_COMMAND) {
		const struct command *c;

		for (i = 0; !l.n_positional && (c = owners_command_at(i)); i++)
			if (!c->hidden && starts(c->name, cur))
				put(c->name, c->summary);
	} else if (l.cmd->args == CMD_ARGS_OBJECTS || l.cmd->args == CMD_ARGS_OBJECTS_OPTIONAL) {
		const struct command *const *sub;

		/* a subcommand (finalizers remove), whether or not a cluster answers */
		for (sub = l.cmd->subcommands; !l.n_positional && sub && *sub; sub++)
			if (starts((*sub)->name, cur))
				put((*sub)->name, (*sub)->summary);
		have_session = !open_session(&s, &cli, &rest, &l);
		if (have_session)
			directive = complete_objects(&l, cur, s);
	}
	sink_printf(":%d\n", directive);
	session_close(s);
	owners_cli_clear(&cli, &rest);
	free(l.positional);
	free(l.cluster);
	return EXIT_OK;
}
