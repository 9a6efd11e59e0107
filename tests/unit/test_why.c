/* Why an object is (or is not) collected: each verdict class from a graph
 * built by hand, the GC's order of rules (an unresolvable reference beats
 * a solid owner), the owners up to the roots, the finalizers' removers,
 * what each --cascade would do, and both renderings. */
#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "json.h"
#include "stuck.h"
#include "fake_types.h"
#include "fake_objects.h"
#include "tap.h"
#include "why.h"
#include "why_events.h"
#include "why_render.h"

static struct owners_resource_table types;

static void add_type(const char *group, const char *version, const char *plural, const char *kind,
		     int namespaced)
{
	fake_type_add(&types,
		      &(struct fake_type){ group, version, plural, "", kind, NULL, namespaced, 1 });
	types.items[types.count - 1].gc_tracked = 1;
}

static const struct owners_resource *type(const char *api, const char *kind)
{
	return owners_resource_by_gvk(&types, api, kind);
}

#define REF(api_, kind_, name_, uid_, b) \
	{ .api_version = (api_), .kind = (kind_), .name = (name_), .uid = (uid_), .block_owner_deletion = (b) }
#define DELETED "2026-01-01T00:10:00Z"

static uint32_t add(struct owners_graph *g, const char *api, const char *kind,
		    const struct fake_object *o)
{
	return fake_object_add(g, type(api, kind), o);
}

static enum owners_why_verdict verdict(struct owners_graph *g, uint32_t node, const char **state)
{
	struct owners_why w;
	enum owners_why_verdict v;

	if (owners_why_explain(&w, g, NULL, node)) {
		printf("# out of memory\n");
		return OWNERS_WHY_BLIND;
	}
	v = w.verdict;
	if (state)
		*state = w.because != OWNERS_NO_NODE ? owners_why_owner_state(g, &w.owners[w.because]) : "-";
	owners_why_clear(&w);
	return v;
}

