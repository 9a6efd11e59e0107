#include "dangling.h"
#include "palette.h"

#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "json.h"
#include "document_json.h"
#include "node_json.h"
#include "sort.h"

/* ---- names ------------------------------------------------------------ */

int owners_dangling_fixable(enum owners_ref_class c)
{
	return c != OWNERS_REF_RESOLVED && c != OWNERS_REF_UNKNOWN;
}

const char *owners_dangling_gc_action_name(enum owners_dangling_gc_action a)
{
	switch (a) {
	case OWNERS_DANGLING_GC_DELETE_OBJECT: return "delete-object";
	case OWNERS_DANGLING_GC_REMOVE_REFERENCE: return "remove-reference";
	case OWNERS_DANGLING_GC_NOTHING: return "none";
	case OWNERS_DANGLING_GC_UNKNOWN: return "unknown";
	}
	return "unknown";
}

const char *owners_dangling_gc_action_text(const struct owners_dangling_finding *f)
{
	switch (f->gc) {
	case OWNERS_DANGLING_GC_DELETE_OBJECT: return "delete the object";
	case OWNERS_DANGLING_GC_REMOVE_REFERENCE: return "remove the reference";
	case OWNERS_DANGLING_GC_NOTHING:
		return f->why == OWNERS_DANGLING_GC_WHY_IN_DELETION ? "nothing (object in deletion)"
		       : f->why == OWNERS_DANGLING_GC_WHY_BLIND_OWNER ? "nothing (owner cannot be looked up)"
							     : "nothing, ever";
	case OWNERS_DANGLING_GC_UNKNOWN: return "cannot tell";
	}
	return "cannot tell";
}

const char *owners_fix_result_name(enum owners_fix_result r)
{
	switch (r) {
	case OWNERS_FIX_NONE: return "none";
	case OWNERS_FIX_WOULD_REMOVE: return "would-remove";
	case OWNERS_FIX_REMOVED: return "removed";
	case OWNERS_FIX_KEPT: return "kept";
	case OWNERS_FIX_GONE: return "gone";
	case OWNERS_FIX_FAILED: return "failed";
	case OWNERS_FIX_WOULD_REPAIR: return "would-repair";
	case OWNERS_FIX_REPAIRED: return "repaired";
	case OWNERS_FIX_WOULD_DELETE: return "would-delete";
	case OWNERS_FIX_DELETED: return "deleted";
	}
	return "none";
}

int owners_dangling_gc_gives_up(enum owners_ref_class c, int cluster_scoped)
{
	return c == OWNERS_REF_UNRESOLVABLE || (c == OWNERS_REF_INVALID_NAMESPACE && cluster_scoped);
}

int owners_dangling_gc_never(const struct owners_dangling_finding *f)
{
	return f->gc == OWNERS_DANGLING_GC_NOTHING &&
	       (f->why == OWNERS_DANGLING_GC_WHY_UNRESOLVABLE || f->why == OWNERS_DANGLING_GC_WHY_CLUSTER_SCOPED);
}

enum owners_dangling_fate owners_dangling_gc_fate(const enum owners_ref_class *classes, size_t n,
					    const unsigned char *keep, int cluster_scoped)
{
	size_t i, kept = 0;
	int unknown = 0;

	for (i = 0; i < n; i++) {
		if (keep && !keep[i])
			continue;
		kept++;
		if (owners_dangling_gc_gives_up(classes[i], cluster_scoped) || classes[i] == OWNERS_REF_RESOLVED)
			return OWNERS_DANGLING_GC_KEEPS;
		unknown |= classes[i] == OWNERS_REF_UNKNOWN;
	}
	if (!kept)
		return OWNERS_DANGLING_GC_KEEPS; /* no references: nothing for the GC to do */
	return unknown ? OWNERS_DANGLING_GC_MAY_DELETE : OWNERS_DANGLING_GC_DELETES;
}

/* ---- prediction ------------------------------------------------------- */

