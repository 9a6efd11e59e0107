#include "snapshot.h"

#include <string.h>
#include <sys/stat.h>

#include "file_stream.h"
#include "snapshot_dump.h"
#include "snapshot_dump_archive.h"
#include "snapshot_file.h"

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
	char head[4096];
	struct owners_file_reader *in;
	const char *what;
	struct stat st;
	size_t got;
	int rc;

	if (counts)
		memset(counts, 0, sizeof(*counts));
	if (strcmp(path, "-") && !stat(path, &st) && S_ISDIR(st.st_mode))
		return owners_snapshot_dump_read_counted(counts, path, v, err);
	if ((rc = owners_file_reader_open(&in, path, err)))
		return rc;
	if ((rc = owners_file_reader_read(in, head, sizeof(head), &got, err)))
		goto out;
	if (!got)
		rc = owners_error_set(err, OWNERS_EPROTO, "%s: empty: not a snapshot", shown);
	else if (owners_snapshot_file_recognise(head, got))
		rc = owners_snapshot_file_read(in, shown, head, got, v, err);
	else if (owners_snapshot_dump_archive_kind((const unsigned char *)head, got, &what) < 0)
		rc = owners_error_set(err, OWNERS_EPROTO,
				      "%s: %s: owners reads a dump as a directory, or as a .tar, .tar.gz or .tgz "
				      "archive (unpack it, or pack it as one)",
				      shown, what);
	else if (!strcmp(path, "-") && owners_snapshot_dump_archive_kind((const unsigned char *)head, got, &what) > 0)
		rc = owners_error_set(err, OWNERS_EPROTO,
				      "standard input: a tar archive: give its file (an archive is read from a file)");
	else if (!strcmp(path, "-"))
		rc = owners_error_set(err, OWNERS_EPROTO,
				      "standard input: not an owners snapshot (another tool's dump is read from a file)");
	else
		rc = owners_snapshot_dump_read_counted(counts, path, v, err);
out:
	owners_file_reader_free(in);
	return rc;
}
