/*
 * owners why TYPE/NAME: why one object is (or is not) garbage-collected.
 * lib/ops/why.c decides, lib/ops/why_events.c reads its events,
 * lib/ops/why_render.c prints; this file parses, scans and prints.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "gc_evidence.h"
#include "dangling.h"
#include "object_args.h"
#include "output.h"
#include "session_across.h"
#include "session_connect.h"
#include "session_relations.h"
#include "session_scan.h"
#include "session_snapshot.h"
#include "session_select.h"
#include "stuck.h"
#include "stuck_fetch.h"
#include "usage.h"
#include "why.h"
#include "why_events.h"
#include "why_render.h"

/* The events of one object: a handful; a page bounds a noisy one. */
#define WHY_EVENTS_LIMIT 200

static const char *const why_outputs[] = { "text", "json", "yaml", "name", "jsonpath=", "custom-columns=", NULL };

const struct opt why_opts[] = {
	OPT_OUTPUT("text (default), json (its schema: the man page, OUTPUT), yaml",
		   "text (default), json (its schema: the man page, OUTPUT), yaml (the same "
		   "document), name (kind.group/name of the object), jsonpath=TEMPLATE or "
		   "custom-columns=SPEC (over the document)"),
	OPT_TEMPLATE_KEYS,
	OPT_END,
};

/* A scan of one namespace sees an owner in another namespace as absent;
 * the garbage collector, which sees every namespace, calls it
 * invalid-namespace. The types of the owners on the object's way up that
 * read absent are listed everywhere (one list per type), as `owners
 * dangling` does. */
static enum exit_code look_across_namespaces(struct session *s, const struct owners_why *w)
{
	uint32_t *nodes = calloc(w->n_owners + 1, sizeof(*nodes));
	size_t n = 0, i;
	enum exit_code rc;

	if (!nodes)
		return error_oom();
	nodes[n++] = w->node;
	for (i = 0; i < w->n_owners; i++)
		if (w->owners[i].dependent != nodes[n - 1])
			nodes[n++] = w->owners[i].dependent;
	rc = session_look_across_namespaces(s, nodes, n);
	free(nodes);
	if (!rc && owners_graph_link(session_graph(s)))
		rc = error_oom();
	return rc;
}

/* The object: scanned as the other commands scan (types and pages), its
 * namespace and the cluster-scoped types, every namespace when it is
 * cluster-scoped (its dependents may live anywhere: the scan's scope). */
static enum exit_code find(struct cmd_run *run, uint32_t *node)
{
	const struct session_selection how = { .missing = OWNERS_SELECTION_MISSING_FAILS };
	struct owners_selection sel = OWNERS_SELECTION_INIT;
	enum exit_code rc;

	if (!(rc = session_scan(run->s, run->scan_ns)) &&
	    !(rc = session_select(run->s, run->targets, 1, &how, &sel)))
		*node = sel.nodes[0];
	owners_selection_clear(&sel);
	return rc;
}

/* What the finalizers of an object in deletion wait for (the same facts
 * and explanation as `owners finalizers`). */
static enum exit_code explain_stuck(struct session *s, uint32_t node, struct owners_stuck_facts *facts,
			 struct owners_stuck_report *rep)
{
	struct owners_error err = OWNERS_ERROR_INIT;
	uint32_t *reach = NULL;
	size_t n_reach = 0;
	enum exit_code rc = EXIT_OK;

	if (!session_graph(s)->nodes[node].extras->deleted)
		return 0;
	if (owners_stuck_fetch_reach(&reach, &n_reach, session_graph(s), &node, 1))
		return error_oom();
	if (session_stuck_facts(s, facts, &(const struct owners_node_list){ reach, n_reach }, &err)) {
		rc = report_error(&err);
		owners_error_clear(&err);
	}
	free(reach);
	if (!rc && owners_stuck_is_stuck(session_graph(s), facts, node) &&
	    owners_stuck_explain(rep, session_graph(s), facts, node))
		rc = error_oom();
	return rc;
}

OUTPUT_RENDERERS(renderers, struct owners_why_render, owners_why);

/* What is read of the object's relations: its users, and what it uses. */
struct why_relations {
	struct owners_relations rel;
	struct owners_usage usage;
	const struct owners_node *object;
	int read; /* 0: the source does not hold them */
};

static enum exit_code read_relations(struct session *s, uint32_t node, struct why_relations *wr)
{
	wr->object = &session_graph(s)->nodes[node];
	/* a snapshot taken with --related=false: the rest of the answer stands */
	if (!(wr->read = session_has_relations(s)))
		return EXIT_OK;
	/* its own type (what it uses) and those that may use it (its users) */
	if (session_read_relations_around(s, &wr->rel, &node, 1,
					  SESSION_RELATIONS_OWN | SESSION_RELATIONS_USERS))
		return session_fail(s);
	return owners_usage_add(&wr->usage, &wr->rel, session_graph(s), node) ? error_oom()
									      : EXIT_OK;
}

