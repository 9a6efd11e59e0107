/*
 * The command layer: one setup for every command, from its row, and one
 * printer (see run.h).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "clock.h"
#include "run.h"
#include "session_connect.h"
#include "session_discover.h"
#include "session_select.h"
#include "session_warnings.h"
#include "timeutil.h"

/* The arguments as objects, as the row reads them; a mistake is a usage
 * error, before any request. */
static enum exit_code read_objects(struct cmd_run *run)
{
	const struct command *c = run->command;
	struct owners_error err = OWNERS_ERROR_INIT;
	enum owners_type_alone type_alone = OWNERS_TYPE_ALONE_REFUSED;
	int rc;

	if (c->args != CMD_ARGS_OBJECTS && !(c->args == CMD_ARGS_OBJECTS_OPTIONAL && run->words->count))
		return EXIT_OK;
	if (c->type_alone == CMD_TYPE_ALONE_YES ||
	    (c->type_alone == CMD_TYPE_ALONE_SELECTED && (run->cli->selector || run->setup.select_all)))
		type_alone = OWNERS_TYPE_ALONE_ALLOWED;
	else if (c->type_alone == CMD_TYPE_ALONE_SELECTED)
		type_alone = OWNERS_TYPE_ALONE_WITH_SELECTOR;
	if (owners_object_args_parse(&run->objs, &run->n_objs, run->words->items, run->words->count,
				     type_alone, &err)) {
		rc = report_error(&err);
		owners_error_clear(&err);
		return rc == EXIT_ERROR ? EXIT_USAGE : (enum exit_code)rc;
	}
	if (c->one_object && run->n_objs != 1)
		return usage_error("'%s %s' %s one object: TYPE/NAME, e.g. '%s %s %s'",
				   run->cli->program, c->name, c->one_object, run->cli->program,
				   c->name, c->one_object_example);
	return EXIT_OK;
}

/* The session with the discovery the row asks for, the arguments' types
 * resolved before anything is read (a mistake changes nothing), and the
 * scan's scope from them. */
static enum exit_code open_session(struct cmd_run *run)
{
	const struct command *c = run->command;
	struct owners_scope_request req;
	enum exit_code rc;

	if (c->discovery == CMD_DISCOVERY_NONE)
		return EXIT_OK;
	if (!(run->s = session_new()))
		return error_oom();
	if ((rc = session_open(run->s, run->cli)) ||
	    (c->discovery == CMD_DISCOVERY_CURRENT && (rc = session_require_current_types(run->s))))
		return rc;
	run->print.now = session_time(run->s);
	session_set_names_in_namespace(run->s, c->scope == OWNERS_SCOPE_ROOTS);
	if (c->resolve != CMD_RESOLVE_NO &&
	    ((rc = session_expand_categories(run->s, &run->objs, &run->n_objs)) ||
	     (rc = session_resolve_args(run->s, run->objs, run->n_objs,
					c->resolve == CMD_RESOLVE_AND_LIST, &run->targets))))
		return rc;
	memset(&req, 0, sizeof(req));
	req.rule = c->scope;
	req.all_namespaces = run->cli->all_namespaces;
	req.upward = run->setup.upward;
	req.namespaces_apart = c->namespaces_apart;
	req.roots = run->targets;
	req.n_roots = run->targets ? run->n_objs : 0;
	owners_scan_scope_decide(&run->scope, &req);
	session_set_answer_namespaced_only(run->s, run->scope.answer_namespaced_only);
	run->scan_ns = run->scope.everywhere ? NULL : session_namespace(run->s);
	return EXIT_OK;
}

/* --from on a command that changes the cluster: refused before anything
 * is read, since a snapshot is never changed and acting on what one says
 * would act on a past. */
static enum exit_code refuse_snapshot(const struct cmd_run *run)
{
	const struct command *c = run->command;
	const char *what = c->changes ? c->changes(run->opts) : NULL;

	int64_t t;

