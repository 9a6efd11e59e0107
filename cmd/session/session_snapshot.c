#include "session_snapshot.h"
#include "session_state.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "clock.h"
#include "grow.h"
#include "label_selector.h"
#include "meter.h"
#include "test_hooks.h"
#include "options.h"
#include "snapshot_dump.h"
#include "snapshot_lists.h"
#include "session_scan.h"
#include "session_warnings.h"
#include "strv.h"
#include "timeutil.h"
#include "uses_record.h"

struct kept_status {
	char *uid;
	struct owners_object_status status;
};

struct kept_fact {
	enum owners_snapshot_fact_kind kind;
	char *key;
	char *json;
	size_t len;
	int64_t read_at;
};

struct session_snapshot {
	struct owners_snapshot_header header; /* its strings are owned below */
	char *strings[8];
	char *scope;
	/* The snapshot, opened once: its header, every scan and the facts
	 * are read through it (a dump's layout found once). */
	struct owners_snapshot_reader *reader;
	struct owners_snapshot_lists source;
	struct kept_status *statuses;
	size_t n_statuses, cap_statuses;
	int statuses_sorted;
	struct kept_fact *facts;
	size_t n_facts, cap_facts;
	/* The facts are read once, when first asked for: a scan passes them
	 * by (graph -A needs none of them). The statuses of every object
	 * (READY/STATUS) are read with them only when they are asked for
	 * first, else when they are: at a million objects they cost 100 MB,
	 * which gc, asking for the GC's lease, has no use for. */
	int facts_loaded, statuses_loaded;
	int keeping_facts, keeping_statuses; /* what the walk under way keeps */
	char *spool; /* --from -: stdin copied here (each scan reads the file again) */
	/* A dump: what its reader passed over (no uid, a uid twice, files). */
	struct owners_snapshot_dump_counts passed_over;
	/* -l, parsed once: the selector text it was parsed from */
	char *selector_text;
	struct owners_label_selector *selector;
	/* A big dump read: how far, on stderr (the one progress meter) */
	struct meter meter;
	int metering;
	int64_t read_started_ms;
};

/* ---- how far a big dump's reading is ------------------------------------ */

/* Said after a second on a terminal (the line redrawn), after two in a
 * log (lines at each tenth, cmd/terminal/progress_log.h): a small dump's stderr
 * stays as it was. */
#define READING_QUIET_MS 1000

static void reading(struct session_snapshot *snap, const char *path, unsigned pct, uint64_t size)
{
	int64_t now = owners_clock_ms();
	char line[512];

	if (!snap->metering) {
		struct progress_timing t;

		/* (a malformed test variable is said by the commands that wait) */
		meter_init(&snap->meter, "owners", 1, 1, test_hook_progress(&t) ? NULL : &t);
		snap->metering = 1;
		snap->read_started_ms = now;
	}
	if (meter_redraws(&snap->meter)) {
		if (now - snap->read_started_ms < (snap->meter.log.quiet_ms < READING_QUIET_MS ? snap->meter.log.quiet_ms
												 : READING_QUIET_MS))
			return;
		snprintf(line, sizeof(line), "reading %s (%.1f MB): %u%%", path, (double)size / 1e6, pct);
		meter_draw(&snap->meter, line);
	} else {
		snprintf(line, sizeof(line), "reading %s (%.1f MB): %u%%", path, (double)size / 1e6, pct / 10 * 10);
		meter_log(&snap->meter, line, (long)((now - snap->read_started_ms) / 1000));
	}
}

/* The reading ended: the line taken away before anything else is said. */
static void reading_done(struct session_snapshot *snap)
{
	if (!snap->metering)
		return;
	meter_clear(&snap->meter);
	meter_end(&snap->meter);
	snap->metering = 0;
}

static void scan_reading(void *ctx, unsigned percent, uint64_t size)
{
	struct session_snapshot *snap = ctx;

	reading(snap, snap->header.path, percent, size);
}

/* ---- what the first read keeps ----------------------------------------- */

struct opening {
	struct session *s;
	struct owners_error *err;
	const char *path;
};

static void opening_reading(void *ctx, unsigned percent, uint64_t size)
{
	struct opening *o = ctx;

	reading(o->s->snap, o->path, percent, size);
}

static char *keep(struct session_snapshot *snap, size_t slot, const char *v)
{
	if (!v)
		return NULL;
	snap->strings[slot] = strdup(v);
	return snap->strings[slot];
}

