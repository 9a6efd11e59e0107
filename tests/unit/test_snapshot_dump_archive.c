/* An archive read in place of a dump's directory (lib/snapshot/snapshot_dump_archive.c):
 * what the first bytes say, and a tar.gz written here with libarchive read
 * back through the directory functions every layout uses. */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "snapshot_dump_archive.h"
#include "snapshot_dump_dir.h"
#include "strv.h"
#include "tap.h"

static void add(struct archive *a, const char *path, unsigned type, const char *data, size_t len,
		const char *link)
{
	struct archive_entry *e = archive_entry_new();

	archive_entry_set_pathname(e, path);
	archive_entry_set_filetype(e, type);
	archive_entry_set_perm(e, type == AE_IFDIR ? 0755 : 0644);
	archive_entry_set_mtime(e, 1700000000, 0);
	if (link)
		archive_entry_set_symlink(e, link);
	archive_entry_set_size(e, type == AE_IFREG ? (la_int64_t)len : 0);
	archive_write_header(a, e);
	if (type == AE_IFREG && len)
		archive_write_data(a, data, len);
	archive_entry_free(e);
}

static char *slurp(FILE *f)
{
	static char buf[256];
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;

	buf[n] = 0;
	if (f)
		fclose(f);
	return buf;
}

int main(void)
{
	unsigned char head[512];
	struct owners_error err = OWNERS_ERROR_INIT;
	enum owners_snapshot_dump_dir_entry_kind e;
	char path[64], **names = NULL, *big;
	const char *what;
	size_t n = 0;
	int64_t mtime = 0;
	struct archive *a;
	FILE *f;

	/* ---- the first bytes ---- */
	memset(head, 0, sizeof(head));
	memcpy(head + 257, "ustar", 5);
	is_int(owners_snapshot_dump_archive_kind(head, sizeof(head), &what), 1, "ustar at 257: a tar archive");
	is_int(owners_snapshot_dump_archive_kind(head, 261, &what), 0, "too short to say: not one");
	memcpy(head, "PK\003\004", 4);
	memset(head + 257, 0, 5);
	is_int(owners_snapshot_dump_archive_kind(head, sizeof(head), &what), -1, "PK: another archive");
	is_str(what, "a zip archive", "  named");
	memcpy(head, "\3757zXZ", 5);
	owners_snapshot_dump_archive_kind(head, sizeof(head), &what);
	is_str(what, "an xz-compressed file", "xz named");
	memcpy(head, "{\"kind\"", 7);
	is_int(owners_snapshot_dump_archive_kind(head, 7, &what), 0, "JSON: neither");

	/* ---- a tar.gz with a dump's directory in it ---- */
	snprintf(path, sizeof(path), "/tmp/owners-test-archive.%ld.tgz", (long)getpid());
	a = archive_write_new();
	archive_write_add_filter_gzip(a);
	archive_write_set_format_pax_restricted(a);
	ok(archive_write_open_filename(a, path) == ARCHIVE_OK, "written: %s", path);
	add(a, "./dump/", AE_IFDIR, NULL, 0, NULL);
	add(a, "./dump/a.json", AE_IFREG, "{\"a\": 1}", 8, NULL);
	add(a, "dump/sub/b.yaml", AE_IFREG, "b: 2\n", 5, NULL);
	add(a, "dump/c.yaml", AE_IFLNK, NULL, 0, "a.json");
	add(a, "dump/out.yaml", AE_IFLNK, NULL, 0, "../../etc/passwd");
	add(a, "dump/empty.json", AE_IFREG, "", 0, NULL);
	add(a, "../evil.json", AE_IFREG, "{}", 2, NULL);
	big = malloc(200000);
	memset(big, 'x', 200000);
	add(a, "dump/pod.log", AE_IFREG, big, 200000, NULL);
	free(big);
	archive_write_close(a);
	archive_write_free(a);

	ok(!owners_snapshot_dump_archive_entry(path, &e), "before the mount: not in an archive");
	is_int(owners_snapshot_dump_archive_mount(path, &err), 0, "mounted (%s)", err.msg.len ? err.msg.ptr : "");
	is_int(owners_snapshot_dump_dir_entry(path), OWNERS_SNAPSHOT_DUMP_DIR, "the archive reads as a directory");
	ok(!owners_snapshot_dump_dir_list(&names, &n, path, &err) && n == 1 && !strcmp(names[0], "dump"),
	   "its root holds dump/ alone (../evil.json passed over)");
	owners_strv_free(names, n);
	snprintf(path + strlen(path), sizeof(path) - strlen(path), "/dump");
	ok(!owners_snapshot_dump_dir_list(&names, &n, path, &err) && n == 6, "dump/ lists 6 names");
	ok(n == 6 && !strcmp(names[0], "a.json") && !strcmp(names[1], "c.yaml") && !strcmp(names[2], "empty.json") &&
		   !strcmp(names[5], "sub"),
	   "  sorted, the implied sub/ once");
	owners_strv_free(names, n);
	ok(owners_snapshot_dump_dir_has_dir(path, "sub"), "sub/ is a directory (implied by its file)");
	{
		char p[128];

		snprintf(p, sizeof(p), "%s/a.json", path);
		is_int(owners_snapshot_dump_dir_entry(p), OWNERS_SNAPSHOT_DUMP_FILE, "a.json is a file");
		is_str(slurp(owners_snapshot_dump_dir_open(p, &mtime)), "{\"a\": 1}", "  read from memory");
		is_int((int)(mtime == 1700000000), 1, "  with its time");
		snprintf(p, sizeof(p), "%s/c.yaml", path);
		is_str(slurp(owners_snapshot_dump_dir_open(p, &mtime)), "{\"a\": 1}", "a link reads as its target");
		snprintf(p, sizeof(p), "%s/out.yaml", path);
		is_int(owners_snapshot_dump_dir_entry(p), OWNERS_SNAPSHOT_DUMP_MISSING, "a link out of the archive: nothing");
		snprintf(p, sizeof(p), "%s/empty.json", path);
		f = owners_snapshot_dump_dir_open(p, &mtime);
		is_str(slurp(f), "", "an empty member opens, empty");
		snprintf(p, sizeof(p), "%s/pod.log", path);
		errno = 0;
		f = owners_snapshot_dump_dir_open(p, &mtime);
		ok(!f && errno == EFBIG, "a big member that is no JSON or YAML is not kept");
		slurp(f);
		snprintf(p, sizeof(p), "%s/nothing.json", path);
		is_int(owners_snapshot_dump_dir_entry(p), OWNERS_SNAPSHOT_DUMP_MISSING, "a name it lacks: missing");
	}
	path[strlen(path) - strlen("/dump")] = 0;
	owners_snapshot_dump_archive_unmount(path);
	ok(!owners_snapshot_dump_archive_entry(path, &e), "unmounted: the file again");

	/* ---- damage ---- */
	f = fopen(path, "r+b");
	if (f) {
		fseek(f, 0, SEEK_END);
		if (ftruncate(fileno(f), ftell(f) / 2)) {
		}
		fclose(f);
	}
	ok(owners_snapshot_dump_archive_mount(path, &err) == OWNERS_EPROTO &&
		   strstr(err.msg.ptr, ": damaged archive: ") && !strchr(err.msg.ptr, '\n'),
	   "cut short: one line (%s)", err.msg.len ? err.msg.ptr : "");
	owners_error_clear(&err);
	unlink(path);
	return tap_done();
}
