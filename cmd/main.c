/*
 * owners: Kubernetes ownership inspection and client-side cascading
 * deletion. This file holds the list of commands and the dispatch; each
 * command, its row (usage, help, man page text) and its flags live in its
 * own file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command_line.h"
#include "commands.h"
#include "invocation.h"
#include "output.h"
#include "similar.h"
#include "sink.h"

const struct opt no_opts[] = { OPT_END };

/* owners' own flags, before any command: they land with the global ones */
#define OPT_STRUCT struct owners_cli
const struct opt owners_root_opts[] = {
	OPT_BOOL("version", 0, show_version, NULL,
		 "print this build's version and libraries, as 'owners version --client'"),
	OPT_END,
};
#undef OPT_STRUCT

/* The command: its usage, help, man page text and permissions. */
static const struct command help_command = {
	.name = "help",
	.fn = cmd_help,
	.args = CMD_ARGS_COMMAND,
	.opts = no_opts,
	.usage = "owners help [COMMAND]",
	.summary = "show help for a command",
	.description = "",
	.examples = "  owners help tree",
};

const struct command *const owners_commands[] = {
	&tree_command,       &graph_command,   &dangling_command,
	&finalizers_command, &delete_command,  &gc_command,
	&why_command,        &unused_command,  &snapshot_command,
	&diff_command,       &version_command, &completion_command,
	&help_command,       &man_command,     NULL,
};

const struct command *owners_command_at(size_t i)
{
	return i < sizeof(owners_commands) / sizeof(owners_commands[0]) ? owners_commands[i] : NULL;
}

