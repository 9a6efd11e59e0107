/* What `owners delete` says, rendered in lib/ops/cascade_render.c: the
 * plan of a client dry run (made by the planner on a graph built here),
 * the progress line and its cut at the terminal's width, what a timed-out
 * cascade still waits on, the closing sentences, and each object's line. */
#include <stdlib.h>
#include <string.h>

#include "cascade.h"
#include "cascade_render.h"
#include "fake_objects.h"
#include "fake_types.h"
#include "pod_claims.h"
#include "stuck.h"
#include "tap.h"

static struct owners_resource_table types;

#define REF(api_, kind_, name_, uid_)                                                              \
	{                                                                                          \
		.api_version = (api_), .kind = (kind_), .name = (name_), .uid = (uid_),            \
		.controller = 1, .block_owner_deletion = 1                                         \
	}
#define DELETED "2026-01-01T00:10:00Z"

static const struct owners_resource *type(const char *api, const char *kind)
{
	return owners_resource_by_gvk(&types, api, kind);
}

/*   ns/deployment.apps/web                 (root)
 *     ns/replicaset.apps/web-1
 *       ns/pod/web-1-a
 *       ns/pod/web-1-b                     (also owned by ns/configmap/keep: released)
 *       ns/pod/web-1-c                     (in deletion, example.com/hold)
 *   clusterrole.rbac.authorization.k8s.io/cr   (root)
 *     ns/configmap/cr-data
 * and ns/replicaset.apps/old-1, whose Deployment (uid gone-1) is gone. */
static struct owners_graph *build(const char *deployment_deleted, size_t n_deployment_fins,
				  const char *const *deployment_fins)
{
	static const struct owners_owner_ref_meta to_web[] = { REF("apps/v1", "Deployment", "web",
								   "d1") };
	static const struct owners_owner_ref_meta to_rs[] = { REF("apps/v1", "ReplicaSet", "web-1",
								  "r1") };
	static const struct owners_owner_ref_meta to_rs_and_keep[] = {
		REF("apps/v1", "ReplicaSet", "web-1", "r1"), REF("v1", "ConfigMap", "keep", "k1")
	};
	static const struct owners_owner_ref_meta to_cr[] = { REF("rbac.authorization.k8s.io/v1",
								  "ClusterRole", "cr", "c1") };
	static const struct owners_owner_ref_meta to_gone[] = { REF("apps/v1", "Deployment", "old",
								    "gone-1") };
	static const char *const hold[] = { "example.com/hold" };
	struct owners_graph *g = NULL;
	size_t i;

	if (owners_graph_new(&g, &types))
		return NULL;
	for (i = 0; i < types.count; i++)
		owners_graph_note_listing(g, &types.items[i], NULL, 0, NULL);
	fake_object_add(g, type("apps/v1", "Deployment"),
			FAKE_OBJECT("ns", "web", "d1", .deleted = deployment_deleted,
				    .n_fins = n_deployment_fins, .fins = deployment_fins));
	fake_object_add(g, type("apps/v1", "ReplicaSet"),
			FAKE_OBJECT("ns", "web-1", "r1", 1, to_web));
	fake_object_add(g, type("v1", "Pod"), FAKE_OBJECT("ns", "web-1-a", "p1", 1, to_rs));
	fake_object_add(g, type("v1", "Pod"),
			FAKE_OBJECT("ns", "web-1-b", "p2", 2, to_rs_and_keep));
	fake_object_add(g, type("v1", "Pod"),
			FAKE_OBJECT("ns", "web-1-c", "p3", 1, to_rs, .deleted = DELETED,
				    .n_fins = 1, .fins = hold));
	fake_object_add(g, type("v1", "ConfigMap"), FAKE_OBJECT("ns", "keep", "k1"));
	fake_object_add(g, type("rbac.authorization.k8s.io/v1", "ClusterRole"),
			FAKE_OBJECT("", "cr", "c1"));
	fake_object_add(g, type("v1", "ConfigMap"), FAKE_OBJECT("ns", "cr-data", "cm1", 1, to_cr));
	fake_object_add(g, type("apps/v1", "ReplicaSet"),
			FAKE_OBJECT("ns", "old-1", "r2", 1, to_gone));
	owners_graph_link(g);
	return g;
}

