#include "why_render.h"

#include <string.h>

#include "api_path.h"
#include "json.h"
#include "document_json.h"
#include "finalizer_command.h"
#include "node_json.h"
#include "pod_claims.h"
#include "relation_render.h"

#define DEFAULT_MAX_LIST 10

static const char *const mode_names[OWNERS_WHY_MODES] = { "background", "foreground", "orphan" };

static const char *plural(size_t n)
{
	return n == 1 ? "" : "s";
}

/* ---- text ---------------------------------------------------------------- */

/* "Kind/name", plus " in namespace X" when not the object's namespace. */
static int name_of(struct owners_buf *out, const struct owners_node *n, const char *here)
{
	int rc = owners_buf_addf(out, "%s/%s", n->place->kind, n->name);

	if (!rc && *n->place->namespace_ && strcmp(n->place->namespace_, here))
		rc = owners_buf_addf(out, " in namespace %s", n->place->namespace_);
	return rc;
}

static int names(struct owners_buf *out, const struct owners_graph *g, const uint32_t *nodes,
		 size_t n, size_t max, const char *here)
{
	size_t i;
	int rc = 0;

	for (i = 0; !rc && i < n && i < max; i++) {
		rc = owners_buf_adds(out, i ? ", " : "");
		if (!rc)
			rc = name_of(out, &g->nodes[nodes[i]], here);
	}
	if (!rc && n > max)
		rc = owners_buf_addf(out, " and %zu more", n - max);
	return rc;
}

/* The owner a reference names: what the reference says (its owner may
 * not exist), where the GC looks for it. */
static int owner_name(struct owners_buf *out, const struct owners_graph *g,
		      const struct owners_why_owner *o, const char *here)
{
	const struct owners_ref *ref = &g->nodes[o->dependent].refs[o->ref];

	if (o->class_ == OWNERS_REF_RESOLVED)
		return name_of(out, &g->nodes[o->node], here);
	return owners_buf_addf(out, "%s/%s (%s)", ref->type->kind, ref->name, ref->type->api_version);
}

/* ": in foreground deletion with configmap/b, each blocked by another:
 * no one ends it", and the way out on a line of its own. */
static int text_deadlock(struct owners_buf *out, const char *program, const struct owners_graph *g,
			 const struct owners_deadlock *d)
{
	int rc = owners_buf_adds(out, ": in foreground deletion, ");

	if (!rc && d->n_members == 1)
		rc = owners_buf_adds(out, "blocking its own deletion");
	else if (!rc) {
		rc = owners_buf_adds(out, "each of ");
		rc = rc ? rc : owners_deadlock_members_text(out, g, d);
		rc = rc ? rc : owners_buf_adds(out, " blocked by another of them");
	}
	rc = rc ? rc : owners_buf_adds(out, ": no one ends it, the garbage collector included\n  to end it, run: ");
	rc = rc ? rc : owners_deadlock_command(out, program, g, d);
	return rc ? rc : owners_buf_addc(out, '\n');
}

