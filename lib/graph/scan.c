#include "scan.h"

#include <stdlib.h>
#include <string.h>

#include "api_path.h"
#include "clock.h"
#include "grow.h"
#include "list_parser.h"
#include "list_proto.h"

#define METADATA_ACCEPT_JSON \
	"application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json"
#define METADATA_ACCEPT \
	OWNERS_PROTOBUF_TYPE ";as=PartialObjectMetadataList;g=meta.k8s.io;v=v1," METADATA_ACCEPT_JSON

struct list_job;

/* One page of a list: its request, and the decoder its body goes through
 * (chosen by the Content-Type at its first byte). */
struct list_page {
	struct owners_http_request req;
	struct list_job *job;
	unsigned generation; /* the job's, when this page was asked for */
	enum { PAGE_UNSEEN, PAGE_JSON, PAGE_PROTOBUF } format;
	struct owners_list_parser *parser;
	struct owners_list_proto *proto;
	struct owners_error err; /* why the decoder stopped */
	char *next_asked;        /* the continue token the next page was asked with */
};

/* One type being listed. Its pages follow each other by continue token;
 * a protobuf page names the next in its first bytes (the ListMeta comes
 * before the items), so the next is asked for at once and the server
 * makes it while this one is still on its way. The type is listed when
 * the page without a token and every page before it came back whole. */
struct list_job {
	const struct owners_resource *resource;
	const char *namespace_;
	struct owners_graph *g;
	struct owners_http_client *client;
	struct owners_scan_report *report;
	const struct owners_scan_options *opt;
	struct list_page **pages; /* every page asked for, freed at the end */
	size_t n_pages;
	size_t cap_pages;
	unsigned generation;      /* bumped when the list starts again (410) */
	size_t in_flight;         /* pages of this generation not yet done */
	size_t chain;             /* pages of this generation asked for */
	int last_done;            /* the page without a continue token came back whole */
	int finished;             /* listed or failed: later pages change nothing */
	int restarts;
	int failed;               /* internal failure (out of memory) */
	int64_t started_ms;       /* the first page asked for (owners_clock_ms()) */
	int unanswered;           /* requests of it given up unanswered, every page */
	long unanswered_ms;
	char *resource_version;   /* the list's, from its last page read */
};

int owners_scan_wants(const struct owners_resource *r)
{
	/* Exactly the GC's resource list: one version of each resource it
	 * can list, watch and delete, events left out as the GC leaves them. */
	return r->gc_tracked;
}

static int on_item(void *ctx, const struct owners_object_meta *meta, struct owners_error *err)
{
	struct list_job *job = ctx;
	int rc;

	if (job->opt->tap && (rc = job->opt->tap(job->opt->tap_ctx, job->resource, meta)))
		return rc == OWNERS_ENOMEM ? owners_error_oom(err) : owners_error_set(err, rc, "stopped");
	if (job->opt->on_object) {
		if ((rc = job->opt->on_object(job->opt->on_object_ctx, job->resource, meta)))
			return rc == OWNERS_ENOMEM ? owners_error_oom(err)
						   : owners_error_set(err, rc, "stopped");
		job->report->objects++;
		return 0;
	}
	rc = owners_graph_add(job->g, job->resource, meta);
	if (rc)
		return owners_error_oom(err);
	job->report->objects++;
	return 0;
}

static int submit_page(struct list_job *job, const char *continue_token);

/* The next page, asked for once per page (early from a protobuf page's
 * first bytes, else when the page is done). */
static int ask_next(struct list_page *page, const char *token)
{
	struct list_job *job = page->job;
	int rc;

	if (page->next_asked || page->generation != job->generation || job->finished)
		return 0;
	if (!(page->next_asked = owners_strdup(token)))
		return OWNERS_ENOMEM;
	rc = submit_page(job, token);
	if (rc)
		job->failed = rc;
	return rc;
}

