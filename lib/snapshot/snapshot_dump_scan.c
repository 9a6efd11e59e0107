#include "snapshot_dump_scan.h"

#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "snapshot_dump_object.h"

static void docinfo_clear(struct owners_snapshot_dump_scan_docinfo *d)
{
	free(d->kind);
	free(d->api_version);
	free(d->resource_version);
	free(d->item_api_version);
	free(d->item_kind);
	free(d->namespace_);
	memset(d, 0, sizeof(*d));
}

void owners_snapshot_dump_scan_clear(struct owners_snapshot_dump_scan *s)
{
	size_t i;

	for (i = 0; i < s->n_docs; i++)
		docinfo_clear(&s->docs[i]);
	free(s->docs);
	docinfo_clear(&s->cur);
	free(s->recognised);
	free(s->namespace_);
	owners_snapshot_dump_types_clear(&s->types);
	memset(s, 0, sizeof(*s));
	owners_snapshot_dump_types_init(&s->types);
}

/* Keeps the first value seen in *slot; a different one later sets *mixed. */
static int one_of(char **slot, int *mixed, const char *value)
{
	if (!*slot)
		return (*slot = owners_strdup(value)) ? 0 : OWNERS_ENOMEM;
	if (strcmp(*slot, value))
		*mixed = 1;
	return 0;
}

/* What the current document's items say of its type and namespace. */
static int note_in_doc(struct owners_snapshot_dump_scan *s, const char *api_version,
		       const char *kind, const char *ns)
{
	struct owners_snapshot_dump_scan_docinfo *d = &s->cur;

	if (!d->item_kind && !(d->item_kind = owners_strdup(kind)))
		return OWNERS_ENOMEM;
	if (!d->item_api_version && !(d->item_api_version = owners_strdup(api_version)))
		return OWNERS_ENOMEM;
	if (strcmp(d->item_kind, kind) || strcmp(d->item_api_version, api_version))
		d->mixed_types = 1;
	return *ns ? one_of(&d->namespace_, &d->mixed_namespaces, ns) : 0;
}

static int scan_item(void *ctx, const struct owners_snapshot_dump_tree_item *it,
		     struct owners_error *err)
{
	struct owners_snapshot_dump_scan *s = ctx;
	const struct owners_snapshot_dump_layout_source *src = &s->layout->sources[s->source];
	struct owners_snapshot_dump_type_note n;
	struct owners_snapshot_dump_object_meta m;
	int rc;

	memset(&n, 0, sizeof(n));
	if (!owners_snapshot_dump_layout_item_type(src, it->api_version, it->kind, &n.api_version,
						   &n.kind))
		return 0; /* no Kubernetes object: passed over */
	owners_snapshot_dump_object_meta_init(&m);
	rc = owners_snapshot_dump_object_meta_read(&m, it->object, err);
	if (rc) {
		owners_snapshot_dump_object_meta_clear(&m);
		if (it->in_list)
			owners_error_prefix(err, "items[%zu]", it->index);
		return rc;
	}
	s->cur_recognised = 1;
	n.plural = owners_snapshot_dump_layout_plural(src, n.api_version);
	n.namespaced = *m.meta.namespace_ != 0;
	n.has_status = owners_json_get(it->object, "status") != NULL;
	n.placed = *m.meta.uid != 0;
	n.flags = (n.placed ? 0 : OWNERS_SNAPSHOT_DUMP_INCOMPLETE) |
		  (it->in_list && src->claim == OWNERS_SNAPSHOT_DUMP_CLAIM_TYPES
			   ? OWNERS_SNAPSHOT_DUMP_IN_LIST
			   : 0);
	rc = owners_snapshot_dump_types_note(&s->types, &n);
	if (!rc && n.placed) {
		s->placed++;
		if (n.namespaced)
			rc = one_of(&s->namespace_, &s->mixed_namespaces, m.meta.namespace_);
		else
			s->cluster_scoped = 1;
		if (!rc)
			rc = note_in_doc(s, n.api_version, n.kind, m.meta.namespace_);
	} else if (!rc) {
		s->unplaced++;
	}
	owners_snapshot_dump_object_meta_clear(&m);
	return rc == OWNERS_ENOMEM ? owners_error_oom(err) : rc;
}

static int scan_document(void *ctx, const struct owners_snapshot_dump_tree_doc *d,
			 struct owners_error *err)
{
	struct owners_snapshot_dump_scan *s = ctx;
	struct owners_snapshot_dump_scan_docinfo *info = &s->cur;

	/* A List says it is one even when it holds nothing. */
	if (d->shape == OWNERS_SNAPSHOT_DUMP_LIST && d->described)
		s->cur_recognised = 1;
	if (s->cur_recognised)
		s->recognised[s->source] = 1;
	s->cur_recognised = 0;
	info->source = s->source;
	info->shape = d->shape;
	if (!(info->kind = owners_strdup(d->kind)) ||
	    !(info->api_version = owners_strdup(d->api_version)) ||
	    !(info->resource_version = owners_strdup(d->resource_version)) ||
	    OWNERS_GROW(s->docs, s->cap_docs, s->n_docs + 1)) {
		docinfo_clear(info);
		return owners_error_oom(err);
	}
	s->docs[s->n_docs++] = *info;
	memset(info, 0, sizeof(*info));
	return 0;
}

int owners_snapshot_dump_scan_run(struct owners_snapshot_dump_scan *s,
				  const struct owners_snapshot_dump_layout *l,
				  struct owners_snapshot_dump_files *fs, struct owners_error *err)
{
	const struct owners_snapshot_dump_tree_sink sink = { scan_item, scan_document, s };
	struct owners_snapshot_dump_file_info info;
	struct owners_snapshot_dump_tree *t;
	int rc = 0;

	memset(s, 0, sizeof(*s));
	owners_snapshot_dump_types_init(&s->types);
	s->layout = l;
	if (!(s->recognised = calloc(l->count ? l->count : 1, 1)) ||
	    owners_snapshot_dump_tree_new(&t, &sink, 1))
		return owners_error_oom(err);
	for (s->source = 0; !rc && s->source < l->count; s->source++) {
		rc = owners_snapshot_dump_file_read(fs, &l->sources[s->source], t, &info, err);
		if (!rc && info.mtime > s->newest_mtime)
			s->newest_mtime = info.mtime;
		s->n_recognised += s->recognised[s->source];
	}
	owners_snapshot_dump_tree_free(t);
	if (!rc && owners_snapshot_dump_types_build(&s->types))
		rc = owners_error_oom(err);
	return rc;
}
