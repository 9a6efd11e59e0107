#include "tree.h"
#include "palette.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api_path.h"
#include "grow.h"
#include "json.h"
#include "node_dot.h"
#include "document_json.h"
#include "node_json.h"
#include "relation_render.h"
#include "sort.h"
#include "timeutil.h"

/* ---- building ------------------------------------------------------- */

struct frame {
	uint32_t node;
	uint32_t *children;  /* node indexes (down) or ref indexes (up) */
	uint32_t n_children;
	uint32_t next;
	/* then its relations' rows: what it uses (down), or a root's users
	 * (up): indexes of rel->items */
	const size_t *rels;
	size_t n_rels, next_rel;
};

/* A node's children by kind first, not namespace first as the node
 * order goes: under one owner the rows read as one group per kind. The
 * dependents of a namespaced owner are in its namespace, where both
 * agree; a cluster-scoped owner's dependents (in several namespaces) are
 * where they differ, and this is the order `owners tree` has always
 * printed them in. */
static int children_cmp(const void *a, const void *b, void *ctx)
{
	return owners_graph_node_order(ctx, *(const uint32_t *)a, *(const uint32_t *)b,
				       OWNERS_NODE_ORDER_KIND_FIRST);
}

static int push_row(struct owners_tree *t, const struct owners_tree_row *row)
{
	if (OWNERS_GROW(t->rows, t->cap, t->count + 1))
		return OWNERS_ENOMEM;
	t->rows[t->count++] = *row;
	return 0;
}

static int frame_open(struct frame *f, struct owners_graph *g, uint32_t node, int up,
		      const struct owners_relations *rel, int root)
{
	const struct owners_node *n = &g->nodes[node];
	uint32_t i, count = up ? n->n_refs : n->n_dependents;

	memset(f, 0, sizeof(*f));
	f->node = node;
	if (rel && !up)
		f->n_rels = owners_relations_uses_of(rel, node, &f->rels);
	else if (rel && root)
		f->n_rels = owners_relations_users_of(rel, node, &f->rels);
	if (!count)
		return 0;
	f->children = malloc(count * sizeof(*f->children));
	if (!f->children)
		return OWNERS_ENOMEM;
	for (i = 0; i < count; i++)
		f->children[i] = up ? i : owners_graph_dependents(g, n)[i];
	if (!up)
		owners_qsort_r(f->children, count, sizeof(*f->children), children_cmp, g);
	f->n_children = count;
	return 0;
}

static const struct owners_ref *ref_to(const struct owners_node *from, uint32_t owner)
{
	uint32_t i;

	for (i = 0; i < from->n_refs; i++)
		if (from->refs[i].owner == owner)
			return &from->refs[i];
	return NULL;
}

static int has_children(const struct owners_graph *g, const struct owners_relations *rel,
			uint32_t node, int up, int root)
{
	const size_t *ignored;

	if (up ? g->nodes[node].n_refs > 0 : g->nodes[node].n_dependents > 0)
		return 1;
	if (rel && !up)
		return owners_relations_uses_of(rel, node, &ignored) > 0;
	return rel && root && owners_relations_users_of(rel, node, &ignored) > 0;
}

/* The next row below frame f: its next child, else its next relation.
 * 0 when it has none left. */
static int next_child(struct frame *f, struct owners_graph *g, const struct owners_relations *rel,
		      int up, struct owners_tree_row *child)
{
	memset(child, 0, sizeof(*child));
	if (f->next < f->n_children) {
		uint32_t c = f->children[f->next++];

		if (up) {
			const struct owners_ref *ref = &g->nodes[f->node].refs[c];

			child->node = ref->owner;
			child->via = ref;
			child->via_from = f->node;
			child->via_class = owners_graph_classify_ref(g, f->node, ref);
		} else {
			child->node = c;
			child->via = ref_to(&g->nodes[c], f->node);
			child->via_from = c;
			child->via_class = OWNERS_REF_RESOLVED;
		}
	} else if (f->next_rel < f->n_rels) {
		const struct owners_relation *x = &rel->items[f->rels[f->next_rel]];
		size_t same = owners_relations_same_end(rel, g, f->rels + f->next_rel,
							f->n_rels - f->next_rel, up);

		/* one row for each object, with every relation to it */
		child->related = 1;
		child->relation = f->rels[f->next_rel];
		child->relations = f->rels + f->next_rel;
		child->n_relations = (uint32_t)same;
		f->next_rel += same;
		child->node = up ? x->user : x->used;
		child->via_class = OWNERS_REF_RESOLVED;
	} else {
		return 0;
	}
	child->last = f->next == f->n_children && f->next_rel == f->n_rels;
	return 1;
}

int owners_tree_build(struct owners_tree *t, struct owners_graph *g, const uint32_t *roots,
		      size_t n_roots, int up, int max_depth)
{
	return owners_tree_build_related(t, g, NULL, roots, n_roots, up, max_depth);
}

