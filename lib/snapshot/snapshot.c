#include "snapshot.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "file_stream.h"
#include "snapshot_dump.h"
#include "snapshot_dump_archive.h"
#include "snapshot_file.h"

/* The bytes an owners snapshot is recognised by, read before it is. */
#define HEAD_BYTES 4096

struct owners_snapshot_reader {
	char *path, *shown;
	/* a dump (else an owners snapshot file) */
	struct owners_snapshot_dump *dump;
	/* an owners snapshot as opened, its head read: the first read goes
	 * on from there (standard input can be read once); later reads open
	 * the file again */
	struct owners_file_reader *in;
	char head[HEAD_BYTES];
	size_t got;
};

void owners_snapshot_reader_close(struct owners_snapshot_reader *r)
{
	if (!r)
		return;
	owners_snapshot_dump_close(r->dump);
	owners_file_reader_free(r->in);
	free(r->path);
	free(r->shown);
	free(r);
}

/* What the head says path is: an owners snapshot (0, r->in kept), a
 * dump to open as one (1), or neither (an error). */
static int recognise(struct owners_snapshot_reader *r, struct owners_error *err)
{
	const char *what;
	int rc;

	if ((rc = owners_file_reader_open(&r->in, r->path, err)) ||
	    (rc = owners_file_reader_read(r->in, r->head, sizeof(r->head), &r->got, err)))
		return rc;
	if (!r->got)
		return owners_error_set(err, OWNERS_EPROTO, "%s: empty: not a snapshot", r->shown);
	if (owners_snapshot_file_recognise(r->head, r->got))
		return 0;
	if (owners_snapshot_dump_archive_kind((const unsigned char *)r->head, r->got, &what) < 0)
		return owners_error_set(
			err, OWNERS_EPROTO,
			"%s: %s: owners reads a dump as a directory, or as a .tar, .tar.gz or .tgz "
			"archive (unpack it, or pack it as one)",
			r->shown, what);
	if (!strcmp(r->path, "-") &&
	    owners_snapshot_dump_archive_kind((const unsigned char *)r->head, r->got, &what) > 0)
		return owners_error_set(err, OWNERS_EPROTO,
					"standard input: a tar archive: give its file (an archive "
					"is read from a file)");
	if (!strcmp(r->path, "-"))
		return owners_error_set(err, OWNERS_EPROTO,
					"standard input: not an owners snapshot (another tool's "
					"dump is read from a file)");
	owners_file_reader_free(r->in);
	r->in = NULL;
	return 1;
}

int owners_snapshot_reader_open(struct owners_snapshot_reader **out, const char *path,
				const char *shown, const struct owners_snapshot_progress *progress,
				struct owners_error *err)
{
	struct owners_snapshot_reader *r = calloc(1, sizeof(*r));
	struct stat st;
	int rc;

	*out = NULL;
	if (!r || !(r->path = owners_strdup(path)) ||
	    !(r->shown = owners_strdup(shown ? shown : path))) {
		owners_snapshot_reader_close(r);
		return owners_error_oom(err);
	}
	if (strcmp(path, "-") && !stat(path, &st) && S_ISDIR(st.st_mode))
		rc = 1;
	else
		rc = recognise(r, err);
	if (rc == 1)
		rc = owners_snapshot_dump_open(&r->dump, path, progress, err);
	if (rc) {
		owners_snapshot_reader_close(r);
		return rc;
	}
	*out = r;
	return 0;
}

int owners_snapshot_reader_read(struct owners_snapshot_reader *r,
				const struct owners_snapshot_visitor *v,
				struct owners_snapshot_dump_counts *counts,
				struct owners_error *err)
{
	int rc;

	if (counts)
		memset(counts, 0, sizeof(*counts));
	if (r->dump)
		return owners_snapshot_dump_walk(r->dump, v, counts, err);
	if (!r->in && (rc = recognise(r, err)))
		return rc > 0 ? owners_error_set(err, OWNERS_EPROTO,
						 "%s: changed since it was opened", r->shown)
			      : rc;
	rc = owners_snapshot_file_read(r->in, r->shown, r->head, r->got, v, err);
	owners_file_reader_free(r->in);
	r->in = NULL;
	return rc;
}

int owners_snapshot_read(const char *path, const struct owners_snapshot_visitor *v,
			 struct owners_error *err)
{
	return owners_snapshot_read_shown(path, path, v, err);
}

int owners_snapshot_read_shown(const char *path, const char *shown, const struct owners_snapshot_visitor *v,
			       struct owners_error *err)
{
	return owners_snapshot_read_counted(path, shown, v, NULL, err);
}

int owners_snapshot_read_counted(const char *path, const char *shown, const struct owners_snapshot_visitor *v,
				 struct owners_snapshot_dump_counts *counts, struct owners_error *err)
{
	const struct owners_snapshot_progress progress = { v->progress, v->ctx };
	struct owners_snapshot_reader *r;
	int rc;

	if (counts)
		memset(counts, 0, sizeof(*counts));
	if ((rc = owners_snapshot_reader_open(&r, path, shown, &progress, err)))
		return rc;
	rc = owners_snapshot_reader_read(r, v, counts, err);
	owners_snapshot_reader_close(r);
	return rc;
}
