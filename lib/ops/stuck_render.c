#include "stuck_render.h"

#include <stdlib.h>
#include <string.h>

#include "api_path.h"
#include "json.h"
#include "document_json.h"
#include "finalizer_command.h"
#include "node_json.h"
#include "palette.h"
#include "timeutil.h"
#include "tree.h"

#define DEFAULT_MAX_LIST 20

struct renderer {
	const struct owners_stuck_render *r;
	struct owners_buf *out;
	unsigned char *on_path;     /* per node: being explained above */
	struct owners_json_gen *j;
	/* the deadlock whose members are being explained (its remedy is
	 * said once, after the outermost of them) */
	const struct owners_deadlock *in_deadlock;
};

static int64_t stuck_for(const struct owners_stuck_render *r, const struct owners_node *n)
{
	return r->print.now > n->extras->deleted ? r->print.now - n->extras->deleted : 0;
}

static const char *plural(size_t n)
{
	return n == 1 ? "" : "s";
}

/* ---- text ----------------------------------------------------------------- */

static int indent(struct owners_buf *out, int depth)
{
	int rc = 0, i;

	for (i = 0; !rc && i < depth; i++)
		rc = owners_buf_adds(out, "  ");
	return rc;
}

/* "Kind/name", plus " in namespace X" unless it is where the reader is. */
static int object_name(struct renderer *x, const struct owners_node *n, const char *here)
{
	const struct owners_stuck_render *r = x->r;
	int rc = owners_buf_addf(x->out, "%s%s/%s%s",
				 r->print.color && n->extras->deleted ? OWNERS_PALETTE_PENDING : "",
				 n->place->kind, n->name,
				 r->print.color && n->extras->deleted ? OWNERS_PALETTE_RESET : "");

	if (!rc && *n->place->namespace_ && (!here || strcmp(here, n->place->namespace_)))
		rc = owners_buf_addf(x->out, " in namespace %s", n->place->namespace_);
	return rc;
}

/* The command that removes the finalizer (of this object: --uid; run
 * after it went, it says already done), for when its controller is gone
 * ("if so: ", after a line that asks whether it is) or, for the garbage
 * collector's own, when the GC does not run (removing 'orphan' releases
 * the dependents first, as the GC would). */
static int remove_hint(struct renderer *x, const struct owners_node *n, const char *finalizer,
		       const char *when)
{
	struct owners_command_line cmd = OWNERS_COMMAND_LINE_INIT;
	int rc = owners_buf_adds(x->out, when);

	rc = rc ? rc : owners_finalizer_command_of(&cmd, n, finalizer);
	rc = rc ? rc : owners_command_line_spell(x->out, x->r->print.program, &cmd);
	owners_command_line_clear(&cmd);
	return rc ? rc : owners_buf_addc(x->out, '\n');
}

static int text_item(struct renderer *x, const struct owners_stuck_item *it, int depth);

/* One object a finalizer waits on: its state, and why when it is stuck. */
static int text_object(struct renderer *x, uint32_t node, int depth, const char *here,
		       const char *live_state)
{
	const struct owners_stuck_render *r = x->r;
	const struct owners_node *n = &r->g->nodes[node];
	const struct owners_stuck_item *it = owners_stuck_item_of(r->rep, node);
	struct owners_buf age = OWNERS_BUF_INIT;
	int rc = indent(x->out, depth);

	if (!rc)
		rc = object_name(x, n, here);
	if (rc)
		return rc;
	if (!n->extras->deleted) {
		rc = owners_buf_addf(x->out, ": %s\n", live_state);
	} else if (!it) {
		rc = owners_time_format_age(&age, stuck_for(r, n));
		if (!rc)
			rc = owners_buf_addf(x->out, ": being deleted for %s, no finalizers left\n", age.ptr);
	} else if (x->on_path[node]) {
		rc = owners_buf_adds(x->out, ": stuck (explained above)\n");
	} else {
		rc = text_item(x, it, depth);
	}
	owners_buf_clear(&age);
	return rc;
}

