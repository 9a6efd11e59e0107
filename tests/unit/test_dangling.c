/* Dangling references: one finding per reference that does not resolve,
 * and what the garbage collector will do about it, decided per object as
 * attemptToDeleteItem() / classifyReferences() do. Rendering too. */
#include <stdlib.h>
#include <string.h>

#include "dangling.h"
#include "fake_objects.h"
#include "fake_types.h"
#include "json.h"
#include "scan_warnings.h"
#include "tap.h"

static struct owners_resource_table types;

static void add_type(const char *group, const char *version, const char *plural, const char *kind,
		     int namespaced, int preferred)
{
	fake_type_add(&types,
		      &(struct fake_type){ group, version, plural, "", kind, NULL, namespaced,
					   preferred });
}

static const struct owners_resource *type(const char *api, const char *kind)
{
	return owners_resource_by_gvk(&types, api, kind);
}

#define REF(api, kind, name, uid) { api, kind, name, uid, 0, 0 }
#define NREFS(a) (sizeof(a) / sizeof((a)[0])), (a)

static void add(struct owners_graph *g, const char *api, const char *kind,
		const struct fake_object *o)
{
	if (fake_object_try_add(g, type(api, kind), o))
		ok(0, "add %s/%s", kind, o->name);
}

static uint32_t node(struct owners_graph *g, const char *uid)
{
	return owners_graph_find_uid(g, uid);
}

/* The findings of one object, checked alone. */
static struct owners_dangling_report check(struct owners_graph *g, const char *uid)
{
	struct owners_dangling_report rep = { NULL, 0, 0 };

	ok(owners_dangling_check(&rep, g, node(g, uid)) == 0, "check %s", uid);
	return rep;
}

static const char *reason(struct owners_graph *g, const struct owners_dangling_finding *f)
{
	static struct owners_buf b = OWNERS_BUF_INIT;

	owners_buf_clear(&b);
	if (!f)
		return NULL;
	owners_dangling_gc_reason(&b, g, f);
	return b.ptr;
}

