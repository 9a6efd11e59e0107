/*
 * Several collections read whole at once: every list's pages in flight
 * together on one client (each list's next page asked as its last one
 * ends), each item handed to its list's callback as its JSON text. What
 * owners_list_page_read_all() does for one list, for many, so that reading
 * twenty types whole costs the slowest of them rather than their sum.
 *
 * The items of different lists interleave in the order they arrive:
 * whoever takes them must not depend on that order.
 *
 * Ownership: the caller's array; each read's error is its own (cleared by
 * owners_list_reads_clear()).
 */
#ifndef OWNERS_LIST_READS_H
#define OWNERS_LIST_READS_H

#include <stddef.h>

#include "http.h"
#include "list_items.h"
#include "list_page.h"
#include "owners_error.h"

struct owners_list_read {
	/* set by the caller: the collection (its limit and continue token
	 * are the reader's), and who takes its items */
	struct owners_list_page page;
	owners_list_item_text_fn on_item;
	/* or, when set, each item as the small tree it builds, with what
	 * leave_out names (OWNERS_LIST_ITEMS_*) left out */
	owners_list_item_tree_fn on_tree;
	unsigned leave_out;
	void *ctx;
	/* filled: 0, or what ended the list as owners_list_page_read_all()
	 * returns it (with err set) */
	int rc;
	struct owners_error err;
};

/* Reads every list of reads[0..n) whole, at once. page_size as
 * owners_list_page_limit()'s. Each list's outcome is in its rc and err;
 * the return is non-zero only when the reads could not be made at all
 * (out of memory: OWNERS_ENOMEM, or the client failed), with err set. */
int owners_list_reads_run(struct owners_http_client *c, struct owners_list_read *reads, size_t n,
			  size_t page_size, struct owners_error *err);
/* Frees what the reads hold (their errors). */
void owners_list_reads_clear(struct owners_list_read *reads, size_t n);

#endif