/* The plan of roots in mode, rendered. */
static char *plan_text(struct owners_graph *g, const char *const *roots, size_t n_roots,
		       enum owners_cascade_mode mode)
{
	struct owners_cascade_options o = { mode, 1, 0 };
	struct owners_cascade_plan p;
	struct owners_cascade_render r = { g, &p, mode, roots, n_roots, NULL, NULL };
	struct owners_buf out = OWNERS_BUF_INIT;
	char *text = NULL;

	if (owners_cascade_plan_make(&p, g, &(struct owners_cascade_seeds){ roots, n_roots, NULL, 0 }, &o))
		return NULL;
	if (!owners_cascade_render_plan(&out, &r))
		text = owners_buf_detach(&out);
	owners_buf_clear(&out);
	owners_cascade_plan_clear(&p);
	return text;
}

static void test_plan(void)
{
	static const char *const roots[] = { "d1", "c1" };
	static const char *const gone[] = { "gone-1" };
	static const char *const foreground[] = { OWNERS_FINALIZER_FOREGROUND };
	static const char *const orphan[] = { OWNERS_FINALIZER_ORPHAN };
	static const char *const other[] = { "example.com/a", "example.com/b" };
	struct owners_graph *g = build("", 0, NULL);
	char *text;

	text = plan_text(g, roots, 2, OWNERS_CASCADE_BACKGROUND);
	is_str(text,
	       "background cascade (dry run, nothing changed):\n"
	       "ns/deployment.apps/web  delete (root)\n"
	       "  ns/replicaset.apps/web-1  delete (every owner is deleted)\n"
	       "    ns/pod/web-1-a  delete (every owner is deleted)\n"
	       "    ns/pod/web-1-b  release (kept: another owner is alive)\n"
	       "    ns/pod/web-1-c  in deletion already: goes when these finalizers are removed: "
	       "example.com/hold\n"
	       "clusterrole.rbac.authorization.k8s.io/cr  delete (root)\n"
	       "  ns/configmap/cr-data  delete (every owner is deleted)\n",
	       "background: every row in tree order, indented, with what happens to it; a "
	       "cluster-scoped row has no namespace");
	free(text);

	text = plan_text(g, roots, 1, OWNERS_CASCADE_FOREGROUND);
	ok(text && !strncmp(text,
			    "foreground cascade (dry run, nothing changed):\n"
			    "ns/deployment.apps/web  delete first, goes last (root)\n",
			    strlen("foreground cascade (dry run, nothing changed):\n"
				   "ns/deployment.apps/web  delete first, goes last (root)\n")),
	   "foreground: the root is deleted first and goes last");
	free(text);

	text = plan_text(g, roots, 1, OWNERS_CASCADE_ORPHAN);
	is_str(text,
	       "orphan cascade (dry run, nothing changed):\n"
	       "ns/deployment.apps/web  delete (root; its dependents are kept)\n"
	       "  ns/replicaset.apps/web-1  release (orphaned, kept)\n",
	       "orphan: the root's dependents are released, and nothing below them is in the plan");
	free(text);

	text = plan_text(g, gone, 1, OWNERS_CASCADE_BACKGROUND);
	ok(text && strstr(text, "ns/deployment.apps/old  already gone\n") &&
		   strstr(text, "  ns/replicaset.apps/old-1  delete (every owner is deleted)\n"),
	   "a root already gone (an interrupted run) says so, and its dependents still go");
	free(text);
	owners_graph_free(g);

	g = build(DELETED, 1, foreground);
	text = plan_text(g, roots, 1, OWNERS_CASCADE_BACKGROUND);
	ok(text && strstr(text,
			  "\nns/deployment.apps/web  root, in foreground deletion already: goes "
			  "last, after its blocking dependents\n"),
	   "a root in foreground deletion goes the way it entered it");
	free(text);
	owners_graph_free(g);

	g = build(DELETED, 1, orphan);
	text = plan_text(g, roots, 1, OWNERS_CASCADE_FOREGROUND);
	ok(text && strstr(text, "\nns/deployment.apps/web  root, in orphan deletion already: its "
				"dependents are released, then it goes\n"),
	   "a root in orphan deletion: its dependents are released, then it goes");
	free(text);
	owners_graph_free(g);

	g = build(DELETED, 2, other);
	text = plan_text(g, roots, 1, OWNERS_CASCADE_BACKGROUND);
	ok(text && strstr(text,
			  "\nns/deployment.apps/web  root, in deletion already: goes when these "
			  "finalizers are removed: example.com/a example.com/b\n"),
	   "a root in deletion for other finalizers names them");
	free(text);
	owners_graph_free(g);

	g = build(DELETED, 0, NULL);
	text = plan_text(g, roots, 1, OWNERS_CASCADE_BACKGROUND);
	ok(text && strstr(text, "\nns/deployment.apps/web  root, in deletion already: goes now\n"),
	   "a root in deletion with no finalizers goes now");
	free(text);
	owners_graph_free(g);
}

