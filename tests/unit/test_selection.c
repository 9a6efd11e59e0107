/* Which objects a command's arguments name (lib/graph/selection.c): where
 * each argument is, the refusals every command shares, names found and not
 * found (each way a command wants it), a type alone, -l through a match
 * callback, everything when there is no argument, an owner gone with its
 * dependents left, and lists that failed or were never made. */
#include <stdlib.h>
#include <string.h>

#include "fake_objects.h"
#include "fake_types.h"
#include "graph_mark.h"
#include "selection.h"
#include "tap.h"

static struct owners_resource_table types;

static const struct owners_resource *type(const char *api, const char *kind)
{
	return owners_resource_by_gvk(&types, api, kind);
}

#define REF(api_, kind_, name_, uid_) { .api_version = (api_), .kind = (kind_), .name = (name_), .uid = (uid_) }

/* The nodes of a selection as "ns/name" words, in order. */
static const char *names(const struct owners_graph *g, const struct owners_selection *s)
{
	static char out[512];
	size_t i;

	out[0] = 0;
	for (i = 0; i < s->count; i++) {
		const struct owners_node *n = &g->nodes[s->nodes[i]];

		snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s%s/%s", i ? " " : "", n->place->namespace_,
			 n->name);
	}
	return out;
}

/* Where the arguments are looked for, and how. */
struct find_how {
	const struct owners_selection_scope *scope;
	const struct owners_selection_options *o;
};

static int select_(struct owners_selection *out, struct owners_graph *g, const struct owners_selection_arg *args,
		   size_t n, const struct find_how *how, struct owners_error *err)
{
	const struct owners_selection_scope *scope = how->scope;
	const struct owners_selection_options *o = how->o;
	struct owners_selection_target *t = NULL;
	size_t n_t = 0;
	int rc;

	owners_error_clear(err);
	if (!(rc = owners_selection_targets(&t, &n_t, args, n, scope, err)))
		rc = owners_selection_find(out, g, t, n_t, o, err);
	owners_selection_targets_free(t);
	return rc;
}

/* -l stands in for the server: objects whose name starts with "web". */
static int match_web(void *ctx, unsigned char *marks, const struct owners_selection_target *t,
		     struct owners_error *err)
{
	const struct owners_graph *g = ctx;
	uint32_t i;

	(void)t;
	(void)err;
	for (i = 0; i < g->count; i++)
		marks[i] = !strncmp(g->nodes[i].name, "web", 3);
	return 0;
}

static int match_fails(void *ctx, unsigned char *marks, const struct owners_selection_target *t,
		       struct owners_error *err)
{
	(void)ctx;
	(void)marks;
	(void)t;
	return owners_error_set(err, OWNERS_EFORBIDDEN, "cannot list 'pods': forbidden (-l app=web)");
}

