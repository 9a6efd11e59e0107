/*
 * owners finalizers remove: takes finalizers off objects in deletion
 * safely (lib/ops/finalizer_remove.c), after releasing the dependents of
 * one that holds `orphan` (lib/ops/orphan_release.c), and reports the end
 * state of each.
 *
 * Test-only: OWNERS_TEST_PAUSE_BEFORE_PATCH=SECONDS makes it sleep after
 * reading each object and before its first write, announcing it on stderr,
 * so an end-to-end test can change the object in that window and prove the
 * write does not overwrite the change. It is not a user interface.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_path.h"
#include "commands.h"
#include "finalizer_remove.h"
#include "finalizer_remove_render.h"
#include "namespace_content.h"
#include "object_args.h"
#include "object_io.h"
#include "orphan_release.h"
#include "output.h"
#include "session_scan.h"
#include "session_select.h"
#include "session_warnings.h"
#include "test_hooks.h"

/* owners finalizers remove's own flags */
struct remove_options {
	struct string_list finalizers; /* --finalizer */
	int all_finalizers;
	/* removes what a check would refuse: from an object not in deletion,
	 * a namespace with content, an orphan release not every type of
	 * which could be listed */
	int force;
	int all_objects;        /* --all: refused, naming --all-finalizers */
	/* API groups acknowledged as holding none of the dependents an
	 * orphan release looks for (their discovery failed) */
	struct string_list no_dependents_in;
	/* --uid: the objects a printed remedy was for (gone or re-created:
	 * already done) */
	struct string_list uids;
	enum owners_dry_run dry_run;
};

static void pause_before_write(void *ctx, const struct owners_finalizer_remove_target *t)
{
	test_hook_pause(*(const double *)ctx, t->resource->kind, t->namespace_, t->name);
}

/* What is still in a namespace, before its `kubernetes` finalizer goes:
 * a scan of its namespaced types, counted by lib/graph/namespace_content.c. */
static int namespace_content(struct session *s, struct owners_finalizer_remove_target *t,
			     struct owners_buf *summary, struct owners_buf *why)
{
	struct owners_scan_options o;
	struct owners_scan_report report;
	struct owners_namespace_content content;
	struct owners_graph *g = NULL;
	int rc;

	session_scan_options(s, &o);
	memset(&report, 0, sizeof(report));
	memset(&content, 0, sizeof(content));
	o.namespace_ = t->name;
	if (owners_graph_new(&g, session_types(s)))
		return OWNERS_ENOMEM;
	rc = session_list_into(s, g, &o, &report);
	if (rc == OWNERS_ENOMEM)
		goto out;
	if (rc) {
		rc = owners_buf_adds(why, owners_error_message(session_error(s)));
		owners_error_clear(session_error(s));
		t->content_error = why->ptr;
		goto out;
	}
	rc = owners_namespace_content_count(&content, g, t->name);
	if (!rc)
		rc = owners_namespace_content_summary(summary, &content);
	if (rc)
		goto out;
	t->content_objects = (long)content.objects;
	t->content_summary = summary->ptr;
	if (!content.objects && report.n_failures) {
		/* Nothing seen, but not everything could be looked at. */
		rc = owners_buf_adds(why, report.failures[0].message);
		t->content_error = why->ptr;
	}
out:
	owners_namespace_content_clear(&content);
	owners_scan_report_clear(&report);
	owners_graph_free(g);
	return rc == OWNERS_ENOMEM ? rc : 0;
}

static int is_namespace_type(const struct owners_resource *r)
{
	return !*r->group && !strcmp(r->resource, "namespaces");
}

static int asks_for(const struct remove_options *o, const char *name)
{
	size_t i;

	if (o->all_finalizers)
		return 1;
	for (i = 0; i < o->finalizers.count; i++)
		if (!strcmp(o->finalizers.items[i], name))
			return 1;
	return 0;
}

/* Whether `orphan` is asked for and the object, read now, is in deletion
 * and holds it: then its dependents must be released before it goes.
 * *uid is the UID read (the caller frees it). A failed read says no: the
 * removal reads the object again and reports why. */
