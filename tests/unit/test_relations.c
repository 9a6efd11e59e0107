/*
 * The relations over the owner graph (lib/graph/relations.c): the uses of
 * objects read whole, resolved against the graph into the node used, a
 * missing object (its type listed there, it is not) or an unknown one
 * (its type not listed, refused, or not served): never missing by
 * guess. A StatefulSet's claim templates resolve to its ordinals' claims.
 */
#include <string.h>

#include "buf.h"
#include "fake_objects.h"
#include "fake_types.h"
#include "relations.h"
#include "tap.h"

static struct owners_resource_table types;

static const char *api_of(const char *kind)
{
	return !strcmp(kind, "StatefulSet") || !strcmp(kind, "Deployment") ? "apps/v1" : "v1";
}

#define O(kind, name, uid)                                                                         \
	{                                                                                          \
		kind, name, uid, NULL, { NULL },                                                   \
		{ { NULL, NULL, NULL, NULL, 0, 0 } } \
	}

/* Each relation of the objects in jsons (read as kinds[i]) against the
 * graph of objs: "user -> Kind/name state how" a line. */
static char *relations_of(const struct fake_obj *objs, size_t n, const char *refused,
			  const char *const *jsons, const char *const *kinds, size_t n_json)
{
	struct owners_graph *g = fake_graph_build(&types, objs, n, api_of, refused);
	struct owners_relations rel;
	struct owners_buf out = OWNERS_BUF_INIT;
	size_t i;

	memset(&rel, 0, sizeof(rel));
	for (i = 0; i < n_json; i++) {
		struct owners_json_value *v = NULL;
		const struct owners_resource *r =
			owners_resource_by_gvk(&types, api_of(kinds[i]), kinds[i]);

		if (owners_json_parse(&v, jsons[i], strlen(jsons[i]), NULL) ||
		    owners_relations_add_object(&rel, g, r, v))
			owners_buf_adds(&out, "(failed) ");
		owners_json_value_free(v);
	}
	if (owners_relations_resolve(&rel, g))
		owners_buf_adds(&out, "(failed resolving) ");
	for (i = 0; i < rel.count; i++) {
		const struct owners_relation *x = &rel.items[i];
		const struct owners_use *u = &rel.uses.items[x->use];

		owners_buf_addf(&out, "%s -> %s/%s %s %s\n", g->nodes[x->user].name, u->kind,
				x->state == OWNERS_RELATION_FOUND ? g->nodes[x->used].name
								  : u->name,
				x->state == OWNERS_RELATION_FOUND     ? "found"
				: x->state == OWNERS_RELATION_MISSING ? "missing"
								      : "unknown",
				owners_uses_how_name(u->how));
	}
	owners_relations_clear(&rel);
	owners_graph_free(g);
	return out.len ? owners_buf_detach(&out) : strdup("");
}