static void test_targets(void)
{
	const struct owners_resource *cm = type("v1", "ConfigMap"), *ns_type = type("v1", "Namespace");
	struct owners_selection_scope scope = { .namespace_ = "a" };
	struct owners_error err = OWNERS_ERROR_INIT;
	struct owners_selection_target *t = NULL;
	size_t n = 0;
	int rc;

	{
		const struct owners_selection_arg args[] = { { cm, "x" }, { ns_type, "a" }, { cm, "x" }, { cm, NULL } };

		rc = owners_selection_targets(&t, &n, args, 4, &scope, &err);
		is_int(rc, 0, "targets: made");
		is_int(n, 3, "targets: an object named twice is one target");
		is_str(t[0].namespace_, "a", "targets: a namespaced name is in the namespace");
		is_str(t[1].namespace_, "", "targets: a cluster-scoped one has no namespace");
		ok(t[2].type == cm && !t[2].name && !strcmp(t[2].namespace_, "a"), "targets: a type alone, in the namespace");
		owners_selection_targets_free(t);
	}
	{
		const struct owners_selection_arg args[] = { { cm, NULL }, { ns_type, "a" } };

		scope.all_namespaces = 1;
		rc = owners_selection_targets(&t, &n, args, 2, &scope, &err);
		ok(!rc && n == 2 && !t[0].namespace_ && !strcmp(t[1].namespace_, ""),
		   "targets -A: a type alone everywhere, a cluster-scoped name still found by name");
		owners_selection_targets_free(t);
	}
	{
		const struct owners_selection_arg args[] = { { cm, "x" } };

		rc = owners_selection_targets(&t, &n, args, 1, &scope, &err);
		is_int(rc, OWNERS_EINVAL, "targets -A: a namespaced name is a usage error");
		is_str(owners_error_message(&err),
		       "a resource cannot be retrieved by name across all namespaces: use -n NAMESPACE for "
		       "configmaps 'x'",
		       "  in kubectl's words, with the remedy");
		ok(!t && !n, "  and no targets");
		owners_error_clear(&err);
		scope.names_in_namespace = 1; /* tree, delete, finalizers */
		rc = owners_selection_targets(&t, &n, args, 1, &scope, &err);
		ok(!rc && n == 1 && t[0].namespace_ && !strcmp(t[0].namespace_, "a"),
		   "targets -A, for a command about roots: the name is the namespace's (-A widens its dependents)");
		owners_selection_targets_free(t);
		scope.names_in_namespace = 0;
		scope.all_namespaces = 0;
		scope.selector = "app=web";
		rc = owners_selection_targets(&t, &n, args, 1, &scope, &err);
		is_int(rc, OWNERS_EINVAL, "targets -l: a name beside a selector is a usage error");
		ok(strstr(owners_error_message(&err), "'x'") && strstr(owners_error_message(&err), "-l app=web"),
		   "  naming both: %s", owners_error_message(&err));
		owners_error_clear(&err);
		scope.selector = NULL;
	}
	rc = owners_selection_targets(&t, &n, NULL, 0, &scope, &err);
	ok(!rc && !n, "targets: no argument selects nothing unless asked");
	owners_selection_targets_free(t);
	scope.everything_when_none = 1;
	scope.everything_flags = OWNERS_MARK_OWN_NAMESPACE;
	rc = owners_selection_targets(&t, &n, NULL, 0, &scope, &err);
	ok(!rc && n == 1 && !t[0].type && !t[0].name && !strcmp(t[0].namespace_, "a") &&
		   t[0].flags == OWNERS_MARK_OWN_NAMESPACE,
	   "targets: no argument, asked: everything in the namespace, with the flags");
	owners_selection_targets_free(t);
}

