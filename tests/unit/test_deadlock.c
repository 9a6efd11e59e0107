/* Deadlocks: objects in foreground deletion that block each other, which
 * the garbage collector never ends; named only when certain, with the
 * least change that ends them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collector.h"
#include "deadlock.h"
#include "fake_objects.h"
#include "fake_types.h"
#include "tap.h"

static struct owners_resource_table types;

static const char *api_of(const char *kind)
{
	(void)kind;
	return "v1";
}

#define R(name, uid, block) { "v1", "ConfigMap", name, uid, 1, block }
#define T "2026-01-01T00:00:00Z"
#define FG { "foregroundDeletion" }

/* What find() says of objs: the members and command of each deadlock,
 * "a,b: owners finalizers remove ...", joined with " | " ("" for none). */
static char *found(const struct fake_obj *objs, size_t n)
{
	struct owners_graph *g = fake_graph_build(&types, objs, n, api_of, NULL);
	struct owners_collector *c = NULL;
	struct owners_deadlocks d;
	struct owners_buf out = OWNERS_BUF_INIT;
	size_t i;

	if (owners_collector_new(&c, g) || owners_deadlocks_find(&d, c)) {
		owners_collector_free(c);
		owners_graph_free(g);
		return strdup("(failed)");
	}
	owners_buf_adds(&out, "");
	for (i = 0; i < d.count; i++) {
		owners_buf_adds(&out, i ? " | " : "");
		owners_deadlock_members_text(&out, g, &d.items[i]);
		owners_buf_adds(&out, ": ");
		owners_deadlock_command(&out, NULL, g, &d.items[i]);
	}
	owners_deadlocks_clear(&d);
	owners_collector_free(c);
	owners_graph_free(g);
	return out.ptr;
}

static void check(const struct fake_obj *objs, size_t n, const char *want, const char *what)
{
	char *got = found(objs, n);

	is_str(got, want, "%s", what);
	free(got);
}

#define CMD(names) "owners finalizers remove " names " -n ns --finalizer foregroundDeletion"

static void test_pair(void)
{
	const struct fake_obj dead[] = {
		{ "ConfigMap", "a", "ua", T, FG, { R("b", "ub", 1) } },
		{ "ConfigMap", "b", "ub", T, FG, { R("a", "ua", 1) } },
	};
	const struct fake_obj exit_[] = {
		{ "ConfigMap", "a", "ua", T, FG, { R("b", "ub", 1) } },
		{ "ConfigMap", "b", "ub", T, FG, { R("a", "ua", 0) } },
	};
	const struct fake_obj live[] = {
		{ "ConfigMap", "a", "ua", T, FG, { R("b", "ub", 1) } },
		{ "ConfigMap", "b", "ub", NULL, { NULL }, { R("a", "ua", 1) } },
	};
	const struct fake_obj orphan[] = {
		{ "ConfigMap", "a", "ua", T, FG, { R("b", "ub", 1) } },
		{ "ConfigMap", "b", "ub", T, { "foregroundDeletion", "orphan" }, { R("a", "ua", 1) } },
	};
	const struct fake_obj background[] = {
		{ "ConfigMap", "a", "ua", T, FG, { R("b", "ub", 1) } },
		{ "ConfigMap", "b", "ub", T, { "example.com/hold" }, { R("a", "ua", 1) } },
	};

	check(dead, 2, "configmap/a, configmap/b: " CMD("configmap/a"),
	      "two in foreground deletion blocking each other: a deadlock, one finalizer ends it");
	check(exit_, 2, "", "a cycle with an exit (one reference does not block) is no deadlock");
	check(live, 2, "", "one not yet in deletion: the GC's cycle breaker unblocks it, no deadlock");
	check(orphan, 2, "", "one orphaning: its dependents are released, no deadlock");
	check(background, 2, "",
	      "one in deletion without foregroundDeletion: its controller may let it go, no deadlock");
}

static void test_others_finalizers(void)
{
	const struct fake_obj one[] = {
		{ "ConfigMap", "a", "ua", T, { "foregroundDeletion", "example.com/hold" }, { R("b", "ub", 1) } },
		{ "ConfigMap", "b", "ub", T, FG, { R("a", "ua", 1) } },
	};
	const struct fake_obj both[] = {
		{ "ConfigMap", "a", "ua", T, { "example.com/hold", "foregroundDeletion" }, { R("b", "ub", 1) } },
		{ "ConfigMap", "b", "ub", T, { "foregroundDeletion", "example.com/hold" }, { R("a", "ua", 1) } },
	};

	check(one, 2, "configmap/a, configmap/b: " CMD("configmap/b"),
	      "other finalizers on a member change nothing; the way out goes through the one without");
	check(both, 2, "configmap/a, configmap/b: " CMD("configmap/a"),
	      "every member holds other finalizers: still a deadlock, foregroundDeletion is still the way out");
}

