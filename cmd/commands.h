/*
 * The command table: adding a command is one file cmd/<name>.c defining
 * its flags (<name>_opts, landing in a struct <name>_options of its own
 * with its defaults), its validate and run functions and its row
 * (<name>_command: usage, help, man page text, its flags' struct and -o's
 * formats), and one line in owners_commands (cmd/main.c); a subcommand
 * (`finalizers remove`) is a row of its own listed in its parent's
 * subcommands.
 *
 * Running a command is kubectl's Complete/Validate/Run: the flags are
 * parsed, the global and shared ones into struct owners_cli, the
 * command's own into a copy of its defaults; validate() refuses what
 * cannot work before anything is asked of a cluster, and fn() runs it.
 */
#ifndef OWNERS_CMD_COMMANDS_H
#define OWNERS_CMD_COMMANDS_H

#include "options.h"
#include "run.h"

/*
 * A section of a man page beyond DESCRIPTION: the detail --help leaves out
 * (cmd/docs.c writes it after OPTIONS). Its text, like a row's description:
 * paragraphs apart by a blank line; lines indented two spaces shown as
 * written (a table, a command and its output); a paragraph that opens
 * with "- " an item of a list.
 */
struct man_section {
	const char *title;          /* the heading, in capitals: "LIVE TREES" */
	const char *text;
};

/* The lines every Kubernetes-shaped document's schema shares (the
 * json_schema of tree, dangling, finalizers, gc and why): ITEM, WARNING
 * and REF, one wording for all (lib/graph/document_json.c writes them). */
#define DOC_JSON_ITEM_WARNING_REF \
	"  ITEM     {\"apiVersion\", \"kind\", \"metadata\": {\"name\", \"namespace\" (absent when\n" \
	"           cluster-scoped), \"uid\", \"creationTimestamp\", \"deletionTimestamp\",\n" \
	"           \"finalizers\", \"ownerReferences\", \"labels\" (each as the server has\n" \
	"           them)}, \"owners\": {FACTS}}: the object, and what\n" \
	"           owners found out about it under \"owners\"\n" \
	"  WARNING  {\"reason\": Forbidden | ListFailed | DiscoveryFailed | Note, \"group\",\n" \
	"           \"version\", \"resource\", \"canHoldAnswer\" (Forbidden), \"message\"}: every\n" \
	"           type the scan could not see, named (never counted as on stderr)\n" \
	"  REF      {\"apiVersion\", \"kind\", \"namespace\", \"name\", \"uid\"}: another object\n"

struct command {
	const char *name;           /* a subcommand's: its own word ("remove") */
	/* The command's own logic, on what the dispatcher set up from the
	 * fields below (cmd/run.h). */
	enum exit_code (*fn)(struct cmd_run *run);
	enum cmd_args args;
	enum cmd_type_alone type_alone; /* CMD_ARGS_OBJECTS* */
	/* Set: exactly one object, else a usage error: "'owners why'
	 * explains one object: TYPE/NAME, e.g. 'owners why pod/web-1'" (what
	 * it does with it, and an example of one). */
	const char *one_object;
	const char *one_object_example;
	enum cmd_discovery discovery;   /* NONE: no session */
	/* It answers from a snapshot too (--from): a read command. Unset, or
	 * when changes() says what these flags would change, --from is
	 * refused before anything is read. */
	int reads_snapshot;
	const char *(*changes)(const void *opts);
	enum cmd_resolve resolve;
	enum owners_scope_rule scope;
	int namespaces_apart;           /* see owners_scope_request */
	/* What the command's own flags change in that setup (delete --all,
	 * tree --up); NULL: nothing. */
	void (*setup)(const void *opts, struct cmd_setup *setup);
	/* Checks the flags (opts: the command's own) and arguments together:
	 * EXIT_OK, or EXIT_USAGE after saying why. NULL: nothing to check.
	 * Runs before fn(), and never for --help. */
	enum exit_code (*validate)(const struct owners_cli *cli, const void *opts,
				   const struct string_list *args);
	const struct opt *opts;     /* the command's flags (CMD_OPTIONS) */
	/* Where its own land: a struct of the command's, declared in its
	 * file, this size, starting as opts_defaults (NULL: zeros). */
	size_t opts_size;
	const void *opts_defaults;
	/* -o: the formats it takes, NULL-terminated (NULL: no -o), and the one
	 * that names the command's own text, the default (NULL: unnamed). */
	const char *const *outputs;
	const char *output_default;
	/* Command lines, one per line: "owners tree TYPE/NAME... [flags]". In
	 * usage and examples a line whose first word is owners is one the
	 * user runs: --help spells that word as the user runs owners
	 * (output_program(): "kubectl owners" for the plugin), the man page
	 * as owners. */
	const char *usage;
	const char *summary;        /* one line */
	const char *description;    /* paragraphs for --help and the man page (prose: as written) */
	const char *examples;       /* indented lines (see usage) */
	const char *rbac;           /* the permissions it needs, for the man page */
	int hidden;                 /* internal: not listed in help */
	/* The -o json document's schema: the man page's OUTPUT section only
	 * (--help stays short and names the page). May be NULL. */
	const char *json_schema;
	/* The man page's sections after OPTIONS, ended by {NULL}; NULL: none. */
	const struct man_section *man_sections;
	/* NULL-terminated: the words that, first after the command, choose
	 * a command of their own, with its own flags (NULL: none). */
	const struct command *const *subcommands;
	const struct command *parent; /* a subcommand's command */
};

