/*
 * The body of a watch (GET ...?watch=1), decoded as it streams: one JSON
 * event per line, {"type": "ADDED", "object": {...}}, as the apiserver
 * frames them. Each event is parsed on its own and handed over with the
 * object's metadata read by the list parser (list_parser.h), so a watch
 * and a list can never read an object differently.
 *
 * Events: ADDED, MODIFIED, DELETED (the object as it was last), BOOKMARK
 * (only a resourceVersion: where to resume) and ERROR (a Status: 410 Gone
 * means the resourceVersion asked for is older than the server keeps).
 *
 * Ownership: everything an event points to is valid only during the
 * callback. Memory is bounded by the largest event (OWNERS_WATCH_EVENT_MAX).
 */
#ifndef OWNERS_WATCH_STREAM_H
#define OWNERS_WATCH_STREAM_H

#include <stddef.h>

#include "owners_error.h"
#include "json.h"
#include "object_meta.h"

/* Larger than anything etcd stores (1.5 MiB per object by default); a
 * line beyond it is a broken stream, not an event. */
#define OWNERS_WATCH_EVENT_MAX (32u << 20)

enum owners_watch_stream_event_type {
	OWNERS_WATCH_ADDED,
	OWNERS_WATCH_MODIFIED,
	OWNERS_WATCH_DELETED,
	OWNERS_WATCH_BOOKMARK,
	OWNERS_WATCH_ERROR,
};

struct owners_watch_stream_event {
	enum owners_watch_stream_event_type type;
	/* The object's metadata (a BOOKMARK's carries its resourceVersion
	 * alone); NULL for ERROR. */
	const struct owners_object_meta *meta;
	/* The event's object whole: a full object, a PartialObjectMetadata
	 * or, for ERROR, a Status. */
	const struct owners_json_value *object;
	long code;           /* ERROR: the Status's code (0 when it has none) */
	const char *message; /* ERROR: the Status's message ("" when none) */
};

/* Returns 0 to go on; anything else stops the feed, which returns it. */
typedef int (*owners_watch_stream_event_fn)(void *ctx, const struct owners_watch_stream_event *e,
					    struct owners_error *err);

struct owners_watch_stream;

/* keep_labels: the metadata carries the object's labels. 0 or OWNERS_ENOMEM. */
int owners_watch_stream_new(struct owners_watch_stream **out, int keep_labels,
			    owners_watch_stream_event_fn fn, void *ctx);
void owners_watch_stream_free(struct owners_watch_stream *s);
/* Feeds the next chunk (split anywhere). 0, OWNERS_EPROTO for an event
 * that is not one (with a message naming it), OWNERS_ENOMEM, or the
 * callback's code. */
int owners_watch_stream_feed(struct owners_watch_stream *s, const char *data, size_t len,
			     struct owners_error *err);
/* Forgets a partial line: for a new watch request. */
void owners_watch_stream_reset(struct owners_watch_stream *s);
/* The name an event type has on the wire ("ADDED", ...). */
const char *owners_watch_stream_event_name(enum owners_watch_stream_event_type t);

#endif
