/*
 * owners delete: client-side cascading deletion.
 *
 * A loop of rounds: scan, plan (lib/ops/cascade.c), act (lib/ops/cascade_exec.c),
 * scan again, until the cascade is done or --timeout passes. The roots are
 * remembered by UID for the run; everything else is read back from the
 * cluster each round, which is what makes an interrupted run resumable.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "api_path.h"
#include "cascade.h"
#include "cascade_access.h"
#include "cascade_exec.h"
#include "commands.h"
#include "json.h"
#include "object_args.h"
#include "output.h"
#include "session.h"
#include "strset.h"
#include "tree.h"

#define OFF(field) offsetof(struct owners_cli, field)

static const char *const cascade_values[] = { "background", "foreground", "orphan", NULL };
static const char *const dry_run_values[] = { "none", "client", "server", NULL };
static const char *const delete_outputs[] = { "name", NULL };

const struct opt delete_opts[] = {
	{ "cascade", 0, OPT_STRING, OFF(cascade), "MODE",
	  "background (default), foreground or orphan", cascade_values, COMPLETE_VALUES, 0, 0, 0 },
	{ "dry-run", 0, OPT_STRING, OFF(dry_run_mode), "MODE",
	  "client: print the plan and change nothing; server: send the requests with dryRun=All",
	  dry_run_values, COMPLETE_VALUES, 0, 0, 0 },
	{ "wait", 0, OPT_BOOL, OFF(wait), NULL,
	  "wait until every object of the cascade is gone (default true; --wait=false acts once)",
	  NULL, COMPLETE_NONE, 0, 0, 0 },
	{ "timeout", 0, OPT_DURATION, OFF(timeout_ms), "DURATION",
	  "give up waiting after this long, exit 3 and say what is left (default 5m; 0: do not wait)",
	  NULL, COMPLETE_NONE, 0, 0, 0 },
	{ "grace-period", 0, OPT_INT, OFF(grace_period), "SECONDS",
	  "seconds each object named gets to terminate (default: its own); dependents always get "
	  "their own, as from the garbage collector",
	  NULL, COMPLETE_NONE, 0, -1, LONG_MAX },
	{ "now", 0, OPT_BOOL, OFF(now), NULL, "same as --grace-period=1", NULL, COMPLETE_NONE, 0, 0, 0 },
	{ "force", 0, OPT_BOOL, OFF(force), NULL,
	  "same as --grace-period=0: the objects named go without graceful termination (not their "
	  "dependents)",
	  NULL, COMPLETE_NONE, 0, 0, 0 },
	{ "ignore-not-found", 0, OPT_BOOL, OFF(ignore_not_found), NULL,
	  "an object that does not exist is not an error", NULL, COMPLETE_NONE, 0, 0, 0 },
	{ "selector", 'l', OPT_STRING, OFF(selector), "SELECTOR", "label selector for the roots",
	  NULL, COMPLETE_NONE, 0, 0, 0 },
	{ "all", 0, OPT_BOOL, OFF(all_objects), NULL,
	  "every object of the type given (in the namespace, or with -A everywhere) is a root",
	  NULL, COMPLETE_NONE, 0, 0, 0 },
	{ "output", 'o', OPT_STRING, OFF(output), "FORMAT",
	  "name: print each deleted object as TYPE/NAME", delete_outputs, COMPLETE_VALUES, 0, 0, 0 },
	{ NULL, 0, 0, 0, NULL, NULL, NULL, 0, 0, 0, 0 },
};

static int oom(void)
{
	error_msg("out of memory");
	return EXIT_ERROR;
}

struct run {
	struct owners_cli *cli;
	struct session s;
	const char *scan_ns;          /* NULL: all namespaces */
	struct owners_cascade_options copt;
	int server_gc_known;
	char **roots;                 /* UIDs */
	size_t n_roots;
	struct owners_strset seen;    /* members and released objects: uid -> "type name" */
	struct owners_strset forbidden; /* uid -> message */
	int progress;                 /* stderr is a terminal */
	size_t first_failures;        /* types that failed to list in the first scan */
	unsigned char *relevant;      /* per type in the table: listed in later rounds */
	char **links;                 /* members seen in earlier rounds (borrowed from seen) */
	size_t n_links;
	size_t deleted, released;
	int access_checked;           /* the permissions were asked for */
};

