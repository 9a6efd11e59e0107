/*
 * owners tree --watch and --until: the tree kept current by watches
 * (lib/graph/watch.h) and shown as it changes: redrawn in place on a
 * terminal with the rows that changed marked for a moment; elsewhere the
 * first tree, then one line per row that changed (as kubectl get -w), or
 * one JSON/YAML document per change.
 *
 * This file is the loop: the watches, the tree of each frame, the
 * timers, the signals, --until and its deadline. The roots of each frame
 * are cmd/tree_roots.c's; what a frame shows against the last (marks,
 * change lines, the screen's lines) is the view's (cmd/tree_view.c);
 * whether the tree is ready or gone is lib/graph/tree_state.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "clock.h"
#include "grow.h"
#include "output.h"
#include "screen.h"
#include "signals.h"
#include "session_scan.h"
#include "session_warnings.h"
#include "sink.h"
#include "status_fetch.h"
#include "strv.h"
#include "tree.h"
#include "tree_roots.h"
#include "tree_state.h"
#include "tree_view.h"
#include "tree_watch.h"
#include "tree_watch_state.h"
#include "watch.h"

static int prints_status(const struct tree_watch *tw)
{
	return tw->a->kind != OUTPUT_NAME;
}

/* One watch per listed type that can hold part of the answer, started
 * where its list left off; asked again as the graph changes (a new
 * reference can bring a cluster-scoped owner's type in). */
static int watch_types(struct tree_watch *tw)
{
	struct listed_types *listed = tw->a->listed;
	const struct owners_resource **types = calloc(listed->count + 1, sizeof(*types));
	unsigned char *can = calloc(listed->count + 1, 1);
	size_t i;
	int rc = 0;

	if (!types || !can) {
		free(types);
		free(can);
		return OWNERS_ENOMEM;
	}
	for (i = 0; i < listed->count; i++)
		types[i] = listed->items[i].resource;
	owners_graph_types_can_hold_answer(session_graph(tw->s), types, listed->count,
					   session_answer_namespaced_only(tw->s), can);
	for (i = 0; !rc && i < listed->count; i++) {
		struct listed_type *t = &listed->items[i];

		if (t->watched || !can[i])
			continue;
		t->watched = 1;
		rc = owners_watch_add(tw->w, t->resource, t->ns, t->rv,
				      t->resource->has_status && prints_status(tw), NULL);
	}
	free(types);
	free(can);
	return rc;
}

/* The roots in the graph as it is now, into tw->roots.now. */
static int find_roots(struct tree_watch *tw)
{
	int rc = tree_roots_find(&tw->roots, session_graph(tw->s), tw->w,
				 session_cli(tw->s)->selector);

	return rc ? rc
		  : tree_roots_fold(&tw->roots.now, session_graph(tw->s), tw->a->objs,
				    tw->a->n_objs, tw->a->opts->up);
}

/* ---- a frame: the tree now, rendered --------------------------------- */

/* table: the text table (its label columns with it); else a document
 * or names. */
static int render_setup(struct tree_watch *tw, struct owners_render *render, const struct owners_tree *tree,
			int table, int color)
{
	size_t n_status = 0;

	memset(render, 0, sizeof(*render));
	render->g = session_graph(tw->s);
	render->tree = tree;
	render->status = owners_watch_status(tw->w, &n_status);
	render->print = *tw->a->print;
	render->print.now = session_now(tw->s);
	render->print.color = color;
	if (!table) {
		render->print.label_keys = NULL;
		render->print.n_label_keys = 0;
	}
	return render->status ? 0 : OWNERS_ENOMEM;
}

/* The text table split into lines: header (unless --no-headers), then
 * one per row. */
static int render_lines(struct tree_watch *tw, const struct owners_tree *tree, int color, char ***lines,
			size_t *n)
{
	struct owners_render render;
	struct owners_buf out = OWNERS_BUF_INIT;
	char *p, *nl;
	size_t cap = 0;
	int rc;

	*lines = NULL;
	*n = 0;
	rc = render_setup(tw, &render, tree, 1, color);
	if (!rc && tree->count)
		rc = owners_tree_render_text(&out, &render);
	for (p = out.ptr; !rc && p && *p; p = nl + 1) {
		if (!(nl = strchr(p, '\n')))
			nl = p + strlen(p) - 1;
		rc = owners_strv_push(lines, n, &cap, owners_strndup(p, (size_t)(nl - p) + (*nl != '\n')));
	}
	owners_buf_clear(&out);
	return rc;
}

