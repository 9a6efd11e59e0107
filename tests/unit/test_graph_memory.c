/* Where a graph's bytes go (lib/graph/graph_memory.c): each part counted
 * from what the graph holds, and the parts summing to the total. */
#include <string.h>

#include "fake_objects.h"
#include "fake_types.h"
#include "graph_memory.h"
#include "tap.h"

int main(void)
{
	struct owners_resource_table types;
	const struct owners_resource *cm;
	struct owners_graph *g = NULL;
	struct owners_graph_memory m;
	const struct owners_owner_ref_meta ref = { "v1",     "ConfigMap",
						   "parent", "00000000-0000-4000-8000-000000000001",
						   1,        1 };
	const struct owners_owner_ref_meta late = { "v1",    "ConfigMap",
						    "later", "00000000-0000-4000-8000-000000000004",
						    0,       0 };
	const char *const fins[] = { "example.com/hold" };

	memset(&types, 0, sizeof(types));
	fake_type_add(&types, &(const struct fake_type){ "", "v1", "configmaps", "configmap",
							 "ConfigMap", "cm", 1, 1 });
	cm = owners_resource_by_gvk(&types, "v1", "ConfigMap");
	ok(owners_graph_new(&g, &types) == 0, "graph created");
	fake_object_add(g, cm, FAKE_OBJECT("ns", "parent", "00000000-0000-4000-8000-000000000001"));
	fake_object_add(g, cm,
			FAKE_OBJECT("ns", "child", "00000000-0000-4000-8000-000000000002",
				    .n_refs = 1, .refs = &ref, .n_fins = 1, .fins = fins));
	/* an object whose owner comes after it keeps its own copies */
	fake_object_add(g, cm,
			FAKE_OBJECT("ns", "early", "00000000-0000-4000-8000-000000000003",
				    .n_refs = 1, .refs = &late));
	fake_object_add(g, cm, FAKE_OBJECT("ns", "later", "00000000-0000-4000-8000-000000000004"));
	/* a UID not as the apiserver writes them: kept as text */
	fake_object_add(g, cm, FAKE_OBJECT("ns", "odd", "uid-odd", .rv = "v-7"));
	ok(owners_graph_link(g) == 0, "linked");
	owners_graph_memory(g, &m);
	is_int((long)m.nodes, (long)(5 * sizeof(struct owners_node)), "nodes: five of them");
	is_int((long)m.refs, (long)(2 * sizeof(struct owners_ref)), "references: two");
	is_int((long)m.uids, (long)sizeof("uid-odd"),
	       "UIDs: only the one that is not a UUID has a string (the others are 16 bytes in "
	       "their node or reference)");
	is_int((long)m.names,
	       (long)(strlen("parent") + strlen("child") + strlen("early") + 2 * strlen("later") +
		      strlen("odd") + 6),
	       "names: the objects', and the reference's made before its owner was read");
	is_int((long)m.versions, (long)sizeof("v-7"),
	       "resourceVersions: only the one that is not a number has a string (\"1\" is kept as "
	       "1)");
	is_int((long)m.finalizers, (long)sizeof(char *),
	       "finalizers: one pointer (the name is interned)");
	is_int((long)m.extras, (long)sizeof(struct owners_node_extras),
	       "finalizer and label records: one, the only object with a finalizer's");
	is_int((long)m.places, (long)(2 * sizeof(struct owners_node_place) + 64 * sizeof(void *)),
	       "places: two (every object is a ConfigMap in ns; every reference names a v1 "
	       "ConfigMap) and the table's first room");
	ok(m.interned >= strlen("example.com/hold") + 1,
	   "interned: the finalizer's name among them");
	is_int((long)m.edges, (long)(2 * sizeof(uint32_t)), "edges: two dependents");
	ok(m.uid_index >= 2 * sizeof(uint32_t), "the UID index has room for both");
	is_int((long)m.total,
	       (long)(m.nodes + m.nodes_spare + m.refs + m.uids + m.names + m.versions + m.labels +
		      m.finalizers + m.extras + m.places + m.interned + m.uid_index + m.name_index + m.edges +
		      m.arena_slack),
	       "the parts sum to the total");
	owners_graph_free(g);
	owners_resource_table_clear(&types);
	return tap_done();
}
