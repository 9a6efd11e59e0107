#include "dangling_collect.h"

#include <stdlib.h>
#include <string.h>

#include "cascade_exec.h"
#include "absence_confirm.h"
#include "collector.h"
#include "grow.h"

/* Every finding of the object (items a..b) says the GC deletes it now. */
static int deleted_now(const struct owners_dangling_report *rep, size_t a, size_t b)
{
	size_t k;

	for (k = a; k < b; k++)
		if (rep->items[k].gc != OWNERS_DANGLING_GC_DELETE_OBJECT || rep->items[k].after != OWNERS_NO_NODE)
			return 0;
	return 1;
}

static void set_all(struct owners_dangling_report *rep, size_t a, size_t b, enum owners_fix_result r,
		    const char *message)
{
	size_t k;

	for (k = a; k < b; k++) {
		rep->items[k].fix = r;
		free(rep->items[k].fix_message);
		rep->items[k].fix_message = message ? owners_strdup(message) : NULL;
	}
}

static enum owners_action_kind action_of(const struct owners_collector_step *s)
{
	if (s->policy == OWNERS_COLLECTOR_POLICY_FOREGROUND)
		return OWNERS_ACT_DELETE_FOREGROUND;
	return s->policy == OWNERS_COLLECTOR_POLICY_ORPHAN ? OWNERS_ACT_DELETE_ORPHAN : OWNERS_ACT_DELETE;
}

/* The deletions to send: one per object the GC deletes now; first[i] is
 * the first finding of actions[i]'s object. */
static int plan(struct owners_dangling_report *rep, const struct owners_collector_step *steps, struct owners_cascade_plan *p, size_t **first,
		size_t *cap_first)
{
	size_t a, b;

	for (a = 0; a < rep->count; a = b) {
		uint32_t node = rep->items[a].object;

		for (b = a + 1; b < rep->count && rep->items[b].object == node; b++)
			;
		if (!deleted_now(rep, a, b) || steps[node].kind != OWNERS_COLLECTOR_STEP_DELETE)
			continue;
		if (OWNERS_GROW(p->actions, p->cap_actions, p->n_actions + 1) ||
		    OWNERS_GROW(*first, *cap_first, p->n_actions + 1))
			return OWNERS_ENOMEM;
		(*first)[p->n_actions] = a;
		p->actions[p->n_actions].kind = action_of(&steps[node]);
		p->actions[p->n_actions].node = node;
		p->actions[p->n_actions++].why = "the garbage collector deletes it";
	}
	return 0;
}

static size_t end_of(const struct owners_dangling_report *rep, size_t a)
{
	size_t b;

	for (b = a + 1; b < rep->count && rep->items[b].object == rep->items[a].object; b++)
		;
	return b;
}

/* What each DELETE did, on every finding of its object. */
static void record(struct owners_dangling_report *rep, const struct owners_cascade_plan *p, const size_t *first,
		   const struct owners_action_result *res, int server_dry_run)
{
	size_t i;

	for (i = 0; i < p->n_actions; i++) {
		size_t a = first[i], b = end_of(rep, a);

		switch (res[i].outcome) {
		case OWNERS_OUTCOME_DONE:
			set_all(rep, a, b, server_dry_run ? OWNERS_FIX_WOULD_DELETE : OWNERS_FIX_DELETED,
				"no owner is left: collected as the garbage collector would");
			break;
		case OWNERS_OUTCOME_GONE:
			set_all(rep, a, b, OWNERS_FIX_GONE, "the object was deleted by someone else");
			break;
		case OWNERS_OUTCOME_CONFLICT:
			set_all(rep, a, b, OWNERS_FIX_KEPT, "the object changed since it was read: run again");
			break;
		case OWNERS_OUTCOME_FORBIDDEN:
		case OWNERS_OUTCOME_FAILED: {
			struct owners_buf m = OWNERS_BUF_INIT;

			owners_buf_addf(&m, "the DELETE that collects the object was refused: %s",
					res[i].message ? res[i].message : "refused");
			set_all(rep, a, b, OWNERS_FIX_FAILED, m.ptr ? m.ptr : "refused");
			owners_buf_clear(&m);
			break;
		}
		}
	}
}

int owners_dangling_collect(struct owners_dangling_report *rep, struct owners_graph *g,
			    struct owners_http_client *c, enum owners_dry_run dry_run,
			    struct owners_error *err)
{
	const struct owners_cascade_exec_options o = {
		.server_gc = 1, /* the GC's own request: the policy alone */
		.dry_run = dry_run == OWNERS_DRY_RUN_SERVER,
		.grace_period = -1,
	};
	struct owners_collector *col = NULL;
	struct owners_collector_step *steps = NULL;
	struct owners_cascade_plan p;
	struct owners_action_result *res = NULL;
	struct owners_owner_checks cc;
	size_t *first = NULL, cap_first = 0, i, held;
	int rc = 0;

	memset(&p, 0, sizeof(p));
	if (owners_collector_new(&col, g) || !(steps = calloc(g->count + 1, sizeof(*steps)))) {
		owners_collector_free(col);
		return owners_error_oom(err);
	}
	owners_collector_plan(col, steps);
	/* Collected only once every owner missing from the scan is read gone
	 * (a read, made in every dry-run mode, as the fixer's are). */
	owners_owner_checks_init(&cc, g->types, c);
	rc = owners_absence_confirm_collector(&held, col, steps, NULL, &cc);
	owners_owner_checks_clear(&cc);
	if (rc || plan(rep, steps, &p, &first, &cap_first)) {
		rc = owners_error_oom(err);
	} else if (dry_run == OWNERS_DRY_RUN_CLIENT) {
		for (i = 0; i < p.n_actions; i++)
			set_all(rep, first[i], end_of(rep, first[i]), OWNERS_FIX_WOULD_DELETE,
				"no owner is left: it would be collected as the garbage collector would");
	} else if (p.n_actions) {
		if (!(res = calloc(p.n_actions, sizeof(*res))))
			rc = owners_error_oom(err);
		else if (!(rc = owners_cascade_exec_plan(g, &p, c, &o, res, err)))
			record(rep, &p, first, res, o.dry_run);
		owners_cascade_exec_results_free(res, res ? p.n_actions : 0);
	}
	free(p.actions);
	free(first);
	free(steps);
	owners_collector_free(col);
	return rc;
}