static int has_finalizer(const struct owners_node *n, const char *name)
{
	uint32_t i;

	for (i = 0; i < n->extras->n_finalizers; i++)
		if (!strcmp(n->extras->finalizers[i], name))
			return 1;
	return 0;
}

/* classifyReferences(): a resolved owner being deleted in the foreground
 * is "waiting for dependents deletion", not solid. */
static int solid(const struct owners_graph *g, const struct owners_ref *ref)
{
	const struct owners_node *o;

	if (ref->owner == OWNERS_NO_NODE)
		return 1; /* resolved but not linked: cannot happen after a link */
	o = &g->nodes[ref->owner];
	return !(o->extras->deleted && has_finalizer(o, "foregroundDeletion"));
}

/* The reference at which the GC's classifyReferences() stops with an error
 * for this object, so that it never acts on it; OWNERS_NO_REF when none. */
static uint32_t first_blocking(const struct owners_node *n, const enum owners_ref_class *cls,
			       const unsigned char *blind, enum owners_dangling_gc_why *why)
{
	uint32_t i;

	for (i = 0; i < n->n_refs; i++) {
		if (blind[i]) {
			*why = OWNERS_DANGLING_GC_WHY_BLIND_OWNER;
			return i;
		}
		if (cls[i] == OWNERS_REF_UNRESOLVABLE) {
			*why = OWNERS_DANGLING_GC_WHY_UNRESOLVABLE;
			return i;
		}
		if (cls[i] == OWNERS_REF_INVALID_NAMESPACE && !*n->place->namespace_) {
			*why = OWNERS_DANGLING_GC_WHY_CLUSTER_SCOPED;
			return i;
		}
	}
	return OWNERS_NO_REF;
}

static int push(struct owners_dangling_report *rep, const struct owners_dangling_finding *f)
{
	if (OWNERS_GROW(rep->items, rep->cap, rep->count + 1))
		return OWNERS_ENOMEM;
	rep->items[rep->count++] = *f;
	return 0;
}

int owners_dangling_absent_owner_types(struct owners_graph *g, const uint32_t *nodes, size_t n,
				       const struct owners_resource ***types, size_t *n_types)
{
	const struct owners_resource **v = NULL;
	size_t i, k, cap = 0;
	uint32_t j;

	*types = NULL;
	*n_types = 0;
	if (!g->linked && owners_graph_link(g))
		return OWNERS_ENOMEM;
	for (i = 0; i < n; i++) {
		const struct owners_node *dep = &g->nodes[nodes[i]];

		for (j = 0; !dep->virtual_ && j < dep->n_refs; j++) {
			const struct owners_ref *ref = &dep->refs[j];
			struct owners_ref_resolution res;
			const struct owners_resource *r;

			owners_graph_resolve_ref(g, nodes[i], ref, &res);
			r = res.resource;
			if (!r || !r->namespaced || res.class_ != OWNERS_REF_ABSENT)
				continue;
			for (k = 0; k < *n_types && !owners_resource_same_type(v[k], r); k++)
				;
			if (k < *n_types)
				continue;
			if (OWNERS_GROW(v, cap, *n_types + 1)) {
				free(v);
				*n_types = 0;
				return OWNERS_ENOMEM;
			}
			v[(*n_types)++] = r;
		}
	}
	*types = v;
	return 0;
}

