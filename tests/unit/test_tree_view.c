/* The view of tree --watch (cmd/tree_view.c), lines in and lines out:
 * what a frame marks or says against the last, how long marks last on
 * the clock given, and the lines drawn for the terminal. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "strv.h"
#include "tap.h"
#include "tree_view.h"

/* A frame of n rows: ids[i] with sigs[i], its line "row <id> <sig>" and a
 * header line; ids below 16. */
static struct tree_view_frame frame(size_t n, const uint32_t *ids, const uint64_t *sigs)
{
	struct tree_view_frame f;
	size_t i, cap = 0;
	char line[64];

	memset(&f, 0, sizeof(f));
	f.n_ids = 16;
	f.header = 1;
	f.rows = calloc(n ? n : 1, sizeof(*f.rows));
	owners_strv_push(&f.lines, &f.n_lines, &cap, strdup("NAME"));
	for (i = 0; i < n; i++) {
		f.rows[i].id = ids[i];
		f.rows[i].sig = sigs[i];
		snprintf(line, sizeof(line), "row%u %llu  ", ids[i], (unsigned long long)sigs[i]);
		owners_strv_push(&f.lines, &f.n_lines, &cap, strdup(line));
	}
	f.n_rows = n;
	return f;
}

static int update(struct tree_view *v, size_t n, const uint32_t *ids, const uint64_t *sigs, int64_t now)
{
	struct tree_view_frame f = frame(n, ids, sigs);

	return tree_view_update(v, &f, now);
}

/* What the hook heard, one event line each, ";" between. */
static struct owners_buf heard = OWNERS_BUF_INIT;

static int hear(void *ctx, const struct tree_view_change *c)
{
	(void)ctx;
	if (heard.len)
		owners_buf_adds(&heard, ";");
	owners_buf_addf(&heard, "%s%zu:", c->previous ? "was" : "", c->row);
	return tree_view_event_line(&heard, c);
}

static void test_changes(void)
{
	struct tree_view v;
	const uint32_t ids1[] = { 1, 2, 3 }, ids2[] = { 1, 3, 4 };
	const uint64_t sigs1[] = { 11, 21, 31 }, sigs2[] = { 11, 32, 41 };

	tree_view_init(&v, 0, hear, NULL);
	is_int(update(&v, 3, ids1, sigs1, 0), 0, "first frame");
	is_str(heard.ptr ? heard.ptr : "", "", "  says nothing (it is printed whole)");
	is_int(update(&v, 3, ids2, sigs2, 100), 0, "second frame");
	is_str(heard.ptr, "was1:DELETED  row2 21;1:MODIFIED row3 32;2:ADDED    row4 41",
	       "  a row that left is DELETED with its last line, one whose signature changed MODIFIED, a new one "
	       "ADDED; trailing spaces dropped");
	owners_buf_reset(&heard);
	is_int(update(&v, 3, ids2, sigs2, 200), 0, "the same frame again");
	is_int(heard.len, 0, "  says nothing");
	{
		const uint32_t ids3[] = { 1 };
		const uint64_t sigs3[] = { 11 };

		update(&v, 1, ids3, sigs3, 300);
		is_str(heard.ptr, "was2:DELETED  row4 41;was1:DELETED  row3 32",
		       "rows that leave together: deepest (last) first, as the GC removes them");
	}
	is_int(v.n_marks, 0, "no marks off a terminal");
	tree_view_clear(&v);
	owners_buf_clear(&heard);
}

static void test_marks(void)
{
	struct tree_view v;
	const uint32_t ids1[] = { 1, 2, 3 }, ids2[] = { 1, 3, 4 };
	const uint64_t sigs1[] = { 11, 21, 31 }, sigs2[] = { 11, 32, 41 };

	tree_view_init(&v, 1, NULL, NULL);
	update(&v, 3, ids1, sigs1, 1000);
	is_int(v.n_marks, 0, "first frame: nothing marked");
	is_int(tree_view_next_expiry(&v), -1, "  nothing to expire");
	update(&v, 3, ids2, sigs2, 5000);
	is_int(tree_view_mark_of(&v, 0), TREE_VIEW_NONE, "an unchanged row is not marked");
	is_int(tree_view_mark_of(&v, 1), TREE_VIEW_CHANGED, "a changed row is marked ~");
	is_int(tree_view_mark_of(&v, 2), TREE_VIEW_ADDED, "an added row is marked +");
	is_int(v.n_marks, 3, "the row that left is marked too (-)");
	is_int(tree_view_next_expiry(&v), 5000 + TREE_VIEW_MARK_MS, "marks last 2 s from the frame's clock");
	{
		const uint64_t sigs3[] = { 11, 33, 42 };

		update(&v, 3, ids2, sigs3, 6000);
		is_int(tree_view_mark_of(&v, 2), TREE_VIEW_ADDED, "a row added and changed within the moment stays +");
		is_int(tree_view_mark_of(&v, 1), TREE_VIEW_CHANGED, "a changed row changed again stays ~");
		is_int(tree_view_next_expiry(&v), 7000, "  the added one keeps the moment it came with");
	}
	tree_view_expire(&v, 6999);
	is_int(v.n_marks, 3, "at 1.999 s every mark stays");
	tree_view_expire(&v, 7000);
	is_int(v.n_marks, 1, "at 2 s the first marks expire");
	is_int(tree_view_mark_of(&v, 2), TREE_VIEW_NONE, "  + is gone");
	is_int(tree_view_mark_of(&v, 1), TREE_VIEW_CHANGED, "  the later ~ stays");
	tree_view_expire(&v, 8000);
	is_int(v.n_marks, 0, "at 2 s from the last change, none is left");
	is_int(tree_view_next_expiry(&v), -1, "  nothing to expire");
	tree_view_clear(&v);
}