#define FINDING(rep, i, cls, action, whyv, because_)                                            \
	do {                                                                                       \
		const struct owners_dangling_finding *f_ = (rep).count > (i) ? &(rep).items[i] : NULL; \
		ok(f_ != NULL, "finding %d exists", (int)(i));                                     \
		if (f_) {                                                                          \
			is_str(owners_ref_class_name(f_->class_), cls, "  class %s", cls);         \
			is_str(owners_dangling_gc_action_name(f_->gc), action, "  gc action %s", action);   \
			is_int(f_->why, whyv, "  why %s", #whyv);                                  \
			is_int(f_->because, because_, "  because %s", #because_);                  \
		}                                                                                  \
	} while (0)

/* The objects of the predictions: one pod (or node) per case, the owners
 * they name, and the lists made (Secrets refused). */
static struct owners_graph *predictions_graph(void)
{
	struct owners_graph *g = NULL;
	static const char *const foreground[] = { "foregroundDeletion" };
	static const char *const orphan_fin[] = { "orphan" };
	static const struct owners_owner_ref_meta absent[] = { REF("v1", "ConfigMap", "gone", "u-gone") };
	static const struct owners_owner_ref_meta mixed[] = { REF("v1", "ConfigMap", "gone", "u-gone"),
						       REF("v1", "ConfigMap", "live", "u-live") };
	static const struct owners_owner_ref_meta waiting[] = { REF("v1", "ConfigMap", "gone", "u-gone"),
							 REF("v1", "ConfigMap", "fg", "u-fg") };
	static const struct owners_owner_ref_meta orphaning[] = { REF("v1", "ConfigMap", "gone", "u-gone"),
							   REF("v1", "ConfigMap", "orph", "u-orph") };
	static const struct owners_owner_ref_meta stuck[] = { REF("v1", "ConfigMap", "gone", "u-gone"),
						       REF("example.com/v1", "Widget", "w", "u-w"),
						       REF("v1", "ConfigMap", "live", "u-live") };
	static const struct owners_owner_ref_meta cluster[] = { REF("v1", "Node", "gone-node", "u-gn"),
							 REF("v1", "ConfigMap", "live", "u-live") };
	static const struct owners_owner_ref_meta secret[] = { REF("v1", "Secret", "s", "u-s") };
	static const struct owners_owner_ref_meta secret_absent[] = { REF("v1", "ConfigMap", "gone", "u-gone"),
							       REF("v1", "Secret", "s", "u-s") };
	static const struct owners_owner_ref_meta secret_live[] = { REF("v1", "Secret", "s", "u-s"),
							     REF("v1", "ConfigMap", "gone", "u-gone"),
							     REF("v1", "ConfigMap", "live", "u-live") };
	static const struct owners_owner_ref_meta mismatch[] = { REF("v1", "ConfigMap", "live", "u-old-live") };
	static const struct owners_owner_ref_meta elsewhere[] = { REF("v1", "ConfigMap", "other", "u-other") };
	static const struct owners_owner_ref_meta node_owner[] = { REF("v1", "Node", "n1", "u-n1") };
	static const struct owners_owner_ref_meta old_version[] = {
		REF("autoscaling/v1", "HorizontalPodAutoscaler", "hpa", "u-hpa") };

	ok(owners_graph_new(&g, &types) == 0, "graph created");
	add(g, "v1", "ConfigMap", FAKE_OBJECT("a", "live", "u-live"));
	add(g, "v1", "ConfigMap", FAKE_OBJECT("b", "other", "u-other"));
	add(g, "v1", "ConfigMap",
	    FAKE_OBJECT("a", "fg", "u-fg", .deleted = "2026-01-02T00:00:00Z", .n_fins = 1,
			.fins = foreground));
	add(g, "v1", "ConfigMap",
	    FAKE_OBJECT("a", "orph", "u-orph", .deleted = "2026-01-02T00:00:00Z", .n_fins = 1,
			.fins = orphan_fin));
	add(g, "v1", "Node", FAKE_OBJECT("", "n1", "u-n1"));
	add(g, "autoscaling/v2", "HorizontalPodAutoscaler", FAKE_OBJECT("a", "hpa", "u-hpa"));
	add(g, "v1", "Pod", FAKE_OBJECT("a", "orphan", "u-p1", NREFS(absent)));
	add(g, "v1", "Pod", FAKE_OBJECT("a", "mixed", "u-p2", NREFS(mixed)));
	add(g, "v1", "Pod", FAKE_OBJECT("a", "waiting", "u-p3", NREFS(waiting)));
	add(g, "v1", "Pod", FAKE_OBJECT("a", "orphaning", "u-p4", NREFS(orphaning)));
	add(g, "v1", "Pod", FAKE_OBJECT("a", "stuck", "u-p5", NREFS(stuck)));
	add(g, "v1", "Node", FAKE_OBJECT("", "cluster-dep", "u-n2", NREFS(cluster)));
	add(g, "v1", "Pod", FAKE_OBJECT("a", "secret", "u-p6", NREFS(secret)));
	add(g, "v1", "Pod", FAKE_OBJECT("a", "secret-absent", "u-p7", NREFS(secret_absent)));
	add(g, "v1", "Pod", FAKE_OBJECT("a", "secret-live", "u-p8", NREFS(secret_live)));
	add(g, "v1", "Pod", FAKE_OBJECT("a", "mismatch", "u-p9", NREFS(mismatch)));
	add(g, "v1", "Pod", FAKE_OBJECT("a", "elsewhere", "u-p10", NREFS(elsewhere)));
	add(g, "v1", "Pod", FAKE_OBJECT("a", "node-owned", "u-p11", NREFS(node_owner)));
	add(g, "v1", "Pod", FAKE_OBJECT("a", "hpa-owned", "u-p12", NREFS(old_version)));
	add(g, "v1", "Pod", FAKE_OBJECT("a", "resolved", "u-p13", 1, &mixed[1]));
	add(g, "v1", "Pod",
	    FAKE_OBJECT("a", "deleting", "u-p14", NREFS(absent), .deleted = "2026-01-02T00:00:00Z",
			.n_fins = 1, .fins = orphan_fin));
	add(g, "v1", "Pod", FAKE_OBJECT("a", "no-refs", "u-p15"));
	owners_graph_note_listing(g, type("v1", "ConfigMap"), NULL, 0, NULL);
	owners_graph_note_listing(g, type("v1", "Pod"), NULL, 0, NULL);
	owners_graph_note_listing(g, type("v1", "Node"), NULL, 0, NULL);
	owners_graph_note_listing(g, type("autoscaling/v2", "HorizontalPodAutoscaler"), NULL, 0, NULL);
	owners_graph_note_listing(g, type("v1", "Secret"), NULL, OWNERS_EFORBIDDEN, "forbidden");
	ok(owners_graph_link(g) == 0, "linked");
	return g;
}

/* An absent owner: delete the object unless a solid owner is left. */
static void test_absent_owners(struct owners_graph *g)
{
	struct owners_dangling_report rep;

	rep = check(g, "u-p1");
	is_int(rep.count, 1, "every owner absent: one finding");
	FINDING(rep, 0, "absent", "delete-object", OWNERS_DANGLING_GC_WHY_NO_LIVE_OWNER, OWNERS_NO_REF);
	is_str(owners_dangling_gc_action_text(&rep.items[0]), "delete the object", "  in words");
	is_str(reason(g, &rep.items[0]), "no owner of the object resolves", "  reason");
	owners_dangling_report_clear(&rep);

	rep = check(g, "u-p2");
	is_int(rep.count, 1, "absent + live: only the dangling reference is a finding");
	FINDING(rep, 0, "absent", "remove-reference", OWNERS_DANGLING_GC_WHY_LIVE_OWNER, 1);
	is_int(rep.items[0].ref, 0, "  it is the first reference");
	is_str(reason(g, &rep.items[0]), "owner ConfigMap/live is alive", "  reason names the live owner");
	owners_dangling_report_clear(&rep);

	rep = check(g, "u-p3");
	FINDING(rep, 0, "absent", "delete-object", OWNERS_DANGLING_GC_WHY_NO_LIVE_OWNER, OWNERS_NO_REF);
	ok(rep.count == 1, "an owner waiting for its dependents (foreground) is not solid: delete");
	owners_dangling_report_clear(&rep);

	rep = check(g, "u-p4");
	FINDING(rep, 0, "absent", "remove-reference", OWNERS_DANGLING_GC_WHY_LIVE_OWNER, 1);
	ok(rep.count == 1, "an owner in deletion without foregroundDeletion is still solid");
	owners_dangling_report_clear(&rep);
}

/* Where the GC never acts: an unresolvable kind, a cluster-scoped dependent. */
static void test_gc_never(struct owners_graph *g)
{
	struct owners_dangling_report rep;

	rep = check(g, "u-p5");
	is_int(rep.count, 2, "absent + unresolvable + live: two findings");
	FINDING(rep, 0, "absent", "none", OWNERS_DANGLING_GC_WHY_UNRESOLVABLE, 1);
	FINDING(rep, 1, "unresolvable", "none", OWNERS_DANGLING_GC_WHY_UNRESOLVABLE, 1);
	is_str(owners_dangling_gc_action_text(&rep.items[0]), "nothing, ever",
	       "  the GC never gets past the unresolvable kind, even with a live owner");
	is_str(reason(g, &rep.items[1]),
	       "the GC cannot map example.com/v1 Widget and retries the object forever", "  reason (self)");
	is_str(reason(g, &rep.items[0]),
	       "another owner's kind (example.com/v1 Widget) is not served: the GC retries the object forever",
	       "  reason (another reference)");
	owners_dangling_report_clear(&rep);

	rep = check(g, "u-n2");
	is_int(rep.count, 2, "cluster-scoped dependent: absent node owner and namespaced owner");
	FINDING(rep, 0, "absent", "none", OWNERS_DANGLING_GC_WHY_CLUSTER_SCOPED, 1);
	FINDING(rep, 1, "invalid-namespace", "none", OWNERS_DANGLING_GC_WHY_CLUSTER_SCOPED, 1);
	owners_dangling_report_clear(&rep);
}

/* An owner that could not be checked (its list refused): cannot tell. */
static void test_unknown_owners(struct owners_graph *g)
{
	struct owners_dangling_report rep;

	rep = check(g, "u-p6");
	FINDING(rep, 0, "unknown", "unknown", OWNERS_DANGLING_GC_WHY_UNKNOWN_OWNER, 0);
	is_str(owners_dangling_gc_action_text(&rep.items[0]), "cannot tell", "  in words");
	owners_dangling_report_clear(&rep);

	rep = check(g, "u-p7");
	is_int(rep.count, 2, "absent + unknown, no live owner");
	FINDING(rep, 0, "absent", "unknown", OWNERS_DANGLING_GC_WHY_UNKNOWN_OWNER, 1);
	FINDING(rep, 1, "unknown", "unknown", OWNERS_DANGLING_GC_WHY_UNKNOWN_OWNER, 1);
	is_str(reason(g, &rep.items[0]), "owner Secret/s could not be checked", "  reason names it");
	owners_dangling_report_clear(&rep);

	rep = check(g, "u-p8");
	is_int(rep.count, 2, "unknown + absent + live");
	FINDING(rep, 0, "unknown", "unknown", OWNERS_DANGLING_GC_WHY_UNKNOWN_OWNER, 0);
	FINDING(rep, 1, "absent", "remove-reference", OWNERS_DANGLING_GC_WHY_LIVE_OWNER, 2);
	owners_dangling_report_clear(&rep);
}

/* An owner by the wrong UID, or in another namespace, dangles. */
static void test_wrong_owner(struct owners_graph *g)
{
	struct owners_dangling_report rep;

	rep = check(g, "u-p9");
	FINDING(rep, 0, "uid-mismatch", "delete-object", OWNERS_DANGLING_GC_WHY_NO_LIVE_OWNER, OWNERS_NO_REF);
	owners_dangling_report_clear(&rep);

	rep = check(g, "u-p10");
	FINDING(rep, 0, "invalid-namespace", "delete-object", OWNERS_DANGLING_GC_WHY_NO_LIVE_OWNER, OWNERS_NO_REF);
	{
		/* the premise: the owner's UID is in the graph, in namespace b,
		 * and still the reference of a pod in a dangles */
		uint32_t other = node(g, "u-other");

		ok(other != OWNERS_NO_NODE && !strcmp(g->nodes[other].place->namespace_, "b"),
		   "  the owner (u-other) is there, in another namespace (b)");
		is_int(rep.count, 1, "  a namespaced owner in another namespace is looked up in the "
				     "dependent's: dangling (one finding)");
	}
	owners_dangling_report_clear(&rep);
}

/* References that resolve, an object in deletion, one without references. */
static void test_resolved(struct owners_graph *g)
{
	struct owners_dangling_report rep;

	rep = check(g, "u-p11");
	is_int(rep.count, 0, "a cluster-scoped owner of a pod resolves");
	owners_dangling_report_clear(&rep);

	rep = check(g, "u-p12");
	is_int(rep.count, 0, "an owner referenced through a non-preferred served version resolves");
	owners_dangling_report_clear(&rep);

	rep = check(g, "u-p13");
	is_int(rep.count, 0, "a resolved reference is no finding");
	owners_dangling_report_clear(&rep);

	rep = check(g, "u-p14");
	FINDING(rep, 0, "absent", "none", OWNERS_DANGLING_GC_WHY_IN_DELETION, OWNERS_NO_REF);
	is_str(owners_dangling_gc_action_text(&rep.items[0]), "nothing (object in deletion)", "  in words");
	owners_dangling_report_clear(&rep);

	rep = check(g, "u-p15");
	is_int(rep.count, 0, "no references, no findings");
	owners_dangling_report_clear(&rep);
}

static void test_fixable(void)
{
	ok(owners_dangling_fixable(OWNERS_REF_ABSENT) && owners_dangling_fixable(OWNERS_REF_UID_MISMATCH) &&
	   owners_dangling_fixable(OWNERS_REF_INVALID_NAMESPACE) &&
	   owners_dangling_fixable(OWNERS_REF_UNRESOLVABLE), "dangling classes are fixable");
	ok(!owners_dangling_fixable(OWNERS_REF_UNKNOWN) && !owners_dangling_fixable(OWNERS_REF_RESOLVED),
	   "unknown and resolved never are");
}

static void test_sorted(struct owners_graph *g, struct owners_dangling_report *all)
{
	uint32_t i, count = g->count;
	int sorted = 1;

	for (i = 0; i < count; i++)
		owners_dangling_check(all, g, i);
	is_int(all->count, 16, "16 findings over the whole graph");
	owners_dangling_sort(all, g);
	for (i = 1; i < all->count; i++) {
		const struct owners_node *p = &g->nodes[all->items[i - 1].object];
		const struct owners_node *q = &g->nodes[all->items[i].object];
		int c = strcmp(p->place->namespace_, q->place->namespace_);

		if (!c)
			c = strcmp(p->place->kind, q->place->kind);
		if (!c)
			c = strcmp(p->name, q->name);
		if (c > 0 || (!c && all->items[i - 1].ref > all->items[i].ref))
			sorted = 0;
	}
	ok(sorted, "sorted by namespace, kind, name, reference");
	is_str(g->nodes[all->items[0].object].name, "cluster-dep", "cluster-scoped objects first");
}

static void test_render_table(struct owners_dangling_render *r, struct owners_dangling_report *all)
{
	struct owners_buf out = OWNERS_BUF_INIT;

	ok(owners_dangling_render_text(&out, r) == 0, "table rendered");
	ok(!strncmp(out.ptr, "NAMESPACE   OBJECT ", 19), "table header starts NAMESPACE OBJECT");
	ok(strstr(out.ptr, "CLASS") && strstr(out.ptr, "GC WILL") && !strstr(out.ptr, "FIX") &&
	   !strstr(out.ptr, "WHY"), "header: CLASS and GC WILL; no FIX or WHY columns by default");
	ok(strstr(out.ptr, "Pod/mixed") && strstr(out.ptr, "remove the reference"), "a row in words");
	is_int((int)(strchr(out.ptr, '\n') - out.ptr) <= 200, 1, "lines are not padded to death");
	{
		size_t lines = 0;
		const char *p;

		for (p = out.ptr; *p; p++)
			lines += *p == '\n';
		is_int(lines, 17, "header + 16 rows");
	}
	owners_buf_reset(&out);
	r->print.wide = 1;
	r->show_fix = 1;
	all->items[0].fix = OWNERS_FIX_FAILED;
	all->items[0].fix_message = owners_strdup("gave up after 5 conflicting updates");
	ok(owners_dangling_render_text(&out, r) == 0, "wide table rendered");
	ok(strstr(out.ptr, "OWNER APIVERSION") && strstr(out.ptr, "OWNER UID") && strstr(out.ptr, "WHY") &&
	   strstr(out.ptr, "FIX"), "wide adds apiVersion, UID, WHY; fix adds FIX");
	ok(strstr(out.ptr, "FAILED (gave up after 5 conflicting updates)") != NULL,
	   "a failed fix says why");

	owners_buf_clear(&out);
}

static void test_render_json(struct owners_dangling_render *r)
{
	static const struct owners_scan_warning warnings[] = {
		{ OWNERS_SCAN_WARNING_FORBIDDEN, "", "v1", "secrets", 1, "cannot list 'secrets': forbidden" }
	};
	struct owners_buf out = OWNERS_BUF_INIT;
	struct owners_json_value *doc = NULL;
	struct owners_error err = OWNERS_ERROR_INIT;

	owners_buf_reset(&out);
	r->print.warnings = warnings;
	r->print.n_warnings = 1;
	ok(owners_dangling_render_json(&out, r) == 0, "json rendered");
	ok(owners_json_parse(&doc, out.ptr, out.len, &err) == 0, "json parses");
	is_str(owners_json_string(owners_json_get(doc, "kind")), "OwnersDangling", "kind");
	is_str(owners_json_string(owners_json_get(doc, "apiVersion")), "owners.dev/v1", "apiVersion");
	{
		const struct owners_json_value *items = owners_json_get(doc, "items"), *it, *w;

		is_int(items ? items->count : 0, 16, "one item per finding");
		it = items && items->count ? items->items[0] : NULL;
		is_str(owners_json_string(owners_json_path(it, "metadata", "name", NULL)), "cluster-dep",
		       "item.metadata.name");
		ok(it && owners_json_get(it, "metadata") &&
			   !owners_json_path(it, "metadata", "namespace", NULL),
		   "item.metadata has no namespace when cluster-scoped");
		{
			/* an object as every document writes it
			 * (owners_document_object) */
			const struct owners_json_value *last =
				items && items->count ? items->items[items->count - 1]
						      : NULL;

			ok(it && it->count == 4 && !strcmp(it->keys[0], "apiVersion") &&
				   !strcmp(it->keys[1], "kind") && !strcmp(it->keys[2], "metadata") &&
				   !strcmp(it->keys[3], "owners"),
			   "item: apiVersion, kind, metadata, owners");
			ok(owners_json_path(last, "metadata", "namespace", NULL) != NULL,
			   "item.metadata.namespace when namespaced");
			ok(owners_json_path(it, "metadata", "ownerReferences", NULL) &&
				   owners_json_path(it, "metadata", "ownerReferences", NULL)->type ==
					   OWNERS_JSON_ARRAY,
			   "item.metadata.ownerReferences as the object has them");
		}
		is_str(owners_json_string(owners_json_path(it, "owners", "reference", "kind", NULL)), "Node",
		       "item.owners.reference.kind");
		ok(owners_json_path(it, "owners", "reference", "controller", NULL) &&
		   owners_json_path(it, "owners", "reference", "controller", NULL)->type == OWNERS_JSON_BOOL,
		   "item.owners.reference.controller is a boolean");
		is_str(owners_json_string(owners_json_path(it, "owners", "class", NULL)), "absent",
		       "item.owners.class");
		is_str(owners_json_string(owners_json_path(it, "owners", "gc", "action", NULL)), "none",
		       "item.owners.gc.action");
		ok(owners_json_string(owners_json_path(it, "owners", "gc", "reason", NULL)) != NULL,
		   "item.owners.gc.reason");
		is_str(owners_json_string(owners_json_path(it, "owners", "fix", "result", NULL)), "failed",
		       "item.owners.fix.result");
		is_str(owners_json_string(owners_json_path(it, "owners", "fix", "message", NULL)),
		       "gave up after 5 conflicting updates", "item.owners.fix.message");
		w = owners_json_get(doc, "warnings");
		ok(w && w->count == 1 &&
			   !strcmp(owners_json_string(owners_json_get(w->items[0], "reason")), "Forbidden") &&
			   !strcmp(owners_json_string(owners_json_get(w->items[0], "resource")), "secrets") &&
			   !strcmp(owners_json_string(owners_json_get(w->items[0], "message")),
				   "cannot list 'secrets': forbidden"),
		   "warnings: structured, the type named");
		ok(owners_json_path(doc, "metadata", "dryRun", NULL) != NULL, "metadata.dryRun");
	}
	owners_json_value_free(doc);
	doc = NULL;
	owners_buf_reset(&out);
	r->show_fix = 0;
	ok(owners_dangling_render_json(&out, r) == 0, "json without a fix");
	ok(!strstr(out.ptr, "\"fix\""), "no fix member unless --fix or --dry-run ran");
	owners_buf_clear(&out);
	owners_error_clear(&err);
}

static void test_render_names(const struct owners_graph *g, const struct owners_dangling_report *all,
			      const struct owners_dangling_render *r)
{
	struct owners_buf out = OWNERS_BUF_INIT;
	size_t i;

	owners_buf_reset(&out);
	ok(owners_dangling_render_names(&out, r) == 0, "names rendered");
	ok(!strncmp(out.ptr ? out.ptr : "", "node/cluster-dep\n", 17),
	   "-o name: kind.group/name as kubectl delete takes it");
	{
		size_t lines = 0, rows = 0;
		const char *p;
		unsigned char *seen = calloc(g->count, 1);

		for (p = out.ptr; p && *p; p++)
			lines += *p == '\n';
		for (i = 0; seen && i < all->count; i++)
			if (!seen[all->items[i].object]++)
				rows++;
		is_int((long)lines, (long)rows, "-o name: each object once, however many findings");
		free(seen);
	}

	owners_buf_clear(&out);
}

static void test_render_empty(struct owners_dangling_report *all, const struct owners_dangling_render *r)
{
	struct owners_buf out = OWNERS_BUF_INIT;
	struct owners_json_value *doc = NULL;
	struct owners_error err = OWNERS_ERROR_INIT;

	all->count = 0;
	owners_buf_reset(&out);
	ok(owners_dangling_render_text(&out, r) == 0 && out.len == 0, "no findings: empty table");
	owners_buf_reset(&out);
	ok(owners_dangling_render_json(&out, r) == 0, "json with no findings");
	ok(owners_json_parse(&doc, out.ptr, out.len, &err) == 0, "  parses");
	ok(owners_json_get(doc, "items") && owners_json_get(doc, "items")->type == OWNERS_JSON_ARRAY &&
	   owners_json_get(doc, "items")->count == 0, "  items is an empty list");
	owners_json_value_free(doc);
	all->count = 16;
	owners_buf_clear(&out);
	owners_buf_clear(&out);
	owners_error_clear(&err);
}

/* Everything, sorted and rendered. */
static void test_rendering(struct owners_graph *g)
{
	struct owners_dangling_report all = { NULL, 0, 0 };
	struct owners_dangling_render r;

	test_sorted(g, &all);
	memset(&r, 0, sizeof(r));
	r.g = g;
	r.rep = &all;
	test_render_table(&r, &all);
	test_render_json(&r);
	test_render_names(g, &all, &r);
	test_render_empty(&all, &r);
	owners_dangling_report_clear(&all);
}

static void test_predictions(void)
{
	struct owners_graph *g = predictions_graph();

	test_absent_owners(g);
	test_gc_never(g);
	test_unknown_owners(g);
	test_wrong_owner(g);
	test_resolved(g);
	test_fixable();
	test_rendering(g);
	reason(g, NULL);
	owners_graph_free(g);
}

/* What --fix may and may not take away: the GC's fate of the object before
 * and after. */
static void test_gc_fate(void)
{
	const enum owners_ref_class unres_unknown[] = { OWNERS_REF_UNRESOLVABLE, OWNERS_REF_UNKNOWN };
	const enum owners_ref_class unres_absent[] = { OWNERS_REF_UNRESOLVABLE, OWNERS_REF_ABSENT };
	const enum owners_ref_class live_absent[] = { OWNERS_REF_RESOLVED, OWNERS_REF_ABSENT };
	const enum owners_ref_class ns_owner[] = { OWNERS_REF_INVALID_NAMESPACE, OWNERS_REF_ABSENT };
	const unsigned char drop_first[] = { 0, 1 }, drop_second[] = { 1, 0 }, drop_all[] = { 0, 0 };

	is_int(owners_dangling_gc_fate(unres_unknown, 2, NULL, 0), OWNERS_DANGLING_GC_KEEPS,
	       "[unresolvable, unknown]: the GC gives up on the object");
	is_int(owners_dangling_gc_fate(unres_unknown, 2, drop_first, 0), OWNERS_DANGLING_GC_MAY_DELETE,
	       "without the unresolvable one: the GC may delete it (the unknown owner may be gone)");
	is_int(owners_dangling_gc_fate(unres_absent, 2, drop_first, 0), OWNERS_DANGLING_GC_DELETES,
	       "[unresolvable, absent] without the unresolvable one: the GC deletes it");
	is_int(owners_dangling_gc_fate(unres_absent, 2, drop_all, 0), OWNERS_DANGLING_GC_KEEPS,
	       "no reference left at all: nothing for the GC to do");
	is_int(owners_dangling_gc_fate(live_absent, 2, drop_second, 0), OWNERS_DANGLING_GC_KEEPS,
	       "a live owner left: kept");
	is_int(owners_dangling_gc_fate(ns_owner, 2, NULL, 1), OWNERS_DANGLING_GC_KEEPS,
	       "a cluster-scoped object with a namespaced owner: the GC gives up");
	is_int(owners_dangling_gc_fate(ns_owner, 2, NULL, 0), OWNERS_DANGLING_GC_DELETES,
	       "a namespaced one whose owner is in another namespace: dangling, deleted");
	ok(owners_dangling_gc_gives_up(OWNERS_REF_UNRESOLVABLE, 0) && !owners_dangling_gc_gives_up(OWNERS_REF_ABSENT, 1),
	   "what the GC gives up on");
}

/* A scan of namespace a sees an owner in namespace b as absent: which
 * owner types are worth listing everywhere, and what the lookup changes. */
static void test_absent_owner_types(void)
{
	struct owners_graph *g = NULL;
	const struct owners_resource **t = NULL;
	const struct owners_owner_ref_meta refs[] = {
		REF("v1", "ConfigMap", "far", "u-far"),      /* absent here, lives in b */
		REF("v1", "ConfigMap", "gone", "u-gone"),    /* absent: the same type again */
		REF("v1", "Node", "n1", "u-node"),           /* cluster-scoped: a namespace adds nothing */
		REF("v1", "Secret", "s", "u-s"),             /* forbidden: unknown, not absent */
		REF("v1", "ConfigMap", "here", "u-here"),    /* resolves */
		REF("autoscaling/v1", "HorizontalPodAutoscaler", "h", "u-h"), /* absent, another type */
	};
	const struct owners_owner_ref_meta none[] = { REF("v1", "ConfigMap", "here", "u-here") };
	uint32_t nodes[2];
	size_t n = 0;

	ok(owners_graph_new(&g, &types) == 0, "graph");
	add(g, "v1", "ConfigMap", FAKE_OBJECT("a", "here", "u-here"));
	add(g, "v1", "Pod", FAKE_OBJECT("a", "p", "u-pa", NREFS(refs)));
	add(g, "v1", "Pod", FAKE_OBJECT("a", "q", "u-qa", NREFS(none)));
	owners_graph_note_listing(g, type("v1", "ConfigMap"), "a", 0, NULL);
	owners_graph_note_listing(g, type("v1", "Pod"), "a", 0, NULL);
	owners_graph_note_listing(g, type("autoscaling/v2", "HorizontalPodAutoscaler"), "a", 0, NULL);
	owners_graph_note_listing(g, type("v1", "Node"), NULL, 0, NULL);
	owners_graph_note_listing(g, type("v1", "Secret"), "a", OWNERS_EFORBIDDEN, "forbidden");
	nodes[0] = node(g, "u-pa");
	nodes[1] = node(g, "u-qa");
	ok(owners_dangling_absent_owner_types(g, nodes, 2, &t, &n) == 0, "absent owner types");
	is_int(n, 2, "two types: ConfigMap once, HorizontalPodAutoscaler; not Node, not Secret");
	ok(n == 2 && owners_resource_same_type(t[0], type("v1", "ConfigMap")), "  configmaps first");
	ok(n == 2 && owners_resource_same_type(t[1], type("autoscaling/v2", "HorizontalPodAutoscaler")),
	   "  then horizontalpodautoscalers (any version of it)");
	free(t);
	ok(owners_dangling_absent_owner_types(g, nodes + 1, 1, &t, &n) == 0 && n == 0 && !t,
	   "an object whose owners resolve: none");

	/* Listed everywhere: the owner is found in b, under its UID. */
	add(g, "v1", "ConfigMap", FAKE_OBJECT("b", "far", "u-far"));
	owners_graph_note_listing(g, type("v1", "ConfigMap"), NULL, 0, NULL);
	ok(owners_graph_link(g) == 0, "relinked");
	is_int(owners_graph_classify_ref(g, nodes[0], &g->nodes[nodes[0]].refs[0]),
	       OWNERS_REF_INVALID_NAMESPACE, "the owner in b: invalid-namespace, as the GC says");
	is_int(owners_graph_classify_ref(g, nodes[0], &g->nodes[nodes[0]].refs[1]), OWNERS_REF_ABSENT,
	       "an owner nowhere: still absent");
	owners_graph_free(g);
}

int main(void)
{
	owners_resource_table_init(&types);
	add_type("", "v1", "pods", "Pod", 1, 1);
	add_type("", "v1", "configmaps", "ConfigMap", 1, 1);
	add_type("", "v1", "secrets", "Secret", 1, 1);
	add_type("", "v1", "nodes", "Node", 0, 1);
	add_type("autoscaling", "v2", "horizontalpodautoscalers", "HorizontalPodAutoscaler", 1, 1);
	add_type("autoscaling", "v1", "horizontalpodautoscalers", "HorizontalPodAutoscaler", 1, 0);
	test_predictions();
	test_gc_fate();
	test_absent_owner_types();
	owners_resource_table_clear(&types);
	return tap_done();
}