static int text_headline(struct owners_buf *out, const struct owners_why_render *r)
{
	const struct owners_graph *g = r->g;
	const struct owners_why *w = r->why;
	const struct owners_node *n = &g->nodes[w->node];
	const struct owners_why_owner *b = w->because != OWNERS_NO_NODE ? &w->owners[w->because] : NULL;
	int rc;

	switch (w->verdict) {
	case OWNERS_WHY_KEPT: rc = owners_buf_adds(out, "kept: "); break;
	case OWNERS_WHY_COLLECTED: rc = owners_buf_adds(out, "will be collected: "); break;
	case OWNERS_WHY_NEVER: rc = owners_buf_adds(out, "never collected: "); break;
	case OWNERS_WHY_WAITING: rc = owners_buf_adds(out, "waiting: "); break;
	case OWNERS_WHY_DEADLOCK: rc = owners_buf_adds(out, "deadlock: "); break;
	default: rc = owners_buf_adds(out, "blind: "); break;
	}
	if (!rc)
		rc = owners_buf_addf(out, "%s/%s", n->place->kind, n->name);
	if (!rc && *n->place->namespace_)
		rc = owners_buf_addf(out, " in namespace %s", n->place->namespace_);
	if (rc)
		return rc;
	if (w->verdict == OWNERS_WHY_KEPT && b) {
		rc = owners_buf_adds(out, ": its owner ");
		if (!rc)
			rc = owner_name(out, g, b, n->place->namespace_);
		return rc ? rc : owners_buf_adds(out, " is live and solid\n");
	}
	if (w->verdict == OWNERS_WHY_KEPT)
		return owners_buf_adds(out, ": it has no owners\n");
	if (w->verdict == OWNERS_WHY_COLLECTED && w->after != OWNERS_NO_NODE) {
		rc = owners_buf_addf(out, ": collected after %s/%s, which the garbage collector collects first",
				     g->nodes[w->after].place->kind, g->nodes[w->after].name);
		if (!rc && b && b->node != w->after) {
			rc = owners_buf_adds(out, "; then its owner ");
			rc = rc ? rc : owner_name(out, g, b, n->place->namespace_);
			rc = rc ? rc : owners_buf_adds(out, " is no longer solid");
		}
		return rc ? rc : owners_buf_addc(out, '\n');
	}
	if (w->verdict == OWNERS_WHY_COLLECTED && n->n_refs == 1 && w->n_owners) {
		rc = owners_buf_adds(out, ": its only owner ");
		if (!rc)
			rc = owner_name(out, g, &w->owners[0], n->place->namespace_);
		return rc ? rc : owners_buf_addf(out, " is %s\n", w->owners[0].solid ? "live" :
						 w->owners[0].class_ == OWNERS_REF_RESOLVED
							 ? "waiting for its dependents' deletion"
							 : owners_ref_class_name(w->owners[0].class_));
	}
	if (w->verdict == OWNERS_WHY_COLLECTED)
		return owners_buf_addf(out, ": none of its %u owners is solid\n", n->n_refs);
	if (w->verdict == OWNERS_WHY_DEADLOCK)
		return text_deadlock(out, r->print.program, g, w->deadlock);
	if (w->verdict == OWNERS_WHY_WAITING) {
		const char *how = owners_why_deletion(n);

		if (!strcmp(how, "foreground"))
			return owners_buf_addf(out, ": in foreground deletion until %zu blocking dependent%s %s gone\n",
					       w->n_blocking, plural(w->n_blocking),
					       w->n_blocking == 1 ? "is" : "are");
		if (!strcmp(how, "orphan"))
			return owners_buf_addf(out, ": orphaning until %zu dependent%s %s released\n",
					       w->n_dependents, plural(w->n_dependents),
					       w->n_dependents == 1 ? "is" : "are");
		if (!w->n_finalizers)
			return owners_buf_adds(out, ": in deletion, no finalizer left\n");
		rc = owners_buf_addf(out, ": in deletion, held by finalizer%s ", plural(w->n_finalizers));
		for (size_t i = 0; !rc && i < w->n_finalizers; i++)
			rc = owners_buf_addf(out, "%s%s", i ? ", " : "", w->finalizers[i].name);
		return rc ? rc : owners_buf_adds(out, "\n");
	}
	/* never, blind: the reference that decides */
	rc = owners_buf_adds(out, ": owner ");
	if (!rc && b)
		rc = owner_name(out, g, b, n->place->namespace_);
	if (!rc)
		rc = owners_buf_addf(out, " is %s\n",
				     w->verdict == OWNERS_WHY_NEVER ? owners_ref_class_name(b ? b->class_ : OWNERS_REF_UNRESOLVABLE)
				     : b && b->gc_blind ? "out of the garbage collector's sight"
							: "not readable with your credentials");
	return rc;
}

static int text_owners(struct owners_buf *out, const struct owners_why_render *r)
{
	const struct owners_graph *g = r->g;
	const struct owners_why *w = r->why;
	const char *here = g->nodes[w->node].place->namespace_;
	size_t i;
	unsigned k;
	int rc;

	if (!w->n_owners)
		return owners_buf_adds(out, "Owners: none\n");
	rc = owners_buf_adds(out, "Owners:\n");
	for (i = 0; !rc && i < w->n_owners; i++) {
		const struct owners_why_owner *o = &w->owners[i];
		const struct owners_ref *ref = &g->nodes[o->dependent].refs[o->ref];
		const char *how = o->class_ == OWNERS_REF_RESOLVED ? owners_why_deletion(&g->nodes[o->node]) : NULL;

		for (k = 0; !rc && k < o->depth; k++)
			rc = owners_buf_adds(out, "  ");
		if (!rc && o->depth > 1) {
			rc = owners_buf_adds(out, "(of ");
			if (!rc)
				rc = name_of(out, &g->nodes[o->dependent], here);
			if (!rc)
				rc = owners_buf_adds(out, ") ");
		}
		if (!rc)
			rc = owner_name(out, g, o, here);
		if (!rc)
			rc = owners_buf_addf(out, ": %s", owners_why_owner_state(g, o));
		if (!rc && how)
			rc = owners_buf_addf(out, " (%s)", how);
		if (!rc && o->class_ == OWNERS_REF_INVALID_NAMESPACE && *here && o->node != OWNERS_NO_NODE &&
		    !g->nodes[o->node].virtual_ && *g->nodes[o->node].place->namespace_)
			rc = owners_buf_addf(out, " (it is in namespace %s; the garbage collector looks for it in %s only)",
					     g->nodes[o->node].place->namespace_, here);
		if (!rc && o->class_ == OWNERS_REF_RESOLVED && !o->solid)
			rc = owners_buf_adds(out, ", waiting for its dependents' deletion");
		if (!rc && o->gc_blind)
			rc = owners_buf_adds(out, ", the garbage collector cannot look it up either");
		if (!rc && ref->controller)
			rc = owners_buf_adds(out, ", controller");
		if (!rc && o->blocks)
			rc = owners_buf_adds(out, ", this object blocks its foreground deletion");
		if (!rc)
			rc = owners_buf_adds(out, "\n");
	}
	return rc;
}