/* What a row shows that can change, as a hash (never 0): READY, STATUS,
 * whether it is there, in deletion, its finalizers and owners (not its
 * resourceVersion alone: a status heartbeat that changes nothing shown is
 * not a change). */
static int signature(struct owners_buf *out, const struct tree_watch *tw, const struct owners_tree_row *row,
		     const struct owners_object_status *st, size_t count, uint64_t *hash)
{
	const struct owners_node *n = &session_graph(tw->s)->nodes[row->node];
	int rc;

	owners_buf_reset(out);
	rc = owners_buf_addf(
		out, "%d|%d|%u|%u|%u|%d|%s|%s", n->virtual_, n->extras->deleted != 0,
		n->extras->n_finalizers, n->n_refs, row->depth, (int)row->via_class,
		st && row->node < count && st[row->node].ready ? st[row->node].ready : "",
		st && row->node < count && st[row->node].status ? st[row->node].status : "");
	*hash = rc ? 0 : owners_arena_hash(out->ptr, out->len) | 1;
	return rc;
}

/* The view's rows of tree: each node with its signature. */
static int frame_rows(struct tree_watch *tw, const struct owners_tree *tree, struct tree_view_frame *f)
{
	struct owners_buf sig = OWNERS_BUF_INIT;
	size_t i, n_status = 0;
	int rc = 0;

	/* The status array is looked up once a frame, not once a row. */
	const struct owners_object_status *st = owners_watch_status(tw->w, &n_status);

	f->n_ids = session_graph(tw->s)->count;
	if (!st || !(f->rows = calloc(tree->count ? tree->count : 1, sizeof(*f->rows))))
		return OWNERS_ENOMEM;
	for (i = 0; !rc && i < tree->count; i++) {
		f->rows[i].id = tree->rows[i].node;
		rc = signature(&sig, tw, &tree->rows[i], st, n_status, &f->rows[i].sig);
	}
	f->n_rows = tree->count;
	owners_buf_clear(&sig);
	return rc;
}

/* What one write of the forms that are not the terminal's renders from:
 * the tree, and the change (an event) or the first frame (the tree whole). */
struct watch_out {
	struct tree_watch *tw;
	const struct owners_tree *tree;
	const struct tree_view_change *change; /* NULL: the tree whole */
	const struct tree_view_frame *frame;
};

/* -o json|yaml: the tree's document, or an event's. */
static int render_document(struct owners_buf *out, void *ctx, const struct owners_scan_warning *warnings,
			   size_t n_warnings)
{
	const struct watch_out *o = ctx;
	struct owners_render render;
	int rc = render_setup(o->tw, &render, o->tree, 0, 0);

	(void)warnings; /* said on stderr as they arise */
	(void)n_warnings;
	if (rc)
		return rc;
	return o->change ? owners_tree_render_event_json(out, &render, o->change->row, o->change->type, 1)
			 : owners_tree_render_json(out, &render);
}

/* -o name: the objects' names (an event's one); else the tree's lines as
 * tree prints them, or an event's line. */
static int render_text(struct owners_buf *out, void *ctx)
{
	const struct watch_out *o = ctx;
	const struct owners_tree *tree = o->tree;
	int names = o->tw->format.kind == OUTPUT_NAME;
	struct owners_render render;
	size_t i;
	int rc = 0;

	if (o->change) {
		rc = names ? owners_graph_node_name(
				     out, &session_graph(o->tw->s)
						   ->nodes[tree->rows[o->change->row].node])
			   : tree_view_event_line(out, o->change);
		return rc ? rc : owners_buf_addc(out, '\n');
	}
	if (names)
		return render_setup(o->tw, &render, tree, 0, 0) ? OWNERS_ENOMEM
								: owners_tree_render_names(out, &render);
	for (i = 0; !rc && i < o->frame->n_lines; i++)
		rc = owners_buf_addf(out, "%s\n", o->frame->lines[i]);
	return rc;
}

