#include "snapshot_dump.h"

#include <stdlib.h>
#include <string.h>

#include "snapshot_dump_claims.h"
#include "snapshot_dump_emit.h"
#include "snapshot_dump_file.h"
#include "snapshot_dump_layout.h"
#include "snapshot_dump_podclaims.h"
#include "snapshot_dump_scan.h"

/* A dump opened: its layout found, its files open and its first pass
 * (the types, what it holds whole) made, once; each walk is the second
 * pass alone. */
struct owners_snapshot_dump {
	char *path;
	struct owners_snapshot_dump_layout layout;
	struct owners_snapshot_dump_files files;
	struct owners_snapshot_dump_scan scan;
	struct owners_snapshot_dump_claims claims;
	uint64_t size; /* every file's, as the meter counts it */
};

/* One walk: what it gathers and counts as it hands the objects out. */
struct run {
	struct owners_snapshot_dump *d;
	struct owners_snapshot_dump_podclaims podclaims;
	struct owners_snapshot_dump_counts counts;
	struct owners_snapshot_dump_tree_meter meter;
};

/* What the first read found is enough to go on with. */
static int check_scan(const struct owners_snapshot_dump *r, struct owners_error *err)
{
	const struct owners_snapshot_dump_scan *s = &r->scan;

	if (!s->n_recognised && r->layout.single_file)
		return owners_error_set(
			err, OWNERS_EPROTO,
			"%s: not a snapshot or a dump owners reads (no Kubernetes List "
			"or object in it: looked for kubectl get -o json|yaml output or "
			"kubectl cluster-info dump's)",
			owners_snapshot_dump_file_name(&r->layout.sources[0]));
	if (!s->n_recognised)
		return owners_error_set(err, OWNERS_EPROTO,
					"%s: not a snapshot or a dump owners reads (read as %s: no "
					"Kubernetes List or object in its %zu files)",
					r->path, r->layout.format, r->layout.count);
	if (!s->placed && s->unplaced)
		return owners_error_set(
			err, OWNERS_EPROTO,
			"%s: none of its %zu objects has a metadata.uid (manifests, not "
			"objects read from a cluster): owners places objects by uid",
			r->path, s->unplaced);
	return 0;
}

static const char *header_namespace(const struct owners_snapshot_dump_scan *s)
{
	return s->mixed_namespaces ? NULL : s->namespace_;
}

static int hand_header(const struct owners_snapshot_dump *r,
		       const struct owners_snapshot_visitor *v)
{
	struct owners_snapshot_header h;
	const struct owners_snapshot_dump_layout *l = &r->layout;

	memset(&h, 0, sizeof(h));
	h.path = r->path;
	h.format = r->claims.cluster_info ? "kubectl cluster-info dump" : l->format;
	h.taken_at = l->taken_at;
	h.taken_at_from = l->taken_at_from;
	if (!h.taken_at && r->files.spool) {
		h.taken_at_from = "unknown: standard input has no time";
	} else if (!h.taken_at) {
		h.taken_at = r->scan.newest_mtime;
		h.taken_at_from = "the newest modification time of the files read";
	}
	h.server = "";
	h.server_version = l->server_version;
	h.namespace_ = header_namespace(&r->scan);
	h.cluster_scoped = r->scan.cluster_scoped;
	h.has_discovery = 0;
	h.has_relations = 1; /* its objects are whole */
	return v->header ? v->header(v->ctx, &h) : 0;
}

static int hand_listed(const struct owners_snapshot_dump *r,
		       const struct owners_snapshot_visitor *v)
{
	struct owners_snapshot_listed rec;
	size_t i;
	int rc = 0;

	for (i = 0; !rc && v->listed && i < r->claims.count; i++) {
		memset(&rec, 0, sizeof(rec));
		rec.type = r->claims.items[i].type;
		rec.namespace_ = r->claims.items[i].namespace_;
		rec.resource_version = r->claims.items[i].resource_version;
		rec.code = 0;
		rec.message = "";
		rc = v->listed(v->ctx, &rec);
	}
	return rc;
}

/* header, types, objects and facts, listed, end. */
static int hand_out(struct run *r, const struct owners_snapshot_visitor *v,
		    struct owners_error *err)
{
	struct owners_snapshot_dump *d = r->d;
	struct owners_snapshot_dump_emit_in in = { v, &d->layout, &d->files, &d->scan.types,
						   &r->podclaims };
	int rc = hand_header(d, v);

