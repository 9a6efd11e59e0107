/* libFuzzer target: a dump that arrives as an archive
 * (lib/snapshot/snapshot_dump_archive.c), one input a .tar or .tar.gz file.
 * It is mounted and walked as a directory (every name listed, every file
 * opened and read to its end), then read as a dump the way --from reads
 * it. A failure must say why on one line; a mount must be undone whatever
 * happened (the leak check sees what is left). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "input_file.h"
#include "snapshot_dump.h"
#include "snapshot_dump_archive.h"
#include "snapshot_dump_dir.h"
#include "strv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t walk(const char *dir, int depth)
{
	struct owners_error err = OWNERS_ERROR_INIT;
	struct owners_buf path = OWNERS_BUF_INIT;
	char **names = NULL, buf[4096];
	size_t n = 0, i, bytes = 0;

	if (depth > 8 || owners_snapshot_dump_dir_list(&names, &n, dir, &err)) {
		owners_error_clear(&err);
		return 0;
	}
	for (i = 0; i < n; i++) {
		enum owners_snapshot_dump_dir_entry_kind e;
		int64_t mtime;
		FILE *f;

		if (!*names[i] || strchr(names[i], '/') || owners_snapshot_dump_dir_join(&path, dir, names[i]))
			abort(); /* a listed name is one component */
		e = owners_snapshot_dump_dir_entry(path.ptr);
		if (e == OWNERS_SNAPSHOT_DUMP_DIR) {
			bytes += walk(path.ptr, depth + 1);
		} else if (e == OWNERS_SNAPSHOT_DUMP_FILE && (f = owners_snapshot_dump_dir_open(path.ptr, &mtime))) {
			size_t got;

			while ((got = fread(buf, 1, sizeof(buf), f)) > 0)
				bytes += got;
			fclose(f);
		}
	}
	owners_buf_clear(&path);
	owners_strv_free(names, n);
	return bytes;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	struct owners_error err = OWNERS_ERROR_INIT;
	struct owners_snapshot_visitor none;
	int rc;

	if (!fuzz_input_file(path, sizeof(path), "archive", ".tar", data, size))
		return 0;
	rc = owners_snapshot_dump_archive_mount(path, &err);
	if (!rc) {
		walk(path, 0);
		owners_snapshot_dump_archive_unmount(path);
	} else if (!err.msg.len || strchr(err.msg.ptr, '\n')) {
		abort();
	}
	owners_error_clear(&err);
	memset(&none, 0, sizeof(none));
	rc = owners_snapshot_dump_read(path, &none, &err);
	if (rc && (!err.msg.len || strchr(err.msg.ptr, '\n')))
		abort();
	owners_error_clear(&err);
	unlink(path);
	return 0;
}