static const struct output_renderers watch_renderers = { render_document, render_text, NULL };

/* The view's hook: a line (or a document, or a name) per row that
 * changed, for the forms that are not the terminal's. */
static int say_change(void *ctx, const struct tree_view_change *c)
{
	struct tree_watch *tw = ctx;
	struct watch_out o = { tw, c->previous ? &tw->tree : tw->next, c, NULL };

	return output_write(&tw->format, 0, &watch_renderers, &o, NULL, 0) ? OWNERS_EIO : 0;
}

/* The first tree whole, as tree prints it (not on a terminal). */
static int print_first(struct tree_watch *tw, const struct owners_tree *tree, const struct tree_view_frame *f)
{
	struct watch_out o = { tw, tree, NULL, f };

	return output_write(&tw->format, 0, &watch_renderers, &o, NULL, 0) ? OWNERS_EIO : 0;
}

/* The screen: the view's lines for the last frame. */
static int draw(struct tree_watch *tw)
{
	struct tree_view_chrome c;
	struct owners_watch_stats stats;
	char **lines = NULL;
	size_t n = 0;
	int cols, rc;

	screen_size(&c.rows, &cols);
	owners_watch_get_stats(tw->w, &stats);
	c.program = session_cli(tw->s)->program;
	c.what = tw->what;
	c.where = tw->a->all ? "all namespaces" : session_namespace(tw->s);
	c.watches = stats.watches;
	c.events = stats.events;
	c.color = session_cli(tw->s)->use_color;
	c.gone = tw->roots.gone;
	c.n_gone = tw->roots.n_gone;
	if ((rc = tree_view_draw(&tw->view, &c, &lines, &n)))
		return rc;
	rc = screen_draw(lines, n) ? OWNERS_EIO : 0;
	owners_strv_free(lines, n);
	return rc;
}

/* The tree now: roots, rows, what changed, and the view or the lines. */
static int frame(struct tree_watch *tw)
{
	struct owners_tree tree = { NULL, 0, 0, 0, NULL };
	struct tree_view_frame f;
	int rc;

	memset(&f, 0, sizeof(f));
	f.header = session_cli(tw->s)->table.no_headers ? 0 : 1;
	rc = find_roots(tw);
	if (!rc)
		rc = owners_tree_build(&tree, session_graph(tw->s), tw->roots.now.nodes,
				       tw->roots.now.count, tw->a->opts->up,
				       (int)tw->a->opts->depth);
	if (!rc && (tw->format.kind == OUTPUT_TEXT || tw->format.kind == OUTPUT_WIDE)) {
		/* On a terminal only what fits the window is rendered: a tree
		 * of 10,000 rows costs a screenful per redraw, not 10,000. */
		struct owners_tree shown = tree;
		int rows, cols;

		if (tw->tty) {
			screen_size(&rows, &cols);
			if (shown.count > (size_t)rows)
				shown.count = (size_t)rows;
		}
		rc = render_lines(tw, &shown, tw->tty ? session_cli(tw->s)->use_color : 0, &f.lines,
				  &f.n_lines);
	}
	if (!rc && !tw->frames && !tw->tty)
		rc = print_first(tw, &tree, &f);
	if (!rc && !(rc = frame_rows(tw, &tree, &f))) {
		tw->next = &tree;
		rc = tree_view_update(&tw->view, &f, owners_clock_ms());
		tw->next = NULL;
	}
	if (!rc && tw->tty)
		rc = draw(tw);
	tree_view_frame_clear(&f);
	owners_tree_clear(&tw->tree);
	tw->tree = tree;
	tw->frames++;
	return rc;
}

/* Once the graph's arena holds more strings left behind by updates than
 * live ones, it is copied anew (memory stays flat through hours of
 * churn); the last frame's tree points into the old strings, so it is
 * built again, from the same roots. */
static int compact(struct tree_watch *tw)
{
	struct owners_graph *g = session_graph(tw->s);
	struct owners_tree again = { NULL, 0, 0, 0, NULL };
	int rc;

	if (g->edits < (size_t)g->count + 4096)
		return 0;
	/* Node indexes outlive the copy: the frame's roots stay valid, and
	 * so do the view's rows. */
	if ((rc = owners_graph_compact(g)))
		return rc;
	rc = owners_tree_build(&again, g, tw->roots.now.nodes, tw->roots.now.count, tw->a->opts->up,
			       (int)tw->a->opts->depth);
	owners_tree_clear(&tw->tree);
	tw->tree = again;
	return rc;
}