static int text_objects(struct renderer *x, const struct owners_stuck_finalizer *fin, int depth,
			const char *here, const char *live_state)
{
	size_t max = x->r->max_list ? x->r->max_list : DEFAULT_MAX_LIST, i;
	int rc = 0;

	for (i = 0; !rc && i < fin->n_objects && i < max; i++)
		rc = text_object(x, fin->objects[i], depth, here, live_state);
	if (!rc && fin->n_objects > max) {
		rc = indent(x->out, depth);
		if (!rc)
			rc = owners_buf_addf(x->out, "... and %zu more (-o json lists them all)\n",
					     fin->n_objects - max);
	}
	return rc;
}

static int text_namespace(struct renderer *x, const struct owners_node *ns,
			  const struct owners_stuck_finalizer *fin, int depth)
{
	struct owners_buf type = OWNERS_BUF_INIT;
	size_t i;
	int rc = 0;

	if (fin->n_content) {
		rc = indent(x->out, depth);
		if (!rc)
			rc = owners_buf_adds(x->out, "content:");
		for (i = 0; !rc && i < fin->n_content; i++) {
			const struct owners_stuck_content *c = &fin->content[i];

			owners_buf_reset(&type);
			rc = owners_api_type_name(&type, c->resource);
			if (!rc)
				rc = owners_buf_addf(x->out, "%s %s %zu", i ? "," : "", type.ptr, c->count);
			if (!rc && c->stuck)
				rc = owners_buf_addf(x->out, " (%zu stuck)", c->stuck);
		}
		if (!rc)
			rc = owners_buf_addc(x->out, '\n');
	}
	if (!rc && fin->content_unlisted) {
		rc = indent(x->out, depth);
		if (!rc)
			rc = owners_buf_addf(x->out, "%zu type%s could not be listed there: %s unknown\n",
					     fin->content_unlisted, plural(fin->content_unlisted),
					     fin->content_unlisted == 1 ? "its content is" : "their content is");
	}
	if (!rc)
		rc = text_objects(x, fin, depth, ns->name, "");
	if (!rc && fin->n_conditions) {
		rc = indent(x->out, depth);
		if (!rc)
			rc = owners_buf_adds(x->out, "the namespace controller last reported:\n");
	}
	for (i = 0; !rc && i < fin->n_conditions; i++) {
		const struct owners_stuck_condition *c = fin->conditions[i];

		rc = indent(x->out, depth + 1);
		if (!rc)
			rc = owners_buf_addf(x->out, "%s: %s\n", c->type, *c->message ? c->message : c->reason);
	}
	if (!rc && fin->reason == OWNERS_STUCK_NAMESPACE_CONTROLLER) {
		rc = indent(x->out, depth);
		if (!rc)
			rc = remove_hint(x, ns, "kubernetes", "if the controller cannot finish: ");
	}
	owners_buf_clear(&type);
	return rc;
}

static int text_pods(struct renderer *x, const struct owners_node *claim,
		     const struct owners_stuck_finalizer *fin, int depth)
{
	size_t max = x->r->max_list ? x->r->max_list : DEFAULT_MAX_LIST, i;
	int rc = 0;

	for (i = 0; !rc && i < fin->n_pods && i < max; i++) {
		const struct owners_pod_claim_use *p = fin->pods[i];

		rc = indent(x->out, depth);
		if (!rc && owners_pod_holds_claim(p, claim->name))
			rc = owners_buf_addf(x->out, "Pod/%s (on node %s%s%s): mounts the claim\n", p->pod,
					     p->node_name, *p->phase ? ", " : "", p->phase);
		else if (!rc && !*p->node_name)
			rc = owners_buf_addf(x->out, "Pod/%s (not scheduled): references the claim, "
					     "does not hold it\n", p->pod);
		else if (!rc)
			rc = owners_buf_addf(x->out, "Pod/%s (shut down): no longer holds the claim\n",
					     p->pod);
	}
	if (!rc && fin->n_pods > max) {
		rc = indent(x->out, depth);
		if (!rc)
			rc = owners_buf_addf(x->out, "... and %zu more pods\n", fin->n_pods - max);
	}
	return rc;
}

