#include "dangling_related.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "broken_uses.h"
#include "options.h"
#include "output.h"
#include "session_connect.h"
#include "session_relations.h"
#include "session_scan.h"
#include "session_select.h"

OUTPUT_RENDERERS(renderers, struct owners_broken_uses_render, owners_broken_uses);

static void say_none(const struct cmd_run *run)
{
	if (run->n_objs)
		fprintf(stderr, "no uses that do not resolve on the given objects\n");
	else if (run->cli->all_namespaces)
		fprintf(stderr, "no uses that do not resolve in any namespace\n");
	else
		fprintf(stderr, "no uses that do not resolve in namespace '%s'\n",
			session_namespace(run->s));
}

enum exit_code dangling_related(struct cmd_run *run, int exit_code)
{
	const struct session_selection how = { .everything_when_none = 1 };
	struct owners_relations rel;
	struct owners_broken_uses broken = { NULL, 0, 0 };
	struct owners_broken_uses_render render;
	uint32_t *nodes = NULL;
	size_t n = 0, i;
	enum exit_code rc;
	int failed = 0;

	memset(&rel, 0, sizeof(rel));
	session_set_related(run->s, 1);
	if ((rc = session_scan(run->s, run->scan_ns)) ||
	    (rc = session_select_nodes(run->s, run->targets, run->n_objs, &how, &nodes, &n)))
		goto out;
	if (session_read_relations(run->s, &rel)) {
		rc = session_fail(run->s);
		goto out;
	}
	for (i = 0; !failed && i < n; i++)
		failed = owners_broken_uses_add(&broken, &rel, nodes[i]);
	if (failed) {
		rc = error_oom();
		goto out;
	}
	owners_broken_uses_sort(&broken, &rel, session_graph(run->s));
	memset(&render, 0, sizeof(render));
	render.print = run->print;
	render.g = session_graph(run->s);
	render.rel = &rel;
	render.broken = &broken;
	if ((rc = output_emit(run, &renderers, &render)))
		goto out;
	if (!broken.count && !output_is_document(&run->cli->output))
		say_none(run);
	if (exit_code && broken.count)
		rc = EXIT_ERROR;
out:
	free(nodes);
	owners_broken_uses_clear(&broken);
	owners_relations_clear(&rel);
	return rc;
}