	if (run->cli->from_time && !run->cli->from)
		return usage_error("--from-time is the time of a --from answer: give --from FILE|DIR too");
	if (run->cli->from_time && owners_time_parse_rfc3339(&t, run->cli->from_time))
		return usage_error("invalid value '%s' for --from-time: want an RFC 3339 time, e.g. "
				   "2026-11-28T10:00:00Z", run->cli->from_time);
	if (!run->cli->from || (c->reads_snapshot && !what))
		return EXIT_OK;
	if (!what)
		what = "changes the cluster";
	return usage_error(
		"%s %s%s%s %s: --from reads a snapshot, which nothing changes; run it against "
		"the cluster",
		run->cli->program, c->parent ? c->parent->name : c->name, c->parent ? " " : "",
		c->parent ? c->name : "", what);
}

/* The print flags every renderer shares, read once. */
static enum exit_code read_print_options(struct cmd_run *run)
{
	const struct owners_cli *cli = run->cli;

	run->print.now = owners_clock_wall(); /* the session's, once it opens */
	run->print.color = run->cli->use_color;
	run->print.program = run->cli->program;
	run->print.wide = cli->output.kind == OUTPUT_WIDE;
	run->print.names = cli->output.kind == OUTPUT_NAME;
	run->print.no_headers = cli->table.no_headers;
	run->print.show_labels = cli->table.show_labels;
	if (owners_cli_label_keys(cli, &run->label_storage, &run->label_keys, &run->print.n_label_keys))
		return error_oom();
	run->print.label_keys = run->label_keys;
	return EXIT_OK;
}

enum exit_code cmd_run_command(const struct command *c, struct owners_cli *cli, const void *opts,
			       const struct string_list *words)
{
	struct cmd_run run;
	enum exit_code rc;

	memset(&run, 0, sizeof(run));
	run.command = c;
	run.cli = cli;
	run.opts = opts;
	run.words = words;
	if (c->setup)
		c->setup(opts, &run.setup);
	if (!(rc = refuse_snapshot(&run)) && !(rc = read_print_options(&run)) && !(rc = read_objects(&run)) &&
	    !(rc = open_session(&run)))
		rc = c->fn(&run);
	session_close(run.s); /* it borrowed the objects' typed names */
	owners_object_args_free(run.objs, run.n_objs);
	free(run.label_keys);
	free(run.label_storage);
	return rc;
}

enum exit_code output_write(const struct output_format *f, int no_headers, const struct output_renderers *r,
			    void *ctx, const struct owners_scan_warning *warnings, size_t n_warnings)
{
	struct owners_buf out = OWNERS_BUF_INIT;
	enum exit_code rc;
	int render_rc = output_is_document(f) ? r->document(&out, ctx, warnings, n_warnings) : r->text(&out, ctx);

	if (render_rc)
		rc = error_render(render_rc);
	else if (f->kind == OUTPUT_JSONPATH || f->kind == OUTPUT_CUSTOM_COLUMNS)
		rc = output_template(&out, f, r->nested, no_headers);
	else
		rc = output_document(&out, f->kind == OUTPUT_YAML);
	owners_buf_clear(&out);
	return rc;
}

enum exit_code output_emit(struct cmd_run *run, const struct output_renderers *r, void *ctx)
{
	const struct output_format *f = &run->cli->output;
	struct owners_scan_warning_list listed = { NULL, 0, 0 };
	char **warnings = NULL;
	size_t n_warnings = 0, i;
	enum exit_code rc;
	int render_rc = 0;

	/* text counts what a user may not list, a document names every type */
	if (run->command->discovery != CMD_DISCOVERY_NONE)
		render_rc = session_warnings(run->s, run->extra_reports, run->n_extra_reports,
					     &warnings, &n_warnings);
	if (!render_rc && run->command->discovery != CMD_DISCOVERY_NONE && output_is_document(f))
		render_rc = session_warnings_list(run->s, run->extra_reports, run->n_extra_reports,
						  &listed);
	if (render_rc)
		rc = error_render(render_rc);
	else
		rc = output_write(f, run->cli->table.no_headers, r, ctx, listed.items, listed.n);
	/* said once: a command that said them as they arose does not repeat them */
	for (i = 0; !rc && !run->warnings_said && i < n_warnings; i++)
		warning_msg("%s", warnings[i]);
	session_warnings_free(warnings, n_warnings);
	owners_scan_warnings_list_free(&listed);
	return rc;
}
