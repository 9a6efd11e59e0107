#include "scan.h"

#include <stdlib.h>
#include <string.h>

#include "api_path.h"
#include "list_parser.h"
#include "list_proto.h"
#include "url.h"

#define METADATA_ACCEPT_JSON \
	"application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json"
#define METADATA_ACCEPT \
	OWNERS_PROTOBUF_TYPE ";as=PartialObjectMetadataList;g=meta.k8s.io;v=v1," METADATA_ACCEPT_JSON

/* One type being listed: its pages are requests issued one after the
 * other (a page's continue token names the next). */
struct list_job {
	const struct owners_resource *resource;
	const char *namespace_;
	struct owners_graph *g;
	struct owners_http_client *client;
	struct owners_scan_report *report;
	struct owners_list_parser *parser;
	const struct owners_scan_options *opt;
	struct owners_http_request **pages; /* every request issued, freed at the end */
	size_t n_pages;
	size_t cap_pages;
	struct owners_http_request *page; /* the one in flight */
	/* The page's format, known from its Content-Type at its first byte;
	 * either decoder reads the body as it arrives. */
	enum { PAGE_UNSEEN, PAGE_JSON, PAGE_PROTOBUF } format;
	struct owners_list_proto *proto;
	struct owners_error err;   /* why the parse stopped */
	int restarts;
	int failed;                /* internal failure (out of memory) */
};

int owners_scan_wants(const struct owners_resource *r)
{
	if (!r->preferred || !owners_resource_is_deletable(r))
		return 0;
	/* Events are numerous, never owners, and the GC ignores them too. */
	if (!strcmp(r->resource, "events") &&
	    (!*r->group || !strcmp(r->group, "events.k8s.io")))
		return 0;
	return 1;
}

