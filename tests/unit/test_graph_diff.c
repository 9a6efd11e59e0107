/* Two owner graphs compared (lib/ops/graph_diff.c): one check per kind of
 * change, each made by changing one thing between two graphs built alike;
 * a graph against itself, or against its twin, has none; what a side
 * could not see is counted, never called gone or new; the order. */
#include <stdlib.h>
#include <string.h>

#include "fake_objects.h"
#include "fake_types.h"
#include "graph_diff.h"
#include "graph_diff_render.h"
#include "json.h"
#include "tap.h"

#define CREATED 1767225600 /* fake_objects.h: 2026-01-01T00:00:00Z */
#define T_A (CREATED + 3600)
#define T_B (CREATED + 7200)

static struct owners_resource_table types, types_without_widgets, types_widgets_failed;

#define REF(api_, kind_, name_, uid_) { .api_version = (api_), .kind = (kind_), .name = (name_), .uid = (uid_) }
#define CTRL(api_, kind_, name_, uid_)                                                             \
	{ .api_version = (api_), .kind = (kind_), .name = (name_), .uid = (uid_), .controller = 1 }
#define NREFS(a) .n_refs = sizeof(a) / sizeof((a)[0]), .refs = (a)

static void add_types(struct owners_resource_table *t, int widgets)
{
	owners_resource_table_init(t);
	fake_type_add(t, &(struct fake_type){ "", "v1", "configmaps", "configmap", "ConfigMap", NULL, 1, 1 });
	fake_type_add(t, &(struct fake_type){ "", "v1", "pods", "pod", "Pod", NULL, 1, 1 });
	fake_type_add(t, &(struct fake_type){ "apps", "v1", "deployments", "deployment", "Deployment", NULL, 1, 1 });
	fake_type_add(t, &(struct fake_type){ "apps", "v1", "replicasets", "replicaset", "ReplicaSet", NULL, 1, 1 });
	if (widgets)
		fake_type_add(t, &(struct fake_type){ "example.com", "v1", "widgets", "widget", "Widget", NULL, 1, 1 });
}

/* A graph over t, every type listed in every namespace but `unlisted`
 * (a plural, NULL: none), which is listed in namespace "elsewhere" only. */
static struct owners_graph *graph(const struct owners_resource_table *t, const char *unlisted)
{
	struct owners_graph *g = NULL;
	size_t i;

	owners_graph_new(&g, t);
	for (i = 0; i < t->count; i++) {
		int here = !unlisted || strcmp(t->items[i].resource, unlisted);

		owners_graph_note_listing(g, &t->items[i], here ? NULL : "elsewhere", 0, NULL);
	}
	return g;
}

static void add(struct owners_graph *g, const char *api, const char *kind, const struct fake_object *o)
{
	if (fake_object_try_add(g, owners_resource_by_gvk(g->types, api, kind), o))
		ok(0, "add %s/%s", kind, o->name);
}

/* The objects every pair of graphs starts from: a Deployment, its
 * ReplicaSet (controlled), a pod of that ReplicaSet, a ConfigMap owned
 * by the pod (not as controller). */
static const struct owners_owner_ref_meta rs_refs[] = { CTRL("apps/v1", "Deployment", "web", "u-dep") };
static const struct owners_owner_ref_meta pod_refs[] = { CTRL("apps/v1", "ReplicaSet", "web-1", "u-rs") };
static const struct owners_owner_ref_meta cm_refs[] = { REF("v1", "Pod", "web-1-a", "u-pod") };

enum { NO_DEP = 1, NO_RS = 2, NO_POD = 4, NO_CM = 8 };

static void base(struct owners_graph *g, unsigned leave_out)
{
	if (!(leave_out & NO_DEP))
		add(g, "apps/v1", "Deployment", FAKE_OBJECT("ns", "web", "u-dep"));
	if (!(leave_out & NO_RS))
		add(g, "apps/v1", "ReplicaSet", FAKE_OBJECT("ns", "web-1", "u-rs", NREFS(rs_refs)));
	if (!(leave_out & NO_POD))
		add(g, "v1", "Pod", FAKE_OBJECT("ns", "web-1-a", "u-pod", NREFS(pod_refs)));
	if (!(leave_out & NO_CM))
		add(g, "v1", "ConfigMap", FAKE_OBJECT("ns", "cm", "u-cm", NREFS(cm_refs)));
}

