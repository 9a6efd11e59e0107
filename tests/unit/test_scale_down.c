/* delete --scale-first, the pure part: which objects of a cascade are
 * scaled, in which order and how; a workload's state read back; what it
 * needs next; the patches; the dry run's plan as text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cascade.h"
#include "cascade_access.h"
#include "fake_objects.h"
#include "fake_types.h"
#include "json.h"
#include "scale_down.h"
#include "scale_plan_render.h"
#include "tap.h"

static struct owners_resource_table types;

static void add_type(const char *group, const char *plural, const char *kind, int has_scale)
{
	fake_type_add(&types, &(struct fake_type){ group, "v1", plural, "", kind, NULL, 1, 1 });
	/* (the table sorts nothing: the last one added is the last item) */
	types.items[types.count - 1].has_scale = has_scale;
}

static const char *api_of(const char *kind)
{
	if (!strcmp(kind, "Job"))
		return "batch/v1";
	if (!strcmp(kind, "Database"))
		return "example.com/v1";
	if (!strcmp(kind, "ConfigMap") || !strcmp(kind, "Pod"))
		return "v1";
	return "apps/v1";
}

#define R(kind, name, uid) { api_of(kind), kind, name, uid, 1, 1 }
#define NOREF { NULL, NULL, NULL, NULL, 0, 0 }

static const char *name_at(const struct owners_graph *g, const struct owners_scale_plan *p, size_t i)
{
	return i < p->count ? g->nodes[p->targets[i].node].name : "(none)";
}

/* The plan's targets by name, in order (a static buffer). */
static const char *order_of(const struct owners_graph *g, const struct owners_scale_plan *p)
{
	static char order[256];
	size_t i;

	order[0] = 0;
	for (i = 0; i < p->count; i++)
		snprintf(order + strlen(order), sizeof(order) - strlen(order), "%s%s", i ? " " : "",
			 name_at(g, p, i));
	return order;
}

static void plan_of(struct owners_scale_plan *sp, struct owners_graph *g, const char *const *roots,
		    size_t n_roots, enum owners_cascade_mode mode)
{
	const struct owners_cascade_seeds seeds = { roots, n_roots, NULL, 0 };
	const struct owners_cascade_options o = { mode, 1, 0 };
	struct owners_cascade_plan p;

	owners_cascade_plan_make(&p, g, &seeds, &o);
	owners_scale_plan_make(sp, g, p.member, roots, n_roots);
	owners_cascade_plan_clear(&p);
}

