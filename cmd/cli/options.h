/*
 * Options as data: every flag of every command is one row of a table.
 * The parser, `--help`, the man pages and the shell completions all read
 * these rows, so they cannot drift apart.
 *
 * Ownership: parsed string values point into argv (never freed); string
 * lists are heap arrays of borrowed pointers freed by owners_cli_clear().
 */
#ifndef OWNERS_CMD_OPTIONS_H
#define OWNERS_CMD_OPTIONS_H

#include <stddef.h>

#include "buf.h"
#include "cascade.h"
#include "object_io.h"
#include "output_format.h"

enum opt_type {
	OPTION_BOOL,     /* --flag, --flag=true|false */
	OPTION_STRING,   /* --flag VALUE, --flag=VALUE, -f VALUE, -fVALUE */
	OPTION_LIST,     /* repeatable string */
	OPTION_INT,
	OPTION_DOUBLE,
	OPTION_DURATION, /* Go's time.ParseDuration: "30s", "1m30s", "250ms", "0"; stored in ms */
	OPTION_CALLBACK, /* read by the row's own parse function */
	OPTION_ENUM,     /* one of .values, stored as the enum's value for it */
	OPTION_OUTPUT,   /* -o: one of the command's formats (owners_opt_output) */
};

/* What a flag's value completes to, for the shell completions. */
enum opt_complete {
	COMPLETE_NONE,
	COMPLETE_FILE,
	COMPLETE_VALUES,    /* from opt.values */
	COMPLETE_NAMESPACE,
	COMPLETE_CONTEXT,
	COMPLETE_CLUSTER,
	COMPLETE_USER,
};

struct opt;

/* An OPTION_CALLBACK row's reader: stores value (NULL: the flag alone,
 * only for value_optional rows) into field, spelled as the user typed
 * the flag for messages; EXIT_OK, or EXIT_USAGE after saying why. */
typedef enum exit_code opt_parse_fn(void *field, const char *value, const struct opt *o, const char *spelled);

struct opt {
	const char *long_name;
	char short_name;        /* 0: none */
	enum opt_type type;
	/* into the command's own struct (its row's .opts_size), or into
	 * struct owners_cli for the global table's rows and for in_cli ones */
	size_t offset;
	int in_cli;             /* a shared row (OPT_SELECTOR, OPT_OUTPUT...) */
	const char *arg_name;   /* "NAME" in --help */
	/* What completion shows beside the flag: a phrase that fits a line;
	 * NULL: help, which is one already. Written here, never cut out of
	 * help (tests/unit/test_options.c holds every row to a line). */
	const char *summary;
	const char *help;
	const char *const *values; /* allowed values (NULL-terminated), checked when set */
	enum opt_complete complete;
	int hidden;
	/* OPTION_INT: the accepted range, checked when set and shown in --help
	 * and the man page (both 0: any whole number). */
	long min, max;
	opt_parse_fn *parse;    /* OPTION_CALLBACK */
	/* --flag alone or --flag=VALUE, never a separate word (kubectl's
	 * flags with a value for the bare form: --dry-run, --cascade). */
	int value_optional;
	/* OPTION_DURATION: a bare whole number is seconds too (kubectl's
	 * --request-timeout); otherwise Go's grammar alone (--timeout). */
	int plain_seconds;
	/* OPTION_ENUM: the value stored for each word of .values, in their
	 * order ("x=" in values: any "x=SOMETHING"). Parsed once here, so
	 * no command compares the words again. */
	const int *enum_values;
};

struct string_list {
	const char **items;
	size_t count, cap;
};

/* The flags of the commands that print a table of objects (tree, dangling). */
struct table_options {
	int no_headers;
	int show_labels;
	struct string_list label_columns; /* -L, each item comma-separated */
};

/* tree --until: the state the watch ends in (NONE: Ctrl-C ends it). */
enum owners_until {
	OWNERS_UNTIL_NONE,
	OWNERS_UNTIL_READY,
	OWNERS_UNTIL_GONE,
};

/* dangling --fix[=collect|keep]: what happens to an object the GC
 * deletes (no owner left): collected as `owners gc` would, or kept on
 * purpose (its references removed: it is never collected). */