/* Issue #38: the plan says which objects will wait once deleted, and on
 * what: a foreign finalizer held now, a claim's pvc-protection with the
 * pods that use it (one in the cascade, one not), a volume's
 * pv-protection with the claim bound to it; a claim no pod uses goes at
 * once and says nothing. */
static void test_plan_waits(void)
{
	static const struct owners_owner_ref_meta to_root[] = { REF("v1", "ConfigMap", "root", "root") };
	static const char *const hold[] = { "example.com/hold" };
	static const char *const pvc[] = { "kubernetes.io/pvc-protection" };
	static const char *const pv[] = { "kubernetes.io/pv-protection" };
	static const char *const roots[] = { "root", "pv1" };
	struct owners_cascade_options o = { OWNERS_CASCADE_BACKGROUND, 1, 0 };
	struct owners_stuck_facts facts;
	struct owners_stuck_pods *pods;
	struct owners_stuck_volume *vol;
	struct owners_cascade_plan p;
	struct owners_cascade_render r;
	struct owners_buf out = OWNERS_BUF_INIT;
	struct owners_graph *g = NULL;
	size_t i;

	memset(&facts, 0, sizeof(facts));
	if (owners_graph_new(&g, &types))
		return;
	for (i = 0; i < types.count; i++)
		owners_graph_note_listing(g, &types.items[i], NULL, 0, NULL);
	fake_object_add(g, type("v1", "ConfigMap"), FAKE_OBJECT("ns", "root", "root"));
	fake_object_add(g, type("v1", "ConfigMap"),
			FAKE_OBJECT("ns", "held", "cm2", 1, to_root, .n_fins = 1, .fins = hold));
	fake_object_add(g, type("v1", "PersistentVolumeClaim"),
			FAKE_OBJECT("ns", "data", "pvc1", 1, to_root, .n_fins = 1, .fins = pvc));
	fake_object_add(g, type("v1", "PersistentVolumeClaim"),
			FAKE_OBJECT("ns", "idle", "pvc2", 1, to_root, .n_fins = 1, .fins = pvc));
	fake_object_add(g, type("v1", "Pod"), FAKE_OBJECT("ns", "db-0", "pod1", 1, to_root));
	fake_object_add(g, type("v1", "Pod"), FAKE_OBJECT("ns", "reader", "pod2"));
	fake_object_add(g, type("v1", "PersistentVolume"),
			FAKE_OBJECT("", "pv-data", "pv1", .n_fins = 1, .fins = pv));
	owners_graph_link(g);

	pods = owners_stuck_facts_add_pods(&facts, "ns");
	vol = owners_stuck_facts_add_volume(&facts, owners_graph_find_uid(g, "pv1"));
	if (!pods || !vol)
		return;
	pods->pods.pods = calloc(3, sizeof(*pods->pods.pods));
	for (i = 0; i < 3; i++) {
		struct owners_pod_claim_use *u = &pods->pods.pods[i];

		u->pod = strdup(i == 0 ? "db-0" : i == 1 ? "reader" : "pending");
		u->node_name = strdup(i == 2 ? "" : "node-1"); /* "pending" is not scheduled */
		u->phase = strdup(i == 2 ? "Pending" : "Running");
		u->claims = calloc(1, sizeof(*u->claims));
		u->claims[0] = strdup(i == 2 ? "idle" : "data");
		u->ephemeral = calloc(1, 1);
		u->n_claims = 1;
	}
	pods->pods.count = pods->pods.cap = 3;
	vol->phase = strdup("Bound");
	vol->claim_namespace = strdup("ns");
	vol->claim_name = strdup("data");

	if (owners_cascade_plan_make(&p, g, &(struct owners_cascade_seeds){ roots, 2, NULL, 0 }, &o)) {
		ok(0, "plan made");
		return;
	}
	r = (struct owners_cascade_render){ g, &p, OWNERS_CASCADE_BACKGROUND, roots, 2, &facts, NULL };
	ok(owners_cascade_render_plan(&out, &r) == 0, "plan with waits rendered");
	is_str(out.ptr,
	       "background cascade (dry run, nothing changed):\n"
	       "ns/configmap/root  delete (root)\n"
	       "  ns/configmap/held  delete (every owner is deleted); then waits on "
	       "example.com/hold (its controller removes it)\n"
	       "  ns/persistentvolumeclaim/data  delete (every owner is deleted); then waits on "
	       "kubernetes.io/pvc-protection until ns/pod/db-0 is gone (in this cascade), "
	       "while ns/pod/reader uses it (not in this cascade)\n"
	       "  ns/persistentvolumeclaim/idle  delete (every owner is deleted)\n"
	       "  ns/pod/db-0  delete (every owner is deleted)\n"
	       "persistentvolume/pv-data  delete (root); then waits on kubernetes.io/pv-protection "
	       "until ns/persistentvolumeclaim/data is gone (in this cascade)\n",
	       "each wait named: a foreign finalizer, the pods using a claim, the claim bound to a volume");
	owners_buf_reset(&out);
	r.facts = NULL;
	ok(owners_cascade_render_plan(&out, &r) == 0 &&
		   strstr(out.ptr, "ns/persistentvolumeclaim/idle  delete (every owner is deleted); then "
				   "waits on kubernetes.io/pvc-protection while a pod uses it\n"),
	   "the pods not read: a claim waits while a pod uses it, whom not said");
	owners_buf_clear(&out);
	owners_cascade_plan_clear(&p);
	owners_stuck_facts_clear(&facts);
	owners_graph_free(g);
}