/* kubectl prints `deployment.apps "web" deleted`; -o name prints `deployment.apps/web`. */
static int describe(struct owners_buf *out, const struct owners_node *n)
{
	struct owners_buf type = OWNERS_BUF_INIT;
	int rc = owners_node_type_name(&type, n);
	char *slash = strchr(type.ptr, '/');

	if (!rc && slash) {
		*slash = '\0';
		rc = owners_buf_addf(out, "%s\t%s\t%s", type.ptr, n->name, n->namespace_);
	}
	owners_buf_release(&type);
	return rc;
}

static void print_event(struct run *r, const char *desc, const char *what)
{
	char *copy = owners_strdup(desc), *type, *name, *ns;

	if (!copy)
		return;
	type = copy;
	name = strchr(type, '\t');
	*name++ = '\0';
	ns = strchr(name, '\t');
	*ns++ = '\0';
	if (r->progress)
		fputs("\r\033[K", stderr);
	/* -o name: every object that goes (server dry run included), as kubectl */
	if (r->cli->output && !strncmp(what, "deleted", 7))
		printf("%s/%s\n", type, name);
	else if (!r->cli->output)
		printf("%s \"%s\" %s%s%s\n", type, name, what, *ns ? " in namespace " : "", ns);
	fflush(stdout);
	free(copy);
}

/* Whether a released object refers to a member that orphans its
 * dependents (so it is orphaned, not kept by another owner). */
static int released_by_orphaning(const struct owners_graph *g, const struct owners_cascade_plan *p,
				 uint32_t n)
{
	const struct owners_node *node = &g->nodes[n];
	uint32_t k;

	for (k = 0; k < node->n_refs; k++) {
		uint32_t o = node->refs[k].owner;

		if (o != OWNERS_NO_NODE && p->member[o] && p->orphaning[o])
			return 1;
	}
	return 0;
}

/* Remembers members and released objects, and reports those that are
 * gone or no longer refer into the cascade since the last round. */
static int account(struct run *r, const struct owners_cascade_plan *p)
{
	struct owners_graph *g = r->s.graph;
	struct owners_buf desc = OWNERS_BUF_INIT;
	size_t i;
	uint32_t n;

	for (n = 0; n < g->count; n++) {
		const struct owners_node *node = &g->nodes[n];
		struct owners_strset_entry *e;

		if (node->virtual_ || (!p->member[n] && !p->released[n]))
			continue;
		owners_buf_reset(&desc);
		if (describe(&desc, node) || !(e = owners_strset_add(&r->seen, node->uid, desc.ptr))) {
			owners_buf_release(&desc);
			return OWNERS_ENOMEM;
		}
		if (p->released[n])
			e->flag |= 2;
		/* Its dependents are released, not deleted: it links nothing. */
		if (p->member[n] && p->orphaning[n])
			e->flag |= 4;
		if (p->released[n] && released_by_orphaning(g, p, n))
			e->flag |= 8;
	}
	owners_buf_release(&desc);
	/* A type that failed to list this round only hides its objects. */
	if (r->s.scan.n_failures > r->first_failures)
		return 0;
	for (i = 0; i < r->seen.cap; i++) {
		struct owners_strset_entry *e = &r->seen.slots[i];
		uint32_t now;

		if (!e->key || (e->flag & 1))
			continue;
		now = owners_graph_find_uid(g, e->key);
		if (now == OWNERS_NO_NODE || g->nodes[now].virtual_) {
			e->flag |= 1;
			print_event(r, e->value, (e->flag & 2) ? "deleted (after release)" : "deleted");
			r->deleted++;
		} else if ((e->flag & 2) && !p->released[now] && !p->member[now]) {
			e->flag |= 1;
			print_event(r, e->value, (e->flag & 8) ? "orphaned (kept, reference removed)"
							       : "released (kept: it has another owner)");
			r->released++;
		}
	}
	return 0;
}

static void show_progress(struct run *r, const struct owners_cascade_plan *p, size_t acting)
{
	if (!r->progress)
		return;
	fprintf(stderr, "\r\033[K%s cascade: %zu deleted, %zu left, %zu acting, %zu waiting",
		owners_cascade_mode_name(r->copt.mode), r->deleted, p->members_left + p->released_left,
		acting, p->n_waits);
	fflush(stderr);
}