/* dumps: which side's types are only its objects' (a dump, no discovery) */
static struct owners_graph_diff diff_dumps(struct owners_graph *a, struct owners_graph *b, int a_dump, int b_dump)
{
	struct owners_graph_diff d;
	const struct owners_graph_diff_side sa = { a, T_A, a_dump }, sb = { b, T_B, b_dump };

	ok(owners_graph_diff_run(&d, &sa, &sb, NULL, NULL) == 0, "diff runs");
	return d;
}

static struct owners_graph_diff diff(struct owners_graph *a, struct owners_graph *b)
{
	struct owners_graph_diff d;
	const struct owners_graph_diff_side sa = { a, T_A, 0 }, sb = { b, T_B, 0 };

	ok(owners_graph_diff_run(&d, &sa, &sb, NULL, NULL) == 0, "diff runs");
	return d;
}

/* The changes as "change:name" words, in order, with what each says:
 * "+finalizer", "@owner-name", "<class-before>class-after". */
static const char *words(const struct owners_graph_diff *d)
{
	static char out[1024];
	size_t i;

	out[0] = 0;
	for (i = 0; i < d->count; i++) {
		const struct owners_diff_item *it = &d->items[i];
		const struct owners_node *n = owners_graph_diff_object(d, it, NULL);
		const struct owners_ref *ref = owners_graph_diff_ref(d, NULL, it);
		size_t len = strlen(out);

		snprintf(out + len, sizeof(out) - len, "%s%s:%s", i ? " " : "", owners_diff_change_name(it->change),
			 n->name);
		len = strlen(out);
		if (it->finalizer)
			snprintf(out + len, sizeof(out) - len, "+%s", it->finalizer);
		else if (ref)
			snprintf(out + len, sizeof(out) - len, "@%s", ref->name);
		len = strlen(out);
		if (it->change == OWNERS_DIFF_WENT_DANGLING || it->change == OWNERS_DIFF_RESOLVES_AGAIN)
			snprintf(out + len, sizeof(out) - len, "<%s>%s",
				 it->node_a == OWNERS_NO_NODE ? "-" : owners_ref_class_name(it->class_a),
				 owners_ref_class_name(it->class_b));
	}
	return out;
}

/* The text of a diff, colourless. */
static const char *text_of(const struct owners_graph_diff *d)
{
	static struct owners_buf out = OWNERS_BUF_INIT;
	struct owners_graph_diff_render r;

	memset(&r, 0, sizeof(r));
	r.d = d;
	owners_buf_clear(&out);
	if (owners_graph_diff_render_text(&out, &r))
		return "(render failed)";
	return out.ptr;
}

static void done(struct owners_graph_diff *d, struct owners_graph *a, struct owners_graph *b)
{
	owners_graph_diff_clear(d);
	owners_graph_free(a);
	owners_graph_free(b);
}

static void no_change(void)
{
	struct owners_graph *a = graph(&types, NULL), *b = graph(&types, NULL);
	struct owners_graph_diff d;
	const struct owners_graph_diff_side s = { a, T_A, 0 };

	base(a, 0);
	base(b, 0);
	d = diff(a, b);
	is_str(words(&d), "", "diff S S' (the same objects, two graphs): nothing");
	is_int(d.unseen_in_a + d.unseen_in_b, 0, "  and nothing unseen");
	owners_graph_diff_clear(&d);
	ok(owners_graph_diff_run(&d, &s, &s, NULL, NULL) == 0 && d.count == 0, "diff S S (one graph): nothing");
	done(&d, a, b);
}

static void appeared_and_went(void)
{
	struct owners_graph *a = graph(&types, NULL), *b = graph(&types, NULL);
	struct owners_graph_diff d;

	base(a, NO_CM);
	base(b, NO_DEP);
	d = diff(a, b);
	/* the Deployment went: its ReplicaSet's controller reference dangles */
	is_str(words(&d), "appeared:cm went:web went-dangling:web-1@web<resolved>absent",
	       "a ConfigMap appeared, a Deployment went, the ReplicaSet's owner dangles (by kind)");
	ok(d.count == 3 && d.items[0].since == CREATED && d.items[0].since_exact,
	   "  appeared: since its creationTimestamp (exact)");
	ok(d.count == 3 && d.items[1].since == T_A && !d.items[1].since_exact,
	   "  went: after A's time (a bound)");
	ok(d.count == 3 && d.items[2].node_a != OWNERS_NO_NODE && d.items[2].node_b != OWNERS_NO_NODE,
	   "  went-dangling: the object on both sides");
	done(&d, a, b);
}

