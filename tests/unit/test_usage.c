/*
 * Who uses what, over a small world of whole objects (as a dump holds
 * them): the relations with their selectors and marks (lib/graph/
 * relations.c), one order whatever order the objects came in, which uses
 * count (lib/ops/usage.c), what is unused and why (lib/ops/unused.c),
 * unknown where a user type was not read, the uses that do not resolve
 * (lib/ops/broken_uses.c), a record of uses read back (lib/api/
 * uses_record.c) and the plain tables they print in (lib/core/
 * text_table.c).
 */
#include <stdlib.h>
#include <string.h>

#include "broken_uses.h"
#include "buf.h"
#include "fake_types.h"
#include "relation_render.h"
#include "relations.h"
#include "tap.h"
#include "text_table.h"
#include "unused.h"
#include "usage.h"
#include "uses_record.h"

static struct owners_resource_table types;

/* The world: a graph of the objects' metadata, and their relations. */
struct world {
	struct owners_graph *g;
	struct owners_relations rel;
};

/* owners_object_meta from a whole object (labels and ownerReferences
 * included); v must outlive m. */
static void meta_of(struct owners_object_meta *m, struct owners_label_meta *labels,
		    struct owners_owner_ref_meta *refs, const struct owners_json_value *v)
{
	const struct owners_json_value *md = owners_json_get(v, "metadata");
	const struct owners_json_value *l = owners_json_get(md, "labels");
	const struct owners_json_value *r = owners_json_get(md, "ownerReferences");
	size_t i;

	memset(m, 0, sizeof(*m));
	m->name = owners_json_string(owners_json_get(md, "name"));
	m->namespace_ = owners_json_string(owners_json_get(md, "namespace"));
	if (!m->namespace_)
		m->namespace_ = "";
	m->uid = owners_json_string(owners_json_get(md, "uid"));
	m->resource_version = "1";
	m->creation_timestamp = "2026-01-01T00:00:00Z";
	for (i = 0; l && l->type == OWNERS_JSON_OBJECT && i < l->count && i < 8; i++) {
		labels[i].key = l->keys[i];
		labels[i].value = owners_json_string(l->items[i]);
	}
	m->labels = labels;
	m->n_labels = l && l->type == OWNERS_JSON_OBJECT ? (l->count < 8 ? l->count : 8) : 0;
	for (i = 0; i < owners_json_array_count(r) && i < 2; i++) {
		memset(&refs[i], 0, sizeof(refs[i]));
		refs[i].api_version =
			owners_json_string(owners_json_get(r->items[i], "apiVersion"));
		refs[i].kind = owners_json_string(owners_json_get(r->items[i], "kind"));
		refs[i].name = owners_json_string(owners_json_get(r->items[i], "name"));
		refs[i].uid = owners_json_string(owners_json_get(r->items[i], "uid"));
	}
	m->owner_refs = refs;
	m->n_owner_refs = owners_json_array_count(r) < 2 ? owners_json_array_count(r) : 2;
}

static const struct owners_resource *type_of(const struct owners_json_value *v)
{
	return owners_resource_by_gvk(&types, owners_json_string(owners_json_get(v, "apiVersion")),
				      owners_json_string(owners_json_get(v, "kind")));
}

/* A world of the n objects in order (reversed: last first); every type
 * listed and read whole, but refused (its lists failed). */
