#include "cascade_render.h"
#include "object_io.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "finalizer_command.h"
#include "pod_claims.h"
#include "tree.h"

static const char *plural(size_t n)
{
	return n == 1 ? "" : "s";
}

/* "ns/deployment.apps/web", or "clusterrole.rbac.authorization.k8s.io/x"
 * for a cluster-scoped object. */
static int node_path(struct owners_buf *out, const struct owners_node *n)
{
	int rc = *n->place->namespace_ ? owners_buf_addf(out, "%s/", n->place->namespace_) : 0;

	return rc ? rc : owners_graph_node_name(out, n);
}

/* ---- the plan --------------------------------------------------------------- */

/* An object already in deletion goes the way it entered it, whatever mode
 * is asked now: the plan says so, in the order that really happens. */
static int in_deletion(struct owners_buf *out, const struct owners_node *n, int root)
{
	uint32_t k;
	int rc;

	if (owners_graph_node_has_finalizer(n, OWNERS_FINALIZER_FOREGROUND))
		return owners_buf_addf(out,
				       "%sin foreground deletion already: goes last, after its "
				       "blocking dependents",
				       root ? "root, " : "");
	if (owners_graph_node_has_finalizer(n, OWNERS_FINALIZER_ORPHAN))
		return owners_buf_addf(out,
				       "%sin orphan deletion already: its dependents are released, "
				       "then it goes",
				       root ? "root, " : "");
	rc = owners_buf_addf(out, "%sin deletion already%s", root ? "root, " : "",
			     n->extras->n_finalizers ? ": goes when these finalizers are removed:"
					     : ": goes now");
	for (k = 0; !rc && k < n->extras->n_finalizers; k++)
		rc = owners_buf_addf(out, " %s", n->extras->finalizers[k]);
	return rc;
}

/* What happens to one row's object. */
static int plan_state(struct owners_buf *out, const struct owners_cascade_render *r,
		      const struct owners_tree_row *row)
{
	const struct owners_cascade_plan *p = r->plan;
	const struct owners_node *n = &r->g->nodes[row->node];

	if (p->released[row->node])
		return owners_buf_adds(
			out, owners_cascade_track_released_by_orphaning(r->g, p, row->node)
				     ? "release (orphaned, kept)"
				     : "release (kept: another owner is alive)");
	if (n->virtual_)
		return owners_buf_adds(out, "already gone");
	if (n->extras->deleted)
		return in_deletion(out, n, !row->depth);
	if (!row->depth)
		return owners_buf_adds(
			out, r->mode == OWNERS_CASCADE_FOREGROUND ? "delete first, goes last (root)"
			     : p->orphaning[row->node] ? "delete (root; its dependents are kept)"
						       : "delete (root)");
	if (p->orphaning[row->node])
		return owners_buf_adds(out, "delete (it carries the orphan finalizer: its "
					    "dependents are kept)");
	return owners_buf_adds(out, "delete (every owner is deleted)");
}

/* "until ns/pod/db-0 is gone (in this cascade)", or "while ns/pod/x
 * HOLDS": the object of the core group's kind (its type word as the plan
 * prints it) named name in ns, which holds up another. */
/* kind: a core kind ("Pod"), written as kubectl names its type (pod). */
static int holder(struct owners_buf *out, const struct owners_cascade_render *r, const char *kind,
		  const struct owners_object_key *who, const char *holds)
{
	const struct owners_resource *res = owners_resource_by_gvk(r->g->types, "v1", kind);
	uint32_t node = OWNERS_NO_NODE;
	char word[64];
	size_t i;
	int in = 0;

	for (i = 0; kind[i] && i + 1 < sizeof(word); i++)
		word[i] = (char)tolower((unsigned char)kind[i]);
	word[i] = '\0';
	if (res && !owners_graph_find_name(r->g, res, who->ns, who->name, &node) && node != OWNERS_NO_NODE)
		in = r->plan->member[node];
	return owners_buf_addf(out, " %s %s%s%s/%s %s", in ? "until" : "while", who->ns, *who->ns ? "/" : "",
			       word, who->name, in ? "is gone (in this cascade)" : holds);
}

/* "; then waits on F" for the first wait of a row, "; F" for the next. */
static int wait_on(struct owners_buf *out, size_t *said, const char *fin)
{
	return owners_buf_addf(out, "%s%s", (*said)++ ? "; " : "; then waits on ", fin);
}

