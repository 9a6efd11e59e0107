/*
 * The interface described from the tables: man pages (owners __man DIR),
 * shell completion scripts (owners completion bash|zsh|fish) and the
 * dynamic candidates those scripts ask for (owners __complete ...).
 * Nothing here is written by hand per flag, so the docs cannot drift from
 * what the parser accepts; tests/docs-in-sync checks the committed copies.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "commands.h"
#include "api_path.h"
#include "discovery.h"
#include "kubeconfig.h"
#include "strv.h"
#include "list_parser.h"
#include "output.h"
#include "session.h"

/* ---- man pages ------------------------------------------------------ */

/* roff needs '-' as '\-' (so copy-paste gives a real minus) and '\' as
 * '\e'; a line starting with '.' or '\'' would be a request. */
static void roff(FILE *f, const char *s)
{
	int bol = 1;

	for (; *s; s++) {
		if (bol && (*s == '.' || *s == '\''))
			fputs("\\&", f);
		if (*s == '-')
			fputs("\\-", f);
		else if (*s == '\\')
			fputs("\\e", f);
		else
			fputc(*s, f);
		bol = *s == '\n';
	}
}

static void man_opts(FILE *f, const struct opt *opts)
{
	char range[64];
	const struct opt *o;

	for (o = opts; o->long_name; o++) {
		const char *const *v;

		if (o->hidden)
			continue;
		fputs(".TP\n.B ", f);
		if (o->short_name)
			fprintf(f, "\\-%c, ", o->short_name);
		fputs("\\-\\-", f);
		roff(f, o->long_name);
		if (o->arg_name) {
			/* an optional value is written --dry-run[=MODE] */
			fputs(o->type == OPT_OPTIONAL ? "\\fI" : " \\fI", f);
			roff(f, o->arg_name);
			fputs("\\fR", f);
		}
		fputc('\n', f);
		roff(f, o->help);
		if (o->values) {
			fputs(" (one of:", f);
			for (v = o->values; *v; v++) {
				fputc(' ', f);
				roff(f, *v);
			}
			fputc(')', f);
		}
		if (*owners_opt_range(o, range, sizeof(range))) {
			fputs(" (", f);
			roff(f, range);
			fputc(')', f);
		}
		fputc('\n', f);
	}
}

static void man_common_tail(FILE *f)
{
	fputs(".SH EXIT STATUS\n"
	      ".TP\n.B 0\nsuccess, also when nothing was found (said on stderr, or an empty document)\n"
	      ".TP\n.B 1\nan error (the message says what failed); with \\fB\\-\\-exit\\-code\\fR, findings exist\n"
	      ".TP\n.B 2\na usage error: unknown flag, bad value, unknown or ambiguous type\n"
	      ".TP\n.B 3\ntimed out waiting\n"
	      ".TP\n.B 4\nfinished but incomplete: some objects were forbidden or left\n"
	      ".SH ENVIRONMENT\n"
	      ".TP\n.B KUBECONFIG\nA colon\\-separated list of kubeconfig files, merged as kubectl merges them "
	      "(the first file to set a value wins). Ignored when \\fB\\-\\-kubeconfig\\fR is given.\n"
	      ".TP\n.B NO_COLOR\nWhen set and not empty, no colour is used unless \\fB\\-\\-color=always\\fR.\n"
	      ".TP\n.B XDG_CACHE_HOME\nWhere the discovery cache lives (default \\fI~/.cache\\fR).\n"
	      ".TP\n.B OWNERS_LIST_FORMAT\nSet to \\fBjson\\fR to have lists sent in JSON only; by default they are asked for in\n"
	      "Kubernetes' protobuf encoding (JSON from a server that cannot), which is several times\n"
	      "smaller and faster. \\fB\\-v=6\\fR shows which one each answer came in.\n"
	      ".TP\n.B KUBERNETES_SERVICE_HOST, KUBERNETES_SERVICE_PORT\nIn a pod without a kubeconfig, "
	      "the in\\-cluster service account is used.\n"
	      ".SH FILES\n"
	      ".TP\n.I ~/.kube/config\nThe kubeconfig used when neither \\fB\\-\\-kubeconfig\\fR nor "
	      "\\fBKUBECONFIG\\fR is set.\n"
	      ".TP\n.I ~/.cache/owners/discovery/HOST_PORT/resources.json\nThe discovery cache "
	      "(private: mode 0600 in a 0700 directory), trusted for 6 hours by the read commands and "
	      "refreshed at once when a type does not resolve or a list answers 404; \\fBdelete\\fR, "
	      "\\fBdangling\\fR and \\fBfinalizers remove\\fR always fetch it anew.\n", f);
}

