/*
 * owners snapshot: what a read command sees, written to a file as the
 * scan streams (lib/snapshot/snapshot_write.h), for --from and owners diff.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "buf.h"
#include "clock.h"
#include "commands.h"
#include "relations.h"
#include "output.h"
#include "server_version.h"
#include "session_scan.h"
#include "session_warnings.h"
#include "snapshot_record.h"
#include "snapshot_write.h"
#include "status_fetch.h"
#include "stuck.h"
#include "object_io.h"
#include "api_path.h"

struct snapshot_options {
	const char *file; /* -f */
	enum owners_snapshot_format format; /* --format; 0: by the file's name */
	int related; /* what each object uses, for --related and unused (--related=false: not) */
};

/* A snapshot answers as live, relations included, unless told not to. */
static const struct snapshot_options snapshot_defaults = { .related = 1 };

static const char *const format_values[] = { "binary", "json", NULL };
static const int format_enums[] = { OWNERS_SNAPSHOT_FORMAT_FRAMES, OWNERS_SNAPSHOT_FORMAT_JSON };

#define OPT_STRUCT struct snapshot_options
static const struct opt snapshot_opts[] = {
	OPT_STRING_COMPLETE(
		"filename", 'f', file, "FILE", COMPLETE_FILE, "where to write the snapshot",
		"where to write the snapshot (- for stdout; a name ending in .gz is compressed)"),
	OPT_ENUM("format", 0, format, enum owners_snapshot_format, "FORMAT", format_values,
		 format_enums, "binary (the smallest, and fastest to read) or json",
		 "binary (the smallest, and fastest to read) or json (JSON documents, for jq); "
		 "default: json for a name ending in .json or .json.gz, else binary"),
	OPT_BOOL(
		"related", 0, related, "record what each object uses (default true)",
		"record what each object uses (default true: one list more per type that holds "
		"relations, read whole; only the edges are kept), so that tree --related, why's "
		"users, dangling --related and unused answer --from it as they do live; "
		"--related=false leaves them out (those then say the snapshot does not hold them)"),
	OPT_SELECTOR(NULL,
		     "only objects with these labels (the snapshot then answers only for them)"),
	OPT_END,
};
#undef OPT_STRUCT

static enum exit_code validate(const struct owners_cli *cli, const void *opts, const struct string_list *args)
{
	const struct snapshot_options *o = opts;

	(void)cli;
	if (args->count)
		return usage_error(
			"'%s snapshot' takes no arguments (use -n NAMESPACE or -A, and -f FILE)",
			cli->program);
	if (!o->file)
		return usage_error("'%s snapshot' needs -f FILE (- for stdout)", cli->program);
	return EXIT_OK;
}

/* The scan's lists as it makes them: each object written as it is read
 * (the scan's tap), each list's outcome as it ends; the graph is built as
 * for any read command (the statuses and facts are read from it after). */
struct tee {
	struct owners_list_source live;
	struct owners_snapshot_writer *w;
	const char *selector;
	const struct owners_scan_options *o; /* the scan's own, while it runs */
	struct owners_scan_report *report;   /* the scan's, while it runs */
	struct owners_error *err;
};

/* A list's wait for an unanswered request, kept beside its outcome. */
static void with_wait(struct owners_snapshot_listed *l, const struct owners_scan_report *report)
{
	const struct owners_scan_wait *w = owners_scan_report_find_wait(report, l->type, l->namespace_);

	if (w) {
		l->unanswered = w->unanswered;
		l->waited_ms = w->waited_ms;
		l->took_ms = w->took_ms;
	}
}

static int tee_object(void *ctx, const struct owners_resource *r, const struct owners_object_meta *m)
{
	struct tee *t = ctx;

	return owners_snapshot_write_object(t->w, r, m, t->err) ? t->err->code : 0;
}

static int tee_listed(void *ctx, const struct owners_resource *r, const char *ns, const char *rv)
{
	struct tee *t = ctx;
	struct owners_snapshot_listed l = { r, ns, rv, 0, NULL, NULL, 0, 0, 0 };

	with_wait(&l, t->report);
	if (owners_snapshot_write_listed(t->w, &l, t->err))
		return t->err->code;
	return t->o->on_listed ? t->o->on_listed(t->o->on_listed_ctx, r, ns, rv) : 0;
}

