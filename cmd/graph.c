/*
 * owners graph: the whole owner graph of a namespace or the cluster.
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "graph_render.h"
#include "output.h"
#include "session_scan.h"
#include "test_hooks.h"
#include "graph_memory.h"

static const char *const graph_outputs[] = { "summary", "json", "yaml", "dot", "jsonpath=", "custom-columns=", NULL };

const struct opt graph_opts[] = {
	OPT_OUTPUT("summary (default), json, yaml, dot, jsonpath=TEMPLATE or...",
		   "summary (default), json, yaml, dot, jsonpath=TEMPLATE or custom-columns=SPEC "
		   "(over the -o json document)"),
	OPT_TEMPLATE_KEYS,
	OPT_END,
};

static enum exit_code validate(const struct owners_cli *cli, const void *opts,
			       const struct string_list *args)
{
	(void)cli;
	(void)opts;
	if (args->count)
		return usage_error("'%s graph' takes no arguments (use -n NAMESPACE or -A)",
				   cli->program);
	return EXIT_OK;
}

/* The graph and its summary, in the scan's scope. */
struct graph_view {
	struct owners_graph *g;
	const char *ns; /* NULL: every namespace */
	struct owners_graph_summary sum;
	enum output_kind kind;
};

static int render_json(struct owners_buf *out, void *ctx, const struct owners_scan_warning *warnings,
		       size_t n_warnings)
{
	struct graph_view *v = ctx;

	return owners_graph_render_json(out, v->g, v->ns, &v->sum, warnings, n_warnings);
}

static int render_text(struct owners_buf *out, void *ctx)
{
	struct graph_view *v = ctx;

	return v->kind == OUTPUT_DOT ? owners_graph_render_dot(out, v->g, v->ns)
				     : owners_graph_render_summary(out, v->g, &v->sum);
}

/* OWNERS_TEST_MEMORY=1: where the graph's bytes go, per object too. */
static void say_memory(const struct owners_graph *g)
{
	struct owners_graph_memory m;
	size_t i, n = g->count ? g->count : 1;

	owners_graph_memory(g, &m);
	{
		const struct {
			const char *what;
			size_t bytes;
		} rows[] = {
			{ "nodes", m.nodes },
			{ "nodes (spare room)", m.nodes_spare },
			{ "references", m.refs },
			{ "UIDs", m.uids },
			{ "names", m.names },
			{ "resourceVersions", m.versions },
			{ "labels", m.labels },
			{ "finalizers", m.finalizers },
			{ "finalizer/label records", m.extras },
			{ "places", m.places },
			{ "interned strings", m.interned },
			{ "UID index", m.uid_index },
			{ "name index", m.name_index },
			{ "edges", m.edges },
			{ "arena slack", m.arena_slack },
			{ "total", m.total },
		};

		FILE *status = fopen("/proc/self/status", "r");
		char line[128];

		fprintf(stderr, "memory: %u objects\n", g->count);
		for (i = 0; i < sizeof(rows) / sizeof(*rows); i++)
			fprintf(stderr, "memory: %-20s %12zu bytes %8.1f per object\n",
				rows[i].what, rows[i].bytes, (double)rows[i].bytes / (double)n);
		/* beside what the kernel says is resident now and at most (Linux) */
		while (status && fgets(line, sizeof(line), status))
			if (!strncmp(line, "VmRSS:", 6) || !strncmp(line, "VmHWM:", 6))
				fprintf(stderr, "memory: %s", line);
		if (status)
			fclose(status);
	}
}

enum exit_code cmd_graph(struct cmd_run *run)
{
	static const struct output_renderers renderers = { render_json, render_text, NULL };
	struct graph_view v;
	enum exit_code rc;

	if ((rc = session_scan(run->s, run->scan_ns)))
		return rc;
	v.g = session_graph(run->s);
	if (test_hook_memory())
		say_memory(v.g);
	v.ns = run->scan_ns;
	v.kind = run->cli->output.kind;
	if (owners_graph_summarize(v.g, v.ns, &v.sum))
		return error_oom();
	return output_emit(run, &renderers, &v);
}

/* The man page's detail beyond --help (see struct man_section). */
static const struct man_section graph_man_sections[] = {
	{"SUMMARY AND PICTURE",
		"In a namespace the view holds its objects and the cluster-scoped objects linked\n"
		"to them.\n"
		"  $ owners graph\n"
		"  objects:              7\n"
		"  ownerReferences:      4\n"
		"  roots:                3\n"
		"  missing owners:       0\n"
		"  dangling references:  0\n"
		"  unknown references:   0\n"
		"  cycles:               0\n"
		"  stuck in deletion:    0\n"
		"  $ owners graph -o dot | dot -Tpng > graph.png\n"
		"In the picture controller references are bold; an owner that does not exist is\n"
		"a red dashed box, and its dangling reference a red dashed edge (an example:\n"
		"tests/graph-example.png in the source)."},
	{NULL, NULL},
};

/* The command: its usage, help, man page text and permissions. */
const struct command graph_command = {
	.name = "graph",
	.man_sections = graph_man_sections,
	.fn = cmd_graph,
	.validate = validate,
	.opts = graph_opts,
	.outputs = graph_outputs,
	.output_default = "summary",
	.usage = "owners graph [flags]",
	.summary = "summarise (or print) the whole owner graph of a namespace or cluster",
	.description = "Scans the namespace (or every namespace with -A) and prints a summary of the\n"
		"owner graph: objects, ownerReferences, roots, dangling references, cycles and\n"
		"objects stuck in deletion. -o json (or -o yaml, the same document) prints every\n"
		"object with its references; -o dot prints a Graphviz graph.",
	.examples = "  owners graph\n"
		"  owners graph -A\n"
		"  owners graph -n shop -o dot | dot -Tsvg > shop.svg",
	.args = CMD_ARGS_NONE,
	.discovery = CMD_DISCOVERY_CACHED,
	.reads_snapshot = 1,
	.scope = OWNERS_SCOPE_NAMESPACE,
	.rbac = "list on every type it scans",
	.json_schema = "-o json prints, Kubernetes-shaped as kubectl get -o json:\n"
		"{\"apiVersion\": \"owners.dev/v1\", \"kind\": \"OwnersGraph\",\n"
		" \"metadata\": {\"namespace\" (absent with -A), \"summary\": {\"objects\",\n"
		"\"ownerReferences\", \"roots\", \"missingOwners\", \"dangling\", \"unknown\", \"cycles\",\n"
		"\"stuckInDeletion\"}}, \"items\": [ITEM...], \"warnings\": [WARNING...]}.\n"
		"  ITEM     {\"apiVersion\", \"kind\", \"metadata\": {\"name\", \"namespace\" (absent when\n"
		"           cluster-scoped), \"uid\", \"creationTimestamp\", \"deletionTimestamp\",\n"
		"           \"finalizers\", \"ownerReferences\" (each as the server has them)},\n"
		"           \"owners\": {\"found\": false for an owner only referenced, \"references\":\n"
		"           [{\"uid\", \"class\"}] (how each of metadata.ownerReferences resolves, in\n"
		"           its order), \"dependentCount\"}}\n"
		"  WARNING  {\"reason\": Forbidden | ListFailed | DiscoveryFailed | Note, \"group\",\n"
		"           \"version\", \"resource\", \"canHoldAnswer\" (Forbidden), \"message\"}: every\n"
		"           type the scan could not see, named (never counted as on stderr)",
};
