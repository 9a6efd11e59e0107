#include "watch_stream.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "list_parser.h"

struct owners_watch_stream {
	owners_watch_stream_event_fn fn;
	void *ctx;
	struct owners_buf line;           /* the event being read, up to its newline */
	struct owners_buf object;         /* its object, as a one-item list for the list parser */
	struct owners_list_parser *meta;  /* reads that list's item metadata */
	struct owners_watch_stream_event event; /* the event the metadata belongs to */
	int delivered;                    /* the callback saw the event */
};

static const char *const event_names[] = { "ADDED", "MODIFIED", "DELETED", "BOOKMARK", "ERROR" };

const char *owners_watch_stream_event_name(enum owners_watch_stream_event_type t)
{
	return (size_t)t < sizeof(event_names) / sizeof(event_names[0]) ? event_names[t] : "";
}

static int event_type(const char *name, enum owners_watch_stream_event_type *out)
{
	size_t i;

	for (i = 0; name && i < sizeof(event_names) / sizeof(event_names[0]); i++)
		if (!strcmp(name, event_names[i])) {
			*out = (enum owners_watch_stream_event_type)i;
			return 0;
		}
	return -1;
}

/* The list parser found the item's metadata: the event goes out with it. */
static int on_meta(void *ctx, const struct owners_object_meta *meta, struct owners_error *err)
{
	struct owners_watch_stream *s = ctx;

	s->event.meta = meta;
	s->delivered = 1;
	return s->fn(s->ctx, &s->event, err);
}

static int malformed(struct owners_error *err, const char *what)
{
	return owners_error_set(err, OWNERS_EPROTO, "unexpected watch event: %s", what);
}

/* The object's metadata, read as the list parser reads a list's items:
 * the object is written back as the one item of a list. */
static int read_meta(struct owners_watch_stream *s, struct owners_error *err)
{
	struct owners_json_gen *gen;
	int rc;

	owners_buf_reset(&s->object);
	if (owners_buf_adds(&s->object, "{\"items\":["))
		return owners_error_oom(err);
	if (owners_json_gen_new(&gen, &s->object, 0))
		return owners_error_oom(err);
	rc = owners_json_gen_value(gen, s->event.object);
	owners_json_gen_free(gen);
	if (rc || owners_buf_adds(&s->object, "]}"))
		return rc == OWNERS_EINVAL ? malformed(err, "its object cannot be written back")
					   : owners_error_oom(err);
	owners_list_parser_reset(s->meta);
	s->delivered = 0;
	rc = owners_list_parser_feed(s->meta, s->object.ptr, s->object.len, err);
	if (!rc)
		rc = owners_list_parser_finish(s->meta, err);
	if (rc == OWNERS_EPROTO && !s->delivered) {
		/* The list parser names the place in the list it was given;
		 * the event is what the user can look up. */
		struct owners_buf why = OWNERS_BUF_INIT;

		owners_buf_adds(&why, owners_error_message(err));
		owners_error_clear(err);
		rc = owners_error_set(err, OWNERS_EPROTO, "unexpected watch event: its object's metadata cannot be read (%s)",
				      why.ptr ? why.ptr : "");
		owners_buf_clear(&why);
	}
	if (!rc && !s->delivered)
		rc = malformed(err, "its object has no metadata");
	return rc;
}

/* One whole line: an event. */
static int line_event(struct owners_watch_stream *s, const char *text, size_t len,
		      struct owners_error *err)
{
	struct owners_json_value *v = NULL;
	const struct owners_json_value *object;
	int rc;

	if (!len)
		return 0;
	if ((rc = owners_json_parse(&v, text, len, err)))
		return rc;
	memset(&s->event, 0, sizeof(s->event));
	object = owners_json_get(v, "object");
	if (event_type(owners_json_string(owners_json_get(v, "type")), &s->event.type))
		rc = malformed(err, "no known \"type\"");
	else if (!object || object->type != OWNERS_JSON_OBJECT)
		rc = malformed(err, "its \"object\" is not an object");
	else {
		s->event.object = object;
		if (s->event.type == OWNERS_WATCH_ERROR) {
			const char *m = owners_json_string(owners_json_get(object, "message"));

			s->event.code = (long)owners_json_int(owners_json_get(object, "code"), 0);
			s->event.message = m ? m : "";
			rc = s->fn(s->ctx, &s->event, err);
		} else {
			rc = read_meta(s, err);
		}
	}
	memset(&s->event, 0, sizeof(s->event));
	owners_json_value_free(v);
	return rc;
}

int owners_watch_stream_feed(struct owners_watch_stream *s, const char *data, size_t len,
			     struct owners_error *err)
{
	while (len) {
		const char *nl = memchr(data, '\n', len);
		size_t take = nl ? (size_t)(nl - data) : len;
		int rc;

		if (s->line.len + take > OWNERS_WATCH_EVENT_MAX)
			return malformed(err, "an event larger than any object");
		if (!nl) /* the rest of a line still on its way */
			return owners_buf_add(&s->line, data, take) ? owners_error_oom(err) : 0;
		if (s->line.len) {
			if (owners_buf_add(&s->line, data, take))
				return owners_error_oom(err);
			rc = line_event(s, s->line.ptr, s->line.len, err);
			owners_buf_reset(&s->line);
		} else {
			rc = line_event(s, data, take, err); /* a whole line in this chunk */
		}
		if (rc)
			return rc;
		data += take + 1;
		len -= take + 1;
	}
	return 0;
}

void owners_watch_stream_reset(struct owners_watch_stream *s)
{
	owners_buf_reset(&s->line);
}

int owners_watch_stream_new(struct owners_watch_stream **out, int keep_labels,
			    owners_watch_stream_event_fn fn, void *ctx)
{
	struct owners_watch_stream *s = calloc(1, sizeof(*s));

	*out = NULL;
	if (!s)
		return OWNERS_ENOMEM;
	s->fn = fn;
	s->ctx = ctx;
	owners_buf_init(&s->line);
	owners_buf_init(&s->object);
	if (owners_list_parser_new(&s->meta, keep_labels, on_meta, s)) {
		free(s);
		return OWNERS_ENOMEM;
	}
	*out = s;
	return 0;
}

void owners_watch_stream_free(struct owners_watch_stream *s)
{
	if (!s)
		return;
	owners_buf_clear(&s->line);
	owners_buf_clear(&s->object);
	owners_list_parser_free(s->meta);
	free(s);
}
