/* What is left in a namespace: objects counted by type from the graph,
 * in type order, and the types that could not be listed there. */
#include <stdlib.h>
#include <string.h>

#include "fake_objects.h"
#include "fake_types.h"
#include "namespace_content.h"
#include "tap.h"

static struct owners_resource_table types;

static void add(struct owners_graph *g, const char *api, const char *kind, const char *ns,
		const char *name, const char *uid)
{
	if (fake_object_try_add(g, owners_resource_by_gvk(&types, api, kind),
				FAKE_OBJECT(ns, name, uid)))
		ok(0, "add %s", name);
}

int main(void)
{
	struct owners_graph *g = NULL;
	struct owners_namespace_content c;
	struct owners_buf b = OWNERS_BUF_INIT;
	const struct owners_owner_ref_meta gone = { "v1", "ConfigMap", "gone", "u-gone", 0, 0 };

	owners_resource_table_init(&types);
	fake_type_add(&types,
		      &(struct fake_type){ "", "v1", "secrets", "secret", "Secret", NULL, 1, 1 });
	fake_type_add(&types,
		      &(struct fake_type){ "", "v1", "configmaps", "configmap", "ConfigMap", NULL,
					   1, 1 });
	fake_type_add(&types,
		      &(struct fake_type){ "apps", "v1", "deployments", "deployment", "Deployment",
					   NULL, 1, 1 });
	fake_type_add(&types,
		      &(struct fake_type){ "", "v1", "namespaces", "namespace", "Namespace", NULL,
					   0, 1 });
	fake_type_add(&types, &(struct fake_type){ "", "v1", "pods", "pod", "Pod", NULL, 1, 1 });
	ok(owners_graph_new(&g, &types) == 0, "graph");

	ok(owners_namespace_content_count(&c, g, "a") == 0 && c.objects == 0 && c.n_types == 0,
	   "an empty graph: nothing left");
	owners_namespace_content_clear(&c);

	add(g, "v1", "Secret", "a", "s1", "u1");
	add(g, "apps/v1", "Deployment", "a", "d1", "u2");
	add(g, "v1", "ConfigMap", "a", "c1", "u3");
	add(g, "v1", "ConfigMap", "a", "c2", "u4");
	add(g, "v1", "ConfigMap", "b", "elsewhere", "u5");
	add(g, "v1", "Namespace", "", "a", "u6");
	/* a reference to an object never seen: a virtual node, not content */
	fake_object_add(g, owners_resource_by_gvk(&types, "v1", "Secret"),
			FAKE_OBJECT("a", "dep", "u7", 1, &gone));
	owners_graph_note_listing(g, owners_resource_by_gvk(&types, "v1", "Pod"), "a", OWNERS_EFORBIDDEN,
				  "forbidden");
	owners_graph_note_listing(g, owners_resource_by_gvk(&types, "v1", "ConfigMap"), "a", 0, NULL);
	ok(owners_graph_link(g) == 0, "linked");

	ok(owners_namespace_content_count(&c, g, "a") == 0, "count namespace a");
	is_int(c.objects, 5, "five objects in a (not the one in b, not the namespace, not the virtual owner)");
	is_int(c.n_types, 3, "three types");
	is_int(c.unlisted, 1, "pods could not be listed there");
	ok(owners_namespace_content_summary(&b, &c) == 0, "summary");
	is_str(b.ptr, "configmaps 2, secrets 2, deployments.apps 1",
	       "core types first, then by group; kubectl's type names");
	owners_namespace_content_clear(&c);
	owners_buf_clear(&b);
	owners_graph_free(g);
	owners_resource_table_clear(&types);
	return tap_done();
}