/* A claim's pvc-protection: removed at once unless a scheduled pod uses
 * the claim (the controller's podUsesPVCForDeletion). */
static int claim_wait(struct owners_buf *out, const struct owners_cascade_render *r,
		      const struct owners_node *n, const char *fin, size_t *said)
{
	const struct owners_stuck_pods *pods =
		r->facts ? owners_stuck_facts_pods(r->facts, n->place->namespace_) : NULL;
	size_t users = 0, i;
	int rc = 0;

	if (!pods || pods->error) {
		rc = wait_on(out, said, fin);
		if (!rc)
			rc = owners_buf_adds(out, " while a pod uses it");
		if (!rc && pods)
			rc = owners_buf_addf(out, " (the pods could not be read: %s)", pods->error);
		return rc;
	}
	for (i = 0; !rc && i < pods->pods.count; i++) {
		const struct owners_pod_claim_use *u = &pods->pods.pods[i];

		if (!owners_pod_holds_claim(u, n->name))
			continue;
		rc = users++ ? owners_buf_adds(out, ",") : wait_on(out, said, fin);
		if (!rc)
			rc = holder(out, r, "Pod", &(const struct owners_object_key){ NULL, n->place->namespace_, u->pod },
				    "uses it (not in this cascade)");
	}
	return rc;
}

/* A volume's pv-protection: removed at once unless a claim is bound to
 * it. */
static int volume_wait(struct owners_buf *out, const struct owners_cascade_render *r,
		       uint32_t node, const char *fin, size_t *said)
{
	const struct owners_stuck_volume *v =
		r->facts ? owners_stuck_facts_volume(r->facts, node) : NULL;
	int rc = 0;

	if (!v || v->error) {
		rc = wait_on(out, said, fin);
		if (!rc)
			rc = owners_buf_adds(out, " while a claim is bound to it");
		if (!rc && v)
			rc = owners_buf_addf(out, " (the volume could not be read: %s)", v->error);
		return rc;
	}
	if (!v->claim_name || !*v->claim_name || !v->phase || strcmp(v->phase, "Bound"))
		return 0;
	rc = wait_on(out, said, fin);
	return rc ? rc
		  : holder(out, r, "PersistentVolumeClaim",
			   &(const struct owners_object_key){ NULL, v->claim_namespace ? v->claim_namespace : "",
							      v->claim_name },
			   "is bound to it (not in this cascade)");
}

/* What one member not yet in deletion will wait on once it is deleted:
 * "; then waits on ..." (nothing when it goes at once). */
static int plan_waits(struct owners_buf *out, const struct owners_cascade_render *r, uint32_t node)
{
	const struct owners_node *n = &r->g->nodes[node];
	size_t said = 0, k;
	int rc = 0;

	for (k = 0; !rc && k < n->extras->n_finalizers; k++) {
		const char *fin = n->extras->finalizers[k];

		if (!strcmp(fin, OWNERS_FINALIZER_FOREGROUND) || !strcmp(fin, OWNERS_FINALIZER_ORPHAN))
			continue; /* the cascade's own */
		if (!strcmp(fin, OWNERS_FINALIZER_PVC) && owners_stuck_is_pvc(n))
			rc = claim_wait(out, r, n, fin, &said);
		else if (!strcmp(fin, OWNERS_FINALIZER_PV) && owners_stuck_is_pv(n))
			rc = volume_wait(out, r, node, fin, &said);
		else if (!(rc = wait_on(out, &said, fin)))
			rc = owners_buf_adds(out, " (its controller removes it)");
	}
	return rc;
}

/* The plan's objects in tree order: the tree below the roots still there. */
static int plan_tree(struct owners_tree *tree, const struct owners_cascade_render *r)
{
	uint32_t *roots;
	size_t i, n = 0;
	int rc;

	roots = calloc(r->n_roots + 1, sizeof(*roots));
	if (!roots)
		return OWNERS_ENOMEM;
	for (i = 0; i < r->n_roots; i++) {
		uint32_t node = owners_graph_find_uid(r->g, r->roots[i]);

		if (node != OWNERS_NO_NODE)
			roots[n++] = node;
	}
	rc = owners_tree_build(tree, r->g, roots, n, 0, -1);
	free(roots);
	return rc;
}