/* The last frame's tree, whole and without marks, on the normal screen
 * once the view went with the alternate one (Ctrl-C, --until's state,
 * its deadline): it stays on the terminal, as kubectl get -w leaves its
 * last lines. A root that went, nothing left of its tree: said so. */
static void print_last_frame(struct tree_watch *tw)
{
	char **lines = NULL;
	size_t n = 0, i;

	if (!render_lines(tw, &tw->tree, session_cli(tw->s)->use_color, &lines, &n))
		for (i = 0; i < n; i++)
			sink_printf("%s\n", lines[i]);
	owners_strv_free(lines, n);
	for (i = 0; !tw->tree.count && i < tw->roots.n_gone; i++)
		sink_printf("%s was deleted\n", tw->roots.gone[i]);
	sink_flush();
}

/* What the scan could not see (a group whose discovery failed, with the
 * server's reason; types not listed), said once as every command says
 * it: on stderr, and on a terminal among the view's warnings too (the
 * view hides stderr: it is said there again once the view ends). */
static int say_scan_warnings(struct tree_watch *tw, int on_view)
{
	char **lines = NULL;
	size_t n = 0, i;
	int rc = session_warnings(tw->s, NULL, 0, &lines, &n);

	for (i = 0; !rc && i < n; i++) {
		if (on_view)
			rc = tree_view_warn(&tw->view, lines[i]);
		else
			warning_msg("%s", lines[i]);
	}
	session_warnings_free(lines, n);
	return rc;
}

/* ---- the loop ---------------------------------------------------------- */

static void on_warning(void *ctx, const char *line)
{
	struct tree_watch *tw = ctx;

	if (!tw->tty) {
		warning_msg("%s", line);
		return;
	}
	/* On the view: its own lines, the three latest. */
	(void)tree_view_warn(&tw->view, line);
}

/* The sooner of two waits in ms (-1: none); a wait already due is 0,
 * never -1 (which would wait for the next event). */
static int64_t earliest(int64_t wake, int64_t in)
{
	if (in < 0)
		in = 0;
	return wake < 0 || in < wake ? in : wake;
}

/* When the next frame is due for the clock alone: ages shown in seconds
 * move each second, older ones each minute; marks fade. */
static int64_t next_tick(const struct tree_watch *tw, int64_t now)
{
	int64_t next, wall = session_now(tw->s);
	size_t i;
	int rows, cols;

	if (!tw->tty)
		return -1;
	/* Only the ages on the screen matter. */
	screen_size(&rows, &cols);
	next = tree_view_next_expiry(&tw->view);
	for (i = 0; i < tw->tree.count && i < (size_t)rows; i++) {
		const struct owners_node *n = &session_graph(tw->s)->nodes[tw->tree.rows[i].node];
		int64_t step = n->created && wall - n->created < 600 ? 1000 : 60000;

		if (next < 0 || now + step < next)
			next = now + step;
	}
	return next;
}

/* How long the loop may sleep from now (ms, -1: until something
 * happens): an event, a signal, a timer of the watches, the next frame
 * (when one is held back), the clock or the end. */
static int64_t sleep_ms(const struct tree_watch *tw, int64_t now, int dirty, int64_t tick, int64_t deadline)
{
	int64_t wake = -1;

	if (dirty)
		wake = earliest(wake, tw->last_frame_ms + FRAME_MS - now);
	if (tick >= 0)
		wake = earliest(wake, tick - now);
	if (owners_watch_next_ms(tw->w) >= 0)
		wake = earliest(wake, owners_watch_next_ms(tw->w));
	if (deadline >= 0)
		wake = earliest(wake, deadline - now);
	return wake;
}

/* Waits for what sleep_ms() says and takes it in; EXIT_OK, or the exit
 * code (the error said). *changed: the graph changed. */