static int add_root(struct run *r, const char *uid)
{
	size_t i;
	char **roots;

	for (i = 0; i < r->n_roots; i++)
		if (!strcmp(r->roots[i], uid))
			return 0;
	roots = realloc(r->roots, (r->n_roots + 1) * sizeof(*roots));
	if (!roots)
		return OWNERS_ENOMEM;
	r->roots = roots;
	if (!(r->roots[r->n_roots] = owners_strdup(uid)))
		return OWNERS_ENOMEM;
	r->n_roots++;
	return 0;
}

/* Named objects that no longer exist but still have dependents pointing
 * at them: a cascade that was interrupted after its root went. */
static size_t resume_roots(struct run *r, const struct owners_resource *res, const char *ns,
			   const char *name)
{
	struct owners_graph *g = r->s.graph;
	size_t found = 0;
	uint32_t i;

	for (i = 0; i < g->count; i++) {
		const struct owners_node *n = &g->nodes[i];

		if (n->virtual_ && n->resource == res && !strcmp(n->name, name) &&
		    !strcmp(n->namespace_, res->namespaced ? ns : "") && !add_root(r, n->uid))
			found++;
	}
	return found;
}

static int find_roots(struct run *r, const struct owners_object_arg *args, size_t n_args)
{
	size_t i, j;

	for (i = 0; i < n_args; i++) {
		const struct owners_resource *res;
		const char *ns;
		uint32_t node;
		int rc;

		if ((rc = session_resolve_type(&r->s, args[i].type, &res)))
			return rc;
		ns = res->namespaced ? (r->cli->all_namespaces ? NULL : r->s.namespace_) : "";
		if (!args[i].name) {
			uint32_t *sel = NULL;
			size_t n_sel = 0;

			if ((rc = session_find_roots(&r->s, &args[i], 1, r->cli->selector, &sel, &n_sel)))
				return rc;
			for (j = 0; j < n_sel; j++)
				if (add_root(r, r->s.graph->nodes[sel[j]].uid)) {
					free(sel);
					error_msg("out of memory");
					return EXIT_ERROR;
				}
			free(sel);
			continue;
		}
		if (!ns) {
			error_msg("a resource cannot be deleted by name across all namespaces: use -n NAMESPACE");
			return EXIT_USAGE;
		}
		if (owners_graph_listing_state(r->s.graph, res, ns, NULL) != OWNERS_LISTING_OK) {
			error_msg("cannot list '%s': the object cannot be found safely", args[i].type);
			return EXIT_ERROR;
		}
		if (owners_graph_find_name(r->s.graph, res, ns, args[i].name, &node)) {
			error_msg("out of memory");
			return EXIT_ERROR;
		}
		if (node != OWNERS_NO_NODE) {
			if (add_root(r, r->s.graph->nodes[node].uid)) {
				error_msg("out of memory");
				return EXIT_ERROR;
			}
			continue;
		}
		if (resume_roots(r, res, ns, args[i].name))
			continue;
		if (r->cli->ignore_not_found)
			continue;
		{
			struct owners_buf type = OWNERS_BUF_INIT;

			owners_api_type_name(&type, res);
			if (*ns)
				error_msg("%s '%s' not found in namespace '%s'", type.ptr, args[i].name, ns);
			else
				error_msg("%s '%s' not found", type.ptr, args[i].name);
			owners_buf_release(&type);
		}
		return EXIT_ERROR;
	}
	return 0;
}

