/*
 * The watch stream decoder (lib/codec/watch_stream.c): one event per line,
 * the same events however the body is split, metadata read as the list
 * parser reads list items, BOOKMARK and ERROR (410) told apart, and what
 * is not an event refused with a message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "tap.h"
#include "watch_stream.h"

struct seen {
	struct owners_buf log;
	int stop_at; /* return an error at this event (0: never) */
	int n;
};

static int on_event(void *ctx, const struct owners_watch_stream_event *e, struct owners_error *err)
{
	struct seen *s = ctx;
	size_t i;

	s->n++;
	owners_buf_adds(&s->log, owners_watch_stream_event_name(e->type));
	if (e->type == OWNERS_WATCH_ERROR) {
		owners_buf_addf(&s->log, " %ld %s;", e->code, e->message);
	} else {
		owners_buf_addf(&s->log, " %s/%s rv=%s", e->meta->namespace_, e->meta->name, e->meta->resource_version);
		for (i = 0; i < e->meta->n_owner_refs; i++)
			owners_buf_addf(&s->log, " owner=%s", e->meta->owner_refs[i].uid);
		if (owners_json_path(e->object, "status", "phase", NULL))
			owners_buf_addf(&s->log, " phase=%s",
					owners_json_string(owners_json_path(e->object, "status", "phase", NULL)));
		owners_buf_adds(&s->log, ";");
	}
	if (s->stop_at && s->n == s->stop_at)
		return owners_error_set(err, OWNERS_EINVAL, "stopped by the test");
	return 0;
}

static const char stream[] =
	"{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"p\","
	"\"namespace\":\"ns\",\"uid\":\"u1\",\"resourceVersion\":\"10\",\"ownerReferences\":[{\"apiVersion\":"
	"\"apps/v1\",\"kind\":\"ReplicaSet\",\"name\":\"rs\",\"uid\":\"u0\",\"controller\":true}]},"
	"\"status\":{\"phase\":\"Pending\"}}}\n"
	"{\"type\":\"MODIFIED\",\"object\":{\"kind\":\"PartialObjectMetadata\",\"apiVersion\":\"meta.k8s.io/v1\","
	"\"metadata\":{\"name\":\"p\",\"namespace\":\"ns\",\"uid\":\"u1\",\"resourceVersion\":\"11\"}}}\n"
	"{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":"
	"{\"resourceVersion\":\"12\",\"annotations\":{\"k8s.io/initial-events-end\":\"true\"}}}}\n"
	"{\"type\":\"DELETED\",\"object\":{\"metadata\":{\"name\":\"p\",\"namespace\":\"ns\",\"uid\":\"u1\","
	"\"resourceVersion\":\"13\"}}}\n"
	"{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\","
	"\"message\":\"too old resource version: 5 (13)\",\"reason\":\"Expired\",\"code\":410}}\n";

static const char expected[] = "ADDED ns/p rv=10 owner=u0 phase=Pending;MODIFIED ns/p rv=11;BOOKMARK /"
			       " rv=12;DELETED ns/p rv=13;ERROR 410 too old resource version: 5 (13);";

static int decode(const char *data, size_t len, size_t step, struct seen *s, struct owners_error *err)
{
	struct owners_watch_stream *w;
	size_t off = 0;
	int rc = 0;

	if (owners_watch_stream_new(&w, 0, on_event, s))
		return OWNERS_ENOMEM;
	while (!rc && off < len) {
		size_t n = step && len - off > step ? step : len - off;

		rc = owners_watch_stream_feed(w, data + off, n, err);
		off += n;
	}
	owners_watch_stream_free(w);
	return rc;
}

int main(void)
{
	size_t step, i;
	int all_same = 1;
	static const char *const bad[] = {
		"{\"type\":\"ADDED\"}\n",
		"{\"type\":\"RENAMED\",\"object\":{}}\n",
		"{\"type\":\"ADDED\",\"object\":[]}\n",
		"{\"type\":\"ADDED\",\"object\":{\"metadata\":\"x\"}}\n",
		"not json\n",
	};

	for (step = 0; step <= sizeof(stream); step += step < 16 ? 1 : 37) {
		struct seen s = { OWNERS_BUF_INIT, 0, 0 };
		struct owners_error err = OWNERS_ERROR_INIT;
		int rc = decode(stream, strlen(stream), step, &s, &err);

		if (rc || strcmp(s.log.ptr ? s.log.ptr : "", expected)) {
			all_same = 0;
			printf("# step %zu: rc %d, %s\n", step, rc, s.log.ptr ? s.log.ptr : "");
		}
		owners_buf_clear(&s.log);
		owners_error_clear(&err);
	}
	ok(all_same, "every event, in order, with its metadata, however the body is split");

	{
		struct seen s = { OWNERS_BUF_INIT, 0, 0 };
		struct owners_error err = OWNERS_ERROR_INIT;
		/* A line on its way is kept for the next chunk, never parsed half. */
		int rc = decode(stream, 40, 0, &s, &err);

		ok(!rc && s.n == 0, "half an event: nothing yet");
		owners_buf_clear(&s.log);
		owners_error_clear(&err);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct seen s = { OWNERS_BUF_INIT, 0, 0 };
		struct owners_error err = OWNERS_ERROR_INIT;
		int rc = decode(bad[i], strlen(bad[i]), 0, &s, &err);

		ok(rc == OWNERS_EPROTO && s.n == 0 && !strncmp(owners_error_message(&err), "unexpected watch event", 22) ==
		   !!strncmp(bad[i], "not json", 8), "refused: %.*s (%s)", (int)strcspn(bad[i], "\n"), bad[i],
		   owners_error_message(&err));
		owners_buf_clear(&s.log);
		owners_error_clear(&err);
	}
	{
		struct seen s = { OWNERS_BUF_INIT, 2, 0 };
		struct owners_error err = OWNERS_ERROR_INIT;
		int rc = decode(stream, strlen(stream), 0, &s, &err);

		ok(rc == OWNERS_EINVAL && s.n == 2 && !strcmp(owners_error_message(&err), "stopped by the test"),
		   "the callback's failure stops the feed with its own error");
		owners_buf_clear(&s.log);
		owners_error_clear(&err);
	}
	{
		struct seen s = { OWNERS_BUF_INIT, 0, 0 };
		struct owners_error err = OWNERS_ERROR_INIT;
		const char empty_lines[] = "\n\n";

		ok(decode(empty_lines, 2, 0, &s, &err) == 0 && s.n == 0, "empty lines are no events");
		owners_buf_clear(&s.log);
		owners_error_clear(&err);
	}
	return tap_done();
}
