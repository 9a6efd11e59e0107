#include "snapshot_dump_layout.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "file_stream.h"
#include "grow.h"
#include "snapshot_dump_archive.h"
#include "snapshot_dump_bundle.h"
#include "snapshot_dump_clusterinfo.h"
#include "snapshot_dump_mustgather.h"
#include "snapshot_dump_dir.h"
#include "snapshot_dump_types.h"
#include "strv.h"

/* A kubectl directory deeper than this is not walked further (a tree of
 * dumps is a few levels deep; this bounds a walk of something else). */
#define WALK_MAX_DEPTH 16

void owners_snapshot_dump_layout_init(struct owners_snapshot_dump_layout *l)
{
	memset(l, 0, sizeof(*l));
}

static void source_clear(struct owners_snapshot_dump_layout_source *s)
{
	free(s->path);
	free(s->namespace_);
	free(s->group);
	free(s->plural);
}

void owners_snapshot_dump_layout_clear(struct owners_snapshot_dump_layout *l)
{
	size_t i;

	for (i = 0; i < l->count; i++)
		source_clear(&l->sources[i]);
	free(l->sources);
	free(l->server_version);
	if (l->archive)
		owners_snapshot_dump_archive_unmount(l->archive);
	free(l->archive);
	owners_snapshot_dump_layout_init(l);
}

void owners_snapshot_dump_layout_truncate(struct owners_snapshot_dump_layout *l, size_t count)
{
	while (l->count > count)
		source_clear(&l->sources[--l->count]);
}

int owners_snapshot_dump_layout_item_type(const struct owners_snapshot_dump_layout_source *s,
					  const char *item_api_version, const char *item_kind,
					  const char **api_version, const char **kind)
{
	*api_version = item_api_version;
	*kind = item_kind;
	if ((!*item_api_version || !*item_kind) && s->kind) {
		*api_version = s->api_version;
		*kind = s->kind;
	}
	return owners_snapshot_dump_types_valid(*api_version, *kind);
}

const char *owners_snapshot_dump_layout_plural(const struct owners_snapshot_dump_layout_source *s,
					       const char *api_version)
{
	const char *slash = strchr(api_version, '/');
	size_t n = slash ? (size_t)(slash - api_version) : 0;

	if (!s->plural || !s->group || strlen(s->group) != n || strncmp(s->group, api_version, n))
		return NULL;
	return s->plural;
}

/* A copy of s, NULL staying NULL: 0, or -1 out of memory. */
static int dup_opt(char **out, const char *s)
{
	*out = s ? owners_strdup(s) : NULL;
	return s && !*out ? -1 : 0;
}

int owners_snapshot_dump_layout_add(struct owners_snapshot_dump_layout *l,
				    const struct owners_snapshot_dump_layout_source *s)
{
	struct owners_snapshot_dump_layout_source c = *s;

	c.path = c.namespace_ = c.group = c.plural = NULL;
	if (dup_opt(&c.path, s->path) || dup_opt(&c.namespace_, s->namespace_) ||
	    dup_opt(&c.group, s->group) || dup_opt(&c.plural, s->plural) ||
	    OWNERS_GROW(l->sources, l->cap, l->count + 1)) {
		source_clear(&c);
		return OWNERS_ENOMEM;
	}
	l->sources[l->count++] = c;
	return 0;
}

/* ---- kubectl get output -------------------------------------------------- */

static int walk(struct owners_snapshot_dump_layout *l, const char *dir, int depth,
		struct owners_error *err);

static int walk_entry(struct owners_snapshot_dump_layout *l, const char *path, const char *name,
		      int depth, struct owners_error *err)
{
	struct owners_snapshot_dump_layout_source s;
	enum owners_snapshot_dump_dir_ext_kind ext = owners_snapshot_dump_dir_ext(name);

	switch (owners_snapshot_dump_dir_entry(path)) {
	case OWNERS_SNAPSHOT_DUMP_DIR:
		if (depth < WALK_MAX_DEPTH)
			return walk(l, path, depth + 1, err);
		break;
	case OWNERS_SNAPSHOT_DUMP_FILE:
		if (ext == OWNERS_SNAPSHOT_DUMP_EXT_NONE)
			break;
		memset(&s, 0, sizeof(s));
		s.path = (char *)path;
		s.claim = OWNERS_SNAPSHOT_DUMP_CLAIM_TYPES;
		s.yaml = ext == OWNERS_SNAPSHOT_DUMP_EXT_YAML;
		return owners_snapshot_dump_layout_add(l, &s) ? owners_error_oom(err) : 0;
	default: break;
	}
	l->skipped_files++;
	return 0;
}

static int walk(struct owners_snapshot_dump_layout *l, const char *dir, int depth,
		struct owners_error *err)
{
	struct owners_buf path = OWNERS_BUF_INIT;
	char **names;
	size_t n, i;
	int rc = owners_snapshot_dump_dir_list(&names, &n, dir, err);

	for (i = 0; !rc && i < n; i++) {
		if (owners_snapshot_dump_dir_join(&path, dir, names[i]))
			rc = owners_error_oom(err);
		else
			rc = walk_entry(l, path.ptr, names[i], depth, err);
	}
	owners_buf_clear(&path);
	owners_strv_free(names, n);
	return rc;
}

/* ---- which dump ------------------------------------------------------------ */

