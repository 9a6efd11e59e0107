/* An archive read in place of a dump's directory (see snapshot_dump_archive.h). */
#include "snapshot_dump_archive.h"
#include "archive_library.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "grow.h"
#include "sort.h"
#include "strv.h"

/* Members whose bytes are kept: what a layout reads (JSON, YAML, a
 * must-gather's timestamp) and anything small; the rest (pod logs,
 * binaries) only by name. */
#define SMALL_MEMBER (64 * 1024)

struct member {
	char *path;     /* inside the archive, without "./" or a trailing '/' */
	int dir;
	char *link;     /* a symbolic link's target, resolved once read */
	size_t target;  /* the member a link resolves to, (size_t)-1 none */
	char *data;     /* NULL: not kept */
	size_t len;
	int64_t mtime;
};

struct mount {
	char *root;     /* the archive's path, as given */
	struct member *members;
	size_t count;
};

/* A thread's own: the reads of one dump happen on one thread. */
static _Thread_local struct mount *mounts;
static _Thread_local size_t n_mounts, cap_mounts;

int owners_snapshot_dump_archive_kind(const unsigned char *head, size_t n, const char **what)
{
	static const struct {
		const char *magic;
		size_t len;
		const char *what;
	} others[] = {
		{ "PK\003\004", 4, "a zip archive" },
		{ "PK\005\006", 4, "a zip archive (empty)" },
		{ "7z\274\257\047\034", 6, "a 7z archive" },
		{ "Rar!", 4, "a RAR archive" },
		{ "\375" "7zXZ", 5, "an xz-compressed file" },
		{ "BZh", 3, "a bzip2-compressed file" },
		{ "\050\265\057\375", 4, "a zstd-compressed file" },
		{ "\211LZO", 4, "an lzop-compressed file" },
		{ "\004\042\115\030", 4, "an lz4-compressed file" },
	};
	size_t i;

	*what = NULL;
	/* POSIX ustar and GNU tar both write "ustar" at offset 257 */
	if (n >= 262 && !memcmp(head + 257, "ustar", 5)) {
		*what = "a tar archive";
		return 1;
	}
	for (i = 0; i < sizeof(others) / sizeof(others[0]); i++)
		if (n >= others[i].len && !memcmp(head, others[i].magic, others[i].len)) {
			*what = others[i].what;
			return -1;
		}
	return 0;
}

/* ---- reading -------------------------------------------------------------- */

/* "./a//b/" -> "a/b"; NULL for a path that climbs out ("..") or is empty. */
static char *normalize(const char *in)
{
	struct owners_buf out = OWNERS_BUF_INIT;
	const char *p = in, *end;

	while (*p) {
		size_t n;

		while (*p == '/')
			p++;
		end = strchr(p, '/');
		n = end ? (size_t)(end - p) : strlen(p);
		if (n == 2 && !memcmp(p, "..", 2)) {
			owners_buf_clear(&out);
			return NULL;
		}
		if (n && !(n == 1 && *p == '.') &&
		    ((out.len && owners_buf_addc(&out, '/')) || owners_buf_add(&out, p, n))) {
			owners_buf_clear(&out);
			return NULL;
		}
		p += n;
	}
	if (!out.len) {
		owners_buf_clear(&out);
		return NULL;
	}
	return out.ptr;
}

static int keeps(const char *path, int64_t size)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	return owners_snapshot_dump_dir_ext(base) != OWNERS_SNAPSHOT_DUMP_EXT_NONE ||
	       !strcmp(base, "timestamp") || (size >= 0 && size <= SMALL_MEMBER);
}

static int read_data(const struct owners_archive_library *lib, struct archive *a, struct member *m)
{
	struct owners_buf b = OWNERS_BUF_INIT;
	char chunk[64 * 1024];
	la_ssize_t got;

	while ((got = lib->read_data(a, chunk, sizeof(chunk))) > 0)
		if (owners_buf_add(&b, chunk, (size_t)got)) {
			owners_buf_clear(&b);
			return OWNERS_ENOMEM;
		}
	if (got < 0) {
		owners_buf_clear(&b);
		return OWNERS_EPROTO;
	}
	m->len = b.len;
	if (!b.len) /* (an empty buffer's text is not its own) */
		owners_buf_clear(&b);
	m->data = b.len ? b.ptr : owners_strdup("");
	return m->data ? 0 : OWNERS_ENOMEM;
}

static void member_clear(struct member *m)
{
	free(m->path);
	free(m->link);
	free(m->data);
}

static void members_free(struct member *m, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		member_clear(&m[i]);
	free(m);
}