static void test_plan(void)
{
	/* a ConfigMap owning a Deployment (with a ReplicaSet and pods), a
	 * StatefulSet, a DaemonSet, a Job, a custom resource with a scale
	 * subresource; a bystander StatefulSet outside the cascade; a
	 * Deployment already in deletion */
	const struct fake_obj objs[] = {
		{ "ConfigMap", "root", "u-root", NULL, { NULL }, { NOREF } },
		{ "StatefulSet", "db", "u-db", NULL, { NULL }, { R("ConfigMap", "root", "u-root") } },
		{ "Deployment", "web", "u-web", NULL, { NULL }, { R("ConfigMap", "root", "u-root") } },
		{ "ReplicaSet", "web-1", "u-rs", NULL, { NULL }, { R("Deployment", "web", "u-web") } },
		{ "Pod", "web-1-a", "u-pod", NULL, { NULL }, { R("ReplicaSet", "web-1", "u-rs") } },
		{ "DaemonSet", "agent", "u-ds", NULL, { NULL }, { R("ConfigMap", "root", "u-root") } },
		{ "Job", "migrate", "u-job", NULL, { NULL }, { R("ConfigMap", "root", "u-root") } },
		{ "Database", "pg", "u-pg", NULL, { NULL }, { R("ConfigMap", "root", "u-root") } },
		{ "Deployment", "going", "u-going", "2026-01-01T00:00:00Z", { "foregroundDeletion" },
		  { R("ConfigMap", "root", "u-root") } },
		{ "StatefulSet", "other", "u-other", NULL, { NULL }, { NOREF } },
	};
	const char *roots[] = { "u-root" };
	const char *two_roots[] = { "u-db", "u-web" };
	struct owners_graph *g = fake_graph_build(&types, objs, sizeof(objs) / sizeof(objs[0]), api_of, NULL);
	struct owners_scale_plan sp;
	size_t i, rs_at = 99, web_at = 99;

	plan_of(&sp, g, roots, 1, OWNERS_CASCADE_BACKGROUND);
	is_int(sp.count, 6, "six targets: db, web, its ReplicaSet, the DaemonSet, the Job, the custom resource");
	for (i = 0; i < sp.count; i++) {
		const char *name = name_at(g, &sp, i);

		ok(strcmp(name, "other"), "the bystander StatefulSet is not in the plan (%s)", name);
		ok(strcmp(name, "going"), "the Deployment in deletion is left out (%s)", name);
		ok(strcmp(name, "web-1-a") && strcmp(name, "root"), "pods and ConfigMaps are no targets (%s)", name);
		if (!strcmp(name, "web"))
			web_at = i;
		if (!strcmp(name, "web-1"))
			rs_at = i;
	}
	ok(web_at < rs_at && rs_at == web_at + 1,
	   "top-down, depth first: the Deployment, then its ReplicaSet right after (%zu, %zu)", web_at, rs_at);
	/* siblings by kind, then name: not the order the lists came in */
	is_str(order_of(g, &sp), "agent pg web web-1 migrate db", "siblings in a stable order (kind, name)");
	for (i = 0; i < sp.count; i++) {
		const char *name = name_at(g, &sp, i);
		enum owners_scale_how want = !strcmp(name, "web")       ? OWNERS_SCALE_DEPLOYMENT
					     : !strcmp(name, "migrate") ? OWNERS_SCALE_JOB
					     : !strcmp(name, "agent")   ? OWNERS_SCALE_NONE
									: OWNERS_SCALE_SUBRESOURCE;

		is_int(sp.targets[i].how, want, "%s is scaled as its kind asks", name);
	}
	owners_scale_plan_clear(&sp);

	plan_of(&sp, g, two_roots, 2, OWNERS_CASCADE_FOREGROUND);
	is_int(sp.count, 3, "two roots: db, web and web's ReplicaSet");
	is_str(name_at(g, &sp, 0), "db", "the roots in the order given: db first");
	is_str(name_at(g, &sp, 1), "web", "then web");
	is_str(name_at(g, &sp, 2), "web-1", "then what web owns");
	owners_scale_plan_clear(&sp);

	plan_of(&sp, g, (const char *const[]){ "u-rs" }, 1, OWNERS_CASCADE_BACKGROUND);
	is_int(sp.count, 1, "a ReplicaSet alone: its owner is not in the cascade, not scaled");
	is_str(name_at(g, &sp, 0), "web-1", "the ReplicaSet");
	owners_scale_plan_clear(&sp);
	owners_graph_free(g);

	/* the same cascade, its objects listed in another order */
	{
		struct fake_obj reversed[sizeof(objs) / sizeof(objs[0])];
		size_t n = sizeof(objs) / sizeof(objs[0]);

		for (i = 0; i < n; i++)
			reversed[i] = objs[n - 1 - i];
		g = fake_graph_build(&types, reversed, n, api_of, NULL);
		plan_of(&sp, g, roots, 1, OWNERS_CASCADE_BACKGROUND);
		is_str(order_of(g, &sp), "agent pg web web-1 migrate db", "listed in reverse: the same order");
		owners_scale_plan_clear(&sp);
		owners_graph_free(g);
	}
}