/* The command that removes f, spelled with program (NULL: owners, as a
 * document says it). */
static int remove_command(struct owners_buf *out, const char *program, const struct owners_node *n,
			  const struct owners_why_finalizer *f)
{
	struct owners_command_line cmd = OWNERS_COMMAND_LINE_INIT;
	int rc = owners_finalizer_command_start(&cmd);

	rc = rc ? rc : owners_command_line_addf(&cmd, "%s/%s", n->place->kind, n->name);
	rc = rc ? rc
		: owners_finalizer_command_finish(&cmd, n->place->namespace_, f->name,
						  OWNERS_NODE_UID(n));
	rc = rc ? rc : owners_command_line_spell(out, program, &cmd);
	owners_command_line_clear(&cmd);
	return rc;
}

static const char *const risk =
	"what it guards is skipped for good (its controller's cleanup: external resources, "
	"data); remove it only once sure that controller is gone";

/* A namespace's content left, by type: "configmaps 2, secrets 1". */
static int text_content(struct owners_buf *out, const struct owners_stuck_finalizer *now)
{
	size_t k;
	int rc = owners_buf_adds(out, "    content left: ");

	for (k = 0; !rc && k < now->n_content; k++) {
		rc = owners_buf_adds(out, k ? ", " : "");
		if (!rc)
			rc = owners_api_type_name(out, now->content[k].resource);
		if (!rc)
			rc = owners_buf_addf(out, " %zu", now->content[k].count);
	}
	if (!rc && now->content_unlisted)
		rc = owners_buf_addf(out, " (and %zu type%s that could not be listed)", now->content_unlisted,
				     plural(now->content_unlisted));
	return rc ? rc : owners_buf_adds(out, "\n");
}

static int text_finalizers(struct owners_buf *out, const struct owners_why_render *r, size_t max)
{
	const struct owners_graph *g = r->g;
	const struct owners_why *w = r->why;
	const struct owners_node *n = &g->nodes[w->node];
	size_t i, k;
	int rc;

	if (!w->n_finalizers)
		return owners_buf_adds(out, "Finalizers: none\n");
	rc = owners_buf_adds(out, "Finalizers:\n");
	for (i = 0; !rc && i < w->n_finalizers; i++) {
		const struct owners_why_finalizer *f = &w->finalizers[i];
		const struct owners_stuck_finalizer *now = f->now;

		rc = owners_buf_addf(out, "  %s%s: ", f->name, f->spec ? " (spec.finalizers)" : "");
		if (!rc)
			rc = f->remover ? owners_buf_addf(out, "removed by %s; waits for %s\n", f->remover, f->waits_for)
					: owners_buf_addf(out, "no controller known to owners removes it (it waits for "
							       "%s)\n", f->waits_for);
		if (!rc && now)
			rc = owners_buf_addf(out, "    now: %s\n", now->message ? now->message : "");
		if (!rc && now && now->n_objects) {
			rc = owners_buf_adds(out, "    ");
			if (!rc)
				rc = names(out, g, now->objects, now->n_objects, max, n->place->namespace_);
			if (!rc)
				rc = owners_buf_adds(out, "\n");
		}
		if (!rc && now && now->n_content)
			rc = text_content(out, now);
		for (k = 0; !rc && now && k < now->n_conditions; k++)
			rc = owners_buf_addf(out, "    condition %s: %s\n", now->conditions[k]->type,
					     now->conditions[k]->message ? now->conditions[k]->message : "");
		for (k = 0; !rc && now && k < now->n_pods; k++)
			rc = owners_buf_addf(out, "    Pod/%s%s\n", now->pods[k]->pod,
					     owners_pod_holds_claim(now->pods[k], n->name) ? "" : " (not holding it)");
		if (!rc && !f->remover && !f->spec) {
			rc = owners_buf_adds(out, "    if its controller is gone: ");
			if (!rc)
				rc = remove_command(out, r->print.program, n, f);
			if (!rc)
				rc = owners_buf_addf(out, "\n    risk: %s\n", risk);
		}
	}
	return rc;
}