static void test_progress(void)
{
	struct owners_graph *g = build("", 0, NULL);
	struct owners_cascade_wait waits[2];
	struct owners_cascade_plan p;
	struct owners_cascade_render r = { g, &p, OWNERS_CASCADE_FOREGROUND, NULL, 0, NULL, NULL };
	struct owners_buf out = OWNERS_BUF_INIT, full = OWNERS_BUF_INIT;
	const char *e;

	memset(&p, 0, sizeof(p));
	p.members_left = 3;
	p.released_left = 1;
	ok(owners_cascade_render_progress(&out, &r, 7, 2, 0, 0) == 0 &&
		   !strcmp(out.ptr, "foreground cascade 7s: 2 deleted, 4 left"),
	   "the counts and the time; no newline");
	owners_buf_reset(&out);

	waits[0].node = owners_graph_find_uid(g, "p3");
	waits[0].on = OWNERS_WAIT_ON_OTHERS;
	waits[0].why = "finalizers: example.com/hold";
	waits[1].node = owners_graph_find_uid(g, "r1");
	waits[1].on = OWNERS_WAIT_ON_DEPENDENTS;
	waits[1].why = "blocking dependents: 1";
	p.waits = waits;
	p.n_waits = 2;
	owners_cascade_render_progress(&out, &r, 7, 2, 3, 0);
	is_str(out.ptr,
	       "foreground cascade 7s: 2 deleted, 4 left, 3 acting; waiting on Pod/web-1-c "
	       "(finalizers: example.com/hold) and 1 more",
	       "acting, and the first wait: an object in deletion waits on its finalizers");
	owners_buf_reset(&out);

	p.waits = waits + 1;
	p.n_waits = 1;
	owners_cascade_render_progress(&out, &r, 7, 2, 0, 0);
	is_str(out.ptr,
	       "foreground cascade 7s: 2 deleted, 4 left; waiting on ReplicaSet/web-1 (blocking "
	       "dependents: 1)",
	       "a live object waits for the reason the plan gives");
	owners_buf_reset(&out);

	owners_cascade_render_progress(&out, &r, 7, 2, 0, 30);
	is_str(out.ptr, "foreground cascade 7s: 2 d...",
	       "cut to the terminal's width, with \"...\"");
	ok(out.len == 29, "so that it never wraps (29 of 30 columns)");
	owners_buf_reset(&out);
	owners_cascade_render_progress(&out, &r, 7, 2, 0, 3);
	ok(!strstr(out.ptr, "..."), "no width to cut to: not cut");
	owners_buf_reset(&out);

	/* a cut never splits a UTF-8 character */
	waits[1].why = "h\xc3\xa9h\xc3\xa9";
	owners_cascade_render_progress(&full, &r, 7, 2, 0, 0);
	e = strchr(full.ptr, '\xc3');
	owners_buf_adds(&out, "> ");
	ok(e && owners_cascade_render_progress(&out, &r, 7, 2, 0, (size_t)(e - full.ptr) + 5) == 0,
	   "rendered after what the buffer held");
	ok(e && out.len == 2 + (size_t)(e - full.ptr) + 3 &&
		   !strncmp(out.ptr + 2, full.ptr, e - full.ptr) &&
		   !strcmp(out.ptr + out.len - 3, "..."),
	   "cut before the character the width falls in, counted from where the line starts");

	owners_buf_clear(&out);
	owners_buf_clear(&full);
	owners_graph_free(g);
}

