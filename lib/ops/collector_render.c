#include "collector_render.h"

#include <stdlib.h>
#include <string.h>

#include "cascade.h"
#include "deadlock.h"
#include "json.h"
#include "document_json.h"
#include "node_json.h"
#include "sort.h"
#include "stuck.h"
#include "timeutil.h"

static const char *plural(size_t n)
{
	return n == 1 ? "" : "s";
}

static int in_scope(const struct owners_collector_render *r, uint32_t k)
{
	return !r->scope || r->scope[k];
}

/* ---- counting ---------------------------------------------------------- */

int64_t owners_collector_render_step_due(const struct owners_graph *g, uint32_t node, const struct owners_collector_step *s)
{
	switch (s->kind) {
	case OWNERS_COLLECTOR_STEP_REMOVE_FOREGROUND:
	case OWNERS_COLLECTOR_STEP_REMOVE_ORPHAN:
	case OWNERS_COLLECTOR_STEP_RELEASE_DEPENDENTS: return g->nodes[node].extras->deleted;
	case OWNERS_COLLECTOR_STEP_DELETE:
		/* due since its owner entered foreground deletion */
		if (s->for_waiting_owner && s->owner != OWNERS_NO_NODE)
			return g->nodes[s->owner].extras->deleted;
		return 0;
	case OWNERS_COLLECTOR_STEP_UNBLOCK:
		return s->owner != OWNERS_NO_NODE ? g->nodes[s->owner].extras->deleted : 0;
	case OWNERS_COLLECTOR_STEP_WAIT:
		/* not due: waiting, since the object's deletion */
		return g->nodes[node].extras->deleted;
	case OWNERS_COLLECTOR_STEP_NONE:
	case OWNERS_COLLECTOR_STEP_STRIP:
		break;
	}
	return 0;
}

void owners_collector_render_backlog_count(struct owners_collector_render_backlog *b, const struct owners_graph *g,
			     const struct owners_collector_step *steps, const unsigned char *scope,
			     const struct owners_collector_outcome *fates, unsigned passes)
{
	uint32_t k;

	memset(b, 0, sizeof(*b));
	b->oldest_node = OWNERS_NO_NODE;
	b->passes = passes;
	for (k = 0; k < g->count; k++) {
		const struct owners_collector_step *s = &steps[k];
		int64_t due;

		if ((scope && !scope[k]) || g->nodes[k].virtual_)
			continue;
		if (fates && fates[k].kind == OWNERS_COLLECTOR_OUTCOME_COLLECTED)
			b->collected++;
		switch (s->kind) {
		case OWNERS_COLLECTOR_STEP_NONE: continue;
		case OWNERS_COLLECTOR_STEP_DELETE: b->deletions++; break;
		case OWNERS_COLLECTOR_STEP_STRIP: b->strips++; break;
		case OWNERS_COLLECTOR_STEP_UNBLOCK: b->unblocks++; break;
		case OWNERS_COLLECTOR_STEP_REMOVE_FOREGROUND:
		case OWNERS_COLLECTOR_STEP_REMOVE_ORPHAN: b->finalizer_removals++; break;
		case OWNERS_COLLECTOR_STEP_RELEASE_DEPENDENTS: b->releases++; break;
		case OWNERS_COLLECTOR_STEP_WAIT:
			b->waits++;
			b->gives_up += s->wait == OWNERS_COLLECTOR_WAIT_GIVES_UP;
			b->undecided += s->wait == OWNERS_COLLECTOR_WAIT_UNDECIDED;
			b->deadlocked += s->wait == OWNERS_COLLECTOR_WAIT_DEADLOCK;
			continue;
		}
		due = owners_collector_render_step_due(g, k, s);
		/* of actions due in the same second, the first object in the
		 * node order: not the first the loop meets */
		if (due && (!b->oldest || due < b->oldest ||
			    (due == b->oldest && owners_graph_node_cmp(g, k, b->oldest_node) < 0))) {
			b->oldest = due;
			b->oldest_node = k;
		}
	}
}

size_t owners_collector_render_backlog_actions(const struct owners_collector_render_backlog *b)
{
	return b->deletions + b->strips + b->unblocks + b->finalizer_removals + b->releases;
}

int owners_collector_render_backlog_stalled(const struct owners_collector_render_backlog *b, int64_t now, int64_t after)
{
	return b->oldest && now - b->oldest >= after;
}

/* ---- words ------------------------------------------------------------- */

static int finalizer_list(struct owners_buf *out, const struct owners_node *n)
{
	uint32_t i;
	int rc = 0;

	for (i = 0; !rc && i < n->extras->n_finalizers; i++)
		rc = owners_buf_addf(out, "%s%s", i ? ", " : "", n->extras->finalizers[i]);
	return rc;
}