static int world_make(struct world *w, const char *const *objects, size_t n, int reversed,
		      const char *refused)
{
	struct owners_json_value **v = calloc(n, sizeof(*v));
	size_t i;
	int rc = 0;

	memset(w, 0, sizeof(*w));
	owners_graph_new(&w->g, &types);
	for (i = 0; i < types.count; i++) {
		int no = refused && !strcmp(types.items[i].resource, refused);

		owners_graph_note_listing(w->g, &types.items[i], NULL, 0, NULL);
		owners_relations_note_read(&w->rel, &types.items[i], NULL,
					   no ? OWNERS_EFORBIDDEN : 0, no ? "forbidden" : NULL);
	}
	for (i = 0; !rc && i < n; i++) {
		size_t k = reversed ? n - 1 - i : i;
		struct owners_object_meta m;
		struct owners_label_meta labels[8];
		struct owners_owner_ref_meta refs[2];

		if ((rc = owners_json_parse(&v[k], objects[k], strlen(objects[k]), NULL)) ||
		    !type_of(v[k])) {
			printf("# object %zu: not JSON, or of no type\n", k);
			rc = 1;
			break;
		}
		meta_of(&m, labels, refs, v[k]);
		rc = owners_graph_add(w->g, type_of(v[k]), &m);
	}
	if (!rc)
		rc = owners_graph_link(w->g);
	for (i = 0; !rc && i < n; i++) {
		size_t k = reversed ? n - 1 - i : i;

		rc = owners_relations_add_object(&w->rel, w->g, type_of(v[k]), v[k]);
	}
	if (!rc)
		rc = owners_relations_resolve(&w->rel, w->g);
	for (i = 0; i < n; i++)
		owners_json_value_free(v[i]);
	free(v);
	return rc;
}

static void world_clear(struct world *w)
{
	owners_relations_clear(&w->rel);
	owners_graph_free(w->g);
}

static uint32_t node_named(const struct world *w, const char *kind, const char *name)
{
	uint32_t k;

	for (k = 0; k < w->g->count; k++)
		if (!strcmp(w->g->nodes[k].place->kind, kind) && !strcmp(w->g->nodes[k].name, name))
			return k;
	return OWNERS_NO_NODE;
}

/* Every node's uses and users, "user how used" a line, node by node in
 * the node order: what a caller reads from the index. */
static char *dump_index(const struct world *w)
{
	struct owners_buf out = OWNERS_BUF_INIT;
	uint32_t *order = malloc(w->g->count * sizeof(*order)), k;
	size_t i, n;
	const size_t *at;

	for (k = 0; k < w->g->count; k++)
		order[k] = k;
	owners_graph_sort_nodes(w->g, order, w->g->count);
	for (k = 0; k < w->g->count; k++) {
		n = owners_relations_uses_of(&w->rel, order[k], &at);
		for (i = 0; i < n; i++) {
			const struct owners_relation *x = &w->rel.items[at[i]];
			const struct owners_use *u = &w->rel.uses.items[x->use];

			owners_buf_addf(&out, "%s/%s %s %s/%s (%s)\n", w->g->nodes[x->user].place->kind,
					w->g->nodes[x->user].name, owners_uses_how_key(u->how),
					u->kind, u->name, owners_relation_render_state(x->state));
		}
		n = owners_relations_users_of(&w->rel, order[k], &at);
		owners_buf_addf(&out, "  %s/%s: %zu users\n", w->g->nodes[order[k]].place->kind,
				w->g->nodes[order[k]].name, n);
	}
	free(order);
	return owners_buf_detach(&out);
}

#define POD(name, uid, labels, spec)                                                               \
	"{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" name                   \
	"\",\"namespace\":\"ns\",\"uid\":\"" uid "\",\"labels\":" labels "},\"spec\":" spec "}"
#define OBJ(api, kind, name, uid, rest)                                                            \
	"{\"apiVersion\":\"" api "\",\"kind\":\"" kind "\",\"metadata\":{\"name\":\"" name         \
	"\",\"namespace\":\"ns\",\"uid\":\"" uid "\"}" rest "}"
#define CLUSTER_OBJ(api, kind, name, uid, rest)                                                    \
	"{\"apiVersion\":\"" api "\",\"kind\":\"" kind "\",\"metadata\":{\"name\":\"" name         \
	"\",\"uid\":\"" uid "\"}" rest "}"

