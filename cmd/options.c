#include "options.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "output.h"
#include "scan.h"

#define OFF(field) offsetof(struct owners_cli, field)

static const char *const color_values[] = { "auto", "always", "never", NULL };

const struct opt owners_global_opts[] = {
	{ "kubeconfig", 0, OPT_STRING, OFF(kubeconfig), "FILE",
	  "path to the kubeconfig file (default: $KUBECONFIG, then ~/.kube/config)", NULL,
	  COMPLETE_FILE, 0, 0, 0 },
	{ "context", 0, OPT_STRING, OFF(context), "NAME", "the kubeconfig context to use", NULL,
	  COMPLETE_CONTEXT, 0, 0, 0 },
	{ "cluster", 0, OPT_STRING, OFF(cluster), "NAME", "the kubeconfig cluster to use", NULL,
	  COMPLETE_CLUSTER, 0, 0, 0 },
	{ "user", 0, OPT_STRING, OFF(user), "NAME", "the kubeconfig user to use", NULL,
	  COMPLETE_USER, 0, 0, 0 },
	{ "namespace", 'n', OPT_STRING, OFF(namespace_), "NAME",
	  "the namespace (default: the context's namespace)", NULL, COMPLETE_NAMESPACE, 0, 0, 0 },
	{ "all-namespaces", 'A', OPT_BOOL, OFF(all_namespaces), NULL, "work across all namespaces",
	  NULL, COMPLETE_NONE, 0, 0, 0 },
	{ "as", 0, OPT_STRING, OFF(as), "USER", "impersonate this user", NULL, COMPLETE_NONE, 0, 0,
	  0 },
	{ "as-group", 0, OPT_LIST, OFF(as_groups), "GROUP", "impersonate this group (repeatable)",
	  NULL, COMPLETE_NONE, 0, 0, 0 },
	{ "request-timeout", 0, OPT_DURATION, OFF(request_timeout_ms), "DURATION",
	  "time limit of one request, its retries included, e.g. 30s or 1m (0: none; a server that never answers is given up after 45s)", NULL, COMPLETE_NONE, 0, 0, 0 },
	{ "server", 's', OPT_STRING, OFF(server), "URL", "the API server address", NULL,
	  COMPLETE_NONE, 0, 0, 0 },
	{ "token", 0, OPT_STRING, OFF(token), "TOKEN", "bearer token for the API server", NULL,
	  COMPLETE_NONE, 0, 0, 0 },
	{ "certificate-authority", 0, OPT_STRING, OFF(certificate_authority), "FILE",
	  "CA certificate file to verify the server with", NULL, COMPLETE_FILE, 0, 0, 0 },
	{ "insecure-skip-tls-verify", 0, OPT_BOOL, OFF(insecure_skip_tls_verify), NULL,
	  "do not verify the server's certificate (insecure)", NULL, COMPLETE_NONE, 0, 0, 0 },
	{ "tls-server-name", 0, OPT_STRING, OFF(tls_server_name), "NAME",
	  "server name to verify the certificate against", NULL, COMPLETE_NONE, 0, 0, 0 },
	{ "v", 'v', OPT_INT, OFF(verbosity), "N",
	  "log level: 6 logs requests, 8 adds bodies (credentials are always redacted)", NULL,
	  COMPLETE_NONE, 0, 0, 10 },
	{ "qps", 0, OPT_DOUBLE, OFF(qps), "N",
	  "client-side request rate limit (default: none once the server shows API Priority and "
	  "Fairness, else 50; 0: none)",
	  NULL, COMPLETE_NONE, 0, 0, 0 },
	{ "burst", 0, OPT_INT, OFF(burst), "N",
	  "requests allowed above --qps in a burst (default 100)", NULL, COMPLETE_NONE, 0, 1,
	  LONG_MAX },
	{ "color", 0, OPT_STRING, OFF(color), "WHEN", "colour output: auto, always or never",
	  color_values, COMPLETE_VALUES, 0, 0, 0 },
	{ "cache-dir", 0, OPT_STRING, OFF(cache_dir), "DIR",
	  "discovery cache directory (default ~/.cache/owners)", NULL, COMPLETE_FILE, 0, 0, 0 },
	{ "chunk-size", 0, OPT_INT, OFF(chunk_size), "N",
	  "objects per page when listing, every page (default: 500 for a list's first page, then "
	  "4 times more per page up to 5000, so long lists take fewer round trips)",
	  NULL, COMPLETE_NONE, 0, 1, LONG_MAX },
	{ "help", 'h', OPT_BOOL, OFF(help), NULL, "show this help", NULL, COMPLETE_NONE, 0, 0, 0 },
	{ NULL, 0, 0, 0, NULL, NULL, NULL, 0, 0, 0, 0 },
};

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
	cli->depth = -1;
	cli->chunk_size = 0; /* not given: pages grow (owners_scan_page_limit) */
	cli->cascade = "background";
	cli->wait = 1;
	cli->timeout_ms = 5 * 60 * 1000;
	cli->grace_period = -1;
	cli->color = "auto";
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

