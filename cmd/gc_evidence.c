#include "gc_evidence.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "lease.h"
#include "output.h"

void gc_evidence_lease(struct session *s, struct owners_gc_render *r)
{
	struct owners_lease l;

	r->lease_renewed = 0;
	if (owners_lease_get(s->http, "kube-system", "kube-controller-manager", &l) || !l.renewed)
		return;
	r->lease_renewed = l.renewed;
	/* Leader election renews well within the duration (15 s by default):
	 * four durations, and never less than the backlog's threshold. */
	r->lease_stale_after = 4 * (l.duration > 0 ? l.duration : 15);
	if (r->lease_stale_after < r->stalled_after)
		r->lease_stale_after = r->stalled_after;
}

enum exit_code gc_evidence_say(struct session *s, long after_s)
{
	struct owners_collector *c = NULL;
	struct owners_gc_step *steps = NULL;
	struct owners_gc_backlog b;
	struct owners_gc_render r = { 0 };
	struct owners_buf out = OWNERS_BUF_INIT;
	int rc = 0;

	if (!s->graph)
		return 0;
	if (owners_collector_new(&c, s->graph) || !(steps = calloc(s->graph->count + 1, sizeof(*steps)))) {
		owners_collector_free(c);
		return error_oom();
	}
	owners_collector_plan(c, steps);
	owners_gc_backlog_count(&b, s->graph, steps, NULL, NULL, 0);
	r.c = c;
	r.steps = steps;
	r.backlog = &b;
	r.print.now = (int64_t)time(NULL);
	r.stalled_after = after_s;
	gc_evidence_lease(s, &r);
	if (owners_gc_render_stalled(&out, &r))
		rc = error_oom();
	else if (out.len)
		fputs(out.ptr, stderr);
	owners_buf_clear(&out);
	free(steps);
	owners_collector_free(c);
	return rc;
}