static int tee_list(void *ctx, struct owners_graph *g, const struct owners_resource_table *types,
		    const struct owners_scan_options *o, struct owners_scan_report *report, struct owners_error *err)
{
	struct tee *t = ctx;
	struct owners_scan_options mine = *o;
	size_t i;
	int rc;

	t->o = o;
	t->report = report;
	t->err = err;
	mine.tap = tee_object;
	mine.tap_ctx = t;
	mine.on_listed = tee_listed;
	mine.on_listed_ctx = t;
	mine.keep_labels = 1; /* a snapshot answers -l and label columns later */
	if (t->selector && !mine.label_selector)
		mine.label_selector = t->selector;
	rc = owners_list_source_scan(&t->live, g, types, &mine, report, err);
	for (i = 0; !rc && i < report->n_failures; i++) {
		const struct owners_scan_failure *f = &report->failures[i];
		struct owners_snapshot_listed l = { f->resource, NULL, "", f->code, f->message, f->detail, 0, 0, 0 };

		l.namespace_ = f->resource->namespaced ? o->namespace_ : NULL;
		with_wait(&l, report);
		rc = owners_snapshot_write_listed(t->w, &l, err);
	}
	return rc;
}

/* Every namespace is read at once unless the snapshot is of one. */
static int run_all_namespaces(const struct session *s)
{
	return session_cli(s)->all_namespaces;
}

/* READY/STATUS of every object that has one, as tree would read them. */
static int write_statuses(struct session *s, struct owners_snapshot_writer *w, struct owners_error *err)
{
	struct owners_graph *g = session_graph(s);
	struct owners_status_fetch_options so = { session_cli(s)->chunk_size, 1,
						  run_all_namespaces(s), session_json_only() };
	struct owners_object_status *st = calloc(g->count + 1, sizeof(*st));
	uint32_t *nodes = calloc(g->count + 1, sizeof(*nodes));
	struct owners_error ferr = OWNERS_ERROR_INIT;
	size_t n = 0, i;
	int rc = 0;

	if (!st || !nodes) {
		free(st);
		free(nodes);
		return owners_error_oom(err);
	}
	for (i = 0; i < g->count; i++)
		if (!g->nodes[i].virtual_ && g->nodes[i].place->resource && g->nodes[i].place->resource->has_status)
			nodes[n++] = (uint32_t)i;
	owners_status_fetch(st, g, &(const struct owners_node_list){ nodes, n }, session_http(s),
			    &so, &ferr);
	owners_error_clear(&ferr);
	for (i = 0; !rc && i < n; i++) {
		struct owners_snapshot_fact f = { OWNERS_SNAPSHOT_FACT_STATUS,
						  OWNERS_NODE_UID(&g->nodes[nodes[i]]),
						  &st[nodes[i]],
						  NULL,
						  NULL,
						  0,
						  0 };

		if (st[nodes[i]].ready)
			rc = owners_snapshot_write_fact(w, &f, err);
	}
	for (i = 0; i < g->count; i++)
		owners_object_status_clear(&st[i]);
	free(st);
	free(nodes);
	return rc;
}

/* Namespaces and PersistentVolumes in deletion, read whole: what
 * finalizers and why explain a stuck one with (lib/ops/stuck_fetch.h). */
static int write_stuck_objects(struct session *s, struct owners_snapshot_writer *w, struct owners_error *err)
{
	const struct owners_graph *g = session_graph(s);
	size_t i;
	int rc = 0;

	for (i = 0; !rc && i < g->count; i++) {
		const struct owners_node *n = &g->nodes[i];
		struct owners_object_get_request q;
		struct owners_json_value *doc = NULL;
		struct owners_buf path = OWNERS_BUF_INIT;
		struct owners_error gerr = OWNERS_ERROR_INIT;

		if (n->virtual_ || !n->extras->deleted ||
		    !(owners_stuck_is_namespace(n) || owners_stuck_is_pv(n)))
			continue;
		memset(&q, 0, sizeof(q));
		q.key.type = n->place->resource;
		q.key.name = n->name;
		q.full = 1;
		if (!owners_object_get(&doc, session_http(s), &q, &gerr) &&
		    !(rc = owners_api_path_object(&path, n->place->resource, NULL, n->name, NULL)
				   ? owners_error_oom(err)
				   : 0))
			rc = owners_snapshot_record_value(w, OWNERS_SNAPSHOT_FACT_OBJECT, path.ptr,
							  doc, 0, err);
		owners_json_value_free(doc);
		owners_buf_clear(&path);
		owners_error_clear(&gerr);
	}
	return rc;
}