/* --dry-run=client: every object of the cascade, in the order it goes. */
static int print_plan(struct run *r, const struct owners_cascade_plan *p)
{
	struct owners_graph *g = r->s.graph;
	struct owners_tree tree;
	uint32_t *roots = NULL;
	size_t i, n = 0;
	int rc;

	roots = calloc(r->n_roots + 1, sizeof(*roots));
	if (!roots)
		return OWNERS_ENOMEM;
	for (i = 0; i < r->n_roots; i++) {
		uint32_t node = owners_graph_find_uid(g, r->roots[i]);

		if (node != OWNERS_NO_NODE)
			roots[n++] = node;
	}
	rc = owners_tree_build(&tree, g, roots, n, 0, -1);
	free(roots);
	if (rc)
		return rc;
	printf("%s cascade (dry run, nothing changed):\n", owners_cascade_mode_name(r->copt.mode));
	for (i = 0; i < tree.count; i++) {
		const struct owners_tree_row *row = &tree.rows[i];
		const struct owners_node *node = &g->nodes[row->node];
		struct owners_buf name = OWNERS_BUF_INIT;
		const char *what;

		if (row->cycle || (!p->member[row->node] && !p->released[row->node]))
			continue;
		if (p->released[row->node])
			what = released_by_orphaning(g, p, row->node) ? "release (orphaned, kept)"
								       : "release (kept: another owner is alive)";
		else if (node->virtual_)
			what = "already gone";
		else if (!row->depth)
			what = r->copt.mode == OWNERS_CASCADE_FOREGROUND ? "delete first, goes last (root)"
			       : p->orphaning[row->node] ? "delete (root; its dependents are kept)"
							 : "delete (root)";
		else if (p->orphaning[row->node])
			what = "delete (it carries the orphan finalizer: its dependents are kept)";
		else
			what = "delete (every owner is deleted)";
		owners_node_type_name(&name, node);
		printf("%*s%s%s%s  %s\n", (int)row->depth * 2, "", *node->namespace_ ? node->namespace_ : "",
		       *node->namespace_ ? "/" : "", name.ptr, what);
		owners_buf_release(&name);
	}
	owners_tree_free(&tree);
	return 0;
}

/* An object the probe can ask about: one that is about to enter
 * foreground/orphan deletion and does not hold that finalizer yet. One that
 * already holds it (a run killed between adding it and deleting) would
 * make any server look as if it added the finalizer itself. */
static int probe_candidate(const struct owners_cascade_plan *p, const struct owners_graph *g,
			   uint32_t *node)
{
	size_t i;

	for (i = 0; i < p->n_actions; i++) {
		const struct owners_action *a = &p->actions[i];
		const char *fin = a->kind == OWNERS_ACT_DELETE_FOREGROUND ? OWNERS_FINALIZER_FOREGROUND
				  : a->kind == OWNERS_ACT_DELETE_ORPHAN   ? OWNERS_FINALIZER_ORPHAN
									  : NULL;

		if (!fin || g->nodes[a->node].virtual_ || owners_node_has_finalizer(&g->nodes[a->node], fin))
			continue;
		*node = a->node;
		return 1;
	}
	return 0;
}

/* Drops actions on objects we were forbidden to touch: they stay, and the
 * run ends incomplete rather than retrying forever. */
static void drop_forbidden(struct run *r, struct owners_cascade_plan *p)
{
	size_t i, k = 0;

	for (i = 0; i < p->n_actions; i++)
		if (!owners_strset_get(&r->forbidden, r->s.graph->nodes[p->actions[i].node].uid))
			p->actions[k++] = p->actions[i];
	p->n_actions = k;
}

/* With objects we may not change (403) and nothing left to do now: true
 * when every wait hangs on them, directly or through other waits (a pod
 * waits for its ReplicaSet, which waits for the forbidden Deployment), so
 * waiting longer cannot help. A wait on someone else (a finalizer's
 * controller) may still end: then the run goes on waiting. */
static int waits_hang_on_forbidden(struct run *r, const struct owners_cascade_plan *p)
{
	struct owners_graph *g = r->s.graph;
	unsigned char *stuck = calloc(g->count + 1, 1);
	int changed = 1, all = 1;
	uint32_t n, k;
	size_t i;

	if (!stuck)
		return 0;
	for (n = 0; n < g->count; n++)
		if (!g->nodes[n].virtual_ && owners_strset_get(&r->forbidden, g->nodes[n].uid))
			stuck[n] = 1;
	while (changed) {
		changed = 0;
		for (i = 0; i < p->n_waits; i++) {
			const struct owners_cascade_wait *w = &p->waits[i];
			const struct owners_node *node = &g->nodes[w->node];

			if (stuck[w->node])
				continue;
			if (w->on == OWNERS_WAIT_ON_OWNERS) {
				for (k = 0; k < node->n_refs; k++)
					if (node->refs[k].owner != OWNERS_NO_NODE && stuck[node->refs[k].owner])
						stuck[w->node] = 1;
			} else if (w->on == OWNERS_WAIT_ON_DEPENDENTS) {
				for (k = 0; k < node->n_dependents; k++)
					if (stuck[node->dependents[k]])
						stuck[w->node] = 1;
			}
			changed |= stuck[w->node];
		}
	}
	for (i = 0; i < p->n_waits; i++)
		all &= stuck[p->waits[i].node];
	free(stuck);
	return all;
}

