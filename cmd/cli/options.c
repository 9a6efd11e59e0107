#include "options.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command_line.h"
#include "duration.h"
#include "grow.h"
#include "output.h"
#include "scan.h"
#include "sink.h"

static const char *const color_values[] = { "auto", "always", "never", NULL };

#define OPT_STRUCT struct owners_cli
const struct opt owners_global_opts[] = {
	OPT_STRING_COMPLETE(
		"kubeconfig", 0, kubeconfig, "FILE", COMPLETE_FILE, NULL,
		"path to the kubeconfig file (default: $KUBECONFIG, then ~/.kube/config)"),
	OPT_STRING_COMPLETE("context", 0, context, "NAME", COMPLETE_CONTEXT, NULL,
			    "the kubeconfig context to use"),
	OPT_STRING_COMPLETE("cluster", 0, cluster, "NAME", COMPLETE_CLUSTER, NULL,
			    "the kubeconfig cluster to use"),
	OPT_STRING_COMPLETE("user", 0, user, "NAME", COMPLETE_USER, NULL,
			    "the kubeconfig user to use"),
	OPT_STRING_COMPLETE("namespace", 'n', namespace_, "NAME", COMPLETE_NAMESPACE, NULL,
			    "the namespace (default: the context's namespace)"),
	OPT_BOOL("all-namespaces", 'A', all_namespaces, "work across all namespaces",
		 "work across all namespaces (tree, delete, finalizers with a named object: seek "
		 "its dependents in every namespace)"),
	OPT_STRING("as", 0, as, "USER", NULL, "impersonate this user"),
	OPT_LIST("as-group", 0, as_groups, "GROUP", NULL, "impersonate this group (repeatable)"),
	OPT_DURATION_OR_SECONDS(
		"request-timeout", request_timeout_ms,
		"time limit of one request, its retries included, e.g. 30s, 1m or 30",
		"time limit of one request, its retries included, e.g. 30s, 1m or 30 (seconds) (0: "
		"none; then an attempt with nothing from the server for 30s is sent again on a new "
		"connection, and a "
		"server that never answers is given up after 45s)"),
	OPT_STRING("server", 's', server, "URL", NULL, "the API server address"),
	OPT_STRING("token", 0, token, "TOKEN", NULL, "bearer token for the API server"),
	OPT_STRING_COMPLETE("certificate-authority", 0, certificate_authority, "FILE",
			    COMPLETE_FILE, NULL, "CA certificate file to verify the server with"),
	OPT_BOOL("insecure-skip-tls-verify", 0, insecure_skip_tls_verify, NULL,
		 "do not verify the server's certificate (insecure)"),
	OPT_STRING("tls-server-name", 0, tls_server_name, "NAME", NULL,
		   "server name to verify the certificate against"),
	OPT_INT("v", 'v', verbosity, "N", 0, 10, "log level: 6 logs requests, 8 adds bodies",
		"log level: 6 logs requests, 8 adds bodies (credentials are always redacted)"),
	OPT_DOUBLE(
		"qps", qps, "N", "client-side request rate limit",
		"client-side request rate limit (default: none once the server shows API Priority "
		"and Fairness, else 50; 0: none)"),
	OPT_INT("burst", 0, burst, "N", 1, LONG_MAX, NULL,
		"requests allowed above --qps in a burst (default 100)"),
	OPT_CHOICE("color", 0, color, "WHEN", color_values, NULL,
		   "colour output: auto, always or never"),
	OPT_STRING_COMPLETE("cache-dir", 0, cache_dir, "DIR", COMPLETE_FILE, NULL,
			    "discovery cache directory (default ~/.cache/owners)"),
	OPT_INT("chunk-size", 0, chunk_size, "N", 1, LONG_MAX,
		"objects per page when listing, every page",
		"objects per page when listing, every page (default: 500 for a list's first page, "
		"then 4 times more per page up to 5000, so long lists take fewer round trips)"),
	OPT_STRING_COMPLETE(
		"from", 0, from, "FILE|DIR", COMPLETE_FILE,
		"read a snapshot (owners snapshot) or another tool's dump",
		"read a snapshot (owners snapshot) or another tool's dump (a directory, or a .tar, "
		".tar.gz or .tgz of one) instead of the cluster; commands that change the cluster "
		"refuse it"),
	OPT_STRING("from-time", 0, from_time, "TIME", "with --from: the time the answer is about",
		   "with --from: the time the answer is about (RFC 3339, e.g. "
		   "2026-11-28T10:00:00Z), instead "
		   "of the snapshot's own or the time a dump's files say (lost by a copy)"),
	OPT_BOOL("help", 'h', help, NULL, "show this help"),
	OPT_END,
};
#undef OPT_STRUCT

