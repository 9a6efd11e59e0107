/*
 * An OpenShift must-gather, as `oc adm must-gather` leaves it
 * (openshift/oc pkg/cli/admin/mustgather, and the oc adm inspect its
 * gather scripts run, pkg/cli/admin/inspect):
 *
 *	must-gather.local.N/
 *	  timestamp               time.Now() when gathering started, then ended
 *	  <image>/                the image's ID, each run of [^A-Za-z0-9] as "-"
 *	                          (quay-io-...-sha256-...); <node>/<image>/ with
 *	                          --node-selector; one per image
 *	    namespaces/NS/NS.yaml                     the Namespace
 *	    namespaces/NS/<group>/<plural>.yaml       a List: the type, whole, in NS
 *	    namespaces/NS/<group>/<plural>/<name>.yaml  one object
 *	    namespaces/NS/pods/<pod>/...              each pod again, and its logs:
 *	                                              passed over (core/pods.yaml has them)
 *	    cluster-scoped-resources/<group>/<plural>.yaml         a List, whole
 *	    cluster-scoped-resources/<group>/<plural>/<name>.yaml  one object
 *
 * with <group> "core" for the core group. A path may name the top
 * directory or one image's directory (then its timestamp is its
 * parent's). The objects of a list file are claimed whole; objects read
 * one by one are not (inspect writes them when it follows references by
 * name as well as when it lists).
 */

#include "snapshot_dump_mustgather.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "snapshot_dump_dir.h"
#include "strv.h"
#include "timeutil.h"

#define TIMESTAMP_MAX 4096

static int is_image_dir(const char *dir)
{
	return owners_snapshot_dump_dir_has_dir(dir, "namespaces") ||
	       owners_snapshot_dump_dir_has_dir(dir, "cluster-scoped-resources");
}

/* ---- the timestamp file ---------------------------------------------------- */

/* One line of Go's time.Time.String(): "2024-01-15 10:23:45.123456789
 * +0000 UTC m=+0.016738541" (the fraction, the zone's name and the
 * monotonic reading optional). */
static int parse_go_time(int64_t *out, const char *line)
{
	char rfc[64];
	int y, mo, d, h, mi, s, n = 0, off_n = 0;
	const char *p;
	char sign;
	int oh, om;

	if (sscanf(line, "%4d-%2d-%2d %2d:%2d:%2d%n", &y, &mo, &d, &h, &mi, &s, &n) != 6)
		return -1;
	p = line + n;
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++)
			;
	if (sscanf(p, " %c%2d%2d%n", &sign, &oh, &om, &off_n) != 3 || (sign != '+' && sign != '-'))
		return -1;
	snprintf(rfc, sizeof(rfc), "%04d-%02d-%02dT%02d:%02d:%02d%c%02d:%02d", y, mo, d, h, mi, s,
		 sign, oh, om);
	return owners_time_parse_rfc3339(out, rfc);
}

/* The first time the file records: when gathering started, the moment
 * the dump is of (its end line is when the last file was written, up to
 * minutes later). 0 when none. */
static int64_t read_timestamp(const char *dir)
{
	struct owners_buf path = OWNERS_BUF_INIT;
	char text[TIMESTAMP_MAX + 1], *line, *save = NULL;
	int64_t when = 0, t;
	size_t n = 0;
	FILE *f = NULL;
	int64_t mtime;

	if (!owners_snapshot_dump_dir_join(&path, dir, "timestamp"))
		f = owners_snapshot_dump_dir_open(path.ptr, &mtime);
	owners_buf_clear(&path);
	if (!f)
		return 0;
	n = fread(text, 1, TIMESTAMP_MAX, f);
	fclose(f);
	text[n] = 0;
	for (line = strtok_r(text, "\n", &save); line && !when; line = strtok_r(NULL, "\n", &save))
		if (!parse_go_time(&t, line))
			when = t;
	return when;
}

/* ---- the files -------------------------------------------------------------- */

struct walk {
	struct owners_snapshot_dump_layout *l;
	struct owners_error *err;
	/* the first directory an image was found in (the timestamp file is
	 * beside the images: must-gather.local.N/ in a tarball of it) */
	struct owners_buf image_parent;
};