static void test_end(void)
{
	struct owners_graph *g = build("", 0, NULL);
	struct owners_cascade_wait waits[2];
	struct owners_action actions[2];
	struct owners_cascade_plan p;
	struct owners_cascade_render r = { g, &p, OWNERS_CASCADE_BACKGROUND, NULL, 0, NULL, NULL };
	struct owners_buf out = OWNERS_BUF_INIT;

	memset(&p, 0, sizeof(p));
	memset(actions, 0, sizeof(actions));
	waits[0].node = owners_graph_find_uid(g, "p3");
	waits[0].on = OWNERS_WAIT_ON_OTHERS;
	waits[0].why = "its finalizers";
	waits[1].node = owners_graph_find_uid(g, "r1");
	waits[1].on = OWNERS_WAIT_ON_DEPENDENTS;
	waits[1].why = "blocking dependents: 1";
	actions[0].kind = OWNERS_ACT_DELETE;
	actions[0].node = owners_graph_find_uid(g, "c1");
	actions[1].kind = OWNERS_ACT_RELEASE;
	actions[1].node = owners_graph_find_uid(g, "p2");
	p.waits = waits;
	p.n_waits = 2;
	p.actions = actions;
	p.n_actions = 2;
	ok(owners_cascade_render_left(&out, &r) == 0, "what is left rendered");
	is_str(out.ptr,
	       "  ns/pod/web-1-c: its finalizers (finalizers: example.com/hold)\n"
	       "    example.com/hold is removed by its own controller; if that is gone: owners "
	       "finalizers remove pod/web-1-c -n ns --finalizer example.com/hold --uid=p3\n"
	       "  ns/replicaset.apps/web-1: blocking dependents: 1\n"
	       "  clusterrole.rbac.authorization.k8s.io/cr: "
	       "delete next\n"
	       "  ns/pod/web-1-b: release next\n",
	       "each wait (and the finalizers of one in deletion, a foreign one with the command that "
	       "removes it), then each action still to send");
	owners_buf_reset(&out);
	r.program = "kubectl owners";
	ok(owners_cascade_render_left(&out, &r) == 0 &&
		   strstr(out.ptr, "if that is gone: kubectl owners finalizers remove pod/web-1-c -n ns "
				   "--finalizer example.com/hold --uid=p3\n"),
	   "  the command spelled with the program the user runs (the plugin's)");
	r.program = NULL;
	owners_buf_reset(&out);

	p.n_actions = 1;
	p.members_left = 2;
	owners_cascade_render_not_waiting(&out, &p, 1, NULL, NULL);
	is_str(out.ptr,
	       "not waiting (--wait=false): 1 change sent; 1 other object of the cascade is still "
	       "there (run the command again to go on, or 'owners tree' to see where it stands)\n",
	       "not waiting: one change, one other object (the one deleted is not counted again)");
	owners_buf_reset(&out);
	owners_cascade_render_not_waiting(&out, &p, 1, "owners delete cm/x --wait=false --resume=u1", NULL);
	is_str(out.ptr,
	       "not waiting (--wait=false): 1 change sent; 1 other object of the cascade is still "
	       "there ('owners delete cm/x --wait=false --resume=u1' goes on, or 'owners tree' to see "
	       "where it stands)\n",
	       "  with the command that goes on (its roots' UIDs)");
	owners_buf_reset(&out);
	owners_cascade_render_not_waiting(&out, &p, 1, NULL, "kubectl owners");
	ok(strstr(out.ptr, "or 'kubectl owners tree' to see where it stands)\n") != NULL,
	   "  'owners tree' spelled with the program the user runs");
	owners_buf_reset(&out);
	p.n_actions = 2;
	p.released_left = 2;
	owners_cascade_render_not_waiting(&out, &p, 0, NULL, NULL);
	ok(!strncmp(out.ptr,
		    "not waiting (--wait=false): 2 changes sent; 4 other objects of the cascade are "
		    "still there",
		    strlen("not waiting (--wait=false): 2 changes sent; 4 other objects of the cascade "
			   "are still there")),
	   "not waiting: plurals; released objects count as left; none done, none taken off");
	owners_buf_reset(&out);
	p.n_actions = 300;
	p.members_left = 3000;
	p.released_left = 0;
	owners_cascade_render_not_waiting(&out, &p, 300, NULL, NULL);
	ok(strstr(out.ptr, "300 changes sent; 2700 other objects of the cascade are still there") != NULL,
	   "not waiting: 300 roots of 10 objects each, the roots deleted: 2700 others left, not 3000");
	owners_buf_reset(&out);

	owners_cascade_render_dry_run_checked(&out, 1, 1, 0);
	is_str(out.ptr,
	       "server dry run: the root and 1 dependent checked, 0 refused; nothing was changed\n",
	       "server dry run: one root, one dependent");
	owners_buf_reset(&out);
	owners_cascade_render_dry_run_checked(&out, 2, 3, 1);
	is_str(out.ptr,
	       "server dry run: the roots and 3 dependents checked, 1 refused; nothing was "
	       "changed\n",
	       "server dry run: plurals");

	owners_buf_clear(&out);
	owners_graph_free(g);
}

