/*
 * One workload's scale-down (see scale_down_runner.h): read, decide
 * (owners_scale_next()), write or wait, read again.
 */
#include <string.h>
#include <time.h>

#include "clock.h"
#include "scale_down_runner.h"

static int64_t now_ms(const struct owners_scale_hooks *h)
{
	return h->now_ms ? h->now_ms(h->ctx) : owners_clock_ms();
}

static void nap(const struct owners_scale_hooks *h, long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	if (h->sleep_ms)
		h->sleep_ms(h->ctx, ms);
	else
		nanosleep(&ts, NULL);
}

static void tell(const struct owners_scale_runner *r, const struct owners_scale_hooks *h,
		 struct owners_scale_event *e)
{
	e->n = r->n;
	e->dry_run = r->server_dry_run;
	e->replicas_at_start = r->replicas_at_start;
	e->elapsed_ms = now_ms(h) - r->started_ms;
	if (h->event)
		h->event(h->ctx, e);
}

static int read_state(struct owners_scale_runner *r, const struct owners_scale_hooks *h,
		      struct owners_scale_state *st, struct owners_error *err)
{
	return h->read ? h->read(h->ctx, st, r->n, r->how, err) : owners_scale_read(st, r->http, r->n, r->how, err);
}

/* How a write went, when it did not fail. */
enum written {
	WRITTEN,     /* accepted */
	WRITE_AGAIN, /* 409: changed since it was read; read again, decide again */
	WRITE_GONE,  /* 404: nothing left to scale */
	WRITE_FAILED,
};

static enum written write_state(struct owners_scale_runner *r, const struct owners_scale_hooks *h,
				enum owners_scale_write what, const struct owners_scale_state *st,
				struct owners_error *err)
{
	const struct owners_scale_write_request q = {
		r->n, r->how, what, st, r->server_dry_run ? OWNERS_DRY_RUN_SERVER : OWNERS_DRY_RUN_NONE,
	};
	int rc = h->write ? h->write(h->ctx, r->n, r->how, what, st, err) : owners_scale_write(r->http, &q, err);

	if (rc == OWNERS_ENOTFOUND)
		return WRITE_GONE;
	if (rc == OWNERS_ECONFLICT)
		return WRITE_AGAIN;
	if (rc) {
		r->failed_write = what;
		r->write_rc = rc;
		return WRITE_FAILED;
	}
	if (what != OWNERS_SCALE_WRITE_RESUME) {
		struct owners_scale_event e = { .kind = OWNERS_SCALE_EVENT_WRITTEN, .what = what, .state = st };

		tell(r, h, &e);
	}
	return WRITTEN;
}

/* A server dry run changes nothing: each write once, checked by the
 * server, and the run is over. */
static enum owners_scale_run_end dry_run(struct owners_scale_runner *r, const struct owners_scale_hooks *h,
					 const struct owners_scale_state *st, struct owners_error *err)
{
	enum written w;

	if (r->next == OWNERS_SCALE_NEXT_PAUSE &&
	    write_state(r, h, OWNERS_SCALE_WRITE_PAUSE, st, err) == WRITE_FAILED)
		return OWNERS_SCALE_RUN_WRITE_FAILED;
	if (r->next == OWNERS_SCALE_NEXT_WAIT)
		return OWNERS_SCALE_RUN_DONE;
	if ((w = write_state(r, h, OWNERS_SCALE_WRITE_ZERO, st, err)) == WRITE_FAILED)
		return OWNERS_SCALE_RUN_WRITE_FAILED;
	r->scaled = w == WRITTEN;
	return OWNERS_SCALE_RUN_DONE;
}

/* Waiting on its controller: told, then a nap, unless it is to stop. */
static int wait_or_end(enum owners_scale_run_end *end, struct owners_scale_runner *r,
		       const struct owners_scale_hooks *h, const struct owners_scale_state *st)
{
	struct owners_scale_event e = { .kind = OWNERS_SCALE_EVENT_WAITING, .state = st, .why = r->why };

	r->waits_on = owners_scale_waits_on(st, r->how);
	tell(r, h, &e);
	if (h->interrupted && h->interrupted(h->ctx)) {
		*end = OWNERS_SCALE_RUN_INTERRUPTED;
		return 1;
	}
	if (now_ms(h) >= r->deadline_ms) {
		*end = OWNERS_SCALE_RUN_TIMED_OUT;
		return 1;
	}
	nap(h, OWNERS_SCALE_POLL_MS);
	return 0;
}

/* One read and what it asks for: 1 with *end set when the run is over. */
static int step(enum owners_scale_run_end *end, struct owners_scale_runner *r, const struct owners_scale_hooks *h,
		struct owners_error *err)
{
	struct owners_scale_state st;
	enum written w;
	int rc = read_state(r, h, &st, err), pausing;

	*end = OWNERS_SCALE_RUN_DONE;
	if (rc == OWNERS_ENOTFOUND || (!rc && st.deleting))
		return 1; /* gone already, or its controller no longer acts on it: the cascade takes its pods */
	if (rc) {
		*end = OWNERS_SCALE_RUN_READ_FAILED;
		return 1;
	}
	if (r->replicas_at_start < 0)
		r->replicas_at_start = st.status_replicas;
	/* paused by this run, or by an earlier one that was killed: ours to
	 * resume if the cascade stops before deleting it */
	if (r->how == OWNERS_SCALE_DEPLOYMENT && st.paused_by_owners && !r->remembered) {
		r->remembered = 1;
		if (h->paused_by_owners && h->paused_by_owners(h->ctx, r->n)) {
			*end = OWNERS_SCALE_RUN_STOPPED;
			return 1;
		}
	}
	r->next = owners_scale_next(&st, r->how, r->why, sizeof(r->why));
	if (r->next == OWNERS_SCALE_NEXT_DONE)
		return 1;
	if (r->next != OWNERS_SCALE_NEXT_WAIT && r->writes >= OWNERS_SCALE_MAX_WRITES) {
		*end = OWNERS_SCALE_RUN_CHANGED_BACK; /* accepted, and undone each time */
		return 1;
	}
	if (r->writes)
		nap(h, OWNERS_SCALE_POLL_MS / 5); /* (let the write settle before reading again) */
	if (r->server_dry_run) {
		*end = dry_run(r, h, &st, err);
		return 1;
	}
	if (r->next == OWNERS_SCALE_NEXT_WAIT)
		return wait_or_end(end, r, h, &st);
	pausing = r->next == OWNERS_SCALE_NEXT_PAUSE;
	w = write_state(r, h, pausing ? OWNERS_SCALE_WRITE_PAUSE : OWNERS_SCALE_WRITE_ZERO, &st, err);
	if (w == WRITE_FAILED)
		*end = OWNERS_SCALE_RUN_WRITE_FAILED;
	if (w == WRITE_FAILED || w == WRITE_GONE)
		return 1;
	/* (a conflict counts too: one that never ends is someone changing it
	 * back as fast as it is read) */
	r->writes++;
	if (w == WRITTEN) {
		r->changed = 1;
		r->scaled |= !pausing;
	}
	return 0; /* read again: the write's effect decides what is next */
}

enum owners_scale_run_end owners_scale_run(struct owners_scale_runner *r, const struct owners_scale_hooks *h,
					   struct owners_error *err)
{
	enum owners_scale_run_end end;

	r->started_ms = now_ms(h);
	r->replicas_at_start = -1;
	r->scaled = r->changed = r->writes = r->remembered = 0;
	r->waits_on = OWNERS_SCALE_WAIT_NONE;
	*r->why = 0;
	while (!step(&end, r, h, err))
		;
	return end;
}
