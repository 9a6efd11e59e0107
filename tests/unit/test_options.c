/* The command line as kubectl reads it: flags with a value for the bare
 * form (--dry-run, --cascade) and their deprecated booleans, -L lists,
 * enum values checked against their table (cmd/cli/options.c); the words of
 * the dry-run modes and the label columns (lib). */
#include <stdlib.h>

#include "graph.h"
#include "object_io.h"
#include "options.h"
#include "output.h"
#include "tap.h"

static const char *const formats[] = { "tree", "wide", "name", "jsonpath=", "custom-columns=", NULL };
/* An enum option: each word stored as its value ("when=" takes any
 * "when=..."), parsed once. */
static const char *const untils[] = { "ready", "gone", "when=", NULL };
static const int until_enums[] = { OWNERS_UNTIL_READY, OWNERS_UNTIL_GONE, OWNERS_UNTIL_READY };

/* A command's own flags, as a command's file declares them. */
struct test_options {
	enum owners_cascade_mode cascade;
	enum owners_dry_run dry_run;
	enum owners_until until;
	long grace_period;
	struct string_list resume;
};

static const struct test_options defaults = { .cascade = OWNERS_CASCADE_BACKGROUND, .grace_period = -1 };

#define OPT_STRUCT struct test_options
static const struct opt test_opts[] = {
	OPT_OPTIONAL_CHOICE("cascade", cascade, enum owners_cascade_mode, owners_cascade_values,
			    owners_opt_cascade, NULL, "cascade"),
	OPT_DRY_RUN(NULL, "dry run"),
	OPT_OUTPUT(NULL, "format"),
	OPT_ENUM("until", 0, until, enum owners_until, "STATE", untils, until_enums, NULL, "until"),
	OPT_INT("grace-period", 0, grace_period, "SECONDS", -1, 10, NULL, "grace"),
	OPT_LIST("resume", 0, resume, "UID", NULL, "resume"),
	OPT_SELECTOR(NULL, "selector"),
	OPT_TABLE_ROWS,
	OPT_END,
};
#undef OPT_STRUCT

/* What the parser fills in: the command's own flags. */
static struct test_options own;

/* Parses a NULL-terminated argv into a fresh cli and a fresh copy of the
 * command's defaults; the exit code. */
static int parse(struct owners_cli *cli, struct string_list *args, char **argv)
{
	const struct opt_command cmd = { test_opts, &own, formats, "tree" };
	int argc = 0;

	while (argv[argc])
		argc++;
	owners_cli_clear(cli, args);
	owners_opts_clear(test_opts, &own);
	owners_cli_defaults(cli);
	own = defaults;
	return owners_cli_parse(cli, &cmd, argc, argv, args);
}