static int node_words(struct owners_buf *out, const struct owners_graph *g, uint32_t k)
{
	if (k == OWNERS_NO_NODE)
		return owners_buf_adds(out, "?");
	return owners_buf_addf(out, "%s/%s", g->nodes[k].place->kind, g->nodes[k].name);
}

/* The first reference of node that dangles now, "Kind/name: class". */
static int first_dangling(struct owners_buf *out, const struct owners_collector *c, uint32_t node)
{
	const struct owners_node *n = &c->g->nodes[node];
	uint32_t i, owner;

	for (i = 0; i < n->n_refs; i++) {
		size_t k = c->first_ref[node] + i;
		enum owners_ref_class cls = (enum owners_ref_class)c->ref[k].cls;

		if (c->ref[k].removed)
			continue;
		owner = owners_collector_found(c, node, k);
		if (cls == OWNERS_REF_RESOLVED && owner != OWNERS_NO_NODE && !c->node[owner].gone)
			continue;
		return owners_buf_addf(out, " (%s/%s: %s)", n->refs[i].type->kind, n->refs[i].name,
				       owners_ref_class_name(cls == OWNERS_REF_RESOLVED ? OWNERS_REF_ABSENT : cls));
	}
	return 0;
}

static int wait_reason(struct owners_buf *out, const struct owners_collector *c, uint32_t node,
		       const struct owners_collector_step *s)
{
	const struct owners_node *n = &c->g->nodes[node];
	const struct owners_ref *ref = s->ref != OWNERS_NO_NODE ? &n->refs[s->ref] : NULL;
	int rc;

	switch (s->wait) {
	case OWNERS_COLLECTOR_WAIT_FINALIZERS:
		if (owners_stuck_is_namespace(n)) {
			/* spec.finalizers: not in the scan, and always the
			 * namespace controller's while it holds the object */
			rc = owners_buf_adds(out, "in deletion; waits on the namespace controller to empty it and "
					     "remove spec.finalizers " OWNERS_FINALIZER_NAMESPACE);
			if (!rc && n->extras->n_finalizers)
				rc = owners_buf_adds(out, ", and on others' finalizers: ");
			return rc ? rc : finalizer_list(out, n);
		}
		rc = owners_buf_adds(out, "in deletion; waits on others' finalizers: ");
		return rc ? rc : finalizer_list(out, n);
	case OWNERS_COLLECTOR_WAIT_BLOCKING:
		return owners_buf_addf(out, "foreground deletion waits on %u blocking dependent%s", s->count,
				       plural(s->count));
	case OWNERS_COLLECTOR_WAIT_GIVES_UP:
		switch ((enum owners_ref_class)c->ref[c->first_ref[node] + s->ref].cls) {
		case OWNERS_REF_UNRESOLVABLE:
			return owners_buf_addf(out, "the GC cannot map owner %s %s/%s (not served): it never acts "
					       "on the object", ref->type->api_version, ref->type->kind, ref->name);
		case OWNERS_REF_INVALID_NAMESPACE:
			return owners_buf_addf(out, "owner %s/%s is namespaced and the object cluster-scoped: the "
					       "GC never acts on it", ref->type->kind, ref->name);
		default:
			/* a dump (no discovery) that lacks the owner's kind or
			 * its list: neither failed, it is not in the file */
			if (c->g->types->built_from_objects)
				return owners_buf_addf(out, "owner %s %s/%s is of a kind or in a list the file "
						       "does not hold (a dump has no discovery): what the GC does "
						       "with the object cannot be told from it",
						       ref->type->api_version, ref->type->kind, ref->name);
			return owners_buf_addf(out, "the GC cannot look up owner %s %s/%s (its API group failed "
					       "discovery or its list failed): it acts on nothing of the object "
					       "until it can", ref->type->api_version, ref->type->kind, ref->name);
		}
	case OWNERS_COLLECTOR_WAIT_UNDECIDED:
		return owners_buf_addf(out, "owner %s/%s could not be looked up by this user: kept, not "
				       "decided", ref->type->kind, ref->name);
	case OWNERS_COLLECTOR_WAIT_OWNER_LIVE:
		return owners_buf_addf(out, "owner %s/%s, missing from the lists, is there when read: kept, "
				       "decided again on the next scan", ref->type->kind, ref->name);
	case OWNERS_COLLECTOR_WAIT_DEADLOCK:
		return owners_deadlocks_of(c->deadlocks, node)
			       ? owners_deadlock_explain(out, NULL, c->g, owners_deadlocks_of(c->deadlocks, node))
			       : owners_buf_adds(out, "deadlock");
	}
	return 0;
}