int owners_cascade_render_plan(struct owners_buf *out, const struct owners_cascade_render *r)
{
	const struct owners_cascade_plan *p = r->plan;
	struct owners_tree tree;
	size_t i;
	int rc = plan_tree(&tree, r);

	if (rc)
		return rc;
	rc = owners_buf_addf(out, "%s cascade (dry run, nothing changed):\n",
			     owners_cascade_mode_name(r->mode));
	for (i = 0; !rc && i < tree.count; i++) {
		const struct owners_tree_row *row = &tree.rows[i];

		if (row->cycle || (!p->member[row->node] && !p->released[row->node]))
			continue;
		rc = owners_buf_addf(out, "%*s", (int)row->depth * 2, "");
		if (!rc)
			rc = node_path(out, &r->g->nodes[row->node]);
		if (!rc)
			rc = owners_buf_adds(out, "  ");
		if (!rc)
			rc = plan_state(out, r, row);
		if (!rc && p->member[row->node] && !r->g->nodes[row->node].virtual_ &&
		    !r->g->nodes[row->node].extras->deleted)
			rc = plan_waits(out, r, row->node);
		if (!rc)
			rc = owners_buf_addc(out, '\n');
	}
	owners_tree_clear(&tree);
	return rc;
}

int owners_cascade_render_plan_names(struct owners_buf *out, const struct owners_cascade_render *r)
{
	const struct owners_cascade_plan *p = r->plan;
	struct owners_tree tree;
	unsigned char *said = calloc(r->g->count + 1, 1);
	size_t i;
	int rc = said ? plan_tree(&tree, r) : OWNERS_ENOMEM;

	if (rc) {
		free(said);
		return rc;
	}
	for (i = 0; !rc && i < tree.count; i++) {
		uint32_t node = tree.rows[i].node;

		if (said[node] || !p->member[node] || r->g->nodes[node].virtual_)
			continue;
		said[node] = 1;
		rc = owners_graph_node_name(out, &r->g->nodes[node]);
		if (!rc)
			rc = owners_buf_addc(out, '\n');
	}
	owners_tree_clear(&tree);
	free(said);
	return rc;
}

/* ---- while it runs ---------------------------------------------------------- */

int owners_cascade_render_progress(struct owners_buf *out, const struct owners_cascade_render *r,
				   long elapsed, size_t deleted, size_t acting, size_t columns)
{
	const struct owners_cascade_plan *p = r->plan;
	size_t start = out->len;
	int rc;

	rc = elapsed < 0 ? owners_buf_addf(out, "%s cascade: ", owners_cascade_mode_name(r->mode))
			 : owners_buf_addf(out, "%s cascade %lds: ", owners_cascade_mode_name(r->mode), elapsed);
	if (!rc)
		rc = owners_buf_addf(out, "%zu deleted, %zu left", deleted,
				     p->members_left + p->released_left);
	if (!rc && acting)
		rc = owners_buf_addf(out, ", %zu acting", acting);
	if (!rc && p->n_waits && r->g && p->waits[0].node < r->g->count) {
		const struct owners_node *n = &r->g->nodes[p->waits[0].node];
		uint32_t k;

		rc = owners_buf_addf(out, "; waiting on %s/%s", n->place->kind, n->name);
		/* In deletion, its finalizers are what it waits for. */
		for (k = 0; !rc && n->extras->deleted && k < n->extras->n_finalizers; k++)
			rc = owners_buf_addf(out, "%s%s",
					     k ? ", " : " (finalizers: ", n->extras->finalizers[k]);
		if (!rc)
			rc = n->extras->deleted && n->extras->n_finalizers
				     ? owners_buf_addc(out, ')')
				     : owners_buf_addf(out, " (%s)", p->waits[0].why);
		if (!rc && p->n_waits > 1)
			rc = owners_buf_addf(out, " and %zu more", p->n_waits - 1);
	}
	if (!rc && columns >= 4 && out->len - start >= columns) {
		/* cut at a character boundary, with room for the ellipsis */
		size_t at = columns - 4;

		while (at && ((unsigned char)out->ptr[start + at] & 0xC0) == 0x80)
			at--;
		owners_buf_truncate(out, start + at);
		rc = owners_buf_adds(out, "...");
	}
	return rc;
}