static int text_outcome_counts(struct owners_buf *out, const struct owners_why_cascade *c, int m)
{
	int rc = 0, any = 0;

	if (c->collected[m])
		rc = owners_buf_addf(out, "%zu collected", c->collected[m]), any = 1;
	if (!rc && c->released[m])
		rc = owners_buf_addf(out, "%s%zu released", any ? ", " : "", c->released[m]), any = 1;
	if (!rc && c->kept[m])
		rc = owners_buf_addf(out, "%s%zu kept", any ? ", " : "", c->kept[m]), any = 1;
	return rc;
}

static int text_cascades(struct owners_buf *out, const struct owners_why_render *r)
{
	const struct owners_graph *g = r->g;
	const struct owners_why *w = r->why;
	const char *here = g->nodes[w->node].place->namespace_;
	const char *deletion = owners_why_deletion(&g->nodes[w->node]);
	size_t i;
	int rc, m;

	/* Deleting it again changes nothing: the deletion under way is what
	 * the finalizers above say. */
	if (deletion)
		return owners_buf_addf(out, "If deleted now: no change, its %s deletion is under way\n", deletion);
	rc = owners_buf_adds(out, "If deleted now (--cascade=background | foreground | orphan):\n");
	for (i = 0; !rc && i < w->n_cascades; i++) {
		const struct owners_why_cascade *c = &w->cascades[i];

		if (c->self) {
			if (!w->n_dependents) {
				rc = owners_buf_adds(out, "  the object itself: it has no dependents\n");
				continue;
			}
			/* What the delete would remove in all, dependents of
			 * dependents too, as the delete counts them. */
			rc = owners_buf_addf(out, "  the object itself: %zu | %zu | %zu object%s deleted in all\n",
					     c->removed[0], c->removed[1], c->removed[2],
					     c->removed[0] == 1 && c->removed[1] == 1 && c->removed[2] == 1 ? "" : "s");
			if (!rc)
				rc = owners_buf_addf(out, "  its %zu dependent%s: ", w->n_dependents,
						     plural(w->n_dependents));
			for (m = 0; !rc && m < OWNERS_WHY_MODES; m++) {
				rc = owners_buf_adds(out, m ? " | " : "");
				if (!rc)
					rc = text_outcome_counts(out, c, m);
			}
			if (!rc)
				rc = owners_buf_adds(out, "\n");
			continue;
		}
		rc = owners_buf_adds(out, "  its owner ");
		if (!rc)
			rc = name_of(out, &g->nodes[c->root], here);
		if (!rc)
			rc = owners_buf_addf(out, ": this object %s | %s | %s\n",
					     owners_why_outcome_name(c->outcome[0]),
					     owners_why_outcome_name(c->outcome[1]),
					     owners_why_outcome_name(c->outcome[2]));
	}
	return rc;
}

static int text_dependents(struct owners_buf *out, const struct owners_why_render *r, size_t max)
{
	const struct owners_why *w = r->why;
	size_t i;
	int rc;

	if (!w->n_dependents)
		return owners_buf_adds(out, "Dependents: none\n");
	rc = owners_buf_addf(out, "Dependents: %zu (", w->n_dependents);
	for (i = 0; !rc && i < w->n_dependent_kinds; i++)
		rc = owners_buf_addf(out, "%s%s %zu", i ? ", " : "", w->dependent_kinds[i].kind,
				     w->dependent_kinds[i].count);
	if (!rc)
		rc = owners_buf_addf(out, ")%s", w->n_blocking ? "; blocking owner deletion: " : "\n");
	if (!rc && w->n_blocking) {
		rc = names(out, r->g, w->blocking, w->n_blocking, max, r->g->nodes[w->node].place->namespace_);
		if (!rc)
			rc = owners_buf_adds(out, "\n");
	}
	return rc;
}

/* Its users (what a delete of it breaks), those that could not be seen,
 * and what it uses that does not exist. */
