#include "relation_render.h"

#include <string.h>

#include "node_json.h"

int owners_relation_render_how(struct owners_buf *out, const struct owners_relations *rel,
			       const struct owners_relation *x)
{
	const struct owners_use *u = &rel->uses.items[x->use];

	return owners_buf_addf(out, "%s %s%s", owners_uses_how_name(u->how), u->path,
			       u->optional ? ", optional" : "");
}

int owners_relation_render_used(struct owners_buf *out, const struct owners_relations *rel,
				const struct owners_graph *g, const struct owners_relation *x,
				int wide)
{
	const struct owners_use *u = &rel->uses.items[x->use];

	if (x->used != OWNERS_NO_NODE)
		return owners_graph_node_shown_name(out, &g->nodes[x->used], wide);
	if (wide && *u->group)
		return owners_buf_addf(out, "%s.%s/%s", u->kind, u->group, u->name);
	return owners_buf_addf(out, "%s/%s", u->kind, u->name);
}

const char *owners_relation_render_state(enum owners_relation_state s)
{
	switch (s) {
	case OWNERS_RELATION_FOUND: return "found";
	case OWNERS_RELATION_MISSING: return "missing";
	case OWNERS_RELATION_UNKNOWN: return "unknown";
	}
	return "unknown";
}

int owners_relation_render_json(struct owners_json_gen *j, const struct owners_relations *rel,
				const struct owners_graph *g, const struct owners_relation *x)
{
	const struct owners_use *u = &rel->uses.items[x->use];

	owners_json_gen_kv(j, "relation", owners_uses_how_key(u->how));
	owners_json_gen_kv(j, "words", owners_uses_how_name(u->how));
	owners_json_gen_kv(j, "path", u->path);
	owners_json_gen_kv_bool(j, "optional", u->optional);
	owners_json_gen_kv(j, "state", owners_relation_render_state(x->state));
	owners_json_gen_string(j, "user");
	owners_json_gen_map_open(j);
	owners_node_json_identity(j, &g->nodes[x->user]);
	owners_json_gen_map_close(j);
	owners_json_gen_string(j, "used");
	owners_json_gen_map_open(j);
	if (x->used != OWNERS_NO_NODE) {
		owners_node_json_identity(j, &g->nodes[x->used]);
	} else {
		owners_json_gen_kv(j, "kind", u->kind);
		owners_json_gen_kv(j, "group", u->group);
		if (u->namespace_)
			owners_json_gen_kv(j, "namespace", u->namespace_);
		owners_json_gen_kv(j, "name", u->name);
	}
	owners_json_gen_map_close(j);
	return owners_json_gen_error(j);
}
