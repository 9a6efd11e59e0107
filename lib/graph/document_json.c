/*
 * The shape of every document (see document_json.h).
 */
#include "document_json.h"
#include "node_json.h"

int owners_document_open(struct owners_json_gen *j, const char *kind)
{
	owners_json_gen_map_open(j);
	owners_json_gen_kv(j, "apiVersion", OWNERS_DOCUMENT_API_VERSION);
	owners_json_gen_kv(j, "kind", kind);
	owners_json_gen_string(j, "metadata");
	return owners_json_gen_map_open(j);
}

int owners_document_items(struct owners_json_gen *j)
{
	owners_json_gen_map_close(j);
	owners_json_gen_string(j, "items");
	return owners_json_gen_array_open(j);
}

int owners_document_warnings(struct owners_json_gen *j, const struct owners_scan_warning *w, size_t n)
{
	size_t i;

	owners_json_gen_string(j, "warnings");
	owners_json_gen_array_open(j);
	for (i = 0; i < n; i++) {
		owners_json_gen_map_open(j);
		owners_json_gen_kv(j, "reason", owners_scan_warning_reason_name(w[i].reason));
		owners_json_gen_kv(j, "group", w[i].group);
		owners_json_gen_kv(j, "version", w[i].version);
		owners_json_gen_kv(j, "resource", w[i].resource);
		if (w[i].reason == OWNERS_SCAN_WARNING_FORBIDDEN)
			owners_json_gen_kv_bool(j, "canHoldAnswer", w[i].can_hold_answer);
		owners_json_gen_kv(j, "message", w[i].message);
		owners_json_gen_map_close(j);
	}
	return owners_json_gen_array_close(j);
}

int owners_document_close(struct owners_json_gen *j, const struct owners_scan_warning *w, size_t n)
{
	owners_json_gen_array_close(j);
	owners_document_warnings(j, w, n);
	return owners_json_gen_map_close(j);
}

int owners_document_object(struct owners_json_gen *j, const struct owners_graph *g,
			   const struct owners_node *n)
{
	uint32_t k;

	owners_json_gen_kv(j, "apiVersion", n->place->api_version);
	owners_json_gen_kv(j, "kind", n->place->kind);
	owners_json_gen_string(j, "metadata");
	owners_json_gen_map_open(j);
	owners_json_gen_kv(j, "name", n->name);
	if (*n->place->namespace_)
		owners_json_gen_kv(j, "namespace", n->place->namespace_);
	owners_json_gen_kv(j, "uid", OWNERS_NODE_UID(n));
	if (!n->virtual_)
		owners_node_json_lifecycle(j, n);
	if (n->n_refs) {
		owners_json_gen_string(j, "ownerReferences");
		owners_json_gen_array_open(j);
		for (k = 0; k < n->n_refs; k++) {
			const struct owners_ref *ref = &n->refs[k];

			/* as the server has it: a field that is not there is not written */
			owners_json_gen_map_open(j);
			owners_json_gen_kv(j, "apiVersion", ref->type->api_version);
			owners_json_gen_kv(j, "kind", ref->type->kind);
			owners_json_gen_kv(j, "name", ref->name);
			owners_json_gen_kv(j, "uid", OWNERS_REF_UID(g, ref));
			if (ref->controller || ref->controller_set)
				owners_json_gen_kv_bool(j, "controller", ref->controller);
			if (ref->block_owner_deletion || ref->block_owner_deletion_set)
				owners_json_gen_kv_bool(j, "blockOwnerDeletion", ref->block_owner_deletion);
			owners_json_gen_map_close(j);
		}
		owners_json_gen_array_close(j);
	}
	if (n->extras->n_labels) {
		owners_json_gen_string(j, "labels");
		owners_json_gen_map_open(j);
		for (k = 0; k < n->extras->n_labels; k++)
			owners_json_gen_kv(j, n->extras->labels[2 * k], n->extras->labels[2 * k + 1]);
		owners_json_gen_map_close(j);
	}
	return owners_json_gen_map_close(j);
}

int owners_document_facts(struct owners_json_gen *j)
{
	owners_json_gen_string(j, "owners");
	return owners_json_gen_map_open(j);
}