static void test_needed_access(void)
{
	const struct fake_obj objs[] = {
		{ "Deployment", "web", "u-web", NULL, { NULL }, { NOREF } },
		{ "Job", "migrate", "u-job", NULL, { NULL }, { NOREF } },
	};
	const char *roots[] = { "u-web", "u-job" };
	const struct owners_cascade_seeds seeds = { roots, 2, NULL, 0 };
	const struct owners_cascade_options o = { OWNERS_CASCADE_BACKGROUND, 1, 0 };
	struct owners_graph *g = fake_graph_build(&types, objs, 2, api_of, NULL);
	struct owners_cascade_plan p;
	struct owners_scale_plan sp;
	struct owners_access_check *checks = NULL;
	uint32_t *examples = NULL;
	size_t n = 0, i;
	int scale_patch = 0, deploy_patch = 0, job_patch = 0, deletes = 0;

	owners_cascade_plan_make(&p, g, &seeds, &o);
	owners_scale_plan_make(&sp, g, p.member, roots, 2);
	is_int(owners_cascade_access_scale_needed(
		       &(const struct owners_scale_access_of){ &p, &sp, o.mode }, g, &checks,
		       &examples, &n),
	       0, "the permissions are listed");
	for (i = 0; i < n; i++) {
		const struct owners_access_check *c = &checks[i];
		int patch = !strcmp(c->verb, "patch");

		scale_patch += patch && !strcmp(c->resource, "deployments") && c->subresource &&
			       !strcmp(c->subresource, "scale");
		deploy_patch += patch && !strcmp(c->resource, "deployments") && !c->subresource;
		job_patch += patch && !strcmp(c->resource, "jobs") && !c->subresource;
		deletes += !strcmp(c->verb, "delete");
	}
	is_int(scale_patch, 1, "patch on deployments/scale, once");
	is_int(deploy_patch, 1, "patch on deployments (the pause)");
	is_int(job_patch, 1, "patch on jobs (parallelism)");
	is_int(deletes, 2, "and the cascade's own: delete on both types");
	owners_access_checks_clear(checks, n);
	free(checks);
	free(examples);
	owners_scale_plan_clear(&sp);
	owners_cascade_plan_clear(&p);
	owners_graph_free(g);
}

static struct owners_json_value *parse(const char *s)
{
	struct owners_json_value *v = NULL;

	owners_json_parse(&v, s, strlen(s), NULL);
	return v;
}

static enum owners_scale_next next_of(const char *object, const char *scale, enum owners_scale_how how,
				      struct owners_scale_state *st, char *why, size_t size)
{
	struct owners_json_value *o = parse(object), *s = scale ? parse(scale) : NULL;
	enum owners_scale_next next = OWNERS_SCALE_NEXT_DONE;

	if (owners_scale_state_read(st, how, o, s) == 0)
		next = owners_scale_next(st, how, why, size);
	else
		snprintf(why, size, "unreadable");
	owners_json_value_free(o);
	owners_json_value_free(s);
	return next;
}