int owners_collector_render_step_reason(struct owners_buf *out, const struct owners_collector *c, uint32_t node,
			  const struct owners_collector_step *s)
{
	const struct owners_graph *g = c->g;
	int rc = 0;

	switch (s->kind) {
	case OWNERS_COLLECTOR_STEP_NONE: return 0;
	case OWNERS_COLLECTOR_STEP_WAIT: return wait_reason(out, c, node, s);
	case OWNERS_COLLECTOR_STEP_DELETE:
		if (s->for_waiting_owner) {
			rc = owners_buf_adds(out, "owner ");
			rc = rc ? rc : node_words(out, g, s->owner);
			return rc ? rc : owners_buf_adds(out, " waits for its dependents, and this one has "
						       "dependents of its own");
		}
		rc = owners_buf_adds(out, "no owner is solid");
		return rc ? rc : first_dangling(out, c, node);
	case OWNERS_COLLECTOR_STEP_STRIP:
		rc = owners_buf_adds(out, "owner ");
		rc = rc ? rc : node_words(out, g, s->owner);
		return rc ? rc : owners_buf_addf(out, " is solid: the reference%s to owners gone or in "
						"foreground deletion come%s off",
						plural(s->count), s->count == 1 ? "s" : "");
	case OWNERS_COLLECTOR_STEP_UNBLOCK:
		rc = owners_buf_adds(out, "cycle: dependent ");
		rc = rc ? rc : node_words(out, g, s->owner);
		return rc ? rc : owners_buf_adds(out, " is in foreground deletion too: blockOwnerDeletion "
					       "off, then deleted in the foreground");
	case OWNERS_COLLECTOR_STEP_REMOVE_FOREGROUND:
		return owners_buf_adds(out, "no blocking dependent is left");
	case OWNERS_COLLECTOR_STEP_RELEASE_DEPENDENTS:
		return owners_buf_addf(out, "%u dependent%s lose%s the reference, then the finalizer comes off",
				       s->count, plural(s->count), s->count == 1 ? "s" : "");
	case OWNERS_COLLECTOR_STEP_REMOVE_ORPHAN:
		return owners_buf_adds(out, "every dependent is released");
	}
	return 0;
}

int owners_collector_render_step_action_text(struct owners_buf *out, const struct owners_collector_step *s)
{
	switch (s->kind) {
	case OWNERS_COLLECTOR_STEP_DELETE:
		return owners_buf_addf(out, "delete (%s)", owners_collector_policy_name(s->policy));
	case OWNERS_COLLECTOR_STEP_STRIP:
		return owners_buf_addf(out, "remove %u reference%s", s->count, plural(s->count));
	case OWNERS_COLLECTOR_STEP_UNBLOCK: return owners_buf_adds(out, "unblock references");
	case OWNERS_COLLECTOR_STEP_REMOVE_FOREGROUND:
		return owners_buf_adds(out, "remove finalizer " OWNERS_FINALIZER_FOREGROUND);
	case OWNERS_COLLECTOR_STEP_REMOVE_ORPHAN:
		return owners_buf_adds(out, "remove finalizer " OWNERS_FINALIZER_ORPHAN);
	case OWNERS_COLLECTOR_STEP_RELEASE_DEPENDENTS:
		return owners_buf_addf(out, "release %u dependent%s", s->count, plural(s->count));
	case OWNERS_COLLECTOR_STEP_WAIT: return owners_buf_addf(out, "wait (%s)", owners_collector_wait_name(s->wait));
	case OWNERS_COLLECTOR_STEP_NONE: break;
	}
	return owners_buf_adds(out, "none");
}

/* ---- rows -------------------------------------------------------------- */

static int row_shown(const struct owners_collector_render *r, uint32_t k)
{
	const struct owners_collector_step *s = &r->steps[k];

	if (!in_scope(r, k) || r->c->g->nodes[k].virtual_)
		return 0;
	return owners_collector_step_acts(s) || (r->waits && s->kind == OWNERS_COLLECTOR_STEP_WAIT);
}

/* The graph's node order, then the UID: one row per object, in an order
 * that does not depend on the scan's. */
static int cmp_node(const void *pa, const void *pb, void *ctx)
{
	return owners_graph_node_order(ctx, *(const uint32_t *)pa, *(const uint32_t *)pb, 0);
}

/* The rows' nodes, in order; *rows is the caller's to free. */
static int rows_of(const struct owners_collector_render *r, uint32_t **rows, size_t *n)
{
	const struct owners_graph *g = r->c->g;
	uint32_t k;

	*n = 0;
	if (!(*rows = malloc(((size_t)g->count + 1) * sizeof(**rows))))
		return OWNERS_ENOMEM;
	for (k = 0; k < g->count; k++)
		if (row_shown(r, k))
			(*rows)[(*n)++] = k;
	owners_qsort_r(*rows, *n, sizeof(**rows), cmp_node, (void *)g);
	return 0;
}