static enum exit_code show(struct cmd_run *run, const struct owners_why *w,
			   const struct owners_why_events *ev, const struct gc_evidence *gc,
			   const struct why_relations *wr)
{
	struct owners_why_render render;
	enum exit_code rc;

	memset(&render, 0, sizeof(render));
	render.rel = wr->read ? &wr->rel : NULL;
	render.usage = wr->read ? &wr->usage : NULL;
	render.relations_not_recorded = !wr->read;
	render.print = run->print;
	render.g = session_graph(run->s);
	render.why = w;
	render.events = ev;
	render.gc = gc->c ? &gc->render : NULL;
	rc = output_emit(run, &renderers, &render);
	if (!rc && ev->error)
		warning_msg("%s", ev->error);
	return rc;
}

static enum exit_code validate(const struct owners_cli *cli, const void *opts,
			       const struct string_list *args)
{
	(void)opts;
	if (!args->count)
		return usage_error(
			"'%s why' explains one object: TYPE/NAME, e.g. '%s why pod/web-1'",
			cli->program, cli->program);
	if (cli->all_namespaces)
		return usage_error(
			"-A does not apply to '%s why': name the object's namespace with -n",
			cli->program);
	return EXIT_OK;
}

/* What is read about the object: the verdict, and what explains a wait. */
struct why_facts {
	struct owners_stuck_facts facts;
	struct owners_stuck_report rep;
	struct owners_why why;
	struct owners_why_events events;
	struct gc_evidence gc;
	struct why_relations relations;
};

static void why_facts_clear(struct why_facts *f)
{
	owners_why_clear(&f->why);
	owners_why_events_clear(&f->events);
	owners_stuck_report_clear(&f->rep);
	owners_stuck_facts_clear(&f->facts);
	gc_evidence_clear(&f->gc);
	owners_usage_clear(&f->relations.usage);
	owners_relations_clear(&f->relations.rel);
}

enum exit_code cmd_why(struct cmd_run *run)
{
	struct session *s = run->s;
	struct why_facts f;
	uint32_t node = OWNERS_NO_NODE;
	enum exit_code rc;

	memset(&f, 0, sizeof(f));
	session_set_related(s, 1);
	if ((rc = find(run, &node)))
		goto out;
	/* First pass: which owners read absent; then look for them elsewhere. */
	if (owners_why_explain(&f.why, session_graph(s), NULL, node)) {
		rc = error_oom();
		goto out;
	}
	rc = *session_graph(s)->nodes[node].place->namespace_ ? look_across_namespaces(s, &f.why)
						       : EXIT_OK;
	owners_why_clear(&f.why);
	if (rc || (rc = explain_stuck(s, node, &f.facts, &f.rep)) ||
	    (rc = read_relations(s, node, &f.relations)))
		goto out;
	if (session_why_events(s, &f.events, &session_graph(s)->nodes[node], WHY_EVENTS_LIMIT) ||
	    owners_why_explain(&f.why, session_graph(s), &f.rep, node)) {
		rc = error_oom();
		goto out;
	}
	/* "will be collected" rests on the GC running: what is known of it,
	 * said with the verdict, and on stderr when it appears stopped */
	if (!(rc = gc_evidence_read(&f.gc, s, OWNERS_COLLECTOR_RENDER_STALLED_AFTER)) &&
	    !(rc = show(run, &f.why, &f.events, &f.gc, &f.relations)))
		rc = gc_evidence_tell(&f.gc);
out:
	why_facts_clear(&f);
	return rc;
}