static void test_shapes(void)
{
	const struct fake_obj three[] = {
		{ "ConfigMap", "a", "ua", T, FG, { R("c", "uc", 1) } },
		{ "ConfigMap", "b", "ub", T, FG, { R("a", "ua", 1) } },
		{ "ConfigMap", "c", "uc", T, FG, { R("b", "ub", 1) } },
	};
	const struct fake_obj three_exit[] = {
		{ "ConfigMap", "a", "ua", T, FG, { R("c", "uc", 1) } },
		{ "ConfigMap", "b", "ub", T, FG, { R("a", "ua", 0) } },
		{ "ConfigMap", "c", "uc", T, FG, { R("b", "ub", 1) } },
	};
	const struct fake_obj self[] = {
		{ "ConfigMap", "s", "us", T, FG, { R("s", "us", 1) } },
	};
	const struct fake_obj root_above[] = {
		{ "ConfigMap", "a", "ua", T, FG, { R("b", "ub", 1), R("r", "ur", 1) } },
		{ "ConfigMap", "b", "ub", T, FG, { R("a", "ua", 1) } },
		{ "ConfigMap", "r", "ur", T, FG, { { 0 } } },
	};
	const struct fake_obj eight[] = {
		{ "ConfigMap", "a", "ua", T, FG, { R("b", "ub", 1) } },
		{ "ConfigMap", "b", "ub", T, FG, { R("a", "ua", 1), R("c", "uc", 1) } },
		{ "ConfigMap", "c", "uc", T, FG, { R("b", "ub", 1) } },
	};
	const struct fake_obj two[] = {
		{ "ConfigMap", "a", "ua", T, FG, { R("b", "ub", 1) } },
		{ "ConfigMap", "b", "ub", T, FG, { R("a", "ua", 1) } },
		{ "ConfigMap", "c", "uc", T, FG, { R("d", "ud", 1) } },
		{ "ConfigMap", "d", "ud", T, FG, { R("c", "uc", 1) } },
	};
	const struct fake_obj waits_outside[] = {
		{ "ConfigMap", "a", "ua", T, FG, { R("b", "ub", 1) } },
		{ "ConfigMap", "b", "ub", T, FG, { { 0 } } },
		{ "ConfigMap", "x", "ux", T, { "example.com/hold" }, { R("b", "ub", 1) } },
	};

	check(three, 3, "configmap/a, configmap/b, configmap/c: " CMD("configmap/a"), "a cycle of three");
	check(three_exit, 3, "", "a cycle of three with one reference not blocking: no deadlock");
	check(self, 1, "configmap/s: " CMD("configmap/s"), "an object that blocks its own deletion");
	check(root_above, 3, "configmap/a, configmap/b, configmap/r: " CMD("configmap/a"),
	      "a root waiting on a cycle never ends either; the way out is in the cycle");
	check(eight, 3, "configmap/a, configmap/b, configmap/c: " CMD("configmap/b"),
	      "two cycles through b: b alone ends both (the least change)");
	check(two, 4,
	      "configmap/a, configmap/b: " CMD("configmap/a") " | configmap/c, configmap/d: " CMD("configmap/c"),
	      "two deadlocks apart, each with its way out");
	check(waits_outside, 3, "",
	      "waiting on an object held by another controller's finalizer: it may go, no deadlock");
}

/* attach(): the members' steps say deadlock, the rest's are unchanged. */
static void test_attach(void)
{
	const struct fake_obj objs[] = {
		{ "ConfigMap", "a", "ua", T, FG, { R("b", "ub", 1) } },
		{ "ConfigMap", "b", "ub", T, FG, { R("a", "ua", 1) } },
		{ "ConfigMap", "r", "ur", T, FG, { { 0 } } },
		{ "ConfigMap", "x", "ux", T, { "example.com/hold" }, { R("r", "ur", 1) } },
	};
	struct owners_graph *g = fake_graph_build(&types, objs, 4, api_of, NULL);
	struct owners_collector *c = NULL;
	struct owners_collector_step *s = calloc(g->count + 1, sizeof(*s));
	struct owners_buf why = OWNERS_BUF_INIT;
	uint32_t a = owners_graph_find_uid(g, "ua"), r = owners_graph_find_uid(g, "ur");

	ok(owners_collector_new(&c, g) == 0, "collector made");
	owners_collector_plan(c, s);
	ok(owners_deadlocks_attach(c, s) == 0, "attached");
	is_str(owners_collector_wait_name(s[a].wait), "deadlock", "a member waits on a deadlock");
	is_str(owners_collector_wait_name(s[r].wait), "blocking-dependents", "an owner held by a finalizer waits as before");
	ok(owners_deadlock_explain(&why, NULL, g, owners_deadlocks_of(c->deadlocks, a)) == 0, "explained");
	is_str(why.ptr,
	       "deadlock: configmap/a, configmap/b are all in foreground deletion, each blocked by another of "
	       "them: the garbage collector never ends it; to end it, run: " CMD("configmap/a"),
	       "the words name the members and the command");
	ok(!owners_deadlocks_of(c->deadlocks, r), "r is in none");
	owners_buf_clear(&why);
	owners_collector_free(c);
	free(s);
	owners_graph_free(g);
}

int main(void)
{
	fake_type_add(&types,
		      &(struct fake_type){ "", "v1", "configmaps", "configmap", "ConfigMap", "cm",
					   1, 1 });
	test_pair();
	test_others_finalizers();
	test_shapes();
	test_attach();
	owners_resource_table_clear(&types);
	return tap_done();
}
