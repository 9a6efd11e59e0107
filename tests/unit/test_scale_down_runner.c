/* One workload's scale-down (lib/ops/scale_down_runner.c) driven against
 * a fake workload: its state is the test's, a write changes it as the
 * server would, each nap lets its controller take one replica down, and
 * the clock is the test's. */
#include <stdio.h>
#include <string.h>

#include "scale_down_runner.h"
#include "tap.h"

struct fake {
	struct owners_scale_state st;
	int gone;                    /* reads answer 404 */
	int conflict_always;         /* every write answers 409 */
	int undo;                    /* someone sets replicas back after each write */
	int fail_rc;                 /* writes fail with this code */
	int controller_runs;         /* each nap observes the generation and takes one replica */
	int stop_after_waits;        /* interrupted once this many waits were told (0: never) */
	int64_t now, nap_ms;
	/* told */
	int reads, writes[3], waits, written_events[3], paused_told;
	char last_why[160];
};

static int fake_read(void *ctx, struct owners_scale_state *st, const struct owners_node *n,
		     enum owners_scale_how how, struct owners_error *err)
{
	struct fake *f = ctx;

	(void)n;
	(void)how;
	(void)err;
	f->reads++;
	if (f->gone)
		return OWNERS_ENOTFOUND;
	*st = f->st;
	return 0;
}

static int fake_write(void *ctx, const struct owners_node *n, enum owners_scale_how how,
		      enum owners_scale_write what, const struct owners_scale_state *st,
		      struct owners_error *err)
{
	struct fake *f = ctx;

	(void)n;
	(void)how;
	(void)st;
	f->writes[what]++;
	if (f->fail_rc)
		return owners_error_set(err, f->fail_rc, "forbidden");
	if (f->conflict_always)
		return OWNERS_ECONFLICT;
	f->st.generation++;
	if (what == OWNERS_SCALE_WRITE_PAUSE)
		f->st.paused = f->st.paused_by_owners = 1;
	else if (what == OWNERS_SCALE_WRITE_ZERO && !f->undo)
		f->st.spec_replicas = 0;
	return 0;
}

static void on_event(void *ctx, const struct owners_scale_event *e)
{
	struct fake *f = ctx;

	if (e->kind == OWNERS_SCALE_EVENT_WAITING) {
		f->waits++;
		snprintf(f->last_why, sizeof(f->last_why), "%s", e->why);
	} else {
		f->written_events[e->what]++;
	}
}

static int paused_by_owners(void *ctx, const struct owners_node *n)
{
	(void)n;
	((struct fake *)ctx)->paused_told++;
	return 0;
}

static int interrupted(void *ctx)
{
	struct fake *f = ctx;

	return f->stop_after_waits && f->waits >= f->stop_after_waits;
}

static int64_t now_ms(void *ctx)
{
	return ((struct fake *)ctx)->now;
}

static void sleep_ms(void *ctx, long ms)
{
	struct fake *f = ctx;

	f->now += ms;
	f->nap_ms += ms;
	if (!f->controller_runs)
		return;
	f->st.observed_generation = f->st.generation;
	if (f->st.spec_replicas == 0 && f->st.status_replicas > 0)
		f->st.status_replicas--;
}

static void fake_init(struct fake *f, int64_t replicas)
{
	memset(f, 0, sizeof(*f));
	f->st.generation = f->st.observed_generation = 1;
	f->st.spec_replicas = f->st.status_replicas = replicas;
	f->controller_runs = 1;
}

static enum owners_scale_run_end run(struct fake *f, struct owners_scale_runner *r, enum owners_scale_how how,
				     int64_t deadline_ms, int dry_run)
{
	static const struct owners_node n = { .name = "db",
					      .uid_key = { .text = "u1" },
					      .uid_is_text = 1,
					      .place = &owners_graph_no_place,
					      .extras = &owners_graph_no_extras };
	const struct owners_scale_hooks h = { f, on_event, paused_by_owners, interrupted, fake_read,
					      fake_write, now_ms, sleep_ms };
	struct owners_error err = OWNERS_ERROR_INIT;
	enum owners_scale_run_end end;

	memset(r, 0, sizeof(*r));
	r->n = &n;
	r->how = how;
	r->deadline_ms = deadline_ms;
	r->server_dry_run = dry_run;
	end = owners_scale_run(r, &h, &err);
	owners_error_clear(&err);
	return end;
}