int owners_dangling_check(struct owners_dangling_report *rep, struct owners_graph *g,
			  uint32_t node)
{
	enum owners_ref_class *cls = NULL;
	unsigned char *blind = NULL;
	enum owners_dangling_gc_why object_why = OWNERS_DANGLING_GC_WHY_NO_LIVE_OWNER;
	uint32_t i, n_refs, blocking, live = OWNERS_NO_REF, unknown = OWNERS_NO_REF;
	int rc = 0;

	if (!g->linked && owners_graph_link(g))
		return OWNERS_ENOMEM;
	n_refs = g->nodes[node].n_refs;
	if (g->nodes[node].virtual_ || !n_refs)
		return 0;
	cls = malloc(n_refs * sizeof(*cls));
	blind = malloc(n_refs);
	if (!cls || !blind) {
		free(cls);
		free(blind);
		return OWNERS_ENOMEM;
	}
	/* resolving may rebuild the name index, never moves nodes: the node
	 * pointer is re-read after it anyway. */
	for (i = 0; i < n_refs; i++) {
		struct owners_ref_resolution res;

		owners_graph_resolve_ref(g, node, &g->nodes[node].refs[i], &res);
		cls[i] = res.class_;
		blind[i] = (unsigned char)(res.class_ == OWNERS_REF_UNKNOWN && res.gc_blind);
	}
	{
		const struct owners_node *n = &g->nodes[node];

		blocking = first_blocking(n, cls, blind, &object_why);
		for (i = 0; i < n_refs; i++) {
			if (cls[i] == OWNERS_REF_RESOLVED && live == OWNERS_NO_REF &&
			    solid(g, &n->refs[i]))
				live = i;
			if (cls[i] == OWNERS_REF_UNKNOWN && unknown == OWNERS_NO_REF)
				unknown = i;
		}
		for (i = 0; !rc && i < n_refs; i++) {
			struct owners_dangling_finding f;

			if (cls[i] == OWNERS_REF_RESOLVED)
				continue;
			memset(&f, 0, sizeof(f));
			f.object = node;
			f.ref = i;
			f.class_ = cls[i];
			f.because = OWNERS_NO_REF;
			f.after = OWNERS_NO_NODE;
			if (n->extras->deleted) {
				/* attemptToDeleteItem: "being deleted" is a one-way trip */
				f.gc = OWNERS_DANGLING_GC_NOTHING;
				f.why = OWNERS_DANGLING_GC_WHY_IN_DELETION;
			} else if (blocking != OWNERS_NO_REF) {
				f.gc = OWNERS_DANGLING_GC_NOTHING;
				f.why = object_why;
				f.because = blocking;
			} else if (cls[i] == OWNERS_REF_UNKNOWN) {
				/* Alive: kept; gone: removed or the object deleted. */
				f.gc = OWNERS_DANGLING_GC_UNKNOWN;
				f.why = OWNERS_DANGLING_GC_WHY_UNKNOWN_OWNER;
				f.because = i;
			} else if (live != OWNERS_NO_REF) {
				f.gc = OWNERS_DANGLING_GC_REMOVE_REFERENCE;
				f.why = OWNERS_DANGLING_GC_WHY_LIVE_OWNER;
				f.because = live;
			} else if (unknown != OWNERS_NO_REF) {
				f.gc = OWNERS_DANGLING_GC_UNKNOWN;
				f.why = OWNERS_DANGLING_GC_WHY_UNKNOWN_OWNER;
				f.because = unknown;
			} else {
				f.gc = OWNERS_DANGLING_GC_DELETE_OBJECT;
				f.why = OWNERS_DANGLING_GC_WHY_NO_LIVE_OWNER;
			}
			rc = push(rep, &f);
		}
	}
	free(cls);
	free(blind);
	return rc;
}

int owners_dangling_eventual(struct owners_dangling_report *rep, struct owners_graph *g)
{
	struct owners_collector_outcome *ends;
	unsigned passes;
	size_t i;
	int rc;

	if (!rep->count)
		return 0;
	if (!(ends = calloc(g->count + 1, sizeof(*ends))))
		return OWNERS_ENOMEM;
	if (!(rc = owners_collector_settle(g, ends, 0, &passes))) {
		for (i = 0; i < rep->count; i++) {
			struct owners_dangling_finding *f = &rep->items[i];

			if (f->gc != OWNERS_DANGLING_GC_REMOVE_REFERENCE || ends[f->object].kind != OWNERS_COLLECTOR_OUTCOME_COLLECTED)
				continue;
			f->gc = OWNERS_DANGLING_GC_DELETE_OBJECT;
			f->why = OWNERS_DANGLING_GC_WHY_OWNER_COLLECTED;
			f->after = ends[f->object].through;
			if (f->after == OWNERS_NO_NODE)
				f->after = g->nodes[f->object].refs[f->because].owner;
		}
	}
	free(ends);
	return rc;
}

