/* No action on an absence the server has not confirmed: the collector's
 * and the cascade's plans, with each owner missing from the scan read
 * (here from a fake server that answers per owner name), as the GC's
 * isDangling() reads it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "absence_confirm.h"
#include "fake_objects.h"
#include "fake_types.h"
#include "tap.h"

static struct owners_resource_table types;

static const char *api_of(const char *kind)
{
	return strcmp(kind, "ClusterRole") ? "v1" : "rbac.authorization.k8s.io/v1";
}

#define R(kind, name, uid, block) { api_of(kind), kind, name, uid, 1, block }

/* The fake server: owners named "live*" are there, "broken*" cannot be
 * read, every other one is gone. Counts the reads per owner name. */
struct server {
	char asked[16][32];
	int times[16];
	size_t n;
};

static enum owners_owner_verdict read_owner(void *ctx, const struct owners_node *dep,
					    const struct owners_ref *ref, const char *uid)
{
	struct server *s = ctx;
	size_t i;

	(void)dep;
	(void)uid;
	for (i = 0; i < s->n && strcmp(s->asked[i], ref->name); i++)
		;
	if (i == s->n && s->n < 16)
		snprintf(s->asked[s->n++], sizeof(s->asked[0]), "%s", ref->name);
	if (i < 16)
		s->times[i]++;
	if (!strncmp(ref->name, "live", 4))
		return OWNERS_OWNER_ALIVE;
	return strncmp(ref->name, "broken", 6) ? OWNERS_OWNER_GONE : OWNERS_OWNER_UNKNOWN;
}

static int times_read(const struct server *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->asked[i], name))
			return s->times[i];
	return 0;
}

static void checks_init(struct owners_owner_checks *cc, struct server *s)
{
	memset(s, 0, sizeof(*s));
	owners_owner_checks_init(cc, &types, NULL);
	cc->read = read_owner;
	cc->read_ctx = s;
}

/* One pass of the collector, confirmed. */
static struct owners_collector_step *gc_pass(struct owners_graph *g, struct server *s, size_t *held)
{
	struct owners_collector *c = NULL;
	struct owners_collector_step *steps = calloc(g->count + 1, sizeof(*steps));
	struct owners_owner_checks cc;

	checks_init(&cc, s);
	ok(owners_collector_new(&c, g) == 0 && steps, "collector made");
	owners_collector_plan(c, steps);
	ok(owners_absence_confirm_collector(held, c, steps, NULL, &cc) == 0, "absences confirmed");
	owners_owner_checks_clear(&cc);
	owners_collector_free(c);
	return steps;
}

static void test_collector(void)
{
	const struct fake_obj objs[] = {
		/* owners missing from the lists: one is there, one gone, one unreadable */
		{ "ConfigMap", "a", "a", NULL, { NULL }, { R("ConfigMap", "live-1", "ul", 0) } },
		{ "ConfigMap", "b", "b", NULL, { NULL }, { R("ConfigMap", "gone-1", "ug", 0) } },
		{ "ConfigMap", "c", "c", NULL, { NULL }, { R("ConfigMap", "broken-1", "ub", 0) } },
		/* a second object naming the owner that is there: read once */
		{ "ConfigMap", "a2", "a2", NULL, { NULL }, { R("ConfigMap", "live-1", "ul", 0) } },
		/* a solid owner and two missing ones: only the gone one comes off */
		{ "ConfigMap", "keeper", "k", NULL, { NULL }, { { 0 } } },
		{ "ConfigMap", "d", "d", NULL, { NULL },
		  { R("ConfigMap", "keeper", "k", 0), R("ConfigMap", "live-2", "ul2", 0), R("ConfigMap", "gone-2", "ug2", 0) } },
		/* issue #43's graph: a ClusterRole the lists missed is its controller */
		{ "ConfigMap", "c0", "c0", NULL, { NULL },
		  { R("ConfigMap", "c1", "c1", 1), R("ClusterRole", "live-r3", "r3", 1) } },
		{ "ConfigMap", "c1", "c1", "2026-01-01T00:00:00Z", { "foregroundDeletion" }, { R("ConfigMap", "c0", "c0", 1) } },
	};
	struct owners_graph *g = fake_graph_build(&types, objs, 8, api_of, NULL);
	struct server s;
	size_t held;
	struct owners_collector_step *st = gc_pass(g, &s, &held);
	uint32_t a = owners_graph_find_uid(g, "a"), b = owners_graph_find_uid(g, "b"),
		 c = owners_graph_find_uid(g, "c"), a2 = owners_graph_find_uid(g, "a2"),
		 d = owners_graph_find_uid(g, "d"), c0 = owners_graph_find_uid(g, "c0");

	ok(st[a].kind == OWNERS_COLLECTOR_STEP_WAIT && st[a].wait == OWNERS_COLLECTOR_WAIT_OWNER_LIVE,
	   "an owner missing from the lists that is there when read keeps its dependent (wait %s)",
	   owners_collector_wait_name(st[a].wait));
	ok(st[a2].kind == OWNERS_COLLECTOR_STEP_WAIT, "  and every other dependent naming it");
	is_int(times_read(&s, "live-1"), 1, "  read once for both");
	is_int(st[b].kind, OWNERS_COLLECTOR_STEP_DELETE, "an owner confirmed gone: the object is deleted");
	ok(st[c].kind == OWNERS_COLLECTOR_STEP_WAIT && st[c].wait == OWNERS_COLLECTOR_WAIT_UNDECIDED,
	   "an owner that cannot be read: kept, undecided");
	ok(st[d].kind == OWNERS_COLLECTOR_STEP_STRIP && st[d].count == 1,
	   "with a solid owner, only the reference confirmed gone comes off (count %u)", st[d].count);
	ok(st[c0].kind != OWNERS_COLLECTOR_STEP_DELETE && st[c0].kind != OWNERS_COLLECTOR_STEP_STRIP &&
		   st[c0].kind != OWNERS_COLLECTOR_STEP_UNBLOCK,
	   "issue #43: a live ClusterRole the lists missed: its dependent is neither deleted, stripped nor "
	   "unblocked (%s)", owners_collector_step_name(st[c0].kind));
	ok(held >= 4, "held: %zu references", held);
	is_int(times_read(&s, "keeper"), 0, "an owner the scan saw is not read");
	free(st);
	owners_graph_free(g);
}