static int text_relations(struct owners_buf *out, const struct owners_why_render *r, size_t max)
{
	const struct owners_usage *u = r->usage;
	const struct owners_relations *rel = r->rel;
	const size_t *at;
	size_t i, n, missing = 0;
	int rc = 0;

	if (r->relations_not_recorded)
		return owners_buf_adds(
			out,
			"Used by: not recorded (the snapshot was taken with --related=false)\n");
	if (!rel || !u)
		return 0;
	rc = u->n_users ? owners_buf_addf(out, "Used by: %zu (a delete of it breaks them)\n",
					  u->n_users)
			: owners_buf_adds(out,
					  u->n_unseen ? "Used by: none seen\n" : "Used by: none\n");
	for (i = 0; !rc && i < u->n_users && i < max; i++) {
		const struct owners_relation *x = &rel->items[u->users[i]];
		const struct owners_node *user = &r->g->nodes[x->user];

		rc = owners_buf_addf(out, "  %s/%s ", user->place->kind, user->name);
		if (!rc && *user->place->namespace_ &&
		    strcmp(user->place->namespace_, r->g->nodes[r->why->node].place->namespace_))
			rc = owners_buf_addf(out, "(namespace %s) ", user->place->namespace_);
		if (!rc)
			rc = owners_relation_render_how(out, rel, x);
		if (!rc)
			rc = owners_buf_addc(out, '\n');
	}
	if (!rc && u->n_users > max)
		rc = owners_buf_addf(out, "  ... and %zu more (-o json lists them all)\n",
				     u->n_users - max);
	for (i = 0; !rc && i < u->n_unseen; i++) {
		rc = owners_buf_adds(out, "  users not seen: ");
		if (!rc)
			rc = owners_usage_unseen_text(out, &u->unseen[i]);
		if (!rc)
			rc = owners_buf_addc(out, '\n');
	}
	n = owners_relations_uses_of(rel, r->why->node, &at);
	for (i = 0; !rc && i < n; i++) {
		const struct owners_relation *x = &rel->items[at[i]];

		if (x->state == OWNERS_RELATION_FOUND)
			continue;
		if (!missing++)
			rc = owners_buf_adds(out, "Uses, not there:\n");
		if (!rc)
			rc = owners_buf_adds(out, "  ");
		if (!rc)
			rc = owners_relation_render_used(out, rel, r->g, x, 0);
		if (!rc)
			rc = owners_buf_addf(out, " (%s): ",
					     x->state == OWNERS_RELATION_MISSING
						     ? "missing"
						     : "unknown: its type was not listed there");
		if (!rc)
			rc = owners_relation_render_how(out, rel, x);
		if (!rc)
			rc = owners_buf_addc(out, '\n');
	}
	return rc;
}

static int text_events(struct owners_buf *out, const struct owners_why_render *r)
{
	const struct owners_why_events *e = r->events;
	size_t i;
	int rc = 0;

	if (!e)
		return 0;
	if (e->error)
		return owners_buf_addf(out, "Events: could not be read (%s)\n", e->error);
	if (!e->count)
		rc = owners_buf_adds(out, "Events: none from the garbage collector");
	else
		rc = owners_buf_adds(out, "Events:");
	if (!rc && e->others)
		rc = owners_buf_addf(out, " (%zu other%s about the object)", e->others, plural(e->others));
	if (!rc)
		rc = owners_buf_adds(out, "\n");
	for (i = 0; !rc && i < e->count; i++)
		rc = owners_buf_addf(out, "  %s %s (x%lld, %s): %s\n", e->items[i].type, e->items[i].reason,
				     (long long)e->items[i].count, e->items[i].source, e->items[i].message);
	return rc;
}

/* A "collected" verdict is the cluster's GC's to carry out: what is known
 * of it running. */
static int text_rests_on(struct owners_buf *out, const struct owners_why_render *r)
{
	enum owners_collector_render_seen seen;
	int rc;

	if (!r->gc || r->why->verdict != OWNERS_WHY_COLLECTED)
		return 0;
	seen = owners_collector_render_seen_state(r->gc);
	rc = owners_buf_adds(out, "  rests on: the cluster's garbage collector running");
	rc = rc ? rc : owners_buf_adds(out, seen == OWNERS_COLLECTOR_RENDER_SEEN_STOPPED   ? ", and it appears not to be: "
					    : seen == OWNERS_COLLECTOR_RENDER_SEEN_RUNNING ? "; "
									     : ", which cannot be seen from here: ");
	rc = rc ? rc : owners_collector_render_evidence(out, r->gc);
	if (!rc && seen == OWNERS_COLLECTOR_RENDER_SEEN_STOPPED)
		rc = owners_buf_addf(out, " (`%s gc -n %s` does its work)",
				     r->print.program ? r->print.program : OWNERS_PROGRAM,
				     r->g->nodes[r->why->node].place->namespace_);
	return rc ? rc : owners_buf_addc(out, '\n');
}