/* The lines drawn, "|" between. */
static void drawn(struct owners_buf *out, const struct tree_view *v, int rows, int color)
{
	const struct tree_view_chrome c = { "owners", " deployment/web", "shop", 3, 1, rows, color, NULL, 0 };
	char **lines = NULL;
	size_t n = 0, i;

	owners_buf_reset(out);
	ok(tree_view_draw(v, &c, &lines, &n) == 0, "drawn (%d rows%s)", rows, color ? ", colour" : "");
	for (i = 0; i < n; i++)
		owners_buf_addf(out, "%s%s", i ? "|" : "", lines[i]);
	owners_strv_free(lines, n);
}

static void test_draw(void)
{
	struct tree_view v;
	struct owners_buf out = OWNERS_BUF_INIT;
	const uint32_t ids1[] = { 1, 2, 3 }, ids2[] = { 1, 3, 4 };
	const uint64_t sigs1[] = { 11, 21, 31 }, sigs2[] = { 11, 32, 41 };
	const char *title = "owners tree deployment/web  shop · watching 3 types · 1 change · Ctrl-C ends";
	char want[512];

	tree_view_init(&v, 1, NULL, NULL);
	drawn(&out, &v, 24, 0);
	snprintf(want, sizeof(want), "%s|  (nothing to show yet)", title);
	is_str(out.ptr, want, "no frame yet: the title, then that nothing is shown yet");
	{
		char *gone[] = { "deployment.apps/web" };
		const struct tree_view_chrome c = { "owners", " deployment/web", "shop", 3, 1, 24, 0, gone, 1 };
		char **lines = NULL;
		size_t n = 0;

		ok(tree_view_draw(&v, &c, &lines, &n) == 0 && n == 2, "drawn, a root gone");
		is_str(n == 2 ? lines[1] : "", "  deployment.apps/web was deleted",
		       "nothing left of a root shown once: it says the root was deleted, not 'nothing to show yet'");
		owners_strv_free(lines, n);
	}
	update(&v, 3, ids1, sigs1, 0);
	update(&v, 3, ids2, sigs2, 10);
	drawn(&out, &v, 24, 0);
	snprintf(want, sizeof(want), "%s|  NAME|  row1 11  |- row2 21  |~ row3 32  |+ row4 41  ", title);
	is_str(out.ptr, want, "title, header, each row after its mark; the row that left where it was");
	tree_view_warn(&v, "cannot watch 'v1 secrets': forbidden");
	tree_view_warn(&v, "cannot watch 'v1 secrets': forbidden");
	drawn(&out, &v, 24, 1);
	snprintf(want, sizeof(want),
		 "\x1b[1mowners tree deployment/web\x1b[0m  shop · watching 3 types · 1 change · Ctrl-C ends|"
		 "\x1b[33mwarning: cannot watch 'v1 secrets': forbidden\x1b[0m|  NAME|  row1 11  |"
		 "\x1b[31m-\x1b[0m \x1b[9;2mrow2 21  \x1b[0m|\x1b[33m~\x1b[0m row3 32  |\x1b[32m+\x1b[0m row4 41  ");
	is_str(out.ptr, want, "in colour: a warning once, marks coloured, the row that left struck through");
	drawn(&out, &v, 4, 0);
	snprintf(want, sizeof(want),
		 "%s|warning: cannot watch 'v1 secrets': forbidden|  NAME|  ... 4 more rows (a taller window shows them)",
		 title);
	is_str(out.ptr, want, "a short window: the last line counts the rows below (row1, row2 going, row3, row4)");
	tree_view_expire(&v, 10 + TREE_VIEW_MARK_MS);
	{
		const uint32_t ids3[] = { 1 };
		const uint64_t sigs3[] = { 11 };

		update(&v, 1, ids3, sigs3, 5000);
		drawn(&out, &v, 24, 0);
	}
	is_str(out.ptr,
	       "owners tree deployment/web  shop · watching 3 types · 1 change · Ctrl-C ends|"
	       "warning: cannot watch 'v1 secrets': forbidden|  NAME|  row1 11  |- row3 32  |- row4 41  ",
	       "rows that left past the end of a shorter tree are drawn after it");
	tree_view_clear(&v);
	owners_buf_clear(&out);
}

static void test_warnings(void)
{
	struct tree_view v;
	char w[32];
	int i;

	tree_view_init(&v, 1, NULL, NULL);
	for (i = 0; i < 5; i++) {
		snprintf(w, sizeof(w), "w%d", i);
		is_int(tree_view_warn(&v, w), 0, "warning %s", w);
	}
	tree_view_warn(&v, "w4");
	is_int(v.n_warnings, 3, "the three latest are kept, each once");
	is_str(v.warnings[0], "w2", "  oldest first");
	is_str(v.warnings[2], "w4", "  newest last");
	tree_view_clear(&v);
}

int main(void)
{
	test_changes();
	test_marks();
	test_draw();
	test_warnings();
	return tap_done();
}