/* Before the first change, every permission the whole cascade needs
 * (SelfSubjectAccessReview, as `kubectl auth can-i`): a missing one stops
 * the run with nothing done, instead of half way through the tree. A
 * review that cannot be made is no verdict: each request is still
 * authorized on its own, and a 403 then leaves that object in place. */
static int check_access(struct run *r, const struct owners_cascade_plan *p)
{
	struct owners_access_check *checks = NULL;
	struct owners_error err = OWNERS_ERROR_INIT;
	uint32_t *examples = NULL;
	size_t n = 0, i, denied = 0;
	int rc = EXIT_OK;

	if (owners_cascade_needed_access(p, r->s.graph, r->copt.mode, &checks, &examples, &n)) {
		error_msg("out of memory");
		return EXIT_ERROR;
	}
	if (owners_access_check_all(r->s.http, checks, n, &err)) {
		rc = report_error(&err);
		owners_error_clear(&err);
	}
	for (i = 0; rc == EXIT_OK && i < n; i++) {
		const struct owners_access_check *c = &checks[i];
		struct owners_buf name = OWNERS_BUF_INIT;

		if (c->verdict != OWNERS_ACCESS_DENIED)
			continue;
		denied++;
		if (r->progress)
			fputs("\r\033[K", stderr);
		owners_node_type_name(&name, &r->s.graph->nodes[examples[i]]);
		error_msg("cannot %s %s: forbidden: no %s permission on %s%s%s%s%s%s (asked before any change)",
			  c->verb, name.ptr ? name.ptr : c->resource, c->verb, c->resource, *c->group ? "." : "",
			  c->group, *c->namespace_ ? " in namespace '" : "", c->namespace_,
			  *c->namespace_ ? "'" : "");
		owners_buf_release(&name);
	}
	owners_access_checks_release(checks, n);
	free(checks);
	free(examples);
	if (denied) {
		error_msg("nothing was deleted or changed: the cascade needs %s", denied == 1 ? "that permission"
												 : "those permissions");
		return EXIT_INCOMPLETE;
	}
	return rc;
}

static int report_left(struct run *r, const struct owners_cascade_plan *p)
{
	struct owners_buf name = OWNERS_BUF_INIT;
	size_t i;

	for (i = 0; i < p->n_waits; i++) {
		const struct owners_node *n = &r->s.graph->nodes[p->waits[i].node];

		owners_buf_reset(&name);
		owners_node_type_name(&name, n);
		fprintf(stderr, "  %s%s%s: %s", *n->namespace_ ? n->namespace_ : "", *n->namespace_ ? "/" : "",
			name.ptr, p->waits[i].why);
		if (n->deleted && n->n_finalizers) {
			uint32_t k;

			fprintf(stderr, " (finalizers:");
			for (k = 0; k < n->n_finalizers; k++)
				fprintf(stderr, " %s", n->finalizers[k]);
			fprintf(stderr, ")");
		}
		fputc('\n', stderr);
	}
	for (i = 0; i < p->n_actions; i++) {
		const struct owners_node *n = &r->s.graph->nodes[p->actions[i].node];

		owners_buf_reset(&name);
		owners_node_type_name(&name, n);
		fprintf(stderr, "  %s%s%s: %s next\n", *n->namespace_ ? n->namespace_ : "",
			*n->namespace_ ? "/" : "", name.ptr, owners_action_name(p->actions[i].kind));
	}
	owners_buf_release(&name);
	return 0;
}

/* Every member seen so far, so a middle level already removed (by the GC,
 * say) still links what is left below it. */
static int collect_links(struct run *r)
{
	size_t i;

	free(r->links);
	r->links = calloc(r->seen.count + 1, sizeof(*r->links));
	r->n_links = 0;
	if (!r->links)
		return OWNERS_ENOMEM;
	for (i = 0; i < r->seen.cap; i++)
		if (r->seen.slots[i].key && !(r->seen.slots[i].flag & (2 | 4)))
			r->links[r->n_links++] = r->seen.slots[i].key;
	return 0;
}

static int want_relevant(void *ctx, const struct owners_resource *res)
{
	struct run *r = ctx;

	return r->relevant[res - r->s.types.items];
}