void owners_cli_defaults(struct owners_cli *cli)
{
	memset(cli, 0, sizeof(*cli));
	/* -1: not given. A scan issues one list per type (hundreds with many
	 * CRDs) and a cascade one request per object, so a fixed client-side
	 * limit would dominate both; servers with API Priority and Fairness
	 * (every supported Kubernetes) protect themselves, so the limit is
	 * lifted once the server shows it, as controller-runtime and Flux do.
	 * Until then, and against servers without it: 50 QPS, burst 100. */
	cli->qps = -1;
	cli->burst = -1;
	cli->chunk_size = 0; /* not given: pages grow (owners_list_page_limit) */
	cli->insecure_skip_tls_verify = -1;
	cli->program = OWNERS_PROGRAM;
	cli->color = "auto";
	cli->output.allow_missing_keys = 1;
}

const struct opt *owners_opt_find_long(const struct opt *const tables[], const char *name, size_t len)
{
	size_t t;
	const struct opt *o;

	for (t = 0; tables[t]; t++)
		for (o = tables[t]; o->long_name; o++)
			if (strlen(o->long_name) == len && !strncmp(o->long_name, name, len))
				return o;
	return NULL;
}

const struct opt *owners_opt_find_short(const struct opt *const tables[], char c)
{
	size_t t;
	const struct opt *o;

	for (t = 0; tables[t]; t++)
		for (o = tables[t]; o->long_name; o++)
			if (o->short_name == c)
				return o;
	return NULL;
}

const struct opt *owners_opt_find_word(const struct opt *const tables[], const char *word)
{
	if (word[0] != '-' || !word[1])
		return NULL;
	if (word[1] != '-')
		return owners_opt_find_short(tables, word[1]);
	return owners_opt_find_long(tables, word + 2, strcspn(word + 2, "="));
}

int owners_opt_value_follows(const struct opt *o, const char *word)
{
	if (!o || o->type == OPTION_BOOL || o->value_optional)
		return 0;
	if (word[1] == '-')
		return !strchr(word, '=');
	return !word[2];
}

/* A duration flag into milliseconds: Go's grammar (kubectl's), never
 * negative; a row that takes plain seconds too (--request-timeout, as
 * kubectl's) reads a bare whole number as seconds. A nonzero duration
 * below a millisecond is one, not 0, which means no limit. 0, or -1 after
 * saying what is wrong. */
static enum exit_code set_duration(const struct opt *o, long *field, const char *value, const char *spelled)
{
	const char *why = NULL, *p;
	int64_t ns = 0;

	for (p = value; o->plain_seconds && *p >= '0' && *p <= '9'; p++)
		;
	if (o->plain_seconds && *value && !*p && p - value <= 12) {
		*field = atol(value) * 1000;
		return 0;
	}
	if (owners_duration_parse(&ns, value, &why)) {
		error_msg("invalid value '%s' for %s: %s; want a duration with its unit (ns, us, ms, s, m, h), "
			  "e.g. 30s, 1m30s, 1.5h, 500ms; 0 alone needs none%s",
			  value, spelled, why, o->plain_seconds ? "; or whole seconds" : "");
		return EXIT_USAGE;
	}
	if (ns < 0) {
		error_msg("invalid value '%s' for %s: a duration must not be negative", value, spelled);
		return EXIT_USAGE;
	}
	*field = (long)(ns / 1000000 + (ns % 1000000 != 0));
	return 0;
}

const char *owners_opt_range(const struct opt *o, char *buf, size_t n)
{
	if (o->type != OPTION_INT || (!o->min && !o->max))
		snprintf(buf, n, "%s", "");
	else if (o->max == LONG_MAX)
		snprintf(buf, n, "%ld or more", o->min);
	else
		snprintf(buf, n, "%ld to %ld", o->min, o->max);
	return buf;
}

int owners_opt_values_words(struct owners_buf *out, const char *const *values)
{
	size_t i, n = 0;
	int rc = 0;

	while (values[n])
		n++;
	for (i = 0; !rc && i < n; i++)
		rc = owners_buf_addf(out, "%s%s", i == 0 ? "" : i + 1 == n ? " or " : ", ", values[i]);
	return rc;
}

/* "invalid value 'x' for --flag: want a, b or c"; returns EXIT_USAGE. */
static enum exit_code invalid_value(const char *value, const char *spelled, const char *const *values)
{
	struct owners_buf words = OWNERS_BUF_INIT;

