/* Which objects a command's arguments name (see selection.h). */
#include <stdlib.h>
#include <string.h>

#include "api_path.h"
#include "graph_mark.h"
#include "scan.h"
#include "selection.h"
#include "sort.h"

/* ---- targets: where each argument is ---------------------------------- */

static int same_target(const struct owners_selection_target *a, const struct owners_selection_target *b)
{
	if (a->type != b->type || !a->name != !b->name || !a->namespace_ != !b->namespace_)
		return 0;
	return (!a->name || !strcmp(a->name, b->name)) &&
	       (!a->namespace_ || !strcmp(a->namespace_, b->namespace_));
}

/* The written form of an argument, as the messages quote it. */
static int type_name(struct owners_buf *out, const struct owners_resource *r)
{
	owners_buf_reset(out);
	return owners_api_type_name(out, r);
}

static int target_of(struct owners_selection_target *t, const struct owners_selection_arg *a,
		     const struct owners_selection_scope *scope, struct owners_error *err)
{
	t->type = a->type;
	t->name = a->name;
	t->flags = OWNERS_MARK_CLUSTER_SCOPED;
	if (!a->type->namespaced)
		t->namespace_ = "";
	else
		t->namespace_ = scope->all_namespaces && !(a->name && scope->names_in_namespace) ? NULL
											 : scope->namespace_;
	if (a->name && scope->selector)
		return owners_error_set(err, OWNERS_EINVAL,
					"a name cannot be given with a selector (-l): '%s' names one "
					"object, -l %s picks objects of a type",
					a->name, scope->selector);
	if (a->name && !t->namespace_) {
		struct owners_buf type = OWNERS_BUF_INIT;
		int rc = type_name(&type, a->type) ? owners_error_oom(err)
						     : owners_error_set(err, OWNERS_EINVAL,
									"a resource cannot be retrieved by name "
									"across all namespaces: use -n NAMESPACE "
									"for %s '%s'",
									type.ptr, a->name);

		owners_buf_clear(&type);
		return rc;
	}
	return 0;
}

int owners_selection_targets(struct owners_selection_target **out, size_t *n,
			     const struct owners_selection_arg *args, size_t n_args,
			     const struct owners_selection_scope *scope, struct owners_error *err)
{
	struct owners_selection_target *t = calloc(n_args ? n_args : 1, sizeof(*t));
	size_t i, k;
	int rc = 0;

	*out = NULL;
	*n = 0;
	if (!t)
		return owners_error_oom(err);
	if (!n_args && scope->everything_when_none) {
		t[0].namespace_ = scope->all_namespaces ? NULL : scope->namespace_;
		t[0].flags = scope->everything_flags;
		*n = 1;
	}
	for (i = 0; !rc && i < n_args; i++) {
		if ((rc = target_of(&t[*n], &args[i], scope, err)))
			break;
		for (k = 0; k < *n && !same_target(&t[k], &t[*n]); k++)
			;
		if (k == *n) /* named twice: once */
			(*n)++;
	}
	if (rc) {
		free(t);
		*n = 0;
		return rc;
	}
	*out = t;
	return 0;
}

void owners_selection_targets_free(struct owners_selection_target *targets)
{
	free(targets);
}

/* ---- finding them in the graph ---------------------------------------- */

static int pick(struct owners_selection *s, uint32_t node, int how)
{
	int seen = s->picked[node];

	s->picked[node] |= (unsigned char)(OWNERS_SELECTED | how);
	return seen ? 0 : owners_graph_node_list_push(&s->nodes, &s->count, &s->cap, node);
}

int owners_selection_add(struct owners_selection *s, uint32_t node)
{
	return pick(s, node, 0);
}

static int by_uid(const void *a, const void *b, void *ctx)
{
	const struct owners_graph *g = ctx;

	return strcmp(OWNERS_NODE_UID(&g->nodes[*(const uint32_t *)a]),
		      OWNERS_NODE_UID(&g->nodes[*(const uint32_t *)b]));
}

/* Adds the marked nodes in the node order (owners_graph_node_cmp()), not
 * the order they were listed in: what one argument selects comes out the
 * same whatever order its lists arrived in. */
static int add_marked(struct owners_selection *s, const struct owners_graph *g, const unsigned char *marks,
		      int how)
{
	size_t first = s->count;
	uint32_t i;

	for (i = 0; i < g->count; i++)
		if (marks[i] && pick(s, i, how))
			return OWNERS_ENOMEM;
	owners_graph_sort_nodes(g, s->nodes + first, s->count - first);
	return 0;
}

/* Whether some namespace's list of type r was made whole. */
static int listed_somewhere(const struct owners_graph *g, const struct owners_resource *r)
{
	size_t i;

	for (i = 0; i < g->n_listings; i++)
		if (g->listings[i].resource == r && g->listings[i].namespace_ && !g->listings[i].rc)
			return 1;
	return 0;
}

