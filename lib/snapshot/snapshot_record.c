#include "snapshot_record.h"

#include <stdlib.h>
#include <string.h>

#include "lease.h"
#include "list_page.h"
#include "list_reads.h"
#include "uses_record.h"

int owners_snapshot_record_lease(struct owners_snapshot_writer *w, struct owners_http_client *c,
				 struct owners_error *err)
{
	struct owners_buf body = OWNERS_BUF_INIT;
	struct owners_snapshot_fact f = {
		OWNERS_SNAPSHOT_FACT_OBJECT, NULL, NULL, OWNERS_GC_LEASE_PATH, NULL, 0, 0
	};
	int rc = 0;

	if (!owners_lease_fetch(c, OWNERS_GC_LEASE_NAMESPACE, OWNERS_GC_LEASE_NAME, &body,
				&f.read_at) &&
	    body.len) {
		f.json = body.ptr;
		f.json_len = body.len;
		rc = owners_snapshot_write_fact(w, &f, err);
	}
	owners_buf_clear(&body);
	return rc;
}

int owners_snapshot_record_value(struct owners_snapshot_writer *w,
				 enum owners_snapshot_fact_kind kind, const char *key,
				 const struct owners_json_value *v, int64_t read_at,
				 struct owners_error *err)
{
	struct owners_buf text = OWNERS_BUF_INIT;
	struct owners_json_gen *j;
	int rc;

	if (owners_json_gen_new(&j, &text, 0))
		return owners_error_oom(err);
	owners_json_gen_value(j, v);
	rc = owners_json_gen_error(j);
	owners_json_gen_free(j);
	if (!rc) {
		struct owners_snapshot_fact f = {
			kind, NULL, NULL, key, text.ptr, text.len, read_at
		};

		rc = owners_snapshot_write_fact(w, &f, err);
	} else {
		rc = owners_error_oom(err);
	}
	owners_buf_clear(&text);
	return rc;
}

/* The events' recording: the writer, and its failure (kept apart from a
 * list that could not be read, which only ends the recording). */
struct recording {
	struct owners_snapshot_writer *w;
	struct owners_error *err;
	int failed;
};

static int on_event(void *ctx, const char *item, size_t len, struct owners_error *err)
{
	struct recording *r = ctx;
	struct owners_json_value *event = NULL;
	const char *uid;
	int rc;

	(void)err;
	if ((rc = owners_json_parse(&event, item, len, NULL)))
		return rc == OWNERS_ENOMEM ? (r->failed = owners_error_oom(r->err)) : 0;
	uid = owners_json_string(owners_json_path(event, "involvedObject", "uid", NULL));
	if (uid && *uid)
		r->failed = owners_snapshot_record_value(r->w, OWNERS_SNAPSHOT_FACT_EVENT, uid,
							 event, 0, r->err);
	owners_json_value_free(event);
	return r->failed;
}

int owners_snapshot_record_events(struct owners_snapshot_writer *w, struct owners_http_client *c,
				  const struct owners_resource *events, const char *ns,
				  size_t page_size, struct owners_error *err)
{
	struct recording r = { w, err, 0 };
	struct owners_error list_err = OWNERS_ERROR_INIT;
	int rc;

	if (!events)
		return 0;
	rc = owners_list_page_read_all(
		c, &(const struct owners_list_page){ events, ns, 0, NULL, NULL }, page_size,
		on_event, &r, &list_err);
	owners_error_clear(&list_err);
	if (r.failed)
		return r.failed;
	/* a list refused or cut short leaves the events read so far */
	return rc == OWNERS_ENOMEM ? owners_error_oom(err) : 0;
}

/* The objects of the lists read whole: each object's record of uses. */
struct uses_recording {
	struct owners_snapshot_writer *w;
	const struct owners_resource *type;
	struct owners_error *err;
	struct owners_buf *record; /* the lists', one at a time */
	int *failed;               /* the first failure of any list */
};