/* --related: what each object of the types that hold relations uses,
 * read whole where the scan listed the type (a list it could not make is
 * recorded as failed already: its relations are unknown). */
static int write_uses(struct cmd_run *run, struct owners_snapshot_writer *w)
{
	struct session *s = run->s;
	const struct owners_graph *g = session_graph(s);
	struct owners_snapshot_record_list *lists = calloc(g->n_listings + 1, sizeof(*lists));
	size_t i, n = 0;
	int rc;

	if (!lists)
		return owners_error_oom(session_error(s));
	for (i = 0; i < g->n_listings; i++)
		if (!g->listings[i].rc && owners_relations_type(g->listings[i].resource))
			lists[n++] = (struct owners_snapshot_record_list){ g->listings[i].resource,
									 g->listings[i].namespace_ };
	rc = owners_snapshot_record_uses(w, session_http(s), lists, n,
					 run->cli->chunk_size > 0 ? (size_t)run->cli->chunk_size : 0,
					 session_error(s));
	free(lists);
	return rc;
}

/* What the scans do not read, recorded after them: the statuses, the
 * GC's lease, the objects read whole and the events of the scope (the
 * events page as the lists do, --chunk-size theirs too). 0, or the
 * writer's code with the session's error set. */
static int write_facts(struct cmd_run *run, struct owners_snapshot_writer *w)
{
	struct session *s = run->s;
	struct owners_error *err = session_error(s);
	const struct owners_resource *events =
		owners_resource_by_gvk(session_types(s), "v1", "Event");

	const struct snapshot_options *o = run->opts;

	return write_statuses(s, w, err) || owners_snapshot_record_lease(w, session_http(s), err) ||
	       write_stuck_objects(s, w, err) ||
	       owners_snapshot_record_events(w, session_http(s), events, run->scan_ns,
					     (size_t)run->cli->chunk_size, err) ||
	       (o->related && write_uses(run, w));
}

static char *server_version(struct session *s)
{
	struct owners_json_value *doc = NULL;
	struct owners_error err = OWNERS_ERROR_INIT;
	char *v = NULL;

	if (!owners_server_version_get(&doc, session_http(s), &err))
		v = strdup(owners_server_version_git(doc));
	owners_json_value_free(doc);
	owners_error_clear(&err);
	return v;
}

static int write_header(struct cmd_run *run, struct owners_snapshot_writer *w, const char *selector)
{
	struct session *s = run->s;
	char *version = server_version(s);
	struct owners_snapshot_header h;
	int rc;

	memset(&h, 0, sizeof(h));
	h.taken_at = session_time(s);
	h.server = session_server(s);
	h.server_version = version ? version : "";
	h.namespace_ = run->scan_ns;
	h.cluster_scoped = 1;
	h.label_selector = selector;
	h.has_discovery = 1;
	h.has_relations = ((const struct snapshot_options *)run->opts)->related;
	rc = owners_snapshot_write_header(w, &h, session_types(s), session_error(s));
	free(version);
	return rc;
}

/* --format, or what the name says (as .gz says gzip). */
static enum owners_snapshot_format file_format(const struct snapshot_options *o)
{
	if (o->format)
		return o->format;
	return owners_str_ends_with(o->file, ".json") || owners_str_ends_with(o->file, ".json.gz")
		       ? OWNERS_SNAPSHOT_FORMAT_JSON : OWNERS_SNAPSHOT_FORMAT;
}

static double seconds_since(int64_t t0_ms)
{
	return (double)(owners_clock_ms() - t0_ms) / 1000;
}