static int on_header(void *ctx, const struct owners_snapshot_header *h)
{
	struct opening *o = ctx;
	struct session_snapshot *snap = o->s->snap;

	snap->header = *h;
	snap->header.path = keep(snap, 0, h->path);
	snap->header.format = keep(snap, 1, h->format);
	snap->header.server = keep(snap, 2, h->server);
	snap->header.server_version = keep(snap, 3, h->server_version);
	snap->header.namespace_ = keep(snap, 4, h->namespace_);
	snap->header.label_selector = keep(snap, 5, h->label_selector);
	snap->header.taken_at_from = keep(snap, 6, h->taken_at_from);
	if (!snap->header.path || !snap->header.format || (h->server && !snap->header.server) ||
	    (h->server_version && !snap->header.server_version) || (h->namespace_ && !snap->header.namespace_) ||
	    (h->label_selector && !snap->header.label_selector) ||
	    (h->taken_at_from && !snap->header.taken_at_from))
		return OWNERS_ENOMEM;
	return 0;
}

/* The session's own copy: type pointers into it outlive the read. */
static int on_types(void *ctx, const struct owners_resource_table *t)
{
	struct opening *o = ctx;
	struct owners_resource_table *into = &o->s->types;
	size_t i;

	for (i = 0; i < t->count; i++)
		if (owners_resource_table_add(into, &t->items[i]))
			return OWNERS_ENOMEM;
	for (i = 0; i < t->n_failed; i++)
		if (owners_resource_table_add_failed(into, t->failed_groups[i], t->failed_reasons[i],
						     owners_resource_table_failed_stale(t, i)))
			return OWNERS_ENOMEM;
	owners_resource_table_mark_tracked(into);
	into->built_from_objects = !o->s->snap->header.has_discovery;
	o->s->types_loaded = 1;
	return OWNERS_ESTOP; /* the rest is read by each scan */
}

/* ---- the facts, as scans read past them --------------------------------- */

static int keep_status(struct session_snapshot *snap, const struct owners_snapshot_fact *f)
{
	struct kept_status *k;

	if (OWNERS_GROW(snap->statuses, snap->cap_statuses, snap->n_statuses + 1))
		return OWNERS_ENOMEM;
	k = &snap->statuses[snap->n_statuses];
	memset(k, 0, sizeof(*k));
	k->uid = strdup(f->uid);
	k->status.ready = strdup(f->status->ready);
	k->status.status = strdup(f->status->status);
	k->status.health = f->status->health;
	k->status.is_ready = f->status->is_ready;
	snap->n_statuses++;
	snap->statuses_sorted = 0;
	return k->uid && k->status.ready && k->status.status ? 0 : OWNERS_ENOMEM;
}

static int on_fact(void *ctx, const struct owners_snapshot_fact *f)
{
	struct session_snapshot *snap = ctx;
	struct kept_fact *k;

	if (f->kind == OWNERS_SNAPSHOT_FACT_STATUS)
		return snap->keeping_statuses ? keep_status(snap, f) : 0;
	if (!snap->keeping_facts)
		return 0;
	/* read by session_snapshot_relations() alone, when asked for */
	if (f->kind == OWNERS_SNAPSHOT_FACT_USES || f->kind == OWNERS_SNAPSHOT_FACT_USES_READ)
		return 0;
	if (OWNERS_GROW(snap->facts, snap->cap_facts, snap->n_facts + 1))
		return OWNERS_ENOMEM;
	k = &snap->facts[snap->n_facts];
	memset(k, 0, sizeof(*k));
	k->kind = f->kind;
	k->read_at = f->read_at;
	k->len = f->json_len;
	snap->n_facts++;
	if ((f->path && !(k->key = strdup(f->path))) || !(k->json = malloc(f->json_len + 1)))
		return OWNERS_ENOMEM;
	memcpy(k->json, f->json, f->json_len);
	k->json[f->json_len] = 0;
	return 0;
}