static void test_find(struct owners_graph *g)
{
	const struct owners_resource *cm = type("v1", "ConfigMap"), *pod = type("v1", "Pod"),
				     *secret = type("v1", "Secret"), *ns_type = type("v1", "Namespace"),
				     *ev = type("v1", "Event"), *binding = type("v1", "Binding");
	struct owners_selection_scope scope = { .namespace_ = "a" };
	struct owners_selection_options o = { .missing = OWNERS_SELECTION_MISSING_FAILS };
	struct owners_error err = OWNERS_ERROR_INIT;
	struct owners_selection s = OWNERS_SELECTION_INIT;
	const struct find_how how = { &scope, &o };
	int rc;

	{
		const struct owners_selection_arg args[] = { { pod, "web-2" }, { cm, "web-cm" }, { pod, "web-2" } };

		rc = select_(&s, g, args, 3, &how, &err);
		is_int(rc, 0, "find: names found");
		is_str(names(g, &s), "a/web-2 a/web-cm", "  in the order named, each once");
		ok(s.picked[s.nodes[0]] & OWNERS_SELECTED_NAMED, "  and marked as named");
	}
	{
		const struct owners_selection_arg args[] = { { cm, "web-cm" }, { cm, "nope" }, { pod, "web-1" } };

		rc = select_(&s, g, args, 3, &how, &err);
		is_int(rc, OWNERS_ENOTFOUND, "find, missing fails: an object not there is an error");
		is_str(owners_error_message(&err), "configmaps 'nope' not found in namespace 'a'",
		       "  saying what and where");
		o.missing = OWNERS_SELECTION_MISSING_NOTED;
		rc = select_(&s, g, args, 3, &how, &err);
		ok(!rc && s.n_not_found == 1, "find, missing noted: no error, one line");
		is_str(s.not_found.ptr, "configmaps 'nope' not found in namespace 'a'\n", "  the same words");
		is_str(names(g, &s), "a/web-cm a/web-1", "  and the others found");
		o.missing = OWNERS_SELECTION_MISSING_IGNORED;
		rc = select_(&s, g, args, 3, &how, &err);
		ok(!rc && !s.n_not_found && s.count == 2, "find, missing ignored: nothing said");
		o.missing = OWNERS_SELECTION_MISSING_FAILS;
	}
	{
		const struct owners_selection_arg args[] = { { ns_type, "nope" } };

		rc = select_(&s, g, args, 1, &how, &err);
		is_str(owners_error_message(&err), "namespaces 'nope' not found",
		       "find: a cluster-scoped object not found has no namespace in its words");
	}
	{
		const struct owners_selection_arg args[] = { { pod, NULL } };

		rc = select_(&s, g, args, 1, &how, &err);
		is_str(names(g, &s), "a/db a/web-1 a/web-2", "find: a type alone, every object of it in the namespace");
		ok(!(s.picked[s.nodes[0]] & OWNERS_SELECTED_NAMED), "  none of them named");
		scope.all_namespaces = 1;
		rc = select_(&s, g, args, 1, &how, &err);
		is_str(names(g, &s), "a/db a/web-1 a/web-2 b/web-3", "  with -A, everywhere");
		scope.all_namespaces = 0;
		scope.selector = "app=web";
		o.match = match_web;
		o.match_ctx = g;
		rc = select_(&s, g, args, 1, &how, &err);
		is_str(names(g, &s), "a/web-1 a/web-2", "  with -l, those that match, of that type and namespace only");
		ok(s.picked[s.nodes[0]] & OWNERS_SELECTED_NAMED, "  each one counts as named");
		o.match = match_fails;
		rc = select_(&s, g, args, 1, &how, &err);
		ok(rc == OWNERS_EFORBIDDEN && strstr(owners_error_message(&err), "forbidden"),
		   "  a selector list that fails is the error");
		o.match = NULL;
		scope.selector = NULL;
	}
	{
		const struct owners_selection_arg args[] = { { secret, NULL } };

		rc = select_(&s, g, args, 1, &how, &err);
		is_int(rc, OWNERS_EFORBIDDEN, "find: a type whose list failed is the list's error, not an empty answer");
		is_str(owners_error_message(&err), "cannot list 'secrets' in namespace 'a': forbidden",
		       "  in the list's words");
		o.skip_listing_checks = 1;
		rc = select_(&s, g, args, 1, &how, &err);
		ok(!rc && !s.count, "  unless the caller checked its lists already (a watch)");
		o.skip_listing_checks = 0;
	}
	{
		const struct owners_selection_arg args[] = { { ev, NULL } };

		rc = select_(&s, g, args, 1, &how, &err);
		ok(rc == OWNERS_ENOTFOUND && strstr(owners_error_message(&err), "'events' objects are not checked"),
		   "find: a type the GC does not track and nobody listed is said so: %s",
		   owners_error_message(&err));
	}
	{
		const struct owners_selection_arg args[] = { { binding, "x" } };

		rc = select_(&s, g, args, 1, &how, &err);
		is_str(owners_error_message(&err), "'bindings' objects cannot be looked at: the type cannot be listed",
		       "find: a type that cannot be listed is said so");
	}
	{
		const struct owners_selection_arg args[] = { { cm, "web-cm" } };

		scope.namespace_ = "c";
		rc = select_(&s, g, args, 1, &how, &err);
		is_str(owners_error_message(&err),
		       "'configmaps' objects in namespace 'c' were not listed, so none can be looked for",
		       "find: a name in a namespace never listed is not called absent");
		scope.namespace_ = "a";
	}
	{
		const struct owners_selection_arg args[] = { { cm, "gone" } };

		o.absent_owners = 1;
		rc = select_(&s, g, args, 1, &how, &err);
		ok(!rc && s.count == 1 && g->nodes[s.nodes[0]].virtual_ &&
			   !strcmp(OWNERS_NODE_UID(&g->nodes[s.nodes[0]]), "u-gone"),
		   "find, absent owners: a gone owner with dependents left is selected (its "
		   "virtual node)");
		o.absent_owners = 0;
		rc = select_(&s, g, args, 1, &how, &err);
		is_int(rc, OWNERS_ENOTFOUND, "  without the option it is not found");
		/* issue #38: tree and why say what its deletion left */
		is_str(owners_error_message(&err),
		       "configmaps 'gone' not found in namespace 'a'; 1 object still names it as owner "
		       "(its deletion left them, or the garbage collector has not caught up): "
		       "'owners delete configmaps/gone -n a --resume=u-gone' finishes it",
		       "  and says how many objects still name it as owner, and what finishes it");
	}
	{
		scope.everything_when_none = 1;
		scope.everything_flags = OWNERS_MARK_OWN_NAMESPACE;
		rc = select_(&s, g, NULL, 0, &how, &err);
		is_str(names(g, &s), "/a a/web-cm a/db a/web-1 a/web-2",
		       "find: no argument, everything in the namespace and, asked, its Namespace, in the node "
		       "order (namespace, kind, name), not the order listed");
		ok(owners_selection_add(&s, s.nodes[0]) == 0 && s.count == 5, "owners_selection_add: once only");
		scope.everything_when_none = 0;
	}
	owners_selection_clear(&s);
	owners_error_clear(&err);
}

