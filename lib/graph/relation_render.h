/*
 * One relation as every command says it: in words for a table or a
 * message ("mounts spec.volumes[0].configMap, optional"), the object it
 * names whether or not it exists ("ConfigMap/app"), and as the fields of
 * a document ({"relation":"mounts","words":"mounts","path":...}). The
 * same words in tree --related, why, delete, dangling --related and
 * unused.
 *
 * Ownership: nothing is kept; the relations and the graph are borrowed.
 */
#ifndef OWNERS_RELATION_RENDER_H
#define OWNERS_RELATION_RENDER_H

#include "buf.h"
#include "json.h"
#include "relations.h"

/* "mounts spec.volumes[0].configMap", ", optional" added when it is. */
int owners_relation_render_how(struct owners_buf *out, const struct owners_relations *rel,
			       const struct owners_relation *x);
/* The object used: Kind/name, as the graph has it, else as the use
 * names it (one that does not exist); with wide, Kind.group/name. */
int owners_relation_render_used(struct owners_buf *out, const struct owners_relations *rel,
				const struct owners_graph *g, const struct owners_relation *x,
				int wide);
/* "found", "missing" or "unknown". */
const char *owners_relation_render_state(enum owners_relation_state s);
/* The relation's fields, into an open map: relation (its key), words,
 * path, optional, state, and user and used ({kind, apiVersion (used: the
 * group, when it does not exist), namespace, name, uid}). */
int owners_relation_render_json(struct owners_json_gen *j, const struct owners_relations *rel,
				const struct owners_graph *g, const struct owners_relation *x);

#endif