/* Issue #38: Ctrl-C says what was done, what is left, where the roots
 * stand, and the command that finishes the cascade. */
static void test_interrupted(void)
{
	static const char *const fg[] = { OWNERS_FINALIZER_FOREGROUND };
	static const char *const roots[] = { "d1", "gone-1" };
	struct owners_graph *g = build(DELETED, 1, fg);
	struct owners_cascade_wait waits[1];
	struct owners_cascade_plan p;
	struct owners_cascade_render r = { g, &p, OWNERS_CASCADE_FOREGROUND, roots, 2, NULL, NULL };
	struct owners_buf out = OWNERS_BUF_INIT;
	struct owners_cascade_options o = { OWNERS_CASCADE_FOREGROUND, 1, 0 };

	if (owners_cascade_plan_make(&p, g, &(struct owners_cascade_seeds){ roots, 2, NULL, 0 }, &o)) {
		ok(0, "plan made");
		return;
	}
	/* what is left, as the plan waits for it, shortened to one wait */
	free(p.waits);
	free(p.actions);
	p.actions = NULL;
	p.n_actions = p.cap_actions = 0;
	waits[0].node = owners_graph_find_uid(g, "p3");
	waits[0].on = OWNERS_WAIT_ON_OTHERS;
	waits[0].why = "its finalizers";
	p.waits = waits;
	p.n_waits = 1;
	p.cap_waits = 0;
	ok(owners_cascade_render_interrupted(&out, &r, 2, 1, "owners -n ns delete deployment/web 'x y'") == 0,
	   "interrupted: rendered");
	is_str(out.ptr,
	       "interrupted: 2 objects deleted and 1 released so far; 6 objects of the cascade are "
	       "left:\n"
	       "  ns/pod/web-1-c: its finalizers (finalizers: example.com/hold)\n"
	       "    example.com/hold is removed by its own controller; if that is gone: owners "
	       "finalizers remove pod/web-1-c -n ns --finalizer example.com/hold --uid=p3\n"
	       "deployment.apps/web is in foreground deletion, waiting for 3 dependents\n"
	       "deployment.apps/old is gone; 1 object still names it as owner\n"
	       "the cascade's progress is kept in the cluster: run this to finish it:\n"
	       "  owners -n ns delete deployment/web 'x y'\n",
	       "interrupted: done, left, each root's state, the command that finishes it");
	p.waits = NULL;
	p.n_waits = 0;
	owners_cascade_plan_clear(&p);
	owners_buf_clear(&out);
	owners_graph_free(g);
}