	if (owners_opt_values_words(&words, values))
		error_oom();
	else
		error_msg("invalid value '%s' for %s: want %s", value, spelled, words.ptr);
	owners_buf_clear(&words);
	return EXIT_USAGE;
}

/* Which of the row's values value is ("x=" takes any "x=..."): its
 * index, or -1. */
static long value_index(const char *const *values, const char *value)
{
	long i;

	for (i = 0; values[i]; i++) {
		const char *v = values[i];
		size_t len = strlen(v);

		if (!strcmp(v, value) || (v[len - 1] == '=' && !strncmp(v, value, len) && value[len]))
			return i;
	}
	return -1;
}

static enum exit_code set_number(const struct opt *o, void *field, const char *value, const char *spelled)
{
	char *end;

	errno = 0;
	if (o->type == OPTION_DOUBLE) {
		double v = strtod(value, &end);

		/* one line that gives the range, whatever is wrong: not a
		 * number, below 0, or no number at all (nan, inf) */
		if (end == value || *end || errno || !(v >= 0) || v > 1e9) {
			error_msg("invalid value '%s' for %s: want a number from 0 to 1e9 (e.g. 50 or "
				  "2.5)",
				  value, spelled);
			return EXIT_USAGE;
		}
		*(double *)field = v;
		return 0;
	}
	long v = strtol(value, &end, 10);

	if (end == value || *end || errno) {
		error_msg("invalid value '%s' for %s: want a whole number", value, spelled);
		return EXIT_USAGE;
	}
	if ((o->min || o->max) && (v < o->min || v > o->max)) {
		char range[64];

		error_msg("invalid value '%s' for %s: want %s", value, spelled,
			  owners_opt_range(o, range, sizeof(range)));
		return EXIT_USAGE;
	}
	*(long *)field = v;
	return 0;
}

/* Stores the value (NULL: a flag given alone) into the row's field, in
 * base: EXIT_OK; EXIT_USAGE after saying what is wrong with it;
 * EXIT_ERROR out of memory. */
static enum exit_code set_value(void *base, const struct opt *o, const char *value, const char *spelled,
		     const struct opt_command *cmd)
{
	void *field = (char *)base + o->offset;

	if (o->type == OPTION_CALLBACK)
		return o->parse(field, value, o, spelled);
	if (o->type == OPTION_OUTPUT)
		return owners_opt_output(field, value, cmd, spelled);
	if (o->values && value && value_index(o->values, value) < 0)
		return invalid_value(value, spelled, o->values);
	switch (o->type) {
	case OPTION_BOOL:
		if (!value || !strcmp(value, "true"))
			*(int *)field = 1;
		else if (!strcmp(value, "false"))
			*(int *)field = 0;
		else {
			error_msg("invalid value '%s' for %s: want true or false", value, spelled);
			return EXIT_USAGE;
		}
		return 0;
	case OPTION_STRING:
		*(const char **)field = value;
		return 0;
	case OPTION_LIST: {
		struct string_list *l = field;

		if (OWNERS_GROW(l->items, l->cap, l->count + 1))
			return error_oom(); /* EXIT_ERROR, not a usage error */
		l->items[l->count++] = value;
		return 0;
	}
	case OPTION_INT:
	case OPTION_DOUBLE:
		return set_number(o, field, value, spelled);
	case OPTION_DURATION:
		return set_duration(o, field, value, spelled);
	case OPTION_ENUM:
		/* an enum the size of an int (OPT_ENUM checks), which may be
		 * read as one */
		*(int *)field = o->enum_values[value_index(o->values, value)];
		return 0;
	case OPTION_CALLBACK:
	case OPTION_OUTPUT:
		break;
	}
	return EXIT_USAGE;
}

/* Where a row's field is: the global table's and the shared rows' in
 * cli, a command's own in its struct. */
static void *field_base(struct owners_cli *cli, const struct opt *o, const struct opt_command *cmd)
{
	const struct opt *g;

	for (g = owners_global_opts; g->long_name; g++)
		if (g == o)
			return cli;
	return o->in_cli ? (void *)cli : cmd->own;
}