enum owners_fix_mode {
	OWNERS_FIX_MODE_NONE,
	OWNERS_FIX_MODE_COLLECT,
	OWNERS_FIX_MODE_KEEP,
};

/* The flags every command has (the global ones), then those the
 * dispatcher and the session read for every command that offers them,
 * with one meaning: the selection (-l) and the printing (-o and the table
 * flags; cmd/run.c builds the print options and the printer from them). A
 * command offers one by a row of its table (OPT_SELECTOR, OPT_OUTPUT...);
 * its own flags land in a struct of its own, declared in its file and
 * named in its row (cmd/commands.h), so that a new command is one row and
 * one file. */
struct owners_cli {
	const char *kubeconfig;
	const char *context;
	const char *cluster;
	const char *user;
	const char *namespace_;
	int all_namespaces;
	const char *as;
	struct string_list as_groups;
	long request_timeout_ms;
	const char *server;
	const char *token;
	const char *certificate_authority;
	int insecure_skip_tls_verify; /* -1: not given (the kubeconfig decides) */
	const char *tls_server_name;
	long verbosity;
	double qps;
	long burst;
	const char *color;
	const char *cache_dir;
	const char *from;       /* --from: a snapshot or a dump, instead of the cluster */
	const char *from_time;  /* --from-time: the time a --from answer is about (RFC 3339) */
	long chunk_size;
	int help;
	int show_version;       /* owners --version */

	const char *selector;   /* -l */
	struct output_format output; /* -o */
	struct table_options table;

	/* How owners was run (owners_cli_invoked(), cli/invocation.h; the
	 * defaults: "owners", no words), and --color decided. */
	const char *program; /* as the user runs it: "owners", "kubectl owners" */
	char *const *typed;  /* the words after it, as typed */
	int n_typed;
	int use_color; /* output_color_for(color) */
};

/* A row's offset into st, and a compile-time check that the field has
 * the type the row's kind stores (comparing distinct pointer types is an
 * error under -Werror, a warning otherwise). */
#define OPT_FIELD_OF(st, field, type)                                                              \
	(offsetof(st, field) + 0 * sizeof(&((st *)0)->field == (type *)0))
/* The rows of a table land in the struct its file names, before the
 * table, as OPT_STRUCT (`#define OPT_STRUCT struct tree_options`): the
 * command's own (struct owners_cli for the global table). */
#define OPT_FIELD(field, type) OPT_FIELD_OF(OPT_STRUCT, field, type)
#define OPT_CLI_FIELD(field, type) OPT_FIELD_OF(struct owners_cli, field, type)

/* The rows, as git's OPT_* macros: each names only what its kind needs. */
#define OPT_BOOL(l, s, field, sum, h)                                                              \
	{ .long_name = (l),                                                                        \
	  .short_name = (s),                                                                       \
	  .type = OPTION_BOOL,                                                                     \
	  .offset = OPT_FIELD(field, int),                                                         \
	  .summary = (sum),                                                                        \
	  .help = (h) }
#define OPT_STRING(l, s, field, arg, sum, h)                                                       \
	{ .long_name = (l),                                                                        \
	  .short_name = (s),                                                                       \
	  .type = OPTION_STRING,                                                                   \
	  .offset = OPT_FIELD(field, const char *),                                                \
	  .arg_name = (arg),                                                                       \
	  .summary = (sum),                                                                        \
	  .help = (h) }
/* a string whose value completes as `complete` says (a file, a context...) */
#define OPT_STRING_COMPLETE(l, s, field, arg, complete_, sum, h)                                   \
	{ .long_name = (l),                                                                        \
	  .short_name = (s),                                                                       \
	  .type = OPTION_STRING,                                                                   \
	  .offset = OPT_FIELD(field, const char *),                                                \
	  .arg_name = (arg),                                                                       \
	  .summary = (sum),                                                                        \
	  .help = (h),                                                                             \
	  .complete = (complete_) }
