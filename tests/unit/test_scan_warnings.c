/* The scan's warnings, as every command words them
 * (lib/graph/scan_warnings.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "owners_error.h"
#include "fake_objects.h"
#include "fake_types.h"
#include "scan_warnings.h"
#include "strv.h"
#include "tap.h"

static struct owners_resource_table types;

static const struct owners_resource *type_named(const char *plural)
{
	size_t i;

	for (i = 0; i < types.count; i++)
		if (!strcmp(types.items[i].resource, plural))
			return &types.items[i];
	return NULL;
}

static void fail(struct owners_scan_report *rep, const char *plural, int code, const char *message)
{
	struct owners_scan_failure *f;

	rep->failures = realloc(rep->failures, (rep->n_failures + 1) * sizeof(*rep->failures));
	f = &rep->failures[rep->n_failures++];
	memset(f, 0, sizeof(*f));
	f->resource = type_named(plural);
	f->code = code;
	f->message = owners_strdup(message);
}

static const char *api_of(const char *kind)
{
	return strcmp(kind, "ClusterRole") ? "v1" : "rbac.authorization.k8s.io/v1";
}

static void test_each_kind(void)
{
	struct owners_scan_report scan, more;
	struct owners_scan_warnings_input in;
	char *notes[] = { "a note of the command's" };
	char **lines = NULL;
	size_t n = 0;

	memset(&scan, 0, sizeof(scan));
	memset(&more, 0, sizeof(more));
	fail(&scan, "secrets", OWNERS_EFORBIDDEN, "cannot list 'secrets': forbidden");
	fail(&scan, "configmaps", OWNERS_EIO, "cannot list 'configmaps': connection reset");
	fail(&more, "clusterroles", OWNERS_EFORBIDDEN, "cannot list 'clusterroles.rbac.authorization.k8s.io': forbidden");
	memset(&in, 0, sizeof(in));
	in.types = &types;
	in.scan = &scan;
	in.more = &more;
	in.n_more = 1;
	in.notes = notes;
	in.n_notes = 1;
	ok(owners_scan_warnings(&lines, &n, &in) == 0, "worded");
	is_int((long)n, 4, "a failed group, a failed list, the forbidden line, the note");
	is_str(n > 0 ? lines[0] : "", "discovery of 'metrics.k8s.io/v1beta1' failed: stale (its types are unknown)",
	       "the failed discovery group first");
	is_str(n > 1 ? lines[1] : "", "cannot list 'configmaps': connection reset (ownership through it is unknown)",
	       "a failure that is not a refusal on a line of its own");
	is_str(n > 2 ? lines[2] : "",
	       "cannot list 2 types (ownership through them is unknown): forbidden: clusterroles.rbac.authorization.k8s.io, secrets",
	       "the forbidden types of every report on one line, sorted");
	is_str(n > 3 ? lines[3] : "", "a note of the command's", "the command's notes last");
	owners_strv_free(lines, n);

	/* one forbidden type alone: in the server's words */
	in.n_more = 0;
	in.n_notes = 0;
	in.types = NULL;
	ok(owners_scan_warnings(&lines, &n, &in) == 0 && n == 2, "two lines");
	is_str(n > 1 ? lines[1] : "", "cannot list 'secrets': forbidden (ownership through it is unknown)",
	       "a single forbidden type is said as the server said it");
	owners_strv_free(lines, n);
	owners_scan_report_clear(&scan);
	owners_scan_report_clear(&more);
}