static int holds_orphan_in_deletion(struct session *s, const struct remove_options *o,
				    const struct owners_finalizer_remove_target *t, char **uid)
{
	struct owners_json_value *doc = NULL;
	const struct owners_json_value *fins;
	size_t i;
	int holds = 0;

	*uid = NULL;
	if (!asks_for(o, "orphan") ||
	    owners_object_get(&doc, session_http(s),
			      &(const struct owners_object_get_request){
				      .key = { t->resource, t->namespace_, t->name } },
			      session_error(s))) {
		owners_error_clear(session_error(s));
		return 0;
	}
	fins = owners_json_path(doc, "metadata", "finalizers", NULL);
	for (i = 0; *owners_object_io_meta_string(doc, "deletionTimestamp") && fins &&
		    fins->type == OWNERS_JSON_ARRAY && i < fins->count;
	     i++) {
		const char *f = owners_json_string(fins->items[i]);

		holds |= f && !strcmp(f, "orphan");
	}
	if (holds && !(*uid = owners_strdup(owners_object_io_meta_string(doc, "uid"))))
		holds = -1;
	owners_json_value_free(doc);
	return holds;
}

/* Whether the user acknowledged group_version's group ("metrics.k8s.io/
 * v1beta1") as holding none of the dependents (--no-dependents-in). */
static int acknowledged(const struct remove_options *o, const char *group_version)
{
	const struct string_list *l = &o->no_dependents_in;
	const char *slash = strchr(group_version, '/');
	size_t i, len = slash ? (size_t)(slash - group_version) : strlen(group_version);

	for (i = 0; i < l->count; i++)
		if (strlen(l->items[i]) == len && !strncmp(l->items[i], group_version, len))
			return 1;
	return 0;
}

/* Appends the first reason the scan may have missed a dependent (a failed
 * discovery group not acknowledged, a failed list) to why; nothing when
 * there is none. *group: that group, when it is one. */
static int scan_blind_spot(const struct session *s, const struct remove_options *o, struct owners_buf *why,
			   const char **group)
{
	size_t i;

	*group = NULL;
	for (i = 0; i < session_types(s)->n_failed; i++) {
		if (acknowledged(o, session_types(s)->failed_groups[i]))
			continue;
		*group = session_types(s)->failed_groups[i];
		return owners_buf_addf(why, "discovery of '%s' failed: %s",
				       session_types(s)->failed_groups[i],
				       session_types(s)->failed_reasons[i]);
	}
	if (session_scan_report(s)->n_failures)
		return owners_buf_adds(why, session_scan_report(s)->failures[0].message);
	return 0;
}

/* Before `orphan` goes from an object in deletion, its dependents are
 * released, as the GC's orphanDependents does; or the removal is refused
 * (targets[i].orphan_blocked, why in blocked[i]). One scan serves every
 * target: the namespace and cluster-scoped types, or every namespace when
 * a cluster-scoped object's dependents are looked for. */
static enum exit_code release_orphans(struct session *s, const struct remove_options *o,
				      struct owners_finalizer_remove_target *targets, size_t n,
				      struct owners_orphan_release *releases, struct owners_buf *blocked)
{
	char **uids = calloc(n ? n : 1, sizeof(*uids));
	struct owners_buf blind = OWNERS_BUF_INIT;
	const char *group = NULL;
	size_t i, needed = 0;
	int all_namespaces = 0, rc = 0, holds;

	if (!uids)
		return error_oom();
	for (i = 0; i < n; i++) {
		if ((holds = holds_orphan_in_deletion(s, o, &targets[i], &uids[i])) < 0) {
			rc = error_oom();
			goto out;
		}
		needed += holds;
		if (holds && !targets[i].resource->namespaced)
			all_namespaces = 1;
	}
	if (!needed)
		goto out;
	if ((rc = session_scan(s, all_namespaces ? NULL : session_namespace(s))))
		goto out;
	if (scan_blind_spot(s, o, &blind, &group)) {
		rc = error_oom();
		goto out;
	}
	if (blind.len && o->force)
		session_warn_scan(s);
	for (i = 0; i < session_types(s)->n_failed; i++)
		if (acknowledged(o, session_types(s)->failed_groups[i]))
			warning_msg(
				"dependents in '%s' were not looked for (--no-dependents-in): %s",
				session_types(s)->failed_groups[i],
				session_types(s)->failed_reasons[i]);
	for (i = 0; i < n; i++) {
		const struct owners_finalizer_remove_target *t = &targets[i];
		uint32_t node;

		if (!uids[i])
			continue;
		if (owners_graph_find_name(session_graph(s), t->resource,
					   t->namespace_ ? t->namespace_ : "", t->name, &node)) {
			rc = error_oom();
			goto out;
		}
		if (node == OWNERS_NO_NODE ||
		    strcmp(OWNERS_NODE_UID(&session_graph(s)->nodes[node]), uids[i]))
			rc = owners_buf_adds(&blocked[i], "it changed while its dependents were looked "
					     "up (run again); nothing was changed");
		else if (blind.len && !o->force && group)
			rc = owners_buf_addf(&blocked[i], "not every dependent could be looked for (%s); "
					     "nothing was changed (if that group holds none of its dependents, "
					     "--no-dependents-in=%.*s releases the ones found and takes the "
					     "finalizer off, as the garbage collector would)", blind.ptr,
					     (int)strcspn(group, "/"), group);
		else if (blind.len && !o->force)
			rc = owners_buf_addf(&blocked[i], "not every dependent could be looked for (%s); "
					     "nothing was changed (--force releases the ones found and "
					     "removes it anyway)", blind.ptr);
		else if (owners_orphan_release(
				 &releases[i], session_http(s), session_graph(s), node,
				 &(const struct owners_orphan_release_options){ o->dry_run, 0 },
				 session_error(s)))
			rc = OWNERS_ENOMEM;
		else if (releases[i].failed)
			rc = owners_buf_addf(&blocked[i], "%zu of its dependents could not be released "
					     "(the others were; run again once they can be)",
					     releases[i].failed);
		else
			snprintf(targets[i].orphan_released_uid,
				 sizeof(targets[i].orphan_released_uid), "%s",
				 OWNERS_NODE_UID(&session_graph(s)->nodes[node]));
		if (rc) {
			rc = error_oom();
			goto out;
		}
		if (blocked[i].len)
			targets[i].orphan_blocked = blocked[i].ptr;
	}
out:
	for (i = 0; i < n; i++)
		free(uids[i]);
	free(uids);
	owners_buf_clear(&blind);
	return rc;
}

