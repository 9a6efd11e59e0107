#include "watch.h"
#include "clock.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api_path.h"
#include "buf.h"
#include "grow.h"
#include "status_fetch.h"
#include "strset.h"
#include "url.h"
#include "watch_stream.h"

#define META_ACCEPT "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json"

/* The server ends each watch after timeoutSeconds: between these, chosen
 * at random as client-go does, so many watches do not end together. */
#define WATCH_SECONDS_MIN 300
#define WATCH_SECONDS_MAX 600

enum stream_state {
	STREAM_LIST,     /* to be listed, then watched (no resourceVersion, or 410) */
	STREAM_RUNNING,  /* a watch request in flight */
	STREAM_WAITING,  /* resumed at due_ms, after a failure */
	STREAM_POLLING,  /* may not be watched: listed again at due_ms */
};

/* One type watched (in one namespace, with one selector). */
struct stream {
	struct owners_watch *w;
	const struct owners_resource *r;
	char *ns;
	char *selector;
	int full;
	char *rv;                 /* where the next watch starts */
	enum stream_state state;
	int64_t due_ms;
	int failures;             /* in a row, for the backoff */
	int told;                 /* this run of failures was told */
	int gone;                 /* the stream said 410 */
	long error_code;          /* another ERROR event's code */
	struct owners_buf error_message;
	struct owners_http_request req;
	struct owners_watch_stream *decoder;
	struct owners_error decode_err;
};

struct owners_watch {
	struct owners_graph *g;
	struct owners_http_client *c;
	const struct owners_resource_table *types;
	struct owners_watch_options opt;
	struct stream **streams;
	size_t n_streams, cap_streams;
	struct owners_object_status *status;
	size_t n_status;
	struct owners_strset selected;   /* flag 1: in a selector's set now */
	int changed;
	int failed;                      /* out of memory inside a callback */
	int told_connection;             /* a broken connection was said (until events flow again) */
	uint64_t rng;
	struct owners_watch_stats stats;
};

