/* delete --scale-first --dry-run=client: the plan rendered from the scale
 * plan and what was read of each workload (lib/ops/scale_plan_render.c). */
#include <string.h>

#include "cascade.h"
#include "fake_objects.h"
#include "fake_types.h"
#include "scale_down.h"
#include "scale_plan_render.h"
#include "tap.h"

static struct owners_resource_table types;

static void add_type(const char *group, const char *plural, const char *kind, int has_scale)
{
	fake_type_add(&types, group, "v1", plural, "", kind, NULL, 1, 1);
	types.items[types.count - 1].has_scale = has_scale;
}

static const char *api_of(const char *kind)
{
	if (!strcmp(kind, "Job"))
		return "batch/v1";
	if (!strcmp(kind, "ConfigMap"))
		return "v1";
	return "apps/v1";
}

#define R(kind, name, uid) { api_of(kind), kind, name, uid, 1, 1 }
#define NOREF { NULL, NULL, NULL, NULL, 0, 0 }

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

int main(void)
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
	const struct owners_cascade_seeds seeds = { roots, 1, NULL, 0 };
	const struct owners_cascade_options o = { OWNERS_CASCADE_BACKGROUND, 1, 0 };
	struct owners_buf out = OWNERS_BUF_INIT;
	struct owners_cascade_plan p;
	struct owners_scale_plan sp, empty = { NULL, 0 };
	struct owners_graph *g;

	owners_resource_table_init(&types);
	add_type("apps", "deployments", "Deployment", 1);
	add_type("apps", "replicasets", "ReplicaSet", 1);
	add_type("apps", "statefulsets", "StatefulSet", 1);
	add_type("apps", "daemonsets", "DaemonSet", 0);
	add_type("batch", "jobs", "Job", 0);
	add_type("", "configmaps", "ConfigMap", 0);
	g = fake_graph_build(&types, objs, sizeof(objs) / sizeof(objs[0]), api_of, NULL);
	owners_cascade_plan_make(&p, g, &seeds, &o);
	owners_scale_plan_make(&sp, g, p.member, roots, 1);
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
	owners_cascade_plan_clear(&p);
	owners_graph_free(g);
	owners_resource_table_clear(&types);
	return tap_done();
}