static int on_data(void *ctx, const char *data, size_t len)
{
	struct list_page *page = ctx;
	struct list_job *job = page->job;
	const struct owners_buf *type = &page->req.response_type;
	const char *token;

	if (page->format == PAGE_UNSEEN) {
		page->format = type->len >= strlen(OWNERS_PROTOBUF_TYPE) &&
				       !strncmp(type->ptr, OWNERS_PROTOBUF_TYPE, strlen(OWNERS_PROTOBUF_TYPE))
				       ? PAGE_PROTOBUF : PAGE_JSON;
		if ((page->format == PAGE_PROTOBUF && !page->proto &&
		     owners_list_proto_new(&page->proto, on_item, job)) ||
		    (page->format == PAGE_JSON && !page->parser &&
		     owners_list_parser_new(&page->parser, job->opt->keep_labels, on_item, job)))
			return owners_error_oom(&page->err), 1;
		if (page->proto)
			owners_list_proto_keep_labels(page->proto, job->opt->keep_labels);
	}
	if (page->format == PAGE_JSON)
		return owners_list_parser_feed(page->parser, data, len, &page->err) ? 1 : 0;
	if (owners_list_proto_feed(page->proto, data, len, &page->err))
		return 1;
	token = owners_list_proto_continue_token(page->proto);
	return token && ask_next(page, token) ? (owners_error_oom(&page->err), 1) : 0;
}

/* The page is all there: read what is left of it and say which page is
 * next (*next NULL: this was the last). */
static int page_read(struct list_page *page, char **next)
{
	int rc;

	*next = NULL;
	if (page->format == PAGE_PROTOBUF)
		return owners_list_proto_finish(page->proto, next, &page->err);
	if (page->format == PAGE_UNSEEN) /* no body: no list */
		return owners_error_set(&page->err, OWNERS_EPROTO, "unexpected list response: an empty body");
	if ((rc = owners_list_parser_finish(page->parser, &page->err)))
		return rc;
	if (*owners_list_parser_continue_token(page->parser) &&
	    !(*next = owners_strdup(owners_list_parser_continue_token(page->parser))))
		return owners_error_oom(&page->err);
	return 0;
}

static void on_attempt(void *ctx)
{
	struct list_page *page = ctx;

	/* A retried page starts from its first byte again. Objects from the
	 * broken attempt are already in the graph; adding them again is a
	 * no-op (the graph is keyed by UID). A next page already asked for
	 * stays: the token it was asked with is good whatever became of the
	 * page that named it. */
	if (page->parser)
		owners_list_parser_reset(page->parser);
	if (page->proto)
		owners_list_proto_reset(page->proto);
	page->format = PAGE_UNSEEN;
	owners_error_clear(&page->err);
}

static void on_done(void *ctx, struct owners_http_request *req);

static int submit_page(struct list_job *job, const char *continue_token)
{
	struct list_page *page;
	struct owners_http_request *r;
	int rc;

	if (OWNERS_GROW(job->pages, job->cap_pages, job->n_pages + 1))
		return OWNERS_ENOMEM;
	if (!(page = calloc(1, sizeof(*page))))
		return OWNERS_ENOMEM;
	job->pages[job->n_pages++] = page;
	page->job = job;
	page->generation = job->generation;
	r = &page->req;
	owners_http_request_init(r);
	rc = owners_list_page_path(&r->path,
				   &(const struct owners_list_page){
					   job->resource, job->namespace_,
					   owners_list_page_limit(job->opt->page_size, job->chain),
					   job->opt->label_selector, continue_token });
	if (rc)
		return rc;
	r->accept = job->opt->json_only ? METADATA_ACCEPT_JSON : METADATA_ACCEPT;
	r->receive_buffer = owners_list_page_receive_buffer(continue_token);
	r->on_data = on_data;
	r->on_attempt = on_attempt;
	r->on_done = on_done;
	r->ctx = page;
	job->report->pages++;
	if ((rc = owners_http_submit(job->client, r)))
		return rc;
	job->chain++;
	job->in_flight++;
	return 0;
}