/* Past eight, a count; -v=1 names them all. */
static void test_many_forbidden(void)
{
	static const char *const plurals[] = { "secrets", "configmaps", "pods", "services", "events",
					       "endpoints", "serviceaccounts", "limitranges", "resourcequotas",
					       "podtemplates" };
	struct owners_scan_report scan;
	struct owners_scan_warnings_input in;
	char **lines = NULL;
	size_t n = 0, i;

	memset(&scan, 0, sizeof(scan));
	for (i = 0; i < 10; i++)
		fail(&scan, plurals[i], OWNERS_EFORBIDDEN, "forbidden");
	memset(&in, 0, sizeof(in));
	in.scan = &scan;
	ok(owners_scan_warnings(&lines, &n, &in) == 0 && n == 1, "one line for ten forbidden types");
	ok(n && strstr(lines[0], "cannot list 10 types") && strstr(lines[0], " and 2 more (-v=1 names them all)"),
	   "eight named, the rest counted: %s", n ? lines[0] : "");
	owners_strv_free(lines, n);
	in.name_all = 1;
	ok(owners_scan_warnings(&lines, &n, &in) == 0 && n == 1 && !strstr(lines[0], "more"),
	   "-v=1: every one named");
	ok(n && strstr(lines[0], "podtemplates") && strstr(lines[0], "services"), "including the last in order");
	owners_strv_free(lines, n);
	owners_scan_report_clear(&scan);
}

/* An answer of namespaced objects: a cluster-scoped type no object names
 * as an owner cannot hold part of it, and is counted apart. */
static void test_cannot_hold_the_answer(void)
{
	const struct fake_obj objs[] = {
		{ "ConfigMap", "c0", "u0", NULL, { NULL }, { { 0 } } },
	};
	struct owners_graph *g = fake_graph_build(&types, objs, 1, api_of, NULL);
	struct owners_scan_report scan;
	struct owners_scan_warnings_input in;
	char **lines = NULL;
	size_t n = 0;

	memset(&scan, 0, sizeof(scan));
	fail(&scan, "secrets", OWNERS_EFORBIDDEN, "cannot list 'secrets': forbidden");
	fail(&scan, "clusterroles", OWNERS_EFORBIDDEN, "cannot list 'clusterroles': forbidden");
	memset(&in, 0, sizeof(in));
	in.scan = &scan;
	in.g = g;
	in.answer_namespaced_only = 1;
	ok(owners_scan_warnings(&lines, &n, &in) == 0, "worded");
	is_int((long)n, 2, "the one that matters, then the count of the rest");
	is_str(n > 0 ? lines[0] : "", "cannot list 'secrets': forbidden (ownership through it is unknown)",
	       "a namespaced type can hold part of the answer");
	is_str(n > 1 ? lines[1] : "", "1 more type forbidden to you cannot hold part of the answer (-v=1 names it)",
	       "a cluster-scoped one cannot, and is counted");
	owners_strv_free(lines, n);
	in.answer_namespaced_only = 0;
	ok(owners_scan_warnings(&lines, &n, &in) == 0 && n == 1 && strstr(lines[0], "cannot list 2 types"),
	   "an answer that may hold cluster-scoped objects: both matter");
	owners_strv_free(lines, n);
	owners_scan_report_clear(&scan);
	owners_graph_free(g);
}

/* The structured form documents carry: every type named, each with why
 * it went unseen, never counted. */