static int not_a_dump(const char *dir, struct owners_error *err)
{
	return owners_error_set(
		err, OWNERS_EPROTO,
		"%s: not a snapshot or a dump owners reads (looked for a must-gather: "
		"namespaces/, cluster-scoped-resources/; a support bundle: "
		"cluster-resources/; kubectl cluster-info dump --output-directory: "
		"nodes.json and NAMESPACE/pods.json; kubectl get -o json|yaml output: "
		"*.json, *.yaml, *.yml files)",
		dir);
}

typedef int (*dump_finder)(struct owners_snapshot_dump_layout *l, int *found, const char *dir,
			   struct owners_error *err);

/* A directory that holds two kinds of dump (a must-gather beside a
 * support bundle) is refused, both named: reading one of them and
 * saying nothing of the other would answer for half of what is there,
 * and reading both as one would mix two moments. */
static int directory(struct owners_snapshot_dump_layout *l, const char *dir,
		     struct owners_error *err)
{
	static const dump_finder finders[] = { owners_snapshot_dump_mustgather_find,
					       owners_snapshot_dump_bundle_find,
					       owners_snapshot_dump_clusterinfo_find };
	const char *kinds[3];
	size_t i, n = 0, which = 0;
	int found = 0, rc;

	for (i = 0; i < 3; i++) {
		struct owners_snapshot_dump_layout probe;

		owners_snapshot_dump_layout_init(&probe);
		if (!(probe.server_version = owners_strdup("")))
			return owners_error_oom(err);
		rc = finders[i](&probe, &found, dir, err);
		if (!rc && found) {
			kinds[n++] = probe.format;
			which = i;
		}
		owners_snapshot_dump_layout_clear(&probe);
		if (rc)
			return rc;
	}
	if (n == 2)
		return owners_error_set(err, OWNERS_EPROTO,
					"%s holds two dumps, a %s and a %s: give --from the directory of one of them",
					dir, kinds[0], kinds[1]);
	if (n == 3)
		return owners_error_set(err, OWNERS_EPROTO,
					"%s holds three dumps, a %s, a %s and a %s: give --from the directory of one "
					"of them", dir, kinds[0], kinds[1], kinds[2]);
	if (n == 1)
		return finders[which](l, &found, dir, err);
	l->format = "kubectl List";
	if ((rc = walk(l, dir, 0, err)))
		return rc;
	return l->count ? 0 : not_a_dump(dir, err);
}

/* An archive's dump: its root, or the one directory that is all the root
 * holds (tar czf x.tgz x/: a dump is packed with its directory). */
static int archive_top(struct owners_snapshot_dump_layout *l, const char *path, struct owners_error *err)
{
	struct owners_buf top = OWNERS_BUF_INIT;
	char **names;
	size_t n;
	int rc = owners_snapshot_dump_dir_list(&names, &n, path, err);

	if (rc)
		return rc;
	if (n == 1 && owners_snapshot_dump_dir_has_dir(path, names[0])) {
		rc = owners_snapshot_dump_dir_join(&top, path, names[0]) ? owners_error_oom(err)
									 : directory(l, top.ptr, err);
	} else {
		rc = directory(l, path, err);
	}
	owners_strv_free(names, n);
	owners_buf_clear(&top);
	return rc;
}

/* Whether the file at path is a tar archive (gzipped or not). */
static int is_tar(const char *path)
{
	struct owners_error ignored = OWNERS_ERROR_INIT;
	struct owners_file_reader *in;
	unsigned char head[512];
	const char *what;
	size_t got = 0;
	int tar;

	if (owners_file_reader_open(&in, path, &ignored)) {
		owners_error_clear(&ignored);
		return 0;
	}
	tar = !owners_file_reader_read(in, (char *)head, sizeof(head), &got, &ignored) &&
	      owners_snapshot_dump_archive_kind(head, got, &what) == 1;
	owners_error_clear(&ignored);
	owners_file_reader_free(in);
	return tar;
}

int owners_snapshot_dump_layout_find(struct owners_snapshot_dump_layout *l, const char *path,
				     struct owners_error *err)
{
	struct owners_snapshot_dump_layout_source s;

	owners_snapshot_dump_layout_init(l);
	if (!(l->server_version = owners_strdup("")))
		return owners_error_oom(err);
	if (strcmp(path, "-") && owners_snapshot_dump_dir_entry(path) == OWNERS_SNAPSHOT_DUMP_FILE &&
	    is_tar(path)) {
		int rc = owners_snapshot_dump_archive_mount(path, err);

		if (rc)
			return rc;
		if (!(l->archive = owners_strdup(path))) {
			owners_snapshot_dump_archive_unmount(path);
			return owners_error_oom(err);
		}
		return archive_top(l, path, err);
	}
	if (strcmp(path, "-")) {
		switch (owners_snapshot_dump_dir_entry(path)) {
		case OWNERS_SNAPSHOT_DUMP_DIR:
		case OWNERS_SNAPSHOT_DUMP_LINKED: return directory(l, path, err);
		case OWNERS_SNAPSHOT_DUMP_MISSING:
			return owners_error_set(err, OWNERS_EIO, "%s: cannot read: %s", path,
						strerror(errno ? errno : ENOENT));
		default: break;
		}
	}
	/* One file (or standard input, or a FIFO: read once, as it comes). */
	l->format = "kubectl List";
	l->single_file = 1;
	memset(&s, 0, sizeof(s));
	s.path = (char *)path;
	s.claim = OWNERS_SNAPSHOT_DUMP_CLAIM_TYPES;
	s.sniff = 1;
	return owners_snapshot_dump_layout_add(l, &s) ? owners_error_oom(err) : 0;
}