/* Whether the graph holds what target t names: the object named; for a
 * type alone in every namespace, its lists of some namespaces (a dump's
 * per-namespace lists: what they hold is shown, the rest warned about). */
static int held(struct owners_graph *g, const struct owners_selection_target *t)
{
	uint32_t found = OWNERS_NO_NODE;

	if (!t->name)
		return !t->namespace_ && listed_somewhere(g, t->type);
	return !owners_graph_find_name(g, t->type, t->namespace_ ? t->namespace_ : "", t->name, &found) &&
	       found != OWNERS_NO_NODE;
}

/* An object is looked for only in a list that was made: "not in the
 * graph" must mean "not in the cluster", never "not listed". */
static int check_listed(const struct owners_graph *g, const struct owners_selection_target *t,
			struct owners_error *err)
{
	const struct owners_listing *l = NULL;
	struct owners_buf type = OWNERS_BUF_INIT;
	int rc = 0;

	if (type_name(&type, t->type))
		return owners_error_oom(err);
	if (!(t->type->verbs & OWNERS_VERB_LIST)) {
		rc = owners_error_set(err, OWNERS_ENOTFOUND,
				      "'%s' objects cannot be looked at: the type cannot be listed", type.ptr);
	} else {
		switch (owners_graph_listing_state(g, t->type, t->namespace_, &l)) {
		case OWNERS_LISTING_OK:
			break;
		case OWNERS_LISTING_FAILED:
			rc = owners_error_set(err, l && l->rc ? l->rc : OWNERS_ESERVER, "%s",
					      l && l->message ? l->message : "cannot list the type");
			break;
		case OWNERS_LISTING_NOT_LISTED:
			if (!owners_scan_wants(t->type))
				rc = owners_error_set(err, OWNERS_ENOTFOUND,
						      "'%s' objects are not checked: the garbage collector "
						      "does not track them (events, or a type that cannot be "
						      "listed, watched and deleted)",
						      type.ptr);
			else if (t->namespace_ && *t->namespace_)
				rc = owners_error_set(err, OWNERS_ENOTFOUND,
						      "'%s' objects in namespace '%s' were not listed, so "
						      "none can be looked for",
						      type.ptr, t->namespace_);
			else
				rc = owners_error_set(err, OWNERS_ENOTFOUND,
						      "'%s' objects were not listed, so none can be looked for",
						      type.ptr);
			break;
		}
	}
	owners_buf_clear(&type);
	return rc;
}

/* The objects that still name the absent owner marked in marks (each
 * once: one may name it under two UIDs). */
static size_t still_owned(const struct owners_graph *g, const unsigned char *marks, unsigned char *seen)
{
	size_t n = 0;
	uint32_t i, k;

	for (i = 0; i < g->count; i++)
		for (k = 0; marks[i] && k < g->nodes[i].n_dependents; k++) {
			uint32_t d = owners_graph_dependents(g, &g->nodes[i])[k];

			if (!seen[d] && !g->nodes[d].virtual_) {
				seen[d] = 1;
				n++;
			}
		}
	return n;
}

/* " --resume=UID,...": the UIDs the absent owner marked in marks had, so
 * that the command, run after the garbage collector finished the job,
 * says already done (and leaves a new object of that name alone). */
static int resume_uids(struct owners_buf *out, const struct owners_graph *g,
		       const unsigned char *marks)
{
	uint32_t i, *v = NULL;
	size_t n = 0, cap = 0, k;
	int rc = 0;

	/* by UID: the printed command is the same whatever the lists' order */
	for (i = 0; !rc && i < g->count; i++)
		if (marks[i])
			rc = owners_graph_node_list_push(&v, &n, &cap, i);
	if (!rc)
		owners_qsort_r(v, n, sizeof(*v), by_uid, (void *)g);
	for (k = 0; !rc && k < n; k++)
		rc = owners_buf_addf(out, "%s%s",
				     k ? "," : " --resume=", OWNERS_NODE_UID(&g->nodes[v[k]]));
	free(v);
	return rc;
}

/* "deployments.apps 'web' not found in namespace 'ns'", and when objects
 * still name it as their owner (it went before them: a cascade cut short,
 * or a GC that has not caught up), how many and the command that finishes
 * what its deletion started (owners delete finds an owner by the
 * references left: selection's absent_owners). */