/* -l on this side, as the server would have matched it. */
static int labels_match(void *ctx, const char *selector, const struct owners_object_meta *m)
{
	struct session_snapshot *snap = ctx;
	struct owners_error err = OWNERS_ERROR_INIT;

	if (!snap->selector_text || strcmp(snap->selector_text, selector)) {
		owners_label_selector_free(snap->selector);
		free(snap->selector_text);
		snap->selector = NULL;
		if (!(snap->selector_text = strdup(selector)))
			return OWNERS_ENOMEM;
		if (owners_label_selector_parse(&snap->selector, selector, &err)) {
			owners_error_clear(&err);
			return OWNERS_EINVAL;
		}
	}
	if (!snap->selector)
		return OWNERS_EINVAL;
	return owners_label_selector_match(snap->selector, m->labels, m->n_labels);
}

/* Reads the facts, with the statuses when they are wanted (a walk of the
 * whole file that keeps nothing else): the statuses and the other facts
 * not yet read, those of the two that are asked for. */
static void load_facts(struct session_snapshot *snap, int statuses)
{
	struct owners_snapshot_visitor v = {
		NULL, NULL, NULL, NULL, on_fact, NULL, snap, NULL, NULL
	};
	struct owners_error err = OWNERS_ERROR_INIT;

	if (snap->facts_loaded && (!statuses || snap->statuses_loaded))
		return;
	snap->keeping_facts = !snap->facts_loaded;
	snap->keeping_statuses = statuses && !snap->statuses_loaded;
	snap->facts_loaded = 1;
	snap->statuses_loaded |= statuses;
	/* The file was read whole by the scan: a failure now leaves facts
	 * out, which the commands say as not recorded. */
	owners_snapshot_reader_read(snap->reader, &v, NULL, &err);
	owners_error_clear(&err);
}

/* What the snapshot lacks, said with every list it does not hold. */
static int say_scope(struct session_snapshot *snap)
{
	struct owners_buf b = OWNERS_BUF_INIT;
	const struct owners_snapshot_header *h = &snap->header;
	int rc;

	if (h->namespace_ && h->has_discovery)
		rc = owners_buf_addf(&b, "(%s, taken in namespace '%s')", h->path, h->namespace_);
	else
		rc = owners_buf_addf(&b, "(%s%s%s)", h->path, h->has_discovery ? "" : ", a ",
				     h->has_discovery ? "" : h->format);
	if (rc) {
		owners_buf_clear(&b);
		return rc;
	}
	snap->scope = owners_buf_detach(&b);
	return 0;
}

/* Standard input, copied to a private file: every scan reads a snapshot
 * from its start. */
static int spool_stdin(struct session_snapshot *snap, struct owners_error *err)
{
	const char *dir = getenv("TMPDIR");
	struct owners_buf path = OWNERS_BUF_INIT;
	char chunk[65536];
	ssize_t n;
	int fd;

	if (owners_buf_addf(&path, "%s/owners-from.XXXXXX", dir && *dir ? dir : "/tmp"))
		return owners_error_oom(err);
	snap->spool = owners_buf_detach(&path);
	if ((fd = mkstemp(snap->spool)) < 0) {
		free(snap->spool);
		snap->spool = NULL;
		return owners_error_set(err, OWNERS_EIO, "cannot copy standard input: %s", strerror(errno));
	}
	while ((n = read(0, chunk, sizeof(chunk))) > 0)
		if (write(fd, chunk, (size_t)n) != n) {
			n = -1;
			break;
		}
	if (close(fd) || n < 0)
		return owners_error_set(err, OWNERS_EIO, "cannot copy standard input: %s", strerror(errno));
	return 0;
}

