#include "list_page.h"

#include <string.h>

#include "api_path.h"
#include "list_reads.h"
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

size_t owners_list_page_receive_buffer(const char *continue_token)
{
	return continue_token && *continue_token ? 64 * 1024 : 0;
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

int owners_list_page_read_all(struct owners_http_client *c, const struct owners_list_page *p,
			      size_t page_size, owners_list_item_text_fn on_item, void *ctx,
			      struct owners_error *err)
{
	/* one list of the reader of many (list_reads.h), waited for */
	struct owners_list_read read;
	int rc;

	memset(&read, 0, sizeof(read));
	read.page = *p;
	read.on_item = on_item;
	read.ctx = ctx;
	rc = owners_list_reads_run(c, &read, 1, page_size, err);
	if (!rc && (rc = read.rc))
		owners_error_set(err, rc, "%s", owners_error_message(&read.err));
	owners_list_reads_clear(&read, 1);
	return rc;
}