int owners_why_render_text(struct owners_buf *out, const struct owners_why_render *r)
{
	size_t max = r->max_list ? r->max_list : DEFAULT_MAX_LIST;
	int rc = text_headline(out, r);

	if (!rc)
		rc = owners_buf_addf(out, "  rule: %s\n", r->why->rule ? r->why->rule : "");
	if (!rc)
		rc = text_rests_on(out, r);
	if (!rc)
		rc = text_owners(out, r);
	if (!rc)
		rc = text_finalizers(out, r, max);
	if (!rc)
		rc = text_cascades(out, r);
	if (!rc)
		rc = text_dependents(out, r, max);
	if (!rc)
		rc = text_relations(out, r, max);
	if (!rc)
		rc = text_events(out, r);
	return rc;
}

/* ---- JSON ---------------------------------------------------------------- */

static int json_object(struct owners_json_gen *j, const struct owners_node *n)
{
	owners_json_gen_map_open(j);
	owners_node_json_identity(j, n);
	return owners_json_gen_map_close(j);
}

static int json_owner(struct owners_json_gen *j, const struct owners_graph *g,
		      const struct owners_why_owner *o)
{
	const struct owners_ref *ref = &g->nodes[o->dependent].refs[o->ref];
	const struct owners_node *on = o->node != OWNERS_NO_NODE ? &g->nodes[o->node] : NULL;
	const char *how = o->class_ == OWNERS_REF_RESOLVED && on ? owners_why_deletion(on) : NULL;

	owners_json_gen_map_open(j);
	owners_ref_json_fields(j, g, ref);
	if (on && *on->place->namespace_ && on->place->resource && on->place->resource->namespaced)
		owners_json_gen_kv(j, "namespace", on->place->namespace_);
	owners_json_gen_kv(j, "dependentUid", OWNERS_NODE_UID(&g->nodes[o->dependent]));
	owners_json_gen_kv_int(j, "depth", o->depth);
	owners_json_gen_kv(j, "state", owners_why_owner_state(g, o));
	owners_json_gen_kv(j, "deletion", how);
	owners_json_gen_kv_bool(j, "solid", o->solid);
	owners_json_gen_kv_bool(j, "blocks", o->blocks);
	owners_json_gen_kv_bool(j, "gcBlind", o->gc_blind);
	return owners_json_gen_map_close(j);
}

static int json_finalizer(struct owners_json_gen *j, const struct owners_why_render *r,
			  const struct owners_why_finalizer *f)
{
	const struct owners_node *n = &r->g->nodes[r->why->node];
	const struct owners_stuck_finalizer *now = f->now;
	size_t k;

	owners_json_gen_map_open(j);
	owners_json_gen_kv(j, "name", f->name);
	owners_json_gen_kv(j, "field", f->spec ? "spec.finalizers" : "metadata.finalizers");
	owners_json_gen_string(j, "remover");
	if (f->remover)
		owners_json_gen_string(j, f->remover);
	else
		owners_json_gen_null(j);
	owners_json_gen_kv(j, "waitsFor", f->waits_for);
	if (now) {
		owners_json_gen_kv(j, "reason", owners_stuck_reason_name(now->reason));
		owners_json_gen_kv(j, "message", now->message);
		owners_json_gen_string(j, "objects");
		owners_json_gen_array_open(j);
		for (k = 0; k < now->n_objects; k++)
			json_object(j, &r->g->nodes[now->objects[k]]);
		owners_json_gen_array_close(j);
		if (now->n_content || now->content_unlisted) {
			owners_json_gen_string(j, "content");
			owners_json_gen_array_open(j);
			for (k = 0; k < now->n_content; k++) {
				owners_json_gen_map_open(j);
				owners_json_gen_kv(j, "resource", now->content[k].resource->resource);
				owners_json_gen_kv(j, "group", now->content[k].resource->group);
				owners_json_gen_kv_int(j, "count", (long long)now->content[k].count);
				owners_json_gen_map_close(j);
			}
			owners_json_gen_array_close(j);
			owners_json_gen_kv_int(j, "contentTypesNotListed", (long long)now->content_unlisted);
		}
		if (now->n_conditions) {
			owners_json_gen_string(j, "conditions");
			owners_json_gen_array_open(j);
			for (k = 0; k < now->n_conditions; k++) {
				owners_json_gen_map_open(j);
				owners_json_gen_kv(j, "type", now->conditions[k]->type);
				owners_json_gen_kv(j, "reason", now->conditions[k]->reason);
				owners_json_gen_kv(j, "message", now->conditions[k]->message);
				owners_json_gen_map_close(j);
			}
			owners_json_gen_array_close(j);
		}
		if (now->n_pods) {
			owners_json_gen_string(j, "pods");
			owners_json_gen_array_open(j);
			for (k = 0; k < now->n_pods; k++) {
				owners_json_gen_map_open(j);
				owners_json_gen_kv(j, "name", now->pods[k]->pod);
				owners_json_gen_kv_bool(j, "holds", owners_pod_holds_claim(now->pods[k], n->name));
				owners_json_gen_map_close(j);
			}
			owners_json_gen_array_close(j);
		}
	}
	if (!f->remover && !f->spec) {
		struct owners_buf cmd = OWNERS_BUF_INIT;
		int rc = remove_command(&cmd, NULL, n, f);

		if (!rc)
			owners_json_gen_kv(j, "remove", cmd.ptr);
		owners_buf_clear(&cmd);
		if (rc)
			return rc;
		owners_json_gen_kv(j, "risk", risk);
	}
	return owners_json_gen_map_close(j);
}