/* One slot per object named: what is asked, what happened, and the
 * texts the outcome points into. */
struct removal {
	struct owners_finalizer_remove_target *targets;
	struct owners_finalizer_remove_outcome *outcomes;
	struct owners_orphan_release *releases;
	struct owners_buf *summaries, *whys, *blocked;
	size_t cap, n;
};

static int removal_alloc(struct removal *rm, size_t cap)
{
	size_t i;

	memset(rm, 0, sizeof(*rm));
	rm->targets = calloc(cap, sizeof(*rm->targets));
	rm->outcomes = calloc(cap, sizeof(*rm->outcomes));
	rm->releases = calloc(cap, sizeof(*rm->releases));
	rm->summaries = calloc(cap, sizeof(*rm->summaries));
	rm->whys = calloc(cap, sizeof(*rm->whys));
	rm->blocked = calloc(cap, sizeof(*rm->blocked));
	if (!rm->targets || !rm->outcomes || !rm->releases || !rm->summaries || !rm->whys ||
	    !rm->blocked)
		return OWNERS_ENOMEM;
	rm->cap = cap;
	for (i = 0; i < cap; i++) {
		owners_buf_init(&rm->summaries[i]);
		owners_buf_init(&rm->whys[i]);
		owners_buf_init(&rm->blocked[i]);
	}
	return 0;
}

static void removal_clear(struct removal *rm)
{
	size_t i;

	for (i = 0; i < rm->cap; i++) {
		owners_finalizer_remove_outcome_clear(&rm->outcomes[i]);
		owners_orphan_release_clear(&rm->releases[i]);
		owners_buf_clear(&rm->summaries[i]);
		owners_buf_clear(&rm->whys[i]);
		owners_buf_clear(&rm->blocked[i]);
	}
	free(rm->targets);
	free(rm->outcomes);
	free(rm->releases);
	free(rm->summaries);
	free(rm->whys);
	free(rm->blocked);
	memset(rm, 0, sizeof(*rm));
}

static const char *const remove_outputs[] = { "text", "json", "yaml", NULL };