/* The base objects, some left out on each side, a type listed elsewhere
 * only on one side: no change, only objects counted unseen. */
static void only_unseen(const char *unlisted_a, unsigned leave_out_a, const char *unlisted_b,
			unsigned leave_out_b, const char *what)
{
	struct owners_graph *a = graph(&types, unlisted_a), *b = graph(&types, unlisted_b);
	struct owners_graph_diff d;

	base(a, leave_out_a);
	base(b, leave_out_b);
	d = diff(a, b);
	is_str(words(&d), "", "%s", what);
	is_int(d.unseen_in_a + 10 * d.unseen_in_b, unlisted_a ? 1 : 10, "  counted unseen in %s",
	       unlisted_a ? "A" : "B");
	done(&d, a, b);
}

static void unseen(void)
{
	/* A listed ConfigMaps elsewhere only: B's cm is not new, only unseen */
	only_unseen("configmaps", NO_CM, NULL, 0,
		    "an object whose type A did not list where it lives: not 'appeared'");
	only_unseen(NULL, 0, "configmaps", NO_CM, "an object whose type B did not list where it lived: not 'went'");
	/* the Deployment itself unseen in B, its reference unknown there */
	only_unseen(NULL, 0, "deployments", NO_DEP,
		    "an owner whose type B did not list: its reference does not go dangling");
}

/* One side of widget_case(): its types, whether it reads as a dump (its
 * types its objects'), and how many objects the diff must count unseen
 * there. */
struct widget_side {
	const struct owners_resource_table *types;
	int dump;
	size_t unseen;
};

/* A Widget on the side whose types have it: what the diff says of it. */
static void widget_case(struct widget_side sa, struct widget_side sb, const char *want, const char *what)
{
	struct owners_graph *a = graph(sa.types, NULL), *b = graph(sb.types, NULL);
	struct owners_graph_diff d;

	add(sa.types == &types ? a : b, "example.com/v1", "Widget", FAKE_OBJECT("ns", "w", "u-w"));
	d = diff_dumps(a, b, sa.dump, sb.dump);
	is_str(words(&d), want, "%s", what);
	ok(d.unseen_in_a == sa.unseen && d.unseen_in_b == sb.unseen, "  counted as not seen: %zu before, %zu after",
	   sa.unseen, sb.unseen);
	done(&d, a, b);
}

static void types_served(void)
{
	struct owners_graph *a = graph(&types_without_widgets, NULL), *b = graph(&types, NULL);
	struct owners_graph_diff d;

	/* A type installed between the two (a CRD): its objects are new */
	add(b, "example.com/v1", "Widget", FAKE_OBJECT("ns", "w", "u-w"));
	d = diff(a, b);
	is_str(words(&d), "appeared:w", "a type A did not serve at all: its objects appeared");
	done(&d, a, b);

	/* but not when A's discovery of that group failed */
	a = graph(&types_widgets_failed, NULL);
	b = graph(&types, NULL);
	add(b, "example.com/v1", "Widget", FAKE_OBJECT("ns", "w", "u-w"));
	d = diff(a, b);
	is_str(words(&d), "", "a type whose group failed discovery in A: unseen, not appeared");
	is_int(d.unseen_in_a, 1, "  counted");
	done(&d, a, b);

	/* a dump that does not hold a type (#52): its objects were not seen
	 * there, neither appeared (the dump before) nor went (after) */
	widget_case((struct widget_side){ &types_without_widgets, 1, 1 }, (struct widget_side){ &types, 0, 0 }, "",
		    "a dump before without the type: unseen, not appeared");
	widget_case((struct widget_side){ &types, 0, 0 }, (struct widget_side){ &types_without_widgets, 1, 1 }, "",
		    "a dump after without the type: unseen, not went");
	widget_case((struct widget_side){ &types, 0, 0 }, (struct widget_side){ &types_without_widgets, 0, 0 }, "went:w",
		    "a cluster's snapshot after without the type: it went, its CRD with it");
}