/* ---- the objects an action changes -------------------------------------- */

/* Whether dependent dep still refers to node with a reference this pass
 * drops (release) or that blocks node's deletion (wait). */
static int refers(const struct owners_collector *c, uint32_t dep, uint32_t node, int blocking)
{
	const struct owners_node *d = &c->g->nodes[dep];
	uint32_t i;

	for (i = 0; i < d->n_refs; i++) {
		size_t k = c->first_ref[dep] + i;

		if (d->refs[i].owner != node || c->ref[k].removed)
			continue;
		if (blocking ? d->refs[i].block_owner_deletion && !c->ref[k].unblocked
			     : c->ref[k].drop)
			return 1;
	}
	return 0;
}

static size_t dependents_that(const struct owners_collector *c, uint32_t node, int blocking, uint32_t *out)
{
	const struct owners_node *n = &c->g->nodes[node];
	size_t m = 0;
	uint32_t j;

	/* owners_graph_link() lists each dependent once */
	for (j = 0; j < n->n_dependents; j++)
		if (!c->node[owners_graph_dependents(c->g, n)[j]].gone &&
		    refers(c, owners_graph_dependents(c->g, n)[j], node, blocking))
			out[m++] = owners_graph_dependents(c->g, n)[j];
	return m;
}

/* The owners whose references a strip removes from node. */
static size_t stripped_owners(const struct owners_collector *c, uint32_t node, uint32_t *out)
{
	const struct owners_node *n = &c->g->nodes[node];
	size_t m = 0;
	uint32_t i;

	for (i = 0; i < n->n_refs; i++)
		if (c->ref[c->first_ref[node] + i].drop && n->refs[i].owner != OWNERS_NO_NODE)
			out[m++] = n->refs[i].owner;
	return m;
}

/* The objects in scope the GC collects once node is gone, for its going. */
static size_t collected_after(const struct owners_collector_render *r, uint32_t node, uint32_t *out)
{
	const struct owners_collector *c = r->c;
	size_t m = 0;
	uint32_t k;

	for (k = 0; c->ends && k < c->g->count; k++)
		if (in_scope(r, k) && c->ends[k].kind == OWNERS_COLLECTOR_OUTCOME_COLLECTED && c->ends[k].through == node)
			out[m++] = k;
	return m;
}

/* The objects the step of node changes besides node itself (out has room
 * for every node), in the rows' order: the dependents a release releases,
 * the blocking dependents a foreground deletion waits on, the owners whose
 * references come off, the objects collected after a deletion. */
static size_t step_objects(const struct owners_collector_render *r, uint32_t node, uint32_t *out)
{
	const struct owners_collector_step *s = &r->steps[node];
	size_t m = 0;

	switch (s->kind) {
	case OWNERS_COLLECTOR_STEP_RELEASE_DEPENDENTS: m = dependents_that(r->c, node, 0, out); break;
	case OWNERS_COLLECTOR_STEP_STRIP: m = stripped_owners(r->c, node, out); break;
	case OWNERS_COLLECTOR_STEP_DELETE: m = collected_after(r, node, out); break;
	case OWNERS_COLLECTOR_STEP_WAIT:
		if (s->wait == OWNERS_COLLECTOR_WAIT_BLOCKING)
			m = dependents_that(r->c, node, 1, out);
		break;
	default: break;
	}
	owners_qsort_r(out, m, sizeof(*out), cmp_node, (void *)r->c->g);
	return m;
}

/* Its document key, or NULL when the action names no other object. */
static const char *step_objects_key(const struct owners_collector_step *s)
{
	switch (s->kind) {
	case OWNERS_COLLECTOR_STEP_RELEASE_DEPENDENTS: return "releases";
	case OWNERS_COLLECTOR_STEP_STRIP: return "removesReferencesTo";
	case OWNERS_COLLECTOR_STEP_DELETE: return "thenCollected";
	case OWNERS_COLLECTOR_STEP_WAIT: return s->wait == OWNERS_COLLECTOR_WAIT_BLOCKING ? "blockedBy" : NULL;
	default: return NULL;
	}
}

enum col { C_NS, C_OBJECT, C_HANDLER, C_ACTION, C_OBJECTS, C_SINCE, C_WHY, N_COLS };
static const char *const headers[N_COLS] = { "NAMESPACE", "OBJECT", "HANDLER", "ACTION", "OBJECTS", "SINCE", "WHY" };

/* OBJECTS (-o wide): the step_objects(), "Kind/name" (with the namespace
 * where it is not the row's), "-" for none; after a deletion, "then ...". */