static const char *const world_objects[] = {
	POD("web-1", "p1", "{\"app\":\"web\"}",
	    "{\"serviceAccountName\":\"web\",\"volumes\":[{\"configMap\":{\"name\":\"app\"}},"
	    "{\"configMap\":{\"name\":\"gone\"}},{\"configMap\":{\"name\":\"maybe\",\"optional\":"
	    "true}}]}"),
	POD("other", "p2", "{\"app\":\"other\"}", "{}"),
	OBJ("v1", "ConfigMap", "app", "c1", ""),
	OBJ("v1", "ConfigMap", "orphan", "c2", ""),
	OBJ("v1", "ConfigMap", "kube-root-ca.crt", "c3", ""),
	OBJ("v1", "ServiceAccount", "web", "sa1", ""),
	OBJ("v1", "ServiceAccount", "default", "sa2", ""),
	OBJ("v1", "Secret", "stale-token", "s1",
	    ",\"type\":\"kubernetes.io/service-account-token\"") /* no annotation: names none */,
	"{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"ghost-token\","
	"\"namespace\":\"ns\",\"uid\":\"s2\",\"annotations\":{\"kubernetes.io/"
	"service-account.name\":"
	"\"ghost\"}},\"type\":\"kubernetes.io/service-account-token\"}",
	/* a selector, no slice: it selects web-1 */
	OBJ("v1", "Service", "by-selector", "v1", ",\"spec\":{\"selector\":{\"app\":\"web\"}}"),
	/* an empty selector: none */
	OBJ("v1", "Service", "empty", "v2", ",\"spec\":{\"selector\":{}}"),
	/* a slice with an endpoint: what it routes to, not its selector */
	OBJ("v1", "Service", "sliced", "v3", ",\"spec\":{\"selector\":{\"app\":\"web\"}}"),
	"{\"apiVersion\":\"discovery.k8s.io/v1\",\"kind\":\"EndpointSlice\",\"metadata\":{\"name\":"
	"\"sliced-x\",\"namespace\":\"ns\",\"uid\":\"es1\",\"labels\":{\"kubernetes.io/"
	"service-name\":"
	"\"sliced\"},\"ownerReferences\":[{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"name\":"
	"\"sliced\",\"uid\":\"v3\"}]},\"endpoints\":[{\"addresses\":[\"10.0.0.1\"],\"targetRef\":"
	"{\"kind\":\"Pod\",\"name\":\"other\",\"namespace\":\"ns\"}}]}",
	OBJ("networking.k8s.io/v1", "NetworkPolicy", "all", "np1",
	    ",\"spec\":{\"podSelector\":{}}"),
	CLUSTER_OBJ("v1", "PersistentVolume", "pv-old", "pv1",
		    ",\"spec\":{\"claimRef\":{\"namespace\":\"ns\",\"name\":\"gone-claim\"}}"),
	CLUSTER_OBJ("storage.k8s.io/v1", "StorageClass", "standard", "sc1", ""),
	"{\"apiVersion\":\"storage.k8s.io/v1\",\"kind\":\"StorageClass\",\"metadata\":{\"name\":"
	"\"default\",\"uid\":\"sc2\",\"annotations\":{\"storageclass.kubernetes.io/"
	"is-default-class\":"
	"\"true\"}}}",
};
#define N_WORLD (sizeof(world_objects) / sizeof(world_objects[0]))

static void selectors_and_slices(void)
{
	struct world w;
	uint32_t web, other, sliced;
	const size_t *at;
	size_t n, i;
	int by_selector = 0, by_sliced = 0, by_policy = 0;

	if (world_make(&w, world_objects, N_WORLD, 0, NULL)) {
		ok(0, "the world is made");
		return;
	}
	web = node_named(&w, "Pod", "web-1");
	other = node_named(&w, "Pod", "other");
	sliced = node_named(&w, "Service", "sliced");
	n = owners_relations_users_of(&w.rel, web, &at);
	for (i = 0; i < n; i++) {
		const char *user = w.g->nodes[w.rel.items[at[i]].user].name;

		by_selector += !strcmp(user, "by-selector");
		by_sliced += !strcmp(user, "sliced");
		by_policy += !strcmp(user, "all");
	}
	ok(by_selector == 1,
	   "a Service with no EndpointSlice selects the Pods its selector matches");
	ok(by_sliced == 0,
	   "a Service with an EndpointSlice does not: its slice says what it routes to");
	ok(by_policy == 1,
	   "a NetworkPolicy's empty podSelector selects every Pod of its namespace");
	n = owners_relations_users_of(&w.rel, other, &at);
	ok(n == 2 && !strcmp(w.g->nodes[w.rel.items[at[0]].user].place->kind, "EndpointSlice"),
	   "the Pod the slice names is used by the slice (and the policy)");
	ok(owners_relations_marks(&w.rel, sliced) & OWNERS_USES_MARK_ENDPOINTS,
	   "a Service whose slice has an endpoint is marked so");
	ok(!(owners_relations_marks(&w.rel, node_named(&w, "Service", "by-selector")) &
	     OWNERS_USES_MARK_ENDPOINTS),
	   "one without a slice is not");
	ok(owners_relations_selects_any(&w.rel, w.g, node_named(&w, "Service", "empty")) == 0,
	   "an empty Service selector selects no Pod");
	ok(owners_relations_selects_any(&w.rel, w.g, sliced) == 1,
	   "a sliced Service's selector still matches, asked directly");
	world_clear(&w);
}