static int parse_duration_ms(const char *s, long *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno || v < 0)
		return -1;
	if (!*end || !strcmp(end, "s"))
		v *= 1000;
	else if (!strcmp(end, "ms"))
		;
	else if (!strcmp(end, "m"))
		v *= 60000;
	else if (!strcmp(end, "h"))
		v *= 3600000;
	else
		return -1;
	if (v > 1e12)
		return -1;
	*out = (long)v;
	return 0;
}

const char *owners_opt_range(const struct opt *o, char *buf, size_t n)
{
	if (o->type != OPT_INT || (!o->min && !o->max))
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

/* "invalid value 'x' for --flag: want a, b or c"; returns -1. */
static int invalid_value(const char *value, const char *spelled, const char *const *values)
{
	struct owners_buf words = OWNERS_BUF_INIT;

	if (owners_opt_values_words(&words, values))
		error_oom();
	else
		error_msg("invalid value '%s' for %s: want %s", value, spelled, words.ptr);
	owners_buf_clear(&words);
	return -1;
}

static int set_value(struct owners_cli *cli, const struct opt *o, const char *value,
		     const char *spelled)
{
	void *field = (char *)cli + o->offset;
	char *end;

	if (o->values && value && o->type != OPT_OPTIONAL) {
		const char *const *v;

		/* "jsonpath=" in the list takes any jsonpath=TEMPLATE */
		for (v = o->values; *v; v++)
			if (!strcmp(*v, value) || ((*v)[strlen(*v) - 1] == '=' && !strncmp(*v, value, strlen(*v)) &&
						   value[strlen(*v)]))
				break;
		if (!*v)
			return invalid_value(value, spelled, o->values);
	}
	switch (o->type) {
	case OPT_BOOL:
		if (!value || !strcmp(value, "true"))
			*(int *)field = 1;
		else if (!strcmp(value, "false"))
			*(int *)field = 0;
		else {
			error_msg("invalid value '%s' for %s: want true or false", value, spelled);
			return -1;
		}
		if (o->offset == OFF(insecure_skip_tls_verify))
			cli->insecure_set = 1;
		return 0;
	case OPT_OPTIONAL:
		if (value && !*value)
			return invalid_value(value, spelled, o->values);
		*(const char **)field = value ? value : "";
		return 0;
	case OPT_STRING:
		*(const char **)field = value;
		if (o->offset == OFF(output))
			cli->output_set = 1;
		return 0;
	case OPT_LIST: {
		struct string_list *l = field;

		if (OWNERS_GROW(l->items, l->cap, l->count + 1)) {
			error_oom();
			return -1;
		}
		l->items[l->count++] = value;
		return 0;
	}
	case OPT_INT: {
		long v;

		errno = 0;
		v = strtol(value, &end, 10);
		if (end == value || *end || errno) {
			error_msg("invalid value '%s' for %s: want a whole number", value, spelled);
			return -1;
		}
		if ((o->min || o->max) && (v < o->min || v > o->max)) {
			char range[64];

			error_msg("invalid value '%s' for %s: want %s", value, spelled,
				  owners_opt_range(o, range, sizeof(range)));
			return -1;
		}
		*(long *)field = v;
		return 0;
	}
	case OPT_DOUBLE: {
		double v;

		errno = 0;
		v = strtod(value, &end);
		if (end == value || *end || errno || v < 0) {
			error_msg("invalid value '%s' for %s: want a number", value, spelled);
			return -1;
		}
		*(double *)field = v;
		return 0;
	}
	case OPT_DURATION:
		if (parse_duration_ms(value, (long *)field)) {
			error_msg("invalid value '%s' for %s: want a duration such as 30s or 5m",
				  value, spelled);
			return -1;
		}
		return 0;
	}
	return -1;
}

int owners_cli_parse(struct owners_cli *cli, const struct opt *command_opts, int argc,
		     char **argv, struct string_list *args)
{
	const struct opt *const tables[] = { owners_global_opts, command_opts, NULL };
	int i, only_args = 0;

	args->items = calloc((size_t)argc + 1, sizeof(*args->items));
	args->count = 0;
	args->cap = 0;
	if (!args->items) {
		error_oom();
		return EXIT_USAGE;
	}
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
			if (o->type == OPT_BOOL && a[2] && a[2] != '=') {
				error_msg("unknown flag: %s", a);
				return EXIT_USAGE;
			}
		}
		if (o->type != OPT_BOOL && o->type != OPT_OPTIONAL && !value) {
			if (i + 1 >= argc) {
				error_msg("flag needs an argument: %s", spelled);
				return EXIT_USAGE;
			}
			value = argv[++i];
		}
		if (set_value(cli, o, value, spelled))
			return EXIT_USAGE;
	}
	return 0;
}