int owners_scan_report_failure(struct owners_scan_report *rep, struct owners_graph *g,
			       const struct owners_scan_failed *failed)
{
	struct owners_scan_failure *f;

	if (OWNERS_GROW(rep->failures, rep->cap_failures, rep->n_failures + 1))
		return OWNERS_ENOMEM;
	if (g && owners_graph_note_listing(g, failed->resource, failed->namespace_, failed->code, failed->message))
		return OWNERS_ENOMEM;
	f = &rep->failures[rep->n_failures];
	f->resource = failed->resource;
	f->code = failed->code;
	f->detail = NULL;
	if (failed->detail && *failed->detail && !(f->detail = owners_strdup(failed->detail)))
		return OWNERS_ENOMEM;
	if (!(f->message = owners_strdup(failed->message))) {
		free(f->detail);
		return OWNERS_ENOMEM;
	}
	rep->n_failures++;
	return 0;
}

static int record_failure(struct list_job *job, int code, const char *reason, const char *detail)
{
	struct owners_buf msg = OWNERS_BUF_INIT, type = OWNERS_BUF_INIT;
	int rc;

	rc = owners_api_type_name(&type, job->resource);
	if (!rc && job->resource->namespaced && job->namespace_)
		rc = owners_buf_addf(&msg, "cannot list '%s' in namespace '%s': %s", type.ptr,
				     job->namespace_, reason);
	else if (!rc)
		rc = owners_buf_addf(&msg, "cannot list '%s': %s", type.ptr, reason);
	owners_buf_clear(&type);
	if (!rc)
		rc = owners_scan_report_failure(job->report, job->opt->on_object ? NULL : job->g,
						&(const struct owners_scan_failed){ job->resource, job->namespace_,
										    code, msg.ptr, detail });
	owners_buf_clear(&msg);
	return rc;
}

/* The reason part of a failed request's message: after the last ": " of
 * what the client recorded, the server's own words otherwise. */
static const char *short_reason(const struct owners_http_request *req)
{
	if (req->status == 403)
		return "forbidden";
	if (req->status == 404)
		return "not found";
	return owners_error_message(&req->err);
}

/* A list whose requests went unanswered for a while says so when it
 * ends, listed or failed. */
static int note_wait(struct list_job *job)
{
	struct owners_scan_wait w;

	if (!job->unanswered)
		return 0;
	w.resource = job->resource;
	w.namespace_ = (char *)job->namespace_;
	w.unanswered = job->unanswered;
	w.waited_ms = job->unanswered_ms;
	w.took_ms = (long)(owners_clock_ms() - job->started_ms);
	return owners_scan_report_wait(job->report, &w);
}

/* Every page of the list came back whole. */
static int listed(struct list_job *job)
{
	int rc;

	job->finished = 1;
	if ((rc = note_wait(job)))
		return rc;
	job->report->types_listed++;
	rc = job->opt->on_object ? 0
				 : owners_graph_note_listing(job->g, job->resource, job->namespace_, 0, NULL);
	if (!rc && job->opt->on_listed)
		rc = job->opt->on_listed(job->opt->on_listed_ctx, job->resource, job->namespace_,
					 job->resource_version ? job->resource_version : "");
	return rc;
}

/* Keeps the list's resourceVersion as a page of it says it (every page
 * of one list carries the same snapshot's). */
static int keep_resource_version(struct list_page *page)
{
	struct list_job *job = page->job;
	const char *rv = page->format == PAGE_PROTOBUF ? owners_list_proto_resource_version(page->proto)
			 : page->parser				  ? owners_list_parser_resource_version(page->parser)
								  : "";

	if (!*rv || (job->resource_version && !strcmp(job->resource_version, rv)))
		return 0;
	free(job->resource_version);
	return (job->resource_version = owners_strdup(rv)) ? 0 : OWNERS_ENOMEM;
}

static int failed(struct list_job *job, int code, const char *reason, const char *detail)
{
	int rc;

	job->finished = 1;
	if ((rc = note_wait(job)))
		return rc;
	return record_failure(job, code, reason, detail);
}

/* The list from its first page again, a new chain: pages of the old one
 * still on their way count for nothing. */