/* a string that must be one of vals ("x=" in vals: any "x=SOMETHING") */
#define OPT_CHOICE(l, s, field, arg, vals, sum, h)                                                 \
	{ .long_name = (l),                                                                        \
	  .short_name = (s),                                                                       \
	  .type = OPTION_STRING,                                                                   \
	  .offset = OPT_FIELD(field, const char *),                                                \
	  .arg_name = (arg),                                                                       \
	  .summary = (sum),                                                                        \
	  .help = (h),                                                                             \
	  .values = (vals),                                                                        \
	  .complete = COMPLETE_VALUES }
#define OPT_LIST(l, s, field, arg, sum, h)                                                         \
	{ .long_name = (l),                                                                        \
	  .short_name = (s),                                                                       \
	  .type = OPTION_LIST,                                                                     \
	  .offset = OPT_FIELD(field, struct string_list),                                          \
	  .arg_name = (arg),                                                                       \
	  .summary = (sum),                                                                        \
	  .help = (h) }
/* a whole number in [lo, hi] (both 0: any) */
#define OPT_INT(l, s, field, arg, lo, hi, sum, h)                                                  \
	{ .long_name = (l),                                                                        \
	  .short_name = (s),                                                                       \
	  .type = OPTION_INT,                                                                      \
	  .offset = OPT_FIELD(field, long),                                                        \
	  .arg_name = (arg),                                                                       \
	  .summary = (sum),                                                                        \
	  .help = (h),                                                                             \
	  .min = (lo),                                                                             \
	  .max = (hi) }
#define OPT_DOUBLE(l, field, arg, sum, h)                                                          \
	{ .long_name = (l),                                                                        \
	  .type = OPTION_DOUBLE,                                                                   \
	  .offset = OPT_FIELD(field, double),                                                      \
	  .arg_name = (arg),                                                                       \
	  .summary = (sum),                                                                        \
	  .help = (h) }
#define OPT_DURATION(l, field, sum, h)                                                             \
	{ .long_name = (l),                                                                        \
	  .type = OPTION_DURATION,                                                                 \
	  .offset = OPT_FIELD(field, long),                                                        \
	  .arg_name = "DURATION",                                                                  \
	  .summary = (sum),                                                                        \
	  .help = (h) }
/* the same, or whole seconds (kubectl's --request-timeout) */
#define OPT_DURATION_OR_SECONDS(l, field, sum, h)                                                  \
	{ .long_name = (l),                                                                        \
	  .type = OPTION_DURATION,                                                                 \
	  .offset = OPT_FIELD(field, long),                                                        \
	  .arg_name = "DURATION",                                                                  \
	  .summary = (sum),                                                                        \
	  .help = (h),                                                                             \
	  .plain_seconds = 1 }
/* an enum field of type etype (int-sized) set to enums[i] by the word
 * vals[i]; enums lists one value per word of vals */
#define OPT_ENUM(l, s, field, etype, arg, vals, enums, sum, h)                                     \
	{ .long_name = (l),                                                                        \
	  .short_name = (s),                                                                       \
	  .type = OPTION_ENUM,                                                                     \
	  .offset = OPT_FIELD(field, etype) +                                                      \
		    0 * sizeof(char[sizeof(etype) == sizeof(int) ? 1 : -1]),                       \
	  .arg_name = (arg),                                                                       \
	  .summary = (sum),                                                                        \
	  .help = (h),                                                                             \
	  .values = (vals),                                                                        \
	  .enum_values = (enums),                                                                  \
	  .complete = COMPLETE_VALUES }
/* --flag[=VALUE] read by fn into an enum field of type etype (vals: for
 * help, errors and completion) */
#define OPT_OPTIONAL_CHOICE(l, field, etype, vals, fn, sum, h)                                     \
	{ .long_name = (l),                                                                        \
	  .type = OPTION_CALLBACK,                                                                 \
	  .offset = OPT_FIELD(field, etype),                                                       \
	  .arg_name = "[=MODE]",                                                                   \
	  .summary = (sum),                                                                        \
	  .help = (h),                                                                             \
	  .values = (vals),                                                                        \
	  .complete = COMPLETE_VALUES,                                                             \
	  .parse = (fn),                                                                           \
	  .value_optional = 1 }
