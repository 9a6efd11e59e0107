/*
 * The view of owners tree --watch (tree_view.h): frames compared by row
 * id, marks that fade, the screen's lines and the event lines.
 */
#include "tree_view.h"
#include "palette.h"

#include <stdlib.h>
#include <string.h>

#include "owners_error.h"
#include "grow.h"
#include "strv.h"

/* Lines being drawn. */
struct lines {
	char **v;
	size_t n, cap;
};

void tree_view_frame_clear(struct tree_view_frame *f)
{
	owners_strv_free(f->lines, f->n_lines);
	free(f->rows);
	memset(f, 0, sizeof(*f));
}

void tree_view_init(struct tree_view *v, int marking, tree_view_change_fn *on_change, void *ctx)
{
	memset(v, 0, sizeof(*v));
	v->marking = marking;
	v->on_change = on_change;
	v->change_ctx = ctx;
}

void tree_view_clear(struct tree_view *v)
{
	size_t i;

	tree_view_frame_clear(&v->last);
	free(v->shown);
	for (i = 0; i < v->n_marks; i++)
		free(v->marks[i].line);
	free(v->marks);
	free(v->mark_of);
	owners_strv_free(v->warnings, v->n_warnings);
	memset(v, 0, sizeof(*v));
}

/* ---- marks ------------------------------------------------------------ */

/* Room in mark_of for ids below n, the new part zeroed. */
static int mark_of_reserve(struct tree_view *v, size_t n)
{
	size_t old = v->cap_mark_of;

	if (OWNERS_GROW(v->mark_of, v->cap_mark_of, n ? n : 1))
		return OWNERS_ENOMEM;
	memset(v->mark_of + old, 0, (v->cap_mark_of - old) * sizeof(*v->mark_of));
	return 0;
}

static const struct tree_view_marked *find_mark(const struct tree_view *v, uint32_t id)
{
	uint32_t k = id < v->cap_mark_of ? v->mark_of[id] : 0;

	return k ? &v->marks[k - 1] : NULL;
}

/* Marks id (mark_of has room for it) from now for the moment; a going
 * row keeps its line and place. */
static int mark(struct tree_view *v, uint32_t id, enum tree_view_mark m, const char *line, size_t at,
		int64_t now)
{
	struct tree_view_marked *k = id < v->cap_mark_of && v->mark_of[id] ? &v->marks[v->mark_of[id] - 1] : NULL;

	if (!k) {
		if (OWNERS_GROW(v->marks, v->cap_marks, v->n_marks + 1))
			return OWNERS_ENOMEM;
		k = &v->marks[v->n_marks];
		memset(k, 0, sizeof(*k));
		k->id = id;
		v->mark_of[id] = (uint32_t)++v->n_marks;
	}
	/* A row added and changed within the moment stays "added", for the
	 * moment it got when it came (a row that keeps changing is not new
	 * for ever). */
	if (k->mark == TREE_VIEW_ADDED && m == TREE_VIEW_CHANGED && k->until_ms > now)
		return 0;
	k->mark = m;
	k->until_ms = now + TREE_VIEW_MARK_MS;
	free(k->line);
	k->line = line ? owners_strdup(line) : NULL;
	k->at = at;
	return line && !k->line ? OWNERS_ENOMEM : 0;
}

void tree_view_expire(struct tree_view *v, int64_t now)
{
	size_t i, kept = 0;

	for (i = 0; i < v->n_marks; i++) {
		v->mark_of[v->marks[i].id] = 0;
		if (v->marks[i].until_ms > now)
			v->marks[kept++] = v->marks[i];
		else
			free(v->marks[i].line);
	}
	v->n_marks = kept;
	for (i = 0; i < kept; i++)
		v->mark_of[v->marks[i].id] = (uint32_t)i + 1;
}

int64_t tree_view_next_expiry(const struct tree_view *v)
{
	int64_t next = -1;
	size_t i;

	for (i = 0; i < v->n_marks; i++)
		if (next < 0 || v->marks[i].until_ms < next)
			next = v->marks[i].until_ms;
	return next;
}

enum tree_view_mark tree_view_mark_of(const struct tree_view *v, size_t row)
{
	const struct tree_view_marked *m = row < v->last.n_rows ? find_mark(v, v->last.rows[row].id) : NULL;

	return m ? m->mark : TREE_VIEW_NONE;
}

/* ---- a frame against the last ----------------------------------------- */

/* The line a frame drew for its row i ("" when it was not rendered:
 * below the window). */
static const char *row_line(const struct tree_view_frame *f, size_t i)
{
	return f->header + i < f->n_lines ? f->lines[f->header + i] : "";
}

