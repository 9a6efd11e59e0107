#include "stuck.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "sort.h"

/* ---- facts ----------------------------------------------------------------- */

static void condition_clear(struct owners_stuck_condition *c)
{
	free(c->type);
	free(c->status);
	free(c->reason);
	free(c->message);
}

void owners_stuck_facts_clear(struct owners_stuck_facts *f)
{
	size_t i, k;

	if (!f)
		return;
	for (i = 0; i < f->n_namespaces; i++) {
		struct owners_stuck_namespace *ns = &f->namespaces[i];

		free(ns->error);
		for (k = 0; k < ns->n_spec_finalizers; k++)
			free(ns->spec_finalizers[k]);
		free(ns->spec_finalizers);
		for (k = 0; k < ns->n_conditions; k++)
			condition_clear(&ns->conditions[k]);
		free(ns->conditions);
	}
	free(f->namespaces);
	for (i = 0; i < f->n_pods; i++) {
		free(f->pods[i].error);
		owners_pod_claims_clear(&f->pods[i].pods);
	}
	free(f->pods);
	for (i = 0; i < f->n_volumes; i++) {
		free(f->volumes[i].error);
		free(f->volumes[i].phase);
		free(f->volumes[i].claim_namespace);
		free(f->volumes[i].claim_name);
	}
	free(f->volumes);
	memset(f, 0, sizeof(*f));
}

struct owners_stuck_namespace *owners_stuck_facts_add_namespace(struct owners_stuck_facts *f,
								uint32_t node)
{
	struct owners_stuck_namespace *ns;

	if (OWNERS_GROW(f->namespaces, f->cap_namespaces, f->n_namespaces + 1))
		return NULL;
	ns = &f->namespaces[f->n_namespaces++];
	memset(ns, 0, sizeof(*ns));
	ns->node = node;
	return ns;
}

struct owners_stuck_pods *owners_stuck_facts_add_pods(struct owners_stuck_facts *f,
						      const char *namespace_)
{
	struct owners_stuck_pods *p;

	if (OWNERS_GROW(f->pods, f->cap_pods, f->n_pods + 1))
		return NULL;
	p = &f->pods[f->n_pods++];
	memset(p, 0, sizeof(*p));
	p->namespace_ = namespace_;
	return p;
}

struct owners_stuck_volume *owners_stuck_facts_add_volume(struct owners_stuck_facts *f,
							  uint32_t node)
{
	struct owners_stuck_volume *v;

	if (OWNERS_GROW(f->volumes, f->cap_volumes, f->n_volumes + 1))
		return NULL;
	v = &f->volumes[f->n_volumes++];
	memset(v, 0, sizeof(*v));
	v->node = node;
	return v;
}

const struct owners_stuck_namespace *owners_stuck_facts_namespace(const struct owners_stuck_facts *f,
								  uint32_t node)
{
	size_t i;

	for (i = 0; f && i < f->n_namespaces; i++)
		if (f->namespaces[i].node == node)
			return &f->namespaces[i];
	return NULL;
}

const struct owners_stuck_pods *owners_stuck_facts_pods(const struct owners_stuck_facts *f,
							const char *namespace_)
{
	size_t i;

	for (i = 0; f && i < f->n_pods; i++)
		if (!strcmp(f->pods[i].namespace_, namespace_))
			return &f->pods[i];
	return NULL;
}

const struct owners_stuck_volume *owners_stuck_facts_volume(const struct owners_stuck_facts *f,
							    uint32_t node)
{
	size_t i;

	for (i = 0; f && i < f->n_volumes; i++)
		if (f->volumes[i].node == node)
			return &f->volumes[i];
	return NULL;
}

/* ---- kinds of objects -------------------------------------------------------- */

int owners_stuck_is_namespace(const struct owners_node *n)
{
	return owners_graph_node_is_core(n, "namespaces");
}

int owners_stuck_is_pvc(const struct owners_node *n)
{
	return owners_graph_node_is_core(n, "persistentvolumeclaims");
}

int owners_stuck_is_pv(const struct owners_node *n)
{
	return owners_graph_node_is_core(n, "persistentvolumes");
}

int owners_stuck_has_finalizer(const struct owners_node *n, const char *name)
{
	uint32_t i;

	for (i = 0; i < n->extras->n_finalizers; i++)
		if (!strcmp(n->extras->finalizers[i], name))
			return 1;
	return 0;
}