static void deletion_and_finalizers(void)
{
	static const char *const fins_a[] = { "example.com/old" };
	static const char *const fins_b[] = { "example.com/hold" };
	struct owners_graph *a = graph(&types, NULL), *b = graph(&types, NULL);
	struct owners_graph_diff d;

	base(a, NO_CM);
	base(b, NO_CM);
	add(a, "v1", "ConfigMap", FAKE_OBJECT("ns", "cm", "u-cm", NREFS(cm_refs), .n_fins = 1, .fins = fins_a));
	add(b, "v1", "ConfigMap",
	    FAKE_OBJECT("ns", "cm", "u-cm", NREFS(cm_refs), .deleted = "2026-01-01T01:30:00Z", .n_fins = 1,
			.fins = fins_b));
	d = diff(a, b);
	is_str(words(&d), "deletion-started:cm finalizer-added:cm+example.com/hold finalizer-removed:cm+example.com/old",
	       "deletion started, a finalizer added, one removed");
	ok(d.count > 0 && d.items[0].since == CREATED + 5400 && d.items[0].since_exact,
	   "  deletion: since its deletionTimestamp");
	ok(d.count > 1 && d.items[1].since == T_A && !d.items[1].since_exact, "  finalizer: after A's time");
	done(&d, a, b);

	/* an object that appeared already in deletion */
	a = graph(&types, NULL);
	b = graph(&types, NULL);
	add(b, "v1", "ConfigMap", FAKE_OBJECT("ns", "new", "u-new", .deleted = "2026-01-01T01:50:00Z"));
	d = diff(a, b);
	is_str(words(&d), "appeared:new deletion-started:new", "appeared in deletion: both said");
	done(&d, a, b);
}

/* The base objects on both sides, cm with these references in A (NULL:
 * cm's own) and in B: the changes said (words, and a phrase of the
 * text), and how B classifies the first change's reference. */
struct refs {
	const struct owners_owner_ref_meta *items;
	size_t n;
};

static enum owners_ref_class cm_refs_changed(struct refs in_a, struct refs in_b, const char *want, const char *says,
					     const char *what)
{
	struct owners_graph *a = graph(&types, NULL), *b = graph(&types, NULL);
	struct owners_graph_diff d;
	enum owners_ref_class c;

	base(a, NO_CM);
	base(b, NO_CM);
	add(a, "v1", "ConfigMap", FAKE_OBJECT("ns", "cm", "u-cm", .n_refs = in_a.n, .refs = in_a.items));
	add(b, "v1", "ConfigMap", FAKE_OBJECT("ns", "cm", "u-cm", .n_refs = in_b.n, .refs = in_b.items));
	d = diff(a, b);
	is_str(words(&d), want, "%s", what);
	ok(strstr(text_of(&d), says) != NULL, "  text: '%s'", says);
	c = d.count ? d.items[0].class_b : OWNERS_REF_UNKNOWN;
	done(&d, a, b);
	return c;
}

#define REFS(a) ((struct refs){ (a), sizeof(a) / sizeof((a)[0]) })

static void owners_changed(void)
{
	static const struct owners_owner_ref_meta adopted[] = { REF("v1", "Pod", "web-1-a", "u-pod"),
								CTRL("apps/v1", "Deployment", "web", "u-dep") };
	static const struct owners_owner_ref_meta more[] = { REF("v1", "Pod", "web-1-a", "u-pod"),
							     REF("apps/v1", "Deployment", "web", "u-dep") };
	static const struct owners_owner_ref_meta controlled[] = { CTRL("v1", "Pod", "web-1-a", "u-pod") };

	is_int(cm_refs_changed(REFS(cm_refs), REFS(adopted), "adopted:cm@web", "~ cm  adopted by Deployment/web (in the last 60m)",
			       "a controller reference added: adopted"),
	       OWNERS_REF_RESOLVED, "  the new owner resolves in B");
	cm_refs_changed(REFS(adopted), REFS(cm_refs), "released:cm@web",
			"~ cm  released by Deployment/web (in the last 60m)", "a controller reference gone: released");
	cm_refs_changed(REFS(cm_refs), REFS(more), "reference-added:cm@web",
			"~ cm  owner Deployment/web added (in the last 60m)", "another reference added");
	cm_refs_changed(REFS(more), REFS(cm_refs), "reference-removed:cm@web",
			"~ cm  owner Deployment/web removed (in the last 60m)", "another reference removed");
	cm_refs_changed(REFS(cm_refs), REFS(controlled), "controller-set:cm@web-1-a",
			"~ cm  owner Pod/web-1-a became its controller (in the last 60m)", "the same owner, now the controller");
	cm_refs_changed(REFS(controlled), REFS(cm_refs), "controller-cleared:cm@web-1-a",
			"~ cm  owner Pod/web-1-a no longer its controller (in the last 60m)",
			"the same owner, no longer the controller");
}