static void test_scaled(void)
{
	struct owners_scale_runner r;
	struct fake f;

	fake_init(&f, 3);
	ok(run(&f, &r, OWNERS_SCALE_SUBRESOURCE, 60000, 0) == OWNERS_SCALE_RUN_DONE,
	   "a StatefulSet's 3 replicas: scaled to 0 and waited for");
	ok(r.scaled && r.changed && r.replicas_at_start == 3 && f.writes[OWNERS_SCALE_WRITE_ZERO] == 1 &&
		   f.written_events[OWNERS_SCALE_WRITE_ZERO] == 1,
	   "  one write, told, 3 replicas at the start");
	/* the nap that lets the write settle takes the first one */
	ok(f.waits == 2 && f.st.status_replicas == 0,
	   "  a wait told per replica left after the settling nap (%d)", f.waits);

	fake_init(&f, 2);
	ok(run(&f, &r, OWNERS_SCALE_DEPLOYMENT, 60000, 0) == OWNERS_SCALE_RUN_DONE &&
		   f.writes[OWNERS_SCALE_WRITE_PAUSE] == 1 && f.writes[OWNERS_SCALE_WRITE_ZERO] == 1,
	   "a Deployment: paused, then scaled");
	ok(f.paused_told == 1 && f.written_events[OWNERS_SCALE_WRITE_PAUSE] == 1,
	   "  its pause told once, and remembered once as ours");

	fake_init(&f, 2);
	f.gone = 1;
	ok(run(&f, &r, OWNERS_SCALE_SUBRESOURCE, 60000, 0) == OWNERS_SCALE_RUN_DONE && !r.scaled &&
		   !f.writes[OWNERS_SCALE_WRITE_ZERO],
	   "gone already: done, nothing written");

	fake_init(&f, 2);
	f.st.deleting = 1;
	ok(run(&f, &r, OWNERS_SCALE_SUBRESOURCE, 60000, 0) == OWNERS_SCALE_RUN_DONE && !f.writes[1] &&
		   !f.writes[2],
	   "in deletion: done, left to the cascade");
}

static void test_dry_run(void)
{
	struct owners_scale_runner r;
	struct fake f;

	fake_init(&f, 2);
	f.controller_runs = 0;
	ok(run(&f, &r, OWNERS_SCALE_DEPLOYMENT, 60000, 1) == OWNERS_SCALE_RUN_DONE && r.scaled && !r.changed,
	   "server dry run: each write once, nothing waited for");
	ok(f.writes[OWNERS_SCALE_WRITE_PAUSE] == 1 && f.writes[OWNERS_SCALE_WRITE_ZERO] == 1 && !f.waits &&
		   f.reads == 1,
	   "  one read, a pause and a scale");
}

static void test_ends(void)
{
	struct owners_scale_runner r;
	struct fake f;

	fake_init(&f, 2);
	f.controller_runs = 0; /* its controller never observes the change */
	ok(run(&f, &r, OWNERS_SCALE_SUBRESOURCE, 2000, 0) == OWNERS_SCALE_RUN_TIMED_OUT,
	   "timeout: a controller that never observes the change");
	ok(r.waits_on == OWNERS_SCALE_WAIT_OBSERVED && !strncmp(f.last_why, "its controller", 14),
	   "  waits on its controller, typed (and said: %s)", f.last_why);
	ok(f.now >= 2000 && f.now <= 2000 + OWNERS_SCALE_POLL_MS, "  ends at the deadline (%lld)",
	   (long long)f.now);

	fake_init(&f, 2);
	f.st.generation = 1; /* observed, but the replicas stay */
	f.controller_runs = 0;
	f.st.spec_replicas = 0;
	ok(run(&f, &r, OWNERS_SCALE_SUBRESOURCE, 1000, 0) == OWNERS_SCALE_RUN_TIMED_OUT &&
		   r.waits_on == OWNERS_SCALE_WAIT_REPLICAS,
	   "  replicas that stay: waits on replicas (%s)", f.last_why);

	fake_init(&f, 2);
	f.undo = 1;
	ok(run(&f, &r, OWNERS_SCALE_SUBRESOURCE, 600000, 0) == OWNERS_SCALE_RUN_CHANGED_BACK &&
		   f.writes[OWNERS_SCALE_WRITE_ZERO] == OWNERS_SCALE_MAX_WRITES && r.next == OWNERS_SCALE_NEXT_SCALE,
	   "changed back: %d writes undone, then it gives up", OWNERS_SCALE_MAX_WRITES);

	fake_init(&f, 2);
	f.conflict_always = 1;
	ok(run(&f, &r, OWNERS_SCALE_SUBRESOURCE, 600000, 0) == OWNERS_SCALE_RUN_CHANGED_BACK && !r.changed,
	   "  endless conflicts count too");

	fake_init(&f, 2);
	f.fail_rc = OWNERS_EFORBIDDEN;
	ok(run(&f, &r, OWNERS_SCALE_DEPLOYMENT, 600000, 0) == OWNERS_SCALE_RUN_WRITE_FAILED &&
		   r.failed_write == OWNERS_SCALE_WRITE_PAUSE && r.write_rc == OWNERS_EFORBIDDEN,
	   "a refused write: which one, and its code");

	fake_init(&f, 5);
	f.stop_after_waits = 2;
	ok(run(&f, &r, OWNERS_SCALE_SUBRESOURCE, 600000, 0) == OWNERS_SCALE_RUN_INTERRUPTED && f.waits == 2,
	   "interrupted: looked at on each wait");
}

int main(void)
{
	test_scaled();
	test_dry_run();
	test_ends();
	return tap_done();
}