enum exit_code owners_cli_parse(struct owners_cli *cli, const struct opt_command *cmd, int argc,
				char **argv, struct string_list *args)
{
	const struct opt *const tables[] = { owners_global_opts, cmd->table, NULL };
	int i, only_args = 0;

	args->items = calloc((size_t)argc + 1, sizeof(*args->items));
	args->count = 0;
	args->cap = 0;
	if (!args->items)
		return error_oom();
	args->cap = (size_t)argc + 1;
	for (i = 0; i < argc; i++) {
		const char *a = argv[i], *value = NULL;
		const struct opt *o;
		char spelled[128];

		if (only_args || a[0] != '-' || !a[1]) {
			args->items[args->count++] = a;
			continue;
		}
		if (!strcmp(a, "--")) {
			only_args = 1;
			continue;
		}
		if (a[1] == '-' || (a[1] == 'v' && a[2] == '=')) {
			/* --name, --name=value; -v=N is kubectl's own spelling */
			const char *name = a[1] == '-' ? a + 2 : a + 1;
			const char *eq = strchr(name, '=');
			size_t len = eq ? (size_t)(eq - name) : strlen(name);

			o = owners_opt_find_long(tables, name, len);
			snprintf(spelled, sizeof(spelled), "--%.*s", (int)len, name);
			if (!o) {
				error_msg("unknown flag: %s", spelled);
				return EXIT_USAGE;
			}
			if (eq)
				value = eq + 1;
		} else {
			o = owners_opt_find_short(tables, a[1]);
			snprintf(spelled, sizeof(spelled), "-%c", a[1]);
			if (!o) {
				error_msg("unknown shorthand flag: '%c' in %s", a[1], a);
				return EXIT_USAGE;
			}
			if (a[2])
				value = a[2] == '=' ? a + 3 : a + 2;
			if (o->type == OPTION_BOOL && a[2] && a[2] != '=') {
				error_msg("unknown flag: %s", a);
				return EXIT_USAGE;
			}
		}
		if (o->type != OPTION_BOOL && !o->value_optional && !value) {
			if (i + 1 >= argc) {
				error_msg("flag needs an argument: %s", spelled);
				return EXIT_USAGE;
			}
			value = argv[++i];
		}
		enum exit_code rc = set_value(field_base(cli, o, cmd), o, value, spelled, cmd);

		if (rc)
			return rc;
	}
	return 0;
}

const char *const owners_dry_run_values[] = { "none", "client", "server", NULL };
const char *const owners_cascade_values[] = { "background", "foreground", "orphan", NULL };

enum exit_code owners_opt_dry_run(void *field, const char *value, const struct opt *o, const char *spelled)
{
	enum owners_dry_run *mode = field;

	if (!value) {
		warning_msg("%s is deprecated and can be replaced with %s=client", spelled, spelled);
		*mode = OWNERS_DRY_RUN_CLIENT;
		return 0;
	}
	if (!strcmp(value, "true") || !strcmp(value, "false")) {
		*mode = *value == 't' ? OWNERS_DRY_RUN_CLIENT : OWNERS_DRY_RUN_NONE;
		warning_msg("%s=%s is deprecated (boolean value) and can be replaced with %s=%s", spelled,
			    value, spelled, owners_dry_run_name(*mode));
		return 0;
	}
	return owners_dry_run_parse(value, mode) ? invalid_value(value, spelled, o->values) : 0;
}

enum exit_code owners_opt_cascade(void *field, const char *value, const struct opt *o, const char *spelled)
{
	enum owners_cascade_mode *mode = field;

	if (!value) {
		*mode = OWNERS_CASCADE_BACKGROUND;
		return 0;
	}
	if (!strcmp(value, "true") || !strcmp(value, "false")) {
		*mode = *value == 't' ? OWNERS_CASCADE_BACKGROUND : OWNERS_CASCADE_ORPHAN;
		warning_msg("%s=%s is deprecated (boolean value) and can be replaced with %s=%s", spelled,
			    value, spelled, owners_cascade_mode_name(*mode));
		return 0;
	}
	return owners_cascade_mode_parse(value, mode) ? invalid_value(value, spelled, o->values) : 0;
}

const char *const *owners_opt_values(const struct opt *o, const char *const *outputs)
{
	return o->type == OPTION_OUTPUT ? outputs : o->values;
}