#define OPT_STRUCT struct remove_options
const struct opt finalizers_remove_opts[] = {
	OPT_LIST("finalizer", 0, finalizers, "NAME", "the finalizer to take off (repeatable)",
		 "the finalizer to take off (repeatable); a namespace's 'kubernetes' goes through "
		 "its finalize subresource"),
	OPT_BOOL("all-finalizers", 0, all_finalizers, "take every finalizer off",
		 "take every finalizer off (metadata.finalizers, and a namespace's "
		 "spec.finalizers)"),
	/* kubectl's --all means every object: refused in words that name the
	 * flag that means every finalizer */
	OPT_REFUSED_BOOL("all", all_objects, NULL, "refused: see --all-finalizers"),
	OPT_LIST("no-dependents-in", 0, no_dependents_in, "GROUP",
		 "orphan: the API group (e.g. metrics.k8s.io), whose discovery failed,...",
		 "orphan: the API group (e.g. metrics.k8s.io), whose discovery failed, holds none "
		 "of "
		 "the object's dependents: release the ones found and take the finalizer off, as "
		 "the "
		 "garbage collector does with a group it cannot see (repeatable)"),
	OPT_BOOL("force", 0, force,
		 "also from an object that is not being deleted, from a namespace that...",
		 "also from an object that is not being deleted, from a namespace that still has "
		 "content, or (orphan) when not every type could be listed to release its "
		 "dependents (disables what the finalizers protect)"),
	OPT_LIST("uid", 0, uids, "UID,...",
		 "only the object with this UID, as owners prints the command that ends a...",
		 "only the object with this UID, as owners prints the command that ends a wait: "
		 "one gone or re-created under its name (another UID) is already done (said, exit "
		 "0, nothing touched), and so is a finalizer asked for that it no longer has"),
	OPT_DRY_RUN(
		"only show what would change: client",
		"only show what would change: client (and --dry-run alone, kubectl's deprecated "
		"spelling) reads and decides and sends no write; server sends each write with "
		"dryRun=All, so the server checks it and stores nothing; none (default): change"),
	OPT_OUTPUT(
		"text (default), json",
		"text (default), json (its schema: the man page of owners finalizers, OUTPUT) or "
		"yaml (the same document)"),
	OPT_END,
};
#undef OPT_STRUCT

/* What can be refused before anything is read. */
static enum exit_code validate_remove(const struct owners_cli *cli, const void *opts,
				      const struct string_list *args)
{
	const struct remove_options *o = opts;
	size_t i;

	if (o->all_objects)
		return usage_error("--all means every object in kubectl; to take every finalizer off "
				   "use --all-finalizers");
	if (!args->count)
		return usage_error("'%s finalizers remove' needs the objects: TYPE/NAME...",
				   cli->program);
	if (!o->all_finalizers && !o->finalizers.count)
		return usage_error("say which finalizers to remove: --finalizer NAME (repeatable) "
				   "or --all-finalizers");
	if (o->all_finalizers && o->finalizers.count)
		return usage_error("--all-finalizers and --finalizer exclude each other");
	for (i = 0; i < o->finalizers.count; i++)
		if (!*o->finalizers.items[i])
			return usage_error("--finalizer needs a name");
	if (cli->all_namespaces)
		return usage_error(
			"'%s finalizers remove' works on named objects: use -n NAMESPACE, not -A",
			cli->program);
	return EXIT_OK;
}

/* Every TYPE first: a mistake in the command line changes nothing. An
 * object named twice is done once (the second time it would be gone). */
static enum exit_code take_targets(struct cmd_run *run, struct removal *rm)
{
	const struct remove_options *o = run->opts;
	struct owners_selection_target *targets = NULL;
	size_t n = 0, i;
	enum exit_code rc;

	rc = session_targets(run->s, run->targets, run->n_objs, &targets, &n);
	for (i = 0; !rc && i < n; i++) {
		struct owners_finalizer_remove_target *t = &rm->targets[rm->n++];

		t->resource = targets[i].type;
		t->namespace_ = *targets[i].namespace_ ? targets[i].namespace_ : NULL;
		t->name = targets[i].name;
		t->content_objects = -1;
		t->uids = (const char *const *)o->uids.items;
		t->n_uids = o->uids.count;
	}
	owners_selection_targets_free(targets);
	return rc;
}

static enum exit_code remove_all(struct session *s, const struct remove_options *o, struct removal *rm,
		      const struct owners_finalizer_remove_options *uo)
{
	struct owners_error err = OWNERS_ERROR_INIT;
	size_t i;
	enum exit_code rc;

	if ((rc = release_orphans(s, o, rm->targets, rm->n, rm->releases, rm->blocked)))
		return rc;
	for (i = 0; i < rm->n; i++) {
		if (is_namespace_type(rm->targets[i].resource) && asks_for(o, "kubernetes") &&
		    !o->force &&
		    namespace_content(s, &rm->targets[i], &rm->summaries[i], &rm->whys[i]))
			return error_oom();
		if (owners_finalizer_remove(&rm->outcomes[i], session_http(s), &rm->targets[i], uo,
					    &err)) {
			rc = report_error(&err);
			owners_error_clear(&err);
			return rc;
		}
	}
	return EXIT_OK;
}

/* Says what went wrong on stderr; the exit code of the whole run. A
 * failure before any write is an error, after one it is incomplete. */
static enum exit_code tell_failures(const struct removal *rm)
{
	int errors = 0, incomplete = 0;
	size_t i;