static void test_structured(void)
{
	static const char *const plurals[] = { "secrets", "configmaps", "pods", "services", "events",
					       "endpoints", "serviceaccounts", "limitranges", "resourcequotas",
					       "podtemplates" };
	const struct fake_obj objs[] = {
		{ "ConfigMap", "c0", "u0", NULL, { NULL }, { { 0 } } },
	};
	struct owners_graph *g = fake_graph_build(&types, objs, 1, api_of, NULL);
	struct owners_scan_report scan, more;
	struct owners_scan_warnings_input in;
	struct owners_scan_warning_list l;
	char *notes[] = { "a note of the command's" };
	size_t i, forbidden = 0, sorted = 1;

	memset(&scan, 0, sizeof(scan));
	memset(&more, 0, sizeof(more));
	for (i = 0; i < 10; i++)
		fail(&scan, plurals[i], OWNERS_EFORBIDDEN, "cannot list: forbidden");
	fail(&scan, "clusterroles", OWNERS_EFORBIDDEN, "cannot list 'clusterroles': forbidden");
	fail(&more, "secrets", OWNERS_EFORBIDDEN, "cannot list 'secrets' in namespace 'x': forbidden");
	fail(&more, "configmaps", OWNERS_EIO, "cannot list 'configmaps': connection reset");
	memset(&in, 0, sizeof(in));
	in.types = &types;
	in.scan = &scan;
	in.more = &more;
	in.n_more = 1;
	in.g = g;
	in.answer_namespaced_only = 1;
	in.notes = notes;
	in.n_notes = 1;
	ok(owners_scan_warnings_list(&l, &in) == 0, "listed");
	is_int((long)l.n, 1 + 1 + 11 + 1, "a failed group, a failed list, eleven forbidden types (one twice), a note");
	ok(l.n > 0 && l.items[0].reason == OWNERS_SCAN_WARNING_DISCOVERY_FAILED && !strcmp(l.items[0].group, "metrics.k8s.io") &&
		   !strcmp(l.items[0].version, "v1beta1") && !l.items[0].resource,
	   "discovery: its group and version");
	ok(l.n > 1 && l.items[1].reason == OWNERS_SCAN_WARNING_LIST_FAILED && !strcmp(l.items[1].resource, "configmaps") &&
		   strstr(l.items[1].message, "connection reset"),
	   "a failed list: its type and the server's words");
	for (i = 2; i < l.n && l.items[i].reason == OWNERS_SCAN_WARNING_FORBIDDEN; i++) {
		forbidden++;
		if (i > 2 && l.items[i - 1].can_hold_answer == l.items[i].can_hold_answer &&
		    strcmp(l.items[i - 1].resource, l.items[i].resource) >= 0)
			sorted = 0;
	}
	is_int((long)forbidden, 11, "every forbidden type named, none counted, none twice (-v=1 not needed)");
	ok(sorted, "sorted by name within each part");
	ok(l.n > 12 && l.items[2].can_hold_answer && !l.items[12].can_hold_answer &&
		   !strcmp(l.items[12].resource, "clusterroles") && !strcmp(l.items[12].group, "rbac.authorization.k8s.io"),
	   "those that can hold part of the answer first; a cluster-scoped one last, with its group");
	ok(l.n > 13 && l.items[13].reason == OWNERS_SCAN_WARNING_NOTE && !l.items[13].resource &&
		   !strcmp(l.items[13].message, "a note of the command's"),
	   "the command's notes last");
	is_str(owners_scan_warning_reason_name(OWNERS_SCAN_WARNING_FORBIDDEN), "Forbidden", "reason names");
	is_str(owners_scan_warning_reason_name(OWNERS_SCAN_WARNING_DISCOVERY_FAILED), "DiscoveryFailed", "...");
	is_str(owners_scan_warning_reason_name(OWNERS_SCAN_WARNING_LIST_FAILED), "ListFailed", "...");
	owners_scan_warnings_list_free(&l);
	ok(l.n == 0 && !l.items, "freed and emptied");
	owners_scan_warnings_list_free(&l);
	owners_scan_report_clear(&scan);
	owners_scan_report_clear(&more);
	owners_graph_free(g);
}

/* A list that waited out a timeout: a line, after the failures and
 * before the notes, and in the structured form a Note of the same words;
 * each report's (a second pass's too). */