static void test_events(void)
{
	static const struct {
		enum owners_cascade_track_event e;
		const char *line, *name_line;
	} cases[] = {
		{ OWNERS_EVENT_DELETED, "deployment.apps \"web\" deleted in namespace ns\n",
		  "deployment.apps/web\n" },
		{ OWNERS_EVENT_DELETED_AFTER_RELEASE,
		  "deployment.apps \"web\" deleted (after release) in namespace ns\n",
		  "deployment.apps/web\n" },
		{ OWNERS_EVENT_ORPHANED,
		  "deployment.apps \"web\" orphaned (kept, reference removed) in namespace ns\n",
		  "" },
		{ OWNERS_EVENT_RELEASED,
		  "deployment.apps \"web\" released (kept: it has another owner) in namespace ns\n",
		  "" },
		{ OWNERS_EVENT_DRY_RUN_DELETED,
		  "deployment.apps \"web\" deleted (server dry run) in namespace ns\n",
		  "deployment.apps/web\n" },
		{ OWNERS_EVENT_DRY_RUN_RELEASED,
		  "deployment.apps \"web\" released (server dry run) in namespace ns\n", "" },
	};
	struct owners_buf out = OWNERS_BUF_INIT;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		owners_buf_reset(&out);
		ok(owners_cascade_render_event(&out, cases[i].e, "deployment.apps", "web", "ns",
					       0) == 0,
		   "event %zu rendered", i);
		is_str(out.ptr, cases[i].line, "event %zu: kubectl's words", i);
		owners_buf_reset(&out);
		owners_cascade_render_event(&out, cases[i].e, "deployment.apps", "web", "ns", 1);
		is_str(out.ptr, cases[i].name_line, "event %zu with -o name: only what is deleted",
		       i);
	}
	owners_buf_reset(&out);
	owners_cascade_render_event(&out, OWNERS_EVENT_DELETED,
				    "clusterrole.rbac.authorization.k8s.io", "cr", "", 0);
	is_str(out.ptr, "clusterrole.rbac.authorization.k8s.io \"cr\" deleted\n",
	       "a cluster-scoped object: no namespace");
	owners_buf_clear(&out);
}

int main(void)
{
	owners_resource_table_init(&types);
	fake_type_add(&types, &(struct fake_type){ "", "v1", "pods", "pod", "Pod", NULL, 1, 1 });
	fake_type_add(&types,
		      &(struct fake_type){ "", "v1", "configmaps", "configmap", "ConfigMap", NULL,
					   1, 1 });
	fake_type_add(&types, &(struct fake_type){ "", "v1", "persistentvolumeclaims",
						   "persistentvolumeclaim", "PersistentVolumeClaim", NULL, 1,
						   1 });
	fake_type_add(&types,
		      &(struct fake_type){ "", "v1", "persistentvolumes", "persistentvolume",
					   "PersistentVolume", NULL, 0, 1 });
	fake_type_add(&types,
		      &(struct fake_type){ "apps", "v1", "deployments", "deployment", "Deployment",
					   NULL, 1, 1 });
	fake_type_add(&types,
		      &(struct fake_type){ "apps", "v1", "replicasets", "replicaset", "ReplicaSet",
					   NULL, 1, 1 });
	fake_type_add(&types,
		      &(struct fake_type){ "rbac.authorization.k8s.io", "v1", "clusterroles",
					   "clusterrole", "ClusterRole", NULL, 0, 1 });
	test_plan();
	test_plan_waits();
	test_progress();
	test_end();
	test_interrupted();
	test_events();
	owners_resource_table_clear(&types);
	return tap_done();
}