/* A row's flags: the table, the struct type its own flags land in (the
 * table's OPT_STRUCT) and a pointer to that type's defaults, checked. */
#define CMD_OPTIONS(table, type, defaults)                                                         \
	.opts = (table), .opts_size = sizeof(type) + 0 * sizeof((defaults) == (const type *)0),     \
	.opts_defaults = (defaults)

/* Every command, NULL-terminated; each row lives in its command's file. */
extern const struct command *const owners_commands[];
extern const struct command tree_command, graph_command, dangling_command, finalizers_command,
	delete_command, version_command, completion_command, man_command, finalizers_remove_command;
extern const struct command why_command, gc_command, snapshot_command, diff_command;
extern const struct command unused_command;
/* The i-th command, NULL past the last. */
const struct command *owners_command_at(size_t i);
const struct command *owners_command_find(const char *name);
/* The subcommand of c named word, NULL when none. */
const struct command *owners_subcommand_find(const struct command *c, const char *word);
void owners_command_help(const struct command *c, const char *program);

enum exit_code cmd_tree(struct cmd_run *run);
enum exit_code cmd_graph(struct cmd_run *run);
enum exit_code cmd_dangling(struct cmd_run *run);
enum exit_code cmd_finalizers(struct cmd_run *run);
/* `owners finalizers remove` (cmd/finalizers_remove.c), a subcommand. */
enum exit_code cmd_finalizers_remove(struct cmd_run *run);
enum exit_code cmd_delete(struct cmd_run *run);
enum exit_code cmd_gc(struct cmd_run *run);
enum exit_code cmd_why(struct cmd_run *run);
enum exit_code cmd_version(struct cmd_run *run);
enum exit_code cmd_help(struct cmd_run *run);
enum exit_code cmd_completion(struct cmd_run *run);
/* owners __complete WORD...: candidates for the last word, then ":N"
 * (cobra's directive, as kubectl's plugin completion expects). */
enum exit_code owners_complete_words(int n, char **words);
enum exit_code cmd_man(struct cmd_run *run);

extern const struct opt tree_opts[];
extern const struct opt graph_opts[];
extern const struct opt dangling_opts[];
extern const struct opt finalizers_opts[];
extern const struct opt finalizers_remove_opts[];
extern const struct opt delete_opts[];
extern const struct opt why_opts[];
extern const struct opt gc_opts[];
extern const struct opt version_opts[];
extern const struct opt no_opts[];
/* Flags of `owners` alone, without a command (--version). */
extern const struct opt owners_root_opts[];
/* `owners --version`: this build's version and libraries. */
enum exit_code owners_version_client(void);

#endif