static int on_whole_object(void *ctx, const struct owners_json_value *object, struct owners_error *err)
{
	struct uses_recording *r = ctx;
	const char *uid = owners_json_string(owners_json_path(object, "metadata", "uid", NULL));
	struct owners_snapshot_fact f;
	int rc;

	(void)err;
	if (*r->failed)
		return *r->failed;
	owners_buf_reset(r->record);
	rc = uid && *uid ? owners_uses_record_of_object(r->record, object, r->type->group,
							r->type->kind)
			 : 0;
	if (rc < 0) {
		*r->failed = owners_error_oom(r->err);
	} else if (rc > 0) {
		memset(&f, 0, sizeof(f));
		f.kind = OWNERS_SNAPSHOT_FACT_USES;
		f.uid = uid;
		f.json = r->record->ptr;
		f.json_len = r->record->len;
		*r->failed = owners_snapshot_write_fact(r->w, &f, r->err);
	}
	return *r->failed;
}

/* The type not read whole: {"group","version","resource","namespace",
 * "code","message"}. */
static int record_not_read(struct owners_snapshot_writer *w, const struct owners_resource *type,
			   const char *ns, const struct owners_error *why, struct owners_error *err)
{
	struct owners_buf text = OWNERS_BUF_INIT;
	struct owners_json_gen *j;
	struct owners_snapshot_fact f;
	int rc;

	if (owners_json_gen_new(&j, &text, 0))
		return owners_error_oom(err);
	owners_json_gen_map_open(j);
	owners_json_gen_kv(j, "group", type->group);
	owners_json_gen_kv(j, "version", type->version);
	owners_json_gen_kv(j, "resource", type->resource);
	if (ns && *ns)
		owners_json_gen_kv(j, "namespace", ns);
	owners_json_gen_kv_int(j, "code", why->code);
	owners_json_gen_kv(j, "message", owners_error_message(why));
	owners_json_gen_map_close(j);
	rc = owners_json_gen_error(j);
	owners_json_gen_free(j);
	if (rc) {
		owners_buf_clear(&text);
		return owners_error_oom(err);
	}
	memset(&f, 0, sizeof(f));
	f.kind = OWNERS_SNAPSHOT_FACT_USES_READ;
	f.json = text.ptr;
	f.json_len = text.len;
	rc = owners_snapshot_write_fact(w, &f, err);
	owners_buf_clear(&text);
	return rc;
}

int owners_snapshot_record_uses(struct owners_snapshot_writer *w, struct owners_http_client *c,
				const struct owners_snapshot_record_list *lists, size_t n,
				size_t page_size, struct owners_error *err)
{
	struct owners_list_read *reads = calloc(n ? n : 1, sizeof(*reads));
	struct uses_recording *ctx = calloc(n ? n : 1, sizeof(*ctx));
	struct owners_buf record = OWNERS_BUF_INIT;
	int failed = 0, rc;
	size_t i;

	if (!reads || !ctx) {
		free(reads);
		free(ctx);
		return owners_error_oom(err);
	}
	for (i = 0; i < n; i++) {
		ctx[i] = (struct uses_recording){ w, lists[i].type, err, &record, &failed };
		reads[i].page.resource = lists[i].type;
		reads[i].page.namespace_ = lists[i].namespace_;
		reads[i].on_tree = on_whole_object;
		reads[i].leave_out = OWNERS_USES_UNREAD_PARTS;
		reads[i].ctx = &ctx[i];
	}
	rc = owners_list_reads_run(c, reads, n, page_size, err);
	if (!failed && rc)
		failed = rc;
	/* what could not be read, in the lists' order */
	for (i = 0; !failed && i < n; i++)
		if (reads[i].rc)
			failed = record_not_read(w, lists[i].type, lists[i].namespace_, &reads[i].err,
						 err);
	owners_list_reads_clear(reads, n);
	owners_buf_clear(&record);
	free(reads);
	free(ctx);
	return failed;
}