int owners_cascade_render_event(struct owners_buf *out, enum owners_cascade_track_event e,
				const char *type, const char *name, const char *ns, int names_only)
{
	static const char *const words[] = {
		[OWNERS_EVENT_DELETED] = "deleted",
		[OWNERS_EVENT_DELETED_AFTER_RELEASE] = "deleted (after release)",
		[OWNERS_EVENT_ORPHANED] = "orphaned (kept, reference removed)",
		[OWNERS_EVENT_RELEASED] = "released (kept: it has another owner)",
		[OWNERS_EVENT_DRY_RUN_DELETED] = "deleted (server dry run)",
		[OWNERS_EVENT_DRY_RUN_RELEASED] = "released (server dry run)",
	};
	/* -o name lists what goes, as kubectl's does (server dry run included) */
	int deleted = e == OWNERS_EVENT_DELETED || e == OWNERS_EVENT_DELETED_AFTER_RELEASE ||
		      e == OWNERS_EVENT_DRY_RUN_DELETED;

	if (names_only)
		return deleted ? owners_buf_addf(out, "%s/%s\n", type, name) : 0;
	return owners_buf_addf(out, "%s \"%s\" %s%s%s\n", type, name, words[e],
			       *ns ? " in namespace " : "", ns);
}

/* ---- how it ended ----------------------------------------------------------- */

int owners_cascade_render_finalizer_known(const char *f)
{
	static const char *const known[] = {
		OWNERS_FINALIZER_FOREGROUND, OWNERS_FINALIZER_ORPHAN,
		"kubernetes.io/pvc-protection", "kubernetes.io/pv-protection",
	};
	size_t i;

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(f, known[i]))
			return 1;
	return 0;
}

/* 'owners finalizers remove TYPE/NAME [-n NS] --finalizer F --uid=UID',
 * spelled with the program the user runs. */
static int remove_command(struct owners_buf *out, const char *program, const struct owners_node *n,
			  const char *f)
{
	struct owners_command_line cmd = OWNERS_COMMAND_LINE_INIT;
	int rc = owners_finalizer_command_of(&cmd, n, f);

	rc = rc ? rc : owners_command_line_spell(out, program, &cmd);
	owners_command_line_clear(&cmd);
	return rc;
}

int owners_cascade_render_left(struct owners_buf *out, const struct owners_cascade_render *r)
{
	const struct owners_cascade_plan *p = r->plan;
	size_t i;
	int rc = 0;

	for (i = 0; !rc && i < p->n_waits; i++) {
		const struct owners_node *n = &r->g->nodes[p->waits[i].node];
		uint32_t k;

		rc = owners_buf_adds(out, "  ");
		if (!rc)
			rc = node_path(out, n);
		if (!rc)
			rc = owners_buf_addf(out, ": %s", p->waits[i].why);
		if (!rc && n->extras->deleted && n->extras->n_finalizers) {
			rc = owners_buf_adds(out, " (finalizers:");
			for (k = 0; !rc && k < n->extras->n_finalizers; k++)
				rc = owners_buf_addf(out, " %s", n->extras->finalizers[k]);
			if (!rc)
				rc = owners_buf_addc(out, ')');
		}
		if (!rc)
			rc = owners_buf_addc(out, '\n');
		/* A finalizer nothing of the cascade removes waits for its own
		 * controller: if that is gone, only a person ends the wait. */
		for (k = 0; !rc && n->extras->deleted && k < n->extras->n_finalizers; k++)
			if (!owners_cascade_render_finalizer_known(n->extras->finalizers[k])) {
				rc = owners_buf_addf(out,
						     "    %s is removed by its own controller; if that "
						     "is gone: ",
						     n->extras->finalizers[k]);
				if (!rc)
					rc = remove_command(out, r->program, n, n->extras->finalizers[k]);
				if (!rc)
					rc = owners_buf_addc(out, '\n');
			}
	}
	for (i = 0; !rc && i < p->n_actions; i++) {
		rc = owners_buf_adds(out, "  ");
		if (!rc)
			rc = node_path(out, &r->g->nodes[p->actions[i].node]);
		if (!rc)
			rc = owners_buf_addf(out, ": %s next\n",
					     owners_action_name(p->actions[i].kind));
	}
	return rc;
}

/* The members of the cascade below node that still exist, each once
 * (seen: g->count bytes, zeroed by the caller). */
static size_t members_below(const struct owners_cascade_render *r, uint32_t node, unsigned char *seen)
{
	const struct owners_node *n = &r->g->nodes[node];
	size_t count = 0;
	uint32_t k;

	for (k = 0; k < n->n_dependents; k++) {
		uint32_t d = owners_graph_dependents(r->g, n)[k];

		if (seen[d] || !r->plan->member[d])
			continue;
		seen[d] = 1;
		count += !r->g->nodes[d].virtual_ + members_below(r, d, seen);
	}
	return count;
}