int owners_tree_build_related(struct owners_tree *t, struct owners_graph *g,
			      const struct owners_relations *rel, const uint32_t *roots,
			      size_t n_roots, int up, int max_depth)
{
	struct frame *stack = NULL;
	unsigned char *on_path = NULL;
	size_t r, sp = 0;
	int rc = 0;

	memset(t, 0, sizeof(*t));
	t->up = up;
	t->rel = rel;
	if (!g->linked && (rc = owners_graph_link(g)))
		return rc;
	on_path = calloc(g->count ? g->count : 1, 1);
	stack = calloc((size_t)g->count + 1, sizeof(*stack));
	if (!on_path || !stack) {
		rc = OWNERS_ENOMEM;
		goto out;
	}
	for (r = 0; r < n_roots; r++) {
		struct owners_tree_row row;

		memset(&row, 0, sizeof(row));
		row.node = roots[r];
		row.via_class = OWNERS_REF_RESOLVED;
		row.last = r + 1 == n_roots;
		if (max_depth == 0 && has_children(g, rel, roots[r], up, 1))
			row.cut = 1;
		if ((rc = push_row(t, &row)))
			goto out;
		if (max_depth == 0)
			continue;
		if ((rc = frame_open(&stack[sp], g, roots[r], up, rel, 1)))
			goto out;
		on_path[roots[r]] = 1;
		sp++;
		while (sp) {
			struct frame *f = &stack[sp - 1];
			struct owners_tree_row child;

			if (!next_child(f, g, rel, up, &child)) {
				on_path[f->node] = 0;
				free(f->children);
				f->children = NULL;
				sp--;
				continue;
			}
			child.depth = (uint32_t)sp;
			/* a relation's row down the tree is a leaf: what is
			 * used, not what that uses in turn */
			if (child.related && !up) {
				if ((rc = push_row(t, &child)))
					goto out;
				continue;
			}
			if (child.node == OWNERS_NO_NODE)
				continue;
			if (on_path[child.node]) {
				child.cycle = 1;
				if ((rc = push_row(t, &child)))
					goto out;
				continue;
			}
			if (max_depth >= 0 && (int)sp >= max_depth) {
				child.cut = has_children(g, rel, child.node, up, 0);
				if ((rc = push_row(t, &child)))
					goto out;
				continue;
			}
			if ((rc = push_row(t, &child)))
				goto out;
			if ((rc = frame_open(&stack[sp], g, child.node, up, rel, 0)))
				goto out;
			on_path[child.node] = 1;
			sp++;
		}
	}
out:
	while (sp)
		free(stack[--sp].children);
	free(stack);
	free(on_path);
	if (rc)
		owners_tree_clear(t);
	return rc;
}

/* ---- folding roots -------------------------------------------------- */

struct reach {
	struct owners_graph *g;
	uint32_t *stamp; /* per node: the walk that last saw it (0: none) */
	uint32_t *stack;
	uint32_t walk;   /* the last walk's number */
	uint32_t *found; /* the roots the last walk with stop found */
	size_t n_found, cap_found;
};

/* A new walk from start, the tree's way (down: dependents; up: owners);
 * what it reaches gets stamp[] = r->walk, and mark[] = 1 when mark is
 * given (start included). With stop, the nodes of stop it reaches (start
 * aside) are in r->found. 0, or OWNERS_ENOMEM. */
static int reach_walk(struct reach *r, uint32_t start, int up, unsigned char *mark,
		      const unsigned char *stop)
{
	size_t sp = 0;

	r->n_found = 0;
	r->stamp[start] = ++r->walk;
	r->stack[sp++] = start;
	if (mark)
		mark[start] = 1;
	while (sp) {
		const struct owners_node *n = &r->g->nodes[r->stack[--sp]];
		uint32_t i, count = up ? n->n_refs : n->n_dependents;

		for (i = 0; i < count; i++) {
			uint32_t c = up ? n->refs[i].owner : owners_graph_dependents(r->g, n)[i];

			if (c == OWNERS_NO_NODE || r->stamp[c] == r->walk)
				continue;
			r->stamp[c] = r->walk;
			if (stop && stop[c] && c != start) {
				if (OWNERS_GROW(r->found, r->cap_found, r->n_found + 1))
					return OWNERS_ENOMEM;
				r->found[r->n_found++] = c;
			}
			if (mark)
				mark[c] = 1;
			r->stack[sp++] = c; /* each node once a walk: at most count */
		}
	}
	return 0;
}

/* Whether no root outside start's own cycle reaches it: walked the other
 * way, every root found is reached from start as well. 1, 0, or
 * OWNERS_ENOMEM. */
