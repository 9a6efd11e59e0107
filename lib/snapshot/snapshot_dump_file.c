#include "snapshot_dump_file.h"
#include "snapshot_dump_dir.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "snapshot_dump_json.h"
#include "snapshot_dump_yaml.h"

#define COPY_BLOCK 65536
/* How far a single file is looked into for its first byte. */
#define SNIFF 4096

const char *owners_snapshot_dump_file_name(const struct owners_snapshot_dump_layout_source *s)
{
	return strcmp(s->path, "-") ? s->path : "standard input";
}

static int copy(FILE *to, FILE *from, const char *name, struct owners_error *err)
{
	char buf[COPY_BLOCK];
	size_t n;

	while ((n = fread(buf, 1, sizeof(buf), from)) > 0)
		if (fwrite(buf, 1, n, to) != n)
			return owners_error_set(err, OWNERS_EIO,
						"%s: cannot keep a copy to read: %s", name,
						strerror(errno));
	if (ferror(from))
		return owners_error_set(err, OWNERS_EIO, "%s: cannot read: %s", name,
					strerror(errno));
	return fflush(to) ? owners_error_set(err, OWNERS_EIO, "%s: cannot keep a copy to read: %s",
					     name, strerror(errno))
			  : 0;
}

int owners_snapshot_dump_files_open(struct owners_snapshot_dump_files *fs,
				    const struct owners_snapshot_dump_layout *l,
				    struct owners_error *err)
{
	const struct owners_snapshot_dump_layout_source *s;
	const char *name;
	struct stat st;
	FILE *from;
	int rc;

	fs->spool = NULL;
	if (!l->single_file || !l->count)
		return 0;
	s = &l->sources[0];
	name = owners_snapshot_dump_file_name(s);
	if (strcmp(s->path, "-") && !stat(s->path, &st) && S_ISREG(st.st_mode))
		return 0;
	from = strcmp(s->path, "-") ? fopen(s->path, "rb") : stdin;
	if (!from)
		return owners_error_set(err, OWNERS_EIO, "%s: cannot read: %s", name,
					strerror(errno));
	if (!(fs->spool = tmpfile()))
		rc = owners_error_set(err, OWNERS_EIO, "%s: cannot keep a copy to read: %s", name,
				      strerror(errno));
	else
		rc = copy(fs->spool, from, name, err);
	if (from != stdin)
		fclose(from);
	return rc;
}

void owners_snapshot_dump_files_clear(struct owners_snapshot_dump_files *fs)
{
	if (fs->spool)
		fclose(fs->spool);
	fs->spool = NULL;
}

/* A single file's first byte that is not blank: JSON's '{' or '[', or a
 * log line of kubectl cluster-info dump's, else YAML. Rewinds f. */
static int looks_like_yaml(FILE *f)
{
	char buf[SNIFF];
	size_t n = fread(buf, 1, sizeof(buf), f), i;
	int yaml = 1;

	for (i = 0; i < n; i++) {
		if (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\r' || buf[i] == '\n')
			continue;
		yaml = !(buf[i] == '{' || buf[i] == '[' ||
			 (n - i >= 4 && !memcmp(buf + i, "====", 4)));
		break;
	}
	rewind(f);
	return yaml;
}

uint64_t owners_snapshot_dump_file_size(const struct owners_snapshot_dump_files *fs,
					const struct owners_snapshot_dump_layout_source *s)
{
	int64_t mtime;
	FILE *f = fs->spool;
	long size = -1;

	if (!f && !(f = owners_snapshot_dump_dir_open(s->path, &mtime)))
		return 0;
	if (!fseek(f, 0, SEEK_END))
		size = ftell(f);
	if (f == fs->spool)
		rewind(f);
	else
		fclose(f);
	return size > 0 ? (uint64_t)size : 0;
}

int owners_snapshot_dump_file_read(struct owners_snapshot_dump_files *fs,
				   const struct owners_snapshot_dump_layout_source *s,
				   struct owners_snapshot_dump_tree *t,
				   struct owners_snapshot_dump_file_info *info,
				   struct owners_error *err)
{
	struct owners_snapshot_dump_json_info jinfo;
	const char *name = owners_snapshot_dump_file_name(s);
	FILE *f = fs->spool;
	int64_t mtime = 0;
	int yaml = s->yaml, rc;

	memset(&jinfo, 0, sizeof(jinfo));
	if (f)
		rewind(f);
	else if (!(f = owners_snapshot_dump_dir_open(s->path, &mtime)))
		return owners_error_set(err, OWNERS_EIO, "%s: cannot read: %s", name,
					strerror(errno));
	if (info) {
		info->mtime = mtime;
		info->log_blocks = 0;
	}
	if (s->sniff)
		yaml = looks_like_yaml(f);
	errno = 0;
	owners_snapshot_dump_tree_set_meter(t, fs->meter);
	rc = yaml ? owners_snapshot_dump_yaml_read(NULL, f, name, t, err)
		  : owners_snapshot_dump_json_read(&jinfo, f, name, t, err);
	owners_snapshot_dump_tree_set_meter(t, NULL);
	if (!rc && fs->meter) {
		long size = ftell(f);

		owners_snapshot_dump_tree_meter_file_done(fs->meter, size > 0 ? (uint64_t)size : 0);
	}
	if (info)
		info->log_blocks = jinfo.log_blocks;
	if (f != fs->spool)
		fclose(f);
	return rc;
}