/* The lists, scanned through the tee that writes them as they come. */
static enum exit_code write_lists(struct cmd_run *run, struct owners_snapshot_writer *w)
{
	struct session *s = run->s;
	struct tee t;
	enum exit_code rc;

	memset(&t, 0, sizeof(t));
	t.w = w;
	t.selector = run->cli->selector;
	t.live = session_read_lists_through(s, (struct owners_list_source){ tee_list, &t });
	rc = session_scan(s, run->scan_ns);
	session_read_lists_through(s, t.live);
	return rc;
}

static enum exit_code cmd_snapshot(struct cmd_run *run)
{
	const struct snapshot_options *o = run->opts;
	struct session *s = run->s;
	struct owners_snapshot_writer *w = NULL;
	int64_t t0_ms = owners_clock_ms();
	enum exit_code rc;
	uint64_t objects, bytes;
	double secs;

	if (owners_snapshot_write_open(&w, o->file, file_format(o), session_error(s)) ||
	    write_header(run, w, run->cli->selector)) {
		owners_snapshot_write_abandon(w);
		return report_error(session_error(s));
	}
	if ((rc = write_lists(run, w))) {
		owners_snapshot_write_abandon(w);
		return rc;
	}
	if (write_facts(run, w)) {
		owners_snapshot_write_abandon(w);
		return report_error(session_error(s));
	}
	session_warn_scan(s);
	objects = owners_snapshot_write_objects(w);
	bytes = owners_snapshot_write_bytes(w);
	secs = seconds_since(t0_ms);
	if (owners_snapshot_write_close(w, secs, session_error(s)))
		return report_error(session_error(s));
	fprintf(stderr, "snapshot: %llu objects of %zu types in %.1fs, %llu bytes%s%s\n",
		(unsigned long long)objects, session_scan_report(s)->types_listed, secs,
		(unsigned long long)bytes, strcmp(o->file, "-") ? " written to " : "",
		strcmp(o->file, "-") ? o->file : "");
	return EXIT_OK;
}

/* The man page's detail beyond --help (see struct man_section). */
static const struct man_section snapshot_man_sections[] = {
	{"FORMAT",
		"Two formats, both read by --from and owners diff, gzip-compressed or not (a\n"
		"reader tells by the first bytes): 2 (--format=binary, the default), and 1\n"
		"(--format=json, or a name ending in .json or .json.gz).\n"
		"\n"
		"Format 1: a stream of JSON documents, each on a line of its own but for the\n"
		"lists:\n"
		"- {\"apiVersion\": \"owners.dev/v1\", \"kind\": \"Snapshot\", \"format\": 1,\n"
		"\"takenAt\", \"server\", \"serverVersion\", \"namespace\" (null: all),\n"
		"\"clusterScoped\", \"labelSelector\", \"discovery\": {\"resources\": [...],\n"
		"\"failed\": [...]}}: first, once.\n"
		"- {\"apiVersion\": \"apps/v1\", \"kind\": \"DeploymentList\", \"items\":\n"
		"[{\"metadata\": {...}}]}: objects of one type as the scan read them (name,\n"
		"namespace, uid, resourceVersion, creationTimestamp, deletionTimestamp, labels,\n"
		"finalizers, ownerReferences), one item per line; a type's objects may come in\n"
		"several such lists.\n"
		"- {\"kind\": \"Listed\", \"group\", \"version\", \"resource\", \"namespace\",\n"
		"\"resourceVersion\", \"code\"} (with \"message\" and \"detail\" when code is not\n"
		"0): a list that came back whole, or failed, and why; with \"unanswered\",\n"
		"\"waitedMs\" and \"tookMs\" when requests of the list got no answer in time and\n"
		"were sent again (the snapshot then spans that wait, and every reader says so).\n"
		"- {\"kind\": \"Status\", \"uid\", \"ready\", \"status\", \"health\", \"isReady\"}:\n"
		"READY/STATUS as tree shows it.\n"
		"- {\"kind\": \"Read\" | \"Event\", \"path\", \"readAt\", \"object\": {...}}: an\n"
		"object read whole (the lease, a Namespace or PersistentVolume in deletion; path:\n"
		"its API path), or an Event (path: the UID it is about).\n"
		"- {\"kind\": \"End\", \"objects\", \"seconds\"}: last. A file without it was cut\n"
		"short, and is refused.\n"
		"Every record but the lists has \"apiVersion\": \"owners.dev/v1\". A reader refuses a\n"
		"later format, and a record it does not know.\n"
		"\n"
		"Format 2 holds the same records in frames, the objects and the statuses in\n"
		"binary batches that are read without a parser (a 100,000-object cluster takes\n"
		"about 240 bytes an object against format 1's 520, and reads back about four\n"
		"times faster). It begins with 8 bytes, 0x89 \"OWN\" CR LF 0x1a LF, then frames:\n"
		"a kind byte, a 4-byte little-endian length, the CRC32 of the bytes that follow\n"
		"(4 bytes, little-endian; zlib's), and that many bytes:\n"
		"- J: a record of format 1 as JSON text: the Snapshot record (\"format\": 2)\n"
		"first, Listed records, and the End record last.\n"
		"- F: a Read or Event record as JSON text (a reader that needs none passes over\n"
		"it).\n"
		"- O: objects of one type: group, version and resource, then for each object\n"
		"name, namespace, uid, resourceVersion, creationTimestamp, deletionTimestamp\n"
		"(each a string ended by a NUL byte), the labels (a count, then key and value),\n"
		"the finalizers (a count, then each), and the ownerReferences (a count, then\n"
		"apiVersion, kind, name, uid and a byte of flags: 1 controller, 2 the field is\n"
		"there, 4 blockOwnerDeletion, 8 that field is there). Counts are varints.\n"
		"- S: READY/STATUS records: uid, ready and status (strings), then a byte of\n"
		"health (0 none, 1 ok, 2 pending, 3 bad) and a byte for isReady.\n"
		"A frame of another kind, a frame longer than 64 MiB, a frame whose CRC32 does\n"
		"not match (every frame is checked, read or not), or a batch that does not\n"
		"decode is refused, naming the byte its frame begins at."},
	{NULL, NULL},
};