static int text_finalizer(struct renderer *x, const struct owners_node *n,
			  const struct owners_stuck_finalizer *fin, int depth)
{
	const struct owners_stuck_render *r = x->r;
	int rc = indent(x->out, depth);

	if (!rc)
		rc = owners_buf_addf(x->out, "%s%s%s%s: %s\n", r->print.color ? OWNERS_PALETTE_PENDING : "", fin->name,
				     r->print.color ? OWNERS_PALETTE_RESET : "", fin->spec ? " (spec.finalizers)" : "",
				     fin->message ? fin->message : "");
	if (rc)
		return rc;
	switch (fin->reason) {
	case OWNERS_STUCK_BLOCKING_DEPENDENTS:
		return text_objects(x, fin, depth + 1, n->place->namespace_,
				    "not being deleted yet (the garbage collector deletes it first)");
	case OWNERS_STUCK_DEADLOCK: {
		const struct owners_deadlock *outer = x->in_deadlock;

		x->in_deadlock = fin->deadlock;
		rc = text_objects(x, fin, depth + 1, n->place->namespace_, "not being deleted yet");
		x->in_deadlock = outer;
		if (rc || outer == fin->deadlock)
			return rc; /* a member inside the explanation of another */
		rc = indent(x->out, depth + 1);
		rc = rc ? rc : owners_buf_adds(x->out, "to end it, run: ");
		rc = rc ? rc : owners_deadlock_command(x->out, r->print.program, r->g, fin->deadlock);
		return rc ? rc : owners_buf_addc(x->out, '\n');
	}
	case OWNERS_STUCK_DEPENDENTS_TO_RELEASE:
		rc = text_objects(x, fin, depth + 1, n->place->namespace_, "still references it");
		if (!rc)
			rc = indent(x->out, depth + 1);
		return rc ? rc : remove_hint(x, n, fin->name, "if the garbage collector is not running: ");
	case OWNERS_STUCK_NAMESPACE_CONTENT:
	case OWNERS_STUCK_NAMESPACE_CONTROLLER:
		return text_namespace(x, n, fin, depth + 1);
	case OWNERS_STUCK_IN_USE:
	case OWNERS_STUCK_RELEASED:
		if (fin->n_pods)
			return text_pods(x, n, fin, depth + 1);
		return 0;
	case OWNERS_STUCK_BOUND:
		rc = indent(x->out, depth + 1);
		if (!rc && fin->volume && *fin->volume->claim_name)
			rc = owners_buf_addf(x->out, "bound to PersistentVolumeClaim/%s in namespace %s\n",
					     fin->volume->claim_name, fin->volume->claim_namespace);
		return rc;
	case OWNERS_STUCK_CONTROLLER:
		rc = indent(x->out, depth + 1);
		return rc ? rc : remove_hint(x, n, fin->name, "if so: ");
	case OWNERS_STUCK_GARBAGE_COLLECTOR:
		rc = indent(x->out, depth + 1);
		return rc ? rc : remove_hint(x, n, fin->name, "if so: ");
	case OWNERS_STUCK_UNKNOWN:
		break;
	}
	return 0;
}

/* The rest of an object's line (": deleting for ...") and its finalizers. */
static int text_item(struct renderer *x, const struct owners_stuck_item *it, int depth)
{
	const struct owners_stuck_render *r = x->r;
	const struct owners_node *n = &r->g->nodes[it->node];
	struct owners_buf age = OWNERS_BUF_INIT;
	size_t i;
	int rc = owners_time_format_age(&age, stuck_for(r, n));

	if (!rc)
		rc = owners_buf_addf(x->out, ": deleting for %s\n", age.ptr);
	owners_buf_clear(&age);
	if (!rc && it->error) {
		rc = indent(x->out, depth + 1);
		if (!rc)
			rc = owners_buf_addf(x->out, "cannot read it in full: %s%s\n", it->error,
					     owners_stuck_is_namespace(n) ? " (its spec.finalizers are unknown)" : "");
	}
	x->on_path[it->node] = 1;
	for (i = 0; !rc && i < it->n_finalizers; i++)
		rc = text_finalizer(x, n, &it->finalizers[i], depth + 1);
	x->on_path[it->node] = 0;
	return rc;
}

