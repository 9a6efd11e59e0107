/*
 * The session's scan (cmd/session/session_scan.c) driven without a
 * cluster: its list source is a fake that serves objects from a table and
 * says which lists it was asked for, which failed and which waited. What
 * is checked is the session's own logic: the two passes (what the GC
 * tracks, then the owner types the first pass found a reference to), the
 * second pass's report joined to the first's (its failures and its
 * waits), and a scan that could list nothing said as such.
 */
#include <string.h>

#include "fake_types.h"
#include "graph.h"
#include "list_source.h"
#include "options.h"
#include "owners_error.h"
#include "scan.h"
#include "session.h"
#include "session_scan.h"
#include "session_state.h"
#include "tap.h"

/* What the fake source holds and what it was asked. */
struct fake_source {
	struct owners_resource_table *types;
	const char *fail;   /* a type (plural) whose list is forbidden */
	const char *wait;   /* a type whose list waited out a timeout */
	int fail_all;       /* every list forbidden */
	char asked[256];    /* "plural@ns " for each list asked for, in order of the table */
};

static const struct owners_owner_ref_meta widget_owner[] = {
	{ "example.com/v1", "Widget", "w1", "u-w1", 0, 0 },
};

/* One object per type the fake holds: a ConfigMap owned by a Widget, a
 * Deployment, the Widget. */
static int hand_objects(struct owners_graph *g, const struct owners_resource *r, const char *ns)
{
	struct owners_object_meta m;

	if (ns && strcmp(ns, "shop"))
		return 0;
	memset(&m, 0, sizeof(m));
	m.namespace_ = "shop";
	m.resource_version = "1";
	m.creation_timestamp = "2026-01-01T00:00:00Z";
	if (!strcmp(r->resource, "configmaps")) {
		m.name = "cfg", m.uid = "u-cfg", m.owner_refs = widget_owner, m.n_owner_refs = 1;
	} else if (!strcmp(r->resource, "deployments")) {
		m.name = "web", m.uid = "u-web";
	} else if (!strcmp(r->resource, "widgets")) {
		m.name = "w1", m.uid = "u-w1";
	} else {
		return 0;
	}
	return owners_graph_add(g, r, &m);
}

static int fake_list(void *ctx, struct owners_graph *g, const struct owners_resource_table *types,
		     const struct owners_scan_options *o, struct owners_scan_report *report, struct owners_error *err)
{
	struct fake_source *f = ctx;
	size_t i;

	memset(report, 0, sizeof(*report));
	for (i = 0; i < types->count; i++) {
		const struct owners_resource *r = &types->items[i];
		const char *ns = r->namespaced ? o->namespace_ : NULL;

		if (!owners_scan_selects(o, r))
			continue;
		snprintf(f->asked + strlen(f->asked), sizeof(f->asked) - strlen(f->asked), "%s@%s ", r->resource,
			 ns ? ns : "*");
		if (f->fail_all || (f->fail && !strcmp(f->fail, r->resource))) {
			if (owners_scan_report_failure(report, g,
						       &(const struct owners_scan_failed){ r, ns, OWNERS_EFORBIDDEN,
											   "cannot list: forbidden",
											   NULL }))
				return owners_error_oom(err);
			continue;
		}
		if (f->wait && !strcmp(f->wait, r->resource) &&
		    owners_scan_report_wait(report, &(const struct owners_scan_wait){ r, (char *)ns, 1, 30000, 30400 }))
			return owners_error_oom(err);
		if (hand_objects(g, r, ns) || owners_graph_note_listing(g, r, ns, 0, NULL))
			return owners_error_oom(err);
		/* as the live source does: each list's resourceVersion told */
		if (o->on_listed && o->on_listed(o->on_listed_ctx, r, ns, "7"))
			return owners_error_oom(err);
		report->types_listed++;
	}
	owners_scan_report_sort(report);
	return owners_graph_link(g) ? owners_error_oom(err) : 0;
}

/* A session over the fake: the types known (discovery fresh, so that a
 * list not found is not read as a stale cache), no connection. What is
 * set here is the session's own (session_state.h); the checks ask
 * through session.h, as a command does. */