static int on_item(void *ctx, const struct owners_object_meta *meta, struct owners_error *err)
{
	struct list_job *job = ctx;
	int rc;

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

static int on_data(void *ctx, const char *data, size_t len)
{
	struct list_job *job = ctx;
	const struct owners_buf *type = &job->page->response_type;

	if (job->format == PAGE_UNSEEN)
		job->format = type->len >= strlen(OWNERS_PROTOBUF_TYPE) &&
				      !strncmp(type->ptr, OWNERS_PROTOBUF_TYPE, strlen(OWNERS_PROTOBUF_TYPE))
				      ? PAGE_PROTOBUF : PAGE_JSON;
	if (job->format == PAGE_PROTOBUF)
		return owners_list_proto_feed(job->proto, data, len, &job->err) ? 1 : 0;
	return owners_list_parser_feed(job->parser, data, len, &job->err) ? 1 : 0;
}

/* The page is all there: read what is left of it and say which page is
 * next (*next NULL: this was the last). */
static int page_read(struct list_job *job, char **next)
{
	int rc;

	*next = NULL;
	if (job->format == PAGE_PROTOBUF) {
		rc = owners_list_proto_finish(job->proto, next, &job->err);
		owners_list_proto_reset(job->proto);
		return rc;
	}
	if ((rc = owners_list_parser_finish(job->parser, &job->err)))
		return rc;
	if (*owners_list_parser_continue_token(job->parser) &&
	    !(*next = owners_strdup(owners_list_parser_continue_token(job->parser))))
		return owners_error_oom(&job->err);
	return 0;
}

static void on_attempt(void *ctx)
{
	struct list_job *job = ctx;

	/* A retried page starts from its first byte again. Objects from the
	 * broken attempt are already in the graph; adding them again is a
	 * no-op (the graph is keyed by UID). */
	owners_list_parser_reset(job->parser);
	owners_list_proto_reset(job->proto);
	job->format = PAGE_UNSEEN;
	owners_error_clear(&job->err);
}

static void on_done(void *ctx, struct owners_http_request *req);

size_t owners_scan_page_limit(size_t page_size, size_t pages_before)
{
	size_t limit = OWNERS_DEFAULT_PAGE_SIZE;

	if (page_size)
		return page_size;
	while (pages_before-- && limit < OWNERS_GROWN_PAGE_SIZE)
		limit *= 4;
	return limit < OWNERS_GROWN_PAGE_SIZE ? limit : OWNERS_GROWN_PAGE_SIZE;
}

static int submit_page(struct list_job *job, const char *continue_token)
{
	struct owners_http_request *r;
	int rc;

	if (job->n_pages == job->cap_pages) {
		size_t cap = job->cap_pages ? job->cap_pages * 2 : 4;
		struct owners_http_request **p = realloc(job->pages, cap * sizeof(*p));

		if (!p)
			return OWNERS_ENOMEM;
		job->pages = p;
		job->cap_pages = cap;
	}
	r = calloc(1, sizeof(*r));
	if (!r)
		return OWNERS_ENOMEM;
	owners_http_request_init(r);
	job->pages[job->n_pages++] = r;
	rc = owners_api_path_collection(&r->path, job->resource, job->namespace_);
	if (!rc)
		rc = owners_buf_addf(&r->path, "?limit=%zu",
				     owners_scan_page_limit(job->opt->page_size, job->n_pages - 1));
	if (!rc && job->opt->label_selector) {
		rc = owners_buf_adds(&r->path, "&labelSelector=");
		if (!rc)
			rc = owners_url_escape(&r->path, job->opt->label_selector);
	}
	if (!rc && continue_token && *continue_token) {
		rc = owners_buf_adds(&r->path, "&continue=");
		if (!rc)
			rc = owners_url_escape(&r->path, continue_token);
	}
	if (rc)
		return rc;
	r->accept = job->opt->json_only ? METADATA_ACCEPT_JSON : METADATA_ACCEPT;
	r->on_data = on_data;
	r->on_attempt = on_attempt;
	r->on_done = on_done;
	r->ctx = job;
	owners_list_parser_reset(job->parser);
	owners_list_proto_reset(job->proto);
	job->format = PAGE_UNSEEN;
	job->page = r;
	job->report->pages++;
	return owners_http_submit(job->client, r);
}

static int record_failure(struct list_job *job, int code, const char *reason)
{
	struct owners_scan_report *rep = job->report;
	struct owners_scan_failure *f;
	struct owners_buf msg = OWNERS_BUF_INIT, type = OWNERS_BUF_INIT;
	int rc;

	f = realloc(rep->failures, (rep->n_failures + 1) * sizeof(*f));
	if (!f)
		return OWNERS_ENOMEM;
	rep->failures = f;
	f = &rep->failures[rep->n_failures];
	rc = owners_api_type_name(&type, job->resource);
	if (!rc && job->resource->namespaced && job->namespace_)
		rc = owners_buf_addf(&msg, "cannot list '%s' in namespace '%s': %s", type.ptr,
				     job->namespace_, reason);
	else if (!rc)
		rc = owners_buf_addf(&msg, "cannot list '%s': %s", type.ptr, reason);
	owners_buf_release(&type);
	if (!rc && !job->opt->on_object)
		rc = owners_graph_note_listing(job->g, job->resource, job->namespace_, code, msg.ptr);
	if (rc) {
		owners_buf_release(&msg);
		return rc;
	}
	f->resource = job->resource;
	f->code = code;
	f->message = owners_buf_detach(&msg);
	rep->n_failures++;
	return 0;
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

static void on_done(void *ctx, struct owners_http_request *req)
{
	struct list_job *job = ctx;
	int rc = 0;

	if (job->failed)
		return;
	if (req->status == 410 && job->restarts < 3) {
		/* The continue token expired (the list took longer than the
		 * server keeps its snapshot): start this type again. */
		job->restarts++;
		job->report->restarts++;
		rc = submit_page(job, NULL);
	} else if (req->err.code || job->err.code) {
		const struct owners_error *e = job->err.code ? &job->err : &req->err;

		rc = record_failure(job, e->code ? e->code : OWNERS_EPROTO,
				    job->err.code ? owners_error_message(&job->err) : short_reason(req));
	} else {
		char *next = NULL;

		if ((rc = page_read(job, &next))) {
			rc = rc == OWNERS_ENOMEM ? rc : record_failure(job, rc, owners_error_message(&job->err));
		} else if (next) {
			rc = submit_page(job, next);
		} else {
			if (!job->opt->on_object)
				rc = owners_graph_note_listing(job->g, job->resource, job->namespace_, 0,
							       NULL);
			job->report->types_listed++;
		}
		free(next);
	}
	if (rc)
		job->failed = rc;
}

static void job_free(struct list_job *job)
{
	size_t i;

	for (i = 0; i < job->n_pages; i++) {
		owners_http_request_release(job->pages[i]);
		free(job->pages[i]);
	}
	free(job->pages);
	owners_list_parser_free(job->parser);
	owners_list_proto_free(job->proto);
	owners_error_clear(&job->err);
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

		if (o->only && r != o->only)
			continue;
		if (!o->only && (!owners_scan_wants(r) || (!r->namespaced && !o->cluster_scoped)))
			continue;
		if (o->want && !o->want(o->want_ctx, r))
			continue;
		job = &jobs[n++];
		job->resource = r;
		job->namespace_ = r->namespaced ? o->namespace_ : NULL;
		job->g = g;
		job->client = c;
		job->report = report;
		job->opt = o;
		rc = owners_list_parser_new(&job->parser, 0, on_item, job);
		if (!rc)
			rc = owners_list_proto_new(&job->proto, on_item, job);
		if (!rc)
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
		job_free(&jobs[i]);
	free(jobs);
	if (rc && rc == OWNERS_ENOMEM)
		owners_error_oom(err);
	else if (rc)
		owners_error_set(err, rc, "scan failed");
	return rc;
}

void owners_scan_report_free(struct owners_scan_report *r)
{
	size_t i;

	for (i = 0; i < r->n_failures; i++)
		free(r->failures[i].message);
	free(r->failures);
	memset(r, 0, sizeof(*r));
}