int owners_stuck_render_text(struct owners_buf *out, const struct owners_stuck_render *r)
{
	struct renderer x;
	size_t i, shown = 0;
	int rc = 0;

	memset(&x, 0, sizeof(x));
	x.r = r;
	x.out = out;
	x.on_path = calloc(r->g->count ? r->g->count : 1, 1);
	if (!x.on_path)
		return OWNERS_ENOMEM;
	for (i = 0; !rc && i < r->rep->count; i++) {
		const struct owners_stuck_item *it = &r->rep->items[i];

		if (!it->top)
			continue;
		if (shown++)
			rc = owners_buf_addc(out, '\n');
		if (!rc)
			rc = object_name(&x, &r->g->nodes[it->node], r->namespace_);
		if (!rc)
			rc = text_item(&x, it, 0);
	}
	free(x.on_path);
	return rc;
}

/* ---- JSON ----------------------------------------------------------------- */

static int json_item(struct renderer *x, uint32_t node);

static int json_objects(struct renderer *x, const char *key, const uint32_t *nodes, size_t n)
{
	size_t i;

	if (!n)
		return 0;
	owners_json_gen_string(x->j, key);
	owners_json_gen_array_open(x->j);
	for (i = 0; i < n; i++)
		json_item(x, nodes[i]);
	owners_json_gen_array_close(x->j);
	return owners_json_gen_error(x->j);
}

static int json_namespace(struct renderer *x, const struct owners_stuck_finalizer *fin)
{
	struct owners_json_gen *j = x->j;
	size_t i;

	if (fin->n_content) {
		owners_json_gen_string(j, "content");
		owners_json_gen_array_open(j);
		for (i = 0; i < fin->n_content; i++) {
			const struct owners_stuck_content *c = &fin->content[i];

			owners_json_gen_map_open(j);
			owners_json_gen_kv(j, "resource", c->resource->resource);
			owners_json_gen_kv(j, "group", c->resource->group);
			owners_json_gen_kv(j, "kind", c->resource->kind);
			owners_json_gen_kv_int(j, "count", (long long)c->count);
			owners_json_gen_kv_int(j, "stuck", (long long)c->stuck);
			owners_json_gen_map_close(j);
		}
		owners_json_gen_array_close(j);
	}
	if (fin->reason == OWNERS_STUCK_NAMESPACE_CONTENT ||
	    fin->reason == OWNERS_STUCK_NAMESPACE_CONTROLLER) {
		owners_json_gen_kv_int(j, "contentObjects", (long long)fin->content_objects);
		owners_json_gen_kv_int(j, "contentTypesNotListed",
				       (long long)fin->content_unlisted);
	}
	if (fin->conditions) {
		owners_json_gen_string(j, "conditions");
		owners_json_gen_array_open(j);
		for (i = 0; i < fin->n_conditions; i++) {
			const struct owners_stuck_condition *c = fin->conditions[i];

			owners_json_gen_map_open(j);
			owners_json_gen_kv(j, "type", c->type);
			owners_json_gen_kv(j, "status", c->status);
			owners_json_gen_kv(j, "reason", c->reason);
			owners_json_gen_kv(j, "message", c->message);
			owners_json_gen_map_close(j);
		}
		owners_json_gen_array_close(j);
	}
	return owners_json_gen_error(j);
}