static void test_next(void)
{
	struct owners_scale_state st;
	char why[160];

	/* a Deployment at 3, not paused: pause first */
	is_int(next_of("{\"metadata\":{\"resourceVersion\":\"5\",\"generation\":2},\"spec\":{\"replicas\":3},"
		       "\"status\":{\"observedGeneration\":2,\"replicas\":3}}",
		       "{\"metadata\":{\"resourceVersion\":\"5\"},\"spec\":{\"replicas\":3},\"status\":{\"replicas\":3}}",
		       OWNERS_SCALE_DEPLOYMENT, &st, why, sizeof(why)),
	       OWNERS_SCALE_NEXT_PAUSE, "a Deployment not paused: pause it first");
	is_str(st.resource_version, "5", "the resourceVersion read");
	ok(!st.paused && !st.paused_by_owners, "not paused");
	/* paused by owners (the mark), still at 3: scale */
	is_int(next_of("{\"metadata\":{\"resourceVersion\":\"6\",\"generation\":2,\"annotations\":{\""
		       OWNERS_SCALE_PAUSED_ANNOTATION "\":\"true\"}},\"spec\":{\"replicas\":3,\"paused\":true},"
		       "\"status\":{\"observedGeneration\":2,\"replicas\":3}}",
		       "{\"spec\":{\"replicas\":3},\"status\":{\"replicas\":3}}", OWNERS_SCALE_DEPLOYMENT, &st,
		       why, sizeof(why)),
	       OWNERS_SCALE_NEXT_SCALE, "paused, still at 3: scale it");
	ok(st.paused && st.paused_by_owners, "paused by owners: the annotation is read");
	/* paused by the user (no mark): not ours */
	next_of("{\"metadata\":{\"resourceVersion\":\"6\"},\"spec\":{\"paused\":true}}", "{\"spec\":{}}",
		OWNERS_SCALE_DEPLOYMENT, &st, why, sizeof(why));
	ok(st.paused && !st.paused_by_owners, "paused by the user: not ours to resume");
	/* the Scale omits a zero: spec at 0, the controller behind */
	is_int(next_of("{\"metadata\":{\"resourceVersion\":\"7\",\"generation\":3},\"spec\":{\"paused\":true},"
		       "\"status\":{\"observedGeneration\":2,\"replicas\":3}}",
		       "{\"spec\":{},\"status\":{\"replicas\":3}}", OWNERS_SCALE_DEPLOYMENT, &st, why, sizeof(why)),
	       OWNERS_SCALE_NEXT_WAIT, "a Scale without spec.replicas is at 0: wait, not scale again");
	is_str(why, "its controller has not observed generation 3 yet (observed 2)", "why: not observed");
	is_int(owners_scale_waits_on(&st, OWNERS_SCALE_DEPLOYMENT), OWNERS_SCALE_WAIT_OBSERVED,
	       "typed: waits on the controller's observing");
	is_int(next_of("{\"metadata\":{\"resourceVersion\":\"8\",\"generation\":3},"
		       "\"status\":{\"observedGeneration\":3,\"replicas\":2}}",
		       "{\"spec\":{\"replicas\":0},\"status\":{\"replicas\":2}}", OWNERS_SCALE_SUBRESOURCE, &st,
		       why, sizeof(why)),
	       OWNERS_SCALE_NEXT_WAIT, "observed, 2 replicas left: wait");
	is_str(why, "2 replicas left", "why: replicas left");
	is_int(owners_scale_waits_on(&st, OWNERS_SCALE_SUBRESOURCE), OWNERS_SCALE_WAIT_REPLICAS,
	       "typed: waits on replicas");
	is_int(next_of("{\"metadata\":{\"resourceVersion\":\"9\",\"generation\":3},"
		       "\"status\":{\"observedGeneration\":3}}",
		       "{\"spec\":{},\"status\":{}}", OWNERS_SCALE_SUBRESOURCE, &st, why, sizeof(why)),
	       OWNERS_SCALE_NEXT_DONE, "at 0, observed, none left: done");
	is_int(owners_scale_waits_on(&st, OWNERS_SCALE_SUBRESOURCE), OWNERS_SCALE_WAIT_NONE,
	       "typed: done waits on nothing");
	is_int(next_of("{\"metadata\":{\"resourceVersion\":\"9\",\"generation\":3},"
		       "\"status\":{\"observedGeneration\":3,\"terminatingReplicas\":1}}",
		       "{\"spec\":{},\"status\":{}}", OWNERS_SCALE_SUBRESOURCE, &st, why, sizeof(why)),
	       OWNERS_SCALE_NEXT_WAIT, "none counted, one terminating (a ReplicaSet since 1.33): wait");
	is_str(why, "1 pod terminating", "why: terminating");
	is_int(owners_scale_waits_on(&st, OWNERS_SCALE_SUBRESOURCE), OWNERS_SCALE_WAIT_TERMINATING,
	       "typed: waits on pods terminating");
	is_int(next_of("{\"metadata\":{\"resourceVersion\":\"4\"},\"spec\":{\"parallelism\":0},"
		       "\"status\":{\"terminating\":2}}",
		       NULL, OWNERS_SCALE_JOB, &st, why, sizeof(why)),
	       OWNERS_SCALE_NEXT_WAIT, "a Job with pods terminating: wait");
	/* a custom resource that reports no observedGeneration */
	is_int(next_of("{\"metadata\":{\"resourceVersion\":\"2\",\"generation\":5}}",
		       "{\"spec\":{\"replicas\":0},\"status\":{\"replicas\":1}}", OWNERS_SCALE_SUBRESOURCE, &st,
		       why, sizeof(why)),
	       OWNERS_SCALE_NEXT_WAIT, "no observedGeneration: the replicas alone decide");
	is_str(why, "1 replica left", "why: one replica");
	/* the plan's prediction */
	next_of("{\"kind\":\"StatefulSet\",\"metadata\":{\"resourceVersion\":\"1\"},\"spec\":{\"template\":"
		"{\"spec\":{\"terminationGracePeriodSeconds\":10}}}}",
		"{\"spec\":{\"replicas\":3}}", OWNERS_SCALE_SUBRESOURCE, &st, why, sizeof(why));
	ok(st.one_at_a_time && st.grace_seconds == 10,
	   "an ordered StatefulSet: one pod at a time, its template's grace period");
	next_of("{\"kind\":\"StatefulSet\",\"metadata\":{\"resourceVersion\":\"1\"},\"spec\":"
		"{\"podManagementPolicy\":\"Parallel\"}}",
		"{\"spec\":{\"replicas\":3}}", OWNERS_SCALE_SUBRESOURCE, &st, why, sizeof(why));
	ok(!st.one_at_a_time && st.grace_seconds == -1, "a Parallel StatefulSet: all at once; no template, no grace known");
	next_of("{\"kind\":\"Deployment\",\"metadata\":{\"resourceVersion\":\"1\"},\"spec\":{\"template\":{}}}",
		"{\"spec\":{\"replicas\":3}}", OWNERS_SCALE_DEPLOYMENT, &st, why, sizeof(why));
	ok(!st.one_at_a_time && st.grace_seconds == 30, "a template without a grace period: the pods' default, 30s");
	/* a Job */
	is_int(next_of("{\"metadata\":{\"resourceVersion\":\"3\",\"generation\":1},\"spec\":{\"parallelism\":2},"
		       "\"status\":{\"active\":2}}",
		       NULL, OWNERS_SCALE_JOB, &st, why, sizeof(why)),
	       OWNERS_SCALE_NEXT_SCALE, "a Job at parallelism 2: set it to 0");
	is_int(next_of("{\"metadata\":{\"resourceVersion\":\"4\",\"generation\":2},\"spec\":{\"parallelism\":0},"
		       "\"status\":{\"active\":1}}",
		       NULL, OWNERS_SCALE_JOB, &st, why, sizeof(why)),
	       OWNERS_SCALE_NEXT_WAIT, "parallelism 0, a pod still active: wait");
	is_str(why, "1 active pod left", "why: active pods");
	is_int(next_of("{\"metadata\":{\"resourceVersion\":\"4\"},\"spec\":{}}", NULL, OWNERS_SCALE_JOB, &st,
		       why, sizeof(why)),
	       OWNERS_SCALE_NEXT_SCALE, "a Job without parallelism (1 by default) is not at 0");
	/* in deletion */
	next_of("{\"metadata\":{\"resourceVersion\":\"4\",\"deletionTimestamp\":\"2026-01-01T00:00:00Z\"}}",
		"{\"spec\":{}}", OWNERS_SCALE_SUBRESOURCE, &st, why, sizeof(why));
	ok(st.deleting, "a deletionTimestamp is read");
	/* garbage */
	is_str((next_of("[1]", "{}", OWNERS_SCALE_SUBRESOURCE, &st, why, sizeof(why)), why), "unreadable",
	       "an object that is not an object is refused");
	is_str((next_of("{}", "\"x\"", OWNERS_SCALE_SUBRESOURCE, &st, why, sizeof(why)), why), "unreadable",
	       "a Scale that is not an object is refused");
}