static int objects_cell(struct owners_buf *b, const struct owners_collector_render *r, uint32_t k, uint32_t *scratch)
{
	const struct owners_graph *g = r->c->g;
	size_t m = step_objects(r, k, scratch), i;
	int rc = 0;

	if (!m)
		return owners_buf_adds(b, "-");
	if (r->steps[k].kind == OWNERS_COLLECTOR_STEP_DELETE)
		rc = owners_buf_adds(b, "then ");
	for (i = 0; !rc && i < m; i++) {
		const struct owners_node *o = &g->nodes[scratch[i]];

		rc = owners_buf_addf(b, "%s%s/%s", i ? ", " : "", o->place->kind, o->name);
		if (!rc && *o->place->namespace_ && strcmp(o->place->namespace_, g->nodes[k].place->namespace_))
			rc = owners_buf_addf(b, " (namespace %s)", o->place->namespace_);
	}
	return rc;
}

static int cell(struct owners_buf *b, const struct owners_collector_render *r, uint32_t k, enum col col,
		uint32_t *scratch)
{
	const struct owners_node *n = &r->c->g->nodes[k];
	const struct owners_collector_step *s = &r->steps[k];
	int64_t due;

	owners_buf_reset(b);
	switch (col) {
	case C_NS: return owners_buf_adds(b, *n->place->namespace_ ? n->place->namespace_ : "-");
	case C_OBJECT: return owners_buf_addf(b, "%s/%s", n->place->kind, n->name);
	case C_HANDLER: return owners_buf_adds(b, owners_collector_handler_name(s->handler));
	case C_ACTION: return owners_collector_render_step_action_text(b, s);
	case C_OBJECTS: return objects_cell(b, r, k, scratch);
	case C_SINCE:
		due = owners_collector_render_step_due(r->c->g, k, s);
		return due ? owners_time_format_age(b, r->print.now > due ? r->print.now - due : 0) : owners_buf_adds(b, "-");
	case C_WHY: return owners_collector_render_step_reason(b, r->c, k, s);
	case N_COLS: break;
	}
	return 0;
}

static int pad(struct owners_buf *out, size_t n)
{
	int rc = 0;

	while (!rc && n--)
		rc = owners_buf_addc(out, ' ');
	return rc;
}

/* OBJECTS is -o wide's; the last column shown ends the line. */
static int col_shown(const struct owners_collector_render *r, int c)
{
	return c != C_OBJECTS || r->print.wide;
}

static int end_cell(struct owners_buf *out, int c, size_t width, size_t len)
{
	return c + 1 < N_COLS ? pad(out, width - len + 3) : owners_buf_addc(out, '\n');
}

int owners_collector_render_text(struct owners_buf *out, const struct owners_collector_render *r)
{
	struct owners_buf b = OWNERS_BUF_INIT;
	size_t width[N_COLS], n, i;
	uint32_t *rows = NULL, *scratch = NULL;
	int rc, c;

	if ((rc = rows_of(r, &rows, &n)) || !n ||
	    !(scratch = malloc(((size_t)r->c->g->count + 1) * sizeof(*scratch)))) {
		free(rows);
		return rc ? rc : n ? OWNERS_ENOMEM : 0;
	}
	for (c = 0; c < N_COLS; c++)
		width[c] = r->print.no_headers ? 0 : strlen(headers[c]);
	for (i = 0; !rc && i < n; i++)
		for (c = 0; !rc && c < N_COLS; c++)
			if (col_shown(r, c) && !(rc = cell(&b, r, rows[i], (enum col)c, scratch)) && b.len > width[c])
				width[c] = b.len;
	for (c = 0; !rc && !r->print.no_headers && c < N_COLS; c++)
		if (col_shown(r, c) && !(rc = owners_buf_adds(out, headers[c])))
			rc = end_cell(out, c, width[c], strlen(headers[c]));
	for (i = 0; !rc && i < n; i++) {
		for (c = 0; !rc && c < N_COLS; c++) {
			if (!col_shown(r, c))
				continue;
			if (!(rc = cell(&b, r, rows[i], (enum col)c, scratch)))
				rc = owners_buf_add(out, b.ptr ? b.ptr : "", b.len);
			if (!rc)
				rc = end_cell(out, c, width[c], b.len);
		}
	}
	owners_buf_clear(&b);
	free(scratch);
	free(rows);
	return rc;
}

