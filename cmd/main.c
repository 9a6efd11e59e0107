/*
 * owners: Kubernetes ownership inspection and client-side cascading
 * deletion. This file holds the list of commands and the dispatch; each
 * command, its row (usage, help, man page text) and its flags live in its
 * own file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "output.h"

#define OFF(field) offsetof(struct owners_cli, field)

const struct opt no_opts[] = { { NULL, 0, 0, 0, NULL, NULL, NULL, 0, 0, 0, 0 } };

const struct opt owners_root_opts[] = {
	{ "version", 0, OPT_BOOL, OFF(show_version), NULL,
	  "print this build's version and libraries, as 'owners version --client'", NULL,
	  COMPLETE_NONE, 0, 0, 0 },
	{ NULL, 0, 0, 0, NULL, NULL, NULL, 0, 0, 0, 0 },
};

/* The command: its usage, help, man page text and permissions. */
static const struct command help_command = {
	"help", cmd_help, no_opts, "owners help [COMMAND]", "show help for a command", "",
	"  owners help tree", 0, NULL, 0, NULL };

const struct command *const owners_commands[] = {
	&tree_command,
	&graph_command,
	&dangling_command,
	&finalizers_command,
	&delete_command,
	&why_command,
	&version_command,
	&completion_command,
	&help_command,
	&man_command,
	NULL,
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

/* Help text with the commands it shows spelled as the user runs owners
 * ("kubectl owners tree ..." under kubectl). */
static void print_as_typed(const char *text)
{
	struct owners_buf b = OWNERS_BUF_INIT;

	fputs(!output_as_typed(&b, text) ? b.ptr : text, stdout);
	owners_buf_clear(&b);
}

static void main_help(void)
{
	const struct command *c;

	printf("owners: inspect Kubernetes ownership and delete with client-side cascading\n\n");
	print_as_typed("Usage:\n  owners COMMAND [ARGS] [flags]\n\nCommands:\n");
	for (size_t c_i = 0; (c = owners_command_at(c_i)); c_i++)
		if (!c->hidden)
			printf("  %-10s %s\n", c->name, c->summary);
	printf("\nFlags:\n");
	owners_print_opts(owners_root_opts);
	printf("\nGlobal flags:\n");
	owners_print_opts(owners_global_opts);
	printf("\nExit codes: 0 success, 1 error, 2 usage error, 3 timed out, 4 incomplete.\n");
	print_as_typed("Run 'owners help COMMAND' or 'owners COMMAND --help' for more.\n");
}

/* What the command does in one paragraph, then its flags and examples,
 * then the rest of the description: the flags are what --help is opened
 * for, and the JSON schema is the man page's (it names the page). */
void owners_command_help(const struct command *c)
{
	const char *d = c->description ? c->description : "";
	const char *rest = strstr(d, "\n\n");
	int first = rest ? (int)(rest - d) : (int)strlen(d);

	printf("%s: %s\n\nUsage:\n", c->name, c->summary);
	print_as_typed("  ");
	print_as_typed(c->usage);
	putchar('\n');
	if (*d) {
		char *head = owners_strndup(d, (size_t)first);

		putchar('\n');
		print_as_typed(head ? head : "");
		putchar('\n');
		free(head);
	}
	if (c->opts && c->opts->long_name) {
		printf("\nFlags:\n");
		owners_print_opts(c->opts);
	}
	if (c->examples && *c->examples) {
		printf("\nExamples:\n");
		print_as_typed(c->examples);
		putchar('\n');
	}
	if (rest) {
		print_as_typed(rest + 1);
		putchar('\n');
	}
	if (c->json_schema)
		printf("\nThe -o json and -o yaml document is described in 'man owners-%s' (OUTPUT).\n", c->name);
	printf("\nGlobal flags:\n");
	owners_print_opts(owners_global_opts);
}

int cmd_help(struct owners_cli *cli, struct string_list *args)
{
	const struct command *c;

	if (!args->count) {
		main_help();
		return EXIT_OK;
	}
	c = owners_command_find(args->items[0]);
	if (!c) {
		error_msg("unknown command '%s'", args->items[0]);
		return EXIT_USAGE;
	}
	owners_command_help(c);
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	const struct command *c = NULL;
	struct owners_cli cli;
	struct string_list args = { NULL, 0, 0 };
	int i, rc, cmd_at = -1;

	owners_set_oom_fatal(die_out_of_memory);
	output_set_program(argv[0]);
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
	/* The command is the first word that is not a flag or a flag's value. */
	for (i = 1; i < argc; i++) {
		if (argv[i][0] != '-') {
			cmd_at = i;
			break;
		}
		if (!strcmp(argv[i], "--"))
			break;
		/* a global flag taking a separate value (-n NS, --context NAME):
		 * skip the value too; which flags take one, the table says */
		{
			const struct opt *o;
			int is_short = argv[i][1] != '-' && argv[i][1] && !argv[i][2];
			int is_long = argv[i][1] == '-' && !strchr(argv[i], '=');

			for (o = owners_global_opts; o->long_name; o++)
				if (o->type != OPT_BOOL &&
				    ((is_short && o->short_name == argv[i][1]) ||
				     (is_long && !strcmp(argv[i] + 2, o->long_name)))) {
					i++;
					break;
				}
		}
	}
	if (cmd_at < 0) {
		rc = owners_cli_parse(&cli, owners_root_opts, argc - 1, argv + 1, &args);
		if (!rc && cli.show_version && !cli.help)
			rc = owners_version_client();
		else if (!rc)
			main_help();
		owners_cli_clear(&cli, &args);
		return rc ? rc
			  : (argc > 1 && !cli.help && !cli.show_version ? EXIT_USAGE : EXIT_OK);
	}
	c = owners_command_find(argv[cmd_at]);
	if (!c) {
		error_msg("unknown command '%s' (see 'owners --help')", argv[cmd_at]);
		return EXIT_USAGE;
	}
	/* Parse everything but the command word itself. */
	for (i = cmd_at; i + 1 < argc; i++)
		argv[i] = argv[i + 1];
	rc = owners_cli_parse(&cli, c->opts, argc - 2, argv + 1, &args);
	if (rc) {
		owners_cli_clear(&cli, &args);
		return rc;
	}
	output_set_color(cli.color);
	if (cli.help)
		owners_command_help(c);
	else
		rc = c->fn(&cli, &args);
	owners_cli_clear(&cli, &args);
	return rc;
}