static int is_source(struct reach *r, uint32_t start, int up, const unsigned char *is_root)
{
	size_t i, n;

	if (reach_walk(r, start, !up, NULL, is_root))
		return OWNERS_ENOMEM;
	if (!(n = r->n_found))
		return 1;
	/* r->found's contents stay: the walk below has no stop */
	reach_walk(r, start, up, NULL, NULL);
	for (i = 0; i < n; i++)
		if (r->stamp[r->found[i]] != r->walk)
			return 0;
	return 1;
}

int owners_tree_fold_roots(uint32_t *roots, size_t *n, struct owners_graph *g, int up)
{
	struct reach r = { g, NULL, NULL, 0, NULL, 0, 0 };
	unsigned char *is_root = NULL, *covered = NULL;
	size_t i, kept = 0;
	int rc = OWNERS_ENOMEM;

	if (!g->linked && (rc = owners_graph_link(g)))
		return rc;
	r.stamp = calloc((size_t)g->count + 1, sizeof(*r.stamp));
	r.stack = malloc(((size_t)g->count + 1) * sizeof(*r.stack));
	is_root = calloc((size_t)g->count + 1, 1);
	covered = calloc((size_t)g->count + 1, 1);
	if (!r.stamp || !r.stack || !is_root || !covered)
		goto out;
	for (i = 0; i < *n; i++)
		is_root[roots[i]] = 1;
	/* A root stays when no other root reaches it but round a cycle (its
	 * cycle's first root stays), and covers all it reaches: any other
	 * root hangs below one of those. */
	for (i = 0; i < *n; i++) {
		int source;

		if (covered[roots[i]])
			continue;
		if ((source = is_source(&r, roots[i], up, is_root)) < 0)
			goto out;
		if (!source)
			continue;
		if (reach_walk(&r, roots[i], up, covered, NULL))
			goto out;
		roots[kept++] = roots[i];
	}
	*n = kept;
	rc = 0;
out:
	free(r.stamp);
	free(r.stack);
	free(r.found);
	free(is_root);
	free(covered);
	return rc;
}

void owners_tree_clear(struct owners_tree *t)
{
	free(t->rows);
	memset(t, 0, sizeof(*t));
}

/* ---- shared pieces -------------------------------------------------- */

/* Why a row deserves attention, in words: deletion, cycle, dangling. */
/* A relation's row: whether what it names exists, and whether it is
 * being deleted. */
static int related_notes(struct owners_buf *out, const struct owners_render *r,
			 const struct owners_tree_row *row)
{
	const struct owners_relation *x = &r->tree->rel->items[row->relation];
	const struct owners_node *n = row->node != OWNERS_NO_NODE ? &r->g->nodes[row->node] : NULL;
	int rc = 0;

	if (x->state == OWNERS_RELATION_MISSING && !r->tree->up)
		rc = owners_buf_adds(out, "missing: it does not exist");
	else if (x->state == OWNERS_RELATION_UNKNOWN && !r->tree->up)
		rc = owners_buf_adds(out, "not visible (unknown): its type was not listed there");
	if (!rc && n && n->extras->deleted) {
		rc = owners_buf_adds(out, "deleting ");
		if (!rc)
			rc = owners_time_format_age(out, r->print.now > n->extras->deleted
								 ? r->print.now - n->extras->deleted
								 : 0);
	}
	if (!rc && row->cycle)
		rc = owners_buf_adds(out, out->len ? "; cycle" : "cycle");
	if (!rc && row->cut)
		rc = owners_buf_adds(out, out->len ? "; more below --depth" : "more below --depth");
	return rc;
}

static int row_notes(struct owners_buf *out, const struct owners_render *r,
		     const struct owners_tree_row *row)
{
	struct owners_graph *g = r->g;
	const struct owners_node *n;
	uint32_t i;
	int rc = 0;

	/* down the tree a relation's row is another object's: its own
	 * owners are not this tree's (up, a user's are: its rows follow) */
	if (row->related && (!r->tree->up || row->node == OWNERS_NO_NODE))
		return related_notes(out, r, row);
	n = &g->nodes[row->node];
	if (n->virtual_) {
		enum owners_ref_class c = row->via ? row->via_class : OWNERS_REF_ABSENT;

		rc = owners_buf_addf(out, c == OWNERS_REF_UNKNOWN ? "owner not visible (unknown)"
								  : "owner missing (%s)",
				     owners_ref_class_name(c));
	} else if (row->via && row->via_class != OWNERS_REF_RESOLVED) {
		/* Up-tree: found by UID but not where the GC would look. */
		rc = owners_buf_addf(out, "dangling reference (%s)", owners_ref_class_name(row->via_class));
	}
	if (!rc && n->extras->deleted) {
		if (out->len)
			rc = owners_buf_adds(out, "; ");
		if (!rc)
			rc = owners_buf_adds(out, "deleting ");
		if (!rc)
			rc = owners_time_format_age(out, r->print.now > n->extras->deleted
								 ? r->print.now - n->extras->deleted
								 : 0);
		for (i = 0; !rc && i < n->extras->n_finalizers; i++)
			rc = owners_buf_addf(out, "%s%s", i ? "," : ", finalizers: ", n->extras->finalizers[i]);
	}
	/* Down-tree rows name their own dangling references. */
	for (i = 0; !rc && !r->tree->up && !n->virtual_ && i < n->n_refs; i++) {
		enum owners_ref_class c = owners_graph_classify_ref(g, row->node, &n->refs[i]);

		if (c == OWNERS_REF_RESOLVED)
			continue;
		if (out->len)
			rc = owners_buf_adds(out, "; ");
		if (!rc)
			rc = owners_buf_addf(out, "%s owner %s/%s (%s)",
					     c == OWNERS_REF_UNKNOWN ? "unverifiable" : "dangling",
					     n->refs[i].type->kind, n->refs[i].name, owners_ref_class_name(c));
	}
	if (!rc && r->fates && !n->virtual_ && !row->related && r->fates[row->node].reason)
		rc = owners_buf_addf(out, "%s%s", out->len ? "; " : "", r->fates[row->node].message);
	if (!rc && row->cycle)
		rc = owners_buf_adds(out, out->len ? "; cycle" : "cycle");
	if (!rc && row->cut)
		rc = owners_buf_adds(out, out->len ? "; more below --depth" : "more below --depth");
	return rc;
}

