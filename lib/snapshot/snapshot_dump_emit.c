#include "snapshot_dump_emit.h"

#include <string.h>

#include "snapshot_dump_facts.h"
#include "snapshot_dump_object.h"
#include "strset.h"

struct emit {
	struct owners_snapshot_dump_counts *counts;
	const struct owners_snapshot_visitor *v;
	const struct owners_snapshot_dump_layout_source *src;
	const struct owners_snapshot_dump_types *types;
	struct owners_snapshot_dump_podclaims *podclaims;
	struct owners_snapshot_dump_object_meta meta;
	struct owners_strset uids; /* handed out */
};

/* The object has a uid not handed out before. */
static int first_time(struct emit *e, const char *uid, int *fresh)
{
	size_t before = e->uids.count;

	if (!owners_strset_add(&e->uids, uid, NULL))
		return OWNERS_ENOMEM;
	*fresh = e->uids.count > before;
	return 0;
}

static int hand(struct emit *e, const struct owners_snapshot_dump_tree_item *it,
		const struct owners_resource *type, struct owners_error *err)
{
	int rc = e->v->object ? e->v->object(e->v->ctx, type, &e->meta.meta) : 0;

	if (!rc)
		rc = owners_snapshot_dump_facts_hand(e->v, type, &e->meta.meta, it->object, err);
	if (!rc &&
	    owners_snapshot_dump_podclaims_note(e->podclaims, type, &e->meta.meta, it->object))
		rc = owners_error_oom(err);
	if (!rc)
		e->counts->objects++;
	return rc;
}

static int emit_item(void *ctx, const struct owners_snapshot_dump_tree_item *it,
		     struct owners_error *err)
{
	struct emit *e = ctx;
	const struct owners_resource *type;
	const char *api_version, *kind;
	int rc, fresh = 0;

	if (!owners_snapshot_dump_layout_item_type(e->src, it->api_version, it->kind, &api_version,
						   &kind)) {
		e->counts->not_objects++;
		return 0;
	}
	if ((rc = owners_snapshot_dump_object_meta_read(&e->meta, it->object, err))) {
		if (it->in_list)
			owners_error_prefix(err, "items[%zu]", it->index);
		return rc;
	}
	if (!*e->meta.meta.uid) {
		e->counts->without_uid++;
		return 0;
	}
	if (first_time(e, e->meta.meta.uid, &fresh))
		return owners_error_oom(err);
	if (!fresh) {
		e->counts->duplicates++;
		/* one Event is listed twice, as core/v1 and as events.k8s.io
		 * (kubectl get of every type): the object is kept once, but
		 * the core one still says what why shows, whichever came first */
		return !strcmp(api_version, "v1") && !strcmp(kind, "Event")
			       ? owners_snapshot_dump_facts_event(e->v, &e->meta.meta, it->object, err)
			       : 0;
	}
	if (!(type = owners_snapshot_dump_types_find(e->types, api_version, kind)))
		return owners_error_set(err, OWNERS_EPROTO,
					"%s '%s' of %s is new: the file changed while it was read",
					kind, e->meta.meta.name, api_version);
	return hand(e, it, type, err);
}

static int emit_document(void *ctx, const struct owners_snapshot_dump_tree_doc *d,
			 struct owners_error *err)
{
	struct emit *e = ctx;

	(void)err;
	if (d->shape == OWNERS_SNAPSHOT_DUMP_OTHER)
		e->counts->not_objects++;
	e->counts->not_objects += d->others;
	return 0;
}

int owners_snapshot_dump_emit_run(struct owners_snapshot_dump_counts *counts,
				  const struct owners_snapshot_dump_emit_in *in,
				  struct owners_error *err)
{
	struct emit e;
	const struct owners_snapshot_dump_tree_sink sink = { emit_item, emit_document, &e };
	struct owners_snapshot_dump_tree *t;
	size_t i;
	int rc = 0;

	memset(&e, 0, sizeof(e));
	e.counts = counts;
	e.v = in->v;
	e.types = in->types;
	e.podclaims = in->podclaims;
	owners_snapshot_dump_object_meta_init(&e.meta);
	owners_strset_init(&e.uids);
	if (owners_snapshot_dump_tree_new(&t, &sink, 0))
		return owners_error_oom(err);
	for (i = 0; !rc && i < in->layout->count; i++) {
		e.src = &in->layout->sources[i];
		rc = owners_snapshot_dump_file_read(in->files, e.src, t, NULL, err);
		counts->files++;
	}
	owners_snapshot_dump_tree_free(t);
	owners_snapshot_dump_object_meta_clear(&e.meta);
	owners_strset_clear(&e.uids);
	return rc;
}