/* a flag kubectl users may try that this command refuses in words of its
 * own: parsed, never shown */
#define OPT_REFUSED_BOOL(l, field, sum, h)                                                         \
	{ .long_name = (l),                                                                        \
	  .type = OPTION_BOOL,                                                                     \
	  .offset = OPT_FIELD(field, int),                                                         \
	  .summary = (sum),                                                                        \
	  .help = (h),                                                                             \
	  .hidden = 1 }
#define OPT_END { .long_name = NULL }

/* kubectl's --dry-run[=MODE], into the command's enum owners_dry_run
 * dry_run */
#define OPT_DRY_RUN(sum, h)                                                                        \
	OPT_OPTIONAL_CHOICE("dry-run", dry_run, enum owners_dry_run, owners_dry_run_values,        \
			    owners_opt_dry_run, sum, h)

/* The rows several commands share, read by the dispatcher and the
 * session: one spelling and one field of struct owners_cli each. */
#define OPT_SELECTOR(sum, h)                                                                       \
	{ .long_name = "selector",                                                                 \
	  .short_name = 'l',                                                                       \
	  .type = OPTION_STRING,                                                                   \
	  .offset = OPT_CLI_FIELD(selector, const char *),                                         \
	  .in_cli = 1,                                                                             \
	  .arg_name = "SELECTOR",                                                                  \
	  .summary = (sum),                                                                        \
	  .help = (h) }
/* -o: the formats it takes and the default are the command's row's
 * (.outputs, .output_default) */
#define OPT_OUTPUT(sum, h)                                                                         \
	{ .long_name = "output",                                                                   \
	  .short_name = 'o',                                                                       \
	  .type = OPTION_OUTPUT,                                                                   \
	  .offset = OPT_CLI_FIELD(output, struct output_format),                                   \
	  .in_cli = 1,                                                                             \
	  .arg_name = "FORMAT",                                                                    \
	  .summary = (sum),                                                                        \
	  .help = (h),                                                                             \
	  .complete = COMPLETE_VALUES }
/* kubectl's printing flag, on every command whose -o takes a template */
#define OPT_TEMPLATE_KEYS                                                                          \
	{ .long_name = "allow-missing-template-keys",                                              \
	  .type = OPTION_BOOL,                                                                     \
	  .offset = OPT_CLI_FIELD(output.allow_missing_keys, int),                                 \
	  .in_cli = 1,                                                                             \
	  .summary = "jsonpath: a key missing on an item prints nothing",                          \
	  .help = "jsonpath: a key missing on an item prints nothing (default true, as kubectl); " \
		  "false makes it an error (exit 1)" }
/* every command that prints a table of objects has these, as kubectl get
 * has them (one help text for all); a table without labels, the first */
#define OPT_NO_HEADERS                                                                             \
	{ .long_name = "no-headers", .type = OPTION_BOOL,                                           \
	  .offset = OPT_CLI_FIELD(table.no_headers, int), .in_cli = 1,                              \
	  .help = "table: no header line" }
#define OPT_TABLE_ROWS                                                                             \
	OPT_NO_HEADERS,                                                                            \
		{ .long_name = "show-labels",                                                      \
		  .type = OPTION_BOOL,                                                             \
		  .offset = OPT_CLI_FIELD(table.show_labels, int),                                 \
		  .in_cli = 1,                                                                     \
		  .help = "table: a last LABELS column with every label (key=value,...)" },        \
		{ .long_name = "label-columns",                                                    \
		  .short_name = 'L',                                                               \
		  .type = OPTION_LIST,                                                             \
		  .offset = OPT_CLI_FIELD(table.label_columns, struct string_list),                \
		  .in_cli = 1,                                                                     \
		  .arg_name = "KEY,...",                                                           \
		  .summary =                                                                       \
			  "table: a column per label key, titled by the key's last segment in...", \
		  .help = "table: a column per label key, titled by the key's last segment in "    \
			  "capitals "                                                              \
			  "(comma-separated, repeatable)" }

