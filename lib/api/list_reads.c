#include "list_reads.h"

#include <stdlib.h>
#include <string.h>

/* One list being read: its page in flight, and the items of that page
 * streaming to the caller. */
struct reading {
	struct owners_list_read *read;
	struct owners_http_client *client;
	struct owners_list_items *items;
	struct owners_http_request req;
	size_t page_size;
	size_t pages;            /* asked so far: the next one's limit grows */
	int stopped;             /* what stopped the feed: not a list, or the caller's code */
	struct owners_error feed_err;
};

static int on_data(void *ctx, const char *data, size_t len)
{
	struct reading *r = ctx;

	r->stopped = owners_list_items_feed(r->items, data, len, &r->feed_err);
	return r->stopped ? 1 : 0;
}

static void on_attempt(void *ctx)
{
	struct reading *r = ctx;

	/* a retried page starts from its first byte again */
	owners_list_items_reset(r->items);
	owners_error_clear(&r->feed_err);
	r->stopped = 0;
}

static void on_done(void *ctx, struct owners_http_request *req);

/* Asks for the list's next page (continue_token NULL or "": its first). */
static int ask_page(struct reading *r, const char *continue_token)
{
	struct owners_list_page page = r->read->page;
	int rc;

	owners_http_request_clear(&r->req);
	page.limit = owners_list_page_limit(r->page_size, r->pages++);
	page.continue_token = continue_token;
	if ((rc = owners_list_page_path(&r->req.path, &page)))
		return rc;
	/* the path holds the token: the parser that read it may forget it */
	owners_list_items_reset(r->items);
	owners_error_clear(&r->feed_err);
	r->stopped = 0;
	r->req.method = "GET";
	r->req.receive_buffer = owners_list_page_receive_buffer(continue_token);
	r->req.on_data = on_data;
	r->req.on_attempt = on_attempt;
	r->req.on_done = on_done;
	r->req.ctx = r;
	return owners_http_submit(r->client, &r->req);
}

static void on_done(void *ctx, struct owners_http_request *req)
{
	struct reading *r = ctx;
	struct owners_list_read *read = r->read;
	const char *next;
	int rc;

	/* the page's own words first: a body that is not a list stops the
	 * request, which then fails too */
	if (r->stopped)
		rc = r->feed_err.code ? owners_error_set(&read->err, r->feed_err.code, "%s",
							 owners_error_message(&r->feed_err))
				      : r->stopped;
	else if (req->err.code)
		rc = owners_http_error(&read->err, req, NULL);
	else
		rc = owners_list_items_finish(r->items, &read->err);
	if (!rc && *(next = owners_list_items_continue(r->items)) && (rc = ask_page(r, next)))
		owners_error_oom(&read->err);
	read->rc = rc;
}

int owners_list_reads_run(struct owners_http_client *c, struct owners_list_read *reads, size_t n,
			  size_t page_size, struct owners_error *err)
{
	struct reading *readings = calloc(n ? n : 1, sizeof(*readings));
	int rc = 0;
	size_t i;

	if (!readings)
		return owners_error_oom(err);
	for (i = 0; i < n; i++) {
		struct reading *r = &readings[i];

		reads[i].rc = 0;
		owners_error_clear(&reads[i].err);
		r->read = &reads[i];
		r->client = c;
		r->page_size = page_size;
		owners_http_request_init(&r->req);
		/* a list that cannot start is out of memory; the others go on,
		 * since what is queued must run before its state is freed */
		if ((reads[i].on_tree ? owners_list_items_new_trees(&r->items, reads[i].on_tree,
								       reads[i].leave_out, reads[i].ctx)
				      : owners_list_items_new(&r->items, reads[i].on_item, reads[i].ctx)) ||
		    ask_page(r, NULL))
			reads[i].rc = owners_error_oom(&reads[i].err);
	}
	rc = owners_http_run(c, err);
	for (i = 0; i < n; i++) {
		if (!rc && reads[i].rc == OWNERS_ENOMEM)
			rc = owners_error_oom(err);
		owners_http_request_clear(&readings[i].req);
		owners_list_items_free(readings[i].items);
		owners_error_clear(&readings[i].feed_err);
	}
	free(readings);
	return rc;
}

void owners_list_reads_clear(struct owners_list_read *reads, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		owners_error_clear(&reads[i].err);
}
