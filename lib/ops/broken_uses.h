/*
 * The uses that do not resolve: what `owners dangling --related` lists,
 * the counterpart for use of what dangling does for ownership. A Pod or
 * a template naming a ConfigMap, Secret, claim or ServiceAccount that is
 * not there, an Ingress routing to a missing Service, a binding of a
 * missing Role, an autoscaler of a missing target... each with what it
 * breaks. A use marked optional breaks nothing and is left out; a use
 * whose object's type was not listed where it would be is unknown (said,
 * never taken as missing). So is a binding's subject that is gone, and a
 * ServiceAccount's legacy list of token Secrets: stale names, which
 * break nothing (owners_broken_uses_breaking()).
 *
 * Ownership: a report owns its array (owners_broken_uses_clear()); it
 * borrows the relations and the graph.
 */
#ifndef OWNERS_BROKEN_USES_H
#define OWNERS_BROKEN_USES_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "graph.h"
#include "print_options.h"
#include "relations.h"

struct owners_broken_uses {
	size_t *items; /* relation items, MISSING or UNKNOWN, not optional */
	size_t count, cap;
};

/* Whether x, if it did not resolve, would break its user: not when it is
 * optional, a binding's subject (it grants to nothing, and nothing needs
 * it) or a name in a ServiceAccount's legacy list of its token Secrets. */
int owners_broken_uses_breaking(const struct owners_relations *rel,
				const struct owners_relation *x);
/* Adds what node uses that does not resolve. 0, or OWNERS_ENOMEM. */
int owners_broken_uses_add(struct owners_broken_uses *b, const struct owners_relations *rel,
			   uint32_t node);
/* By user (kind, namespace, name, UID), then field path. */
void owners_broken_uses_sort(struct owners_broken_uses *b, const struct owners_relations *rel,
			     const struct owners_graph *g);
void owners_broken_uses_clear(struct owners_broken_uses *b);
/* What a use that does not resolve breaks, in words ("its Pods cannot
 * start: a volume cannot be mounted"). */
const char *owners_broken_uses_breaks(const struct owners_relations *rel,
				      const struct owners_graph *g,
				      const struct owners_relation *x);

struct owners_broken_uses_render {
	const struct owners_graph *g;
	const struct owners_relations *rel;
	const struct owners_broken_uses *broken;
	struct owners_print_options print;
};

/* NAMESPACE OBJECT USES STATE BREAKS (wide: RELATION and the objects'
 * groups). */
int owners_broken_uses_render_text(struct owners_buf *out,
				   const struct owners_broken_uses_render *r);
/* {kind: OwnersBrokenUses, items: [{object, owners: {relation: RELATION
 * (relation_render.h), breaks}}]}. */
int owners_broken_uses_render_json(struct owners_buf *out,
				   const struct owners_broken_uses_render *r);
/* The objects that use what is not there, each once (kind.group/name). */
int owners_broken_uses_render_names(struct owners_buf *out,
				    const struct owners_broken_uses_render *r);

#endif
