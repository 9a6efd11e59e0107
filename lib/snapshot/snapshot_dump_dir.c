#include "snapshot_dump_dir.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "snapshot_dump_archive.h"
#include "sort.h"
#include "strv.h"

enum owners_snapshot_dump_dir_entry_kind owners_snapshot_dump_dir_entry(const char *path)
{
	struct stat st, lst;
	enum owners_snapshot_dump_dir_entry_kind in_archive;

	if (owners_snapshot_dump_archive_entry(path, &in_archive))
		return in_archive;
	if (stat(path, &st))
		return OWNERS_SNAPSHOT_DUMP_MISSING;
	if (S_ISREG(st.st_mode))
		return OWNERS_SNAPSHOT_DUMP_FILE;
	if (!S_ISDIR(st.st_mode))
		return OWNERS_SNAPSHOT_DUMP_SPECIAL;
	if (!lstat(path, &lst) && S_ISLNK(lst.st_mode))
		return OWNERS_SNAPSHOT_DUMP_LINKED;
	return OWNERS_SNAPSHOT_DUMP_DIR;
}

int owners_snapshot_dump_dir_is_dir(const char *path)
{
	enum owners_snapshot_dump_dir_entry_kind e = owners_snapshot_dump_dir_entry(path);

	return e == OWNERS_SNAPSHOT_DUMP_DIR || e == OWNERS_SNAPSHOT_DUMP_LINKED;
}

int owners_snapshot_dump_dir_has_dir(const char *dir, const char *name)
{
	struct owners_buf p = OWNERS_BUF_INIT;
	int yes = !owners_snapshot_dump_dir_join(&p, dir, name) &&
		  owners_snapshot_dump_dir_is_dir(p.ptr);

	owners_buf_clear(&p);
	return yes;
}

static int by_bytes(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* names sorted, each once (an archive names a directory once per member
 * under it). 0. */
static int sort_once(char **names, size_t *count)
{
	size_t i, kept = 0;

	owners_qsort_r(names, *count, sizeof(*names), by_bytes, NULL);
	for (i = 0; i < *count; i++) {
		if (kept && !strcmp(names[kept - 1], names[i]))
			free(names[i]);
		else
			names[kept++] = names[i];
	}
	*count = kept;
	return 0;
}

int owners_snapshot_dump_dir_list(char ***names, size_t *count, const char *dir,
				  struct owners_error *err)
{
	DIR *d;
	struct dirent *e;
	size_t cap = 0;
	int rc = owners_snapshot_dump_archive_list(dir, names, count, err);

	if (rc)
		return rc < 0 ? OWNERS_ENOMEM : sort_once(*names, count);
	if (!(d = opendir(dir)))
		return owners_error_set(err, OWNERS_EIO, "%s: cannot read: %s", dir,
					strerror(errno));
	while (!rc && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			rc = owners_strv_push(names, count, &cap, owners_strdup(e->d_name));
	closedir(d);
	if (rc) {
		owners_strv_free(*names, *count);
		*names = NULL;
		*count = 0;
		return owners_error_oom(err);
	}
	return sort_once(*names, count);
}

FILE *owners_snapshot_dump_dir_open(const char *path, int64_t *mtime)
{
	struct stat st;
	FILE *f;

	*mtime = 0;
	if (owners_snapshot_dump_archive_open(path, &f, mtime))
		return f;
	if ((f = fopen(path, "rb")) && !fstat(fileno(f), &st))
		*mtime = (int64_t)st.st_mtime;
	return f;
}

int owners_snapshot_dump_dir_join(struct owners_buf *out, const char *dir, const char *name)
{
	size_t n = strlen(dir);

	owners_buf_reset(out);
	if (owners_buf_adds(out, dir))
		return OWNERS_ENOMEM;
	if (n && dir[n - 1] != '/' && owners_buf_addc(out, '/'))
		return OWNERS_ENOMEM;
	return owners_buf_adds(out, name);
}

static int ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), m = strlen(tail);

	return n > m && !strcasecmp(s + n - m, tail);
}

enum owners_snapshot_dump_dir_ext_kind owners_snapshot_dump_dir_ext(const char *name)
{
	if (ends_with(name, ".json"))
		return OWNERS_SNAPSHOT_DUMP_EXT_JSON;
	if (ends_with(name, ".yaml") || ends_with(name, ".yml"))
		return OWNERS_SNAPSHOT_DUMP_EXT_YAML;
	return OWNERS_SNAPSHOT_DUMP_EXT_NONE;
}

int owners_snapshot_dump_dir_stem(struct owners_buf *out, const char *name)
{
	const char *dot = strrchr(name, '.');

	return owners_buf_add(out, name, dot ? (size_t)(dot - name) : strlen(name));
}