static void one_order(void)
{
	struct world a, b;
	char *x = NULL, *y = NULL;

	if (!world_make(&a, world_objects, N_WORLD, 0, NULL) &&
	    !world_make(&b, world_objects, N_WORLD, 1, NULL)) {
		x = dump_index(&a);
		y = dump_index(&b);
	}
	ok(x && y && !strcmp(x, y),
	   "each node's uses and users in one order, whatever order the objects came in");
	ok(x && strstr(x, "Pod/web-1 mounts ConfigMap/app (found)\nPod/web-1 runsAs "
			  "ServiceAccount/web (found)\n"
			  "Pod/web-1 mounts ConfigMap/gone (missing)\n"),
	   "  by the other end, what exists first (kind, namespace, name), then what is missing");
	free(x);
	free(y);
	world_clear(&a);
	world_clear(&b);
}

static char *unused_of(const struct world *w)
{
	struct owners_unused_report rep = { NULL, 0, 0 };
	struct owners_buf out = OWNERS_BUF_INIT;
	uint32_t k;
	size_t i;

	for (k = 0; k < w->g->count; k++)
		owners_unused_check(&rep, &w->rel, w->g, k);
	owners_unused_report_sort(&rep, w->g);
	for (i = 0; i < rep.count; i++)
		owners_buf_addf(&out, "%s/%s %s: %s\n", w->g->nodes[rep.items[i].node].place->kind,
				w->g->nodes[rep.items[i].node].name,
				owners_unused_state_name(rep.items[i].state), rep.items[i].reason);
	owners_unused_report_clear(&rep);
	return out.len ? owners_buf_detach(&out) : strdup("");
}

static void unused_and_unknown(void)
{
	struct world w;
	char *got;

	if (world_make(&w, world_objects, N_WORLD, 0, NULL)) {
		ok(0, "the world is made");
		return;
	}
	got = unused_of(&w);
	is_str(got,
	       "PersistentVolume/pv-old unused: Released: its claim ns/gone-claim is gone\n"
	       "StorageClass/standard unused: no claim or volume is of it, and it is not the "
	       "default\n"
	       "ConfigMap/orphan unused: nothing mounts it or reads it, and no owner keeps it\n"
	       "Secret/ghost-token unused: a token of ServiceAccount ghost, which does not exist\n"
	       "Secret/stale-token unused: nothing mounts it, reads it or pulls with it, and no "
	       "owner "
	       "keeps it\n"
	       "Service/empty unused: no endpoints, and no selector\n",
	       "unused: what nothing uses, each with its kind's reason; not the cluster's own "
	       "(kube-root-ca.crt, default), a default class, a Service that selects or has "
	       "endpoints");
	free(got);
	world_clear(&w);
	if (world_make(&w, world_objects, N_WORLD, 0, "pods")) {
		ok(0, "the world is made");
		return;
	}
	got = unused_of(&w);
	ok(strstr(got, "ConfigMap/orphan unknown: its users cannot all be seen: pods in namespace "
		       "ns (forbidden)") != NULL,
	   "a type of its users not read: unknown, naming it, never unused");
	ok(strstr(got, "StorageClass/standard unused") != NULL,
	   "  what Pods cannot use is still told (a StorageClass's users are claims and volumes)");
	free(got);
	world_clear(&w);
}