static const char *status_ready(const struct owners_render *r, uint32_t node)
{
	const char *s = r->status && node != OWNERS_NO_NODE ? r->status[node].ready : NULL;

	return s ? s : "-";
}

static const char *status_text(const struct owners_render *r, uint32_t node)
{
	const char *s = r->status && node != OWNERS_NO_NODE ? r->status[node].status : NULL;

	return s ? s : "-";
}

/* ---- text ----------------------------------------------------------- */

enum {
	COL_NS,
	COL_NAME,
	COL_READY,
	COL_STATUS,
	COL_AGE,
	COL_RELATION,
	COL_REF,
	COL_UID,
	COL_NOTES,
	N_COLS
};

static const char *const col_titles[N_COLS] = { "NAMESPACE", "NAME",      "READY", "STATUS", "AGE",
						"RELATION",  "REFERENCE", "UID",   "NOTES" };

/* -o wide adds the reference that links a row to its parent and the UID;
 * --related the relation that does. */
static int col_shown(const struct owners_render *r, size_t c)
{
	if (c == COL_RELATION)
		return r->tree->rel != NULL;
	return r->print.wide || (c != COL_REF && c != COL_UID);
}

/* Display width of UTF-8 text: count code points, not bytes (the tree
 * prefix uses box-drawing characters). */
static size_t text_width(const char *s, size_t len)
{
	size_t w = 0, i;

	for (i = 0; i < len; i++)
		if (((unsigned char)s[i] & 0xC0) != 0x80)
			w++;
	return w;
}

static int add_padded(struct owners_buf *out, const char *s, size_t len, size_t width)
{
	size_t w = text_width(s, len);
	int rc = owners_buf_add(out, s, len);

	while (!rc && w++ < width)
		rc = owners_buf_addc(out, ' ');
	return rc;
}

static const char *ref_text(const struct owners_ref *via)
{
	if (via->controller && via->block_owner_deletion)
		return "controller,block";
	return via->controller ? "controller" : via->block_owner_deletion ? "block" : "owner";
}

/* One row's cells (N_COLS, then the label columns); last[d]: whether the
 * row open at depth d is its parent's last child (no more │ under it). */
/* Every relation of a row to its parent, "; " between them. */
static int relations_cell(struct owners_buf *cell, const struct owners_render *r,
			  const struct owners_tree_row *row)
{
	uint32_t i;
	int rc = 0;

	for (i = 0; !rc && i < row->n_relations; i++) {
		if (i)
			rc = owners_buf_adds(cell, "; ");
		if (!rc)
			rc = owners_relation_render_how(cell, r->tree->rel,
							&r->tree->rel->items[row->relations[i]]);
	}
	return rc;
}

/* The cells of a relation's row whose object does not exist: what the
 * use names, and why it is there. */
static int fill_absent(struct owners_buf *cell, const struct owners_render *r,
		       const struct owners_tree_row *row)
{
	const struct owners_relation *x = &r->tree->rel->items[row->relation];
	const struct owners_use *u = &r->tree->rel->uses.items[x->use];
	int rc = owners_buf_adds(&cell[COL_NS], u->namespace_ ? u->namespace_ : "");

	if (!rc)
		rc = owners_relation_render_used(&cell[COL_NAME], r->tree->rel, r->g, x,
						 r->print.wide);
	if (!rc)
		rc = relations_cell(&cell[COL_RELATION], r, row);
	if (!rc)
		rc = row_notes(&cell[COL_NOTES], r, row);
	return rc;
}

