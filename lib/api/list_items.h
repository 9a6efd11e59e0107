/*
 * Splits a list response (PodList, ConfigMapList, any "kind: XList") into
 * its items as they stream in: each element of the top-level "items" array
 * is handed over as its own JSON text, to be parsed on its own and dropped.
 * The body is never held whole; memory is bounded by the largest item.
 *
 * What lies outside "items" is only scanned (strings and brackets), except
 * the top-level "metadata", kept for its continue token. The items' JSON is
 * not checked here: whoever parses an item does that.
 *
 * A document that is not an object with an "items" array, or is truncated,
 * fails with OWNERS_EPROTO.
 *
 * Ownership: the item text given to the callback is valid only during the
 * call; the continue token until the next reset or free.
 */
#ifndef OWNERS_LIST_ITEMS_H
#define OWNERS_LIST_ITEMS_H

#include <stddef.h>

#include "json.h"
#include "owners_error.h"

struct owners_list_items;

/* Returns 0 to go on; anything else stops the feed, which returns it. */
typedef int (*owners_list_item_text_fn)(void *ctx, const char *item, size_t len,
					struct owners_error *err);

int owners_list_items_new(struct owners_list_items **out, owners_list_item_text_fn fn, void *ctx);

/* A reader of trees: each item handed as the small tree its events build
 * (json.h), never written out as text and parsed again; the tree is the
 * callback's to read, not to keep (freed once it returns). */
typedef int (*owners_list_item_tree_fn)(void *ctx, const struct owners_json_value *item,
					struct owners_error *err);
/* What a reader of trees leaves out of each item (skipped as read: the
 * biggest parts of most objects, which the readers of uses never look at). */
#define OWNERS_LIST_ITEMS_NO_STATUS (1u << 0)         /* its status */
#define OWNERS_LIST_ITEMS_NO_MANAGED_FIELDS (1u << 1) /* its metadata.managedFields */
int owners_list_items_new_trees(struct owners_list_items **out, owners_list_item_tree_fn fn,
				unsigned leave_out, void *ctx);
void owners_list_items_free(struct owners_list_items *s);
int owners_list_items_feed(struct owners_list_items *s, const char *data, size_t len,
			   struct owners_error *err);
int owners_list_items_finish(struct owners_list_items *s, struct owners_error *err);
/* metadata.continue of the list, "" when there is none (the last page). */
const char *owners_list_items_continue(const struct owners_list_items *s);
/* Forgets the document, keeps the buffers: for the next page or a retry. */
void owners_list_items_reset(struct owners_list_items *s);

#endif
