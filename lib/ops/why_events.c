#include "why_events.h"

#include <stdlib.h>
#include <string.h>

#include "timeutil.h"
#include "url.h"

int owners_why_event_is_gc(const char *reason, const char *source)
{
	return (reason && !strcmp(reason, "OwnerRefInvalidNamespace")) ||
	       (source && strstr(source, "garbage-collector"));
}

static char *dup_or_empty(const char *s)
{
	return owners_strdup(s ? s : "");
}

static int64_t when(const struct owners_json_value *e)
{
	const char *keys[] = { "lastTimestamp", "eventTime", NULL };
	const char *t;
	int64_t v = 0;
	size_t i;

	for (i = 0; keys[i]; i++)
		if ((t = owners_json_string(owners_json_get(e, keys[i]))) && *t &&
		    !owners_time_parse_rfc3339(&v, t))
			return v;
	t = owners_json_string(owners_json_path(e, "metadata", "creationTimestamp", NULL));
	if (t && !owners_time_parse_rfc3339(&v, t))
		return v;
	return 0;
}

/* Oldest first; events of one second by what they say, so that no two
 * that print differently tie (the list's own order is the server's). */
static int by_time(const void *a, const void *b)
{
	const struct owners_why_event *x = a, *y = b;
	int c;

	if (x->last != y->last)
		return (x->last > y->last) - (x->last < y->last);
	if ((c = strcmp(x->reason, y->reason)) || (c = strcmp(x->message, y->message)) ||
	    (c = strcmp(x->source, y->source)) || (c = strcmp(x->type, y->type)))
		return c;
	return (x->count > y->count) - (x->count < y->count);
}

int owners_why_events_read(struct owners_why_events *out, const struct owners_json_value *list)
{
	const struct owners_json_value *items = owners_json_get(list, "items");
	size_t i;

	if (!items || items->type != OWNERS_JSON_ARRAY || !items->count)
		return 0;
	if (!(out->items = calloc(items->count, sizeof(*out->items))))
		return OWNERS_ENOMEM;
	for (i = 0; i < items->count; i++) {
		const struct owners_json_value *e = items->items[i];
		const char *reason = owners_json_string(owners_json_get(e, "reason"));
		const char *source = owners_json_string(owners_json_path(e, "source", "component", NULL));
		struct owners_why_event *ev;

		if (!source || !*source)
			source = owners_json_string(owners_json_get(e, "reportingComponent"));
		if (!owners_why_event_is_gc(reason, source)) {
			out->others++;
			continue;
		}
		ev = &out->items[out->count++];
		ev->type = dup_or_empty(owners_json_string(owners_json_get(e, "type")));
		ev->reason = dup_or_empty(reason);
		ev->message = dup_or_empty(owners_json_string(owners_json_get(e, "message")));
		ev->source = dup_or_empty(source);
		ev->count = owners_json_int(owners_json_get(e, "count"), 1);
		if (ev->count < 1)
			ev->count = 1;
		ev->last = when(e);
		if (!ev->type || !ev->reason || !ev->message || !ev->source)
			return OWNERS_ENOMEM;
	}
	if (out->count > 1)
		qsort(out->items, out->count, sizeof(*out->items), by_time);
	return 0;
}

int owners_why_events_fetch(struct owners_why_events *out, struct owners_http_client *c,
			    const struct owners_node *n, size_t limit)
{
	struct owners_http_request req;
	struct owners_json_value *doc = NULL;
	struct owners_error err = OWNERS_ERROR_INIT;
	struct owners_buf selector = OWNERS_BUF_INIT;
	int rc;

	memset(out, 0, sizeof(*out));
	owners_http_request_init(&req);
	rc = *n->place->namespace_ ? owners_buf_adds(&req.path, "/api/v1/namespaces/") : 0;
	if (!rc && *n->place->namespace_)
		rc = owners_url_escape(&req.path, n->place->namespace_);
	if (!rc)
		rc = owners_buf_addf(&req.path, "%sevents?limit=%zu", *n->place->namespace_ ? "/" : "/api/v1/",
				     limit ? limit : 100);
	if (!rc)
		rc = owners_buf_addf(&selector, "involvedObject.uid=%s", OWNERS_NODE_UID(n));
	if (!rc)
		rc = owners_url_add_query(&req.path, "fieldSelector", selector.ptr);
	owners_buf_clear(&selector);
	if (rc) {
		owners_http_request_clear(&req);
		return OWNERS_ENOMEM;
	}
	if (owners_http_do(c, &req)) {
		owners_http_error(&err, &req, "cannot list the events of the object");
		out->error = owners_strdup(owners_error_message(&err));
		owners_error_clear(&err);
		owners_http_request_clear(&req);
		return out->error ? 0 : OWNERS_ENOMEM;
	}
	if (owners_json_parse(&doc, req.response.ptr ? req.response.ptr : "", req.response.len, &err)) {
		rc = err.code == OWNERS_ENOMEM ? OWNERS_ENOMEM : 0;
		if (!rc && !(out->error = owners_strdup("the events list could not be parsed")))
			rc = OWNERS_ENOMEM;
		owners_error_clear(&err);
		owners_http_request_clear(&req);
		return rc;
	}
	rc = owners_why_events_read(out, doc);
	owners_json_value_free(doc);
	owners_http_request_clear(&req);
	return rc;
}

void owners_why_events_clear(struct owners_why_events *e)
{
	size_t i;

	if (!e)
		return;
	for (i = 0; i < e->count; i++) {
		free(e->items[i].type);
		free(e->items[i].reason);
		free(e->items[i].message);
		free(e->items[i].source);
	}
	free(e->items);
	free(e->error);
	memset(e, 0, sizeof(*e));
}
