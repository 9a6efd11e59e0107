/*
 * Cuts a stream of concatenated JSON documents (a snapshot, `kubectl get
 * -o json` of several lists, cluster-info dump's output) into its
 * documents without parsing them: each byte goes to on_part as a slice of
 * the document it belongs to, so that a document can be handed to a
 * streaming parser as it arrives and never held whole. Only structure is
 * followed (strings, escapes, nesting): each document is checked by the
 * parser it goes to.
 *
 * Text between documents that is not whitespace is handed to on_junk
 * (cluster-info dump puts container logs there); without on_junk it is
 * an error naming the line.
 */
#ifndef OWNERS_JSON_SPLIT_H
#define OWNERS_JSON_SPLIT_H

#include <stddef.h>

#include "owners_error.h"

struct owners_json_split {
	/* A slice of the current document; last is 1 on the slice that
	 * closes it. Non-zero stops the split and is returned by feed. */
	int (*on_part)(void *ctx, const char *data, size_t len, int last);
	/* Bytes outside any document that are not whitespace (NULL: error). */
	int (*on_junk)(void *ctx, const char *data, size_t len);
	void *ctx;
	/* State: zero it before the first feed. */
	int depth, in_string, escape, junk;
	unsigned long line;      /* lines seen so far (0-based) */
	unsigned long doc_line;  /* where the current document began, 1-based */
};

/* 0, the callback's code, or OWNERS_EPROTO with err. */
int owners_json_split_feed(struct owners_json_split *s, const char *data, size_t len,
			   struct owners_error *err);
/* At the end of the input: a document left open is OWNERS_EPROTO. */
int owners_json_split_finish(struct owners_json_split *s, struct owners_error *err);

#endif
