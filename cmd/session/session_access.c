#include "session_access.h"
#include "session_state.h"

#include <stdlib.h>

#include "buf.h"
#include "graph.h"
#include "http.h"

enum exit_code session_check_access(struct session *s, struct owners_access_check *checks, uint32_t *examples,
				    size_t n, const char *needed_by)
{
	struct owners_error err = OWNERS_ERROR_INIT;
	size_t i, denied = 0;
	enum exit_code rc = EXIT_OK;

	/* A review that cannot be made is no verdict: each request is still
	 * authorized on its own, and a 403 then leaves that object in place. */
	if (owners_access_check_all(s->http, checks, n, &err)) {
		rc = report_error(&err);
		owners_error_clear(&err);
	}
	for (i = 0; rc == EXIT_OK && i < n; i++) {
		const struct owners_access_check *c = &checks[i];
		struct owners_buf name = OWNERS_BUF_INIT;

		if (c->verdict != OWNERS_ACCESS_DENIED)
			continue;
		denied++;
		owners_graph_node_name(&name, &s->graph->nodes[examples[i]]);
		error_msg("cannot %s %s: forbidden: no %s permission on %s%s%s%s%s%s%s%s (asked before any change)",
			  c->verb, name.ptr ? name.ptr : c->resource, c->verb, c->resource, *c->group ? "." : "",
			  c->group, c->subresource ? "/" : "", c->subresource ? c->subresource : "",
			  *c->namespace_ ? " in namespace '" : "", c->namespace_,
			  *c->namespace_ ? "'" : "");
		owners_buf_clear(&name);
	}
	owners_access_checks_clear(checks, n);
	free(checks);
	free(examples);
	if (denied) {
		error_msg("nothing was deleted or changed: %s needs %s", needed_by,
			  denied == 1 ? "that permission" : "those permissions");
		return EXIT_INCOMPLETE;
	}
	return rc;
}