static int write_page(const char *dir, const struct command *c)
{
	char path[4096];
	FILE *f;

	if (c)
		snprintf(path, sizeof(path), "%s/owners-%s.1", dir, c->name);
	else
		snprintf(path, sizeof(path), "%s/owners.1", dir);
	f = fopen(path, "w");
	if (!f) {
		error_msg("cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	if (!c) {
		const struct command *k;

		fprintf(f, ".TH OWNERS 1 \"\" \"owners %s\" \"owners manual\"\n", OWNERS_VERSION);
		fputs(".SH NAME\nowners \\- inspect Kubernetes ownership and delete with client\\-side cascading\n"
		      ".SH SYNOPSIS\n.B owners\n\\fICOMMAND\\fR [\\fIARGS\\fR] [\\fIflags\\fR]\n.br\n"
		      ".B kubectl owners\n\\fICOMMAND\\fR [\\fIARGS\\fR] [\\fIflags\\fR]\n"
		      ".SH DESCRIPTION\n"
		      "owners lists every deletable resource through discovery (metadata only), builds the "
		      "owner graph in memory and shows, checks and acts on it: trees of dependents or owners, "
		      "dangling ownerReferences, stuck finalizers and client\\-side cascading deletion. It is "
		      "also installed as \\fBkubectl\\-owners\\fR, so it works as a kubectl plugin.\n"
		      ".SH COMMANDS\n", f);
		for (size_t k_i = 0; (k = owners_command_at(k_i)); k_i++) {
			if (k->hidden)
				continue;
			fputs(".TP\n.B ", f);
			roff(f, k->name);
			fputc('\n', f);
			roff(f, k->summary);
			fputs(" (see \\fBowners\\-", f);
			roff(f, k->name);
			fputs("\\fR(1))\n", f);
		}
		fputs(".SH OPTIONS\nWithout a command:\n", f);
		man_opts(f, owners_root_opts);
		fputs(".SH GLOBAL OPTIONS\n", f);
		man_opts(f, owners_global_opts);
		man_common_tail(f);
		fputs(".SH SEE ALSO\n", f);
		for (size_t k_i = 0; (k = owners_command_at(k_i)); k_i++)
			if (!k->hidden)
				fprintf(f, "\\fBowners\\-%s\\fR(1), ", k->name);
		fputs("\\fBkubectl\\fR(1)\n", f);
	} else {
		char upper[64];
		size_t i;

		for (i = 0; c->name[i] && i + 1 < sizeof(upper); i++)
			upper[i] = (char)(c->name[i] >= 'a' && c->name[i] <= 'z' ? c->name[i] - 32 : c->name[i]);
		upper[i] = '\0';
		fprintf(f, ".TH OWNERS-%s 1 \"\" \"owners %s\" \"owners manual\"\n", upper, OWNERS_VERSION);
		fputs(".SH NAME\nowners\\-", f);
		roff(f, c->name);
		fputs(" \\- ", f);
		roff(f, c->summary);
		fputs("\n.SH SYNOPSIS\n.nf\n", f);
		roff(f, c->usage);
		fputs("\n.fi\n", f);
		if (c->description && *c->description) {
			fputs(".SH DESCRIPTION\n", f);
			roff(f, c->description);
			fputc('\n', f);
		}
		if (c->opts && c->opts->long_name) {
			fputs(".SH OPTIONS\n", f);
			man_opts(f, c->opts);
		}
		if (c->json_schema) {
			fputs(".SH OUTPUT\n.nf\n", f);
			roff(f, c->json_schema);
			fputs("\n.fi\n", f);
		}
		fputs(".SH GLOBAL OPTIONS\nSee \\fBowners\\fR(1) for the flags every command takes "
		      "(\\-\\-kubeconfig, \\-\\-context, \\-n, \\-A, \\-\\-as, \\-v and the others).\n", f);
		if (c->rbac) {
			fputs(".SH PERMISSIONS\nThe Kubernetes RBAC permissions it needs: ", f);
			roff(f, c->rbac);
			fputs(". ClusterRoles that grant exactly this (owners\\-read, owners\\-fix, "
			      "owners\\-delete), tested as such, are in the README, section Permissions.\n", f);
		}
		man_common_tail(f);
		if (c->examples && *c->examples) {
			fputs(".SH EXAMPLES\n.nf\n", f);
			roff(f, c->examples);
			fputs("\n.fi\n", f);
		}
		fputs(".SH SEE ALSO\n\\fBowners\\fR(1), \\fBkubectl\\fR(1)\n", f);
	}
	if (fclose(f)) {
		error_msg("cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

int cmd_man(struct owners_cli *cli, struct string_list *args)
{
	const struct command *c;

	(void)cli;
	if (args->count != 1) {
		error_msg("usage: owners __man DIR");
		return EXIT_USAGE;
	}
	mkdir(args->items[0], 0755);
	if (write_page(args->items[0], NULL))
		return EXIT_ERROR;
	for (size_t c_i = 0; (c = owners_command_at(c_i)); c_i++)
		if (!c->hidden && write_page(args->items[0], c))
			return EXIT_ERROR;
	return EXIT_OK;
}

/* ---- completion scripts --------------------------------------------- */

static const char *dynamic_source(enum opt_complete k)
{
	switch (k) {
	case COMPLETE_NAMESPACE: return "namespaces";
	case COMPLETE_CONTEXT: return "contexts";
	default: return NULL;
	}
}

/* Prints the spellings of the flags, separated by sep (" " for word
 * lists, "|" for case patterns). */
static void flag_list(const struct opt *opts, int with_value, const char *sep)
{
	const struct opt *o;
	int first = 1;

	for (o = opts; o && o->long_name; o++) {
		if (o->hidden || (with_value && o->type == OPT_BOOL))
			continue;
		printf("%s--%s", first ? "" : sep, o->long_name);
		if (o->short_name)
			printf("%s-%c", sep, o->short_name);
		first = 0;
	}
}

static void flag_words(const struct opt *opts, int with_value)
{
	if (opts && opts->long_name) {
		putchar(' ');
		flag_list(opts, with_value, " ");
	}
}

/* Prints a bash `case` arm completing the value of each flag that takes one. */
static void bash_value_cases(const struct opt *opts)
{
	const struct opt *o;

	for (o = opts; o && o->long_name; o++) {
		const char *dyn = dynamic_source(o->complete);

		if (o->hidden || o->type == OPT_BOOL)
			continue;
		printf("    --%s", o->long_name);
		if (o->short_name)
			printf("|-%c", o->short_name);
		printf(")\n");
		if (o->complete == COMPLETE_VALUES && o->values) {
			const char *const *v;

			printf("      COMPREPLY=($(compgen -W \"");
			for (v = o->values; *v; v++)
				printf("%s%s", v == o->values ? "" : " ", *v);
			printf("\" -- \"$cur\")); return;;\n");
		} else if (o->complete == COMPLETE_FILE) {
			printf("      COMPREPLY=($(compgen -f -- \"$cur\")); return;;\n");
		} else if (dyn) {
			printf("      COMPREPLY=($(compgen -W \"$(_owners_ask %s)\" -- \"$cur\")); return;;\n", dyn);
		} else {
			printf("      COMPREPLY=(); return;;\n");
		}
	}
}

static void completion_bash(void)
{
	const struct command *c;

	printf("# bash completion for owners (and kubectl-owners); generated by 'owners completion bash'\n"
	       "_owners_ask() {\n"
	       "  # Ask owners itself, passing along the flags that choose the cluster.\n"
	       "  local -a pass=()\n"
	       "  local i\n"
	       "  for ((i = 1; i < ${#COMP_WORDS[@]} - 1; i++)); do\n"
	       "    case ${COMP_WORDS[i]} in\n"
	       "      --kubeconfig|--context|--cluster|--user|-n|--namespace|--server|-s|--token|--as)\n"
	       "        pass+=(\"${COMP_WORDS[i]}\" \"${COMP_WORDS[i+1]}\");;\n"
	       "      --kubeconfig=*|--context=*|--cluster=*|--user=*|--namespace=*|--server=*)\n"
	       "        pass+=(\"${COMP_WORDS[i]}\");;\n"
	       "    esac\n"
	       "  done\n"
	       "  \"${COMP_WORDS[0]}\" __complete \"$@\" \"${pass[@]}\" 2>/dev/null\n"
	       "}\n\n"
	       "_owners() {\n"
	       "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
	       "  local cmd= i w\n"
	       "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
	       "    w=${COMP_WORDS[i]}\n"
	       "    case $w in\n"
	       "      -*) ;;\n"
	       "      *) case ${COMP_WORDS[i-1]} in\n");
	printf("           ");
	flag_list(owners_global_opts, 1, "|");
	printf(") ;;\n"
	       "           *) cmd=$w; break;;\n"
	       "         esac;;\n"
	       "    esac\n"
	       "  done\n"
	       "  case $prev in\n");
	bash_value_cases(owners_global_opts);
	printf("  esac\n");
	/* The same flag can take different values per command (-o). */
	for (size_t c_i = 0; (c = owners_command_at(c_i)); c_i++) {
		if (c->hidden || !c->opts || !c->opts->long_name)
			continue;
		printf("  if [[ $cmd == %s ]]; then\n  case $prev in\n", c->name);
		bash_value_cases(c->opts);
		printf("  esac\n  fi\n");
	}
	printf(""
	       "  if [[ -z $cmd ]]; then\n"
	       "    if [[ $cur == -* ]]; then\n"
	       "      COMPREPLY=($(compgen -W \"");
	flag_words(owners_global_opts, 0);
	printf("\" -- \"$cur\"))\n"
	       "    else\n"
	       "      COMPREPLY=($(compgen -W \"");
	for (size_t c_i = 0; (c = owners_command_at(c_i)); c_i++)
		if (!c->hidden)
			printf(" %s", c->name);
	printf("\" -- \"$cur\"))\n"
	       "    fi\n"
	       "    return\n"
	       "  fi\n"
	       "  if [[ $cur == -* ]]; then\n"
	       "    case $cmd in\n");
	for (size_t c_i = 0; (c = owners_command_at(c_i)); c_i++) {
		if (c->hidden)
			continue;
		printf("      %s) COMPREPLY=($(compgen -W \"", c->name);
		flag_words(c->opts, 0);
		flag_words(owners_global_opts, 0);
		printf("\" -- \"$cur\"));;\n");
	}
	printf("    esac\n"
	       "    return\n"
	       "  fi\n"
	       "  case $cmd in\n"
	       "    completion) COMPREPLY=($(compgen -W \"bash zsh fish\" -- \"$cur\"));;\n"
	       "    help) COMPREPLY=($(compgen -W \"");
	for (size_t c_i = 0; (c = owners_command_at(c_i)); c_i++)
		if (!c->hidden)
			printf(" %s", c->name);
	printf("\" -- \"$cur\"));;\n"
	       "    tree|dangling|finalizers|delete)\n"
	       "      if [[ $cur == */* ]]; then\n"
	       "        COMPREPLY=($(compgen -P \"${cur%%%%/*}/\" -W \"$(_owners_ask names \"${cur%%%%/*}\")\" -- \"${cur#*/}\"))\n"
	       "      else\n"
	       "        compopt -o nospace 2>/dev/null\n"
	       "        COMPREPLY=($(compgen -S / -W \"$(_owners_ask types)\" -- \"$cur\"))\n"
	       "      fi;;\n"
	       "  esac\n"
	       "}\n"
	       "complete -F _owners owners kubectl-owners\n");
}

static void zsh_escape(const char *s)
{
	for (; *s; s++) {
		if (*s == '\'' )
			printf("'\\''");
		else if (*s == '[' || *s == ']' || *s == ':')
			printf("\\%c", *s);
		else
			putchar(*s);
	}
}

static void zsh_specs(const struct opt *opts)
{
	const struct opt *o;

	for (o = opts; o && o->long_name; o++) {
		const char *dyn = dynamic_source(o->complete);

		if (o->hidden)
			continue;
		printf("    '");
		if (o->short_name)
			printf("(-%c --%s)'{-%c,--%s}'", o->short_name, o->long_name, o->short_name, o->long_name);
		else
			printf("--%s", o->long_name);
		printf("[");
		zsh_escape(o->help);
		printf("]");
		if (o->type != OPT_BOOL) {
			printf(":%s:", o->arg_name ? o->arg_name : "value");
			if (o->complete == COMPLETE_VALUES && o->values) {
				const char *const *v;

				printf("(");
				for (v = o->values; *v; v++)
					printf("%s%s", v == o->values ? "" : " ", *v);
				printf(")");
			} else if (o->complete == COMPLETE_FILE) {
				printf("_files");
			} else if (dyn) {
				printf("{_owners_ask %s}", dyn);
			}
		}
		printf("' \\\n");
	}
}

static void completion_zsh(void)
{
	const struct command *c;

	printf("#compdef owners kubectl-owners\n"
	       "# zsh completion for owners; generated by 'owners completion zsh'\n"
	       "_owners_ask() {\n"
	       "  local -a items\n"
	       "  items=(${(f)\"$(${words[1]} __complete \"$@\" 2>/dev/null)\"})\n"
	       "  compadd -a items\n"
	       "}\n"
	       "_owners_objects() {\n"
	       "  if [[ $PREFIX == */* ]]; then\n"
	       "    local type=${PREFIX%%%%/*}\n"
	       "    local -a names\n"
	       "    names=(${(f)\"$(${words[1]} __complete names $type 2>/dev/null)\"})\n"
	       "    compadd -P \"$type/\" -a names\n"
	       "  else\n"
	       "    local -a types\n"
	       "    types=(${(f)\"$(${words[1]} __complete types 2>/dev/null)\"})\n"
	       "    compadd -S / -a types\n"
	       "  fi\n"
	       "}\n"
	       "_owners() {\n"
	       "  local curcontext=$curcontext state line\n"
	       "  typeset -A opt_args\n"
	       "  _arguments -C \\\n");
	zsh_specs(owners_global_opts);
	printf("    '1:command:->command' \\\n"
	       "    '*::arg:->args'\n"
	       "  case $state in\n"
	       "    command)\n"
	       "      local -a cmds\n"
	       "      cmds=(\n");
	for (size_t c_i = 0; (c = owners_command_at(c_i)); c_i++) {
		if (c->hidden)
			continue;
		printf("        '%s:", c->name);
		zsh_escape(c->summary);
		printf("'\n");
	}
	printf("      )\n"
	       "      _describe command cmds;;\n"
	       "    args)\n"
	       "      case $words[1] in\n");
	for (size_t c_i = 0; (c = owners_command_at(c_i)); c_i++) {
		if (c->hidden)
			continue;
		printf("        %s)\n          _arguments \\\n", c->name);
		zsh_specs(c->opts);
		zsh_specs(owners_global_opts);
		if (!strcmp(c->name, "completion"))
			printf("            '1:shell:(bash zsh fish)';;\n");
		else if (!strcmp(c->name, "help"))
			printf("            '1:command:(tree graph dangling version completion help)';;\n");
		else if (c->needs_cluster && strcmp(c->name, "graph"))
			printf("            '*:object:_owners_objects';;\n");
		else
			printf("            ;;\n");
	}
	printf("      esac;;\n"
	       "  esac\n"
	       "}\n"
	       "compdef _owners owners kubectl-owners\n");
}

static void fish_escape(const char *s)
{
	for (; *s; s++) {
		if (*s == '\'' || *s == '\\')
			putchar('\\');
		putchar(*s);
	}
}

static void fish_opts(const struct opt *opts, const char *condition)
{
	const struct opt *o;

	for (o = opts; o && o->long_name; o++) {
		const char *dyn = dynamic_source(o->complete);

		if (o->hidden)
			continue;
		printf("complete -c owners -n '%s' -l %s", condition, o->long_name);
		if (o->short_name)
			printf(" -s %c", o->short_name);
		if (o->type != OPT_BOOL) {
			printf(" -r");
			if (o->complete == COMPLETE_VALUES && o->values) {
				const char *const *v;

				printf(" -f -a '");
				for (v = o->values; *v; v++)
					printf("%s%s", v == o->values ? "" : " ", *v);
				printf("'");
			} else if (o->complete == COMPLETE_FILE) {
				printf(" -F");
			} else if (dyn) {
				printf(" -f -a '(owners __complete %s)'", dyn);
			} else {
				printf(" -f");
			}
		}
		printf(" -d '");
		fish_escape(o->help);
		printf("'\n");
	}
}

static void completion_fish(void)
{
	const struct command *c;
	char cond[256];

	printf("# fish completion for owners; generated by 'owners completion fish'\n"
	       "complete -c owners -f\n");
	fish_opts(owners_global_opts, "true");
	for (size_t c_i = 0; (c = owners_command_at(c_i)); c_i++) {
		if (c->hidden)
			continue;
		printf("complete -c owners -n '__fish_use_subcommand' -a %s -d '", c->name);
		fish_escape(c->summary);
		printf("'\n");
		snprintf(cond, sizeof(cond), "__fish_seen_subcommand_from %s", c->name);
		fish_opts(c->opts, cond);
		if (c->needs_cluster && strcmp(c->name, "graph"))
			printf("complete -c owners -n '%s' -a '(owners __complete types | string replace -r \\$ /)'\n",
			       cond);
	}
	printf("complete -c owners -n '__fish_seen_subcommand_from completion' -a 'bash zsh fish'\n");
	printf("complete -c kubectl-owners -w owners\n");
}

int cmd_completion(struct owners_cli *cli, struct string_list *args)
{
	(void)cli;
	if (args->count != 1) {
		error_msg("usage: owners completion bash|zsh|fish");
		return EXIT_USAGE;
	}
	if (!strcmp(args->items[0], "bash"))
		completion_bash();
	else if (!strcmp(args->items[0], "zsh"))
		completion_zsh();
	else if (!strcmp(args->items[0], "fish"))
		completion_fish();
	else {
		error_msg("unsupported shell '%s': want bash, zsh or fish", args->items[0]);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* ---- dynamic candidates --------------------------------------------- */

static int print_name(void *ctx, const struct owners_resource *r, const struct owners_object_meta *m)
{
	(void)ctx;
	(void)r;
	printf("%s\n", m->name);
	return 0;
}

/* The names of a collection, listed as the scan lists (metadata only,
 * paged). */
static int complete_names(struct session *s, const struct owners_resource *r, const char *ns)
{
	struct owners_scan_report report;
	int rc;

	rc = session_list_type(s, r, ns, NULL, print_name, NULL, &report);
	rc = rc || report.n_failures;
	owners_scan_report_free(&report);
	return rc ? EXIT_ERROR : EXIT_OK;
}

/* Completion must never print errors into the user's command line: every
 * failure is silent and just offers nothing. */
int cmd_complete(struct owners_cli *cli, struct string_list *args)
{
	struct session s;
	const char *what = args->count ? args->items[0] : "";
	int rc = EXIT_OK;

	if (!strcmp(what, "contexts")) {
		struct owners_kubeconfig_overrides ov;
		struct owners_kubeconfig_env env;
		char **names = NULL, **n;

		memset(&ov, 0, sizeof(ov));
		ov.kubeconfig = cli->kubeconfig;
		ov.insecure_skip_tls_verify = -1;
		owners_kubeconfig_env_from_process(&env);
		if (owners_kubeconfig_contexts(&names, &ov, &env, NULL))
			return EXIT_ERROR;
		for (n = names; n && *n; n++)
			printf("%s\n", *n);
		owners_strv_free_terminated(names);
		return EXIT_OK;
	}
	if (strcmp(what, "types") && strcmp(what, "namespaces") && strcmp(what, "names"))
		return EXIT_USAGE;
	fclose(stderr); /* nothing may reach the terminal while completing */
	if (session_open(&s, cli)) {
		session_close(&s);
		return EXIT_ERROR;
	}
	if (!strcmp(what, "types")) {
		size_t i;

		for (i = 0; i < s.types.count; i++) {
			const struct owners_resource *r = &s.types.items[i];

			if (r->preferred && (r->verbs & OWNERS_VERB_LIST))
				printf("%s\n", *r->group ? r->resource : r->resource);
		}
	} else if (!strcmp(what, "namespaces")) {
		const struct owners_resource *r = owners_resource_by_gvk(&s.types, "v1", "Namespace");

		rc = r ? complete_names(&s, r, NULL) : EXIT_ERROR;
	} else if (args->count >= 2) {
		const struct owners_resource *r = NULL;

		if (!session_resolve_type(&s, args->items[1], &r))
			rc = complete_names(&s, r, r->namespaced ? s.namespace_ : NULL);
		else
			rc = EXIT_ERROR;
	}
	session_close(&s);
	return rc;
}

/* The command: its usage, help, man page text and permissions. */
const struct command completion_command = {
	"completion", cmd_completion, no_opts, "owners completion bash|zsh|fish",
	"print a shell completion script",
	"Prints the completion script for the shell. Commands, flags and flag values are\n"
	"completed from the script itself; contexts, namespaces and resource types are\n"
	"asked from owners (contexts from the kubeconfig, types from the discovery cache).",
	"  source <(owners completion bash)\n"
	"  owners completion zsh > \"${fpath[1]}/_owners\"\n"
	"  owners completion fish > ~/.config/fish/completions/owners.fish", 0, NULL, 0, NULL };

/* The command: its usage, help, man page text and permissions. */
const struct command complete_command = {
	"__complete", cmd_complete, no_opts, "owners __complete contexts|namespaces|types",
	"candidates for shell completion", "", "", 0, NULL, 1, NULL };

/* The command: its usage, help, man page text and permissions. */
const struct command man_command = {
	"__man", cmd_man, no_opts, "owners __man DIR", "write the man pages into DIR", "", "", 0,
	NULL, 1, NULL };