static enum exit_code take_events(struct tree_watch *tw, int64_t wake, int *resized, int *quit, int *changed)
{
	struct owners_error err = OWNERS_ERROR_INIT;

	if (owners_http_wait(session_http(tw->s), wake < 0 ? -1 : wake, signals_fd(), &err) ||
	    owners_watch_service(tw->w, &err)) {
		screen_close();
		error_msg("%s", owners_error_message(&err));
		owners_error_clear(&err);
		return EXIT_ERROR;
	}
	signals_take(resized, quit);
	if (*quit)
		return EXIT_OK;
	/* A change can bring a reference to a type not watched yet. */
	if ((*changed = owners_watch_take_changes(tw->w)) < 0 || (*changed && watch_types(tw)))
		return error_oom();
	return EXIT_OK;
}

/* Frames until Ctrl-C, --until's state or the deadline; *reached and
 * *timed_out say which. Returns EXIT_OK or the exit code. */
static enum exit_code tree_watch_loop(struct tree_watch *tw, int64_t deadline, int *reached, int *timed_out,
				      int *quit)
{
	enum exit_code rc;
	int drawn, dirty = 1;

	for (;;) {
		int64_t now = owners_clock_ms(), tick;
		int resized = 0, changed = 0;
		uint32_t first;

		if (dirty && now - tw->last_frame_ms >= FRAME_MS) {
			tree_view_expire(&tw->view, now);
			if ((drawn = frame(tw)) || (drawn = compact(tw)))
				return drawn == OWNERS_EIO ? EXIT_ERROR : error_oom();
			tw->last_frame_ms = now;
			dirty = 0;
			if (tw->until != OWNERS_UNTIL_NONE && tree_watch_until_reached(tw, &first)) {
				*reached = 1;
				return EXIT_OK;
			}
		}
		if (deadline >= 0 && now >= deadline) {
			*timed_out = 1;
			return EXIT_OK;
		}
		tick = next_tick(tw, now);
		if ((rc = take_events(tw, sleep_ms(tw, now, dirty, tick, deadline), &resized, quit, &changed)) ||
		    *quit)
			return rc;
		if (tick >= 0 && owners_clock_ms() >= tick)
			dirty = 1;
		dirty |= changed || resized;
	}
}

/* ---- setting up, and the run ------------------------------------------ */

/* READY/STATUS of the first tree, as tree fetches it; after that the
 * full-object watches keep it. A fetch that fails leaves "-". */
static int first_status(struct tree_watch *tw)
{
	struct session *s = tw->s;
	struct owners_status_fetch_options so = { session_cli(s)->chunk_size, 0, 0,
						  session_json_only() };
	struct owners_error err = OWNERS_ERROR_INIT;
	struct owners_tree first = { NULL, 0, 0, 0, NULL };
	struct owners_object_status *st;
	uint32_t *nodes = NULL;
	size_t count = 0, i;
	int rc;

	if ((rc = owners_watch_service(tw->w, &err)) == 0 && (rc = find_roots(tw)) == 0 &&
	    (rc = owners_tree_build(&first, session_graph(s), tw->roots.now.nodes,
				    tw->roots.now.count, tw->a->opts->up,
				    (int)tw->a->opts->depth)) == 0 &&
	    prints_status(tw) && (st = owners_watch_status(tw->w, &count)) &&
	    (nodes = calloc(first.count + 1, sizeof(*nodes)))) {
		for (i = 0; i < first.count; i++)
			nodes[i] = first.rows[i].node;
		owners_status_fetch(st, session_graph(s),
				    &(const struct owners_node_list){ nodes, first.count },
				    session_http(s), &so, &err);
	}
	owners_error_clear(&err);
	free(nodes);
	owners_tree_clear(&first);
	return rc;
}

/* The title's arguments, as typed: " deployment/web pods". */
static int title_what(struct tree_watch *tw)
{
	struct owners_buf b = OWNERS_BUF_INIT;
	size_t i;
	int rc = owners_buf_adds(&b, "");

	for (i = 0; !rc && i < tw->a->n_objs; i++)
		rc = tw->a->objs[i].name ? owners_buf_addf(&b, " %s/%s", tw->a->objs[i].type, tw->a->objs[i].name)
					 : owners_buf_addf(&b, " %s", tw->a->objs[i].type);
	if (!rc && !(tw->what = owners_buf_detach(&b)))
		rc = OWNERS_ENOMEM;
	owners_buf_clear(&b);
	return rc;
}

