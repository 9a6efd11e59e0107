/* What `owners finalizers remove` says, rendered in
 * lib/ops/finalizer_remove_render.c: each object's line for each outcome,
 * the releases made for `orphan` before it, and the JSON document. */
#include <stdlib.h>
#include <string.h>

#include "fake_objects.h"
#include "fake_types.h"
#include "finalizer_remove_render.h"
#include "json.h"
#include "tap.h"

static struct owners_resource_table types;

static const struct owners_resource *type(const char *api, const char *kind)
{
	return owners_resource_by_gvk(&types, api, kind);
}

static struct owners_finalizer_remove_finalizer fa[] = { { "example.com/a", 0 } };
static struct owners_finalizer_remove_finalizer fb_c[] = { { "example.com/b", 0 }, { "c", 1 } };
static struct owners_finalizer_remove_finalizer kube[] = { { "kubernetes", 1 } };
static struct owners_finalizer_remove_finalizer orphan[] = { { "orphan", 0 } };

static struct owners_finalizer_remove_target target(const char *api, const char *kind,
						    const char *ns, const char *name)
{
	struct owners_finalizer_remove_target t;

	memset(&t, 0, sizeof(t));
	t.resource = type(api, kind);
	t.namespace_ = ns;
	t.name = name;
	t.content_objects = -1;
	return t;
}

static struct owners_finalizer_remove_outcome
outcome(enum owners_finalizer_remove_result result,
	struct owners_finalizer_remove_finalizer *removed, size_t n_removed,
	struct owners_finalizer_remove_finalizer *left, size_t n_left, int deleting)
{
	struct owners_finalizer_remove_outcome o;

	memset(&o, 0, sizeof(o));
	o.result = result;
	o.removed = removed;
	o.n_removed = n_removed;
	o.left = left;
	o.n_left = n_left;
	o.deleting = deleting;
	o.uid = (char *)"u-1";
	o.writes = 1;
	return o;
}

/* One object's text. */
static char *text_of(const struct owners_finalizer_remove_target *t,
		     const struct owners_finalizer_remove_outcome *o)
{
	struct owners_finalizer_remove_render r;
	struct owners_buf out = OWNERS_BUF_INIT;
	char *s = NULL;

	memset(&r, 0, sizeof(r));
	r.targets = t;
	r.outcomes = o;
	r.n = 1;
	if (!owners_finalizer_remove_render_text(&out, &r))
		s = owners_buf_detach(&out);
	owners_buf_clear(&out);
	return s;
}

#define IS_TEXT(t, o, want, ...)                                                                   \
	do {                                                                                       \
		char *got_ = text_of(&(t), &(o));                                                  \
		is_str(got_, want, __VA_ARGS__);                                                   \
		free(got_);                                                                        \
	} while (0)

static void test_lines(void)
{
	struct owners_finalizer_remove_target pod = target("v1", "Pod", "default", "p");
	struct owners_finalizer_remove_target deploy =
		target("apps/v1", "Deployment", "default", "web");
	struct owners_finalizer_remove_target ns = target("v1", "Namespace", NULL, "n");
	struct owners_finalizer_remove_outcome o;

	o = outcome(OWNERS_FINALIZER_REMOVE_FREED, fa, 1, fb_c, 1, 1);
	IS_TEXT(pod, o,
		"pod/p: removed example.com/a; still there, being deleted, waiting for "
		"example.com/b\n",
		"freed, in deletion: what it still waits for");
	o = outcome(OWNERS_FINALIZER_REMOVE_FREED, fa, 1, fb_c, 2, 0);
	IS_TEXT(deploy, o,
		"deployment.apps/web: removed example.com/a; still there, not being deleted, "
		"finalizers: example.com/b, c (spec.finalizers)\n",
		"freed, live (--force): the finalizers it keeps; the group in the name");
	o = outcome(OWNERS_FINALIZER_REMOVE_FREED, fa, 1, NULL, 0, 1);
	IS_TEXT(pod, o,
		"pod/p: removed example.com/a; still there, being deleted, no finalizers left\n",
		"freed, in deletion, nothing left");
	o = outcome(OWNERS_FINALIZER_REMOVE_GONE, orphan, 1, NULL, 0, 0);
	IS_TEXT(pod, o, "pod/p: removed orphan; gone\n", "gone");
	o = outcome(OWNERS_FINALIZER_REMOVE_GONE, NULL, 0, NULL, 0, 0);
	IS_TEXT(pod, o, "pod/p: nothing removed; gone\n", "gone before anything was removed");
	o = outcome(OWNERS_FINALIZER_REMOVE_LEFT, fa, 1, fa, 1, 1);
	IS_TEXT(pod, o,
		"pod/p: removed example.com/a; still there, being deleted, waiting for "
		"example.com/a\n",
		"left: a finalizer came back, and it shows");
	o = outcome(OWNERS_FINALIZER_REMOVE_FREED, kube, 1, NULL, 0, 1);
	IS_TEXT(ns, o,
		"namespace/n: removed kubernetes (spec.finalizers, through finalize); still there, "
		"being "
		"deleted, no finalizers left\n",
		"a namespace's spec.finalizers go through finalize");
	o = outcome(OWNERS_FINALIZER_REMOVE_DRY_RUN, kube, 1, NULL, 0, 1);
	IS_TEXT(ns, o,
		"namespace/n: would remove kubernetes (spec.finalizers, through finalize); with no "
		"finalizers left it would then be deleted (dry run: nothing was changed)\n",
		"dry run, nothing left: it would then be deleted");
	o = outcome(OWNERS_FINALIZER_REMOVE_DRY_RUN, fa, 1, fb_c, 2, 1);
	IS_TEXT(pod, o,
		"pod/p: would remove example.com/a; it would keep example.com/b, c "
		"(spec.finalizers) "
		"(dry run: nothing was changed)\n",
		"dry run: what it would keep");
	o = outcome(OWNERS_FINALIZER_REMOVE_DRY_RUN, fa, 1, NULL, 0, 0);
	IS_TEXT(pod, o, "pod/p: would remove example.com/a (dry run: nothing was changed)\n",
		"dry run on a live object (--force)");
	o = outcome(OWNERS_FINALIZER_REMOVE_NOTHING, NULL, 0, NULL, 0, 1);
	IS_TEXT(pod, o, "pod/p: no finalizers to remove\n", "nothing to do");
	o = outcome(OWNERS_FINALIZER_REMOVE_REFUSED, NULL, 0, NULL, 0, 1);
	IS_TEXT(pod, o, "", "refused: no line (its message is reported on its own)");
	o = outcome(OWNERS_FINALIZER_REMOVE_NOT_FOUND, NULL, 0, NULL, 0, 0);
	IS_TEXT(pod, o, "", "not found: no line");
	o = outcome(OWNERS_FINALIZER_REMOVE_FAILED, NULL, 0, NULL, 0, 1);
	IS_TEXT(pod, o, "", "failed: no line");
}