static void broken_and_counted(void)
{
	struct world w;
	struct owners_broken_uses b = { NULL, 0, 0 };
	struct owners_usage u;
	uint32_t k;

	memset(&u, 0, sizeof(u));
	if (world_make(&w, world_objects, N_WORLD, 0, NULL)) {
		ok(0, "the world is made");
		return;
	}
	for (k = 0; k < w.g->count; k++)
		owners_broken_uses_add(&b, &w.rel, k);
	owners_broken_uses_sort(&b, &w.rel, w.g);
	ok(b.count == 3, "three uses that do not resolve break something (not the optional one)");
	if (b.count == 3) {
		is_str(w.rel.uses.items[w.rel.items[b.items[0]].use].name, "gone-claim",
		       "  by user: a volume's claim that is gone");
		is_str(w.rel.uses.items[w.rel.items[b.items[1]].use].name, "gone",
		       "  the Pod's missing ConfigMap");
		is_str(owners_broken_uses_breaks(&w.rel, w.g, &w.rel.items[b.items[1]]),
		       "it cannot start: a volume cannot be mounted", "  and what it breaks");
		is_str(w.rel.uses.items[w.rel.items[b.items[2]].use].name, "ghost",
		       "  a token's missing ServiceAccount");
	}
	owners_usage_add(&u, &w.rel, w.g, node_named(&w, "Pod", "web-1"));
	ok(u.n_users == 1 && u.n_unseen == 0,
	   "a Pod's users that count: the Service that selects it, not the NetworkPolicy");
	owners_usage_clear(&u);
	owners_usage_add(&u, &w.rel, w.g, node_named(&w, "ServiceAccount", "web"));
	ok(u.n_users == 1, "a ServiceAccount a Pod runs as is used");
	owners_usage_clear(&u);
	owners_broken_uses_clear(&b);
	world_clear(&w);
}

static void records(void)
{
	static const char *const deployment =
		"{\"metadata\":{\"name\":\"web\",\"namespace\":\"ns\",\"uid\":\"d\"},\"spec\":{"
		"\"template\":{\"spec\":{\"volumes\":[{\"configMap\":{\"name\":\"app\","
		"\"optional\":true}}]}}}}";
	static const char *const statefulset =
		"{\"metadata\":{\"name\":\"db\",\"namespace\":\"ns\",\"uid\":\"s\"},\"spec\":{"
		"\"replicas\":3,"
		"\"ordinals\":{\"start\":2},\"template\":{\"spec\":{}},\"volumeClaimTemplates\":[{"
		"\"metadata\":{\"name\":\"data\"}}]}}";
	static const char *const service =
		"{\"metadata\":{\"name\":\"s\",\"namespace\":\"ns\",\"uid\":\"v\"},\"spec\":{"
		"\"selector\":{\"app\":\"web\",\"tier\":\"x\"}}}";
	static const char *const bad[] = {
		"not json",
		"{\"kind\":\"Pod\"}",
		"{\"group\":\"\",\"kind\":\"Pod\",\"uses\":[[1,2]]}",
		"{\"group\":\"\",\"kind\":\"Pod\",\"uses\":[[\"\",\"ConfigMap\",\"ns\",\"a\","
		"\"nonsense\",\"p\",0]]}",
		"{\"group\":\"apps\",\"kind\":\"StatefulSet\",\"uses\":[[\"\","
		"\"PersistentVolumeClaim\",\"ns\",\"a\",\"claimsTemplate\",\"p\",0]]}",
		"{\"group\":\"\",\"kind\":\"Service\",\"selector\":[\"some\"]}",
	};
	struct owners_buf rec = OWNERS_BUF_INIT;
	struct owners_json_value *v = NULL;
	struct owners_uses uses = { NULL, 0, 0, 0 };
	struct owners_pod_selector sel;
	struct owners_error err = OWNERS_ERROR_INIT;
	unsigned marks;
	size_t i;

	owners_json_parse(&v, deployment, strlen(deployment), NULL);
	ok(owners_uses_record_of_object(&rec, v, "apps", "Deployment") == 1 &&
		   !owners_uses_record_read(rec.ptr, rec.len, &uses, &sel, &marks, &err) &&
		   uses.count == 2 &&
		   !strcmp(uses.items[0].path, "spec.template.spec.volumes[0].configMap") &&
		   uses.items[0].optional && uses.items[0].how == OWNERS_USE_MOUNTS &&
		   uses.items[0].namespace_ && !strcmp(uses.items[0].namespace_, "ns") &&
		   uses.items[1].how == OWNERS_USE_RUNS_AS &&
		   !strcmp(uses.items[1].name, "default"),
	   "a template's uses read back from its record: path, relation, optional, namespace, the "
	   "default ServiceAccount");
	owners_json_value_free(v);
	owners_uses_clear(&uses);
	owners_pod_selector_clear(&sel);
	owners_buf_reset(&rec);
	owners_json_parse(&v, statefulset, strlen(statefulset), NULL);
	ok(owners_uses_record_of_object(&rec, v, "apps", "StatefulSet") == 1 &&
		   !owners_uses_record_read(rec.ptr, rec.len, &uses, &sel, &marks, &err) &&
		   uses.count == 2 && uses.items[1].how == OWNERS_USE_CLAIMS_TEMPLATE &&
		   uses.items[1].first_ordinal == 2 && uses.items[1].ordinals == 3,
	   "a claim template's ordinals read back");
	owners_json_value_free(v);
	owners_uses_clear(&uses);
	owners_pod_selector_clear(&sel);
	owners_buf_reset(&rec);
	owners_json_parse(&v, service, strlen(service), NULL);
	ok(owners_uses_record_of_object(&rec, v, "", "Service") == 1 &&
		   !owners_uses_record_read(rec.ptr, rec.len, &uses, &sel, &marks, &err) &&
		   sel.scope == OWNERS_POD_SELECTOR_MATCHING && sel.text &&
		   !strcmp(sel.text, "app=web,tier=x"),
	   "a Service's selector read back as the selector it was");
	owners_json_value_free(v);
	owners_uses_clear(&uses);
	owners_pod_selector_clear(&sel);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc = owners_uses_record_read(bad[i], strlen(bad[i]), &uses, &sel, &marks, &err);

		ok(rc == OWNERS_EPROTO && owners_error_message(&err)[0],
		   "a damaged record is refused: %s", bad[i]);
		owners_error_clear(&err);
		owners_uses_clear(&uses);
		owners_pod_selector_clear(&sel);
	}
	owners_buf_clear(&rec);
}