static void resolved(void)
{
	const struct fake_obj objs[] = {
		O("Pod", "web-1", "p"),
		O("ConfigMap", "app", "cm"),
		O("ServiceAccount", "web", "sa"),
		O("Secret", "tls", "s"),
	};
	const char *const jsons[] = {
		"{\"metadata\":{\"name\":\"web-1\",\"namespace\":\"ns\",\"uid\":\"p\"},\"spec\":{"
		"\"serviceAccountName\":\"web\","
		"\"volumes\":[{\"configMap\":{\"name\":\"app\"}},{\"configMap\":{\"name\":\"gone\"}"
		"},"
		"{\"configMap\":{\"name\":\"extra\",\"optional\":true}},{\"secret\":{"
		"\"secretName\":\"tls\"}}],"
		"\"priorityClassName\":\"high\"}}",
		"{\"metadata\":{\"name\":\"stranger\",\"namespace\":\"ns\",\"uid\":\"not-in-"
		"graph\"},\"spec\":{}}",
	};
	const char *const kinds[] = { "Pod", "Pod" };
	char *got = relations_of(objs, 4, NULL, jsons, kinds, 2);

	is_str(got,
	       "web-1 -> ConfigMap/app found mounts\n"
	       "web-1 -> ConfigMap/gone missing mounts\n"
	       "web-1 -> ConfigMap/extra missing mounts\n"
	       "web-1 -> Secret/tls found mounts\n"
	       "web-1 -> ServiceAccount/web found runs as\n"
	       "web-1 -> PriorityClass/high unknown has priority\n",
	       "a Pod's uses: found in the graph, missing from a listed type, unknown for a type "
	       "not served; "
	       "an object not in the graph adds nothing");
	free(got);
	got = relations_of(objs, 4, "secrets", jsons, kinds, 1);
	ok(strstr(got, "web-1 -> Secret/tls found mounts\n") != NULL,
	   "a Secret seen is found even where the list failed");
	free(got);
	{
		const char *const one[] = {
			"{\"metadata\":{\"name\":\"web-1\",\"namespace\":\"ns\",\"uid\":\"p\"},"
			"\"spec\":{\"volumes\":[{\"secret\":{\"secretName\":\"lost\"}}]}}"
		};

		got = relations_of(objs, 4, "secrets", one, kinds, 1);
		ok(strstr(got, "web-1 -> Secret/lost unknown mounts\n") != NULL,
		   "one not seen where the Secrets' list was refused is unknown, never missing");
		free(got);
	}
}

static void claim_templates(void)
{
	const struct fake_obj objs[] = {
		O("StatefulSet", "db", "ss"),
		O("PersistentVolumeClaim", "data-db-0", "c0"),
		O("PersistentVolumeClaim", "data-db-1", "c1"),
		O("PersistentVolumeClaim", "data-db-5", "c5"),
	};
	const char *const jsons[] = {
		"{\"metadata\":{\"name\":\"db\",\"namespace\":\"ns\",\"uid\":\"ss\"},\"spec\":{"
		"\"replicas\":3,"
		"\"template\":{\"spec\":{\"serviceAccountName\":\"db\"}},"
		"\"volumeClaimTemplates\":[{\"metadata\":{\"name\":\"data\"}}]}}"
	};
	const char *const kinds[] = { "StatefulSet" };
	char *got = relations_of(objs, 4, NULL, jsons, kinds, 1);

	is_str(got,
	       "db -> ServiceAccount/db missing runs as\n"
	       "db -> PersistentVolumeClaim/data-db-0 found claims (template)\n"
	       "db -> PersistentVolumeClaim/data-db-1 found claims (template)\n",
	       "a StatefulSet at 3 replicas uses the claims of its ordinals that exist (0, 1; 2 is "
	       "not made yet, "
	       "5 is past them)");
	free(got);
}

int main(void)
{
	fake_type_add(&types, &(struct fake_type){ "", "v1", "pods", "pod", "Pod", "po", 1, 1 });
	fake_type_add(&types, &(struct fake_type){ "", "v1", "configmaps", "configmap", "ConfigMap",
						   "cm", 1, 1 });
	fake_type_add(&types,
		      &(struct fake_type){ "", "v1", "secrets", "secret", "Secret", NULL, 1, 1 });
	fake_type_add(&types, &(struct fake_type){ "", "v1", "serviceaccounts", "serviceaccount",
						   "ServiceAccount", "sa", 1, 1 });
	fake_type_add(&types, &(struct fake_type){ "", "v1", "persistentvolumeclaims",
						   "persistentvolumeclaim", "PersistentVolumeClaim",
						   "pvc", 1, 1 });
	fake_type_add(&types, &(struct fake_type){ "apps", "v1", "statefulsets", "statefulset",
						   "StatefulSet", "sts", 1, 1 });
	owners_resource_table_mark_tracked(&types);
	resolved();
	claim_templates();
	owners_resource_table_clear(&types);
	return tap_done();
}