static void test_waits(void)
{
	struct owners_scan_report scan, more;
	struct owners_scan_warning_list l;
	struct owners_scan_warnings_input in;
	char *note = "a note";
	char **lines = NULL;
	size_t n = 0;

	memset(&scan, 0, sizeof(scan));
	memset(&more, 0, sizeof(more));
	memset(&in, 0, sizeof(in));
	owners_scan_report_wait(&scan, &(const struct owners_scan_wait){ type_named("configmaps"), "shop", 1, 30000,
									 30400 });
	owners_scan_report_wait(&more, &(const struct owners_scan_wait){ type_named("pods"), NULL, 2, 4000, 4100 });
	in.scan = &scan;
	in.more = &more;
	in.n_more = 1;
	in.notes = &note;
	in.n_notes = 1;
	ok(owners_scan_warnings(&lines, &n, &in) == 0 && n == 3, "one line per wait, then the note");
	is_str(n > 0 ? lines[0] : NULL,
	       "listing 'configmaps' in namespace 'shop' waited out a timeout: 1 request went unanswered for 30.0 s "
	       "and was sent again; the list took 30.4 s",
	       "  the first pass's wait, in its namespace");
	is_str(n > 1 ? lines[1] : NULL,
	       "listing 'pods' waited out a timeout: 2 requests went unanswered for 4.0 s and were sent again; "
	       "the list took 4.1 s",
	       "  the second pass's, across namespaces");
	ok(owners_scan_warnings_list(&l, &in) == 0 && l.n == 3, "the structured form: the same three");
	ok(l.n == 3 && n == 3 && l.items[0].reason == OWNERS_SCAN_WARNING_NOTE && !strcmp(l.items[0].message, lines[0]) &&
		   !strcmp(l.items[1].message, lines[1]) && !strcmp(l.items[2].message, "a note"),
	   "  each wait a Note of the line's words, the command's note last");
	owners_strv_free(lines, n);
	owners_scan_warnings_list_free(&l);
	owners_scan_report_clear(&scan);
	owners_scan_report_clear(&more);
}

int main(void)
{
	fake_type_add(&types,
		      &(struct fake_type){ "", "v1", "configmaps", "configmap", "ConfigMap", "cm",
					   1, 1 });
	fake_type_add(&types,
		      &(struct fake_type){ "", "v1", "secrets", "secret", "Secret", NULL, 1, 1 });
	fake_type_add(&types, &(struct fake_type){ "", "v1", "pods", "pod", "Pod", "po", 1, 1 });
	fake_type_add(&types,
		      &(struct fake_type){ "", "v1", "services", "service", "Service", "svc", 1,
					   1 });
	fake_type_add(&types,
		      &(struct fake_type){ "", "v1", "events", "event", "Event", "ev", 1, 1 });
	fake_type_add(&types,
		      &(struct fake_type){ "", "v1", "endpoints", "endpoints", "Endpoints", "ep", 1,
					   1 });
	fake_type_add(&types,
		      &(struct fake_type){ "", "v1", "serviceaccounts", "serviceaccount",
					   "ServiceAccount", "sa", 1, 1 });
	fake_type_add(&types,
		      &(struct fake_type){ "", "v1", "limitranges", "limitrange", "LimitRange",
					   "limits", 1, 1 });
	fake_type_add(&types,
		      &(struct fake_type){ "", "v1", "resourcequotas", "resourcequota",
					   "ResourceQuota", "quota", 1, 1 });
	fake_type_add(&types,
		      &(struct fake_type){ "", "v1", "podtemplates", "podtemplate", "PodTemplate",
					   NULL, 1, 1 });
	fake_type_add(&types,
		      &(struct fake_type){ "rbac.authorization.k8s.io", "v1", "clusterroles",
					   "clusterrole", "ClusterRole", NULL, 0, 1 });
	owners_strv_push(&types.failed_groups, &types.n_failed, &types.cap_failed_groups,
			 owners_strdup("metrics.k8s.io/v1beta1"));
	types.n_failed = 0;
	owners_strv_push(&types.failed_reasons, &types.n_failed, &types.cap_failed_reasons, owners_strdup("stale"));
	test_each_kind();
	test_many_forbidden();
	test_cannot_hold_the_answer();
	test_structured();
	test_waits();
	owners_resource_table_clear(&types);
	return tap_done();
}
