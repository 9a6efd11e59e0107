#include "snapshot_dump.h"

#include <string.h>

#include "snapshot_dump_claims.h"
#include "snapshot_dump_emit.h"
#include "snapshot_dump_file.h"
#include "snapshot_dump_layout.h"
#include "snapshot_dump_podclaims.h"
#include "snapshot_dump_scan.h"

struct run {
	const char *path;
	struct owners_snapshot_dump_layout layout;
	struct owners_snapshot_dump_files files;
	struct owners_snapshot_dump_scan scan;
	struct owners_snapshot_dump_claims claims;
	struct owners_snapshot_dump_podclaims podclaims;
	struct owners_snapshot_dump_counts counts;
	struct owners_snapshot_dump_meter meter;
};

/* What the first read found is enough to go on with. */
static int check_scan(struct run *r, struct owners_error *err)
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

static int hand_header(struct run *r, const struct owners_snapshot_visitor *v)
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
	return v->header ? v->header(v->ctx, &h) : 0;
}

static int hand_listed(struct run *r, const struct owners_snapshot_visitor *v)
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
	struct owners_snapshot_dump_emit_in in = { v, &r->layout, &r->files, &r->scan.types,
						   &r->podclaims };
	int rc = hand_header(r, v);

	if (!rc && v->types)
		rc = v->types(v->ctx, &r->scan.types.table);
	if (!rc)
		rc = owners_snapshot_dump_emit_run(&r->counts, &in, err);
	if (!rc)
		rc = hand_listed(r, v);
	if (!rc && (rc = owners_snapshot_dump_podclaims_hand(&r->podclaims, &r->claims, v)) ==
			   OWNERS_ENOMEM)
		owners_error_oom(err);
	if (!rc && v->end)
		rc = v->end(v->ctx);
	return rc;
}

int owners_snapshot_dump_read_counted(struct owners_snapshot_dump_counts *counts, const char *path,
				      const struct owners_snapshot_visitor *v,
				      struct owners_error *err)
{
	struct run r;
	size_t i;
	int rc;

	memset(&r, 0, sizeof(r));
	r.path = path;
	owners_snapshot_dump_podclaims_init(&r.podclaims);
	rc = owners_snapshot_dump_layout_find(&r.layout, path, err);
	if (!rc)
		rc = owners_snapshot_dump_files_open(&r.files, &r.layout, err);
	if (!rc && v->progress) {
		r.meter.progress = v->progress;
		r.meter.ctx = v->ctx;
		for (i = 0; i < r.layout.count; i++)
			r.meter.total += 2 * owners_snapshot_dump_file_size(&r.files, &r.layout.sources[i]);
		r.files.meter = &r.meter;
	}
	if (!rc)
		rc = owners_snapshot_dump_scan_run(&r.scan, &r.layout, &r.files, err);
	if (!rc)
		rc = check_scan(&r, err);
	if (!rc && owners_snapshot_dump_claims_build(&r.claims, &r.scan, &r.layout,
						     header_namespace(&r.scan)))
		rc = owners_error_oom(err);
	if (!rc)
		rc = hand_out(&r, v, err);
	r.counts.skipped_files = r.layout.skipped_files;
	for (i = 0; i < r.layout.count && r.scan.recognised; i++)
		r.counts.skipped_files += !r.scan.recognised[i];
	if (counts)
		*counts = r.counts;
	owners_snapshot_dump_claims_clear(&r.claims);
	owners_snapshot_dump_podclaims_clear(&r.podclaims);
	owners_snapshot_dump_scan_clear(&r.scan);
	owners_snapshot_dump_files_clear(&r.files);
	owners_snapshot_dump_layout_clear(&r.layout);
	return rc == OWNERS_ESTOP ? 0 : rc;
}

int owners_snapshot_dump_read(const char *path, const struct owners_snapshot_visitor *v,
			      struct owners_error *err)
{
	return owners_snapshot_dump_read_counted(NULL, path, v, err);
}