/* The man page's detail beyond --help (see struct man_section). */
static const struct man_section why_man_sections[] = {
	{"TWO ANSWERS",
		"A claim deleted while a pod still uses it:\n"
		"  $ owners why pvc/data -n shop\n"
		"  waiting: PersistentVolumeClaim/data in namespace shop: in deletion, held by finalizer kubernetes.io/pvc-protection\n"
		"    rule: in deletion: the object goes when its last finalizer is removed, each by its own controller\n"
		"  Owners: none\n"
		"  Finalizers:\n"
		"    kubernetes.io/pvc-protection: removed by the pvc-protection controller; waits for the claim to be deleted and no scheduled pod to mount it\n"
		"      now: in use by 1 pod: the pvc-protection controller removes it once no scheduled pod mounts the claim\n"
		"      Pod/db-0\n"
		"  If deleted now (--cascade=background | foreground | orphan):\n"
		"    the object itself: it has no dependents\n"
		"  Dependents: none\n"
		"  Events: none from the garbage collector\n"
		"\n"
		"A copy whose owner lives in another namespace (the GC looks for a namespaced\n"
		"owner in the dependent's namespace only, and deletes the dependent):\n"
		"  $ owners why configmap/settings-copy -n shop\n"
		"  will be collected: ConfigMap/settings-copy in namespace shop: its only owner ConfigMap/settings (v1) is invalid-namespace\n"
		"    rule: no solid owner: every owner is absent, of another UID, only in another namespace, or waiting for its dependents' deletion, so the garbage collector deletes the object (attemptToDeleteItem)\n"
		"  Owners:\n"
		"    ConfigMap/settings (v1): invalid-namespace (it is in namespace config; the garbage collector looks for it in shop only), controller\n"
		"  Finalizers: none\n"
		"  If deleted now (--cascade=background | foreground | orphan):\n"
		"    the object itself: it has no dependents\n"
		"  Dependents: none\n"
		"  Events: none from the garbage collector\n"
		"\n"
		"An owner you may not list is one the GC can see: then what it would see is\n"
		"said, not guessed. When the garbage collector appears not to be running (see\n"
		"owners-gc(1)), a dependent of a deleted owner \"will be collected\" only by a GC\n"
		"that runs, and the answer says so. A collected verdict always says what it\n"
		"rests on, the cluster's GC running, and what is known of that:\n"
		"  rests on: the cluster's garbage collector running; the controller-manager's leader lease was renewed 1s ago\n"
		"  rests on: the cluster's garbage collector running, which cannot be seen from here: the controller-manager's leader lease (kube-system/kube-controller-manager) cannot be read: forbidden"},
	{NULL, NULL},
};