static void test_patches(void)
{
	struct owners_buf b = OWNERS_BUF_INIT;
	struct owners_error err = OWNERS_ERROR_INIT;

	is_int(owners_scale_pause_patch(&b, "12", 1, &err), 0, "pause patch");
	is_str(b.ptr,
	       "{\"metadata\":{\"resourceVersion\":\"12\",\"annotations\":{\"" OWNERS_SCALE_PAUSED_ANNOTATION
	       "\":\"true\"}},\"spec\":{\"paused\":true}}",
	       "pause: conditional, marked");
	owners_buf_reset(&b);
	is_int(owners_scale_pause_patch(&b, "13", 0, &err), 0, "resume patch");
	is_str(b.ptr,
	       "{\"metadata\":{\"resourceVersion\":\"13\",\"annotations\":{\"" OWNERS_SCALE_PAUSED_ANNOTATION
	       "\":null}},\"spec\":{\"paused\":false}}",
	       "resume: conditional, the mark removed");
	owners_buf_reset(&b);
	is_int(owners_scale_zero_patch(&b, "14", OWNERS_SCALE_SUBRESOURCE, &err), 0, "scale patch");
	is_str(b.ptr, "{\"metadata\":{\"resourceVersion\":\"14\"},\"spec\":{\"replicas\":0}}",
	       "scale: the Scale's spec.replicas 0, conditional");
	owners_buf_reset(&b);
	is_int(owners_scale_zero_patch(&b, "15", OWNERS_SCALE_JOB, &err), 0, "job patch");
	is_str(b.ptr, "{\"metadata\":{\"resourceVersion\":\"15\"},\"spec\":{\"parallelism\":0}}",
	       "a Job: spec.parallelism 0, conditional");
	owners_buf_reset(&b);
	ok(owners_scale_zero_patch(&b, "", OWNERS_SCALE_SUBRESOURCE, &err) == OWNERS_EINVAL,
	   "no resourceVersion: no patch");
	owners_error_clear(&err);
	ok(owners_scale_pause_patch(&b, NULL, 1, &err) == OWNERS_EINVAL, "no resourceVersion: no pause");
	owners_error_clear(&err);
	owners_buf_clear(&b);
}