int owners_collector_render_summary(struct owners_buf *out, const struct owners_collector_render *r)
{
	const struct owners_collector_render_backlog *b = r->backlog;
	int rc = owners_buf_addf(out,
				 "%zu deletion%s, %zu reference removal%s, %zu finalizer removal%s, %zu release%s, "
				 "%zu unblock%s; %zu waiting",
				 b->deletions, plural(b->deletions), b->strips, plural(b->strips),
				 b->finalizer_removals, plural(b->finalizer_removals), b->releases,
				 plural(b->releases), b->unblocks, plural(b->unblocks), b->waits);

	if (!rc && (b->gives_up || b->undecided))
		rc = owners_buf_addf(out, " (%zu the GC gives up on, %zu undecided)", b->gives_up, b->undecided);
	if (!rc && b->deadlocked)
		rc = owners_buf_addf(out, " (%zu in a deadlock: see above)", b->deadlocked);
	if (!rc && b->oldest) {
		rc = owners_buf_adds(out, "; oldest due ");
		rc = rc ? rc : owners_time_format_age(out, r->print.now > b->oldest ? r->print.now - b->oldest : 0);
		rc = rc ? rc : owners_buf_adds(out, " (");
		rc = rc ? rc : node_words(out, r->c->g, b->oldest_node);
		rc = rc ? rc : owners_buf_adds(out, ")");
	}
	if (!rc && b->passes)
		rc = owners_buf_addf(out, "; when the GC is done: %zu object%s collected in %u pass%s", b->collected,
				     plural(b->collected), b->passes, b->passes == 1 ? "" : "es");
	return rc ? rc : owners_buf_addc(out, '\n');
}

/* The lease unrenewed past its duration: no controller-manager leads. An
 * expired lease is a fact, not a judgement of slowness: --stalled-after
 * does not delay it. */
static int lease_expired(const struct owners_collector_render *r)
{
	return r->lease_renewed && r->print.now - r->lease_renewed >= (r->lease_duration > 0 ? r->lease_duration : 15);
}

const char *owners_collector_render_seen_name(enum owners_collector_render_seen s)
{
	switch (s) {
	case OWNERS_COLLECTOR_RENDER_SEEN_RUNNING: return "running";
	case OWNERS_COLLECTOR_RENDER_SEEN_STOPPED: return "appears-stopped";
	case OWNERS_COLLECTOR_RENDER_SEEN_UNKNOWN: break;
	}
	return "unknown";
}

enum owners_collector_render_seen owners_collector_render_seen_state(const struct owners_collector_render *r)
{
	if (owners_collector_render_backlog_stalled(r->backlog, r->print.now, r->stalled_after) || lease_expired(r))
		return OWNERS_COLLECTOR_RENDER_SEEN_STOPPED;
	return r->lease_renewed ? OWNERS_COLLECTOR_RENDER_SEEN_RUNNING : OWNERS_COLLECTOR_RENDER_SEEN_UNKNOWN;
}

static int oldest_words(struct owners_buf *out, const struct owners_collector_render *r)
{
	const struct owners_collector_render_backlog *b = r->backlog;
	const struct owners_collector_step *s = &r->steps[b->oldest_node];
	int rc = owners_buf_adds(out, "oldest pending action: ");

	rc = rc ? rc : owners_time_format_age(out, r->print.now - b->oldest);
	rc = rc ? rc : owners_buf_adds(out, ", ");
	rc = rc ? rc : owners_collector_render_step_action_text(out, s);
	rc = rc ? rc : owners_buf_adds(out, " on ");
	rc = rc ? rc : node_words(out, r->c->g, b->oldest_node);
	rc = rc ? rc : owners_buf_adds(out, ": ");
	return rc ? rc : owners_collector_render_step_reason(out, r->c, b->oldest_node, s);
}

static int lease_words(struct owners_buf *out, const struct owners_collector_render *r)
{
	int rc;

	if (!r->lease_renewed) {
		rc = owners_buf_adds(out, "the controller-manager's leader lease (kube-system/kube-controller-manager) ");
		if (!rc && r->lease_rc == OWNERS_EFORBIDDEN)
			return owners_buf_adds(out, "cannot be read: forbidden");
		if (!rc && r->lease_rc == OWNERS_ENOTFOUND)
			return owners_buf_adds(out, "does not exist (no leader election, or it runs elsewhere)");
		if (!rc && !r->lease_rc)
			return owners_buf_adds(out, "has no holder");
		return rc ? rc : owners_buf_addf(out, "could not be read (%s)", owners_errcode_name(r->lease_rc));
	}
	rc = owners_buf_addf(out, "the controller-manager's leader lease was %srenewed ",
			     lease_expired(r) ? "last " : "");
	rc = rc ? rc : owners_time_format_age(out, r->print.now > r->lease_renewed ? r->print.now - r->lease_renewed : 0);
	rc = rc ? rc : owners_buf_adds(out, " ago");
	if (!rc && lease_expired(r))
		rc = owners_buf_addf(out, ", past its %lds", r->lease_duration > 0 ? r->lease_duration : 15L);
	return rc;
}