/* Everything a watch needs before its first frame: the targets of the
 * arguments, the watches (with a selector's own), READY/STATUS of the
 * first tree. 0, or an error code (OWNERS_ENOMEM; else said already). */
static int tree_watch_open(struct tree_watch *tw)
{
	struct session *s = tw->s;
	const struct owners_selection_scope scope = {
		.namespace_ = session_namespace(s),
		.all_namespaces = session_cli(s)->all_namespaces,
		.selector = session_cli(s)->selector,
	};
	struct owners_watch_options wo;
	size_t i;

	memset(&wo, 0, sizeof(wo));
	session_scan_options(s, &wo.list);
	wo.list.on_listed = NULL;
	wo.warn = on_warning;
	wo.warn_ctx = tw;
	if (tree_roots_open(&tw->roots, tw->a->args, tw->a->n_objs, &scope) || title_what(tw) ||
	    owners_watch_new(&tw->w, session_graph(s), session_http(s), session_types(s), &wo))
		return OWNERS_ENOMEM;
	for (i = 0; i < tw->roots.n_targets; i++) {
		const struct owners_selection_target *t = &tw->roots.targets[i];

		if (!t->name && session_cli(s)->selector &&
		    owners_watch_add(tw->w, t->type,
				     t->type->namespaced && !tw->a->all ? session_namespace(s)
									: NULL,
				     NULL, 0, session_cli(s)->selector))
			return OWNERS_ENOMEM;
	}
	if (watch_types(tw))
		return OWNERS_ENOMEM;
	return first_status(tw);
}

static void tree_watch_clear(struct tree_watch *tw)
{
	/* Watches still in flight are the client's: it lets go of them
	 * before the watch that owns their requests is freed. */
	session_disconnect(tw->s);
	owners_watch_free(tw->w);
	owners_tree_clear(&tw->tree);
	tree_view_clear(&tw->view);
	free(tw->what);
	tree_roots_clear(&tw->roots);
}

static void tree_watch_init(struct tree_watch *tw, struct session *s, const struct tree_watch_args *a)
{
	memset(tw, 0, sizeof(*tw));
	tw->s = s;
	tw->a = a;
	tw->until = tw->a->opts->until;
	tw->format.kind = a->kind;
	tw->tty = (a->kind == OUTPUT_TEXT || a->kind == OUTPUT_WIDE) && isatty(STDOUT_FILENO);
	tw->started_ms = owners_clock_ms();
	/* A terminal marks the rows that change; elsewhere each change is
	 * said. */
	tree_view_init(&tw->view, tw->tty, tw->tty ? NULL : say_change, tw);
}

enum exit_code tree_watch_run(struct session *s, const struct tree_watch_args *a)
{
	struct tree_watch tw;
	int64_t deadline = -1;
	enum exit_code rc;
	int quit = 0, reached = 0, timed_out = 0;

	tree_watch_init(&tw, s, a);
	if (tree_watch_open(&tw) || say_scan_warnings(&tw, tw.tty)) {
		rc = error_oom();
	} else if ((rc = signals_open(SIGNALS_SECOND_ASKS))) {
		/* said */
	} else if (tw.tty && screen_open()) {
		error_msg("cannot watch: %s", strerror(errno));
		rc = EXIT_ERROR;
	} else {
		if (tw.until != OWNERS_UNTIL_NONE && a->opts->timeout_ms > 0)
			deadline = tw.started_ms + a->opts->timeout_ms;
		rc = tree_watch_loop(&tw, deadline, &reached, &timed_out, &quit);
		screen_close();
		if (tw.tty && !rc && (quit || reached || timed_out)) {
			print_last_frame(&tw);
			if (say_scan_warnings(&tw, 0))
				rc = error_oom();
		}
		if (quit)
			signals_die(quit);
		if (!rc && tw.until != OWNERS_UNTIL_NONE && (reached || timed_out))
			rc = tree_watch_outcome(&tw, reached);
	}
	screen_close();
	tree_watch_clear(&tw);
	return rc;
}