static int fill_row(struct owners_buf *cell, const struct owners_render *r,
		    const struct owners_tree_row *row, unsigned char *last)
{
	const struct owners_node *n;
	uint32_t d;
	size_t k;
	int rc = 0;

	last[row->depth] = row->last;
	for (d = 1; !rc && d < row->depth; d++)
		rc = owners_buf_adds(&cell[COL_NAME], last[d] ? "    " : "│   ");
	if (!rc && row->depth)
		rc = owners_buf_adds(&cell[COL_NAME], row->last ? "└── " : "├── ");
	if (!rc && row->node == OWNERS_NO_NODE)
		return fill_absent(cell, r, row);
	n = &r->g->nodes[row->node];
	if (!rc)
		rc = owners_buf_adds(&cell[COL_NS], *n->place->namespace_ ? n->place->namespace_ : "");
	if (!rc)
		rc = owners_graph_node_shown_name(&cell[COL_NAME], n, r->print.wide);
	if (!rc && row->related)
		rc = relations_cell(&cell[COL_RELATION], r, row);
	if (!rc)
		rc = owners_buf_adds(&cell[COL_READY],
				     n->virtual_ ? "" : status_ready(r, row->node));
	if (!rc)
		rc = owners_buf_adds(&cell[COL_STATUS],
				     n->virtual_ ? "" : status_text(r, row->node));
	if (!rc && !n->virtual_ && n->created)
		rc = owners_time_format_age(&cell[COL_AGE],
					    r->print.now > n->created ? r->print.now - n->created : 0);
	if (!rc && row->via)
		rc = owners_buf_adds(&cell[COL_REF], ref_text(row->via));
	if (!rc)
		rc = owners_buf_adds(&cell[COL_UID], OWNERS_NODE_UID(n));
	if (!rc)
		rc = row_notes(&cell[COL_NOTES], r, row);
	for (k = 0; !rc && k < r->print.n_label_keys; k++) {
		const char *v = owners_graph_node_label(n, r->print.label_keys[k]);

		rc = owners_buf_adds(&cell[N_COLS + k], v ? v : "");
	}
	if (!rc && r->print.show_labels && !n->virtual_)
		rc = owners_graph_node_labels_text(&cell[N_COLS + r->print.n_label_keys], n);
	return rc;
}

/* Pads the cell to its column's width unless it ends the line. */
/* A cell, its text in colour when one is given (the padding after it
 * plain, so that a terminal's selection and NO_COLOR output line up). */
static int add_cell(struct owners_buf *out, const struct owners_buf *cell, size_t width, int end,
		    const char *colour)
{
	size_t text = text_width(cell->ptr, cell->len);
	int rc = 0;

	if (*colour)
		rc = owners_buf_adds(out, colour) || owners_buf_add(out, cell->ptr, cell->len) ||
		     owners_buf_adds(out, OWNERS_PALETTE_RESET);
	else
		rc = owners_buf_add(out, cell->ptr, cell->len);
	if (!rc && !end)
		rc = add_padded(out, "", 0, width + 2 > text ? width + 2 - text : 0);
	return rc;
}

/* READY and STATUS in the object's health colour, as kubectl-tree paints
 * them: green when ready, yellow on its way, red when failed; "" for
 * nothing to judge. */
static const char *health_colour(const struct owners_render *r, uint32_t node)
{
	switch (r->status ? r->status[node].health : OWNERS_HEALTH_NONE) {
	case OWNERS_HEALTH_OK:
		return OWNERS_PALETTE_GOOD;
	case OWNERS_HEALTH_PENDING:
		return OWNERS_PALETTE_PENDING;
	case OWNERS_HEALTH_BAD:
		return OWNERS_PALETTE_BAD;
	case OWNERS_HEALTH_NONE:
		break;
	}
	return "";
}

/* The table's columns as printed: width[c] for column c, and the columns
 * in the order printed (order[0..n_order)). */
struct layout {
	const size_t *width;
	const size_t *order;
	size_t n_order;
};

static int write_row(struct owners_buf *out, const struct owners_render *r,
		     const struct owners_tree_row *row, const struct owners_buf *cells,
		     const struct layout *l)
{
	const size_t *width = l->width, *order = l->order;
	size_t n_order = l->n_order;
	/* a relation's object that does not exist reads as a missing owner */
	static const struct owners_node absent = {
		.place = &owners_graph_no_place, .extras = &owners_graph_no_extras, .virtual_ = 1
	};
	const struct owners_node *n =
		row->node != OWNERS_NO_NODE ? &r->g->nodes[row->node] : &absent;
	int alert = n->virtual_ || n->extras->deleted || row->cycle || cells[COL_NOTES].len;
	size_t o;
	int rc = 0;

	for (o = 0; !rc && o < n_order; o++) {
		size_t c = order[o];
		const char *colour = "";

		/* Colour wraps the text only, so padding stays aligned. */
		if (r->print.color && c == COL_NAME)
			colour = n->virtual_          ? OWNERS_PALETTE_BAD
				 : n->extras->deleted ? OWNERS_PALETTE_PENDING
						      : "";
		else if (r->print.color && c == COL_NOTES && alert)
			colour = OWNERS_PALETTE_PENDING;
		else if (r->print.color && (c == COL_READY || c == COL_STATUS) && !n->virtual_)
			colour = health_colour(r, row->node);
		rc = add_cell(out, &cells[c], width[c], o + 1 == n_order, colour);
	}
	/* Trailing padding is noise for people who pipe the output. */
	while (out->len && out->ptr[out->len - 1] == ' ')
		owners_buf_truncate(out, out->len - 1);
	return rc ? rc : owners_buf_addc(out, '\n');
}

