#include "finalizer_command.h"

int owners_finalizer_command_start(struct owners_command_line *c)
{
	return owners_command_line_add(c, "finalizers", "remove", (const char *)NULL);
}

int owners_finalizer_command_finish(struct owners_command_line *c, const char *ns, const char *finalizer,
				    const char *uid)
{
	int rc = 0;

	if (ns && *ns)
		rc = owners_command_line_add(c, "-n", ns, (const char *)NULL);
	if (!rc)
		rc = owners_command_line_add(c, "--finalizer", finalizer, (const char *)NULL);
	if (!rc && uid)
		rc = owners_command_line_addf(c, "--uid=%s", uid);
	return rc;
}

int owners_finalizer_command_of(struct owners_command_line *c, const struct owners_node *n, const char *finalizer)
{
	struct owners_buf name = OWNERS_BUF_INIT;
	int rc = owners_finalizer_command_start(c);

	rc = rc ? rc : owners_graph_node_name(&name, n);
	rc = rc ? rc : owners_command_line_add(c, name.ptr, (const char *)NULL);
	rc = rc ? rc
		: owners_finalizer_command_finish(c, n->place->namespace_, finalizer,
						  OWNERS_NODE_UID(n));
	owners_buf_clear(&name);
	return rc;
}