/* The command: its usage, help, man page text and permissions. */
const struct command why_command = {
	.name = "why",
	.man_sections = why_man_sections,
	.fn = cmd_why,
	.validate = validate,
	.opts = why_opts,
	.outputs = why_outputs,
	.output_default = "text",
	.usage = "owners why TYPE/NAME [-n NAMESPACE] [-o text|json|yaml|name]",
	.summary = "say why an object is (or is not) garbage-collected, and what would change it",
	.description =
		"Answers, for one object, the garbage collector's question: is it kept, will\n"
		"it be collected, will it never be, is it waiting, or can the answer not be\n"
		"seen. The verdict comes first, with the GC's rule that decides it:\n"
		"  kept             an owner is live and solid (or it has no owners)\n"
		"  collected        every owner is absent, of another UID, only in another\n"
		"                   namespace, or waiting for its dependents' deletion\n"
		"  never-collected  a reference the GC cannot resolve: an apiVersion/kind that\n"
		"                   is not served, a namespaced owner of a cluster-scoped object\n"
		"  waiting          in deletion: foregroundDeletion until the blocking\n"
		"                   dependents named are gone, orphan until the dependents are\n"
		"                   released, or other finalizers\n"
		"  blind            an owner in a group whose discovery failed or a list that\n"
		"                   failed (the GC cannot see it either), or one you may not list\n"
		"  deadlock         in foreground deletion, blocked by dependents in foreground\n"
		"                   deletion that it blocks in turn: no one, the GC included,\n"
		"                   ever ends it; the members are named with the command that\n"
		"                   ends it\n"
		"Then its owners up to the roots, each with its state (live, in-deletion and\n"
		"how, absent, uid-mismatch, invalid-namespace, unresolvable, unknown) and\n"
		"whether the object blocks its foreground deletion; its finalizers, who removes\n"
		"each and what it waits for (the command that removes one no known controller\n"
		"removes, and its risk); what deleting each owner now, or the object itself,\n"
		"would do with each --cascade (the planner of 'owners delete' decides);\n"
		"its dependents by kind, the blocking ones named; who uses it (Used by: what a\n"
		"delete of it would break, each user with its field, and the types of its\n"
		"possible users that could not be read) and what it uses that is not there\n"
		"(Uses, not there: missing, or unknown when its type was not listed); and the\n"
		"events that explain the GC (OwnerRefInvalidNamespace...), from one list of\n"
		"the object's events.\n"
		"\n"
		"Requests: discovery, the same scan as the other commands (one paged list per\n"
		"type, never one per object; every namespace for a cluster-scoped object),\n"
		"one list per owner type that reads absent, across namespaces, one events list\n"
		"(fieldSelector=involvedObject.uid, in the object's namespace, or everywhere for\n"
		"a cluster-scoped object, as kubectl describe reads them), and for an object in\n"
		"deletion what 'owners finalizers' reads, and one paged list, read whole, of its\n"
		"own type and of each type that may use it (its users; owners-tree(1),\n"
		"RELATIONS). A failed events list is a warning.\n"
		"\n"
		"Exit codes: 0 a verdict was given, whichever it is (scripts read\n"
		".items[0].owners.verdict from -o json: the verdict is an answer, not a\n"
		"failure); 1 error (the object\n"
		"not found, the scan failed); 2 usage (not one TYPE/NAME, -A, unknown type).",
	.examples = "  owners why pod/web-7d9c-x2x\n"
		    "  owners why pvc/data -n shop\n"
		    "  owners why configmap/cfg -o jsonpath='{.items[0].owners.verdict}'\n"
		    "  kubectl owners why replicaset/web-7d9c",
	.args = CMD_ARGS_OBJECTS,
	.one_object = "explains",
	.one_object_example = "pod/web-1",
	.discovery = CMD_DISCOVERY_CURRENT,
	.reads_snapshot = 1,
	/* an object of a type the GC does not track is listed too */
	.resolve = CMD_RESOLVE_AND_LIST,
	.scope = OWNERS_SCOPE_ROOTS,
	.rbac = "list on every type it scans (the namespace's, and cluster-scoped types); list on "
		"events in the namespace (everywhere for a cluster-scoped object); for an object "
		"in deletion what 'owners finalizers' needs",
	.json_schema =
		"-o json prints, Kubernetes-shaped as kubectl get -o json:\n"
		"{\"apiVersion\": \"owners.dev/v1\", \"kind\": \"OwnersWhy\", \"metadata\": {},\n"
		" \"items\": [ITEM...], \"warnings\": [WARNING...]}.\n" DOC_JSON_ITEM_WARNING_REF
		"One ITEM, the object; FACTS {\"verdict\": kept | collected | never-collected |\n"
		"waiting | blind | deadlock, \"rule\", \"deadlock\": {\"members\": [REF...],\n"
		"\"command\"} (deadlock only), \"because\": OWNER | null, \"after\": REF | null,\n"
		"\"owners\": [OWNER...], \"finalizers\": [FINALIZER...], \"ifDeleted\": "
		"[CASCADE...],\n"
		"\"dependents\": {\"count\", \"kinds\": [{\"kind\", \"count\"}], \"blocking\": "
		"[REF...]},\n"
		"\"events\": [{\"type\", \"reason\", \"message\", \"source\", \"count\",\n"
		"\"lastTimestamp\"}], \"otherEvents\", \"eventsError\" (when the list failed),\n"
		"\"gcEvidence\": {\"state\": running | appears-stopped | unknown, \"reason\"},\n"
		"\"usedBy\": [RELATION...] (its live users: what a delete of it breaks),\n"
		"\"usersUnseen\": [{\"resource\", \"group\", \"namespace\", \"message\"}] (types "
		"of\n"
		"its possible users not read), \"usesMissing\": [RELATION...] (what it uses that\n"
		"is missing or unknown)}\n"
		"(what a collected verdict rests on: the cluster's GC running; see owners-gc(1)):\n"
		"  OWNER     the reference (\"apiVersion\", \"kind\", \"name\", \"uid\", "
		"\"controller\",\n"
		"            \"blockOwnerDeletion\"), \"namespace\", \"dependentUid\", \"depth\",\n"
		"            \"state\": live | in-deletion | absent | uid-mismatch |\n"
		"            invalid-namespace | unresolvable | unknown, \"deletion\":\n"
		"            foreground | orphan | background, \"solid\", \"blocks\", \"gcBlind\"\n"
		"  FINALIZER {\"name\", \"field\", \"remover\" (null: no controller known),\n"
		"            \"waitsFor\", \"reason\", \"message\", \"objects\": [REF...], "
		"\"pods\",\n"
		"            \"content\": [{\"resource\", \"group\", \"count\"}], "
		"\"contentTypesNotListed\",\n"
		"            \"conditions\" (in deletion, where they apply),\n"
		"            \"remove\" (the command), \"risk\" (no controller known)}\n"
		"  CASCADE   {\"owner\": OWNER, \"background\", \"foreground\", \"orphan\": "
		"collected |\n"
		"            released | kept} for each owner; {\"self\": true, MODE: "
		"{\"collected\",\n"
		"            \"released\", \"kept\"}} for the object's dependents\n"
		"  RELATION  {\"relation\", \"words\", \"path\", \"optional\", \"state\": found |\n"
		"            missing | unknown, \"user\": REF, \"used\": REF} (owners-tree(1),\n"
		"            RELATIONS)\n"
		"-o name prints the object (kind.group/name).",
};
