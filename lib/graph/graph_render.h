/*
 * Renders the whole owner graph (`owners graph`): a summary, JSON (every
 * object with its references and how each resolves) or Graphviz dot.
 * Writes into a buffer; never prints.
 *
 * Ownership: appends to the caller's buffer; the graph is borrowed.
 */
#ifndef OWNERS_GRAPH_RENDER_H
#define OWNERS_GRAPH_RENDER_H

#include "buf.h"
#include "graph.h"

struct owners_scan_warning;

int owners_graph_render_summary(struct owners_buf *out, struct owners_graph *g,
				const struct owners_graph_summary *s);
/* ns: the namespace in view (NULL: all), see owners_graph_in_scope();
 * warnings: what the scan could not see, every type named. */
int owners_graph_render_json(struct owners_buf *out, struct owners_graph *g, const char *ns,
			     const struct owners_graph_summary *s, const struct owners_scan_warning *warnings,
			     size_t n_warnings);
int owners_graph_render_dot(struct owners_buf *out, struct owners_graph *g, const char *ns);

#endif