static struct session *session_over(struct owners_cli *cli, struct fake_source *f)
{
	struct session *s = session_new();

	if (!s) {
		printf("Bail out! out of memory\n");
		exit(1);
	}
	owners_cli_defaults(cli);
	s->cli = cli;
	s->types = *f->types;
	s->types_fresh = 1;
	s->lists.list = fake_list;
	s->lists.ctx = f;
	return s;
}

/* session_close() would free the table the tests share. */
static void session_done(struct session *s)
{
	memset(&s->types, 0, sizeof(s->types));
	session_close(s);
}

static void two_passes(struct owners_resource_table *types)
{
	struct fake_source f = { types, NULL, NULL, 0, "" };
	struct owners_cli cli;
	struct session *s = session_over(&cli, &f);
	const struct owners_graph *g;
	uint32_t w;

	is_int(session_scan(s, "shop"), EXIT_OK, "a scan of a namespace");
	is_str(f.asked, "configmaps@shop deployments@shop widgets@shop ",
	       "what the GC tracks first, then the Widgets a ConfigMap names as its owner (the GC does "
	       "not track them: no watch)");
	g = session_graph(s);
	w = owners_graph_find_uid(g, "u-w1");
	ok(w != OWNERS_NO_NODE && !g->nodes[w].virtual_,
	   "the owner read in the second pass is in the graph");
	is_int(session_scan_report(s)->types_listed, 3, "the report counts both passes' lists");
	session_done(s);
}

static void reports_joined(struct owners_resource_table *types)
{
	struct fake_source f = { types, "deployments", "widgets", 0, "" };
	struct owners_cli cli;
	struct session *s = session_over(&cli, &f);
	const struct owners_scan_report *report;

	is_int(session_scan(s, "shop"), EXIT_OK,
	       "a scan with one list refused and one that waited");
	report = session_scan_report(s);
	is_int(report->n_failures, 1, "the refused list is in the report");
	is_int(report->n_waits, 1,
	       "the second pass's wait is kept in the joined report (it is said at the end)");
	ok(report->n_waits && !strcmp(report->waits[0].resource->resource, "widgets") &&
		   report->waits[0].namespace_ && !strcmp(report->waits[0].namespace_, "shop"),
	   "  the Widgets' list in shop");
	session_done(s);
}

static void nothing_listed(struct owners_resource_table *types)
{
	struct fake_source f = { types, NULL, NULL, 1, "" };
	struct owners_cli cli;
	struct session *s = session_over(&cli, &f);

	is_int(session_scan(s, "shop"), EXIT_ERROR,
	       "every list refused: no view at all, an error, not a partial one");
	session_done(s);
}

/* A source that counts the lists it hands on to the one it reads. */
struct counting {
	struct owners_list_source inner;
	int lists;
};

static int counted_list(void *ctx, struct owners_graph *g,
			const struct owners_resource_table *types,
			const struct owners_scan_options *o, struct owners_scan_report *report,
			struct owners_error *err)
{
	struct counting *c = ctx;

	c->lists++;
	return owners_list_source_scan(&c->inner, g, types, o, report, err);
}

static void lists_read_through(struct owners_resource_table *types)
{
	struct fake_source f = { types, NULL, NULL, 0, "" };
	struct owners_cli cli;
	struct session *s = session_over(&cli, &f);
	struct counting c = { { NULL, NULL }, 0 };
	struct owners_list_source back;

	c.inner = session_read_lists_through(s, (struct owners_list_source){ counted_list, &c });
	ok(c.inner.list == fake_list && c.inner.ctx == &f,
	   "reading lists through a source hands back the one before");
	is_int(session_scan(s, "shop"), EXIT_OK, "a scan through it");
	is_int(c.lists, 2, "  both passes read through it");
	is_str(f.asked, "configmaps@shop deployments@shop widgets@shop ",
	       "  and it reads the session's own lists");
	back = session_read_lists_through(s, c.inner);
	ok(back.list == counted_list, "giving the source back ends it");
	session_forget_scan(s);
	ok(!session_graph(s) && !session_scan_report(s)->types_listed,
	   "a forgotten scan leaves no graph and no report");
	is_int(session_scan(s, "shop"), EXIT_OK, "a scan after it");
	is_int(c.lists, 2, "  does not read through the source given back");
	session_done(s);
}