static void warn(struct owners_watch *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn(struct owners_watch *w, const char *fmt, ...)
{
	struct owners_buf line = OWNERS_BUF_INIT;
	va_list ap;

	if (!w->opt.warn)
		return;
	va_start(ap, fmt);
	if (!owners_buf_vaddf(&line, fmt, ap))
		w->opt.warn(w->opt.warn_ctx, line.ptr);
	va_end(ap);
	owners_buf_clear(&line);
}

/* "'pods' in namespace 'shop'", "'nodes'": how a stream is named. */
static int stream_name(struct owners_buf *out, const struct stream *st)
{
	int rc = owners_buf_adds(out, "'");

	if (!rc)
		rc = owners_api_type_name(out, st->r);
	if (!rc)
		rc = st->ns ? owners_buf_addf(out, "' in namespace '%s'", st->ns) : owners_buf_adds(out, "'");
	return rc;
}

/* The status array is as long as its room, every status zeroed until
 * filled: owners_watch_status() hands out all of it. */
static int ensure_status(struct owners_watch *w, size_t n)
{
	size_t old = w->n_status;

	if (OWNERS_GROW(w->status, w->n_status, n))
		return OWNERS_ENOMEM;
	memset(w->status + old, 0, (w->n_status - old) * sizeof(*w->status));
	return 0;
}

static int set_rv(struct stream *st, const char *rv)
{
	char *copy;

	if (!rv || !*rv || (st->rv && !strcmp(st->rv, rv)))
		return 0;
	if (!(copy = owners_strdup(rv)))
		return OWNERS_ENOMEM;
	free(st->rv);
	st->rv = copy;
	return 0;
}

/* The object as it is now, into the graph (and its READY/STATUS). */
static int apply(struct owners_watch *w, struct stream *st,
		 enum owners_watch_stream_event_type type, const struct owners_object_meta *m,
		 const struct owners_json_value *object)
{
	uint32_t node;
	int rc;

	if (st->selector) {
		struct owners_strset_entry *e = owners_strset_add(&w->selected, m->uid, NULL);

		if (!e)
			return OWNERS_ENOMEM;
		e->flag = type != OWNERS_WATCH_DELETED;
		return 0;
	}
	if (type == OWNERS_WATCH_DELETED) {
		node = owners_graph_find_uid(w->g, m->uid);
		if (node != OWNERS_NO_NODE && node < w->n_status)
			owners_object_status_clear(&w->status[node]);
		owners_graph_forget(w->g, m->uid);
		return 0;
	}
	if ((rc = owners_graph_update(w->g, st->r, m)))
		return rc;
	if (!st->full || !object)
		return 0;
	node = owners_graph_find_uid(w->g, m->uid);
	if (node == OWNERS_NO_NODE)
		return 0;
	if ((rc = ensure_status(w, (size_t)node + 1)))
		return rc;
	return owners_object_status_read(&w->status[node], st->r->kind, object);
}

static int on_event(void *ctx, const struct owners_watch_stream_event *e, struct owners_error *err)
{
	struct stream *st = ctx;
	struct owners_watch *w = st->w;
	int rc;

	if (e->type == OWNERS_WATCH_ERROR) {
		/* The server ends the stream after it; what to do next is
		 * decided when it has. */
		if (e->code == 410)
			st->gone = 1;
		else {
			st->error_code = e->code ? e->code : 500;
			owners_buf_reset(&st->error_message);
			if (owners_buf_adds(&st->error_message, e->message))
				return owners_error_oom(err);
		}
		return 0;
	}
	if (e->type != OWNERS_WATCH_BOOKMARK) {
		if ((rc = apply(w, st, e->type, e->meta, e->object)))
			return rc == OWNERS_ENOMEM ? owners_error_oom(err) : rc;
		w->changed = 1;
		w->stats.events++;
		owners_http_wake(w->c);
	}
	st->failures = 0;
	st->told = 0;
	w->told_connection = 0;
	return set_rv(st, e->meta->resource_version) ? owners_error_oom(err) : 0;
}

static int on_data(void *ctx, const char *data, size_t len)
{
	struct stream *st = ctx;

	return owners_watch_stream_feed(st->decoder, data, len, &st->decode_err) ? 1 : 0;
}

static void on_attempt(void *ctx)
{
	struct stream *st = ctx;

	owners_watch_stream_reset(st->decoder);
	owners_error_clear(&st->decode_err);
}

static uint64_t next_random(struct owners_watch *w)
{
	w->rng ^= w->rng << 13;
	w->rng ^= w->rng >> 7;
	w->rng ^= w->rng << 17;
	return w->rng;
}

static void on_done(void *ctx, struct owners_http_request *req);

static int start(struct stream *st)
{
	struct owners_watch *w = st->w;
	struct owners_http_request *r = &st->req;
	unsigned seconds = WATCH_SECONDS_MIN +
			   (unsigned)(next_random(w) % (WATCH_SECONDS_MAX - WATCH_SECONDS_MIN + 1));
	int rc;

	owners_buf_reset(&r->path);
	rc = owners_api_path_collection(&r->path, st->r, st->ns);
	if (!rc)
		rc = owners_buf_addf(&r->path, "?watch=1&allowWatchBookmarks=true&timeoutSeconds=%u&resourceVersion=",
				     seconds);
	if (!rc)
		rc = owners_url_escape(&r->path, st->rv ? st->rv : "");
	if (!rc && st->selector) {
		rc = owners_buf_adds(&r->path, "&labelSelector=");
		if (!rc)
			rc = owners_url_escape(&r->path, st->selector);
	}
	if (rc)
		return rc;
	r->accept = st->full ? "application/json" : META_ACCEPT;
	r->on_data = on_data;
	r->on_attempt = on_attempt;
	r->on_done = on_done;
	r->ctx = st;
	r->long_lived = 1;
	/* A connection that died without a word ends here at the latest. */
	r->timeout_ms = (long)(seconds + 30) * 1000;
	st->gone = 0;
	st->error_code = 0;
	if ((rc = owners_http_submit(w->c, r)))
		return rc;
	st->state = STREAM_RUNNING;
	return 0;
}

static long backoff(struct stream *st)
{
	long ms = OWNERS_WATCH_BACKOFF_MS;
	int i;

	for (i = 1; i < st->failures && ms < OWNERS_WATCH_BACKOFF_MAX_MS; i++)
		ms *= 2;
	return ms < OWNERS_WATCH_BACKOFF_MAX_MS ? ms : OWNERS_WATCH_BACKOFF_MAX_MS;
}

/* A failed watch or list: tried again after a pause, told once a run.
 * A connection that broke breaks every watch on it: that is said once for
 * them all, not once per type. */
static void failed(struct stream *st, const char *why, int connection)
{
	struct owners_watch *w = st->w;
	struct owners_buf name = OWNERS_BUF_INIT;

	st->failures++;
	st->state = STREAM_WAITING;
	st->due_ms = owners_clock_ms() + backoff(st);
	if (connection) {
		if (!w->told_connection)
			warn(w, "lost the connection to the server: %s; resuming the watches when it answers", why);
		w->told_connection = 1;
	} else if (!st->told && !stream_name(&name, st)) {
		warn(w, "cannot watch %s: %s; trying again", name.ptr, why);
	}
	st->told = 1;
	owners_buf_clear(&name);
}

static void on_done(void *ctx, struct owners_http_request *req)
{
	struct stream *st = ctx;
	struct owners_watch *w = st->w;
	struct owners_buf name = OWNERS_BUF_INIT;

	owners_http_wake(w->c);
	if (st->decode_err.code == OWNERS_ENOMEM || req->err.code == OWNERS_ENOMEM) {
		w->failed = OWNERS_ENOMEM;
		st->state = STREAM_WAITING;
		st->due_ms = owners_clock_ms();
		return;
	}
	if (st->gone || req->status == 410) {
		/* Too old to resume: list it again, then watch from there. */
		st->state = STREAM_LIST;
		st->due_ms = owners_clock_ms();
		return;
	}
	if (req->status == 403 || req->status == 405) {
		if (!stream_name(&name, st))
			warn(w, "cannot watch %s: %s; listing it every %d s instead", name.ptr,
			     req->status == 403 ? "forbidden" : "the server does not watch it",
			     OWNERS_WATCH_POLL_MS / 1000);
		owners_buf_clear(&name);
		st->state = STREAM_POLLING;
		st->due_ms = owners_clock_ms() + OWNERS_WATCH_POLL_MS;
		return;
	}
	if (st->decode_err.code) {
		failed(st, owners_error_message(&st->decode_err), 0);
		return;
	}
	if (req->err.code) {
		/* No status: the connection, not this type. */
		failed(st, owners_error_message(&req->err), !req->status);
		return;
	}
	if (st->error_code) {
		failed(st, st->error_message.len ? st->error_message.ptr : "the server ended the watch with an error", 0);
		return;
	}
	/* The server's timeout: resumed at once, unseen. */
	w->stats.resumes++;
	if (start(st)) {
		w->failed = OWNERS_ENOMEM;
		st->state = STREAM_WAITING;
		st->due_ms = owners_clock_ms();
	}
}

/* ---- listing again ---------------------------------------------------- */

struct relist {
	struct stream *st;
	struct owners_strset seen;
	char *rv;
};

static int relist_object(void *ctx, const struct owners_resource *r, const struct owners_object_meta *m)
{
	struct relist *rl = ctx;

	(void)r;
	if (!m->uid || !*m->uid)
		return 0;
	if (!owners_strset_add(&rl->seen, m->uid, NULL))
		return OWNERS_ENOMEM;
	return rl->st->selector ? 0 : owners_graph_update(rl->st->w->g, rl->st->r, m);
}

static int relist_listed(void *ctx, const struct owners_resource *r, const char *ns, const char *rv)
{
	struct relist *rl = ctx;

	(void)r;
	(void)ns;
	free(rl->rv);
	return (rl->rv = owners_strdup(rv)) ? 0 : OWNERS_ENOMEM;
}

/* Whether node n is one of the stream's objects (its type, its namespace). */
static int in_stream(const struct stream *st, const struct owners_node *n)
{
	return !n->virtual_ && n->place->resource && owners_resource_same_type(n->place->resource, st->r) &&
	       (!st->ns || !strcmp(n->place->namespace_, st->ns));
}

/* After a list: what it did not return is gone; the full types' statuses
 * are read again (events were missed). */
static int settle(struct owners_watch *w, struct stream *st, struct relist *rl)
{
	uint32_t *nodes = NULL;
	size_t n = 0, cap = 0, i;
	int rc = 0;

	if (st->selector) {
		for (i = 0; i < w->selected.cap; i++)
			if (w->selected.slots[i].key)
				w->selected.slots[i].flag = owners_strset_get(&rl->seen, w->selected.slots[i].key) != NULL;
		for (i = 0; i < rl->seen.cap; i++) {
			struct owners_strset_entry *e;

			if (!rl->seen.slots[i].key)
				continue;
			if (!(e = owners_strset_add(&w->selected, rl->seen.slots[i].key, NULL)))
				return OWNERS_ENOMEM;
			e->flag = 1;
		}
		return 0;
	}
	for (i = 0; !rc && i < w->g->count; i++) {
		const struct owners_node *node = &w->g->nodes[i];

		if (!in_stream(st, node))
			continue;
		if (!owners_strset_get(&rl->seen, OWNERS_NODE_UID(node))) {
			if ((size_t)i < w->n_status)
				owners_object_status_clear(&w->status[i]);
			owners_graph_forget(w->g, OWNERS_NODE_UID(node));
		} else if (st->full) {
			rc = owners_graph_node_list_push(&nodes, &n, &cap, (uint32_t)i);
		}
	}
	if (!rc && n && !(rc = ensure_status(w, w->g->count))) {
		struct owners_status_fetch_options so = { (long)w->opt.list.page_size, 0, 0, w->opt.list.json_only };
		struct owners_error ignored = OWNERS_ERROR_INIT;

		/* Decoration: a failure leaves "-", as the first tree does. */
		owners_status_fetch(w->status, w->g, &(const struct owners_node_list){ nodes, n }, w->c,
				    &so, &ignored);
		owners_error_clear(&ignored);
	}
	free(nodes);
	return rc;
}

static int relist(struct owners_watch *w, struct stream *st, struct owners_error *err)
{
	struct owners_scan_options o = w->opt.list;
	struct owners_scan_report report;
	struct relist rl;
	int rc;

	memset(&rl, 0, sizeof(rl));
	rl.st = st;
	owners_strset_init(&rl.seen);
	o.namespace_ = st->ns;
	o.cluster_scoped = 1;
	o.only = st->r;
	o.want = NULL;
	o.label_selector = st->selector;
	o.on_object = relist_object;
	o.on_object_ctx = &rl;
	o.on_listed = relist_listed;
	o.on_listed_ctx = &rl;
	rc = owners_scan_run(NULL, w->c, w->types, &o, &report, err);
	w->stats.relists++;
	if (!rc && report.n_failures) {
		if (st->state != STREAM_POLLING)
			failed(st, report.failures[0].message, report.failures[0].code == OWNERS_ENET ||
								     report.failures[0].code == OWNERS_ETIMEOUT);
		else
			st->due_ms = owners_clock_ms() + OWNERS_WATCH_POLL_MS;
	} else if (!rc) {
		rc = settle(w, st, &rl);
		w->changed = 1;
		if (!rc && st->state == STREAM_POLLING)
			st->due_ms = owners_clock_ms() + OWNERS_WATCH_POLL_MS;
		else if (!rc && !(rc = set_rv(st, rl.rv)))
			rc = start(st);
	}
	owners_scan_report_clear(&report);
	owners_strset_clear(&rl.seen);
	free(rl.rv);
	if (rc == OWNERS_ENOMEM)
		owners_error_oom(err);
	return rc;
}

/* ---- the loop's side ------------------------------------------------- */

int owners_watch_service(struct owners_watch *w, struct owners_error *err)
{
	size_t i;
	int rc = 0;

	if (w->failed)
		return owners_error_set(err, w->failed, "out of memory");
	for (i = 0; !rc && i < w->n_streams; i++) {
		struct stream *st = w->streams[i];
		int64_t now = owners_clock_ms();

		if (st->state == STREAM_LIST || (st->state == STREAM_POLLING && st->due_ms <= now))
			rc = relist(w, st, err);
		else if (st->state == STREAM_WAITING && st->due_ms <= now) {
			w->stats.resumes++;
			if ((rc = start(st)))
				owners_error_oom(err);
		}
	}
	return rc;
}

long owners_watch_next_ms(const struct owners_watch *w)
{
	int64_t now = owners_clock_ms(), best = -1;
	size_t i;

	for (i = 0; i < w->n_streams; i++) {
		const struct stream *st = w->streams[i];
		int64_t left;

		if (st->state == STREAM_RUNNING)
			continue;
		left = st->state == STREAM_LIST ? 0 : st->due_ms - now;
		if (left < 0)
			left = 0;
		if (best < 0 || left < best)
			best = left;
	}
	return (long)best;
}

int owners_watch_take_changes(struct owners_watch *w)
{
	if (!w->changed)
		return 0;
	w->changed = 0;
	return owners_graph_link(w->g) ? OWNERS_ENOMEM : 1;
}

struct owners_object_status *owners_watch_status(struct owners_watch *w, size_t *count)
{
	if (ensure_status(w, w->g->count ? w->g->count : 1))
		return NULL;
	*count = w->n_status;
	return w->status;
}

void owners_watch_get_stats(const struct owners_watch *w, struct owners_watch_stats *out)
{
	*out = w->stats;
	out->watches = w->n_streams;
}

static int same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

static struct stream *find(const struct owners_watch *w, const struct owners_resource *r, const char *ns,
			   const char *selector)
{
	size_t i;

	for (i = 0; i < w->n_streams; i++) {
		struct stream *st = w->streams[i];

		if (st->r == r && same(st->ns, ns) && same(st->selector, selector))
			return st;
	}
	return NULL;
}

int owners_watch_selected(const struct owners_watch *w, const char *uid)
{
	const struct owners_strset_entry *e = owners_strset_get(&w->selected, uid);

	return e && e->flag;
}

static void stream_free(struct stream *st)
{
	owners_http_request_clear(&st->req);
	owners_watch_stream_free(st->decoder);
	owners_error_clear(&st->decode_err);
	owners_buf_clear(&st->error_message);
	free(st->ns);
	free(st->selector);
	free(st->rv);
	free(st);
}

int owners_watch_add(struct owners_watch *w, const struct owners_resource *r, const char *ns,
		     const char *resource_version, int full, const char *selector)
{
	struct stream *st;
	int rc;

	if (find(w, r, ns, selector))
		return 0;
	if (OWNERS_GROW(w->streams, w->cap_streams, w->n_streams + 1))
		return OWNERS_ENOMEM;
	if (!(st = calloc(1, sizeof(*st))))
		return OWNERS_ENOMEM;
	st->w = w;
	st->r = r;
	st->full = full && !selector;
	owners_http_request_init(&st->req);
	owners_buf_init(&st->error_message);
	if ((ns && !(st->ns = owners_strdup(ns))) || (selector && !(st->selector = owners_strdup(selector))) ||
	    set_rv(st, resource_version) ||
	    owners_watch_stream_new(&st->decoder, w->opt.list.keep_labels, on_event, st)) {
		stream_free(st);
		return OWNERS_ENOMEM;
	}
	w->streams[w->n_streams++] = st;
	/* A selector's set starts from a list of it; so does a type without
	 * a resourceVersion to start from. */
	if (selector || !st->rv) {
		st->state = STREAM_LIST;
		return 0;
	}
	if ((rc = start(st)))
		st->state = STREAM_LIST;
	return rc;
}

int owners_watch_new(struct owners_watch **out, struct owners_graph *g, struct owners_http_client *c,
		     const struct owners_resource_table *types, const struct owners_watch_options *o)
{
	struct owners_watch *w = calloc(1, sizeof(*w));

	*out = NULL;
	if (!w)
		return OWNERS_ENOMEM;
	w->g = g;
	w->c = c;
	w->types = types;
	w->opt = *o;
	w->rng = (uint64_t)owners_clock_ms() * 0x9e3779b97f4a7c15ULL | 1;
	owners_strset_init(&w->selected);
	*out = w;
	return 0;
}

void owners_watch_free(struct owners_watch *w)
{
	size_t i;

	if (!w)
		return;
	/* Requests still in flight belong to the client: the caller frees
	 * the client first (which ends them) or lets them end. */
	for (i = 0; i < w->n_streams; i++)
		stream_free(w->streams[i]);
	free(w->streams);
	for (i = 0; i < w->n_status; i++)
		owners_object_status_clear(&w->status[i]);
	free(w->status);
	owners_strset_clear(&w->selected);
	free(w);
}
