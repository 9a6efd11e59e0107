/*
 * owners graph: the whole owner graph of a namespace or the cluster.
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "graph_render.h"
#include "output.h"
#include "session.h"

static const char *const graph_outputs[] = { "summary", "json", "yaml", "dot", "jsonpath=", "custom-columns=", NULL };

const struct opt graph_opts[] = {
	OPT_OUTPUT(graph_outputs,
		"summary (default), json, yaml, dot, jsonpath=TEMPLATE or custom-columns=SPEC "
		"(over the -o json document)"),
	OPT_END,
};

static enum exit_code validate(const struct owners_cli *cli, const struct string_list *args)
{
	(void)cli;
	if (args->count)
		return usage_error("'owners graph' takes no arguments (use -n NAMESPACE or -A)");
	return EXIT_OK;
}

enum exit_code cmd_graph(struct owners_cli *cli, struct string_list *args)
{
	struct owners_graph_summary sum;
	struct owners_buf out = OWNERS_BUF_INIT;
	const char *format = cli->output ? cli->output : "summary";
	struct session s;
	const char *ns;
	int rc;

	memset(&s, 0, sizeof(s));
	if ((rc = session_open(&s, cli)))
		goto out;
	s.answer_namespaced_only = !cli->all_namespaces;
	if ((rc = session_scan(&s, cli->all_namespaces ? NULL : s.namespace_)))
		goto out;
	ns = cli->all_namespaces ? NULL : s.namespace_;
	if (owners_graph_summarize(s.graph, ns, &sum)) {
		rc = error_oom();
		goto out;
	}
	if (!strcmp(format, "json") || !strcmp(format, "yaml") || output_is_template(format)) {
		char **warnings = NULL;
		size_t n_warnings = 0;

		rc = session_warnings(&s, NULL, 0, &warnings, &n_warnings);
		if (!rc)
			rc = owners_graph_render_json(&out, s.graph, ns, &sum, (const char *const *)warnings,
						      n_warnings);
		session_warnings_free(warnings, n_warnings);
		if (output_is_template(format))
			rc = rc ? error_oom() : output_template(&out, format, NULL, cli->table.no_headers);
		else
			rc = session_emit_document(&s, &out, !strcmp(format, "yaml"), rc);
		goto out;
	} else if (!strcmp(format, "dot"))
		rc = owners_graph_render_dot(&out, s.graph, ns);
	else
		rc = owners_graph_render_summary(&out, s.graph, &sum);
	rc = session_emit(&s, &out, rc);
out:
	owners_buf_clear(&out);
	session_close(&s);
	return rc;
}

/* The command: its usage, help, man page text and permissions. */
const struct command graph_command = {
	.name = "graph",
	.fn = cmd_graph,
	.validate = validate,
	.opts = graph_opts,
	.usage = "owners graph [flags]",
	.summary = "summarise (or print) the whole owner graph of a namespace or cluster",
	.description = "Scans the namespace (or every namespace with -A) and prints a summary of the\n"
		"owner graph: objects, ownerReferences, roots, dangling references, cycles and\n"
		"objects stuck in deletion. -o json (or -o yaml, the same document) prints every\n"
		"object with its references; -o dot prints a Graphviz graph.",
	.examples = "  owners graph\n"
		"  owners graph -A\n"
		"  owners graph -n shop -o dot | dot -Tsvg > shop.svg",
	.needs_cluster = 1,
	.rbac = "list on every type it scans",
};
