/*
 * The paging every list of a collection shares: how big each page is,
 * the path that asks for one (limit, label selector, continue token),
 * and, for a reader that waits for its list, every item page after page.
 * The scan, the status lists, a namespace's pods and a snapshot's events
 * all page through here.
 *
 * Ownership: nothing is kept; the client is borrowed.
 */
#ifndef OWNERS_LIST_PAGE_H
#define OWNERS_LIST_PAGE_H

#include <stddef.h>

#include "buf.h"
#include "http.h"
#include "list_items.h"
#include "resource.h"

/* Objects per page of every list, unless told otherwise: 500, kubectl's
 * --chunk-size default (and the apiserver's usual chunk). */
#define OWNERS_DEFAULT_PAGE_SIZE 500
/* Unless a page size is given, a list's later pages grow fourfold up to
 * this: a list of 60,000 pods takes 14 pages, not 120, and on a link
 * each page is a round trip that cannot overlap the next. */
#define OWNERS_GROWN_PAGE_SIZE 5000

/* How much of a page libcurl may hold before handing it on
 * (owners_http_request.receive_buffer): 0, the client's default that
 * keeps most answers whole, for a list's first page; 64 KiB for a later
 * one (thousands of objects, megabytes, which no buffer keeps whole),
 * as every big type's pages are read at once and each buffer fills
 * while others are read (at a million objects, 8 MB of the peak). */
size_t owners_list_page_receive_buffer(const char *continue_token);
/* The limit of a list's page, given how many pages of it came before:
 * page_size when one is given (--chunk-size), else the growing one. */
size_t owners_list_page_limit(size_t page_size, size_t pages_before);

struct owners_list_page {
	const struct owners_resource *resource;
	const char *namespace_;     /* NULL or "": every namespace (or cluster-scoped) */
	size_t limit;               /* objects per page (owners_list_page_limit()) */
	const char *label_selector; /* NULL: every object */
	const char *continue_token; /* NULL or "": the first page */
};

/* Appends the path that asks for page p of its collection. 0, or
 * OWNERS_ENOMEM. */
int owners_list_page_path(struct owners_buf *path, const struct owners_list_page *p);

/* Every item of p's collection (p's limit and continue token ignored),
 * page after page, each handed to on_item as its JSON text as it streams
 * in. page_size: as owners_list_page_limit()'s. 0; the request's code
 * (with err set) when a page could not be read, a continue token that
 * expired (410) included: the items handed stay handed, and the caller
 * decides whether a list read again from its start would hand them
 * twice; OWNERS_EPROTO for a page that is not a list; on_item's code. */
int owners_list_page_read_all(struct owners_http_client *c, const struct owners_list_page *p,
			      size_t page_size, owners_list_item_text_fn on_item, void *ctx,
			      struct owners_error *err);

#endif