static int by_path(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	return strcmp(((const struct member *)a)->path, ((const struct member *)b)->path);
}

static size_t find(const struct mount *mt, const char *rel)
{
	size_t lo = 0, hi = mt->count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(mt->members[mid].path, rel);

		if (!c)
			return mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (size_t)-1;
}

/* Each link to a member of the archive reads as that member (a bundle's
 * .yaml beside its .json); one that leads out of it, or to another link,
 * to nothing. */
static int resolve_links(struct mount *mt)
{
	size_t i;

	for (i = 0; i < mt->count; i++) {
		struct member *m = &mt->members[i];
		struct owners_buf t = OWNERS_BUF_INIT;
		const char *slash = strrchr(m->path, '/');
		char *rel;
		size_t k;

		m->target = (size_t)-1;
		if (!m->link)
			continue;
		if (*m->link != '/' && slash && owners_buf_add(&t, m->path, (size_t)(slash - m->path + 1)))
			return OWNERS_ENOMEM;
		if (owners_buf_adds(&t, m->link)) {
			owners_buf_clear(&t);
			return OWNERS_ENOMEM;
		}
		rel = normalize(t.ptr);
		owners_buf_clear(&t);
		if (rel && (k = find(mt, rel)) != (size_t)-1 && !mt->members[k].link && !mt->members[k].dir)
			m->target = k;
		free(rel);
	}
	return 0;
}

static int damaged(const struct owners_archive_library *lib, struct owners_error *err,
		   const char *path, struct archive *a)
{
	const char *why = lib->error_string(a);

	return owners_error_set(err, OWNERS_EPROTO, "%s: damaged archive: %s", path, why ? why : "unreadable");
}

int owners_snapshot_dump_archive_mount(const char *path, struct owners_error *err)
{
	const struct owners_archive_library *lib = owners_archive_library(err);
	struct archive *a;
	struct archive_entry *e;
	struct mount mt = { NULL, NULL, 0 };
	size_t cap = 0;
	int r, rc = 0;

	if (!lib)
		return err->code;
	if (!(a = lib->read_new()))
		return owners_error_oom(err);
	lib->read_support_filter_gzip(a);
	lib->read_support_format_tar(a);
	/* (it reads the first block: a damaged start fails here) */
	if (lib->read_open_filename(a, path, 64 * 1024) != ARCHIVE_OK) {
		rc = damaged(lib, err, path, a);
		lib->read_free(a);
		return rc;
	}
	while (!rc && (r = lib->read_next_header(a, &e)) == ARCHIVE_OK) {
		const char *name = lib->entry_pathname(e);
		unsigned type = lib->entry_filetype(e);
		struct member m;

		memset(&m, 0, sizeof(m));
		if (!name || !(m.path = normalize(name)))
			continue; /* "..", or the top "./": nothing to place */
		m.dir = type == AE_IFDIR;
		m.mtime = lib->entry_mtime_is_set(e) ? (int64_t)lib->entry_mtime(e) : 0;
		if (type == AE_IFLNK && lib->entry_symlink(e) && !(m.link = owners_strdup(lib->entry_symlink(e))))
			rc = owners_error_oom(err);
		else if (type == AE_IFREG && keeps(m.path, lib->entry_size_is_set(e) ? lib->entry_size(e) : -1) &&
			 (rc = read_data(lib, a, &m)))
			rc = rc == OWNERS_ENOMEM ? owners_error_oom(err) : damaged(lib, err, path, a);
		else if (type != AE_IFREG && type != AE_IFDIR && type != AE_IFLNK) {
			free(m.path); /* devices, FIFOs: nothing a dump holds */
			continue;
		}
		if (!rc && OWNERS_GROW(mt.members, cap, mt.count + 1))
			rc = owners_error_oom(err);
		if (rc) {
			member_clear(&m);
			break;
		}
		mt.members[mt.count++] = m;
	}
	if (!rc && r != ARCHIVE_EOF)
		rc = damaged(lib, err, path, a);
	lib->read_free(a);
	if (!rc) {
		/* a member written twice (appended to the archive): the last */
		owners_qsort_r(mt.members, mt.count, sizeof(*mt.members), by_path, NULL);
		rc = resolve_links(&mt) ? owners_error_oom(err) : 0;
	}
	if (!rc && (!(mt.root = owners_strdup(path)) || OWNERS_GROW(mounts, cap_mounts, n_mounts + 1)))
		rc = owners_error_oom(err);
	if (rc) {
		members_free(mt.members, mt.count);
		free(mt.root);
		return rc;
	}
	mounts[n_mounts++] = mt;
	return 0;
}