static int start_again(struct list_job *job)
{
	job->restarts++;
	job->report->restarts++;
	job->generation++;
	job->in_flight = 0;
	job->chain = 0;
	job->last_done = 0;
	return submit_page(job, NULL);
}

/* A page came back whole: its next, or the end of the list. */
static int page_done(struct list_page *page)
{
	struct list_job *job = page->job;
	char *next = NULL;
	int rc;

	if ((rc = page_read(page, &next)))
		return rc == OWNERS_ENOMEM ? rc : failed(job, rc, owners_error_message(&page->err), NULL);
	if (page->next_asked && (!next || strcmp(next, page->next_asked)))
		/* The next page was asked for with the token an earlier
		 * attempt of this one began with, and this attempt (retried:
		 * a first page sees a newer snapshot) ends with another or
		 * none: the two snapshots may not meet, so the list starts
		 * again. */
		rc = job->restarts < 3 ? start_again(job) : failed(job, OWNERS_EPROTO, "the list kept changing", NULL);
	else if (!next)
		job->last_done = 1;
	else if (!page->next_asked)
		rc = ask_next(page, next);
	free(next);
	return rc;
}

static void on_done(void *ctx, struct owners_http_request *req)
{
	struct list_page *page = ctx;
	struct list_job *job = page->job;
	int rc = 0;

	/* Time waited for silence counts, whichever page it was. */
	job->unanswered += req->unanswered;
	job->unanswered_ms += req->unanswered_ms;
	/* A page of a list started again counts for nothing. */
	if (page->generation != job->generation)
		return;
	job->in_flight--;
	if (job->failed || job->finished)
		return;
	if (req->status == 410 && job->restarts < 3) {
		/* The continue token expired (the list took longer than the
		 * server keeps its snapshot): start this type again. */
		rc = start_again(job);
	} else if (req->err.code || page->err.code) {
		const struct owners_error *e = page->err.code ? &page->err : &req->err;

		rc = failed(job, e->code ? e->code : OWNERS_EPROTO,
			    page->err.code ? owners_error_message(&page->err) : short_reason(req),
			    page->err.code ? NULL : owners_error_message(&req->err));
	} else if (!(rc = page_done(page)) && job->opt->on_listed) {
		rc = keep_resource_version(page);
	}
	if (!rc && !job->finished && job->last_done && !job->in_flight)
		rc = listed(job);
	/* What decoded the page is no longer needed. */
	owners_list_parser_free(page->parser);
	owners_list_proto_free(page->proto);
	page->parser = NULL;
	page->proto = NULL;
	if (rc)
		job->failed = rc;
}

static void job_clear(struct list_job *job)
{
	size_t i;

	for (i = 0; i < job->n_pages; i++) {
		struct list_page *page = job->pages[i];

		owners_http_request_clear(&page->req);
		owners_list_parser_free(page->parser);
		owners_list_proto_free(page->proto);
		owners_error_clear(&page->err);
		free(page->next_asked);
		free(page);
	}
	free(job->pages);
	free(job->resource_version);
	memset(job, 0, sizeof(*job));
}

static int is_extra(const struct owners_scan_options *o, const struct owners_resource *r)
{
	size_t i;

	for (i = 0; i < o->n_extra; i++)
		if (o->extra[i] == r)
			return 1;
	return 0;
}

int owners_scan_selects(const struct owners_scan_options *o, const struct owners_resource *r)
{
	if (o->only && r != o->only)
		return 0;
	if (!o->only && ((!owners_scan_wants(r) && !is_extra(o, r)) || (!r->namespaced && !o->cluster_scoped)))
		return 0;
	return !o->want || o->want(o->want_ctx, r);
}

int owners_scan_run(struct owners_graph *g, struct owners_http_client *c,
		    const struct owners_resource_table *types, const struct owners_scan_options *o,
		    struct owners_scan_report *report, struct owners_error *err)
{
	struct list_job *jobs = NULL;
	size_t n = 0, i;
	int rc = 0;