	for (i = 0; i < rm->n; i++) {
		const struct owners_finalizer_remove_outcome *o = &rm->outcomes[i];

		switch (o->result) {
		case OWNERS_FINALIZER_REMOVE_NOT_FOUND:
		case OWNERS_FINALIZER_REMOVE_REFUSED:
			errors++;
			error_msg("%s", o->message ? o->message : "refused");
			break;
		case OWNERS_FINALIZER_REMOVE_FAILED:
			if (o->writes)
				incomplete++;
			else
				errors++;
			error_msg("%s", o->message ? o->message : "failed");
			break;
		case OWNERS_FINALIZER_REMOVE_LEFT:
			incomplete++;
			error_msg("%s", o->message ? o->message : "a finalizer came back");
			break;
		default:
			break;
		}
	}
	return errors ? EXIT_ERROR : incomplete ? EXIT_INCOMPLETE : EXIT_OK;
}

static int render_json(struct owners_buf *out, void *ctx, const struct owners_scan_warning *warnings,
		       size_t n_warnings)
{
	struct owners_finalizer_remove_render *render = ctx;

	/* said on stderr as they arose; the document carries them too */
	render->warnings = warnings;
	render->n_warnings = n_warnings;
	return owners_finalizer_remove_render_json(out, render);
}

static int render_text(struct owners_buf *out, void *ctx)
{
	return owners_finalizer_remove_render_text(out, ctx);
}

enum exit_code cmd_finalizers_remove(struct cmd_run *run)
{
	static const struct output_renderers renderers = { render_json, render_text, NULL };
	const struct remove_options *o = run->opts;
	struct owners_finalizer_remove_options uo;
	struct owners_finalizer_remove_render render;
	struct removal rm;
	double pause;
	enum exit_code rc, failures;

	memset(&uo, 0, sizeof(uo));
	uo.finalizers = o->finalizers.items;
	uo.n_finalizers = o->finalizers.count;
	uo.all = o->all_finalizers;
	uo.force = o->force;
	uo.dry_run = o->dry_run;
	uo.program = run->cli->program;
	if ((rc = test_hook_pause_before_patch(&pause)))
		return rc;
	if (pause > 0) {
		uo.before_write = pause_before_write;
		uo.ctx = &pause;
	}
	if (removal_alloc(&rm, run->n_objs))
		rc = error_oom();
	else if (!(rc = take_targets(run, &rm)) && !(rc = remove_all(run->s, o, &rm, &uo))) {
		failures = tell_failures(&rm);
		render = (struct owners_finalizer_remove_render){ .targets = rm.targets,
								  .outcomes = rm.outcomes,
								  .releases = rm.releases,
								  .n = rm.n,
								  .g = session_graph(run->s),
								  .dry_run = o->dry_run !=
									     OWNERS_DRY_RUN_NONE };
		run->warnings_said = 1;
		if (!(rc = output_emit(run, &renderers, &render)))
			rc = failures;
	}
	removal_clear(&rm);
	return rc;
}

const struct command finalizers_remove_command = {
	.name = "remove",
	.fn = cmd_finalizers_remove,
	.validate = validate_remove,
	CMD_OPTIONS(finalizers_remove_opts, struct remove_options, NULL),
	.outputs = remove_outputs,
	.output_default = "text",
	.usage = "owners finalizers remove TYPE/NAME... (--finalizer NAME... | --all-finalizers) [flags]",
	.summary = "take finalizers off objects in deletion, safely",
	.description = "Takes the finalizers named (or every one) off each object, with a patch\n"
		"conditional on the object's resourceVersion, after the checks 'owners finalizers'\n"
		"explains: an object not being deleted, a namespace with content left, and\n"
		"orphan dependents not yet released are refused unless --force. The dependents\n"
		"of an object held by 'orphan' are released first, as the garbage collector\n"
		"would. Says the end state of each object.",
	.examples = "  owners finalizers remove pod/held --finalizer example.com/hold\n"
		"  owners finalizers remove namespace/stuck --finalizer kubernetes --dry-run=server\n"
		"  owners finalizers remove -n ci configmap/lock --all-finalizers",
	.args = CMD_ARGS_OBJECTS,
	.discovery = CMD_DISCOVERY_CURRENT,
	.resolve = CMD_RESOLVE_TYPES,
	.scope = OWNERS_SCOPE_NAMESPACE, /* none is made up front: see release_orphans() */
	.rbac = "get and patch on the objects (update on namespaces/finalize for a namespace; to "
		"remove orphan, list on every type and patch on its dependents)",
	.json_schema = NULL,
	.parent = &finalizers_command,
};
