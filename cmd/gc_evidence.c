#include "gc_evidence.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lease.h"
#include "output.h"
#include "session_snapshot.h"

/* The lease as the snapshot read it, at the server's time then. */
static int snapshot_lease(const struct session *s, struct owners_lease *l)
{
	size_t len;
	int64_t read_at;
	const char *json = session_snapshot_object(s, OWNERS_GC_LEASE_PATH, &len, &read_at);

	if (!json)
		return OWNERS_ENOTFOUND;
	if (owners_lease_parse(l, json, len))
		return OWNERS_EPROTO;
	l->read_at = read_at;
	return 0;
}

void gc_evidence_lease(struct session *s, struct owners_collector_render *r)
{
	struct owners_lease l;

	r->lease_renewed = 0;
	r->lease_duration = 0;
	r->lease_rc = session_is_snapshot(s)
			      ? snapshot_lease(s, &l)
			      : owners_lease_get(session_http(s), OWNERS_GC_LEASE_NAMESPACE,
						 OWNERS_GC_LEASE_NAME, &l);
	if (r->lease_rc || !l.renewed)
		return;
	/* its age as the server's clock counts it, moved onto print.now's
	 * clock: a client whose clock is off calls no lease expired */
	r->lease_renewed = l.read_at ? r->print.now - (l.read_at - l.renewed) : l.renewed;
	r->lease_duration = l.duration;
}

enum exit_code gc_evidence_read(struct gc_evidence *e, struct session *s, long after_s)
{
	memset(e, 0, sizeof(*e));
	if (!session_graph(s))
		return 0;
	if (owners_collector_new(&e->c, session_graph(s)) ||
	    !(e->steps = calloc(session_graph(s)->count + 1, sizeof(*e->steps))))
		return error_oom();
	owners_collector_plan(e->c, e->steps);
	owners_collector_render_backlog_count(&e->backlog, session_graph(s), e->steps, NULL, NULL,
					      0);
	e->render.c = e->c;
	e->render.steps = e->steps;
	e->render.backlog = &e->backlog;
	e->render.print.now = session_time(s);
	e->render.stalled_after = after_s;
	gc_evidence_lease(s, &e->render);
	return 0;
}

enum exit_code gc_evidence_tell(const struct gc_evidence *e)
{
	struct owners_buf out = OWNERS_BUF_INIT;
	enum exit_code rc = EXIT_OK;

	if (!e->c)
		return 0;
	if (owners_collector_render_stalled(&out, &e->render))
		rc = error_oom();
	else if (out.len)
		fputs(out.ptr, stderr);
	owners_buf_clear(&out);
	return rc;
}

void gc_evidence_clear(struct gc_evidence *e)
{
	free(e->steps);
	owners_collector_free(e->c);
	memset(e, 0, sizeof(*e));
}

enum exit_code gc_evidence_say(struct session *s, long after_s)
{
	struct gc_evidence e;
	enum exit_code rc = gc_evidence_read(&e, s, after_s);

	if (!rc)
		rc = gc_evidence_tell(&e);
	gc_evidence_clear(&e);
	return rc;
}