const struct command snapshot_command = {
	.name = "snapshot",
	.man_sections = snapshot_man_sections,
	.fn = cmd_snapshot,
	.validate = validate,
	CMD_OPTIONS(snapshot_opts, struct snapshot_options, &snapshot_defaults),
	.usage = "owners snapshot [-n NAMESPACE | -A] [-l SELECTOR] -f FILE [flags]",
	.summary = "write what the read commands see to a file, for --from and owners diff",
	.description =
		"Lists what every read command lists (every type the garbage collector tracks,\n"
		"and the owner types they refer to), with discovery, the READY/STATUS tree shows,\n"
		"the controller-manager's lease, the server's version and the time, and writes it\n"
		"to FILE as the lists stream in; then what each object of the types that hold\n"
		"relations uses (one list more per such type, read whole; only the edges are\n"
		"kept; --related=false leaves them out). Any read command then answers from it\n"
		"with --from FILE as it would have answered then: tree (--related too), graph,\n"
		"dangling (--related too), finalizers, why, unused and gc --dry-run=client;\n"
		"owners diff compares two.\n"
		"\n"
		"The file is compact binary frames, or JSON documents for jq with --format=json\n"
		"or a name ending in .json (both formats: owners-snapshot(1)), compressed with\n"
		"gzip when its name ends in .gz. It is written under a temporary\n"
		"name and renamed when whole, so an interrupted snapshot leaves nothing half\n"
		"written. A list the server refused is recorded as refused: read back, it is\n"
		"named as not seen, as live.",
	.examples = "  owners snapshot -A -f cluster.snap.gz\n"
		    "  owners tree deployment/web --from cluster.snap.gz\n"
		    "  owners snapshot -n shop -f - | gzip > shop.snap.gz\n"
		    "  owners snapshot -n shop -f shop.json && jq . shop.json",
	.args = CMD_ARGS_NONE,
	.discovery = CMD_DISCOVERY_CURRENT,
	.scope = OWNERS_SCOPE_NAMESPACE,
	.rbac = "list on every type it scans; get on objects with a status (or list of their "
		"type),\n"
		"and on the kube-system/kube-controller-manager Lease",
};