/* The files with a dump's extension in dir, each as src says. */
static int add_files(struct walk *w, const char *dir,
		     struct owners_snapshot_dump_layout_source *src)
{
	struct owners_buf path = OWNERS_BUF_INIT;
	char **names;
	size_t n, i;
	int rc = owners_snapshot_dump_dir_list(&names, &n, dir, w->err);

	for (i = 0; !rc && i < n; i++) {
		enum owners_snapshot_dump_dir_ext_kind ext = owners_snapshot_dump_dir_ext(names[i]);

		if (owners_snapshot_dump_dir_join(&path, dir, names[i])) {
			rc = owners_error_oom(w->err);
		} else if (ext &&
			   owners_snapshot_dump_dir_entry(path.ptr) == OWNERS_SNAPSHOT_DUMP_FILE) {
			src->path = path.ptr;
			src->yaml = ext == OWNERS_SNAPSHOT_DUMP_EXT_YAML;
			if (owners_snapshot_dump_layout_add(w->l, src))
				rc = owners_error_oom(w->err);
		}
	}
	owners_buf_clear(&path);
	owners_strv_free(names, n);
	return rc;
}

/* <group>/: <plural>.yaml a List (claimed), <plural>/<name>.yaml objects. */
static int add_group(struct walk *w, const char *dir, const char *group, const char *ns)
{
	struct owners_snapshot_dump_layout_source src;
	struct owners_buf path = OWNERS_BUF_INIT, plural = OWNERS_BUF_INIT;
	char **names;
	size_t n, i;
	int rc = owners_snapshot_dump_dir_list(&names, &n, dir, w->err);

	memset(&src, 0, sizeof(src));
	src.group = (char *)(strcmp(group, "core") ? group : "");
	src.namespace_ = (char *)ns;
	for (i = 0; !rc && i < n; i++) {
		enum owners_snapshot_dump_dir_entry_kind e;

		owners_buf_reset(&plural);
		if (owners_snapshot_dump_dir_join(&path, dir, names[i]) ||
		    owners_snapshot_dump_dir_stem(&plural, names[i])) {
			rc = owners_error_oom(w->err);
			break;
		}
		src.plural = plural.ptr;
		e = owners_snapshot_dump_dir_entry(path.ptr);
		if (e == OWNERS_SNAPSHOT_DUMP_DIR) {
			src.claim = OWNERS_SNAPSHOT_DUMP_CLAIM_NONE;
			src.plural = names[i];
			rc = add_files(w, path.ptr, &src);
		} else if (e == OWNERS_SNAPSHOT_DUMP_FILE &&
			   owners_snapshot_dump_dir_ext(names[i])) {
			src.claim = OWNERS_SNAPSHOT_DUMP_CLAIM_FILE;
			src.path = path.ptr;
			src.yaml = owners_snapshot_dump_dir_ext(names[i]) ==
				   OWNERS_SNAPSHOT_DUMP_EXT_YAML;
			if (owners_snapshot_dump_layout_add(w->l, &src))
				rc = owners_error_oom(w->err);
		}
	}
	owners_buf_clear(&path);
	owners_buf_clear(&plural);
	owners_strv_free(names, n);
	return rc;
}

/* namespaces/NS/: NS.yaml, <group>/..., and pods/ passed over. */
static int add_namespace(struct walk *w, const char *dir, const char *ns)
{
	struct owners_snapshot_dump_layout_source src;
	struct owners_buf path = OWNERS_BUF_INIT;
	char **names;
	size_t n, i;
	int rc = owners_snapshot_dump_dir_list(&names, &n, dir, w->err);

	memset(&src, 0, sizeof(src));
	for (i = 0; !rc && i < n; i++) {
		if (owners_snapshot_dump_dir_join(&path, dir, names[i])) {
			rc = owners_error_oom(w->err);
			break;
		}
		if (owners_snapshot_dump_dir_entry(path.ptr) != OWNERS_SNAPSHOT_DUMP_DIR ||
		    !strcmp(names[i], "pods"))
			continue;
		rc = add_group(w, path.ptr, names[i], ns);
	}
	owners_buf_clear(&path);
	owners_strv_free(names, n);
	/* The Namespace itself, and any other object file beside the groups. */
	return rc ? rc : add_files(w, dir, &src);
}

