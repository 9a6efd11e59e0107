#include "delete_users.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cascade.h"
#include "output.h"
#include "session_connect.h"
#include "session_relations.h"
#include "usage.h"

static enum exit_code say(const struct delete_run *r, const struct owners_usage *u,
			  const struct owners_relations *rel, const struct owners_graph *g)
{
	struct owners_buf text = OWNERS_BUF_INIT;
	size_t required = owners_usage_required(u, rel);
	int refuse = r->o->if_unused && (required || u->n_unseen);
	int rc;

	if (!u->n_users && !u->n_unseen)
		return EXIT_OK;
	if (u->n_users)
		rc = owners_buf_addf(
			&text,
			"%s: %zu live object%s outside the cascade use%s what it deletes%s:\n",
			refuse ? "error" : "warning", u->n_users, u->n_users == 1 ? "" : "s",
			u->n_users == 1 ? "s" : "",
			required < u->n_users ? " (optional uses do not refuse --if-unused)" : "");
	else
		rc = owners_buf_addf(
			&text,
			"%s: what the cascade deletes may have users that could not be seen:\n",
			refuse ? "error" : "warning");
	if (!rc)
		rc = owners_usage_render_text(&text, u, rel, g);
	if (!rc && refuse)
		rc = owners_buf_addf(&text, "error: --if-unused: nothing was deleted (%s)\n",
				     required ? "it is in use"
					      : "its users cannot all be seen, and an unknown is "
						"never taken as unused");
	if (rc) {
		owners_buf_clear(&text);
		return error_render(rc);
	}
	fwrite(text.ptr, 1, text.len, stderr);
	owners_buf_clear(&text);
	return refuse ? EXIT_IN_USE : EXIT_OK;
}

enum exit_code delete_check_users(struct delete_run *r)
{
	struct session *s = r->cmd->s;
	struct owners_graph *g = session_graph(s);
	const struct owners_cascade_options o = { r->o->cascade, 1, r->o->force };
	const struct owners_cascade_seeds seeds = { (const char *const *)r->roots, r->n_roots, NULL,
						    0 };
	struct owners_cascade_plan plan;
	struct owners_relations rel;
	struct owners_usage usage;
	uint32_t *members = NULL, k;
	size_t n = 0, cap = 0;
	enum exit_code rc;
	int failed = 0;

	memset(&rel, 0, sizeof(rel));
	memset(&usage, 0, sizeof(usage));
	if (owners_cascade_plan_make(&plan, g, &seeds, &o))
		return error_oom();
	for (k = 0; !failed && k < g->count; k++)
		if (plan.member[k])
			failed = owners_graph_node_list_push(&members, &n, &cap, k);
	/* the types that may use a member: its users */
	if (failed)
		rc = error_oom();
	else if (session_read_relations_around(s, &rel, members, n, SESSION_RELATIONS_USERS))
		rc = session_fail(s);
	else if (owners_usage_add_outside(&usage, &rel, g, plan.member))
		rc = error_oom();
	else
		rc = say(r, &usage, &rel, g);
	owners_usage_clear(&usage);
	owners_relations_clear(&rel);
	owners_cascade_plan_clear(&plan);
	free(members);
	return rc;
}