/* ---- order ------------------------------------------------------------ */

/* The node order with the apiVersion between kind and name, so that the
 * objects of one version of a kind are listed together (a reference is
 * dangling or not by the version it names, and the report reads by
 * type). The object's index, then the reference's, make the order total. */
static int cmp_finding(const void *pa, const void *pb, void *ctx)
{
	const struct owners_dangling_finding *a = pa, *b = pb;
	int c = owners_graph_node_order(ctx, a->object, b->object, OWNERS_NODE_ORDER_VERSION);

	if (c)
		return c;
	if (a->object != b->object)
		return a->object < b->object ? -1 : 1;
	return a->ref < b->ref ? -1 : a->ref > b->ref;
}

void owners_dangling_sort(struct owners_dangling_report *rep, const struct owners_graph *g)
{
	if (rep->count < 2)
		return;
	owners_qsort_r(rep->items, rep->count, sizeof(*rep->items), cmp_finding, (void *)g);
}

void owners_dangling_report_clear(struct owners_dangling_report *rep)
{
	size_t i;

	if (!rep)
		return;
	for (i = 0; i < rep->count; i++)
		free(rep->items[i].fix_message);
	free(rep->items);
	memset(rep, 0, sizeof(*rep));
}

/* ---- words ------------------------------------------------------------ */

static const struct owners_ref *ref_of(const struct owners_graph *g,
				       const struct owners_dangling_finding *f, uint32_t i)
{
	return &g->nodes[f->object].refs[i];
}

int owners_dangling_gc_reason(struct owners_buf *out, const struct owners_graph *g,
			      const struct owners_dangling_finding *f)
{
	const struct owners_ref *b = f->because != OWNERS_NO_REF ? ref_of(g, f, f->because) : NULL;
	int self = f->because == f->ref;

	switch (f->why) {
	case OWNERS_DANGLING_GC_WHY_NO_LIVE_OWNER:
		return owners_buf_adds(out, "no owner of the object resolves");
	case OWNERS_DANGLING_GC_WHY_LIVE_OWNER:
		return owners_buf_addf(out, "owner %s/%s is alive", b->type->kind, b->name);
	case OWNERS_DANGLING_GC_WHY_OWNER_COLLECTED:
		return owners_buf_addf(out, "owner %s/%s is alive but garbage itself: the GC collects %s/%s "
				       "first, then the object, which has no live owner left",
				       b->type->kind, b->name, g->nodes[f->after].place->kind, g->nodes[f->after].name);
	case OWNERS_DANGLING_GC_WHY_UNRESOLVABLE:
		if (self)
			return owners_buf_addf(out, "the GC cannot map %s %s and retries the object forever",
					       b->type->api_version, b->type->kind);
		return owners_buf_addf(out, "another owner's kind (%s %s) is not served: the GC retries "
				       "the object forever", b->type->api_version, b->type->kind);
	case OWNERS_DANGLING_GC_WHY_CLUSTER_SCOPED:
		if (self)
			return owners_buf_adds(out, "a cluster-scoped object cannot have a namespaced owner: "
					       "the GC gives up on it");
		return owners_buf_addf(out, "another owner (%s/%s) is namespaced and the object "
				       "cluster-scoped: the GC gives up on it", b->type->kind, b->name);
	case OWNERS_DANGLING_GC_WHY_IN_DELETION:
		return owners_buf_adds(out, "the object is already being deleted");
	case OWNERS_DANGLING_GC_WHY_UNKNOWN_OWNER:
		if (self)
			return owners_buf_adds(out, "the owner's type could not be listed");
		return owners_buf_addf(out, "owner %s/%s could not be checked", b->type->kind, b->name);
	case OWNERS_DANGLING_GC_WHY_BLIND_OWNER:
		if (self)
			return owners_buf_adds(out, "the GC cannot look the owner up either (its API group failed "
					       "discovery or its list failed) and retries the object");
		return owners_buf_addf(out, "the GC cannot look owner %s/%s up (its API group failed "
				       "discovery or its list failed) and retries the object", b->type->kind, b->name);
	}
	return 0;
}

