#include "snapshot_dump_facts.h"

#include <string.h>

#include "api_path.h"
#include "lease.h"
#include "uses_record.h"

static int is(const struct owners_resource *type, const char *group, const char *kind)
{
	return !strcmp(type->group, group) && !strcmp(type->kind, kind);
}

/* Read on its own by the commands that need it (a Namespace or a
 * PersistentVolume in deletion, the controller-manager's liveness). */
static int read_whole(const struct owners_resource *type, const struct owners_object_meta *m)
{
	if (!strcmp(type->version, "v1") &&
	    (is(type, "", "Namespace") || is(type, "", "PersistentVolume")))
		return 1;
	return is(type, "coordination.k8s.io", "Lease") &&
	       !strcmp(m->namespace_, OWNERS_GC_LEASE_NAMESPACE) &&
	       !strcmp(m->name, OWNERS_GC_LEASE_NAME);
}

static int to_json(struct owners_buf *out, const struct owners_json_value *object)
{
	struct owners_json_gen *g;
	int rc;

	if (owners_json_gen_new(&g, out, 0))
		return OWNERS_ENOMEM;
	owners_json_gen_value(g, object);
	rc = owners_json_gen_error(g);
	owners_json_gen_free(g);
	return rc;
}

static int status_fact(const struct owners_snapshot_visitor *v, const struct owners_resource *type,
		       const struct owners_object_meta *m, const struct owners_json_value *object,
		       struct owners_error *err)
{
	struct owners_snapshot_fact f;
	struct owners_object_status st;
	int rc;

	memset(&st, 0, sizeof(st));
	if (owners_object_status_read(&st, type->kind, object)) {
		owners_object_status_clear(&st);
		return owners_error_oom(err);
	}
	memset(&f, 0, sizeof(f));
	f.kind = OWNERS_SNAPSHOT_FACT_STATUS;
	f.uid = m->uid;
	f.status = &st;
	rc = v->fact(v->ctx, &f);
	owners_object_status_clear(&st);
	return rc;
}

/* An Event, or an object read whole: as JSON text. */
static int json_fact(const struct owners_snapshot_visitor *v, const struct owners_resource *type,
		     const struct owners_object_meta *m, const struct owners_json_value *object,
		     enum owners_snapshot_fact_kind kind, struct owners_error *err)
{
	struct owners_buf json = OWNERS_BUF_INIT, path = OWNERS_BUF_INIT;
	struct owners_snapshot_fact f;
	int rc = to_json(&json, object);

	if (!rc && kind == OWNERS_SNAPSHOT_FACT_OBJECT)
		rc = owners_api_path_object(&path, type, type->namespaced ? m->namespace_ : NULL,
					    m->name, NULL);
	if (rc == OWNERS_ENOMEM)
		owners_error_oom(err);
	else if (rc)
		owners_error_set(err, rc, "%s '%s' cannot be written as JSON", type ? type->kind : "Event", m->name);
	if (!rc) {
		memset(&f, 0, sizeof(f));
		f.kind = kind;
		f.uid = m->uid;
		f.path = kind == OWNERS_SNAPSHOT_FACT_OBJECT ? path.ptr : NULL;
		/* an Event is about its involvedObject: keyed by that UID, as
		 * owners snapshot writes it (why looks events up by the object) */
		if (kind == OWNERS_SNAPSHOT_FACT_EVENT)
			f.path = owners_json_string(owners_json_path(object, "involvedObject", "uid", NULL));
		if (kind == OWNERS_SNAPSHOT_FACT_EVENT && (!f.path || !*f.path)) {
			owners_buf_clear(&json);
			return 0; /* about nothing that can be looked up */
		}
		f.json = json.ptr;
		f.json_len = json.len;
		rc = v->fact(v->ctx, &f);
	}
	owners_buf_clear(&json);
	owners_buf_clear(&path);
	return rc;
}

/* What the object uses, as owners snapshot --related records it. */
static int uses_fact(const struct owners_snapshot_visitor *v, const struct owners_object_meta *m,
		     const struct owners_json_value *object, const struct owners_resource *type,
		     struct owners_error *err)
{
	struct owners_buf record = OWNERS_BUF_INIT;
	struct owners_snapshot_fact f;
	int rc = owners_uses_record_of_object(&record, object, type->group, type->kind);

	if (rc < 0)
		rc = owners_error_oom(err);
	else if (rc > 0) {
		memset(&f, 0, sizeof(f));
		f.kind = OWNERS_SNAPSHOT_FACT_USES;
		f.uid = m->uid;
		f.json = record.ptr;
		f.json_len = record.len;
		rc = v->fact(v->ctx, &f);
	}
	owners_buf_clear(&record);
	return rc;
}

int owners_snapshot_dump_facts_event(const struct owners_snapshot_visitor *v, const struct owners_object_meta *m,
				     const struct owners_json_value *object, struct owners_error *err)
{
	return v->fact ? json_fact(v, NULL, m, object, OWNERS_SNAPSHOT_FACT_EVENT, err) : 0;
}

int owners_snapshot_dump_facts_hand(const struct owners_snapshot_visitor *v,
				    const struct owners_resource *type,
				    const struct owners_object_meta *m,
				    const struct owners_json_value *object,
				    struct owners_error *err)
{
	int rc = 0;

	if (!v->fact)
		return 0;
	/* As a live read fetches it: for every object of a type with a status. */
	if (type->has_status)
		rc = status_fact(v, type, m, object, err);
	if (!rc && is(type, "", "Event") && !strcmp(type->version, "v1"))
		rc = json_fact(v, type, m, object, OWNERS_SNAPSHOT_FACT_EVENT, err);
	if (!rc && read_whole(type, m))
		rc = json_fact(v, type, m, object, OWNERS_SNAPSHOT_FACT_OBJECT, err);
	if (!rc && m->uid && *m->uid && owners_uses_record_kind(type->group, type->kind))
		rc = uses_fact(v, m, object, type, err);
	return rc;
}