static void tables(void)
{
	const char *const cells[] = { "NAME", "STATE", "ConfigMap/añb", "unused", "x", "" };
	struct owners_buf out = OWNERS_BUF_INIT;

	owners_text_table_render(&out, cells, 3, 2, 0);
	is_str(out.ptr, "NAME            STATE\nConfigMap/añb   unused\nx\n",
	       "a table: columns as wide as their widest cell in characters, three spaces, nothing "
	       "trailing");
	owners_buf_reset(&out);
	owners_text_table_render(&out, cells, 3, 2, 1);
	is_str(out.ptr, "ConfigMap/añb   unused\nx\n",
	       "--no-headers leaves the header out, and its width");
	owners_buf_clear(&out);
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
	fake_type_add(&types, &(struct fake_type){ "", "v1", "services", "service", "Service",
						   "svc", 1, 1 });
	fake_type_add(&types,
		      &(struct fake_type){ "", "v1", "persistentvolumes", "persistentvolume",
					   "PersistentVolume", "pv", 0, 1 });
	fake_type_add(&types, &(struct fake_type){ "", "v1", "persistentvolumeclaims",
						   "persistentvolumeclaim", "PersistentVolumeClaim",
						   "pvc", 1, 1 });
	fake_type_add(&types, &(struct fake_type){ "discovery.k8s.io", "v1", "endpointslices",
						   "endpointslice", "EndpointSlice", NULL, 1, 1 });
	fake_type_add(&types,
		      &(struct fake_type){ "networking.k8s.io", "v1", "networkpolicies",
					   "networkpolicy", "NetworkPolicy", "netpol", 1, 1 });
	fake_type_add(&types, &(struct fake_type){ "storage.k8s.io", "v1", "storageclasses",
						   "storageclass", "StorageClass", "sc", 0, 1 });
	owners_resource_table_mark_tracked(&types);
	selectors_and_slices();
	one_order();
	unused_and_unknown();
	broken_and_counted();
	records();
	tables();
	owners_resource_table_clear(&types);
	return tap_done();
}