int session_connect_from(struct session *s, struct owners_cli *cli, const char *path)
{
	struct opening o = { s, &s->err, path };
	struct owners_snapshot_visitor v = { on_header, on_types,        NULL, NULL, NULL, NULL,
					     &o,        opening_reading, NULL };
	struct session_snapshot *snap;
	int rc;

	memset(s, 0, sizeof(*s));
	s->cli = cli;
	owners_resource_table_init(&s->types);
	if (!(snap = s->snap = calloc(1, sizeof(*snap))))
		return owners_error_oom(&s->err);
	if (!strcmp(path, "-") && (rc = spool_stdin(snap, &s->err)))
		return rc;
	if (snap->spool)
		path = snap->spool;
	if (snap->spool)
		o.path = "standard input";
	rc = owners_snapshot_reader_open(
		&snap->reader, path, snap->spool ? "standard input" : path,
		&(const struct owners_snapshot_progress){ opening_reading, &o }, &s->err);
	rc = rc ? rc : owners_snapshot_reader_read(snap->reader, &v, NULL, &s->err);
	reading_done(snap);
	if (rc)
		return rc;
	if (!s->types_loaded)
		return owners_error_set(&s->err, OWNERS_EPROTO, "%s: holds no types",
					snap->header.path ? snap->header.path : path);
	/* A snapshot is what it is: its types are as current as it gets. */
	s->types_fresh = 1;
	s->now = snap->header.taken_at;
	/* --from-time (checked by cmd/run.c): the time asked for, said with
	 * the dump's time */
	if (cli->from_time && !owners_time_parse_rfc3339(&s->now, cli->from_time)) {
		snap->header.taken_at = s->now;
		snap->header.taken_at_from = "--from-time";
	}
	s->namespace_ = cli->namespace_ ? cli->namespace_
			: snap->header.namespace_ ? snap->header.namespace_ : "default";
	if (say_scope(snap))
		return owners_error_oom(&s->err);
	snap->source.reader = snap->reader;
	snap->source.shown = snap->header.path;
	snap->source.scope = snap->scope;
	snap->source.labels_match = labels_match;
	snap->source.labels_ctx = snap;
	/* what a dump passed over, counted by the scan's own walk of it */
	snap->source.counts = &snap->passed_over;
	snap->source.progress = scan_reading;
	snap->source.progress_ctx = snap;
	owners_snapshot_lists_source(&s->lists, &snap->source);
	session_lists_shuffle(s);
	return 0;
}

void session_snapshot_free(struct session_snapshot *snap)
{
	size_t i;

	if (!snap)
		return;
	for (i = 0; i < sizeof(snap->strings) / sizeof(snap->strings[0]); i++)
		free(snap->strings[i]);
	free(snap->scope);
	owners_snapshot_reader_close(snap->reader);
	if (snap->spool)
		unlink(snap->spool);
	free(snap->spool);
	free(snap->selector_text);
	owners_label_selector_free(snap->selector);
	for (i = 0; i < snap->n_statuses; i++) {
		free(snap->statuses[i].uid);
		owners_object_status_clear(&snap->statuses[i].status);
	}
	free(snap->statuses);
	for (i = 0; i < snap->n_facts; i++) {
		free(snap->facts[i].key);
		free(snap->facts[i].json);
	}
	free(snap->facts);
	free(snap);
}

/* ---- look-ups ------------------------------------------------------------ */

static int by_uid(const void *a, const void *b)
{
	return strcmp(((const struct kept_status *)a)->uid, ((const struct kept_status *)b)->uid);
}

const struct owners_object_status *session_snapshot_status(const struct session *s, const char *uid)
{
	struct session_snapshot *snap = s->snap;
	struct kept_status key, *found;

	if (!snap)
		return NULL;
	load_facts(snap, 1);
	if (!snap->n_statuses)
		return NULL;
	if (!snap->statuses_sorted) {
		qsort(snap->statuses, snap->n_statuses, sizeof(*snap->statuses), by_uid);
		snap->statuses_sorted = 1;
	}
	key.uid = (char *)uid;
	found = bsearch(&key, snap->statuses, snap->n_statuses, sizeof(*snap->statuses), by_uid);
	return found ? &found->status : NULL;
}

const char *session_snapshot_object(const struct session *s, const char *path, size_t *len, int64_t *read_at)
{
	size_t i;

	if (s->snap)
		load_facts(s->snap, 0);
	for (i = 0; s->snap && i < s->snap->n_facts; i++) {
		const struct kept_fact *k = &s->snap->facts[i];

		if (k->kind == OWNERS_SNAPSHOT_FACT_OBJECT && k->key && !strcmp(k->key, path)) {
			*len = k->len;
			*read_at = k->read_at;
			return k->json;
		}
	}
	return NULL;
}

const char *session_snapshot_fact_at(const struct session *s, enum owners_snapshot_fact_kind kind, size_t i,
				     size_t *len, const char **key)
{
	size_t j, seen = 0;

	if (s->snap)
		load_facts(s->snap, 0);
	for (j = 0; s->snap && j < s->snap->n_facts; j++) {
		const struct kept_fact *k = &s->snap->facts[j];

		if (k->kind != kind || seen++ != i)
			continue;
		*len = k->len;
		*key = k->key;
		return k->json;
	}
	return NULL;
}

const struct owners_snapshot_header *session_snapshot_header(const struct session *s)
{
	return s->snap ? &s->snap->header : NULL;
}