static int json_cascades(struct owners_json_gen *j, const struct owners_why_render *r)
{
	const struct owners_why *w = r->why;
	size_t i, k;
	int m;

	owners_json_gen_string(j, "ifDeleted");
	owners_json_gen_array_open(j);
	for (i = 0; i < w->n_cascades; i++) {
		const struct owners_why_cascade *c = &w->cascades[i];

		owners_json_gen_map_open(j);
		if (c->self) {
			owners_json_gen_kv_bool(j, "self", 1);
		} else {
			for (k = 0; k < w->n_owners && w->owners[k].node != c->root; k++)
				;
			owners_json_gen_string(j, "owner");
			if (k < w->n_owners)
				json_owner(j, r->g, &w->owners[k]);
			else
				json_object(j, &r->g->nodes[c->root]);
		}
		for (m = 0; m < OWNERS_WHY_MODES; m++) {
			if (!c->self) {
				owners_json_gen_kv(j, mode_names[m], owners_why_outcome_name(c->outcome[m]));
				continue;
			}
			owners_json_gen_string(j, mode_names[m]);
			owners_json_gen_map_open(j);
			owners_json_gen_kv_int(j, "collected", (long long)c->collected[m]);
			owners_json_gen_kv_int(j, "released", (long long)c->released[m]);
			owners_json_gen_kv_int(j, "kept", (long long)c->kept[m]);
			owners_json_gen_map_close(j);
		}
		owners_json_gen_map_close(j);
	}
	return owners_json_gen_array_close(j);
}

static void json_relations(struct owners_json_gen *j, const struct owners_why_render *r)
{
	const struct owners_usage *u = r->usage;
	const size_t *at;
	size_t i, n = owners_relations_uses_of(r->rel, r->why->node, &at);

	owners_json_gen_string(j, "usedBy");
	owners_json_gen_array_open(j);
	for (i = 0; i < u->n_users; i++) {
		owners_json_gen_map_open(j);
		owners_relation_render_json(j, r->rel, r->g, &r->rel->items[u->users[i]]);
		owners_json_gen_map_close(j);
	}
	owners_json_gen_array_close(j);
	owners_json_gen_string(j, "usersUnseen");
	owners_json_gen_array_open(j);
	for (i = 0; i < u->n_unseen; i++) {
		owners_json_gen_map_open(j);
		owners_json_gen_kv(j, "resource", u->unseen[i].type->resource);
		owners_json_gen_kv(j, "group", u->unseen[i].type->group);
		if (u->unseen[i].namespace_)
			owners_json_gen_kv(j, "namespace", u->unseen[i].namespace_);
		owners_json_gen_kv(j, "message", owners_usage_unseen_why(&u->unseen[i]));
		owners_json_gen_map_close(j);
	}
	owners_json_gen_array_close(j);
	owners_json_gen_string(j, "usesMissing");
	owners_json_gen_array_open(j);
	for (i = 0; i < n; i++) {
		if (r->rel->items[at[i]].state == OWNERS_RELATION_FOUND)
			continue;
		owners_json_gen_map_open(j);
		owners_relation_render_json(j, r->rel, r->g, &r->rel->items[at[i]]);
		owners_json_gen_map_close(j);
	}
	owners_json_gen_array_close(j);
}