static int fix_text(struct owners_buf *out, const struct owners_dangling_finding *f)
{
	static const char *const words[] = {
		[OWNERS_FIX_NONE] = "",
		[OWNERS_FIX_WOULD_REMOVE] = "would remove",
		[OWNERS_FIX_REMOVED] = "removed",
		[OWNERS_FIX_KEPT] = "kept",
		[OWNERS_FIX_GONE] = "nothing to do",
		[OWNERS_FIX_FAILED] = "FAILED",
		[OWNERS_FIX_WOULD_REPAIR] = "would repair",
		[OWNERS_FIX_REPAIRED] = "repaired",
		[OWNERS_FIX_WOULD_DELETE] = "would delete the object",
		[OWNERS_FIX_DELETED] = "object deleted",
	};
	int rc = owners_buf_adds(out, words[f->fix]);

	if (!rc && f->fix_message)
		rc = owners_buf_addf(out, " (%s)", f->fix_message);
	return rc;
}

/* ---- table ------------------------------------------------------------ */

enum col { C_NS, C_OBJECT, C_OWNER, C_API, C_UID, C_CLASS, C_GC, C_REASON, C_FIX, N_COLS };

static const char *const headers[N_COLS] = {
	"NAMESPACE", "OBJECT", "OWNER", "OWNER APIVERSION", "OWNER UID", "CLASS", "GC WILL",
	"WHY", "FIX",
};

static int cell(struct owners_buf *c, enum col k, const struct owners_dangling_render *r,
		const struct owners_dangling_finding *f)
{
	const struct owners_node *n = &r->g->nodes[f->object];
	const struct owners_ref *ref = &n->refs[f->ref];

	owners_buf_reset(c);
	switch (k) {
	case C_NS: return owners_buf_adds(c, n->place->namespace_);
	case C_OBJECT: {
		const char *slash = strchr(n->place->api_version, '/');

		if (r->print.wide && slash)
			return owners_buf_addf(c, "%s.%.*s/%s", n->place->kind,
					       (int)(slash - n->place->api_version), n->place->api_version, n->name);
		return owners_buf_addf(c, "%s/%s", n->place->kind, n->name);
	}
	case C_OWNER: return owners_buf_addf(c, "%s/%s", ref->type->kind, ref->name);
	case C_API: return owners_buf_adds(c, ref->type->api_version);
	case C_UID: return owners_buf_adds(c, OWNERS_REF_UID(r->g, ref));
	case C_CLASS: return owners_buf_adds(c, owners_ref_class_name(f->class_));
	case C_GC:
		if (f->after != OWNERS_NO_NODE)
			return owners_buf_addf(c, "%s (after %s/%s)", owners_dangling_gc_action_text(f),
					       r->g->nodes[f->after].place->kind, r->g->nodes[f->after].name);
		return owners_buf_adds(c, owners_dangling_gc_action_text(f));
	case C_REASON: return owners_dangling_gc_reason(c, r->g, f);
	case C_FIX: return fix_text(c, f);
	case N_COLS: break;
	}
	return 0;
}

static int shown(enum col k, const struct owners_dangling_render *r)
{
	if (k == C_API || k == C_UID || k == C_REASON)
		return r->print.wide;
	if (k == C_FIX)
		return r->show_fix;
	return 1;
}