/* ---- the relations, as recorded ---------------------------------------- */

struct relations_read {
	struct session *s;
	struct owners_relations *rel;
	struct owners_error err;
};

static const struct owners_resource *type_named(const struct owners_resource_table *t,
						const char *group, const char *version,
						const char *resource)
{
	size_t i;

	for (i = 0; group && version && resource && i < t->count; i++)
		if (!strcmp(t->items[i].group, group) && !strcmp(t->items[i].version, version) &&
		    !strcmp(t->items[i].resource, resource))
			return &t->items[i];
	return NULL;
}

/* A type the snapshot could not read whole where it listed it. */
static int relations_read_failed(struct relations_read *r, const struct owners_snapshot_fact *f)
{
	struct owners_json_value *v = NULL;
	const struct owners_resource *type;
	int rc;

	if (owners_json_parse(&v, f->json, f->json_len, &r->err))
		return owners_error_set(&r->err, OWNERS_EPROTO,
					"a UsesRead record that is not JSON");
	type = type_named(&r->s->types, owners_json_string(owners_json_get(v, "group")),
			  owners_json_string(owners_json_get(v, "version")),
			  owners_json_string(owners_json_get(v, "resource")));
	rc = !type ? 0
		   : owners_relations_note_read(
			     r->rel, owners_graph_lookup_type(&r->s->types, type),
			     owners_json_string(owners_json_get(v, "namespace")),
			     (int)owners_json_int(owners_json_get(v, "code"), OWNERS_EIO),
			     owners_json_string(owners_json_get(v, "message")));
	owners_json_value_free(v);
	return rc ? owners_error_oom(&r->err) : 0;
}

static int on_relations_fact(void *ctx, const struct owners_snapshot_fact *f)
{
	struct relations_read *r = ctx;
	struct owners_uses uses = { NULL, 0, 0, 0 };
	struct owners_pod_selector selector;
	unsigned marks;
	uint32_t node;
	int rc;

	if (f->kind == OWNERS_SNAPSHOT_FACT_USES_READ)
		return relations_read_failed(r, f);
	if (f->kind != OWNERS_SNAPSHOT_FACT_USES || !f->uid)
		return 0;
	node = owners_graph_find_uid(r->s->graph, f->uid);
	if (node == OWNERS_NO_NODE || r->s->graph->nodes[node].virtual_)
		return 0;
	rc = owners_uses_record_read(f->json, f->json_len, &uses, &selector, &marks, &r->err);
	if (!rc && (rc = owners_relations_add_read(r->rel, node, &uses, &selector, marks)))
		owners_error_oom(&r->err);
	owners_uses_clear(&uses);
	owners_pod_selector_clear(&selector);
	return rc;
}

int session_snapshot_relations(struct session *s, struct owners_relations *rel)
{
	struct relations_read r = { s, rel, OWNERS_ERROR_INIT };
	struct owners_snapshot_visitor v = { NULL, NULL, NULL, NULL, on_relations_fact,
					     NULL, &r,   NULL, NULL };
	struct owners_graph *g = s->graph;
	size_t i;
	int rc;

	if (!s->snap->header.has_relations)
		return owners_error_set(&s->err, OWNERS_EINVAL,
					"%s holds no relations: it was taken with --related=false "
					"(take it again without that flag)",
					s->snap->header.path);
	rc = owners_snapshot_reader_read(s->snap->reader, &v, NULL, &r.err);
	if (rc) {
		owners_error_set(&s->err, rc, "%s", owners_error_message(&r.err));
		owners_error_clear(&r.err);
		return rc;
	}
	owners_error_clear(&r.err);
	/* what it listed it read whole, but where it said it could not */
	for (i = 0; i < g->n_listings; i++) {
		const struct owners_listing *l = &g->listings[i];

		if (!owners_relations_type(l->resource) ||
		    (!l->rc && owners_relations_read_state(rel, l->resource, l->namespace_, NULL) ==
				       OWNERS_LISTING_FAILED))
			continue;
		if (owners_relations_note_read(rel, l->resource, l->namespace_, l->rc, l->message))
			return owners_error_oom(&s->err);
	}
	return 0;
}

/* ---- the reads a command makes beyond its scan, live or recorded -------- */

static const char *lookup_object(void *ctx, const char *path, size_t *len)
{
	int64_t read_at;

	return session_snapshot_object(ctx, path, len, &read_at);
}