static void test_cascade(void)
{
	/* The root is gone already (an earlier round); its dependents are
	 * found by the UID they still name. */
	const struct fake_obj objs[] = {
		{ "ConfigMap", "kept", "k", NULL, { NULL },
		  { R("ConfigMap", "root", "r", 0), R("ConfigMap", "live-other", "lo", 0) } },
		{ "ConfigMap", "goes", "g", NULL, { NULL },
		  { R("ConfigMap", "root", "r", 0), R("ConfigMap", "gone-other", "go", 0) } },
		{ "ConfigMap", "unsure", "u", NULL, { NULL },
		  { R("ConfigMap", "root", "r", 0), R("ConfigMap", "broken-other", "bo", 0) } },
		{ "ConfigMap", "solo", "s", NULL, { NULL }, { R("ConfigMap", "root", "r", 0) } },
	};
	struct owners_graph *g = fake_graph_build(&types, objs, 4, api_of, NULL);
	const char *roots[] = { "r" };
	struct owners_cascade_options o = { OWNERS_CASCADE_BACKGROUND, 1, 0 };
	struct owners_cascade_plan p;
	struct owners_owner_checks cc;
	struct server s;
	size_t held, i;
	int deletes_goes = 0, deletes_kept = 0, deletes_unsure = 0, deletes_solo = 0, waits_kept = 0;

	memset(&p, 0, sizeof(p));
	ok(owners_cascade_plan_make(&p, g, &(struct owners_cascade_seeds){ roots, 1, NULL, 0 }, &o) == 0,
	   "cascade planned");
	ok(p.n_actions == 4, "as listed, all four dependents of the gone root are deleted (%zu)", p.n_actions);
	checks_init(&cc, &s);
	ok(owners_absence_confirm_cascade(&held, &p, g, &cc) == 0, "absences confirmed");
	for (i = 0; i < p.n_actions; i++) {
		const char *name = g->nodes[p.actions[i].node].name;

		deletes_goes += !strcmp(name, "goes");
		deletes_kept += !strcmp(name, "kept");
		deletes_unsure += !strcmp(name, "unsure");
		deletes_solo += !strcmp(name, "solo");
	}
	for (i = 0; i < p.n_waits; i++)
		waits_kept += !strcmp(g->nodes[p.waits[i].node].name, "kept") && p.waits[i].on == OWNERS_WAIT_ON_OWNERS;
	ok(!deletes_kept && waits_kept, "an object whose other owner is there when read is not deleted: it waits");
	ok(!deletes_unsure, "nor one whose other owner cannot be read");
	ok(deletes_goes && deletes_solo, "those whose owners are confirmed gone are");
	is_int((int)held, 2, "two actions held");
	is_int(times_read(&s, "root"), 1, "the gone root read once for four dependents");
	owners_owner_checks_clear(&cc);
	owners_cascade_plan_clear(&p);
	owners_graph_free(g);
}

int main(void)
{
	fake_type_add(&types,
		      &(struct fake_type){ "", "v1", "configmaps", "configmap", "ConfigMap", "cm",
					   1, 1 });
	fake_type_add(&types,
		      &(struct fake_type){ "rbac.authorization.k8s.io", "v1", "clusterroles",
					   "clusterrole", "ClusterRole", NULL, 0, 1 });
	test_collector();
	test_cascade();
	owners_resource_table_clear(&types);
	return tap_done();
}