static const char *class_color(enum owners_ref_class c)
{
	switch (c) {
	case OWNERS_REF_UNKNOWN: return OWNERS_PALETTE_PENDING;     /* no verdict */
	case OWNERS_REF_UNRESOLVABLE: return OWNERS_PALETTE_STUCK; /* stuck forever */
	default: return OWNERS_PALETTE_BAD;                         /* dangling */
	}
}

/* Columns past N_COLS: one per -L key, then LABELS (--show-labels). */
static size_t n_columns(const struct owners_dangling_render *r)
{
	return N_COLS + r->print.n_label_keys + (r->print.show_labels ? 1 : 0);
}

static int any_cell(struct owners_buf *c, size_t k, const struct owners_dangling_render *r,
		    const struct owners_dangling_finding *f)
{
	const struct owners_node *n = &r->g->nodes[f->object];
	const char *v;

	if (k < N_COLS)
		return cell(c, (enum col)k, r, f);
	owners_buf_reset(c);
	if (k < N_COLS + r->print.n_label_keys)
		return (v = owners_graph_node_label(n, r->print.label_keys[k - N_COLS])) ? owners_buf_adds(c, v)
										 : 0;
	return owners_graph_node_labels_text(c, n);
}

static int title(struct owners_buf *t, size_t k, const struct owners_dangling_render *r)
{
	owners_buf_reset(t);
	if (k < N_COLS)
		return owners_buf_adds(t, headers[k]);
	if (k < N_COLS + r->print.n_label_keys)
		return owners_graph_label_title(t, r->print.label_keys[k - N_COLS]);
	return owners_buf_adds(t, "LABELS");
}

static int any_shown(size_t k, const struct owners_dangling_render *r)
{
	return k >= N_COLS || shown((enum col)k, r);
}

int owners_dangling_render_text(struct owners_buf *out, const struct owners_dangling_render *r)
{
	struct owners_buf c = OWNERS_BUF_INIT;
	size_t n = n_columns(r), *width, i, k, last = C_NS;
	int rc = 0;

	if (!r->rep->count)
		return 0;
	if (!(width = calloc(n, sizeof(*width))))
		return OWNERS_ENOMEM;
	for (k = 0; !rc && k < n; k++) {
		if (!(rc = title(&c, k, r)))
			width[k] = c.len;
		if (any_shown(k, r))
			last = k;
	}
	for (i = 0; !rc && i < r->rep->count; i++)
		for (k = 0; !rc && k < n; k++)
			if (any_shown(k, r) && !(rc = any_cell(&c, k, r, &r->rep->items[i])) &&
			    c.len > width[k])
				width[k] = c.len;
	for (k = 0; !rc && !r->print.no_headers && k < n; k++) {
		if (!any_shown(k, r) || (rc = title(&c, k, r)))
			continue;
		rc = k == last ? owners_buf_adds(out, c.ptr)
			       : owners_buf_addf(out, "%-*s   ", (int)width[k], c.ptr);
	}
	if (!rc && !r->print.no_headers)
		rc = owners_buf_addc(out, '\n');
	for (i = 0; !rc && i < r->rep->count; i++) {
		const struct owners_dangling_finding *f = &r->rep->items[i];

		for (k = 0; !rc && k < n; k++) {
			int colored = r->print.color && k == C_CLASS;

			if (!any_shown(k, r) || (rc = any_cell(&c, k, r, f)))
				continue;
			if (colored)
				rc = owners_buf_adds(out, class_color(f->class_));
			if (!rc)
				rc = owners_buf_adds(out, c.ptr);
			if (!rc && colored)
				rc = owners_buf_adds(out, OWNERS_PALETTE_RESET);
			if (!rc && k != last)
				rc = owners_buf_addf(out, "%-*s", (int)(width[k] - c.len + 3), "");
		}
		/* an empty label cell last leaves padding: none at the end */
		while (!rc && out->len && out->ptr[out->len - 1] == ' ')
			owners_buf_truncate(out, out->len - 1);
		if (!rc)
			rc = owners_buf_addc(out, '\n');
	}
	owners_buf_clear(&c);
	free(width);
	return rc;
}