static int say(struct tree_view *v, const char *type, int previous, size_t row, const char *line)
{
	const struct tree_view_change c = { type, previous, row, line };

	return v->on_change ? v->on_change(v->change_ctx, &c) : 0;
}

/* Rows of the last frame not in this one (sig by id: 0), deepest first. */
static int rows_gone(struct tree_view *v, const uint64_t *sig, size_t n_ids, int64_t now)
{
	size_t i;
	int rc = 0;

	for (i = v->last.n_rows; !rc && i-- > 0;) {
		uint32_t id = v->last.rows[i].id;
		const char *line = row_line(&v->last, i);

		if (id < n_ids && sig[id])
			continue;
		if (v->marking)
			rc = *line ? mark(v, id, TREE_VIEW_GOING, line, i, now) : 0;
		else
			rc = say(v, "DELETED", 1, i, line);
	}
	return rc;
}

/* Rows of f that were not in the last frame, or show something else. */
static int rows_came(struct tree_view *v, const struct tree_view_frame *f, const uint64_t *sig, int64_t now)
{
	size_t i;
	int rc = 0;

	for (i = 0; !rc && i < f->n_rows; i++) {
		uint32_t id = f->rows[i].id;
		uint64_t was = id < v->n_shown ? v->shown[id] : 0;
		int added = !was;

		if (id >= f->n_ids || (!added && was == sig[id]))
			continue;
		if (v->marking)
			rc = mark(v, id, added ? TREE_VIEW_ADDED : TREE_VIEW_CHANGED, NULL, 0, now);
		else
			rc = say(v, added ? "ADDED" : "MODIFIED", 0, i, row_line(f, i));
	}
	return rc;
}

int tree_view_update(struct tree_view *v, struct tree_view_frame *f, int64_t now)
{
	size_t n_ids = f->n_ids, i;
	uint64_t *sig = calloc(n_ids ? n_ids : 1, sizeof(*sig));
	int rc = 0;

	if (!sig || mark_of_reserve(v, n_ids > v->last.n_ids ? n_ids : v->last.n_ids))
		rc = OWNERS_ENOMEM;
	for (i = 0; !rc && i < f->n_rows; i++)
		if (f->rows[i].id < n_ids)
			sig[f->rows[i].id] = f->rows[i].sig;
	if (!rc && v->frames && !(rc = rows_gone(v, sig, n_ids, now)))
		rc = rows_came(v, f, sig, now);
	if (rc) {
		free(sig);
		tree_view_frame_clear(f);
		return rc;
	}
	free(v->shown);
	v->shown = sig;
	v->n_shown = n_ids;
	tree_view_frame_clear(&v->last);
	v->last = *f;
	memset(f, 0, sizeof(*f));
	v->frames++;
	return 0;
}

/* ---- the screen ------------------------------------------------------- */

int tree_view_warn(struct tree_view *v, const char *line)
{
	size_t i;

	for (i = 0; i < v->n_warnings; i++)
		if (!strcmp(v->warnings[i], line))
			return 0; /* said once */
	if (v->n_warnings == 3) {
		free(v->warnings[0]);
		memmove(v->warnings, v->warnings + 1, 2 * sizeof(*v->warnings));
		v->n_warnings--;
	}
	return owners_strv_push(&v->warnings, &v->n_warnings, &v->cap_warnings, owners_strdup(line));
}

static const char *mark_text(enum tree_view_mark m, int color)
{
	static const char *const plain[] = { "  ", "+ ", "~ ", "- " };
	static const char *const coloured[] = { "  ", OWNERS_PALETTE_GOOD "+" OWNERS_PALETTE_RESET " ",
						OWNERS_PALETTE_PENDING "~" OWNERS_PALETTE_RESET " ",
						OWNERS_PALETTE_BAD "-" OWNERS_PALETTE_RESET " " };

	return color ? coloured[m] : plain[m];
}

/* Moves b's text to the end of o (b is left empty). */
static int push(struct lines *o, struct owners_buf *b)
{
	return owners_strv_push(&o->v, &o->n, &o->cap, owners_buf_detach(b));
}

