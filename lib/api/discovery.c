#include "discovery.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "discovery_parse.h"
#include "resource_json.h"
#include "json.h"

#define AGGREGATED_ACCEPT                                                        \
	"application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,"  \
	"application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList," \
	"application/json"
#define DEFAULT_TTL (6 * 3600)  /* kubectl's discovery cache lives 6 hours */
#define FAILED_TTL 60           /* a broken group may heal: look again soon */
#define CACHE_FORMAT 4 /* 2: hasStatus; 3: hasScale; 4: a failure's "stale" */

/* ---- the cache file ------------------------------------------------- */

/* <dir>/discovery/<host_port>/resources.json, the server's address made
 * safe for a file name the way kubectl does it. */
static int cache_path(struct owners_buf *out, const char *dir, const char *server, int dir_only)
{
	const char *s = strstr(server, "://");
	int rc = owners_buf_addf(out, "%s/discovery/", dir);

	for (s = s ? s + 3 : server; !rc && *s; s++) {
		char c = *s;
		int safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			   c == '.' || c == '-';

		rc = owners_buf_addc(out, safe ? c : '_');
	}
	if (!rc && !dir_only)
		rc = owners_buf_adds(out, "/resources.json");
	return rc;
}

/* The cache file: the table's JSON form under the cache's own format
 * number; anything else (an older format, damage) is no cache. */
static int serialize(struct owners_buf *out, const struct owners_resource_table *t)
{
	struct owners_json_gen *j;
	int rc;

	if (owners_json_gen_new(&j, out, 0))
		return OWNERS_ENOMEM;
	owners_resource_json_gen(j, t, CACHE_FORMAT);
	rc = owners_json_gen_error(j);
	owners_json_gen_free(j);
	return rc;
}

static int deserialize(struct owners_resource_table *t, const char *data, size_t len)
{
	struct owners_json_value *doc = NULL;
	int rc = -1;

	if (owners_json_parse(&doc, data, len, NULL))
		return -1;
	if (owners_json_int(owners_json_get(doc, "format"), 0) == CACHE_FORMAT &&
	    !owners_resource_json_read(t, doc))
		rc = 0;
	owners_json_value_free(doc);
	return rc;
}

static int read_file(struct owners_buf *out, const char *path)
{
	char chunk[65536];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	while ((n = read(fd, chunk, sizeof(chunk))) > 0)
		if (owners_buf_add(out, chunk, (size_t)n)) {
			n = -1;
			break;
		}
	close(fd);
	return n < 0 ? -1 : 0;
}

static int load_cache(struct owners_resource_table *t, const char *dir, const char *server,
		      const struct owners_discovery_options *o)
{
	struct owners_buf path = OWNERS_BUF_INIT, data = OWNERS_BUF_INIT;
	struct stat st;
	int rc = -1;

	if (cache_path(&path, dir, server, 0) || stat(path.ptr, &st))
		goto out;
	if (read_file(&data, path.ptr) || deserialize(t, data.ptr, data.len))
		goto out;
	{
		int64_t ttl = o->ttl ? o->ttl : t->n_failed ? FAILED_TTL : DEFAULT_TTL;
		int64_t age = o->now - (int64_t)st.st_mtime;

		if (age >= 0 && age < ttl)
			rc = 0;
	}
out:
	if (rc) {
		owners_resource_table_clear(t);
		owners_resource_table_init(t);
	}
	owners_buf_clear(&path);
	owners_buf_clear(&data);
	return rc;
}

static int mkdir_p(char *path)
{
	char *p;

	for (p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0700) && errno != EEXIST) {
			*p = '/';
			return -1;
		}
		*p = '/';
	}
	return mkdir(path, 0700) && errno != EEXIST ? -1 : 0;
}

/* Best effort: a cache that cannot be written only costs time. The file
 * is private (0600 in a 0700 directory) and replaced atomically, so a
 * concurrent reader never sees half a file. */
