/*
 * The events about one object that explain what the garbage collector did
 * or could not do (OwnerRefInvalidNamespace, and anything its controller
 * reported): one list of core/v1 Events with a field selector on the
 * object's UID, as kubectl describe reads them (in the object's namespace;
 * for a cluster-scoped object in every namespace, since its events are
 * recorded in "default").
 *
 * Ownership: the events own their strings (owners_why_events_clear()).
 */
#ifndef OWNERS_WHY_EVENTS_H
#define OWNERS_WHY_EVENTS_H

#include <stddef.h>
#include <stdint.h>

#include "owners_error.h"
#include "graph.h"
#include "http.h"
#include "json.h"

struct owners_why_event {
	char *type;                 /* Normal, Warning */
	char *reason;
	char *message;
	char *source;               /* source.component, else reportingComponent */
	int64_t count;              /* 1 when the event says nothing */
	int64_t last;               /* lastTimestamp, else eventTime, else creation; 0 unknown */
};

struct owners_why_events {
	struct owners_why_event *items; /* the ones that explain the GC, oldest first */
	size_t count;
	size_t others;              /* the object's other events, counted */
	char *error;                /* the list failed: why (then nothing else is set) */
};

/* Whether an event explains the garbage collector: its reason is one the
 * GC records (OwnerRefInvalidNamespace) or its source is the GC's. */
int owners_why_event_is_gc(const char *reason, const char *source);
/* Reads an EventList as parsed. 0, or OWNERS_ENOMEM. */
int owners_why_events_read(struct owners_why_events *out, const struct owners_json_value *list);
/* GET the events of node n (one list, a field selector on its UID, at
 * most `limit` items). A failed list is recorded in out->error, not
 * returned: returns non-zero only when out of memory. */
int owners_why_events_fetch(struct owners_why_events *out, struct owners_http_client *c,
			    const struct owners_node *n, size_t limit);
void owners_why_events_clear(struct owners_why_events *e);

#endif