/* A command's flags, as its row gives them (cmd/commands.h), for the
 * parser: its table, where its own flags land (own: a struct of the
 * command's, its defaults filled in), and what -o takes. */
struct opt_command {
	const struct opt *table;
	void *own;
	const char *const *outputs;   /* -o's formats, NULL-terminated */
	/* the one of them that names the command's own text, the default
	 * (NULL: the text has no name) */
	const char *output_default;
};

/* The values a row's flag takes (-o: the command's formats); NULL: any. */
const char *const *owners_opt_values(const struct opt *o, const char *const *outputs);

/* The option named name (len bytes; "context" of "--context=x") or with
 * short name c, in NULL-terminated tables; NULL when none. */
const struct opt *owners_opt_find_long(const struct opt *const tables[], const char *name, size_t len);
const struct opt *owners_opt_find_short(const struct opt *const tables[], char c);
/* The row a command-line word spells ("--context", "--context=x", "-n",
 * "-nNS", "-v=6"), NULL when it is no flag of the tables. */
const struct opt *owners_opt_find_word(const struct opt *const tables[], const char *word);
/* Whether word, which spells o, takes the next word as its value ("-n NS",
 * "--context NAME"; not "--context=x", "-nNS", a boolean or --dry-run).
 * 0 when o is NULL. */
int owners_opt_value_follows(const struct opt *o, const char *word);
/* Parses argv (flags anywhere, `--` ends them) against the global table
 * plus the command's (its own flags into cmd->own, the shared ones into
 * cli); positional arguments go to *args. Returns 0, or prints a usage
 * error and returns 2. */
enum exit_code owners_cli_parse(struct owners_cli *cli, const struct opt_command *cmd, int argc,
				char **argv, struct string_list *args);
void owners_cli_clear(struct owners_cli *cli, struct string_list *args);
void owners_cli_defaults(struct owners_cli *cli);
/* Frees what the parser allocated in own, a command's struct: its
 * OPTION_LIST fields (the lists' words are argv's). */
void owners_opts_clear(const struct opt *table, void *own);

/* -L's keys: every comma-separated item of every -L, empty ones dropped,
 * in order. *keys is the caller's to free (the strings point into a copy
 * in *storage, also the caller's). 0, or OWNERS_ENOMEM. */
int owners_cli_label_keys(const struct owners_cli *cli, char **storage, const char ***keys,
			  size_t *n);

/* The words an enum-like flag accepts, for its "invalid value" error:
 * "'a', 'b' or 'c'" (appended to out, which the caller releases). */
int owners_opt_values_words(struct owners_buf *out, const char *const *values);

/* --dry-run as kubectl reads it (an OPTION_CALLBACK into an enum
 * owners_dry_run): "none", "client", "server"; alone: client, with
 * kubectl's deprecation warning; the deprecated booleans true (client)
 * and false (none), with a warning. */
opt_parse_fn owners_opt_dry_run;
/* --fix[=collect|keep] (into an enum owners_fix_mode): alone, collect;
 * true and false as collect and no fix. */
opt_parse_fn owners_opt_fix;
extern const char *const owners_fix_values[];
/* --cascade as kubectl reads it (into an enum owners_cascade_mode):
 * background, foreground or orphan; alone: background; the deprecated
 * booleans true (background) and false (orphan), with a warning. */
opt_parse_fn owners_opt_cascade;
/* -o (into a struct output_format): one of the command's formats (EXIT_OK,
 * or EXIT_USAGE after saying why); its default, the command's own text
 * whatever its name (tree, table, text, summary), is OUTPUT_TEXT. */
enum exit_code owners_opt_output(struct output_format *f, const char *value, const struct opt_command *cmd,
		      const char *spelled);

extern const struct opt owners_global_opts[];
extern const char *const owners_dry_run_values[];
extern const char *const owners_cascade_values[];

/* "1 or more", "0 to 10": an OPT_INT's range in words, "" when it has
 * none. */
const char *owners_opt_range(const struct opt *o, char *buf, size_t n);

/* Prints the options of a table as --help does. */
void owners_print_opts(const struct opt *opts);

#endif