int owners_stuck_is_stuck(const struct owners_graph *g, const struct owners_stuck_facts *f,
			  uint32_t node)
{
	const struct owners_node *n = &g->nodes[node];
	const struct owners_stuck_namespace *ns;

	if (n->virtual_ || !n->extras->deleted)
		return 0;
	if (n->extras->n_finalizers)
		return 1;
	if (!owners_stuck_is_namespace(n))
		return 0;
	ns = owners_stuck_facts_namespace(f, node);
	return !ns || ns->error || ns->n_spec_finalizers;
}

/* ---- the explanation ------------------------------------------------------ */

const char *owners_stuck_reason_name(enum owners_stuck_reason r)
{
	switch (r) {
	case OWNERS_STUCK_BLOCKING_DEPENDENTS: return "blocking-dependents";
	case OWNERS_STUCK_DEPENDENTS_TO_RELEASE: return "dependents-to-release";
	case OWNERS_STUCK_GARBAGE_COLLECTOR: return "garbage-collector";
	case OWNERS_STUCK_NAMESPACE_CONTENT: return "namespace-content";
	case OWNERS_STUCK_NAMESPACE_CONTROLLER: return "namespace-controller";
	case OWNERS_STUCK_IN_USE: return "in-use";
	case OWNERS_STUCK_BOUND: return "bound";
	case OWNERS_STUCK_RELEASED: return "released";
	case OWNERS_STUCK_CONTROLLER: return "controller";
	case OWNERS_STUCK_UNKNOWN: return "unknown";
	case OWNERS_STUCK_DEADLOCK: return "deadlock";
	}
	return "unknown";
}

/* What explaining one node needs: the graph, the facts, and the nodes
 * still to explain (a work list, so a long chain of stuck owners costs
 * no stack). */
struct explainer {
	struct owners_stuck_report *rep;
	struct owners_graph *g;
	const struct owners_stuck_facts *f;
	uint32_t *todo;
	size_t n_todo, cap_todo;
};

static void finalizer_clear(struct owners_stuck_finalizer *fin)
{
	free(fin->message);
	free(fin->objects);
	free(fin->content);
	free(fin->conditions);
	free(fin->pods);
}