int session_stuck_facts(struct session *s, struct owners_stuck_facts *f, const struct owners_node_list *list,
			struct owners_error *err)
{
	struct owners_stuck_fetch_record rec = { lookup_object, s, "not recorded in the snapshot",
						 0 };

	if (!s->snap)
		return owners_stuck_fetch(f, s->graph, s->http, list, (size_t)s->cli->chunk_size, err);
	return owners_stuck_fetch_recorded(f, s->graph, list, &rec, err);
}

/* The recorded events about n, as one EventList: what the live read's
 * field selector would have returned. */
static int recorded_events(struct session *s, struct owners_why_events *out, const struct owners_node *n,
			   size_t limit)
{
	struct owners_buf list = OWNERS_BUF_INIT;
	struct owners_json_value *doc = NULL;
	const char *json, *key;
	size_t i, len, kept = 0;
	int rc = owners_buf_adds(&list, "{\"kind\":\"EventList\",\"apiVersion\":\"v1\",\"items\":[");

	for (i = 0; !rc && kept < limit &&
		    (json = session_snapshot_fact_at(s, OWNERS_SNAPSHOT_FACT_EVENT, i, &len, &key));
	     i++) {
		if (!key || strcmp(key, OWNERS_NODE_UID(n)))
			continue;
		rc = (kept++ && owners_buf_addc(&list, ',')) || owners_buf_add(&list, json, len);
	}
	if (!rc)
		rc = owners_buf_adds(&list, "]}");
	if (!rc)
		rc = owners_json_parse(&doc, list.ptr, list.len, NULL);
	if (!rc)
		rc = owners_why_events_read(out, doc);
	owners_json_value_free(doc);
	owners_buf_clear(&list);
	return rc == OWNERS_ENOMEM ? rc : 0;
}

int session_why_events(struct session *s, struct owners_why_events *out, const struct owners_node *n,
		       size_t limit)
{
	if (!s->snap)
		return owners_why_events_fetch(out, s->http, n, limit);
	return recorded_events(s, out, n, limit);
}

/* Which time a dump's answer is about, and where it came from: a dump
 * records none of its own (--from-time sets it). */
static int say_time(struct session *s, const struct owners_snapshot_header *h)
{
	char when[40];
	time_t t = (time_t)h->taken_at;
	struct tm tm;

	if (!h->taken_at || !gmtime_r(&t, &tm) || !strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm))
		return session_note(s, "%s: its time is unknown (%s): ages are counted to now; "
				    "--from-time sets it", h->path,
				    h->taken_at_from ? h->taken_at_from : "nothing in it says");
	return session_note(s, "%s: answered as of %s, from %s%s", h->path, when,
			    h->taken_at_from ? h->taken_at_from : "the dump",
			    h->taken_at_from && strcmp(h->taken_at_from, "--from-time") ? " (--from-time sets another)" : "");
}

void session_snapshot_read(struct session *s)
{
	if (s->snap)
		reading_done(s->snap);
}

int session_snapshot_note(struct session *s)
{
	const struct owners_snapshot_header *h = session_snapshot_header(s);
	const struct owners_snapshot_dump_counts *c;

	if (!h || h->has_discovery)
		return 0;
	c = &s->snap->passed_over;
	if ((c->without_uid || c->duplicates) &&
	    session_note(s, "%s: %zu object%s without a uid (manifests, not objects read from a cluster) and %zu "
			    "listed twice passed over", h->path, c->without_uid, c->without_uid == 1 ? "" : "s",
			    c->duplicates))
		return OWNERS_ENOMEM;
	if (session_note(s, "%s is a %s, without discovery: owners sees only the %zu type%s of its objects, "
			 "and a reference to any other kind is unknown (not in the snapshot)",
			 h->path, h->format, s->types.count, s->types.count == 1 ? "" : "s"))
		return OWNERS_ENOMEM;
	return say_time(s, h);
}

void session_snapshot_unknown_type(struct session *s, const char *typed)
{
	const struct owners_snapshot_header *h = session_snapshot_header(s);

	owners_error_clear(&s->err);
	owners_error_set(&s->err, OWNERS_ENOTFOUND, "%s holds no type named '%s'%s", h->path, typed,
			 h->has_discovery ? ""
					  : " (a dump has no discovery: name a type by its kind or plural, e.g. "
					    "deployment or deployments)");
}