int main(void)
{
	struct owners_cli cli;
	struct string_list args = { NULL, 0, 0 };
	enum owners_dry_run d;

	owners_cli_defaults(&cli);
	{
		char *argv[] = { "--dry-run", "cm/x", NULL };
		is_int(parse(&cli, &args, argv), 0, "--dry-run alone parses");
		is_int(args.count, 1, "  the next word is an argument, not its value");
		is_int(own.dry_run, OWNERS_DRY_RUN_CLIENT, "  as client, as kubectl's bare --dry-run");
	}
	{
		char *argv[] = { "--dry-run", "server", NULL };
		parse(&cli, &args, argv);
		is_int(args.count, 1, "--dry-run server: 'server' is an argument (as pflag reads it)");
	}
	{
		char *argv[] = { "--dry-run=server", NULL };
		is_int(parse(&cli, &args, argv), 0, "--dry-run=server");
		is_int(own.dry_run, OWNERS_DRY_RUN_SERVER, "  is a server dry run");
	}
	{
		char *argv[] = { "--dry-run=server", "--dry-run=none", NULL };
		parse(&cli, &args, argv);
		is_int(own.dry_run, OWNERS_DRY_RUN_NONE, "--dry-run=none does it (the last one given wins)");
	}
	{
		char *argv[] = { "--dry-run=true", NULL };
		parse(&cli, &args, argv);
		is_int(own.dry_run, OWNERS_DRY_RUN_CLIENT, "--dry-run=true (deprecated) is client");
	}
	{
		char *argv[] = { "--dry-run=false", NULL };
		parse(&cli, &args, argv);
		is_int(own.dry_run, OWNERS_DRY_RUN_NONE, "--dry-run=false (deprecated) is none");
	}
	{
		char *argv[] = { "--dry-run=maybe", NULL };
		is_int(parse(&cli, &args, argv), EXIT_USAGE, "--dry-run=maybe is a usage error");
	}
	{
		char *argv[] = { "--dry-run=", NULL };
		is_int(parse(&cli, &args, argv), EXIT_USAGE, "--dry-run= (empty) is a usage error");
	}
	{
		char *argv[] = { NULL };
		parse(&cli, &args, argv);
		is_int(own.dry_run, OWNERS_DRY_RUN_NONE, "no --dry-run is none");
		is_int(own.cascade, OWNERS_CASCADE_BACKGROUND, "no --cascade is background");
		is_int(cli.insecure_skip_tls_verify, -1, "no --insecure-skip-tls-verify: not given (-1)");
		is_int(own.grace_period, -1, "no --grace-period: each object's own (-1)");
	}
	{
		char *argv[] = { "--insecure-skip-tls-verify=false", NULL };
		parse(&cli, &args, argv);
		is_int(cli.insecure_skip_tls_verify, 0, "--insecure-skip-tls-verify=false: given, off");
	}
	{
		char *argv[] = { "--cascade=orphan", "--cascade", NULL };
		is_int(parse(&cli, &args, argv), 0, "--cascade alone");
		is_int(own.cascade, OWNERS_CASCADE_BACKGROUND, "  is background");
	}
	{
		char *argv[] = { "--cascade=false", NULL };
		is_int(parse(&cli, &args, argv), 0, "--cascade=false (deprecated)");
		is_int(own.cascade, OWNERS_CASCADE_ORPHAN, "  is orphan");
	}
	{
		char *argv[] = { "--cascade=true", NULL };
		parse(&cli, &args, argv);
		is_int(own.cascade, OWNERS_CASCADE_BACKGROUND, "--cascade=true (deprecated) is background");
	}
	{
		char *argv[] = { "--cascade=foreground", NULL };
		parse(&cli, &args, argv);
		is_int(own.cascade, OWNERS_CASCADE_FOREGROUND, "--cascade=foreground");
	}
	{
		char *argv[] = { "--cascade=sideways", NULL };
		is_int(parse(&cli, &args, argv), EXIT_USAGE, "--cascade=sideways is a usage error");
	}
	{
		char *argv[] = { "--cascade=", NULL };
		is_int(parse(&cli, &args, argv), EXIT_USAGE, "--cascade= (empty) is a usage error");
	}
	{
		char *argv[] = { "--grace-period", "11", NULL };
		is_int(parse(&cli, &args, argv), EXIT_USAGE, "--grace-period 11: out of the row's range");
	}
	{
		char *argv[] = { "--grace-period=-1", NULL };
		is_int(parse(&cli, &args, argv), 0, "--grace-period=-1: the range's low end");
	}
	{
		char *argv[] = { "-o", "bogus", NULL };
		is_int(parse(&cli, &args, argv), EXIT_USAGE, "-o bogus: not in the table, a usage error");
	}
	{
		char *argv[] = { "-o", "custom-columns=", NULL };
		is_int(parse(&cli, &args, argv), EXIT_USAGE, "-o custom-columns= (no columns): a usage error, before any request");
	}
	{
		char *argv[] = { "-o", "jsonpath=", NULL };
		is_int(parse(&cli, &args, argv), EXIT_USAGE, "-o jsonpath= (no template): a usage error");
	}
	{
		char *argv[] = { "-o", "custom-columns=NAME:.metadata.name", NULL };
		is_int(parse(&cli, &args, argv), 0, "-o custom-columns=SPEC parses");
		is_int(cli.output.kind, OUTPUT_CUSTOM_COLUMNS, "  as custom-columns");
		is_str(cli.output.template_, "NAME:.metadata.name", "  its spec after the '='");
	}
	{
		char *argv[] = { "-o", "name", NULL };
		is_int(parse(&cli, &args, argv), 0, "-o name parses");
		is_int(cli.output.kind, OUTPUT_NAME, "  as name");
	}
	{
		char *argv[] = { "-o", "name", "-o", "tree", NULL };
		is_int(parse(&cli, &args, argv), 0, "-o tree: the row's default format");
		is_int(cli.output.kind, OUTPUT_TEXT, "  is the command's own text");
		is_str(cli.output.spelled, "tree", "  spelled as given");
	}
	{
		char *argv[] = { "--grace-period=3", "-l", "app=web", "--resume", "u1", "--resume=u2", NULL };
		is_int(parse(&cli, &args, argv), 0, "a command's own flags and a shared one");
		is_int(own.grace_period, 3, "  its own lands in the command's struct");
		is_int(own.cascade, OWNERS_CASCADE_BACKGROUND, "  what is not given keeps the row's default");
		is_str(cli.selector, "app=web", "  -l, shared, lands in owners_cli");
		is_int(own.resume.count, 2, "  a list of its own, repeated");
		owners_opts_clear(test_opts, &own);
		ok(!own.resume.count && !own.resume.items, "  freed by owners_opts_clear");
	}
	{
		char *argv[] = { "cm/x", NULL };
		is_int(parse(&cli, &args, argv), 0, "no --until");
		is_int(own.until, OWNERS_UNTIL_NONE, "  an enum option not given keeps its default");
	}
	{
		char *argv[] = { "--until=gone", NULL };
		is_int(parse(&cli, &args, argv), 0, "--until=gone");
		is_int(own.until, OWNERS_UNTIL_GONE, "  is stored as its enum value");
	}
	{
		char *argv[] = { "--until", "ready", NULL };
		is_int(parse(&cli, &args, argv), 0, "--until ready (a separate word)");
		is_int(own.until, OWNERS_UNTIL_READY, "  is stored as its enum value");
		is_int(args.count, 0, "  the value is no argument");
	}
	{
		char *argv[] = { "--until=when=later", NULL };
		is_int(parse(&cli, &args, argv), 0, "--until=when=later: a word ending in = takes what follows");
		is_int(own.until, OWNERS_UNTIL_READY, "  stored as that word's value");
	}
	{
		char *argv[] = { "--until=soon", NULL };
		is_int(parse(&cli, &args, argv), EXIT_USAGE, "--until=soon: not in the table, a usage error");
		is_int(own.until, OWNERS_UNTIL_NONE, "  nothing is stored");
	}
	{
		char *argv[] = { "-L", "app", "-Ltier,app.kubernetes.io/name", "--label-columns=,x,", "--no-headers",
				 "--show-labels", NULL };
		const char **keys = NULL;
		char *storage = NULL;
		size_t n = 0;

		is_int(parse(&cli, &args, argv), 0, "-L KEY, -LKEY,KEY, --label-columns=...");
		ok(cli.table.no_headers && cli.table.show_labels, "--no-headers and --show-labels set");
		is_int(owners_cli_label_keys(&cli, &storage, &keys, &n), 0, "-L keys split");
		is_int(n, 4, "  every comma-separated key of every -L, empty ones dropped");
		if (n == 4) {
			is_str(keys[0], "app", "  first");
			is_str(keys[1], "tier", "  second");
			is_str(keys[2], "app.kubernetes.io/name", "  third");
			is_str(keys[3], "x", "  fourth");
		}
		is_str(cli.table.label_columns.items[1], &"-Ltier,app.kubernetes.io/name"[2], "  argv untouched");
		free(keys);
		free(storage);
	}
	{
		struct owners_buf b = OWNERS_BUF_INIT;
		const char *const three[] = { "a", "b", "c", NULL }, *const two[] = { "x", "y", NULL };

		owners_opt_values_words(&b, three);
		is_str(b.ptr, "a, b or c", "valid values in words: three");
		owners_buf_reset(&b);
		owners_opt_values_words(&b, two);
		is_str(b.ptr, "x or y", "two");
		owners_buf_clear(&b);
	}
	is_int(owners_dry_run_parse("client", &d), 0, "dry-run words: client");
	is_int(d, OWNERS_DRY_RUN_CLIENT, "  read");
	is_int(owners_dry_run_parse("All", &d), OWNERS_EINVAL, "  'All' is the query's word, not a mode");
	is_str(owners_dry_run_name(OWNERS_DRY_RUN_SERVER), "server", "  named back");
	{
		struct owners_buf b = OWNERS_BUF_INIT;
		const char *labels[] = { "tier", "front", "app", "web", "app.kubernetes.io/name", "x" };
		struct owners_node n;
		struct owners_node_extras more = owners_graph_no_extras;

		memset(&n, 0, sizeof(n));
		n.place = &owners_graph_no_place;
		n.extras = &owners_graph_no_extras;
		owners_graph_label_title(&b, "app.kubernetes.io/part-of");
		is_str(b.ptr, "PART-OF", "-L title: the key's last segment in capitals");
		owners_buf_reset(&b);
		owners_graph_node_labels_text(&b, &n);
		is_str(b.ptr, "<none>", "LABELS of an object without labels");
		more.labels = labels;
		more.n_labels = 3;
		n.extras = &more;
		owners_buf_reset(&b);
		owners_graph_node_labels_text(&b, &n);
		is_str(b.ptr, "app=web,app.kubernetes.io/name=x,tier=front", "LABELS: k=v sorted by key");
		is_str(owners_graph_node_label(&n, "tier"), "front", "a label's value");
		ok(!owners_graph_node_label(&n, "nope"), "an absent label: NULL");
		owners_buf_clear(&b);
	}
	owners_cli_clear(&cli, &args);
	owners_opts_clear(test_opts, &own);
	return tap_done();
}