static int json_body(struct owners_json_gen *j, const struct owners_why_render *r)
{
	const struct owners_graph *g = r->g;
	const struct owners_why *w = r->why;
	const struct owners_why_events *e = r->events;
	size_t i;

	owners_document_open(j, "OwnersWhy");
	owners_document_items(j);
	/* one item: the object asked about, what decides its fate under owners */
	owners_json_gen_map_open(j);
	owners_document_object(j, g, &g->nodes[w->node]);
	owners_document_facts(j);
	owners_json_gen_kv(j, "verdict", owners_why_verdict_name(w->verdict));
	owners_json_gen_kv(j, "rule", w->rule);
	if (w->deadlock && owners_deadlock_json(j, g, w->deadlock))
		return OWNERS_ENOMEM;
	owners_json_gen_string(j, "because");
	if (w->because != OWNERS_NO_NODE)
		json_owner(j, g, &w->owners[w->because]);
	else
		owners_json_gen_null(j);
	owners_json_gen_string(j, "after");
	if (w->after != OWNERS_NO_NODE) {
		owners_json_gen_map_open(j);
		owners_node_json_identity(j, &g->nodes[w->after]);
		owners_json_gen_map_close(j);
	} else {
		owners_json_gen_null(j);
	}
	owners_json_gen_string(j, "owners");
	owners_json_gen_array_open(j);
	for (i = 0; i < w->n_owners; i++)
		json_owner(j, g, &w->owners[i]);
	owners_json_gen_array_close(j);
	owners_json_gen_string(j, "finalizers");
	owners_json_gen_array_open(j);
	for (i = 0; i < w->n_finalizers; i++)
		if (json_finalizer(j, r, &w->finalizers[i]))
			return OWNERS_ENOMEM;
	owners_json_gen_array_close(j);
	json_cascades(j, r);
	owners_json_gen_string(j, "dependents");
	owners_json_gen_map_open(j);
	owners_json_gen_kv_int(j, "count", (long long)w->n_dependents);
	owners_json_gen_string(j, "kinds");
	owners_json_gen_array_open(j);
	for (i = 0; i < w->n_dependent_kinds; i++) {
		owners_json_gen_map_open(j);
		owners_json_gen_kv(j, "kind", w->dependent_kinds[i].kind);
		owners_json_gen_kv_int(j, "count", (long long)w->dependent_kinds[i].count);
		owners_json_gen_map_close(j);
	}
	owners_json_gen_array_close(j);
	owners_json_gen_string(j, "blocking");
	owners_json_gen_array_open(j);
	for (i = 0; i < w->n_blocking; i++)
		json_object(j, &g->nodes[w->blocking[i]]);
	owners_json_gen_array_close(j);
	owners_json_gen_map_close(j);
	owners_json_gen_string(j, "events");
	owners_json_gen_array_open(j);
	for (i = 0; e && i < e->count; i++) {
		owners_json_gen_map_open(j);
		owners_json_gen_kv(j, "type", e->items[i].type);
		owners_json_gen_kv(j, "reason", e->items[i].reason);
		owners_json_gen_kv(j, "message", e->items[i].message);
		owners_json_gen_kv(j, "source", e->items[i].source);
		owners_json_gen_kv_int(j, "count", (long long)e->items[i].count);
		owners_json_gen_kv_time(j, "lastTimestamp", e->items[i].last);
		owners_json_gen_map_close(j);
	}
	owners_json_gen_array_close(j);
	owners_json_gen_kv_int(j, "otherEvents", e ? (long long)e->others : 0);
	if (e && e->error)
		owners_json_gen_kv(j, "eventsError", e->error);
	if (r->gc)
		owners_collector_render_evidence_json(j, r->gc);
	if (r->rel && r->usage)
		json_relations(j, r);
	owners_json_gen_map_close(j); /* "owners" */
	owners_json_gen_map_close(j);
	return owners_document_close(j, r->print.warnings, r->print.n_warnings);
}

int owners_why_render_json(struct owners_buf *out, const struct owners_why_render *r)
{
	struct owners_json_gen *j;
	int rc;

	if (owners_json_gen_new(&j, out, 1))
		return OWNERS_ENOMEM;
	rc = json_body(j, r);
	if (!rc)
		rc = owners_json_gen_error(j);
	owners_json_gen_free(j);
	return rc;
}

int owners_why_render_names(struct owners_buf *out, const struct owners_why_render *r)
{
	int rc = owners_graph_node_name(out, &r->g->nodes[r->why->node]);

	return rc ? rc : owners_buf_addc(out, '\n');
}