int owners_tree_render_text(struct owners_buf *out, const struct owners_render *r)
{
	const struct owners_tree *t = r->tree;
	size_t n_cols = N_COLS + r->print.n_label_keys + (r->print.show_labels ? 1 : 0);
	struct owners_buf *cells = NULL, *titles = NULL;
	size_t *width = NULL, *order = NULL, i, c, n_order = 0;
	unsigned char *last = NULL;
	int rc = 0, any_notes = 0;

	cells = calloc(t->count * n_cols + 1, sizeof(*cells));
	titles = calloc(n_cols, sizeof(*titles));
	width = calloc(n_cols, sizeof(*width));
	order = calloc(n_cols, sizeof(*order));
	last = calloc(t->count + 2, 1);
	if (!cells || !titles || !width || !order || !last) {
		rc = OWNERS_ENOMEM;
		goto out;
	}
	for (i = 0; i < t->count * n_cols; i++)
		owners_buf_init(&cells[i]);
	for (c = 0; c < n_cols; c++)
		owners_buf_init(&titles[c]);
	for (c = 0; !rc && c < n_cols; c++)
		rc = c < N_COLS			       ? owners_buf_adds(&titles[c], col_titles[c])
		     : c < N_COLS + r->print.n_label_keys ? owners_graph_label_title(&titles[c],
									r->print.label_keys[c - N_COLS])
						    : owners_buf_adds(&titles[c], "LABELS");
	for (i = 0; !rc && i < t->count; i++) {
		rc = fill_row(&cells[i * n_cols], r, &t->rows[i], last);
		any_notes |= cells[i * n_cols + COL_NOTES].len != 0;
	}
	for (c = 0; c < n_cols; c++) {
		width[c] = text_width(titles[c].ptr, titles[c].len);
		for (i = 0; i < t->count; i++) {
			size_t w = text_width(cells[i * n_cols + c].ptr, cells[i * n_cols + c].len);

			if (w > width[c])
				width[c] = w;
		}
	}
	/* The columns in the order printed: kubectl puts the label columns
	 * last; NOTES, when any row has one, ends the line. */
	for (c = 0; c < n_cols; c++)
		if (c != COL_NOTES && (c >= N_COLS || col_shown(r, c)))
			order[n_order++] = c;
	if (any_notes)
		order[n_order++] = COL_NOTES;
	for (c = 0; !rc && !r->print.no_headers && c < n_order; c++)
		rc = add_cell(out, &titles[order[c]], width[order[c]], c + 1 == n_order, "");
	if (!rc && !r->print.no_headers)
		rc = owners_buf_addc(out, '\n');
	for (i = 0; !rc && i < t->count; i++)
		rc = write_row(out, r, &t->rows[i], &cells[i * n_cols],
			       &(const struct layout){ width, order, n_order });
out:
	if (cells)
		for (i = 0; i < t->count * n_cols; i++)
			owners_buf_clear(&cells[i]);
	if (titles)
		for (c = 0; c < n_cols; c++)
			owners_buf_clear(&titles[c]);
	free(cells);
	free(titles);
	free(width);
	free(order);
	free(last);
	return rc;
}

/* ---- JSON / YAML ---------------------------------------------------- */

/* The row's object and, opened and left open for its nested rows, its
 * "owners" facts. */
/* What the relation a row hangs by names, when it does not exist: the
 * object as far as the use says it. */
static void gen_absent(struct owners_json_gen *j, const struct owners_use *u)
{
	owners_json_gen_kv(j, "kind", u->kind);
	owners_json_gen_string(j, "metadata");
	owners_json_gen_map_open(j);
	owners_json_gen_kv(j, "name", u->name);
	if (u->namespace_)
		owners_json_gen_kv(j, "namespace", u->namespace_);
	owners_json_gen_map_close(j);
	owners_json_gen_string(j, "owners");
	owners_json_gen_map_open(j);
}