static void save_cache(const struct owners_resource_table *t, const char *dir, const char *server)
{
	struct owners_buf path = OWNERS_BUF_INIT, tmp = OWNERS_BUF_INIT, data = OWNERS_BUF_INIT;
	int fd = -1;

	if (cache_path(&path, dir, server, 1) || mkdir_p(path.ptr))
		goto out;
	owners_buf_reset(&path);
	if (cache_path(&path, dir, server, 0) || owners_buf_addf(&tmp, "%s.%ld.tmp", path.ptr, (long)getpid()))
		goto out;
	if (serialize(&data, t))
		goto out;
	fd = open(tmp.ptr, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		goto out;
	if (write(fd, data.ptr, data.len) != (ssize_t)data.len || close(fd)) {
		fd = -1;
		unlink(tmp.ptr);
		goto out;
	}
	fd = -1;
	if (rename(tmp.ptr, path.ptr))
		unlink(tmp.ptr);
out:
	if (fd >= 0)
		close(fd);
	owners_buf_clear(&path);
	owners_buf_clear(&tmp);
	owners_buf_clear(&data);
}

/* ---- fetching ------------------------------------------------------- */

static int request_failed(struct owners_error *err, const struct owners_http_request *r,
			  const char *server)
{
	/* Without a response the client's message already names the server. */
	if (!r->status)
		return owners_http_error(err, r, NULL);
	if (r->status == 401)
		return owners_error_set(err, OWNERS_EAUTH,
					"the server at %s rejected the credentials (Unauthorized)", server);
	return owners_http_error(err, r, "cannot discover the API types");
}

struct gv_fetch {
	struct owners_http_request req;
	char *group_version;  /* "apps/v1" */
	int preferred;
};

static int legacy_walk(struct owners_resource_table *t, struct owners_http_client *c,
		       const struct owners_json_value *api, const struct owners_json_value *apis,
		       struct owners_error *err)
{
	struct owners_discovery_parse_group_list groups;
	struct gv_fetch *fetches = NULL;
	size_t n = 0, cap = 0, i, v;
	int rc;

	owners_discovery_parse_group_list_init(&groups);
	rc = owners_discovery_parse_groups(&groups, api, err);
	if (!rc && apis)
		rc = owners_discovery_parse_groups(&groups, apis, err);
	for (i = 0; !rc && i < groups.count; i++)
		cap += groups.items[i].n_versions;
	if (!rc && !(fetches = calloc(cap ? cap : 1, sizeof(*fetches))))
		rc = owners_error_oom(err);
	for (i = 0; !rc && i < groups.count; i++) {
		const struct owners_discovery_parse_group *g = &groups.items[i];

		for (v = 0; !rc && v < g->n_versions; v++) {
			struct gv_fetch *f = &fetches[n++];
			struct owners_buf gv = OWNERS_BUF_INIT;

			owners_http_request_init(&f->req);
			f->preferred = g->preferred_version && !strcmp(g->preferred_version, g->versions[v]);
			if (*g->name)
				rc = owners_buf_addf(&gv, "%s/%s", g->name, g->versions[v]);
			else
				rc = owners_buf_adds(&gv, g->versions[v]);
			if (!rc)
				rc = owners_buf_addf(&f->req.path, "%s/%s", *g->name ? "/apis" : "/api", gv.ptr);
			f->group_version = owners_buf_detach(&gv);
			if (rc || !f->group_version)
				rc = owners_error_oom(err);
			else
				rc = owners_http_submit(c, &f->req);
		}
	}
	if (!rc)
		rc = owners_http_run(c, err);
	for (i = 0; !rc && i < n; i++) {
		struct gv_fetch *f = &fetches[i];
		struct owners_json_value *doc = NULL;
		struct owners_error one = OWNERS_ERROR_INIT;

		/* One group failing is a warning about that group, not a failure. */
		if (f->req.err.code)
			rc = owners_resource_table_add_failure(t, f->group_version,
							       owners_error_message(&f->req.err));
		else if (owners_json_parse(&doc, f->req.response.ptr, f->req.response.len, &one) ||
			 owners_discovery_parse_resource_list(t, doc, f->preferred, &one))
			rc = owners_resource_table_add_failure(t, f->group_version, owners_error_message(&one));
		if (rc)
			rc = owners_error_oom(err);
		owners_json_value_free(doc);
		owners_error_clear(&one);
	}
	for (i = 0; i < n; i++) {
		owners_http_request_clear(&fetches[i].req);
		free(fetches[i].group_version);
	}
	free(fetches);
	owners_discovery_parse_group_list_clear(&groups);
	return rc;
}

static int fetch(struct owners_resource_table *t, struct owners_http_client *c, const char *server,
		 struct owners_discovery_stats *stats, struct owners_error *err)
{
	struct owners_http_request api, apis;
	struct owners_json_value *api_doc = NULL, *apis_doc = NULL;
	int rc;

	owners_http_request_init(&api);
	owners_http_request_init(&apis);
	api.accept = AGGREGATED_ACCEPT;
	apis.accept = AGGREGATED_ACCEPT;
	rc = owners_buf_adds(&api.path, "/api");
	if (!rc)
		rc = owners_buf_adds(&apis.path, "/apis");
	if (rc) {
		rc = owners_error_oom(err);
		goto out;
	}
	owners_http_submit(c, &api);
	owners_http_submit(c, &apis);
	if ((rc = owners_http_run(c, err)))
		goto out;
	if (api.err.code) {
		rc = request_failed(err, &api, server);
		goto out;
	}
	if ((rc = owners_json_parse(&api_doc, api.response.ptr, api.response.len, err))) {
		owners_error_prefix(err, "cannot read the server's /api discovery");
		goto out;
	}
	/* /apis can be missing on a very old server: the core group alone. */
	if (!apis.err.code && owners_json_parse(&apis_doc, apis.response.ptr, apis.response.len, NULL))
		apis_doc = NULL;
	if (owners_discovery_parse_detect(api_doc) == OWNERS_DISCOVERY_AGGREGATED && apis_doc &&
	    owners_discovery_parse_detect(apis_doc) == OWNERS_DISCOVERY_AGGREGATED) {
		stats->aggregated = 1;
		rc = owners_discovery_parse_aggregated(t, api_doc, err);
		if (!rc)
			rc = owners_discovery_parse_aggregated(t, apis_doc, err);
	} else {
		rc = legacy_walk(t, c, api_doc, apis_doc, err);
	}
out:
	owners_json_value_free(api_doc);
	owners_json_value_free(apis_doc);
	owners_http_request_clear(&api);
	owners_http_request_clear(&apis);
	return rc;
}

int owners_discovery_load(struct owners_resource_table *out, struct owners_http_client *c,
			  const char *server, const struct owners_discovery_options *o,
			  struct owners_discovery_stats *stats, struct owners_error *err)
{
	unsigned long before = owners_http_requests_sent(c);
	int rc;

	memset(stats, 0, sizeof(*stats));
	if (o->cache_dir && !o->refresh && !load_cache(out, o->cache_dir, server, o)) {
		stats->from_cache = 1;
		owners_resource_table_mark_tracked(out);
		return 0;
	}
	rc = fetch(out, c, server, stats, err);
	stats->requests = owners_http_requests_sent(c) - before;
	if (rc) {
		owners_resource_table_clear(out);
		owners_resource_table_init(out);
		return rc;
	}
	if (o->cache_dir)
		save_cache(out, o->cache_dir, server);
	owners_resource_table_mark_tracked(out);
	return 0;
}
