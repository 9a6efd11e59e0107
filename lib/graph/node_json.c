#include "node_json.h"

/* The generator keeps its first error: the calls need no checks between
 * them, only the last one's answer. */
int owners_node_json_identity(struct owners_json_gen *j, const struct owners_node *n)
{
	owners_json_gen_kv(j, "kind", n->place->kind);
	owners_json_gen_kv(j, "apiVersion", n->place->api_version);
	if (*n->place->namespace_)
		owners_json_gen_kv(j, "namespace", n->place->namespace_);
	owners_json_gen_kv(j, "name", n->name);
	owners_json_gen_kv(j, "uid", OWNERS_NODE_UID(n));
	return owners_json_gen_error(j);
}

int owners_node_json_lifecycle(struct owners_json_gen *j, const struct owners_node *n)
{
	uint32_t k;

	owners_json_gen_kv_time(j, "creationTimestamp", n->created);
	owners_json_gen_kv_time(j, "deletionTimestamp", n->extras->deleted);
	if (n->extras->n_finalizers) {
		owners_json_gen_string(j, "finalizers");
		owners_json_gen_array_open(j);
		for (k = 0; k < n->extras->n_finalizers; k++)
			owners_json_gen_string(j, n->extras->finalizers[k]);
		owners_json_gen_array_close(j);
	}
	return owners_json_gen_error(j);
}

int owners_ref_json_fields(struct owners_json_gen *j, const struct owners_graph *g,
			   const struct owners_ref *ref)
{
	owners_json_gen_kv(j, "apiVersion", ref->type->api_version);
	owners_json_gen_kv(j, "kind", ref->type->kind);
	owners_json_gen_kv(j, "name", ref->name);
	owners_json_gen_kv(j, "uid", OWNERS_REF_UID(g, ref));
	owners_json_gen_kv_bool(j, "controller", ref->controller);
	owners_json_gen_kv_bool(j, "blockOwnerDeletion", ref->block_owner_deletion);
	return owners_json_gen_error(j);
}