static int gen_node(struct owners_json_gen *j, const struct owners_render *r,
		    const struct owners_tree_row *row)
{
	const struct owners_node *n = row->node != OWNERS_NO_NODE ? &r->g->nodes[row->node] : NULL;
	struct owners_buf notes = OWNERS_BUF_INIT;
	int rc;

	if (!n) {
		const struct owners_relation *x = &r->tree->rel->items[row->relation];

		gen_absent(j, &r->tree->rel->uses.items[x->use]);
	} else {
		owners_document_object(j, r->g, n);
		owners_document_facts(j);
	}
	owners_json_gen_kv_int(j, "depth", row->depth);
	owners_json_gen_kv_bool(j, "found", n && !n->virtual_);
	if (n && !n->virtual_) {
		owners_json_gen_kv(j, "ready", status_ready(r, row->node));
		owners_json_gen_kv(j, "status", status_text(r, row->node));
	}
	if (row->related) {
		/* the relations the row hangs by: the row above uses it
		 * (down) or it uses the row above (up) */
		uint32_t k;

		owners_json_gen_string(j, "relations");
		owners_json_gen_array_open(j);
		for (k = 0; k < row->n_relations; k++) {
			owners_json_gen_map_open(j);
			owners_relation_render_json(j, r->tree->rel, r->g,
						    &r->tree->rel->items[row->relations[k]]);
			owners_json_gen_map_close(j);
		}
		owners_json_gen_array_close(j);
	}
	if (row->via) {
		/* the reference the row was reached through, and what it is */
		owners_json_gen_string(j, "reference");
		owners_json_gen_map_open(j);
		owners_ref_json_fields(j, r->g, row->via);
		owners_json_gen_kv(j, "class", owners_ref_class_name(row->via_class));
		owners_json_gen_map_close(j);
	}
	if (r->fates && n && !n->virtual_ && !row->related) {
		/* what a cascading delete from the roots does to it, and why */
		const struct owners_tree_fate *f = &r->fates[row->node];

		owners_json_gen_string(j, "cascade");
		owners_json_gen_map_open(j);
		owners_json_gen_kv_bool(j, "deletes", !f->reason);
		if (f->reason) {
			owners_json_gen_kv(j, "reason", f->reason);
			owners_json_gen_kv(j, "message", f->message);
		}
		owners_json_gen_map_close(j);
	}
	if (row->cycle)
		owners_json_gen_kv_bool(j, "cycle", 1);
	rc = row_notes(&notes, r, row);
	if (!rc && notes.len)
		owners_json_gen_kv(j, "notes", notes.ptr);
	owners_buf_clear(&notes);
	return rc ? rc : owners_json_gen_error(j);
}

/* One row as an item: the object, its facts, and the row it hangs from
 * (the nearest shallower row above it), so that a flat list (or a watch
 * event alone) says where each row sits. */
static int gen_item(struct owners_json_gen *j, const struct owners_render *r, size_t row)
{
	const struct owners_tree *t = r->tree;
	const struct owners_tree_row *at = &t->rows[row];
	size_t i;
	int rc;

	owners_json_gen_map_open(j);
	rc = gen_node(j, r, at);
	for (i = row; at->depth && i-- > 0;)
		if (t->rows[i].depth < at->depth) {
			owners_json_gen_string(j, at->related ? (t->up ? "used" : "user")
						  : t->up     ? "dependent"
							      : "owner");
			owners_json_gen_map_open(j);
			owners_node_json_identity(j, &r->g->nodes[t->rows[i].node]);
			owners_json_gen_map_close(j);
			break;
		}
	owners_json_gen_map_close(j); /* "owners" */
	owners_json_gen_map_close(j);
	return rc;
}

int owners_tree_render_json(struct owners_buf *out, const struct owners_render *r)
{
	const struct owners_tree *t = r->tree;
	struct owners_json_gen *j;
	size_t i;
	int rc = 0;

	if (owners_json_gen_new(&j, out, 1))
		return OWNERS_ENOMEM;
	owners_document_open(j, "OwnersTree");
	owners_json_gen_kv(j, "direction", t->up ? "owners" : "dependents");
	owners_document_items(j);
	/* gen_item can fail outside the generator (its notes) */
	for (i = 0; !rc && i < t->count; i++)
		rc = gen_item(j, r, i);
	owners_document_close(j, r->print.warnings, r->print.n_warnings);
	if (!rc)
		rc = owners_json_gen_error(j);
	if (!rc)
		rc = owners_buf_addc(out, '\n');
	owners_json_gen_free(j);
	return rc;
}