static void mark_type(struct run *r, const struct owners_resource *res)
{
	if (res && res >= r->s.types.items && res < r->s.types.items + r->s.types.count)
		r->relevant[res - r->s.types.items] = 1;
}

/* After the first round only the types that hold the cascade's objects and
 * their owners can change what the plan says: list just those. A type
 * outside this set reads as "not listed", which classifies as unknown:
 * kept, never deleted. */
static int choose_relevant_types(struct run *r, const struct owners_cascade_plan *p)
{
	struct owners_graph *g = r->s.graph;
	uint32_t n, k;

	r->relevant = calloc(r->s.types.count + 1, 1);
	if (!r->relevant)
		return OWNERS_ENOMEM;
	for (n = 0; n < g->count; n++) {
		const struct owners_node *node = &g->nodes[n];

		if (!p->member[n] && !p->released[n])
			continue;
		mark_type(r, node->resource);
		for (k = 0; k < node->n_refs; k++)
			mark_type(r, owners_resource_by_gvk(&r->s.types, node->refs[k].api_version,
							    node->refs[k].kind));
		for (k = 0; k < node->n_dependents; k++)
			mark_type(r, g->nodes[node->dependents[k]].resource);
	}
	return 0;
}

static int run_cascade(struct run *r)
{
	struct owners_cascade_plan plan;
	struct owners_cascade_exec_options eo = { 0, 0, -1 };
	const char *dry = r->cli->dry_run_mode ? r->cli->dry_run_mode : "none";
	double deadline = 0;
	struct timespec ts;
	long nap_ms = 50;
	int rc = EXIT_OK, planned = 0;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	deadline = (double)ts.tv_sec + ts.tv_nsec / 1e9 + r->cli->timeout_ms / 1000.0;
	eo.grace_period = r->cli->force ? 0 : r->cli->now ? 1 : r->cli->grace_period;
	eo.dry_run = !strcmp(dry, "server");
	for (;;) {
		size_t i, acting;
		struct owners_action_result *results;
		struct owners_error err = OWNERS_ERROR_INIT;

		if (collect_links(r) ||
		    owners_cascade_plan_make(&plan, r->s.graph, (const char *const *)r->roots, r->n_roots,
					     (const char *const *)r->links, r->n_links, &r->copt)) {
			rc = oom();
			goto out;
		}
		planned = 1;
		if (!strcmp(dry, "client")) {
			print_plan(r, &plan);
			goto out;
		}
		if ((!eo.dry_run && account(r, &plan)) ||
		    (!r->relevant && choose_relevant_types(r, &plan))) {
			rc = oom();
			goto out;
		}
		drop_forbidden(r, &plan);
		if (plan.done || (!plan.n_actions && r->forbidden.count && waits_hang_on_forbidden(r, &plan)))
			break;
		if (!r->access_checked) {
			r->access_checked = 1;
			if ((rc = check_access(r, &plan)))
				goto out;
		}
		clock_gettime(CLOCK_MONOTONIC, &ts);
		if ((double)ts.tv_sec + ts.tv_nsec / 1e9 >= deadline && (r->cli->timeout_ms || !r->cli->wait)) {
			if (!r->cli->wait || !r->cli->timeout_ms)
				break;
			if (r->progress)
				fputs("\r\033[K", stderr);
			error_msg("timed out after %lds waiting for the cascade; still there:",
				  r->cli->timeout_ms / 1000);
			report_left(r, &plan);
			rc = EXIT_TIMEOUT;
			goto out;
		}
		if (!r->server_gc_known) {
			uint32_t node;

			/* When in doubt, put the finalizer on ourselves: that is
			 * right whether or not the server would have added it. */
			r->copt.server_gc = 0;
			if (probe_candidate(&plan, r->s.graph, &node))
				owners_cascade_probe_server_gc(r->s.http, &r->s.graph->nodes[node],
							       r->copt.mode, &r->copt.server_gc);
			r->server_gc_known = 1;
		}
		eo.server_gc = r->copt.server_gc;
		acting = plan.n_actions;
		show_progress(r, &plan, acting);
		results = calloc(plan.n_actions + 1, sizeof(*results));
		if (!results) {
			rc = oom();
			goto out;
		}
		if (plan.n_actions && owners_cascade_execute(r->s.graph, &plan, r->s.http, &eo, results, &err)) {
			rc = report_error(&err);
			owners_error_clear(&err);
			owners_cascade_results_free(results, plan.n_actions);
			goto out;
		}
		for (i = 0; i < plan.n_actions; i++) {
			const struct owners_node *n = &r->s.graph->nodes[plan.actions[i].node];
			struct owners_buf name = OWNERS_BUF_INIT;

			if (results[i].outcome != OWNERS_OUTCOME_FORBIDDEN &&
			    results[i].outcome != OWNERS_OUTCOME_FAILED)
				continue;
			owners_node_type_name(&name, n);
			if (r->progress)
				fputs("\r\033[K", stderr);
			if (results[i].outcome == OWNERS_OUTCOME_FORBIDDEN) {
				warning_msg("cannot %s %s: %s (left in place)", owners_action_name(plan.actions[i].kind),
					    name.ptr, results[i].message ? results[i].message : "forbidden");
				owners_strset_add(&r->forbidden, n->uid, NULL);
			} else {
				error_msg("cannot %s %s: %s", owners_action_name(plan.actions[i].kind), name.ptr,
					  results[i].message ? results[i].message : "failed");
				rc = EXIT_ERROR;
			}
			owners_buf_release(&name);
		}
		if (eo.dry_run) {
			for (i = 0; i < plan.n_actions; i++) {
				struct owners_buf d = OWNERS_BUF_INIT;

				if (results[i].outcome != OWNERS_OUTCOME_DONE)
					continue;
				describe(&d, &r->s.graph->nodes[plan.actions[i].node]);
				print_event(r, d.ptr, plan.actions[i].kind == OWNERS_ACT_RELEASE
							      ? "released (server dry run)"
							      : "deleted (server dry run)");
				owners_buf_release(&d);
			}
		}
		owners_cascade_results_free(results, plan.n_actions);
		owners_cascade_plan_free(&plan);
		planned = 0;
		if (rc || eo.dry_run || !r->cli->wait || !r->cli->timeout_ms)
			break;
		/* Waiting on someone else (the GC, a finalizer's controller):
		 * look again soon, then less often. */
		if (!acting) {
			usleep((useconds_t)nap_ms * 1000);
			nap_ms = nap_ms * 2 > 1000 ? 1000 : nap_ms * 2;
		} else {
			nap_ms = 50;
		}
		if ((rc = session_rescan(&r->s, r->scan_ns, want_relevant, r)))
			break;
	}
	if (r->progress)
		fputs("\r\033[K", stderr);
	if (!rc && r->forbidden.count) {
		error_msg("the cascade is incomplete: %zu object(s) could not be changed (forbidden)",
			  r->forbidden.count);
		rc = EXIT_INCOMPLETE;
	}
out:
	/* the one place the plan is freed, whichever way the loop ended */
	if (planned)
		owners_cascade_plan_free(&plan);
	return rc;
}

