/* DOT for objects and references (see node_dot.h). */
#include <string.h>

#include "dot.h"
#include "node_dot.h"

static int quote(struct owners_buf *out, const char *s)
{
	return owners_dot_quote(out, s, strlen(s));
}

static int node_dot(struct owners_buf *out, const struct owners_node *n, const char *kept)
{
	struct owners_buf label = OWNERS_BUF_INIT;
	int rc;

	rc = owners_buf_addf(&label, "%s\n%s%s%s", n->place->kind, n->place->namespace_,
			     *n->place->namespace_ ? "/" : "", n->name);
	if (!rc && kept)
		rc = owners_buf_addf(&label, "\n%s", kept); /* "kept: ..." */
	if (!rc)
		rc = owners_buf_adds(out, "  ");
	if (!rc)
		rc = quote(out, OWNERS_NODE_UID(n));
	if (!rc)
		rc = owners_buf_adds(out, " [label=");
	if (!rc)
		rc = owners_dot_quote(out, label.ptr, label.len);
	if (!rc && kept)
		rc = owners_buf_adds(out, ", peripheries=2");
	if (!rc)
		rc = owners_buf_adds(out, n->virtual_ ? ", style=dashed, color=red];\n"
					  : n->extras->deleted
						  ? ", style=filled, fillcolor=khaki];\n"
						  : "];\n");
	owners_buf_clear(&label);
	return rc;
}

int owners_node_dot(struct owners_buf *out, const struct owners_node *n)
{
	return node_dot(out, n, NULL);
}

int owners_node_dot_kept(struct owners_buf *out, const struct owners_node *n, const char *why)
{
	return node_dot(out, n, why);
}

int owners_node_dot_edge(struct owners_buf *out, const struct owners_node *owner,
			 const struct owners_node *dependent, int controller, int resolved)
{
	int rc = owners_buf_adds(out, "  ");

	if (!rc)
		rc = quote(out, OWNERS_NODE_UID(owner));
	if (!rc)
		rc = owners_buf_adds(out, " -> ");
	if (!rc)
		rc = quote(out, OWNERS_NODE_UID(dependent));
	if (!rc)
		rc = owners_buf_addf(out, " [%s%s];\n", controller ? "penwidth=2" : "penwidth=1",
				     resolved ? "" : ", color=red, style=dashed");
	return rc;
}

int owners_node_dot_use_edge(struct owners_buf *out, const struct owners_node *user,
			     const struct owners_node *used, const char *how)
{
	int rc = owners_buf_adds(out, "  ");

	if (!rc)
		rc = quote(out, OWNERS_NODE_UID(user));
	if (!rc)
		rc = owners_buf_adds(out, " -> ");
	if (!rc)
		rc = quote(out, OWNERS_NODE_UID(used));
	if (!rc)
		rc = owners_buf_adds(out, " [style=dashed, label=");
	if (!rc)
		rc = quote(out, how);
	return rc ? rc : owners_buf_adds(out, "];\n");
}