	memset(report, 0, sizeof(*report));
	jobs = calloc(types->count ? types->count : 1, sizeof(*jobs));
	if (!jobs)
		return owners_error_oom(err);
	for (i = 0; i < types->count; i++) {
		const struct owners_resource *r = &types->items[i];
		struct list_job *job;

		if (!owners_scan_selects(o, r))
			continue;
		job = &jobs[n++];
		job->resource = r;
		job->namespace_ = r->namespaced ? o->namespace_ : NULL;
		job->g = g;
		job->client = c;
		job->report = report;
		job->opt = o;
		job->started_ms = owners_clock_ms();
		rc = submit_page(job, NULL);
		if (rc)
			goto out;
	}
	rc = owners_http_run(c, err);
	for (i = 0; !rc && i < n; i++)
		if (jobs[i].failed)
			rc = jobs[i].failed;
	if (!rc && !o->on_object)
		rc = owners_graph_link(g);
out:
	for (i = 0; i < n; i++)
		job_clear(&jobs[i]);
	free(jobs);
	if (rc && rc == OWNERS_ENOMEM)
		owners_error_oom(err);
	else if (rc)
		owners_error_set(err, rc, "scan failed");
	return rc;
}

void owners_scan_report_clear(struct owners_scan_report *r)
{
	size_t i;

	for (i = 0; i < r->n_failures; i++) {
		free(r->failures[i].message);
		free(r->failures[i].detail);
	}
	free(r->failures);
	for (i = 0; i < r->n_waits; i++)
		free(r->waits[i].namespace_);
	free(r->waits);
	memset(r, 0, sizeof(*r));
}

int owners_scan_report_wait(struct owners_scan_report *rep, const struct owners_scan_wait *w)
{
	struct owners_scan_wait *to;

	if (OWNERS_GROW(rep->waits, rep->cap_waits, rep->n_waits + 1))
		return OWNERS_ENOMEM;
	to = &rep->waits[rep->n_waits];
	*to = *w;
	to->namespace_ = NULL;
	if (w->namespace_ && !(to->namespace_ = owners_strdup(w->namespace_)))
		return OWNERS_ENOMEM;
	rep->n_waits++;
	return 0;
}

const struct owners_scan_wait *owners_scan_report_find_wait(const struct owners_scan_report *rep,
							    const struct owners_resource *r, const char *ns)
{
	size_t i;

	for (i = 0; i < rep->n_waits; i++)
		if (rep->waits[i].resource == r &&
		    !strcmp(rep->waits[i].namespace_ ? rep->waits[i].namespace_ : "", ns ? ns : ""))
			return &rep->waits[i];
	return NULL;
}

static int by_type_then_message(const void *pa, const void *pb)
{
	const struct owners_scan_failure *a = pa, *b = pb;
	const struct owners_resource *x = a->resource, *y = b->resource;
	int c;

	if (x != y) {
		if (!x || !y)
			return x ? 1 : -1;
		if ((c = strcmp(x->group, y->group)) || (c = strcmp(x->resource, y->resource)) ||
		    (c = strcmp(x->version, y->version)))
			return c;
	}
	if ((c = strcmp(a->message ? a->message : "", b->message ? b->message : "")))
		return c;
	if ((c = strcmp(a->detail ? a->detail : "", b->detail ? b->detail : "")))
		return c;
	return a->code - b->code;
}

static int by_type_then_namespace(const void *pa, const void *pb)
{
	const struct owners_scan_wait *a = pa, *b = pb;
	const struct owners_resource *x = a->resource, *y = b->resource;
	int c;

	if (x != y && ((c = strcmp(x->group, y->group)) || (c = strcmp(x->resource, y->resource)) ||
		       (c = strcmp(x->version, y->version))))
		return c;
	return strcmp(a->namespace_ ? a->namespace_ : "", b->namespace_ ? b->namespace_ : "");
}

void owners_scan_report_sort(struct owners_scan_report *r)
{
	if (r->n_failures > 1)
		qsort(r->failures, r->n_failures, sizeof(*r->failures), by_type_then_message);
	if (r->n_waits > 1)
		qsort(r->waits, r->n_waits, sizeof(*r->waits), by_type_then_namespace);
}