/* What a watch is told: each list's resourceVersion as it is made. */
struct heard {
	char said[256];
};

static int hear_listed(void *ctx, const struct owners_resource *r, const char *ns, const char *rv)
{
	struct heard *h = ctx;

	snprintf(h->said + strlen(h->said), sizeof(h->said) - strlen(h->said), "%s@%s=%s ",
		 r ? r->resource : "(voided)", ns ? ns : "*", rv ? rv : "-");
	return 0;
}

static void listed_told(struct owners_resource_table *types)
{
	struct fake_source f = { types, NULL, NULL, 0, "" };
	struct owners_cli cli;
	struct session *s = session_over(&cli, &f);
	struct heard h = { "" };

	session_on_listed(s, hear_listed, &h);
	is_int(session_scan(s, "shop"), EXIT_OK, "a scan with someone told of its lists");
	is_str(h.said, "configmaps@shop=7 deployments@shop=7 widgets@shop=7 ",
	       "  each list is told, both passes', in its namespace");
	session_forget_scan(s);
	session_on_listed(s, NULL, &h);
	h.said[0] = '\0';
	is_int(session_scan(s, "shop"), EXIT_OK, "a scan after nobody asks any more");
	is_str(h.said, "", "  tells nobody");
	session_done(s);
}

static void list_into(struct owners_resource_table *types)
{
	struct fake_source f = { types, "deployments", NULL, 0, "" };
	struct owners_cli cli;
	struct session *s = session_over(&cli, &f);
	struct owners_scan_options o;
	struct owners_scan_report report;
	struct owners_graph *g = NULL;

	session_scan_options(s, &o);
	o.namespace_ = "shop";
	ok(!owners_graph_new(&g, session_types(s)), "a graph of the caller's");
	is_int(session_list_into(s, g, &o, &report), 0,
	       "a list of the session's into a graph of the caller's");
	ok(owners_graph_find_uid(g, "u-cfg") != OWNERS_NO_NODE,
	   "  the objects are in the caller's graph");
	ok(!session_graph(s), "  and the session's own scan is untouched");
	is_int(report.n_failures, 1, "  the refused list is in the caller's report");
	owners_scan_report_clear(&report);
	owners_graph_free(g);
	session_done(s);
}

static void the_time(struct owners_resource_table *types)
{
	struct fake_source f = { types, NULL, NULL, 0, "" };
	struct owners_cli cli;
	struct session *s = session_over(&cli, &f);

	s->fixed_now = 1764320000;
	s->now = 1764310000;
	is_int((int)(session_now(s) - 1764320000), 0,
	       "a live session's now is the clock's (fixed by the suites)");
	is_int((int)(session_time(s) - 1764310000), 0,
	       "its answer's time is the one fixed when it opened");
	is_int(session_is_snapshot(s), 0, "it is not a snapshot");
	ok(!session_server(s) && !session_http(s), "with no connection: no server, no client");
	session_done(s);
}

int main(void)
{
	struct owners_resource_table types;
	size_t i;

	memset(&types, 0, sizeof(types));
	fake_type_add(&types, &(struct fake_type){ "", "v1", "configmaps", "configmap", "ConfigMap", "cm", 1, 1 });
	fake_type_add(&types, &(struct fake_type){ "apps", "v1", "deployments", "deployment", "Deployment", "deploy", 1, 1 });
	fake_type_add(&types, &(struct fake_type){ "example.com", "v1", "widgets", "widget", "Widget", NULL, 1, 1 });
	/* Widgets can be listed, not watched: the GC does not track them */
	for (i = 0; i < types.count; i++)
		if (!strcmp(types.items[i].resource, "widgets"))
			types.items[i].verbs &= ~OWNERS_VERB_WATCH;
	owners_resource_table_mark_tracked(&types);
	two_passes(&types);
	reports_joined(&types);
	nothing_listed(&types);
	lists_read_through(&types);
	listed_told(&types);
	list_into(&types);
	the_time(&types);
	owners_resource_table_clear(&types);
	return tap_done();
}