static void dangling(void)
{
	static const struct owners_owner_ref_meta gone_owner[] = { REF("v1", "ConfigMap", "never", "u-never") };
	static const struct owners_owner_ref_meta pod_refs_gone[] = { REF("v1", "Pod", "gone", "u-gone") };
	struct owners_graph *a = graph(&types, NULL), *b = graph(&types, NULL);
	struct owners_graph_diff d;

	/* dangling in A (its owner never there), the owner created in B with
	 * that UID: resolves again; and a new object born dangling */
	base(a, 0);
	base(b, NO_RS);
	add(a, "v1", "ConfigMap", FAKE_OBJECT("ns", "dep", "u-dep2", NREFS(gone_owner)));
	add(b, "v1", "ConfigMap", FAKE_OBJECT("ns", "dep", "u-dep2", NREFS(gone_owner)));
	/* dangling on both sides: no change */
	add(a, "v1", "ConfigMap", FAKE_OBJECT("ns", "still", "u-still", NREFS(pod_refs_gone)));
	add(b, "v1", "ConfigMap", FAKE_OBJECT("ns", "still", "u-still", NREFS(pod_refs_gone)));
	add(b, "v1", "ConfigMap", FAKE_OBJECT("ns", "never", "u-never"));
	add(b, "v1", "Pod", FAKE_OBJECT("ns", "orphan", "u-orphan", NREFS(pod_refs)));
	d = diff(a, b);
	is_str(words(&d),
	       "resolves-again:dep@never<absent>resolved appeared:never "
	       "appeared:orphan went-dangling:orphan@web-1<->absent went-dangling:web-1-a@web-1<resolved>absent "
	       "went:web-1",
	       "resolves again; born dangling; gone dangling with its owner gone; dangling on both sides: "
	       "nothing; in order");
	is_str(text_of(&d),
	       "configmap in namespace ns:\n"
	       "  ~ dep      owner ConfigMap/never resolves again (was absent) (in the last 60m)\n"
	       "  + never    appeared, created 120m ago\n"
	       "pod in namespace ns:\n"
	       "  + orphan   appeared, created 120m ago\n"
	       "  ~ orphan   owner ReplicaSet/web-1 dangling: absent (in the last 60m)\n"
	       "  ~ web-1-a  owner ReplicaSet/web-1 dangling: absent (in the last 60m)\n"
	       "replicaset.apps in namespace ns:\n"
	       "  - web-1    went (in the last 60m)\n",
	       "  said as text");
	done(&d, a, b);
}

/* Objects named web* or holding the finalizer example.com/watched. */
static int watched(void *ctx, const struct owners_graph *g, uint32_t node)
{
	(void)ctx;
	return !strncmp(g->nodes[node].name, "web", 3) ||
	       owners_graph_node_has_finalizer(&g->nodes[node], "example.com/watched");
}

static void wanted(void)
{
	static const char *const fins[] = { "example.com/watched" };
	struct owners_graph *a = graph(&types, NULL), *b = graph(&types, NULL);
	const struct owners_graph_diff_side sa = { a, T_A, 0 }, sb = { b, T_B, 0 };
	struct owners_graph_diff d;

	base(a, NO_CM);
	base(b, NO_CM | NO_DEP);
	add(a, "v1", "ConfigMap", FAKE_OBJECT("ns", "cm", "u-cm", NREFS(cm_refs), .n_fins = 1, .fins = fins));
	add(b, "v1", "ConfigMap", FAKE_OBJECT("ns", "cm", "u-cm", NREFS(cm_refs)));
	add(b, "v1", "ConfigMap", FAKE_OBJECT("ns", "other", "u-other"));
	ok(owners_graph_diff_run(&d, &sa, &sb, watched, NULL) == 0, "diff with a filter runs");
	is_str(words(&d),
	       "finalizer-removed:cm+example.com/watched went:web went-dangling:web-1@web<resolved>absent",
	       "the objects the filter wants on either side: cm wanted in A only, 'other' in neither");
	done(&d, a, b);
}

/* Element i of array v (NULL past its end). */
static const struct owners_json_value *at(const struct owners_json_value *v, size_t i)
{
	return v && i < v->count ? v->items[i] : NULL;
}

/* Change k of item i of a diff's document. */
static const struct owners_json_value *change(const struct owners_json_value *doc, size_t i, size_t k)
{
	return at(owners_json_path(at(owners_json_get(doc, "items"), i), "owners", "changes", NULL), k);
}