const char *const owners_dry_run_values[] = { "none", "client", "server", NULL };

int owners_cli_dry_run(struct owners_cli *cli)
{
	const char *v = cli->dry_run_arg;

	cli->dry_run = OWNERS_DRY_RUN_NONE;
	if (!v)
		return 0;
	if (!*v) {
		warning_msg("--dry-run is deprecated and can be replaced with --dry-run=client");
		cli->dry_run = OWNERS_DRY_RUN_CLIENT;
		return 0;
	}
	if (!strcmp(v, "true") || !strcmp(v, "false")) {
		warning_msg("--dry-run=%s is deprecated (boolean value) and can be replaced with "
			    "--dry-run=%s", v, *v == 't' ? "client" : "none");
		cli->dry_run = *v == 't' ? OWNERS_DRY_RUN_CLIENT : OWNERS_DRY_RUN_NONE;
		return 0;
	}
	if (owners_dry_run_parse(v, &cli->dry_run))
		return invalid_value(v, "--dry-run", owners_dry_run_values) ? EXIT_USAGE : 0;
	return 0;
}

int owners_cli_cascade(const struct owners_cli *cli, enum owners_cascade_mode *mode)
{
	static const char *const cascade_words[] = { "background", "foreground", "orphan", NULL };
	const char *v = cli->cascade;

	*mode = OWNERS_CASCADE_BACKGROUND;
	if (!v || !*v)
		return 0;
	if (!strcmp(v, "true") || !strcmp(v, "false")) {
		*mode = *v == 't' ? OWNERS_CASCADE_BACKGROUND : OWNERS_CASCADE_ORPHAN;
		warning_msg("--cascade=%s is deprecated (boolean value) and can be replaced with "
			    "--cascade=%s", v, owners_cascade_mode_name(*mode));
		return 0;
	}
	if (owners_cascade_mode_parse(v, mode))
		return invalid_value(v, "--cascade", cascade_words) ? EXIT_USAGE : 0;
	return 0;
}

int owners_cli_label_keys(const struct owners_cli *cli, char **storage, const char ***keys,
			  size_t *n)
{
	size_t i, len = 0, cap = 1;
	char *p;

	*storage = NULL;
	*keys = NULL;
	*n = 0;
	for (i = 0; i < cli->label_columns.count; i++) {
		len += strlen(cli->label_columns.items[i]) + 1;
		for (p = (char *)cli->label_columns.items[i]; *p; p++)
			cap += *p == ',';
		cap++;
	}
	if (!(*storage = malloc(len + 1)) || !(*keys = calloc(cap, sizeof(**keys)))) {
		free(*storage);
		*storage = NULL;
		return OWNERS_ENOMEM;
	}
	p = *storage;
	for (i = 0; i < cli->label_columns.count; i++) {
		char *item = p, *tok, *save = NULL;

		strcpy(p, cli->label_columns.items[i]);
		p += strlen(p) + 1;
		for (tok = strtok_r(item, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
			(*keys)[(*n)++] = tok;
	}
	return 0;
}

void owners_cli_clear(struct owners_cli *cli, struct string_list *args)
{
	free(cli->as_groups.items);
	cli->as_groups.items = NULL;
	cli->as_groups.count = 0;
	cli->as_groups.cap = 0;
	free(cli->label_columns.items);
	cli->label_columns.items = NULL;
	cli->label_columns.count = 0;
	cli->label_columns.cap = 0;
	free(cli->finalizer_names.items);
	cli->finalizer_names.items = NULL;
	cli->finalizer_names.count = 0;
	cli->finalizer_names.cap = 0;
	if (args) {
		free(args->items);
		args->items = NULL;
		args->count = 0;
		args->cap = 0;
	}
}

void owners_print_opts(const struct opt *opts)
{
	const struct opt *o;

	for (o = opts; o->long_name; o++) {
		char left[96], range[64];

		if (o->hidden)
			continue;
		/* an optional value is written "--dry-run[=MODE]" */
		const char *sep = o->type == OPT_OPTIONAL ? "" : " ";

		if (o->short_name)
			snprintf(left, sizeof(left), "-%c, --%s%s%s", o->short_name, o->long_name,
				 o->arg_name ? sep : "", o->arg_name ? o->arg_name : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", o->long_name,
				 o->arg_name ? sep : "", o->arg_name ? o->arg_name : "");
		owners_opt_range(o, range, sizeof(range));
		printf("  %-34s %s%s%s%s\n", left, o->help, *range ? " (" : "", range, *range ? ")" : "");
	}
}