int cmd_delete(struct owners_cli *cli, struct string_list *args)
{
	struct owners_error err = OWNERS_ERROR_INIT;
	struct owners_object_arg *objs = NULL;
	size_t n_objs = 0, i;
	struct run r;
	int rc, all = cli->all_namespaces;

	memset(&r, 0, sizeof(r));
	r.cli = cli;
	owners_strset_init(&r.seen);
	owners_strset_init(&r.forbidden);
	if (owners_cascade_mode_parse(cli->cascade, &r.copt.mode)) {
		error_msg("invalid value '%s' for --cascade", cli->cascade);
		return EXIT_USAGE;
	}
	r.progress = isatty(STDERR_FILENO) && !cli->output;
	if (cli->force && cli->grace_period > 0) {
		error_msg("--force means --grace-period=0: they cannot be combined with another value");
		return EXIT_USAGE;
	}
	if (cli->all_objects && !args->count) {
		error_msg("--all needs a type: owners delete TYPE --all (every object of that type)");
		return EXIT_USAGE;
	}
	if (cli->all_objects && cli->selector) {
		error_msg("--all and -l cannot be combined: --all already takes every object of the type");
		return EXIT_USAGE;
	}
	/* A type alone deletes nothing by accident: it needs -l or --all. */
	if (owners_object_args_parse(&objs, &n_objs, args->items, args->count,
				     cli->selector != NULL || cli->all_objects, &err)) {
		report_error(&err);
		owners_error_clear(&err);
		return EXIT_USAGE;
	}
	for (i = 0; i < n_objs && cli->all_objects; i++)
		if (objs[i].name) {
			error_msg("--all takes every object of a type: give the type without names, "
				  "e.g. owners delete configmaps --all");
			rc = EXIT_USAGE;
			goto out;
		}
	if ((rc = session_open(&r.s, cli)))
		goto out;
	for (i = 0; i < n_objs && !all; i++) {
		const struct owners_resource *res;

		if ((rc = session_resolve_type(&r.s, objs[i].type, &res)))
			goto out;
		/* A cluster-scoped root may own objects in any namespace. */
		all = !res->namespaced;
	}
	r.scan_ns = all ? NULL : r.s.namespace_;
	if ((rc = session_scan(&r.s, r.scan_ns)))
		goto out;
	if ((rc = find_roots(&r, objs, n_objs)))
		goto out;
	if (!r.n_roots) {
		/* --ignore-not-found, or a selector or --all that matched nothing */
		if (cli->all_objects || cli->selector)
			fprintf(stderr, "No resources found\n");
		rc = EXIT_OK;
		goto out;
	}
	r.first_failures = r.s.scan.n_failures;
	if (r.s.scan.n_failures) {
		session_warn_scan(&r.s);
		warning_msg("the scan is incomplete: objects that may be owned through the types above are kept");
	}
	rc = run_cascade(&r);
out:
	for (i = 0; i < r.n_roots; i++)
		free(r.roots[i]);
	free(r.roots);
	free(r.relevant);
	free(r.links);
	owners_strset_free(&r.seen);
	owners_strset_free(&r.forbidden);
	owners_object_args_free(objs, n_objs);
	session_close(&r.s);
	return rc;
}