static void rendering(void)
{
	static const char *const fins[] = { "example.com/hold" };
	static const struct owners_owner_ref_meta adopted[] = { REF("v1", "Pod", "web-1-a", "u-pod"),
								CTRL("apps/v1", "Deployment", "web", "u-dep") };
	struct owners_graph *a = graph(&types, NULL), *b = graph(&types, NULL);
	struct owners_graph_diff d;
	struct owners_graph_diff_render r;
	struct owners_buf out = OWNERS_BUF_INIT;
	struct owners_json_value *doc = NULL;
	struct owners_error err = OWNERS_ERROR_INIT;

	base(a, 0);
	base(b, NO_CM | NO_DEP);
	add(b, "v1", "ConfigMap",
	    FAKE_OBJECT("ns", "cm", "u-cm", NREFS(adopted), .deleted = "2026-01-01T01:57:00Z", .n_fins = 1,
			.fins = fins));
	add(b, "v1", "ConfigMap", FAKE_OBJECT("ns", "a-new-one", "u-new"));
	d = diff(a, b);
	memset(&r, 0, sizeof(r));
	r.d = &d;
	r.source_a = "a.json";
	r.source_b = "live";
	r.b_live = 1;
	ok(owners_graph_diff_render_text(&out, &r) == 0, "text renders");
	is_str(out.ptr,
	       "configmap in namespace ns:\n"
	       "  + a-new-one  appeared, created 120m ago\n"
	       "  ~ cm         in deletion for 3m, held by example.com/hold\n"
	       "  ~ cm         finalizer example.com/hold added (in the last 60m)\n"
	       "  ~ cm         adopted by Deployment/web, absent (in the last 60m)\n"
	       "deployment.apps in namespace ns:\n"
	       "  - web        went (in the last 60m)\n"
	       "replicaset.apps in namespace ns:\n"
	       "  ~ web-1      owner Deployment/web dangling: absent (in the last 60m)\n",
	       "text: a heading per kind and namespace, a line per change, when each began");
	owners_buf_reset(&out);
	ok(owners_graph_diff_render_json(&out, &r) == 0, "the document renders");
	ok(owners_json_parse(&doc, out.ptr, out.len, &err) == 0, "  and parses");
	is_str(owners_json_string(owners_json_path(doc, "kind", NULL)), "OwnersDiff", "  kind OwnersDiff");
	is_str(owners_json_string(owners_json_path(doc, "metadata", "after", "source", NULL)), "live",
	       "  metadata.after.source");
	is_int(owners_json_int(owners_json_path(doc, "metadata", "before", "time", NULL), -1), -1,
	       "  times are RFC 3339 text");
	is_str(owners_json_string(owners_json_path(doc, "metadata", "before", "time", NULL)), "2026-01-01T01:00:00Z",
	       "  metadata.before.time");
	is_str(owners_json_string(owners_json_path(at(owners_json_get(doc, "items"), 1), "metadata", "name", NULL)), "cm",
	       "  an item per object: the second is cm");
	is_str(owners_json_string(owners_json_get(change(doc, 1, 2), "change")),
	       "adopted", "  its third change: adopted");
	is_str(owners_json_string(owners_json_path(change(doc, 1, 2), "owner", "name", NULL)),
	       "web", "  by web");
	is_str(owners_json_string(owners_json_get(change(doc, 1, 2), "after")),
	       "absent", "  which B finds absent");
	is_int(owners_json_int(owners_json_get(change(doc, 1, 0), "ageSeconds"), -1),
	       180, "  in deletion for 180 s");
	is_str(owners_json_string(owners_json_path(at(owners_json_get(doc, "items"), 2), "metadata", "name", NULL)), "web",
	       "  the object that went, as A had it");
	owners_json_value_free(doc);
	owners_error_clear(&err);
	owners_buf_clear(&out);
	done(&d, a, b);
}

int main(void)
{
	add_types(&types, 1);
	add_types(&types_without_widgets, 0);
	add_types(&types_widgets_failed, 0);
	owners_resource_table_add_failure(&types_widgets_failed, "example.com/v1", "service unavailable");
	no_change();
	appeared_and_went();
	unseen();
	types_served();
	deletion_and_finalizers();
	owners_changed();
	dangling();
	wanted();
	rendering();
	owners_resource_table_clear(&types);
	owners_resource_table_clear(&types_without_widgets);
	owners_resource_table_clear(&types_widgets_failed);
	return tap_done();
}