/* ---- JSON ------------------------------------------------------------- */

/* One finding; tmp holds the GC's reason while it is written. */
static int json_finding(struct owners_json_gen *j, const struct owners_dangling_render *r,
			const struct owners_dangling_finding *f, struct owners_buf *tmp)
{
	const struct owners_node *n = &r->g->nodes[f->object];
	const struct owners_ref *ref = &n->refs[f->ref];
	int rc;

	owners_buf_reset(tmp);
	if ((rc = owners_dangling_gc_reason(tmp, r->g, f)))
		return rc;
	owners_json_gen_map_open(j);
	owners_document_object(j, r->g, n);
	owners_document_facts(j);
	/* the one of metadata.ownerReferences this finding is about */
	owners_json_gen_string(j, "reference");
	owners_json_gen_map_open(j);
	owners_ref_json_fields(j, r->g, ref);
	owners_json_gen_map_close(j);
	owners_json_gen_kv(j, "class", owners_ref_class_name(f->class_));
	owners_json_gen_string(j, "gc");
	owners_json_gen_map_open(j);
	owners_json_gen_kv(j, "action", owners_dangling_gc_action_name(f->gc));
	owners_json_gen_kv(j, "reason", tmp->ptr);
	if (f->after != OWNERS_NO_NODE) {
		owners_json_gen_string(j, "after");
		owners_json_gen_map_open(j);
		owners_node_json_identity(j, &r->g->nodes[f->after]);
		owners_json_gen_map_close(j);
	}
	owners_json_gen_map_close(j);
	if (r->show_fix) {
		owners_json_gen_string(j, "fix");
		owners_json_gen_map_open(j);
		owners_json_gen_kv(j, "result", owners_fix_result_name(f->fix));
		owners_json_gen_kv(j, "message", f->fix_message);
		owners_json_gen_kv_int(j, "attempts", f->attempts);
		owners_json_gen_map_close(j);
	}
	owners_json_gen_map_close(j); /* "owners" */
	owners_json_gen_map_close(j);
	return owners_json_gen_error(j);
}

int owners_dangling_render_json(struct owners_buf *out, const struct owners_dangling_render *r)
{
	struct owners_json_gen *j;
	struct owners_buf tmp = OWNERS_BUF_INIT;
	size_t i;
	int rc = 0;

	if (owners_json_gen_new(&j, out, 1))
		return OWNERS_ENOMEM;
	owners_document_open(j, "OwnersDangling");
	owners_json_gen_kv_bool(j, "dryRun", r->dry_run);
	owners_document_items(j);
	for (i = 0; !rc && i < r->rep->count; i++)
		rc = json_finding(j, r, &r->rep->items[i], &tmp);
	owners_document_close(j, r->print.warnings, r->print.n_warnings);
	if (!rc)
		rc = owners_json_gen_error(j);
	owners_json_gen_free(j);
	owners_buf_clear(&tmp);
	if (!rc && out->len && out->ptr[out->len - 1] != '\n')
		rc = owners_buf_addc(out, '\n');
	return rc;
}

int owners_dangling_render_names(struct owners_buf *out, const struct owners_dangling_render *r)
{
	unsigned char *said = calloc(r->g->count ? r->g->count : 1, 1);
	size_t i;
	int rc = said ? 0 : OWNERS_ENOMEM;

	/* an object with two dangling references is one object to act on */
	for (i = 0; !rc && i < r->rep->count; i++) {
		uint32_t k = r->rep->items[i].object;

		if (said[k])
			continue;
		said[k] = 1;
		rc = owners_graph_node_name(out, &r->g->nodes[k]);
		if (!rc)
			rc = owners_buf_addc(out, '\n');
	}
	free(said);
	return rc;
}
