/*
 * One run of a command: what the dispatcher sets up from the command's
 * row before the command's own logic runs (git's RUN_SETUP with
 * kubectl's Complete): the flags parsed, the arguments read as objects,
 * the session opened with the discovery the row asks for, the
 * arguments' types resolved, the scan's scope chosen, the output format
 * read. The command is then its own logic only, and its output goes
 * through output_emit(), one printer for every command.
 *
 * Ownership: everything in a cmd_run is the dispatcher's; a command reads
 * it, may use the session (scan, select, rediscover), and frees nothing.
 */
#ifndef OWNERS_CMD_RUN_H
#define OWNERS_CMD_RUN_H

#include "object_args.h"
#include "options.h"
#include "print_options.h"
#include "output.h"
#include "scan_scope.h"
#include "session.h"
#include "sink.h"

struct command;

/* What a command's positional arguments are. */
enum cmd_args {
	CMD_ARGS_NONE,     /* none (the row's validate says how to put it) */
	CMD_ARGS_OBJECTS,  /* TYPE[/NAME]... or TYPE NAME...: objects of the cluster */
	CMD_ARGS_OBJECTS_OPTIONAL, /* the same, or none (then: everything in scope) */
	CMD_ARGS_SHELL,    /* a shell's name (completion) */
	CMD_ARGS_COMMAND,  /* a command's name (help) */
};

/* How current the types must be before a command reads its arguments. */
enum cmd_discovery {
	CMD_DISCOVERY_NONE,    /* no cluster: no session is opened */
	CMD_DISCOVERY_CACHED,  /* a read: the discovery cache will do (refreshed on a miss) */
	/* what deletes or patches, and what predicts the GC, sees the types the
	 * GC sees now (session_require_current_types()) */
	CMD_DISCOVERY_CURRENT,
};

/* How the arguments are read into objects (CMD_ARGS_OBJECTS). */
enum cmd_type_alone {
	CMD_TYPE_ALONE_NO,       /* every argument names its object */
	CMD_TYPE_ALONE_YES,      /* a TYPE alone is every object of it (kubectl get) */
	/* only with -l or --all (kubectl delete: nothing by accident) */
	CMD_TYPE_ALONE_SELECTED,
};

/* Whether the arguments' types are resolved before the command runs. */
enum cmd_resolve {
	CMD_RESOLVE_NO,
	CMD_RESOLVE_TYPES,
	/* and listed by every scan even when the GC does not track the type
	 * (an Event named as a root; session_also_list()) */
	CMD_RESOLVE_AND_LIST,
};

/* What a command's own flags change in the setup its row describes (the
 * row's .setup, kubectl's Complete): the dispatcher reads no command's
 * flags. */
struct cmd_setup {
	/* CMD_TYPE_ALONE_SELECTED: a TYPE alone is every object of it, as
	 * with -l (delete --all) */
	int select_all;
	int upward;         /* the answer is above the roots (tree --up) */
};

struct cmd_run {
	const struct command *command;
	struct owners_cli *cli;             /* the global and shared flags */
	const void *opts;                   /* the command's own (its row's struct) */
	struct cmd_setup setup;             /* what they change (the row's .setup) */
	const struct string_list *words;    /* the positional arguments, as typed */
	/* CMD_ARGS_OBJECTS: the arguments as objects (n_objs may be 0) */
	struct owners_object_arg *objs;
	size_t n_objs;
	/* Their types resolved (the row's .resolve), in the session (see
	 * session_resolve_args()); NULL when not resolved. */
	struct owners_selection_arg *targets;
	struct session *s;                  /* open unless CMD_DISCOVERY_NONE */
	struct owners_scan_scope scope;     /* where the scan reads (.scope) */
	const char *scan_ns;                /* scope as a namespace: NULL everywhere */
	/* Further scans' reports whose failures belong in the warnings
	 * (finalizers' namespace contents); the command's. */
	const struct owners_scan_report *extra_reports;
	size_t n_extra_reports;
	/* How objects print (-o wide, --no-headers, --show-labels, -L, the
	 * colour, now): every renderer's options embed a copy. */
	struct owners_print_options print;
	char *label_storage;                /* what print.label_keys point into */
	const char **label_keys;
	/* The command said the scan's warnings as they arose (finalizers
	 * remove): output_emit() does not repeat them. */
	int warnings_said;
};

/* Sets up what c's row asks for and runs it: the arguments read, the
 * session opened, the types resolved, the scope chosen; then c->fn. opts:
 * the command's own flags, parsed. The exit code. */
enum exit_code cmd_run_command(const struct command *c, struct owners_cli *cli, const void *opts,
			       const struct string_list *words);

/* The rendering of a command's output: its JSON document (for json,
 * yaml, jsonpath and custom-columns), with the scan's warnings in it
 * (structured, every type named: owners_scan_warnings_list()), and
 * its own text for the other formats it offers. Either may be NULL when
 * the command offers no such format. Return 0 or an OWNERS_E* code. */
struct output_renderers {
	int (*document)(struct owners_buf *out, void *ctx, const struct owners_scan_warning *warnings,
			size_t n_warnings);
	int (*text)(struct owners_buf *out, void *ctx);
	/* custom-columns: the array of each item whose elements are rows too
	 * (tree's dependents); NULL: none */
	const char *nested;
};

/*
 * The renderers of a command whose output is one of lib's render structs
 * (type) with its print options in .print and the functions
 * prefix_render_json, prefix_render_text and prefix_render_names, written
 * once: the document gets the scan's warnings, -o name the names, the
 * other formats the text. Defines `static const struct output_renderers
 * name`; output_emit()'s ctx is a type *.
 */
#define OUTPUT_RENDERERS(name, type, prefix)                                            \
	static int name##_json(struct owners_buf *out, void *ctx,                                  \
			       const struct owners_scan_warning *warnings, size_t n_warnings)      \
	{                                                                                          \
		type *render = ctx;                                                                \
                                                                                                   \
		render->print.warnings = warnings;                                                 \
		render->print.n_warnings = n_warnings;                                             \
		return prefix##_render_json(out, render);                                          \
	}                                                                                          \
	static int name##_text(struct owners_buf *out, void *ctx)                                  \
	{                                                                                          \
		const type *render = ctx;                                                          \
                                                                                                   \
		return render->print.names ? prefix##_render_names(out, render)                    \
					   : prefix##_render_text(out, render);                    \
	}                                                                                          \
	static const struct output_renderers name = { name##_json, name##_text, NULL }

/* The one printer: renders with r in the format -o asked for and writes
 * it to stdout (a document through the yaml or template writer), then
 * the scan's warnings on stderr. The exit code (a bad template is a
 * usage error). */
enum exit_code output_emit(struct cmd_run *run, const struct output_renderers *r, void *ctx);
/* Its writing part, for output that is no command's whole answer (tree
 * --watch's first tree and its events): renders with r in format f and
 * writes it through the sink (a document through the yaml or template
 * writer). The exit code. */
enum exit_code output_write(const struct output_format *f, int no_headers, const struct output_renderers *r,
			    void *ctx, const struct owners_scan_warning *warnings, size_t n_warnings);

#endif