void owners_snapshot_dump_archive_unmount(const char *path)
{
	size_t i;

	for (i = n_mounts; i-- > 0;)
		if (!strcmp(mounts[i].root, path)) {
			members_free(mounts[i].members, mounts[i].count);
			free(mounts[i].root);
			mounts[i] = mounts[--n_mounts];
			break;
		}
	if (!n_mounts) {
		free(mounts);
		mounts = NULL;
		cap_mounts = 0;
	}
}

/* ---- looking up ------------------------------------------------------------ */

/* The mount path is in, and *rel the rest ("" the archive itself). */
static const struct mount *mount_of(const char *path, const char **rel)
{
	size_t i;

	for (i = 0; i < n_mounts; i++) {
		size_t n = strlen(mounts[i].root);

		if (strncmp(path, mounts[i].root, n) || (path[n] && path[n] != '/'))
			continue;
		*rel = path + n;
		while (**rel == '/')
			(*rel)++;
		return &mounts[i];
	}
	return NULL;
}

/* The first member under rel/ ("" the root: every member), by binary
 * search: the members are sorted, and those under one directory are
 * next to each other from there. */
static size_t first_under(const struct mount *mt, const char *rel)
{
	size_t n = strlen(rel), lo = 0, hi = mt->count;

	if (!n)
		return 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const char *p = mt->members[mid].path;
		int c = strncmp(p, rel, n);

		/* rel + "/" compared without building it */
		if (!c)
			c = (unsigned char)p[n] - (unsigned char)'/';
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int is_under(const char *path, const char *rel, size_t n)
{
	return !n || (!strncmp(path, rel, n) && path[n] == '/');
}

/* Whether some member lies under rel/ (a directory the archive implies). */
static int holds_under(const struct mount *mt, const char *rel)
{
	size_t i = first_under(mt, rel);

	return i < mt->count && is_under(mt->members[i].path, rel, strlen(rel));
}

int owners_snapshot_dump_archive_entry(const char *path,
				       enum owners_snapshot_dump_dir_entry_kind *e)
{
	const char *rel;
	const struct mount *mt = mount_of(path, &rel);
	size_t k;

	if (!mt)
		return 0;
	if (!*rel) {
		*e = OWNERS_SNAPSHOT_DUMP_DIR;
		return 1;
	}
	k = find(mt, rel);
	if (k != (size_t)-1 && !mt->members[k].dir)
		*e = mt->members[k].link && mt->members[k].target == (size_t)-1 ? OWNERS_SNAPSHOT_DUMP_MISSING
										  : OWNERS_SNAPSHOT_DUMP_FILE;
	else
		*e = k != (size_t)-1 || holds_under(mt, rel) ? OWNERS_SNAPSHOT_DUMP_DIR : OWNERS_SNAPSHOT_DUMP_MISSING;
	return 1;
}

int owners_snapshot_dump_archive_list(const char *dir, char ***names, size_t *count, struct owners_error *err)
{
	const char *rel;
	const struct mount *mt = mount_of(dir, &rel);
	size_t n, i, cap = 0;

	*names = NULL;
	*count = 0;
	if (!mt)
		return 0;
	n = strlen(rel);
	for (i = first_under(mt, rel); i < mt->count && is_under(mt->members[i].path, rel, n); i++) {
		const char *p = mt->members[i].path, *next, *slash;

		next = n ? p + n + 1 : p;
		slash = strchr(next, '/');
		if (owners_strv_push(names, count, &cap,
				     slash ? owners_strndup(next, (size_t)(slash - next)) : owners_strdup(next))) {
			owners_strv_free(*names, *count);
			*names = NULL;
			*count = 0;
			owners_error_oom(err);
			return -1;
		}
	}
	return 1;
}

int owners_snapshot_dump_archive_open(const char *path, FILE **f, int64_t *mtime)
{
	const char *rel;
	const struct mount *mt = mount_of(path, &rel);
	const struct member *m;
	size_t k;

	*f = NULL;
	if (!mt)
		return 0;
	k = find(mt, rel);
	if (k == (size_t)-1 || mt->members[k].dir) {
		errno = k == (size_t)-1 ? ENOENT : EISDIR;
		return 1;
	}
	m = &mt->members[k];
	if (m->link && m->target != (size_t)-1)
		m = &mt->members[m->target];
	*mtime = m->mtime;
	if (!m->data) {
		errno = m->link ? ENOENT : EFBIG; /* a link out of the archive; a member not kept */
		return 1;
	}
	/* fmemopen refuses an empty buffer on some systems */
	*f = m->len ? fmemopen(m->data, m->len, "rb") : tmpfile();
	return 1;
}