int owners_collector_render_evidence(struct owners_buf *out, const struct owners_collector_render *r)
{
	int by_backlog = owners_collector_render_backlog_stalled(r->backlog, r->print.now, r->stalled_after);
	int rc = by_backlog ? oldest_words(out, r) : 0;

	/* when stopped, the lease is said only as evidence of it */
	if (!rc && (!by_backlog || lease_expired(r)))
		rc = owners_buf_adds(out, by_backlog ? "; " : "");
	if (!rc && (!by_backlog || lease_expired(r)))
		rc = lease_words(out, r);
	return rc;
}

int owners_collector_render_stalled(struct owners_buf *out, const struct owners_collector_render *r)
{
	int rc;

	if (owners_collector_render_seen_state(r) != OWNERS_COLLECTOR_RENDER_SEEN_STOPPED)
		return 0;
	rc = owners_buf_adds(out, "the garbage collector appears not to be running (");
	rc = rc ? rc : owners_collector_render_evidence(out, r);
	return rc ? rc : owners_buf_addf(out, "): `%s gc` does its work\n",
					 r->print.program ? r->print.program : OWNERS_PROGRAM);
}

/* ---- document ---------------------------------------------------------- */

/* "key": {apiVersion, kind, namespace, name, uid} */
static void json_object(struct owners_json_gen *j, const char *key, const struct owners_node *n)
{
	owners_json_gen_string(j, key);
	owners_json_gen_map_open(j);
	owners_node_json_identity(j, n);
	owners_json_gen_map_close(j);
}

/* "releases" | "blockedBy" | "removesReferencesTo" | "thenCollected": [REF...] */
static void json_step_objects(struct owners_json_gen *j, const struct owners_collector_render *r, uint32_t k,
			      uint32_t *scratch)
{
	const char *key = step_objects_key(&r->steps[k]);
	size_t m, i;

	if (!key)
		return;
	m = step_objects(r, k, scratch);
	owners_json_gen_string(j, key);
	owners_json_gen_array_open(j);
	for (i = 0; i < m; i++) {
		owners_json_gen_map_open(j);
		owners_node_json_identity(j, &r->c->g->nodes[scratch[i]]);
		owners_json_gen_map_close(j);
	}
	owners_json_gen_array_close(j);
}

static void json_step(struct owners_json_gen *j, struct owners_buf *b, const struct owners_collector_render *r,
		      uint32_t k, uint32_t *scratch)
{
	const struct owners_graph *g = r->c->g;
	const struct owners_collector_step *s = &r->steps[k];
	int64_t due = owners_collector_render_step_due(g, k, s);

	owners_json_gen_map_open(j);
	owners_document_object(j, g, &g->nodes[k]);
	owners_document_facts(j);
	owners_json_gen_kv(j, "handler", owners_collector_handler_name(s->handler));
	owners_json_gen_kv(j, "action", owners_collector_step_name(s->kind));
	if (s->kind == OWNERS_COLLECTOR_STEP_DELETE)
		owners_json_gen_kv(j, "propagationPolicy", owners_collector_policy_name(s->policy));
	if (s->kind == OWNERS_COLLECTOR_STEP_REMOVE_FOREGROUND || s->kind == OWNERS_COLLECTOR_STEP_REMOVE_ORPHAN)
		owners_json_gen_kv(j, "finalizer", s->kind == OWNERS_COLLECTOR_STEP_REMOVE_ORPHAN ? OWNERS_FINALIZER_ORPHAN
											 : OWNERS_FINALIZER_FOREGROUND);
	if (s->kind == OWNERS_COLLECTOR_STEP_WAIT)
		owners_json_gen_kv(j, "waitsOn", owners_collector_wait_name(s->wait));
	if (s->kind == OWNERS_COLLECTOR_STEP_STRIP || s->kind == OWNERS_COLLECTOR_STEP_RELEASE_DEPENDENTS ||
	    (s->kind == OWNERS_COLLECTOR_STEP_WAIT &&
	     (s->wait == OWNERS_COLLECTOR_WAIT_BLOCKING || s->wait == OWNERS_COLLECTOR_WAIT_DEADLOCK)))
		owners_json_gen_kv_int(j, "count", s->count);
	if (s->kind == OWNERS_COLLECTOR_STEP_WAIT && s->wait == OWNERS_COLLECTOR_WAIT_DEADLOCK)
		if (owners_deadlocks_of(r->c->deadlocks, k) &&
		    owners_deadlock_json(j, g, owners_deadlocks_of(r->c->deadlocks, k)))
			owners_json_gen_error(j); /* the generator's error stands; nothing to add */
	if (s->owner != OWNERS_NO_NODE) {
		json_object(j, s->kind == OWNERS_COLLECTOR_STEP_UNBLOCK ? "dependent" : "owner", &g->nodes[s->owner]);
	}
	json_step_objects(j, r, k, scratch);
	owners_buf_reset(b);
	if (owners_collector_render_step_reason(b, r->c, k, s))
		owners_json_gen_error(j); /* the generator's error stands; nothing to add */
	owners_json_gen_kv(j, "reason", b->ptr ? b->ptr : "");
	if (due)
		owners_json_gen_kv_time(j, "since", due);
	else {
		owners_json_gen_string(j, "since");
		owners_json_gen_null(j);
	}
	owners_json_gen_map_close(j); /* "owners" */
	owners_json_gen_map_close(j);
}