/* Title, warnings, then the header of the table. */
static int draw_head(struct lines *o, struct owners_buf *b, const struct tree_view *v,
		     const struct tree_view_chrome *c)
{
	const struct tree_view_frame *f = &v->last;
	size_t i;
	int rc;

	rc = owners_buf_addf(b, "%s%s tree%s%s  %s · watching %zu type%s · %zu change%s · Ctrl-C ends",
			     c->color ? OWNERS_PALETTE_TITLE : "", c->program, c->what, c->color ? OWNERS_PALETTE_RESET : "", c->where, c->watches,
			     c->watches == 1 ? "" : "s", c->events, c->events == 1 ? "" : "s");
	if (!rc)
		rc = push(o, b);
	for (i = 0; !rc && i < v->n_warnings; i++)
		if (!(rc = owners_buf_addf(b, "%swarning: %s%s", c->color ? OWNERS_PALETTE_PENDING : "", v->warnings[i],
					   c->color ? OWNERS_PALETTE_RESET : "")))
			rc = push(o, b);
	if (!rc && !f->n_rows && !f->n_lines && !c->n_gone && !(rc = owners_buf_adds(b, "  (nothing to show yet)")))
		rc = push(o, b);
	for (i = 0; !rc && !f->n_rows && !f->n_lines && i < c->n_gone; i++)
		if (!(rc = owners_buf_addf(b, "  %s was deleted", c->gone[i])))
			rc = push(o, b);
	for (i = 0; !rc && i < f->header && i < f->n_lines; i++)
		if (!(rc = owners_buf_addf(b, "  %s", f->lines[i])))
			rc = push(o, b);
	return rc;
}

/* The rows that went at row i's place, struck through. */
static int draw_going_at(struct lines *o, struct owners_buf *b, const struct tree_view *v, size_t i, int color)
{
	size_t g;
	int rc = 0;

	for (g = 0; !rc && g < v->n_marks; g++) {
		const struct tree_view_marked *m = &v->marks[g];

		if (m->mark != TREE_VIEW_GOING || !m->line || m->at != i)
			continue;
		if (!(rc = owners_buf_addf(b, "%s%s%s%s", mark_text(TREE_VIEW_GOING, color), color ? OWNERS_PALETTE_GOING : "",
					   m->line, color ? OWNERS_PALETTE_RESET : "")))
			rc = push(o, b);
	}
	return rc;
}

/* Each row after its mark, those that went where they were; *skipped:
 * the rows below the window, counted, not drawn. */
static int draw_rows(struct lines *o, struct owners_buf *b, const struct tree_view *v,
		     const struct tree_view_chrome *c, size_t *skipped)
{
	const struct tree_view_frame *f = &v->last;
	size_t i, g;
	int rc = 0;

	for (i = 0; !rc && i <= f->n_rows; i++) {
		if (o->n > (size_t)c->rows) {
			*skipped = f->n_rows - i;
			break;
		}
		rc = draw_going_at(o, b, v, i, c->color);
		if (i == f->n_rows || rc)
			break;
		if (!(rc = owners_buf_addf(b, "%s%s", mark_text(tree_view_mark_of(v, i), c->color), row_line(f, i))))
			rc = push(o, b);
	}
	/* Going rows past the end of a shorter tree. */
	for (g = 0; !rc && g < v->n_marks; g++)
		if (v->marks[g].mark == TREE_VIEW_GOING && v->marks[g].line && v->marks[g].at > f->n_rows &&
		    !(rc = owners_buf_addf(b, "%s%s", mark_text(TREE_VIEW_GOING, c->color), v->marks[g].line)))
			rc = push(o, b);
	return rc;
}

/* Too short a window: the lines cut to it, the last saying how much is
 * below. */
static int fit(struct lines *o, struct owners_buf *b, int rows, size_t skipped)
{
	size_t hidden, i;

	if (o->n <= (size_t)rows || rows <= 1)
		return 0;
	hidden = o->n - (size_t)rows + 1 + skipped;
	for (i = (size_t)rows - 1; i < o->n; i++)
		free(o->v[i]);
	o->n = (size_t)rows - 1;
	if (owners_buf_addf(b, "  ... %zu more row%s (a taller window shows them)", hidden, hidden == 1 ? "" : "s"))
		return OWNERS_ENOMEM;
	return push(o, b);
}

int tree_view_draw(const struct tree_view *v, const struct tree_view_chrome *c, char ***out, size_t *n)
{
	struct owners_buf b = OWNERS_BUF_INIT;
	struct lines o = { NULL, 0, 0 };
	size_t skipped = 0;
	int rc;

	*out = NULL;
	*n = 0;
	if (!(rc = draw_head(&o, &b, v, c)) && !(rc = draw_rows(&o, &b, v, c, &skipped)))
		rc = fit(&o, &b, c->rows, skipped);
	owners_buf_clear(&b);
	if (rc) {
		owners_strv_free(o.v, o.n);
		return rc;
	}
	*out = o.v;
	*n = o.n;
	return 0;
}

int tree_view_event_line(struct owners_buf *out, const struct tree_view_change *c)
{
	size_t len = strlen(c->line);

	while (len && c->line[len - 1] == ' ')
		len--;
	return owners_buf_addf(out, "%-9s%.*s", c->type, (int)len, c->line);
}