static int json_finalizer(struct renderer *x, const struct owners_node *n,
			  const struct owners_stuck_finalizer *fin)
{
	struct owners_json_gen *j = x->j;
	size_t i;

	owners_json_gen_map_open(j);
	owners_json_gen_kv(j, "name", fin->name);
	owners_json_gen_kv(j, "field", fin->spec ? "spec.finalizers" : "metadata.finalizers");
	owners_json_gen_kv(j, "reason", owners_stuck_reason_name(fin->reason));
	owners_json_gen_kv(j, "message", fin->message ? fin->message : "");
	json_objects(x, "objects", fin->objects, fin->n_objects);
	if (fin->deadlock && owners_deadlock_json(j, x->r->g, fin->deadlock))
		return OWNERS_ENOMEM;
	json_namespace(x, fin);
	if (fin->pods) {
		owners_json_gen_string(j, "pods");
		owners_json_gen_array_open(j);
		for (i = 0; i < fin->n_pods; i++) {
			const struct owners_pod_claim_use *p = fin->pods[i];

			owners_json_gen_map_open(j);
			owners_json_gen_kv(j, "name", p->pod);
			owners_json_gen_kv(j, "nodeName", p->node_name);
			owners_json_gen_kv(j, "phase", p->phase);
			owners_json_gen_kv_bool(j, "holds", owners_pod_holds_claim(p, n->name));
			owners_json_gen_map_close(j);
		}
		owners_json_gen_array_close(j);
	}
	if (fin->volume && *fin->volume->claim_name && fin->reason == OWNERS_STUCK_BOUND) {
		owners_json_gen_string(j, "claim");
		owners_json_gen_map_open(j);
		owners_json_gen_kv(j, "namespace", fin->volume->claim_namespace);
		owners_json_gen_kv(j, "name", fin->volume->claim_name);
		owners_json_gen_map_close(j);
	}
	owners_json_gen_map_close(j);
	return owners_json_gen_error(j);
}

static int json_item(struct renderer *x, uint32_t node)
{
	const struct owners_stuck_render *r = x->r;
	const struct owners_node *n = &r->g->nodes[node];
	const struct owners_stuck_item *it = owners_stuck_item_of(r->rep, node);
	struct owners_json_gen *j = x->j;
	size_t i;

	owners_json_gen_map_open(j);
	owners_document_object(j, r->g, n);
	owners_document_facts(j);
	if (it)
		owners_json_gen_kv_int(j, "stuckSeconds", (long long)stuck_for(r, n));
	owners_json_gen_kv(j, "state", it ? "stuck" : n->extras->deleted ? "deleting" : "live");
	if (it && it->error)
		owners_json_gen_kv(j, "error", it->error);
	if (it && x->on_path[node])
		owners_json_gen_kv_bool(j, "cycle", 1);
	if (it && !x->on_path[node]) {
		x->on_path[node] = 1;
		owners_json_gen_string(j, "finalizers");
		owners_json_gen_array_open(j);
		for (i = 0; i < it->n_finalizers; i++)
			json_finalizer(x, n, &it->finalizers[i]);
		owners_json_gen_array_close(j);
		x->on_path[node] = 0;
	}
	owners_json_gen_map_close(j); /* "owners" */
	owners_json_gen_map_close(j);
	return owners_json_gen_error(j);
}

int owners_stuck_render_json(struct owners_buf *out, const struct owners_stuck_render *r)
{
	struct renderer x;
	size_t i;
	int rc;

	memset(&x, 0, sizeof(x));
	x.r = r;
	x.out = out;
	x.on_path = calloc(r->g->count ? r->g->count : 1, 1);
	if (owners_json_gen_new(&x.j, out, 1) || !x.on_path) {
		free(x.on_path);
		owners_json_gen_free(x.j);
		return OWNERS_ENOMEM;
	}
	owners_document_open(x.j, "OwnersFinalizers");
	owners_json_gen_kv(x.j, "namespace", r->namespace_);
	owners_document_items(x.j);
	for (i = 0; i < r->rep->count; i++)
		if (r->rep->items[i].top)
			json_item(&x, r->rep->items[i].node);
	owners_document_close(x.j, r->print.warnings, r->print.n_warnings);
	rc = owners_json_gen_error(x.j);
	owners_json_gen_free(x.j);
	free(x.on_path);
	if (!rc)
		rc = owners_buf_addc(out, '\n');
	return rc;
}

int owners_stuck_render_names(struct owners_buf *out, const struct owners_stuck_render *r)
{
	size_t i;
	int rc = 0;

	for (i = 0; !rc && i < r->rep->count; i++) {
		if (!r->rep->items[i].top)
			continue;
		rc = owners_graph_node_name(out, &r->g->nodes[r->rep->items[i].node]);
		if (!rc)
			rc = owners_buf_addc(out, '\n');
	}
	return rc;
}
