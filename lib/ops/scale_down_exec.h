/*
 * The requests of `delete --scale-first` (the decisions are in
 * scale_down.c): reading a workload back (the object in full, and its
 * Scale), and the conditional merge patches that pause or resume a
 * Deployment and set replicas (a Job's parallelism) to 0. Every patch
 * carries the resourceVersion read: a concurrent change answers 409
 * (OWNERS_ECONFLICT), and the caller reads again and decides again.
 *
 * Ownership: every input is borrowed.
 */
#ifndef OWNERS_SCALE_DOWN_EXEC_H
#define OWNERS_SCALE_DOWN_EXEC_H

#include "object_io.h"
#include "scale_down.h"

/* Reads node n back into st: OWNERS_ENOTFOUND once it is gone (or
 * another object took its name), else 0 or the error, err set. */
int owners_scale_read(struct owners_scale_state *st, struct owners_http_client *c,
		      const struct owners_node *n, enum owners_scale_how how, struct owners_error *err);

enum owners_scale_write {
	OWNERS_SCALE_WRITE_PAUSE,  /* a Deployment: paused, marked as ours */
	OWNERS_SCALE_WRITE_RESUME, /* a Deployment we paused: resumed, the mark removed */
	OWNERS_SCALE_WRITE_ZERO,   /* replicas (a Job's parallelism) to 0 */
};

/* One write to a workload: what, to which object, as read in st. */
struct owners_scale_write_request {
	const struct owners_node *n;
	enum owners_scale_how how;
	enum owners_scale_write what;
	const struct owners_scale_state *st; /* its resourceVersion is the write's condition */
	enum owners_dry_run dry_run;
};

/* Sends one write to q->n, conditional on q->st->resource_version (dry_run
 * as kubectl's: a server dry run sends dryRun=All, a client one nothing).
 * 0, or the error code with err set (OWNERS_ECONFLICT, OWNERS_ENOTFOUND,
 * ...). */
int owners_scale_write(struct owners_http_client *c, const struct owners_scale_write_request *q,
		       struct owners_error *err);

#endif