/* Where one root stands, a line (nothing when it is gone and nothing
 * names it any more). */
static int root_state(struct owners_buf *out, const struct owners_cascade_render *r, uint32_t root)
{
	const struct owners_node *n = &r->g->nodes[root];
	unsigned char *seen = calloc(r->g->count + 1, 1);
	size_t waiting, left = 0;
	uint32_t k;
	int rc;

	if (!seen)
		return OWNERS_ENOMEM;
	seen[root] = 1;
	waiting = members_below(r, root, seen);
	free(seen);
	for (k = 0; k < n->n_dependents; k++)
		if (!r->g->nodes[owners_graph_dependents(r->g, n)[k]].virtual_)
			left++;
	if (n->virtual_ && !left)
		return 0;
	rc = owners_graph_node_name(out, n);
	if (rc)
		return rc;
	if (n->virtual_)
		return owners_buf_addf(out, " is gone; %zu object%s still name%s it as owner\n", left,
				       plural(left), left == 1 ? "s" : "");
	if (owners_graph_node_has_finalizer(n, OWNERS_FINALIZER_FOREGROUND))
		return owners_buf_addf(out, " is in foreground deletion, waiting for %zu dependent%s\n",
				       waiting, plural(waiting));
	if (n->extras->deleted) {
		rc = owners_buf_adds(out, " is in deletion");
		for (k = 0; !rc && k < n->extras->n_finalizers; k++)
			rc = owners_buf_addf(out, "%s%s", k ? " " : ", held by finalizers: ",
					     n->extras->finalizers[k]);
		return rc ? rc : owners_buf_addc(out, '\n');
	}
	return owners_buf_adds(out, " is not deleted yet\n");
}

int owners_cascade_render_interrupted(struct owners_buf *out, const struct owners_cascade_render *r,
				      size_t deleted, size_t released, const char *command)
{
	const struct owners_cascade_plan *p = r->plan;
	size_t left = p->members_left + p->released_left, i;
	int rc;

	rc = owners_buf_addf(out,
			     "interrupted: %zu object%s deleted and %zu released so far; %zu object%s of "
			     "the cascade %s left%s\n",
			     deleted, plural(deleted), released, left, plural(left),
			     left == 1 ? "is" : "are", left ? ":" : "");
	if (!rc && left)
		rc = owners_cascade_render_left(out, r);
	for (i = 0; !rc && i < r->n_roots; i++) {
		uint32_t root = owners_graph_find_uid(r->g, r->roots[i]);

		if (root != OWNERS_NO_NODE)
			rc = root_state(out, r, root);
	}
	if (!rc)
		rc = owners_buf_addf(out,
				     "the cascade's progress is kept in the cluster: run this to finish "
				     "it:\n  %s\n",
				     command);
	return rc;
}

/* The plan's waits were read before the round acted, so they are not
 * listed: 'owners tree' shows the state now. */
int owners_cascade_render_not_waiting(struct owners_buf *out, const struct owners_cascade_plan *p,
				      size_t done, const char *command, const char *program)
{
	size_t sent = p->n_actions, all = p->members_left + p->released_left;
	size_t left = all > done ? all - done : 0;
	int rc = owners_buf_addf(out, "not waiting (--wait=false): %zu change%s sent; %zu other object%s "
				 "of the cascade %s still there (", sent, plural(sent), left,
				 plural(left), left == 1 ? "is" : "are");

	/* the command with the roots' UIDs: run once someone else finished
	 * the cascade, it says already done */
	if (!rc)
		rc = command ? owners_buf_addf(out, "'%s' goes on", command)
			     : owners_buf_adds(out, "run the command again to go on");
	rc = rc ? rc : owners_buf_adds(out, ", or '");
	rc = rc ? rc : owners_buf_adds(out, program ? program : OWNERS_PROGRAM);
	return rc ? rc : owners_buf_adds(out, " tree' to see where it stands)\n");
}

int owners_cascade_render_dry_run_checked(struct owners_buf *out, size_t n_roots, size_t checked,
					  size_t refused)
{
	return owners_buf_addf(
		out,
		"server dry run: the root%s and %zu dependent%s checked, %zu refused; "
		"nothing was changed\n",
		plural(n_roots), checked, plural(checked), refused);
}
