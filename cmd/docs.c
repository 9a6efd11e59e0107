/*
 * The interface described from the tables: man pages (owners __man DIR)
 * and the shell completion scripts (owners completion bash|zsh|fish), which
 * ask the completion engine (cmd/complete.c, owners __complete WORD...).
 * Nothing here is written by hand per flag, so the docs cannot drift from
 * what the parser accepts; tests/docs-in-sync checks the committed copies.
 */
#include <ctype.h>
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
			fputs(o->value_optional ? "\\fI" : " \\fI", f);
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

/* owners(1): the commands, the flags without one, the global flags. */
static void write_main_page(FILE *f)
{
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
}

/* owners-COMMAND(1), a subcommand's flags in a section of their own. */
static void write_command_page(FILE *f, const struct command *c)
{
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
	for (const struct command *const *sub = c->subcommands; sub && *sub; sub++) {
		fputs(".SH ", f);
		for (const char *ch = (*sub)->name; *ch; ch++)
			fputc(toupper((unsigned char)*ch), f);
		fputs(" OPTIONS\n", f);
		fprintf(f, "Of \\fBowners %s %s\\fR: ", c->name, (*sub)->name);
		roff(f, (*sub)->summary);
		fputs(".\n.br\n.B ", f);
		roff(f, (*sub)->usage);
		fputc('\n', f);
		man_opts(f, (*sub)->opts);
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
	if (c)
		write_command_page(f, c);
	else
		write_main_page(f);
	if (fclose(f)) {
		error_msg("cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

enum exit_code cmd_man(struct cmd_run *run)
{
	const struct string_list *args = run->words;
	const struct command *c;

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

/*
 * Each script only asks `owners __complete WORD...` (cmd/complete.c) with
 * the words typed after the program's name and shows what it answers:
 * which command, which flag takes a value, TYPE/NAME or TYPE NAME, are
 * decided once, in C, from the option tables, for every shell and for
 * kubectl's plugin completion alike. Directive bits: 2 no space after the
 * candidate, 4 no file names.
 */
static void completion_bash(void)
{
	fputs("# bash completion for owners (and kubectl-owners); generated by 'owners completion bash'\n"
	      "_owners() {\n"
	      "  local cur=${COMP_WORDS[COMP_CWORD]} out directive line\n"
	      "  local -a words=(\"${COMP_WORDS[@]:1:COMP_CWORD}\") cands=()\n"
	      "  # bash splits --flag=value at '=': join them back, as typed\n"
	      "  local -a joined=()\n"
	      "  local i\n"
	      "  for ((i = 0; i < ${#words[@]}; i++)); do\n"
	      "    if [[ ${words[i]} == = && ${#joined[@]} -gt 0 ]]; then\n"
	      "      joined[-1]+==${words[i+1]}; i=$((i + 1))\n"
	      "    else\n"
	      "      joined+=(\"${words[i]}\")\n"
	      "    fi\n"
	      "  done\n"
	      "  out=$(\"${COMP_WORDS[0]}\" __complete \"${joined[@]}\" 2>/dev/null) || return 0\n"
	      "  directive=${out##*:}\n"
	      "  while IFS= read -r line; do\n"
	      "    [[ $line == :* ]] && continue\n"
	      "    line=${line%%$'\\t'*}\n"
	      "    # after '=', bash completes only what follows it\n"
	      "    [[ $cur == = || ${COMP_WORDS[COMP_CWORD-1]} == = ]] && line=${line#*=}\n"
	      "    cands+=(\"$line\")\n"
	      "  done <<<\"$out\"\n"
	      "  [[ $cur == = ]] && cur=\n"
	      "  COMPREPLY=($(compgen -W \"${cands[*]}\" -- \"$cur\"))\n"
	      "  (( directive & 2 )) && compopt -o nospace 2>/dev/null\n"
	      "  (( directive & 4 )) || compopt -o default 2>/dev/null\n"
	      "  return 0\n"
	      "}\n"
	      "complete -F _owners owners kubectl-owners\n", stdout);
}

static void completion_zsh(void)
{
	fputs("#compdef owners kubectl-owners\n"
	      "# zsh completion for owners (and kubectl-owners); generated by 'owners completion zsh'\n"
	      "_owners() {\n"
	      "  local out directive line\n"
	      "  local -a lines cands shown\n"
	      "  out=$(${words[1]} __complete \"${(@)words[2,CURRENT]}\" 2>/dev/null) || return 1\n"
	      "  lines=(\"${(@f)out}\")\n"
	      "  directive=${lines[-1]#:}\n"
	      "  for line in \"${(@)lines[1,-2]}\"; do\n"
	      "    cands+=(\"${line%%$'\\t'*}\")\n"
	      "    if [[ $line == *$'\\t'* ]]; then\n"
	      "      shown+=(\"${line%%$'\\t'*}  -- ${line#*$'\\t'}\")\n"
	      "    else\n"
	      "      shown+=(\"${line}\")\n"
	      "    fi\n"
	      "  done\n"
	      "  if (( ${#cands} == 0 )); then\n"
	      "    (( directive & 4 )) || _files\n"
	      "    return\n"
	      "  fi\n"
	      "  if [[ $PREFIX == --*=* ]]; then\n"
	      "    # --flag=VALUE: the flag is already typed\n"
	      "    compset -P '*='\n"
	      "    cands=(\"${(@)cands#*=}\")\n"
	      "    shown=(\"${(@)shown#*=}\")\n"
	      "  fi\n"
	      "  if (( directive & 2 )); then\n"
	      "    compadd -S '' -l -d shown -a cands\n"
	      "  else\n"
	      "    compadd -l -d shown -a cands\n"
	      "  fi\n"
	      "}\n"
	      "compdef _owners owners kubectl-owners\n", stdout);
}

static void completion_fish(void)
{
	fputs("# fish completion for owners (and kubectl-owners); generated by 'owners completion fish'\n"
	      "function __owners_complete\n"
	      "    set -l words (commandline -opc) (commandline -ct)\n"
	      "    set -l prog $words[1]\n"
	      "    set -e words[1]\n"
	      "    set -l out ($prog __complete $words 2>/dev/null)\n"
	      "    or return\n"
	      "    set -l directive (string replace -r '^:' '' -- $out[-1])\n"
	      "    set -e out[-1]\n"
	      "    printf '%s\\n' $out\n"
	      "    if test (count $out) -eq 0; and test (math \"bitand($directive, 4)\") -eq 0\n"
	      "        __fish_complete_path (commandline -ct)\n"
	      "    end\n"
	      "end\n"
	      "complete -c owners -f -a '(__owners_complete)'\n"
	      "complete -c kubectl-owners -f -a '(__owners_complete)'\n", stdout);
}

enum exit_code cmd_completion(struct cmd_run *run)
{
	const struct string_list *args = run->words;

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

/* The command: its usage, help, man page text and permissions. */
const struct command completion_command = {
	.name = "completion",
	.fn = cmd_completion,
	.args = CMD_ARGS_SHELL,
	.opts = no_opts,
	.usage = "owners completion bash|zsh|fish",
	.summary = "print a shell completion script",
	.description = "Prints the completion script for the shell. Every script asks owners itself\n"
		"(owners __complete WORD...) what the word under the cursor can be: commands,\n"
		"flags and their values, contexts (from the kubeconfig), namespaces, resource\n"
		"types (from the discovery cache) and object names (listed from the cluster the\n"
		"flags typed so far choose), as TYPE/NAME or TYPE NAME; 'remove' after\n"
		"finalizers. kubectl owners <TAB> works through kubectl_complete-owners, a link\n"
		"to owners installed beside it as kubectl-owners is: kubectl 1.26 and later run\n"
		"it from PATH with the words after 'owners', and owners called by that name\n"
		"answers as the completion engine. After a krew or tarball install, make that\n"
		"link yourself, in the directory of kubectl-owners.",
	.examples = "  source <(owners completion bash)\n"
		"  owners completion zsh > \"${fpath[1]}/_owners\"\n"
		"  owners completion fish > ~/.config/fish/completions/owners.fish",
};

/* The command: its usage, help, man page text and permissions. */
const struct command man_command = {
	.name = "__man",
	.fn = cmd_man,
	.opts = no_opts,
	.usage = "owners __man DIR",
	.summary = "write the man pages into DIR",
	.description = "",
	.examples = "",
	.hidden = 1,
};