int main(void)
{
	struct owners_graph *g = NULL;
	const struct owners_owner_ref_meta gone[] = { REF("v1", "ConfigMap", "gone", "u-gone") };

	fake_type_add(&types,
		      &(struct fake_type){ "", "v1", "configmaps", "configmap", "ConfigMap", "cm",
					   1, 1 });
	fake_type_add(&types, &(struct fake_type){ "", "v1", "pods", "pod", "Pod", "po", 1, 1 });
	fake_type_add(&types,
		      &(struct fake_type){ "", "v1", "secrets", "secret", "Secret", NULL, 1, 1 });
	fake_type_add(&types,
		      &(struct fake_type){ "", "v1", "namespaces", "namespace", "Namespace", "ns",
					   0, 1 });
	fake_type_add(&types,
		      &(struct fake_type){ "", "v1", "events", "event", "Event", "ev", 1, 1 });
	fake_type_add(&types,
		      &(struct fake_type){ "", "v1", "bindings", "binding", "Binding", NULL, 1,
					   1 });
	for (size_t i = 0; i < types.count; i++) {
		types.items[i].gc_tracked = strcmp(types.items[i].resource, "events") != 0;
		if (!strcmp(types.items[i].resource, "bindings"))
			types.items[i].verbs = 0;
	}
	if (owners_graph_new(&g, &types))
		return 1;
	fake_object_add(g, type("v1", "ConfigMap"), FAKE_OBJECT("a", "web-cm", "u-cm", 1, gone));
	fake_object_add(g, type("v1", "Pod"), FAKE_OBJECT("a", "db", "u-db"));
	fake_object_add(g, type("v1", "Pod"), FAKE_OBJECT("a", "web-1", "u-w1"));
	fake_object_add(g, type("v1", "Pod"), FAKE_OBJECT("a", "web-2", "u-w2"));
	fake_object_add(g, type("v1", "Pod"), FAKE_OBJECT("b", "web-3", "u-w3"));
	fake_object_add(g, type("v1", "Namespace"), FAKE_OBJECT("", "a", "u-ns-a"));
	owners_graph_note_listing(g, type("v1", "ConfigMap"), "a", 0, NULL);
	owners_graph_note_listing(g, type("v1", "Pod"), NULL, 0, NULL);
	owners_graph_note_listing(g, type("v1", "Namespace"), NULL, 0, NULL);
	owners_graph_note_listing(g, type("v1", "Secret"), "a", OWNERS_EFORBIDDEN,
				  "cannot list 'secrets' in namespace 'a': forbidden");
	owners_graph_link(g);

	test_targets();
	test_find(g);
	owners_graph_free(g);
	owners_resource_table_clear(&types);
	return tap_done();
}
