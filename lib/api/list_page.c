#include "list_page.h"

#include <stdlib.h>

#include "api_path.h"
#include "url.h"

size_t owners_list_page_limit(size_t page_size, size_t pages_before)
{
	size_t limit = OWNERS_DEFAULT_PAGE_SIZE;

	if (page_size)
		return page_size;
	while (pages_before-- && limit < OWNERS_GROWN_PAGE_SIZE)
		limit *= 4;
	return limit < OWNERS_GROWN_PAGE_SIZE ? limit : OWNERS_GROWN_PAGE_SIZE;
}

int owners_list_page_path(struct owners_buf *path, const struct owners_list_page *p)
{
	int rc = owners_api_path_collection(path, p->resource, p->namespace_);

	if (!rc)
		rc = owners_buf_addf(path, "?limit=%zu", p->limit);
	if (!rc && p->label_selector)
		rc = owners_url_add_query(path, "labelSelector", p->label_selector);
	if (!rc && p->continue_token && *p->continue_token)
		rc = owners_url_add_query(path, "continue", p->continue_token);
	return rc;
}

/* The page being read: its items streamed to the caller. */
struct page_read {
	struct owners_list_items *items;
	int stopped;             /* what stopped the feed: not a list, or the caller's code */
	struct owners_error err; /* its words, when it has some */
};

static int on_data(void *ctx, const char *data, size_t len)
{
	struct page_read *r = ctx;

	r->stopped = owners_list_items_feed(r->items, data, len, &r->err);
	return r->stopped ? 1 : 0;
}

static void on_attempt(void *ctx)
{
	struct page_read *r = ctx;

	/* a retried page starts from its first byte again */
	owners_list_items_reset(r->items);
	owners_error_clear(&r->err);
	r->stopped = 0;
}

/* One page at path: its items handed on; *next: the continue token of
 * the page ("" for the last; the caller's to free). */
static int read_page(struct owners_http_client *c, struct page_read *r,
		     const struct owners_buf *path, char **next, struct owners_error *err)
{
	struct owners_http_request req;
	int rc;

	*next = NULL;
	owners_http_request_init(&req);
	req.method = "GET";
	req.on_data = on_data;
	req.on_attempt = on_attempt;
	req.ctx = r;
	owners_list_items_reset(r->items);
	owners_error_clear(&r->err);
	r->stopped = 0;
	rc = owners_buf_adds(&req.path, path->ptr) ? owners_error_oom(err) : 0;
	if (!rc)
		owners_http_do(c, &req);
	/* the page's own words first: a body that is not a list stops the
	 * request, which then fails too */
	if (!rc && r->stopped)
		rc = r->err.code ? owners_error_set(err, r->err.code, "%s",
						    owners_error_message(&r->err))
				 : r->stopped;
	else if (!rc && req.err.code)
		rc = owners_http_error(err, &req, NULL);
	if (!rc && !(rc = owners_list_items_finish(r->items, err)) &&
	    !(*next = owners_strdup(owners_list_items_continue(r->items))))
		rc = owners_error_oom(err);
	owners_http_request_clear(&req);
	return rc;
}

int owners_list_page_read_all(struct owners_http_client *c, const struct owners_list_page *p,
			      size_t page_size, owners_list_item_text_fn on_item, void *ctx,
			      struct owners_error *err)
{
	struct page_read r = { NULL, 0, OWNERS_ERROR_INIT };
	struct owners_list_page page = *p;
	struct owners_buf path = OWNERS_BUF_INIT;
	char *token = NULL, *next = NULL;
	size_t pages = 0;
	int rc = 0;

	if (owners_list_items_new(&r.items, on_item, ctx))
		return owners_error_oom(err);
	for (;;) {
		owners_buf_reset(&path);
		page.limit = owners_list_page_limit(page_size, pages++);
		page.continue_token = token;
		rc = owners_list_page_path(&path, &page) ? owners_error_oom(err)
							 : read_page(c, &r, &path, &next, err);
		free(token);
		token = next;
		next = NULL;
		if (rc || !token || !*token)
			break;
	}
	free(token);
	owners_buf_clear(&path);
	owners_error_clear(&r.err);
	owners_list_items_free(r.items);
	return rc;
}