void owners_collector_render_evidence_json(struct owners_json_gen *j, const struct owners_collector_render *r)
{
	struct owners_buf words = OWNERS_BUF_INIT;

	if (owners_collector_render_evidence(&words, r))
		owners_json_gen_error(j); /* the generator's error stands */
	owners_json_gen_string(j, "gcEvidence");
	owners_json_gen_map_open(j);
	owners_json_gen_kv(j, "state", owners_collector_render_seen_name(owners_collector_render_seen_state(r)));
	owners_json_gen_kv(j, "reason", words.ptr ? words.ptr : "");
	owners_json_gen_map_close(j);
	owners_buf_clear(&words);
}

static void json_summary(struct owners_json_gen *j, const struct owners_collector_render *r)
{
	const struct owners_collector_render_backlog *b = r->backlog;

	owners_json_gen_string(j, "summary");
	owners_json_gen_map_open(j);
	owners_json_gen_kv_int(j, "deletions", (long long)b->deletions);
	owners_json_gen_kv_int(j, "referenceRemovals", (long long)b->strips);
	owners_json_gen_kv_int(j, "finalizerRemovals", (long long)b->finalizer_removals);
	owners_json_gen_kv_int(j, "releases", (long long)b->releases);
	owners_json_gen_kv_int(j, "unblocks", (long long)b->unblocks);
	owners_json_gen_kv_int(j, "waiting", (long long)b->waits);
	owners_json_gen_kv_int(j, "givesUp", (long long)b->gives_up);
	owners_json_gen_kv_int(j, "undecided", (long long)b->undecided);
	owners_json_gen_kv_int(j, "deadlocked", (long long)b->deadlocked);
	if (b->oldest) {
		owners_json_gen_kv_time(j, "oldestDue", b->oldest);
		json_object(j, "oldestDueObject", &r->c->g->nodes[b->oldest_node]);
	} else {
		owners_json_gen_string(j, "oldestDue");
		owners_json_gen_null(j);
	}
	owners_json_gen_kv_int(j, "eventuallyCollected", (long long)b->collected);
	owners_json_gen_kv_int(j, "passes", b->passes);
	owners_json_gen_kv_bool(j, "gcAppearsStopped", owners_collector_render_seen_state(r) == OWNERS_COLLECTOR_RENDER_SEEN_STOPPED);
	owners_collector_render_evidence_json(j, r);
	owners_json_gen_map_close(j);
}

int owners_collector_render_json(struct owners_buf *out, const struct owners_collector_render *r)
{
	struct owners_json_gen *j = NULL;
	struct owners_buf b = OWNERS_BUF_INIT;
	uint32_t *rows = NULL, *scratch = NULL;
	size_t n = 0, i;
	int rc;

	if ((rc = rows_of(r, &rows, &n)))
		return rc;
	if (!(scratch = malloc(((size_t)r->c->g->count + 1) * sizeof(*scratch))) ||
	    owners_json_gen_new(&j, out, 1)) {
		free(scratch);
		free(rows);
		return OWNERS_ENOMEM;
	}
	owners_document_open(j, "OwnersGCBacklog");
	json_summary(j, r);
	owners_document_items(j);
	for (i = 0; i < n; i++)
		json_step(j, &b, r, rows[i], scratch);
	owners_document_close(j, r->print.warnings, r->print.n_warnings);
	rc = owners_json_gen_error(j);
	owners_json_gen_free(j);
	owners_buf_clear(&b);
	free(scratch);
	free(rows);
	return rc;
}

int owners_collector_render_names(struct owners_buf *out, const struct owners_collector_render *r)
{
	uint32_t *rows = NULL;
	size_t n = 0, i;
	int rc = rows_of(r, &rows, &n);

	for (i = 0; !rc && i < n; i++) {
		rc = owners_graph_node_name(out, &r->c->g->nodes[rows[i]]);
		if (!rc)
			rc = owners_buf_addc(out, '\n');
	}
	free(rows);
	return rc;
}