int owners_tree_render_event_json(struct owners_buf *out, const struct owners_render *r, size_t row,
				  const char *type, int pretty)
{
	struct owners_json_gen *j;
	int rc;

	if (owners_json_gen_new(&j, out, pretty))
		return OWNERS_ENOMEM;
	/* a watch event as the API server writes one: type and object */
	owners_json_gen_map_open(j);
	owners_json_gen_kv(j, "apiVersion", OWNERS_DOCUMENT_API_VERSION);
	owners_json_gen_kv(j, "kind", "OwnersTreeEvent");
	owners_json_gen_kv(j, "type", type);
	owners_json_gen_string(j, "object");
	rc = gen_item(j, r, row);
	owners_json_gen_map_close(j);
	if (!rc)
		rc = owners_json_gen_error(j);
	if (!rc && !pretty)
		rc = owners_buf_addc(out, '\n');
	owners_json_gen_free(j);
	return rc;
}

/* ---- dot ------------------------------------------------------------ */

/* A relation's row: its object (once; one that does not exist as a
 * missing owner is drawn) and a dashed edge from user to used, labelled
 * with the relation. */
static int dot_relation(struct owners_buf *out, const struct owners_render *r,
			const struct owners_tree_row *row, unsigned char *seen)
{
	const struct owners_relation *x = &r->tree->rel->items[row->relation];
	const struct owners_use *u = &r->tree->rel->uses.items[x->use];
	struct owners_node absent;
	struct owners_node_place where = owners_graph_no_place;
	char id[64];
	uint32_t k;
	int rc = 0;

	memset(&absent, 0, sizeof(absent));
	absent.place = &where;
	absent.extras = &owners_graph_no_extras;
	if (x->used == OWNERS_NO_NODE) {
		snprintf(id, sizeof(id), "use-%zu", row->relation);
		owners_graph_node_borrow_uid(&absent, id);
		where.kind = u->kind;
		where.namespace_ = u->namespace_ ? u->namespace_ : "";
		absent.name = u->name;
		absent.virtual_ = 1;
		rc = owners_node_dot(out, &absent);
	} else if (!seen[row->node]) {
		seen[row->node] = 1;
		rc = owners_node_dot(out, &r->g->nodes[row->node]);
	}
	for (k = 0; !rc && k < row->n_relations; k++) {
		const struct owners_relation *y = &r->tree->rel->items[row->relations[k]];

		rc = owners_node_dot_use_edge(
			out, &r->g->nodes[y->user],
			y->used == OWNERS_NO_NODE ? &absent : &r->g->nodes[y->used],
			owners_uses_how_name(r->tree->rel->uses.items[y->use].how));
	}
	return rc;
}

int owners_tree_render_dot(struct owners_buf *out, const struct owners_render *r)
{
	const struct owners_tree *t = r->tree;
	unsigned char *seen = calloc(r->g->count ? r->g->count : 1, 1);
	size_t i;
	int rc;

	if (!seen)
		return OWNERS_ENOMEM;
	rc = owners_buf_adds(out, OWNERS_NODE_DOT_HEAD);
	for (i = 0; !rc && i < t->count; i++) {
		const struct owners_tree_row *row = &t->rows[i];

		if (row->related) {
			rc = dot_relation(out, r, row, seen);
			continue;
		}
		if (!seen[row->node]) {
			const struct owners_node *n = &r->g->nodes[row->node];

			seen[row->node] = 1;
			/* what the cascade keeps is marked, as the text tree's
			 * NOTES say it */
			if (r->fates && !n->virtual_ && r->fates[row->node].reason)
				rc = owners_node_dot_kept(out, n, r->fates[row->node].message);
			else
				rc = owners_node_dot(out, n);
		}
		/* Edges always point from owner to dependent, whichever way we walked. */
		if (!rc && row->via)
			rc = owners_node_dot_edge(out, &r->g->nodes[row->via->owner],
						  &r->g->nodes[row->via_from], row->via->controller,
						  row->via_class == OWNERS_REF_RESOLVED);
	}
	if (!rc)
		rc = owners_buf_adds(out, OWNERS_NODE_DOT_TAIL);
	free(seen);
	return rc;
}

int owners_tree_render_names(struct owners_buf *out, const struct owners_render *r)
{
	const struct owners_tree *t = r->tree;
	unsigned char *said = calloc(r->g->count ? r->g->count : 1, 1);
	size_t i;
	int rc = 0;

	if (!said)
		return OWNERS_ENOMEM;
	/* a set of names, as kubectl prints them: each object once (a
	 * dependent of two roots, a cycle's repeated row), and with fates
	 * only what the cascade deletes, so that it can be piped */
	for (i = 0; !rc && i < t->count; i++) {
		uint32_t node = t->rows[i].node;

		/* what exists, once; with fates, what the cascade deletes
		 * (a relation's object is not the cascade's) */
		if (node == OWNERS_NO_NODE || said[node] ||
		    (r->fates &&
		     (t->rows[i].related || r->fates[node].reason || r->g->nodes[node].virtual_)))
			continue;
		said[node] = 1;
		rc = owners_graph_node_name(out, &r->g->nodes[node]);
		if (!rc)
			rc = owners_buf_addc(out, '\n');
	}
	free(said);
	return rc;
}