static void test_releases_and_json(void)
{
	struct owners_finalizer_remove_target targets[3];
	struct owners_finalizer_remove_outcome outcomes[3];
	struct owners_release_item items[4];
	struct owners_orphan_release releases[3];
	struct owners_finalizer_remove_render r;
	struct owners_buf out = OWNERS_BUF_INIT;
	struct owners_json_value *doc = NULL;
	struct owners_error err = OWNERS_ERROR_INIT;
	struct owners_graph *g = NULL;
	const struct owners_json_value *it, *rel;

	owners_graph_new(&g, &types);
	memset(items, 0, sizeof(items));
	items[0].dependent = fake_object_add(g, type("v1", "ConfigMap"),
					     FAKE_OBJECT("default", "a", "da"));
	items[0].result = OWNERS_RELEASE_RELEASED;
	items[0].writes = 1;
	items[1].dependent =
		fake_object_add(g, type("v1", "Pod"), FAKE_OBJECT("other", "b", "db"));
	items[1].result = OWNERS_RELEASE_RELEASED;
	items[1].writes = 2;
	items[2].dependent =
		fake_object_add(g, type("v1", "Pod"), FAKE_OBJECT("default", "c", "dc"));
	items[2].result = OWNERS_RELEASE_FAILED;
	items[2].message = (char *)"forbidden";
	items[3].dependent =
		fake_object_add(g, type("v1", "Pod"), FAKE_OBJECT("default", "d", "dd"));
	items[3].result = OWNERS_RELEASE_GONE;
	memset(releases, 0, sizeof(releases));
	releases[0].items = items;
	releases[0].count = 4;
	releases[0].failed = 1;

	targets[0] = target("v1", "ConfigMap", "default", "o");
	outcomes[0] = outcome(OWNERS_FINALIZER_REMOVE_GONE, orphan, 1, NULL, 0, 0);
	targets[1] = target("v1", "Namespace", NULL, "n");
	outcomes[1] = outcome(OWNERS_FINALIZER_REMOVE_REFUSED, NULL, 0, NULL, 0, 1);
	outcomes[1].uid = NULL;
	outcomes[1].message = (char *)"namespace 'n' still has 1 object in it";
	targets[2] = target("v1", "Pod", "default", "p");
	outcomes[2] = outcome(OWNERS_FINALIZER_REMOVE_FREED, fa, 1, fb_c, 2, 1);

	memset(&r, 0, sizeof(r));
	r.targets = targets;
	r.outcomes = outcomes;
	r.releases = releases;
	r.n = 3;
	r.g = g;
	ok(owners_finalizer_remove_render_text(&out, &r) == 0, "text rendered");
	is_str(out.ptr,
	       "configmap/o: released its dependents first: configmap/a, pod/b (namespace other)\n"
	       "configmap/o: could not release its dependents: pod/c (forbidden)\n"
	       "configmap/o: removed orphan; gone\n"
	       "pod/p: removed example.com/a; still there, being deleted, waiting for "
	       "example.com/b, c "
	       "(spec.finalizers)\n",
	       "the releases before the object's own line, one line per kind; a refused object "
	       "says "
	       "nothing");
	owners_buf_reset(&out);

	r.dry_run = 1;
	ok(owners_finalizer_remove_render_json(&out, &r) == 0, "JSON rendered");
	ok(out.len && out.ptr[out.len - 1] == '\n', "the document ends its line");
	ok(owners_json_parse(&doc, out.ptr, out.len, &err) == 0, "JSON parses");
	is_str(owners_json_string(owners_json_get(doc, "kind")), "OwnersFinalizerRemoval", "kind");
	ok(owners_json_path(doc, "metadata", "dryRun", NULL) && owners_json_path(doc, "metadata", "dryRun", NULL)->boolean,
	   "metadata.dryRun");
	ok(owners_json_get(doc, "warnings") && owners_json_get(doc, "warnings")->type == OWNERS_JSON_ARRAY,
	   "warnings, as every document");
	it = owners_json_get(doc, "items");
	is_int(it ? it->count : 0, 3, "one item per object");
	it = it && it->count == 3 ? it->items[0] : NULL;
	ok(it && it->count == 4 && !strcmp(it->keys[0], "apiVersion") && !strcmp(it->keys[1], "kind") &&
		   !strcmp(it->keys[2], "metadata") && !strcmp(it->keys[3], "owners"),
	   "an item: apiVersion, kind, metadata, owners, as every document's");
	ok(owners_json_path(it, "metadata", "name", NULL) && owners_json_path(it, "metadata", "namespace", NULL) &&
		   owners_json_path(it, "metadata", "uid", NULL),
	   "metadata: name, namespace, uid");
	it = owners_json_get(it, "owners");
	is_str(owners_json_string(owners_json_get(it, "result")), "gone", "result");
	ok(it && !owners_json_get(it, "message"), "no message when there is nothing to say");
	rel = owners_json_get(it, "releasedDependents");
	is_int(rel ? rel->count : 0, 4, "releasedDependents: every dependent looked at");
	is_str(owners_json_string(owners_json_path(rel && rel->count ? rel->items[1] : NULL,
						   "namespace", NULL)),
	       "other", "a released dependent's namespace");
	it = owners_json_get(doc, "items")->count == 3 ? owners_json_get(doc, "items")->items[1]
						       : NULL;
	ok(it && !owners_json_path(it, "metadata", "namespace", NULL) && !owners_json_path(it, "metadata", "uid", NULL),
	   "a cluster-scoped object not read: no namespace, no uid");
	it = owners_json_get(it, "owners");
	is_str(owners_json_string(owners_json_get(it, "message")),
	       "namespace 'n' still has 1 object in it", "a refusal's message");
	rel = owners_json_get(it, "releasedDependents");
	ok(rel && rel->type == OWNERS_JSON_ARRAY && !rel->count,
	   "releasedDependents: [] when none");
	it = owners_json_get(doc, "items")->count == 3 ? owners_json_get(doc, "items")->items[2]
						       : NULL;
	rel = owners_json_path(it, "owners", "finalizersLeft", NULL);
	ok(rel && rel->count == 2 &&
		   !strcmp(owners_json_string(owners_json_get(rel->items[1], "field")),
			   "spec.finalizers"),
	   "finalizersLeft says which field each is in");
	owners_json_value_free(doc);
	doc = NULL;

	owners_buf_reset(&out);
	r.releases = NULL;
	r.g = NULL;
	ok(owners_finalizer_remove_render_text(&out, &r) == 0 &&
		   !strncmp(out.ptr, "configmap/o: removed", 20),
	   "no releases (none were needed): the objects' lines alone");
	owners_buf_reset(&out);
	ok(owners_finalizer_remove_render_json(&out, &r) == 0 &&
		   owners_json_parse(&doc, out.ptr, out.len, &err) == 0,
	   "no releases: JSON rendered");
	owners_json_value_free(doc);

	owners_error_clear(&err);
	owners_buf_clear(&out);
	owners_graph_free(g);
}

int main(void)
{
	owners_resource_table_init(&types);
	fake_type_add(&types, &(struct fake_type){ "", "v1", "pods", "pod", "Pod", NULL, 1, 1 });
	fake_type_add(&types,
		      &(struct fake_type){ "", "v1", "configmaps", "configmap", "ConfigMap", NULL,
					   1, 1 });
	fake_type_add(&types,
		      &(struct fake_type){ "", "v1", "namespaces", "namespace", "Namespace", NULL,
					   0, 1 });
	fake_type_add(&types,
		      &(struct fake_type){ "apps", "v1", "deployments", "deployment", "Deployment",
					   NULL, 1, 1 });
	test_lines();
	test_releases_and_json();
	owners_resource_table_clear(&types);
	return tap_done();
}
