#include "session.h"
#include "session_state.h"

#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "http.h"
#include "rest_config.h"
#include "session_snapshot.h"
#include "session_warnings.h"
#include "clock.h"

int64_t session_now(const struct session *s)
{
	if (s->snap)
		return s->now;
	return s->fixed_now ? s->fixed_now : owners_clock_wall();
}

struct session *session_new(void)
{
	return calloc(1, sizeof(struct session));
}

void session_close(struct session *s)
{
	if (!s)
		return;
	session_notes_drop(s);
	owners_graph_free(s->graph);
	owners_scan_report_clear(&s->scan);
	free(s->extra.types);
	free(s->args);
	if (s->types_loaded)
		owners_resource_table_clear(&s->types);
	for (size_t i = 0; i < s->n_retired; i++)
		owners_resource_table_clear(&s->retired[i]);
	free(s->retired);
	owners_http_client_free(s->http);
	owners_rest_config_free(s->cfg);
	session_snapshot_free(s->snap);
	owners_error_clear(&s->err);
	free(s);
}

int64_t session_time(const struct session *s)
{
	return s->now;
}

struct owners_cli *session_cli(const struct session *s)
{
	return s->cli;
}

const char *session_namespace(const struct session *s)
{
	return s->namespace_;
}

const char *session_server(const struct session *s)
{
	return s->cfg ? s->cfg->server : NULL;
}

int session_is_snapshot(const struct session *s)
{
	return s->snap != NULL;
}

struct owners_http_client *session_http(const struct session *s)
{
	return s->http;
}

void session_disconnect(struct session *s)
{
	owners_http_client_free(s->http);
	s->http = NULL;
}

struct owners_error *session_error(struct session *s)
{
	return &s->err;
}

const struct owners_resource_table *session_types(const struct session *s)
{
	return &s->types;
}

struct owners_graph *session_graph(const struct session *s)
{
	return s->graph;
}

const struct owners_scan_report *session_scan_report(const struct session *s)
{
	return &s->scan;
}

void session_forget_scan(struct session *s)
{
	owners_graph_free(s->graph);
	s->graph = NULL;
	owners_scan_report_clear(&s->scan);
}

void session_set_answer_namespaced_only(struct session *s, int namespaced_only)
{
	s->answer_namespaced_only = namespaced_only;
}

int session_answer_namespaced_only(const struct session *s)
{
	return s->answer_namespaced_only;
}

void session_set_names_in_namespace(struct session *s, int names_in_namespace)
{
	s->names_in_namespace = names_in_namespace;
}

void session_on_listed(struct session *s,
		       int (*fn)(void *ctx, const struct owners_resource *r, const char *ns,
				 const char *rv),
		       void *ctx)
{
	s->on_listed = fn;
	s->on_listed_ctx = fn ? ctx : NULL;
}

struct owners_list_source session_read_lists_through(struct session *s,
						     struct owners_list_source through)
{
	struct owners_list_source until_now = s->lists;

	s->lists = through;
	return until_now;
}

int session_list_into(struct session *s, struct owners_graph *g,
		      const struct owners_scan_options *o, struct owners_scan_report *report)
{
	return owners_list_source_scan(&s->lists, g, &s->types, o, report, &s->err);
}
