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

enum opt_type {
	OPT_BOOL,     /* --flag, --flag=true|false */
	OPT_STRING,   /* --flag VALUE, --flag=VALUE, -f VALUE, -fVALUE */
	OPT_LIST,     /* repeatable string */
	OPT_INT,
	OPT_DOUBLE,
	OPT_DURATION, /* "30s", "5m", "1h", "250ms", or plain seconds; stored in ms */
	/* --flag alone or --flag=VALUE, never a separate word (kubectl's
	 * flags with a value for the bare form: --dry-run, --cascade). The
	 * bare form stores "", which no explicit value may be; the command
	 * maps it (owners_cli_dry_run(), owners_cli_cascade()). Values are
	 * checked there too, since deprecated spellings are accepted. */
	OPT_OPTIONAL,
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

struct opt {
	const char *long_name;
	char short_name;        /* 0: none */
	enum opt_type type;
	size_t offset;          /* into struct owners_cli */
	const char *arg_name;   /* "NAME" in --help */
	const char *help;
	const char *const *values; /* allowed values (NULL-terminated), checked when set */
	enum opt_complete complete;
	int hidden;
	/* OPT_INT: the accepted range, checked when set and shown in --help
	 * and the man page (both 0: any whole number). */
	long min, max;
};

struct string_list {
	const char **items;
	size_t count, cap;
};

/* Every flag of every command lands here. */
struct owners_cli {
	/* global */
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
	int insecure_skip_tls_verify;
	int insecure_set;       /* the flag was given */
	const char *tls_server_name;
	long verbosity;
	double qps;
	long burst;
	const char *color;
	const char *output;
	const char *cache_dir;
	long chunk_size;
	int help;
	/* version */
	int client_only;        /* version --client */
	int show_version;       /* owners --version */
	/* tree */
	int up;
	long depth;
	const char *selector;
	int watch;              /* tree --watch */
	const char *until;      /* tree --until=ready|gone (watches too) */
	/* tables of objects (tree, dangling) */
	int no_headers;
	int show_labels;
	struct string_list label_columns; /* -L, each item comma-separated */
	/* dangling */
	int fix;
	const char *dry_run_arg;         /* --dry-run as given; NULL: not given */
	enum owners_dry_run dry_run;     /* set by owners_cli_dry_run() */
	int exit_code_flag;
	/* finalizers */
	struct string_list finalizer_names;
	int all_finalizers;
	int all_objects;        /* delete --all; finalizers remove refuses it */
	int force;
	/* delete */
	const char *cascade;    /* as given; owners_cli_cascade() reads it */
	int wait;
	long timeout_ms;
	long grace_period;
	int now;
	int ignore_not_found;
	/* internal: which flags were given (bit per row index is overkill; by name) */
	int output_set;
};

/* Parses argv (flags anywhere, `--` ends them) against the global table
 * plus the command's; positional arguments go to *args. Returns 0, or
 * prints a usage error and returns 2. */
/* The option named name (len bytes; "context" of "--context=x") or with
 * short name c, in NULL-terminated tables; NULL when none. */
const struct opt *owners_opt_find_long(const struct opt *const tables[], const char *name, size_t len);
const struct opt *owners_opt_find_short(const struct opt *const tables[], char c);
int owners_cli_parse(struct owners_cli *cli, const struct opt *command_opts, int argc,
		     char **argv, struct string_list *args);
void owners_cli_clear(struct owners_cli *cli, struct string_list *args);
void owners_cli_defaults(struct owners_cli *cli);

/* The rows every command that prints a table of objects has, as kubectl
 * get has them (one help text for all). */
#define OWNERS_TABLE_OPTS                                                                          \
	{ "no-headers", 0, OPT_BOOL, offsetof(struct owners_cli, no_headers), NULL,                \
	  "table: no header line", NULL, COMPLETE_NONE, 0, 0, 0 },                                  \
	{ "show-labels", 0, OPT_BOOL, offsetof(struct owners_cli, show_labels), NULL,              \
	  "table: a last LABELS column with every label (key=value,...)", NULL, COMPLETE_NONE, 0,  \
	  0, 0 },                                                                                   \
	{ "label-columns", 'L', OPT_LIST, offsetof(struct owners_cli, label_columns), "KEY,...",  \
	  "table: a column per label key, titled by the key's last segment in capitals "           \
	  "(comma-separated, repeatable)",                                                         \
	  NULL, COMPLETE_NONE, 0, 0, 0 }

/* -L's keys: every comma-separated item of every -L, empty ones dropped,
 * in order. *keys is the caller's to free (the strings point into a copy
 * in *storage, also the caller's). 0, or OWNERS_ENOMEM. */
int owners_cli_label_keys(const struct owners_cli *cli, char **storage, const char ***keys,
			  size_t *n);

/* The words an enum-like flag accepts, for its "invalid value" error:
 * "'a', 'b' or 'c'" (appended to out, which the caller releases). */
int owners_opt_values_words(struct owners_buf *out, const char *const *values);

/* --dry-run as kubectl reads it: not given, or "none": none; "client",
 * "server"; alone: client, with kubectl's deprecation warning; and the
 * deprecated booleans true (client) and false (none), with a warning.
 * Sets cli->dry_run; 0, or EXIT_USAGE after saying why. */
int owners_cli_dry_run(struct owners_cli *cli);
/* --cascade as kubectl reads it: background, foreground or orphan; alone:
 * background; the deprecated booleans true (background) and false
 * (orphan), with a warning. 0, or EXIT_USAGE after saying why. */
int owners_cli_cascade(const struct owners_cli *cli, enum owners_cascade_mode *mode);

extern const struct opt owners_global_opts[];
extern const char *const owners_dry_run_values[];

/* "1 or more", "0 to 10": an OPT_INT's range in words, "" when it has
 * none. */
const char *owners_opt_range(const struct opt *o, char *buf, size_t n);

/* Prints the options of a table as --help does. */
void owners_print_opts(const struct opt *opts);

#endif