const struct command *owners_command_find(const char *name)
{
	const struct command *c;

	for (size_t c_i = 0; (c = owners_command_at(c_i)); c_i++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

const struct command *owners_subcommand_find(const struct command *c, const char *word)
{
	const struct command *const *sub;

	for (sub = c->subcommands; sub && *sub; sub++)
		if (!strcmp((*sub)->name, word))
			return *sub;
	return NULL;
}

/* A command row's usage or examples: each line as written, the program
 * at the start of a command line (commands.h) as the user runs it. */
static void print_command_lines(const char *text, const char *program)
{
	const size_t program_len = strlen(OWNERS_PROGRAM);

	while (*text) {
		size_t indent = strspn(text, " "), len = strcspn(text, "\n");

		sink_printf("%.*s", (int)indent, text);
		text += indent;
		len -= indent;
		if (len > program_len && !strncmp(text, OWNERS_PROGRAM " ", program_len + 1)) {
			sink_puts(program);
			text += program_len;
			len -= program_len;
		}
		sink_printf("%.*s%s", (int)len, text, text[len] ? "\n" : "");
		text += len + (text[len] ? 1 : 0);
	}
}

static void main_help(const char *program)
{
	const struct command *c;

	sink_printf("owners: inspect Kubernetes ownership and delete with client-side cascading\n\n");
	sink_printf("Usage:\n  %s COMMAND [ARGS] [flags]\n\nCommands:\n", program);
	for (size_t c_i = 0; (c = owners_command_at(c_i)); c_i++)
		if (!c->hidden)
			sink_printf("  %-10s %s\n", c->name, c->summary);
	sink_printf("\nFlags:\n");
	owners_print_opts(owners_root_opts);
	sink_printf("\nGlobal flags:\n");
	owners_print_opts(owners_global_opts);
	sink_printf("\nExit codes: 0 success, 1 error, 2 usage error, 3 timed out, 4 incomplete.\n");
	sink_printf("Run '%s help COMMAND' or '%s COMMAND --help' for more.\n", program, program);
}

/* What the command does in one paragraph, then its flags and examples,
 * then the rest of the description: the flags are what --help is opened
 * for, and the JSON schema is the man page's (it names the page). */
void owners_command_help(const struct command *c, const char *program)
{
	const char *d = c->description ? c->description : "";
	const char *rest = strstr(d, "\n\n");
	int first = rest ? (int)(rest - d) : (int)strlen(d);

	if (c->parent)
		sink_printf("%s ", c->parent->name);
	sink_printf("%s: %s\n\nUsage:\n", c->name, c->summary);
	sink_puts("  ");
	print_command_lines(c->usage, program);
	sink_puts("\n");
	if (*d) {
		char *head = owners_strndup(d, (size_t)first);

		sink_puts("\n");
		sink_puts(head ? head : "");
		sink_puts("\n");
		free(head);
	}
	if (c->opts && c->opts->long_name) {
		sink_printf("\nFlags:\n");
		owners_print_opts(c->opts);
	}
	if (c->subcommands) {
		const struct command *const *sub;

		sink_printf("\nSubcommands (each with its own flags: '%s %s SUBCOMMAND --help'):\n",
			    program, c->name);
		for (sub = c->subcommands; *sub; sub++)
			sink_printf("  %-10s %s\n", (*sub)->name, (*sub)->summary);
	}
	if (c->examples && *c->examples) {
		sink_printf("\nExamples:\n");
		print_command_lines(c->examples, program);
		sink_puts("\n");
	}
	if (rest) {
		sink_puts(rest + 1);
		sink_puts("\n");
	}
	if (c->json_schema)
		sink_printf("\nThe -o json and -o yaml document is described in 'man owners-%s' (OUTPUT).\n", c->name);
	else if (c->parent && c->parent->json_schema)
		sink_printf("\nThe -o json and -o yaml document is described in 'man owners-%s'.\n",
			    c->parent->name);
	sink_printf("\nGlobal flags:\n");
	owners_print_opts(owners_global_opts);
}

enum exit_code cmd_help(struct cmd_run *run)
{
	const struct command *c;

	if (!run->words->count) {
		main_help(run->cli->program);
		return EXIT_OK;
	}
	c = owners_command_find(run->words->items[0]);
	if (!c) {
		error_msg("unknown command '%s'", run->words->items[0]);
		return EXIT_USAGE;
	}
	owners_command_help(c, run->cli->program);
	return EXIT_OK;
}

/* A word that names no command: said, with the one most likely meant. */
static enum exit_code unknown_command(const char *word, const char *program)
{
	const struct command *c, *best = NULL;
	size_t best_d = (size_t)-1, d;

	for (size_t c_i = 0; (c = owners_command_at(c_i)); c_i++)
		if (!c->hidden && owners_similar_close(word, c->name) &&
		    (d = owners_similar_distance(word, c->name, 2)) < best_d) {
			best = c;
			best_d = d;
		}
	if (best)
		error_msg("unknown command '%s' (see '%s --help'); did you mean '%s'?", word,
			  program, best->name);
	else
		error_msg("unknown command '%s' (see '%s --help')", word, program);
	return EXIT_USAGE;
}

/* The index of the first word from `from` on that is not a flag or a
 * flag's value (which flags take a separate value, the tables say), or
 * -1 when there is none before `--` or the end. */
static int first_word(int argc, char **argv, int from, const struct opt *const tables[])
{
	int i;

	for (i = from; i < argc; i++) {
		const char *a = argv[i];

		if (a[0] != '-' || !a[1])
			return i;
		if (!strcmp(a, "--"))
			return -1;
		/* -n NS, --context NAME: skip the value too */
		i += owners_opt_value_follows(owners_opt_find_word(tables, a), a);
	}
	return -1;
}

/* Removes argv[at], the command's word, from the words to parse. */
static void drop_word(int *argc, char **argv, int at)
{
	for (int i = at; i + 1 < *argc; i++)
		argv[i] = argv[i + 1];
	(*argc)--;
}

/* A flag of c's subcommand given to c itself (`owners finalizers
 * --force`): says whose flag it is and returns EXIT_USAGE; 0 when none. */
static enum exit_code refuse_subcommand_flags(const struct command *c, const char *program,
					      int argc, char **argv)
{
	const struct opt *const own[] = { owners_global_opts, c->opts, NULL };

	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		const struct opt *o = owners_opt_find_word(own, a);

		if (!strcmp(a, "--"))
			break;
		if (o || a[0] != '-' || !a[1]) {
			i += owners_opt_value_follows(o, a);
			continue;
		}
		for (const struct command *const *sub = c->subcommands; *sub; sub++) {
			const struct opt *const theirs[] = { (*sub)->opts, NULL };

			if (owners_opt_find_word(theirs, a))
				return usage_error("%.*s is a flag of '%s %s %s'",
						   (int)strcspn(a, "="), a, program, c->name,
						   (*sub)->name);
		}
	}
	return 0;
}

/* Parses the command's flags (its own into a copy of its row's
 * defaults), validates, then sets up what the command's row asks for and
 * runs it (cmd/run.c): kubectl's Complete/Validate/Run. */
static enum exit_code run_command(const struct command *c, struct owners_cli *cli, int argc, char **argv)
{
	struct string_list args = { NULL, 0, 0 };
	struct opt_command cmd = { c->opts, NULL, c->outputs, c->output_default };
	enum exit_code rc;

	if (c->opts_size && !(cmd.own = calloc(1, c->opts_size)))
		return error_oom();
	if (cmd.own && c->opts_defaults)
		memcpy(cmd.own, c->opts_defaults, c->opts_size);
	rc = owners_cli_parse(cli, &cmd, argc, argv, &args);
	if (!rc) {
		cli->use_color = output_color_for(cli->color);
		if (cli->help)
			owners_command_help(c, cli->program);
		else if (!c->validate || !(rc = c->validate(cli, cmd.own, &args)))
			rc = cmd_run_command(c, cli, cmd.own, &args);
	}
	owners_opts_clear(c->opts, cmd.own);
	free(cmd.own);
	owners_cli_clear(cli, &args);
	return rc;
}

/* The words after the program, read with cli (its invocation set):
 * help, the version, or a command run. */
static enum exit_code run_words(struct owners_cli *cli, int argc, char **argv)
{
	const struct command *c = NULL;
	struct string_list args = { NULL, 0, 0 };
	enum exit_code rc;
	int cmd_at;

	{
		const struct opt *const globals[] = { owners_global_opts, NULL };

		cmd_at = first_word(argc, argv, 1, globals);
	}
	if (cmd_at < 0) {
		/* the root's flags land with the global ones */
		const struct opt_command root = { owners_root_opts, cli, NULL, NULL };

		rc = owners_cli_parse(cli, &root, argc - 1, argv + 1, &args);
		if (!rc && cli->show_version && !cli->help)
			rc = owners_version_client();
		else if (!rc)
			main_help(cli->program);
		owners_cli_clear(cli, &args);
		return rc ? rc
			  : (argc > 1 && !cli->help && !cli->show_version ? EXIT_USAGE : EXIT_OK);
	}
	c = owners_command_find(argv[cmd_at]);
	if (!c)
		return unknown_command(argv[cmd_at], cli->program);
	drop_word(&argc, argv, cmd_at);
	if (c->subcommands) {
		/* `owners finalizers -n x remove ...`: the first word after the
		 * command, flags of either table skipped, may choose one */
		const struct opt *const tables[] = { owners_global_opts, c->opts, NULL };
		int sub_at = first_word(argc, argv, cmd_at, tables);
		const struct command *sub = sub_at < 0 ? NULL : owners_subcommand_find(c, argv[sub_at]);

		if (sub) {
			drop_word(&argc, argv, sub_at);
			c = sub;
		} else if ((rc = refuse_subcommand_flags(c, cli->program, argc - 1, argv + 1))) {
			return rc;
		}
	}
	return run_command(c, cli, argc - 1, argv + 1);
}

/* The program, before its closing check. */
static enum exit_code run_main(int argc, char **argv)
{
	struct owners_cli cli;
	char **typed;
	enum exit_code rc;

	owners_set_oom_fatal(die_out_of_memory);
	/* kubectl owners <TAB>: kubectl (1.26+) runs kubectl_complete-owners
	 * from PATH with the words after 'owners'; that is a link to this
	 * binary, so the answer always comes from the plugin kubectl runs,
	 * however it was installed (package, tarball, krew). */
	if (argc >= 1 && output_is_completion_helper(argv[0]))
		return owners_complete_words(argc - 1, argv + 1);
	/* The shells' and kubectl's completion: the words as typed, read by
	 * the completion engine (cmd/complete.c), not by the flag parser. */
	if (argc >= 2 && !strcmp(argv[1], "__complete"))
		return owners_complete_words(argc - 2, argv + 2);
	owners_cli_defaults(&cli);
	if (owners_cli_invoked(&cli, argc, argv, &typed))
		return error_oom();
	rc = run_words(&cli, argc, argv);
	free(typed);
	return rc;
}

int main(int argc, char **argv)
{
	/* a write to stdout that failed (a full disk, a closed pipe's
	 * reader gone) fails the run, said once: git's check at exit */
	return sink_close(run_main(argc, argv));
}