/* The command: its usage, help, man page text and permissions. */
const struct command delete_command = {
	"delete", cmd_delete, delete_opts, "owners delete TYPE/NAME... | TYPE (-l SELECTOR | --all) [--cascade=background|foreground|orphan] [flags]",
	"delete objects with a client-side cascade, as the garbage collector would",
	"Deletes the objects and cascades to their dependents from the client, the way\n"
	"the cluster's garbage collector does, so it works when the GC is off, stalled\n"
	"or slow, and cooperates with it when it runs.\n"
	"\n"
	"background: the owner goes first, then every dependent whose owners are all\n"
	"gone, level by level. foreground: the owner enters deletion first and stays\n"
	"visible (its controller stops), dependents go bottom-up, the owner last;\n"
	"dependents with blockOwnerDeletion hold it. orphan: the owner's reference is\n"
	"removed from every dependent, then the owner goes.\n"
	"\n"
	"It never deletes or patches an object that the garbage collector, in the same\n"
	"situation, would not, nor earlier than it would. A dependent with another live\n"
	"owner is never deleted: its reference is removed once the deleted owner is in\n"
	"deletion or gone, so a refused DELETE leaves every reference as it was. An\n"
	"object with a reference by an apiVersion the server does not serve is left\n"
	"alone, as the GC leaves it; owners whose type could not be listed count as\n"
	"alive. Below the roots an object's own orphan or foregroundDeletion finalizer\n"
	"decides its policy, as in the GC; --grace-period and --force apply to the\n"
	"objects named only. Every DELETE carries the UID and resourceVersion read as\n"
	"preconditions (on a conflict it is read again and deleted only if its\n"
	"ownerReferences are unchanged), every patch the resourceVersion it read, so\n"
	"objects re-created or changed meanwhile are never overwritten. Before its first change it asks the server (SelfSubjectAccessReview,\n"
	"as kubectl auth can-i) for every permission the whole cascade needs: a missing one\n"
	"stops it with nothing changed, exit 4. The cascade's progress lives in the cluster:\n"
	"run the same command again after an interruption and it resumes.",
	"  owners delete deployment/web\n"
	"  owners delete deployment/web --cascade=foreground --timeout=2m\n"
	"  owners delete replicaset/web-7d9c --cascade=orphan\n"
	"  owners delete deployment/web --dry-run=client\n"
	"  owners delete deployments -l app=web -o name\n"
	"  owners delete jobs --all -n ci",
	1, "list on every type it scans; delete on the objects of the cascade; patch on the objects whose finalizers or references it changes; create on selfsubjectaccessreviews (every authenticated user has it)", 0 };