static int set_message(struct owners_stuck_finalizer *fin, enum owners_stuck_reason reason,
		       const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int set_message(struct owners_stuck_finalizer *fin, enum owners_stuck_reason reason,
		       const char *fmt, ...)
{
	struct owners_buf b = OWNERS_BUF_INIT;
	va_list ap;
	int rc;

	fin->reason = reason;
	va_start(ap, fmt);
	rc = owners_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	if (!rc && !(fin->message = owners_buf_detach(&b)))
		rc = OWNERS_ENOMEM;
	owners_buf_clear(&b);
	return rc;
}

static int by_pod_name(const void *a, const void *b)
{
	return strcmp((*(const struct owners_pod_claim_use *const *)a)->pod,
		      (*(const struct owners_pod_claim_use *const *)b)->pod);
}

static int add_object(struct owners_stuck_finalizer *fin, size_t *cap, uint32_t node)
{
	size_t i;

	for (i = 0; i < fin->n_objects; i++)
		if (fin->objects[i] == node)
			return 0; /* two references to the same owner: one dependent */
	if (OWNERS_GROW(fin->objects, *cap, fin->n_objects + 1))
		return OWNERS_ENOMEM;
	fin->objects[fin->n_objects++] = node;
	return 0;
}

/* Nodes named by an explanation that are themselves stuck get explained too. */
static int want(struct explainer *x, uint32_t node)
{
	if (!owners_stuck_is_stuck(x->g, x->f, node))
		return 0;
	if (OWNERS_GROW(x->todo, x->cap_todo, x->n_todo + 1))
		return OWNERS_ENOMEM;
	x->todo[x->n_todo++] = node;
	return 0;
}

static const char *plural(size_t n)
{
	return n == 1 ? "" : "s";
}

/* The graph's deadlocks, once per report. */
static int find_deadlocks(struct explainer *x)
{
	struct owners_collector *c = NULL;
	int rc;

	if (x->rep->deadlocks_found)
		return 0;
	if ((rc = owners_collector_new(&c, x->g)) || (rc = owners_deadlocks_find(&x->rep->deadlocks, c))) {
		owners_collector_free(c);
		return rc;
	}
	owners_collector_free(c);
	x->rep->deadlocks_found = 1;
	return 0;
}

/* foregroundDeletion and orphan: the dependents the garbage collector waits
 * for (foreground: those whose reference blocks owner deletion; orphan:
 * every one still referencing the object). */
static int explain_gc(struct explainer *x, uint32_t node, struct owners_stuck_finalizer *fin,
		      int foreground)
{
	const struct owners_node *n = &x->g->nodes[node];
	size_t cap = 0, i;
	uint32_t k;
	int rc = 0;

	for (i = 0; !rc && i < n->n_dependents; i++) {
		uint32_t d = owners_graph_dependents(x->g, n)[i];
		const struct owners_node *dep = &x->g->nodes[d];

		if (dep->virtual_)
			continue;
		for (k = 0; !rc && k < dep->n_refs; k++)
			if (dep->refs[k].owner == node &&
			    (!foreground || dep->refs[k].block_owner_deletion))
				rc = add_object(fin, &cap, d);
	}
	for (i = 0; !rc && i < fin->n_objects; i++)
		rc = want(x, fin->objects[i]);
	if (rc)
		return rc;
	if (!fin->n_objects)
		return set_message(fin, OWNERS_STUCK_GARBAGE_COLLECTOR,
				   "no dependent %s any more: the garbage collector removes this "
				   "finalizer when it next processes the object (is it running?)",
				   foreground ? "blocks owner deletion" : "references the object");
	if (foreground && (rc = find_deadlocks(x)))
		return rc;
	if (foreground && (fin->deadlock = owners_deadlocks_of(&x->rep->deadlocks, node)))
		return set_message(fin, OWNERS_STUCK_DEADLOCK,
				   "a deadlock: the dependent%s that block%s owner deletion wait%s on this "
				   "object in turn, all in foreground deletion; no one ends it, the garbage "
				   "collector included",
				   plural(fin->n_objects), fin->n_objects == 1 ? "s" : "",
				   fin->n_objects == 1 ? "s" : "");
	if (foreground)
		return set_message(fin, OWNERS_STUCK_BLOCKING_DEPENDENTS,
				   "waiting for %zu dependent%s that block%s owner deletion "
				   "(blockOwnerDeletion) to be deleted first",
				   fin->n_objects, plural(fin->n_objects), fin->n_objects == 1 ? "s" : "");
	return set_message(fin, OWNERS_STUCK_DEPENDENTS_TO_RELEASE,
			   "waiting for the garbage collector to release %zu dependent%s (remove "
			   "their ownerReference to this object)",
			   fin->n_objects, plural(fin->n_objects));
}

static int condition_true(const struct owners_stuck_condition *c)
{
	return c->status && !strcmp(c->status, "True");
}

/* The namespace controller reports that it cannot finish. */
static int namespace_failing(const struct owners_stuck_namespace *ns)
{
	size_t i;

	for (i = 0; i < ns->n_conditions; i++) {
		const struct owners_stuck_condition *c = &ns->conditions[i];

		if (condition_true(c) && c->type &&
		    (!strcmp(c->type, "NamespaceDeletionDiscoveryFailure") ||
		     !strcmp(c->type, "NamespaceDeletionGroupVersionParsingFailure") ||
		     !strcmp(c->type, "NamespaceDeletionContentFailure")))
			return 1;
	}
	return 0;
}

static int cmp_content(const void *a, const void *b)
{
	const struct owners_stuck_content *x = a, *y = b;
	int c = strcmp(x->resource->group, y->resource->group);

	return c ? c : strcmp(x->resource->resource, y->resource->resource);
}

/* The namespace's `kubernetes` finalizer: what is still in it. */
static int explain_namespace(struct explainer *x, uint32_t node, struct owners_stuck_finalizer *fin)
{
	struct owners_graph *g = x->g;
	const char *name = g->nodes[node].name;
	const struct owners_stuck_namespace *ns = owners_stuck_facts_namespace(x->f, node);
	size_t cap = 0, cap_content = 0, i, k, stuck = 0;
	int rc = 0;

	if (!ns || ns->error)
		return set_message(fin, OWNERS_STUCK_UNKNOWN, "cannot read the namespace: %s",
				   ns ? ns->error : "not read");
	if (ns->n_conditions) {
		fin->conditions = calloc(ns->n_conditions, sizeof(*fin->conditions));
		if (!fin->conditions)
			return OWNERS_ENOMEM;
		for (i = 0; i < ns->n_conditions; i++)
			if (condition_true(&ns->conditions[i]))
				fin->conditions[fin->n_conditions++] = &ns->conditions[i];
	}
	if (!ns->content_listed)
		return set_message(fin, OWNERS_STUCK_UNKNOWN,
				   "the namespace controller removes it once the namespace is empty; "
				   "its content was not listed");
	for (i = 0; !rc && i < g->count; i++) {
		const struct owners_node *n = &g->nodes[i];
		struct owners_stuck_content *c = NULL;

		if (n->virtual_ || !*n->place->namespace_ || strcmp(n->place->namespace_, name))
			continue;
		for (k = 0; k < fin->n_content; k++)
			if (fin->content[k].resource == n->place->resource)
				c = &fin->content[k];
		if (!c) {
			if (OWNERS_GROW(fin->content, cap_content, fin->n_content + 1))
				return OWNERS_ENOMEM;
			c = &fin->content[fin->n_content++];
			memset(c, 0, sizeof(*c));
			c->resource = n->place->resource;
		}
		c->count++;
		fin->content_objects++;
		if (owners_stuck_is_stuck(g, x->f, (uint32_t)i)) {
			c->stuck++;
			stuck++;
			rc = add_object(fin, &cap, (uint32_t)i);
			if (!rc)
				rc = want(x, (uint32_t)i);
		}
	}
	if (rc)
		return rc;
	/* the stuck content in the node order, not the order listed */
	owners_graph_sort_nodes(g, fin->objects, fin->n_objects);
	if (fin->n_content)
		qsort(fin->content, fin->n_content, sizeof(*fin->content), cmp_content);
	for (i = 0; i < g->n_listings; i++) {
		const struct owners_listing *l = &g->listings[i];

		if (l->rc && l->resource->namespaced &&
		    (!l->namespace_ || !strcmp(l->namespace_, name)))
			fin->content_unlisted++;
	}
	if (fin->content_objects && stuck)
		return set_message(fin, OWNERS_STUCK_NAMESPACE_CONTENT,
				   "the namespace controller removes it once the namespace is empty: "
				   "%zu object%s left, %zu of them stuck in deletion",
				   fin->content_objects, plural(fin->content_objects), stuck);
	if (fin->content_objects)
		return set_message(fin, OWNERS_STUCK_NAMESPACE_CONTENT,
				   "the namespace controller removes it once the namespace is empty: "
				   "%zu object%s left",
				   fin->content_objects, plural(fin->content_objects));
	if (namespace_failing(ns))
		return set_message(fin, OWNERS_STUCK_NAMESPACE_CONTROLLER,
				   "the namespace looks empty%s, but the namespace controller reports "
				   "a failure (see the conditions) and keeps the finalizer until it "
				   "is resolved",
				   fin->content_unlisted ? " (except types that could not be listed)" : "");
	return set_message(fin, OWNERS_STUCK_NAMESPACE_CONTROLLER,
			   "the namespace looks empty%s: the namespace controller "
			   "(kube-controller-manager) removes it on its next pass (is it running?)",
			   fin->content_unlisted ? " (except types that could not be listed)" : "");
}

static int explain_pvc(struct explainer *x, uint32_t node, struct owners_stuck_finalizer *fin)
{
	const struct owners_node *n = &x->g->nodes[node];
	const struct owners_stuck_pods *p = owners_stuck_facts_pods(x->f, n->place->namespace_);
	size_t i, holding = 0;

	if (!p || p->error)
		return set_message(fin, OWNERS_STUCK_UNKNOWN,
				   "held while a pod uses the claim; cannot tell which: %s",
				   p ? p->error : "the pods were not read");
	fin->pods = calloc(p->pods.count ? p->pods.count : 1, sizeof(*fin->pods));
	if (!fin->pods)
		return OWNERS_ENOMEM;
	for (i = 0; i < p->pods.count; i++) {
		const struct owners_pod_claim_use *u = &p->pods.pods[i];

		if (!owners_pod_references_claim(u, n->name))
			continue;
		fin->pods[fin->n_pods++] = u;
		holding += owners_pod_holds_claim(u, n->name);
	}
	/* by name, not in the pod list's order */
	qsort(fin->pods, fin->n_pods, sizeof(*fin->pods), by_pod_name);
	if (holding)
		return set_message(fin, OWNERS_STUCK_IN_USE,
				   "in use by %zu pod%s: the pvc-protection controller removes it once "
				   "no scheduled pod mounts the claim",
				   holding, plural(holding));
	return set_message(fin, OWNERS_STUCK_RELEASED,
			   "no scheduled pod mounts the claim%s: the pvc-protection controller "
			   "(kube-controller-manager) removes it on its next pass (is it running?)",
			   fin->n_pods ? " (pods that are not scheduled do not count)" : "");
}

static int explain_pv(struct explainer *x, uint32_t node, struct owners_stuck_finalizer *fin)
{
	const struct owners_stuck_volume *v = owners_stuck_facts_volume(x->f, node);

	if (!v || v->error)
		return set_message(fin, OWNERS_STUCK_UNKNOWN,
				   "held while the volume is bound to a claim; cannot tell: %s",
				   v ? v->error : "the volume was not read");
	fin->volume = v;
	if (v->phase && !strcmp(v->phase, "Bound"))
		return set_message(fin, OWNERS_STUCK_BOUND,
				   "bound to a claim: the pv-protection controller removes it once the "
				   "volume is released");
	return set_message(fin, OWNERS_STUCK_RELEASED,
			   "not bound (phase %s): the pv-protection controller "
			   "(kube-controller-manager) removes it on its next pass (is it running?)",
			   v->phase && *v->phase ? v->phase : "unknown");
}

static int explain_one(struct explainer *x, uint32_t node, struct owners_stuck_finalizer *fin)
{
	const struct owners_node *n = &x->g->nodes[node];

	if (fin->spec && !strcmp(fin->name, OWNERS_FINALIZER_NAMESPACE))
		return explain_namespace(x, node, fin);
	if (fin->spec)
		return set_message(fin, OWNERS_STUCK_CONTROLLER,
				   "a namespace finalizer of another system: its controller must "
				   "remove it (through the finalize subresource)");
	if (!strcmp(fin->name, OWNERS_FINALIZER_FOREGROUND))
		return explain_gc(x, node, fin, 1);
	if (!strcmp(fin->name, OWNERS_FINALIZER_ORPHAN))
		return explain_gc(x, node, fin, 0);
	if (!strcmp(fin->name, OWNERS_FINALIZER_PVC) && owners_stuck_is_pvc(n))
		return explain_pvc(x, node, fin);
	if (!strcmp(fin->name, OWNERS_FINALIZER_PV) && owners_stuck_is_pv(n))
		return explain_pv(x, node, fin);
	return set_message(fin, OWNERS_STUCK_CONTROLLER,
			   "its controller must remove it once its cleanup is done; if that "
			   "controller is gone (uninstalled, crashed), nobody will");
}

static int item_add(struct owners_stuck_report *rep, const struct owners_graph *g, uint32_t node,
		    size_t *index)
{
	struct owners_stuck_item *it;

	size_t old = rep->n_item_of;

	/* item_of is as long as its room, zeroed past the last item. */
	if (OWNERS_GROW(rep->item_of, rep->n_item_of, g->count))
		return OWNERS_ENOMEM;
	memset(rep->item_of + old, 0, (rep->n_item_of - old) * sizeof(*rep->item_of));
	if (OWNERS_GROW(rep->items, rep->cap, rep->count + 1))
		return OWNERS_ENOMEM;
	it = &rep->items[rep->count++];
	memset(it, 0, sizeof(*it));
	it->node = node;
	*index = rep->count - 1;
	rep->item_of[node] = (uint32_t)rep->count;
	return 0;
}

/* Builds the item of one node; the nodes it names go on the work list. */
static int explain_node(struct explainer *x, uint32_t node, int top)
{
	const struct owners_node *n = &x->g->nodes[node];
	const struct owners_stuck_namespace *ns = NULL;
	struct owners_stuck_finalizer *fins = NULL;
	size_t n_fins = 0, i, index;
	int rc;

	if (node < x->rep->n_item_of && x->rep->item_of[node]) {
		if (top)
			x->rep->items[x->rep->item_of[node] - 1].top = 1;
		return 0;
	}
	if ((rc = item_add(x->rep, x->g, node, &index)))
		return rc;
	x->rep->items[index].top = top;
	if (owners_stuck_is_namespace(n)) {
		ns = owners_stuck_facts_namespace(x->f, node);
		if (!ns)
			x->rep->items[index].error = "the namespace was not read";
		else if (ns->error)
			x->rep->items[index].error = ns->error;
	}
	n_fins = n->extras->n_finalizers + (ns && !ns->error ? ns->n_spec_finalizers : 0);
	fins = calloc(n_fins ? n_fins : 1, sizeof(*fins));
	if (!fins)
		return OWNERS_ENOMEM;
	/* A namespace's spec.finalizers first: that is what keeps it Terminating. */
	for (i = 0; ns && !ns->error && i < ns->n_spec_finalizers; i++) {
		fins[i].name = ns->spec_finalizers[i];
		fins[i].spec = 1;
	}
	for (; i < n_fins; i++)
		fins[i].name = n->extras->finalizers[i - (n_fins - n->extras->n_finalizers)];
	for (i = 0; !rc && i < n_fins; i++)
		rc = explain_one(x, node, &fins[i]);
	if (rc) {
		for (i = 0; i < n_fins; i++)
			finalizer_clear(&fins[i]);
		free(fins);
		return rc;
	}
	x->rep->items[index].finalizers = fins;
	x->rep->items[index].n_finalizers = n_fins;
	return 0;
}

int owners_stuck_explain(struct owners_stuck_report *rep, struct owners_graph *g,
			 const struct owners_stuck_facts *f, uint32_t node)
{
	struct explainer x;
	int rc;

	memset(&x, 0, sizeof(x));
	x.rep = rep;
	x.g = g;
	x.f = f;
	rc = explain_node(&x, node, 1);
	while (!rc && x.n_todo)
		rc = explain_node(&x, x.todo[--x.n_todo], 0);
	free(x.todo);
	return rc;
}

const struct owners_stuck_item *owners_stuck_item_of(const struct owners_stuck_report *rep,
						     uint32_t node)
{
	if (node >= rep->n_item_of || !rep->item_of[node])
		return NULL;
	return &rep->items[rep->item_of[node] - 1];
}

/* The top of each chain first, then the graph's node order. */
static int cmp_items(const void *a, const void *b, void *ctx)
{
	const struct owners_stuck_item *x = a, *y = b;

	if (x->top != y->top)
		return y->top - x->top;
	return owners_graph_node_cmp(ctx, x->node, y->node);
}

void owners_stuck_sort(struct owners_stuck_report *rep, const struct owners_graph *g)
{
	size_t i;

	if (!rep->count)
		return;
	owners_qsort_r(rep->items, rep->count, sizeof(*rep->items), cmp_items, (void *)g);
	for (i = 0; i < rep->count; i++)
		rep->item_of[rep->items[i].node] = (uint32_t)i + 1;
}

int owners_stuck_explain_each(struct owners_stuck_report *rep, size_t *stuck,
			      struct owners_graph *g, const struct owners_stuck_facts *f,
			      const uint32_t *nodes, size_t n)
{
	size_t i;

	*stuck = 0;
	for (i = 0; i < n; i++) {
		if (!owners_stuck_is_stuck(g, f, nodes[i]))
			continue;
		if (owners_stuck_explain(rep, g, f, nodes[i]))
			return OWNERS_ENOMEM;
		(*stuck)++;
	}
	owners_stuck_sort(rep, g);
	return 0;
}

void owners_stuck_report_clear(struct owners_stuck_report *rep)
{
	size_t i, k;

	if (!rep)
		return;
	for (i = 0; i < rep->count; i++) {
		for (k = 0; k < rep->items[i].n_finalizers; k++)
			finalizer_clear(&rep->items[i].finalizers[k]);
		free(rep->items[i].finalizers);
	}
	free(rep->items);
	free(rep->item_of);
	owners_deadlocks_clear(&rep->deadlocks);
	memset(rep, 0, sizeof(*rep));
}