int main(void)
{
	static const char *const fg[] = { "foregroundDeletion" };
	static const char *const hold[] = { "example.com/hold" };
	static const char *const tracking[] = { "batch.kubernetes.io/job-tracking" };
	const struct owners_owner_ref_meta to_parent[] = { REF("v1", "ConfigMap", "parent", "u-parent", 1) };
	const struct owners_owner_ref_meta to_ghost[] = { REF("v1", "ConfigMap", "ghost", "u-ghost", 0) };
	const struct owners_owner_ref_meta to_nope[] = { REF("example.com/v1", "Nope", "x", "u-x", 0) };
	const struct owners_owner_ref_meta solid_and_nope[] = { REF("v1", "ConfigMap", "parent", "u-parent", 0),
								REF("example.com/v1", "Nope", "x", "u-x", 0) };
	const struct owners_owner_ref_meta to_secret[] = { REF("v1", "Secret", "s", "u-s", 0) };
	const struct owners_owner_ref_meta to_deploy[] = { REF("apps/v1", "Deployment", "d", "u-d", 0) };
	const struct owners_owner_ref_meta to_fg[] = { REF("v1", "ConfigMap", "fg", "u-fg", 1) };
	const struct owners_owner_ref_meta to_mid[] = { REF("v1", "ConfigMap", "mid", "u-mid", 0) };
	const struct owners_owner_ref_meta mismatch[] = { REF("v1", "ConfigMap", "parent", "u-other", 0) };
	struct owners_graph *g = NULL;
	struct owners_why w;
	struct owners_why_render r;
	struct owners_buf out = OWNERS_BUF_INIT;
	struct owners_json_value *doc = NULL;
	struct owners_error err = OWNERS_ERROR_INIT;
	const char *state = NULL, *remover = NULL, *waits = NULL;
	uint32_t parent, kept, lost, never, cr, both, bysec, bydep, fgo, waiter, held, pod, mid, leaf, mis;
	size_t i;

	owners_resource_table_init(&types);
	add_type("", "v1", "configmaps", "ConfigMap", 1);
	add_type("", "v1", "secrets", "Secret", 1);
	add_type("", "v1", "pods", "Pod", 1);
	add_type("apps", "v1", "deployments", "Deployment", 1);
	add_type("rbac.authorization.k8s.io", "v1", "clusterroles", "ClusterRole", 0);
	if (owners_graph_new(&g, &types))
		return 1;
	owners_graph_note_listing(g, type("v1", "ConfigMap"), "a", 0, NULL);
	owners_graph_note_listing(g, type("v1", "Pod"), "a", 0, NULL);
	owners_graph_note_listing(g, type("rbac.authorization.k8s.io/v1", "ClusterRole"), NULL, 0, NULL);
	owners_graph_note_listing(g, type("v1", "Secret"), "a", OWNERS_EFORBIDDEN, "forbidden");
	owners_graph_note_listing(g, type("apps/v1", "Deployment"), "a", OWNERS_ESERVER, "server error");

	parent = add(g, "v1", "ConfigMap", FAKE_OBJECT("a", "parent", "u-parent"));
	kept = add(g, "v1", "ConfigMap", FAKE_OBJECT("a", "kept", "u-kept", 1, to_parent));
	lost = add(g, "v1", "ConfigMap", FAKE_OBJECT("a", "lost", "u-lost", 1, to_ghost));
	never = add(g, "v1", "ConfigMap", FAKE_OBJECT("a", "never", "u-never", 1, to_nope));
	both = add(g, "v1", "ConfigMap", FAKE_OBJECT("a", "both", "u-both", 2, solid_and_nope));
	cr = add(g, "rbac.authorization.k8s.io/v1", "ClusterRole",
		 FAKE_OBJECT("", "cr", "u-cr", 1, to_parent));
	bysec = add(g, "v1", "ConfigMap", FAKE_OBJECT("a", "bysec", "u-bysec", 1, to_secret));
	bydep = add(g, "v1", "ConfigMap", FAKE_OBJECT("a", "bydep", "u-bydep", 1, to_deploy));
	fgo = add(g, "v1", "ConfigMap",
		  FAKE_OBJECT("a", "fg", "u-fg", .deleted = DELETED, .n_fins = 1, .fins = fg));
	waiter = add(g, "v1", "ConfigMap", FAKE_OBJECT("a", "waiter", "u-waiter", 1, to_fg));
	held = add(g, "v1", "ConfigMap",
		   FAKE_OBJECT("a", "held", "u-held", .deleted = DELETED, .n_fins = 1,
			       .fins = hold));
	pod = add(g, "v1", "Pod",
		  FAKE_OBJECT("a", "job-pod", "u-pod", .n_fins = 1, .fins = tracking));
	mid = add(g, "v1", "ConfigMap", FAKE_OBJECT("a", "mid", "u-mid", 1, to_parent));
	leaf = add(g, "v1", "ConfigMap", FAKE_OBJECT("a", "leaf", "u-leaf", 1, to_mid));
	mis = add(g, "v1", "ConfigMap", FAKE_OBJECT("a", "mis", "u-mis", 1, mismatch));
	if (owners_graph_link(g))
		return 1;

	is_int(verdict(g, kept, &state), OWNERS_WHY_KEPT, "a live owner: kept");
	is_str(state, "live", "... because of it, live");
	is_int(verdict(g, parent, &state), OWNERS_WHY_KEPT, "no owners: kept");
	is_int(verdict(g, lost, &state), OWNERS_WHY_COLLECTED, "an absent owner: collected");
	is_int(verdict(g, mis, &state), OWNERS_WHY_COLLECTED, "an owner of another UID: collected");
	is_int(verdict(g, never, &state), OWNERS_WHY_NEVER, "an unserved kind: never collected");
	is_str(state, "unresolvable", "... because of the unresolvable reference");
	is_int(verdict(g, both, &state), OWNERS_WHY_NEVER,
	       "a solid owner and an unresolvable reference: never (classifyReferences gives up first)");
	is_int(verdict(g, cr, &state), OWNERS_WHY_NEVER, "a cluster-scoped object with a namespaced owner: never");
	is_str(state, "invalid-namespace", "... invalid-namespace");
	is_int(verdict(g, bysec, &state), OWNERS_WHY_BLIND, "an owner this user may not list: blind");
	is_int(verdict(g, bydep, &state), OWNERS_WHY_BLIND, "an owner whose list failed: blind");
	is_int(verdict(g, waiter, &state), OWNERS_WHY_COLLECTED,
	       "its only owner waits for its dependents' deletion: collected");
	is_int(verdict(g, fgo, NULL), OWNERS_WHY_WAITING, "in foreground deletion: waiting");
	is_int(verdict(g, held, NULL), OWNERS_WHY_WAITING, "held by a finalizer: waiting");

	/* blind: whether the GC is blind too */
	owners_why_explain(&w, g, NULL, bydep);
	ok(w.n_owners == 1 && w.owners[0].gc_blind, "a failed list: the GC cannot look it up either");
	owners_why_clear(&w);
	owners_why_explain(&w, g, NULL, bysec);
	ok(w.n_owners == 1 && !w.owners[0].gc_blind, "a forbidden list: the GC can");
	owners_why_clear(&w);

	/* owners up to the roots; the cascades through the planner */
	owners_why_explain(&w, g, NULL, leaf);
	is_int(w.n_owners, 2, "leaf: its owner and its owner's owner");
	ok(w.n_owners == 2 && w.owners[1].node == parent && w.owners[1].depth == 2, "... the root at depth 2");
	is_int(w.n_cascades, 2, "... one prediction for its owner, one for itself");
	ok(w.cascades[0].root == mid && w.cascades[0].outcome[OWNERS_CASCADE_BACKGROUND] == OWNERS_WHY_OUTCOME_COLLECTED &&
		   w.cascades[0].outcome[OWNERS_CASCADE_FOREGROUND] == OWNERS_WHY_OUTCOME_COLLECTED &&
		   w.cascades[0].outcome[OWNERS_CASCADE_ORPHAN] == OWNERS_WHY_OUTCOME_RELEASED,
	   "... deleting its owner: collected, collected, released");
	owners_why_clear(&w);

	owners_why_explain(&w, g, NULL, parent);
	is_int(w.n_dependents, 4, "parent: four dependents (kept, both, cr, mid)");
	is_int(w.n_dependent_kinds, 2, "... of two kinds");
	is_int(w.n_blocking, 3, "... three block its deletion (blockOwnerDeletion)");
	ok(w.n_blocking == 3 && w.blocking[0] == cr && w.blocking[1] == kept && w.blocking[2] == mid,
	   "... in the node order, not the order added: the ClusterRole (no namespace), kept, mid");
	i = w.n_cascades - 1;
	ok(w.cascades[i].self, "... the last prediction is for itself");
	is_int(w.cascades[i].kept[OWNERS_CASCADE_BACKGROUND], 2,
	       "... background: 'both' (never) and the ClusterRole (never) are kept");
	ok(w.cascades[i].removed[OWNERS_CASCADE_BACKGROUND] == 4 && w.cascades[i].removed[OWNERS_CASCADE_FOREGROUND] == 4 &&
		   w.cascades[i].removed[OWNERS_CASCADE_ORPHAN] == 1,
	   "... deleting it removes 4 objects (itself, kept, mid and mid's leaf) | 4 | 1 (orphan: itself)");
	{
		struct owners_why_render tr;

		memset(&tr, 0, sizeof(tr));
		tr.g = g;
		tr.why = &w;
		owners_buf_reset(&out);
		ok(!owners_why_render_text(&out, &tr), "text renders");
		ok(strstr(out.ptr, "  the object itself: 4 | 4 | 1 objects deleted in all\n"
				   "  its 4 dependents: 2 collected, 2 kept | ") != NULL,
		   "... the text counts what the delete removes in all, the dependents' dependents too");
		if (!strstr(out.ptr, "objects deleted in all"))
			printf("#   %s\n", out.ptr);
		owners_buf_reset(&out);
	}
	owners_why_clear(&w);

	/* finalizers */
	owners_why_finalizer_known("kubernetes.io/pvc-protection", 0, &remover, &waits);
	is_str(remover, "the pvc-protection controller", "pvc-protection: its controller");
	owners_why_finalizer_known("kubernetes", 1, &remover, &waits);
	is_str(remover, "the namespace controller", "a namespace's kubernetes: the namespace controller");
	owners_why_finalizer_known("kubernetes", 0, &remover, &waits);
	ok(!remover, "kubernetes in metadata.finalizers is not the namespace's");
	owners_why_explain(&w, g, NULL, pod);
	ok(w.n_finalizers == 1 && w.finalizers[0].remover && !strcmp(w.finalizers[0].remover, "the job controller"),
	   "job-tracking on a live pod: the job controller");
	owners_why_clear(&w);

	/* rendering */
	owners_why_explain(&w, g, NULL, held);
	memset(&r, 0, sizeof(r));
	r.g = g;
	r.why = &w;
	ok(!owners_why_render_text(&out, &r), "text renders");
	{
		const char *first = "waiting: ConfigMap/held in namespace a: in deletion, held by finalizer example.com/hold\n";

		ok(!strncmp(out.ptr, first, strlen(first)), "... the verdict first");
	}
	ok(strstr(out.ptr, "owners finalizers remove ConfigMap/held -n a --finalizer example.com/hold") != NULL,
	   "... the command that removes the unknown finalizer");
	ok(strstr(out.ptr, "risk: ") != NULL, "... and its risk");
	ok(strstr(out.ptr, "If deleted now: no change, its background deletion is under way\n") != NULL &&
		   !strstr(out.ptr, "If deleted now (--cascade"),
	   "... in deletion already: no 'if deleted now' predictions, the deletion under way instead");
	owners_buf_reset(&out);
	ok(!owners_why_render_json(&out, &r), "JSON renders");
	ok(!owners_json_parse(&doc, out.ptr, out.len, &err), "... and parses");
	{
		const struct owners_json_value *items = owners_json_get(doc, "items");
		const struct owners_json_value *it = items && items->count == 1 ? items->items[0] : NULL;

		ok(it != NULL, "... one item: the object");
		is_str(owners_json_string(owners_json_get(it, "kind")), "ConfigMap", "... the item's kind");
		is_str(owners_json_string(owners_json_path(it, "metadata", "name", NULL)), "held",
		       "... its metadata.name");
		is_str(owners_json_string(owners_json_path(it, "owners", "verdict", NULL)), "waiting",
		       "... owners.verdict");
	}
	is_str(owners_json_string(owners_json_get(doc, "kind")), "OwnersWhy", "... kind");
	owners_buf_reset(&out);
	ok(!owners_why_render_names(&out, &r), "-o name renders");
	is_str(out.ptr, "configmap/held\n", "... kind/name as kubectl delete takes it");
	owners_json_value_free(doc);
	doc = NULL;
	owners_why_clear(&w);

	/* events: only those explaining the GC are kept, the others counted */
	{
		const char *list = "{\"items\":[{\"type\":\"Warning\",\"reason\":\"OwnerRefInvalidNamespace\","
				   "\"message\":\"m\",\"count\":2,\"source\":{\"component\":\"garbage-collector-controller\"},"
				   "\"lastTimestamp\":\"2026-01-01T00:00:00Z\"},"
				   "{\"type\":\"Normal\",\"reason\":\"Scheduled\",\"source\":{\"component\":\"scheduler\"}}]}";
		struct owners_why_events ev;

		memset(&ev, 0, sizeof(ev));
		ok(!owners_json_parse(&doc, list, strlen(list), &err), "an event list parses");
		ok(!owners_why_events_read(&ev, doc), "... and reads");
		is_int(ev.count, 1, "... one event explains the GC");
		is_int(ev.others, 1, "... the other is counted");
		ok(ev.count == 1 && ev.items[0].count == 2 && !strcmp(ev.items[0].reason, "OwnerRefInvalidNamespace"),
		   "... its reason and count");
		owners_why_events_clear(&ev);
		owners_json_value_free(doc);
	}

	owners_error_clear(&err);
	owners_buf_clear(&out);
	owners_graph_free(g);
	owners_resource_table_clear(&types);
	return tap_done();
}