	if (!rc && v->types)
		rc = v->types(v->ctx, &d->scan.types.table);
	if (!rc)
		rc = owners_snapshot_dump_emit_run(&r->counts, &in, err);
	if (!rc)
		rc = hand_listed(d, v);
	if (!rc && (rc = owners_snapshot_dump_podclaims_hand(&r->podclaims, &d->claims, v)) ==
			   OWNERS_ENOMEM)
		owners_error_oom(err);
	if (!rc && v->end)
		rc = v->end(v->ctx);
	return rc;
}

void owners_snapshot_dump_close(struct owners_snapshot_dump *d)
{
	if (!d)
		return;
	owners_snapshot_dump_claims_clear(&d->claims);
	owners_snapshot_dump_scan_clear(&d->scan);
	owners_snapshot_dump_files_clear(&d->files);
	owners_snapshot_dump_layout_clear(&d->layout);
	free(d->path);
	free(d);
}

int owners_snapshot_dump_open(struct owners_snapshot_dump **out, const char *path,
			      const struct owners_snapshot_progress *progress,
			      struct owners_error *err)
{
	struct owners_snapshot_dump *d = calloc(1, sizeof(*d));
	struct owners_snapshot_dump_tree_meter meter;
	size_t i;
	int rc;

	*out = NULL;
	if (!d || !(d->path = owners_strdup(path))) {
		free(d);
		return owners_error_oom(err);
	}
	rc = owners_snapshot_dump_layout_find(&d->layout, path, err);
	if (!rc)
		rc = owners_snapshot_dump_files_open(&d->files, &d->layout, err);
	for (i = 0; !rc && i < d->layout.count; i++)
		d->size += owners_snapshot_dump_file_size(&d->files, &d->layout.sources[i]);
	/* the first of the two passes the meter counts */
	memset(&meter, 0, sizeof(meter));
	if (!rc && progress && progress->fn) {
		meter.progress = progress->fn;
		meter.ctx = progress->ctx;
		meter.total = 2 * d->size;
		d->files.meter = &meter;
	}
	if (!rc)
		rc = owners_snapshot_dump_scan_run(&d->scan, &d->layout, &d->files, err);
	d->files.meter = NULL;
	if (!rc)
		rc = check_scan(d, err);
	if (!rc && owners_snapshot_dump_claims_build(&d->claims, &d->scan, &d->layout,
						     header_namespace(&d->scan)))
		rc = owners_error_oom(err);
	if (rc) {
		owners_snapshot_dump_close(d);
		return rc;
	}
	*out = d;
	return 0;
}

int owners_snapshot_dump_walk(struct owners_snapshot_dump *d,
			      const struct owners_snapshot_visitor *v,
			      struct owners_snapshot_dump_counts *counts, struct owners_error *err)
{
	struct run r;
	size_t i;
	int rc;

	memset(&r, 0, sizeof(r));
	r.d = d;
	owners_snapshot_dump_podclaims_init(&r.podclaims);
	/* the second pass: the meter goes on from the first's end */
	if (v->progress) {
		r.meter.progress = v->progress;
		r.meter.ctx = v->ctx;
		r.meter.total = 2 * d->size;
		r.meter.base = d->size;
		d->files.meter = &r.meter;
	}
	rc = hand_out(&r, v, err);
	d->files.meter = NULL;
	r.counts.skipped_files = d->layout.skipped_files;
	for (i = 0; i < d->layout.count && d->scan.recognised; i++)
		r.counts.skipped_files += !d->scan.recognised[i];
	if (counts)
		*counts = r.counts;
	owners_snapshot_dump_podclaims_clear(&r.podclaims);
	return rc == OWNERS_ESTOP ? 0 : rc;
}

int owners_snapshot_dump_read_counted(struct owners_snapshot_dump_counts *counts, const char *path,
				      const struct owners_snapshot_visitor *v,
				      struct owners_error *err)
{
	const struct owners_snapshot_progress progress = { v->progress, v->ctx };
	struct owners_snapshot_dump *d;
	int rc;

	if (counts)
		memset(counts, 0, sizeof(*counts));
	if ((rc = owners_snapshot_dump_open(&d, path, &progress, err)))
		return rc;
	rc = owners_snapshot_dump_walk(d, v, counts, err);
	owners_snapshot_dump_close(d);
	return rc;
}

int owners_snapshot_dump_read(const char *path, const struct owners_snapshot_visitor *v,
			      struct owners_error *err)
{
	return owners_snapshot_dump_read_counted(NULL, path, v, err);
}