static int not_found(struct owners_buf *out, const struct owners_graph *g,
		     const struct owners_selection_target *t)
{
	unsigned char *marks = calloc(g->count + 1, 1), *seen = calloc(g->count + 1, 1);
	size_t left = 0;
	int rc = marks && seen ? owners_api_type_name(out, t->type) : OWNERS_ENOMEM;

	if (!rc && *t->namespace_)
		rc = owners_buf_addf(out, " '%s' not found in namespace '%s'", t->name, t->namespace_);
	else if (!rc)
		rc = owners_buf_addf(out, " '%s' not found", t->name);
	if (!rc && owners_graph_mark_absent(marks, g, t->type, t->namespace_, t->name))
		left = still_owned(g, marks, seen);
	if (!rc && left) {
		rc = owners_buf_addf(out, "; %zu object%s still name%s it as owner (its deletion left "
					  "them, or the garbage collector has not caught up): 'owners "
					  "delete ",
				     left, left == 1 ? "" : "s", left == 1 ? "s" : "");
		if (!rc)
			rc = owners_api_type_name(out, t->type);
		if (!rc)
			rc = owners_buf_addf(out, "/%s", t->name);
		if (!rc && *t->namespace_)
			rc = owners_buf_addf(out, " -n %s", t->namespace_);
		if (!rc)
			rc = resume_uids(out, g, marks);
		if (!rc)
			rc = owners_buf_adds(out, "' finishes it");
	}
	free(marks);
	free(seen);
	return rc;
}

static int find_named(struct owners_selection *s, struct owners_graph *g, unsigned char *marks,
		      const struct owners_selection_target *t, const struct owners_selection_options *o,
		      struct owners_error *err)
{
	struct owners_buf line = OWNERS_BUF_INIT;
	uint32_t node;
	int rc;

	if (owners_graph_find_name(g, t->type, t->namespace_, t->name, &node))
		return owners_error_oom(err);
	if (node != OWNERS_NO_NODE)
		return pick(s, node, OWNERS_SELECTED_NAMED) ? owners_error_oom(err) : 0;
	if (o->absent_owners) {
		memset(marks, 0, g->count);
		if (owners_graph_mark_absent(marks, g, t->type, t->namespace_, t->name))
			return add_marked(s, g, marks, OWNERS_SELECTED_NAMED) ? owners_error_oom(err) : 0;
	}
	switch (o->missing) {
	case OWNERS_SELECTION_MISSING_IGNORED:
		return 0;
	case OWNERS_SELECTION_MISSING_NOTED:
		if (not_found(&s->not_found, g, t) || owners_buf_addc(&s->not_found, '\n'))
			return owners_error_oom(err);
		s->n_not_found++;
		return 0;
	case OWNERS_SELECTION_MISSING_FAILS:
		break;
	}
	if (not_found(&line, g, t))
		rc = owners_error_oom(err);
	else
		rc = owners_error_set(err, OWNERS_ENOTFOUND, "%s", line.ptr);
	owners_buf_clear(&line);
	return rc;
}

/* Every object of the type (in its namespace, and cluster-scoped ones),
 * or of every type for everything; with a selector, those that match. */
static int find_all(struct owners_selection *s, const struct owners_graph *g, unsigned char *marks,
		    const struct owners_selection_target *t, const struct owners_selection_options *o,
		    struct owners_error *err)
{
	int rc;

	memset(marks, 0, g->count);
	owners_graph_mark(marks, g, t->type, t->namespace_, t->flags);
	if (t->type && o->match) {
		unsigned char *matched = calloc(g->count ? g->count : 1, 1);
		uint32_t i;

		if (!matched)
			return owners_error_oom(err);
		if ((rc = o->match(o->match_ctx, matched, t, err))) {
			free(matched);
			return rc;
		}
		for (i = 0; i < g->count; i++)
			marks[i] &= matched[i];
		free(matched);
	}
	return add_marked(s, g, marks, t->type && o->match ? OWNERS_SELECTED_NAMED : 0) ? owners_error_oom(err)
											 : 0;
}

int owners_selection_find(struct owners_selection *out, struct owners_graph *g,
			  const struct owners_selection_target *targets, size_t n,
			  const struct owners_selection_options *o, struct owners_error *err)
{
	unsigned char *marks;
	size_t i;
	int rc = 0;

	owners_selection_clear(out);
	out->picked = calloc(g->count ? g->count : 1, 1);
	marks = calloc(g->count ? g->count : 1, 1);
	if (!out->picked || !marks) {
		free(marks);
		owners_selection_clear(out);
		return owners_error_oom(err);
	}
	/* Every list first: a type that cannot be read stops the command
	 * before anything of it is shown or changed. */
	for (i = 0; !rc && !o->skip_listing_checks && i < n; i++)
		if (targets[i].type && !(o->found_is_enough && held(g, &targets[i])))
			rc = check_listed(g, &targets[i], err);
	for (i = 0; !rc && i < n; i++)
		rc = targets[i].name ? find_named(out, g, marks, &targets[i], o, err)
				     : find_all(out, g, marks, &targets[i], o, err);
	free(marks);
	if (rc)
		owners_selection_clear(out);
	return rc;
}

void owners_selection_clear(struct owners_selection *s)
{
	free(s->nodes);
	free(s->picked);
	owners_buf_clear(&s->not_found);
	s->nodes = NULL;
	s->count = s->cap = 0;
	s->picked = NULL;
	s->n_not_found = 0;
}