/* Each directory of dir/sub, by fn (with its name). */
static int each_dir(struct walk *w, const char *dir, const char *sub,
		    int (*fn)(struct walk *, const char *, const char *))
{
	struct owners_buf top = OWNERS_BUF_INIT, path = OWNERS_BUF_INIT;
	char **names = NULL;
	size_t n = 0, i;
	int rc = 0;

	if (owners_snapshot_dump_dir_join(&top, dir, sub)) {
		owners_buf_clear(&top);
		return owners_error_oom(w->err);
	}
	if (owners_snapshot_dump_dir_is_dir(top.ptr))
		rc = owners_snapshot_dump_dir_list(&names, &n, top.ptr, w->err);
	for (i = 0; !rc && i < n; i++) {
		if (owners_snapshot_dump_dir_join(&path, top.ptr, names[i]))
			rc = owners_error_oom(w->err);
		else if (owners_snapshot_dump_dir_entry(path.ptr) == OWNERS_SNAPSHOT_DUMP_DIR)
			rc = fn(w, path.ptr, names[i]);
	}
	owners_buf_clear(&top);
	owners_buf_clear(&path);
	owners_strv_free(names, n);
	return rc;
}

static int group_fn(struct walk *w, const char *path, const char *name)
{
	return add_group(w, path, name, NULL);
}

static int add_image(struct walk *w, const char *dir)
{
	int rc = each_dir(w, dir, "namespaces", add_namespace);

	return rc ? rc : each_dir(w, dir, "cluster-scoped-resources", group_fn);
}

/* The image directories under top: top/<image>/, or top/<node>/<image>/. */
static int add_images(struct walk *w, const char *top, int depth, int *found)
{
	struct owners_buf path = OWNERS_BUF_INIT;
	char **names;
	size_t n, i;
	int rc = owners_snapshot_dump_dir_list(&names, &n, top, w->err);

	for (i = 0; !rc && i < n; i++) {
		if (owners_snapshot_dump_dir_join(&path, top, names[i])) {
			rc = owners_error_oom(w->err);
			break;
		}
		if (owners_snapshot_dump_dir_entry(path.ptr) != OWNERS_SNAPSHOT_DUMP_DIR)
			continue;
		if (is_image_dir(path.ptr)) {
			*found = 1;
			if (!w->image_parent.len && owners_buf_adds(&w->image_parent, top))
				rc = owners_error_oom(w->err);
			else
				rc = add_image(w, path.ptr);
		} else if (depth < 1) {
			rc = add_images(w, path.ptr, depth + 1, found);
		}
	}
	owners_buf_clear(&path);
	owners_strv_free(names, n);
	return rc;
}

int owners_snapshot_dump_mustgather_find(struct owners_snapshot_dump_layout *l, int *found,
					 const char *dir, struct owners_error *err)
{
	struct walk w = { l, err, OWNERS_BUF_INIT };
	struct owners_buf parent = OWNERS_BUF_INIT;
	int rc;

	*found = 0;
	if (is_image_dir(dir)) {
		*found = 1;
		rc = add_image(&w, dir);
		if (!rc && !(l->taken_at = read_timestamp(dir)) &&
		    !owners_snapshot_dump_dir_join(&parent, dir, ".."))
			l->taken_at = read_timestamp(parent.ptr);
		owners_buf_clear(&parent);
	} else {
		rc = add_images(&w, dir, 0, found);
		if (!rc && *found && !(l->taken_at = read_timestamp(dir)) && w.image_parent.len)
			l->taken_at = read_timestamp(w.image_parent.ptr);
	}
	owners_buf_clear(&w.image_parent);
	if (*found) {
		l->format = "must-gather";
		l->taken_at_from = l->taken_at ? "the must-gather's timestamp file (when gathering started)" : NULL;
	}
	return rc;
}
