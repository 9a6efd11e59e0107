/*
 * -o, as every command's output step switches on it: what the parser
 * (cmd/cli/options.c) reads the flag into, and what the printers of
 * cmd/terminal read.
 */
#ifndef OWNERS_CMD_OUTPUT_FORMAT_H
#define OWNERS_CMD_OUTPUT_FORMAT_H

/* -o, read once by owners_opt_output(): what every command's output
 * step switches on. The command's own text has one kind whatever its
 * name (tree, table, text, summary: each command's default). */
enum output_kind {
	OUTPUT_TEXT,
	OUTPUT_WIDE,
	OUTPUT_JSON,
	OUTPUT_YAML,
	OUTPUT_NAME,
	OUTPUT_DOT,
	OUTPUT_JSONPATH,
	OUTPUT_CUSTOM_COLUMNS,
};

struct output_format {
	enum output_kind kind;
	const char *template_; /* JSONPATH, CUSTOM_COLUMNS: what follows '=' */
	const char *spelled;   /* the value given, NULL when -o was not */
	/* --allow-missing-template-keys (kubectl's, default true): a key a
	 * jsonpath looks up that an item lacks prints nothing for it */
	int allow_missing_keys;
};

/* Whether the output is the command's JSON document in some form (json,
 * yaml, a jsonpath or custom-columns template over it). */
int output_is_document(const struct output_format *f);

#endif