/* A state as read: spec and status replicas, one at a time or not, the
 * pods' grace period; generations not reported. */
static struct owners_scale_plan_read state(int64_t spec, int64_t status, int ordered, int64_t grace)
{
	struct owners_scale_plan_read r;

	memset(&r, 0, sizeof(r));
	r.state.generation = r.state.observed_generation = -1;
	r.state.spec_replicas = spec;
	r.state.status_replicas = status;
	r.state.one_at_a_time = ordered;
	r.state.grace_seconds = grace;
	return r;
}

static struct owners_scale_plan_read read_rc(int rc)
{
	struct owners_scale_plan_read r = state(0, 0, 0, -1);

	r.rc = rc;
	return r;
}

static const char *rendered(struct owners_buf *out, const struct owners_graph *g,
			    const struct owners_scale_plan *sp, const struct owners_scale_plan_read *reads,
			    size_t n_read)
{
	owners_buf_reset(out);
	if (owners_scale_plan_render(out, g, sp, reads, n_read))
		return "(failed)";
	return out->ptr ? out->ptr : "";
}

/* --dry-run=client: the plan rendered from the scale plan and what was
 * read of each workload (lib/ops/scale_plan_render.c). */
static void test_plan_render(void)
{
	const struct fake_obj objs[] = {
		{ "ConfigMap", "root", "u-root", NULL, { NULL }, { NOREF } },
		{ "StatefulSet", "db", "u-db", NULL, { NULL }, { R("ConfigMap", "root", "u-root") } },
		{ "Deployment", "web", "u-web", NULL, { NULL }, { R("ConfigMap", "root", "u-root") } },
		{ "ReplicaSet", "web-1", "u-rs", NULL, { NULL }, { R("Deployment", "web", "u-web") } },
		{ "DaemonSet", "agent", "u-ds", NULL, { NULL }, { R("ConfigMap", "root", "u-root") } },
		{ "Job", "migrate", "u-job", NULL, { NULL }, { R("ConfigMap", "root", "u-root") } },
	};
	const char *roots[] = { "u-root" };
	struct owners_buf out = OWNERS_BUF_INIT;
	struct owners_scale_plan sp, empty = { NULL, 0 };
	struct owners_graph *g;

	g = fake_graph_build(&types, objs, sizeof(objs) / sizeof(objs[0]), api_of, NULL);
	plan_of(&sp, g, roots, 1, OWNERS_CASCADE_BACKGROUND);
	is_int(sp.count, 5, "five targets: agent, web, web-1, migrate, db");
	{
		/* agent is not read (no scale), the rest each as it stands */
		const struct owners_scale_plan_read reads[] = {
			read_rc(0), state(3, 3, 0, 30), state(3, 3, 0, 30), state(-1, 1, 0, -1),
			state(3, 3, 1, 30),
		};

		is_str(rendered(&out, g, &sp, reads, 5),
		       "scale first, top-down (dry run, nothing changed):\n"
		       "  ns/daemonset.apps/agent  cannot be scaled: its pods go with the cascade\n"
		       "  ns/deployment.apps/web  pause, scale 3 -> 0 (scale subresource), then wait for "
		       "its replicas to go (up to 30s)\n"
		       "  ns/replicaset.apps/web-1  scaled down with its owner (else scale 3 -> 0)\n"
		       "  ns/job.batch/migrate  parallelism 1 -> 0, then wait for its active pods to go\n"
		       "  ns/statefulset.apps/db  scale 3 -> 0 (scale subresource), then wait for its "
		       "replicas to go, one at a time in reverse ordinal order (up to 30s each, 90s in all)\n",
		       "each workload's line says what scaling it would do and the wait it predicts");
	}
	{
		/* web gone, migrate at 0, db's read failed: the plan ends there */
		const struct owners_scale_plan_read reads[] = {
			read_rc(0), read_rc(OWNERS_ENOTFOUND), state(0, 2, 0, 30), state(0, 0, 0, -1),
			read_rc(OWNERS_EIO),
		};

		is_str(rendered(&out, g, &sp, reads, 5),
		       "scale first, top-down (dry run, nothing changed):\n"
		       "  ns/daemonset.apps/agent  cannot be scaled: its pods go with the cascade\n"
		       "  ns/deployment.apps/web  gone\n"
		       "  ns/replicaset.apps/web-1  scaled down with its owner (else scale 0 -> 0)\n"
		       "  ns/job.batch/migrate  at 0 already\n"
		       "  ns/statefulset.apps/db  \n",
		       "gone, at 0 already, and a failed read that names its workload and ends the line");
		is_str(rendered(&out, g, &sp, reads, 2),
		       "scale first, top-down (dry run, nothing changed):\n"
		       "  ns/daemonset.apps/agent  cannot be scaled: its pods go with the cascade\n"
		       "  ns/deployment.apps/web  gone\n",
		       "only the targets read are said (a failed read stops the plan)");
	}
	{
		/* a paused Deployment at 0 with replicas left: it waits */
		const struct owners_scale_plan_read reads[] = { read_rc(0), state(0, 2, 0, 30) };
		struct owners_scale_plan_read paused[2];

		memcpy(paused, reads, sizeof(paused));
		paused[1].state.paused = 1;
		is_str(rendered(&out, g, &sp, paused, 2),
		       "scale first, top-down (dry run, nothing changed):\n"
		       "  ns/daemonset.apps/agent  cannot be scaled: its pods go with the cascade\n"
		       "  ns/deployment.apps/web  at 0, wait: 2 replicas left\n",
		       "a workload at 0 with replicas left: what it waits on");
	}
	is_str(rendered(&out, g, &empty, NULL, 0), "", "an empty plan says nothing, not even its heading");
	owners_buf_clear(&out);
	owners_scale_plan_clear(&sp);
	owners_graph_free(g);
}

int main(void)
{
	owners_resource_table_init(&types);
	add_type("apps", "deployments", "Deployment", 1);
	add_type("apps", "replicasets", "ReplicaSet", 1);
	add_type("apps", "statefulsets", "StatefulSet", 1);
	add_type("apps", "daemonsets", "DaemonSet", 0);
	add_type("batch", "jobs", "Job", 0);
	add_type("example.com", "databases", "Database", 1);
	add_type("", "pods", "Pod", 0);
	add_type("", "configmaps", "ConfigMap", 0);
	test_plan();
	test_needed_access();
	test_next();
	test_patches();
	test_plan_render();
	owners_resource_table_clear(&types);
	return tap_done();
}