enum exit_code owners_opt_output(struct output_format *f, const char *value, const struct opt_command *cmd,
		      const char *spelled)
{
	static const struct {
		const char *name;
		enum output_kind kind;
	} kinds[] = {
		{ "wide", OUTPUT_WIDE },
		{ "json", OUTPUT_JSON },
		{ "yaml", OUTPUT_YAML },
		{ "name", OUTPUT_NAME },
		{ "dot", OUTPUT_DOT },
		{ "jsonpath=", OUTPUT_JSONPATH },
		{ "custom-columns=", OUTPUT_CUSTOM_COLUMNS },
	};
	size_t i, n = sizeof(kinds) / sizeof(kinds[0]);

	if (value_index(cmd->outputs, value) < 0)
		return invalid_value(value, spelled, cmd->outputs);
	f->spelled = value;
	f->kind = OUTPUT_TEXT;
	f->template_ = NULL;
	/* the default (tree, table, text, summary) is the command's own text */
	if (cmd->output_default && !strcmp(value, cmd->output_default))
		n = 0;
	for (i = 0; i < n; i++) {
		size_t len = strlen(kinds[i].name);

		if (kinds[i].name[len - 1] == '=' ? !strncmp(value, kinds[i].name, len)
						  : !strcmp(value, kinds[i].name)) {
			f->kind = kinds[i].kind;
			f->template_ = kinds[i].name[len - 1] == '=' ? value + len : NULL;
		}
	}
	/* as kubectl says it, before anything is read */
	if (f->template_ && !*f->template_) {
		error_msg(f->kind == OUTPUT_CUSTOM_COLUMNS ? "custom-columns format specified but no custom columns given"
							   : "template format specified but no template given");
		return EXIT_USAGE;
	}
	return 0;
}

const char *const owners_fix_values[] = { "collect", "keep", NULL };

enum exit_code owners_opt_fix(void *field, const char *value, const struct opt *o, const char *spelled)
{
	enum owners_fix_mode *mode = field;

	if (!value || !strcmp(value, "collect") || !strcmp(value, "true")) {
		*mode = OWNERS_FIX_MODE_COLLECT;
		return 0;
	}
	if (!strcmp(value, "keep")) {
		*mode = OWNERS_FIX_MODE_KEEP;
		return 0;
	}
	if (!strcmp(value, "false")) {
		*mode = OWNERS_FIX_MODE_NONE;
		return 0;
	}
	return invalid_value(value, spelled, o->values);
}

int owners_cli_label_keys(const struct owners_cli *cli, char **storage, const char ***keys,
			  size_t *n)
{
	size_t i, len = 0, cap = 1;
	char *p;

	*storage = NULL;
	*keys = NULL;
	*n = 0;
	for (i = 0; i < cli->table.label_columns.count; i++) {
		len += strlen(cli->table.label_columns.items[i]) + 1;
		for (p = (char *)cli->table.label_columns.items[i]; *p; p++)
			cap += *p == ',';
		cap++;
	}
	if (!(*storage = malloc(len + 1)) || !(*keys = calloc(cap, sizeof(**keys)))) {
		free(*storage);
		*storage = NULL;
		return OWNERS_ENOMEM;
	}
	p = *storage;
	for (i = 0; i < cli->table.label_columns.count; i++) {
		char *item = p, *tok, *save = NULL;

		strcpy(p, cli->table.label_columns.items[i]);
		p += strlen(p) + 1;
		for (tok = strtok_r(item, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
			(*keys)[(*n)++] = tok;
	}
	return 0;
}

static void string_list_clear(struct string_list *l)
{
	free(l->items);
	memset(l, 0, sizeof(*l));
}

void owners_cli_clear(struct owners_cli *cli, struct string_list *args)
{
	/* every OPTION_LIST field of struct owners_cli */
	string_list_clear(&cli->as_groups);
	string_list_clear(&cli->table.label_columns);
	if (args)
		string_list_clear(args);
}

void owners_opts_clear(const struct opt *table, void *own)
{
	const struct opt *o;

	for (o = table; own && o->long_name; o++)
		if (o->type == OPTION_LIST && !o->in_cli)
			string_list_clear((struct string_list *)((char *)own + o->offset));
}

void owners_print_opts(const struct opt *opts)
{
	const struct opt *o;

	for (o = opts; o->long_name; o++) {
		char left[96], range[64];

		if (o->hidden)
			continue;
		/* an optional value is written "--dry-run[=MODE]" */
		const char *sep = o->value_optional ? "" : " ";

		if (o->short_name)
			snprintf(left, sizeof(left), "-%c, --%s%s%s", o->short_name, o->long_name,
				 o->arg_name ? sep : "", o->arg_name ? o->arg_name : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", o->long_name,
				 o->arg_name ? sep : "", o->arg_name ? o->arg_name : "");
		owners_opt_range(o, range, sizeof(range));
		sink_printf("  %-34s %s%s%s%s\n", left, o->help, *range ? " (" : "", range, *range ? ")" : "");
	}
}
