#include "discovery_parse.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "grow.h"

/*
 * Each parser walks its document twice: first only checking the shape,
 * then adding. So a document refused half-way leaves the table untouched,
 * and the second walk can fail only for want of memory.
 */

struct walk {
	int add;                  /* 0: the checking walk */
	int preferred;            /* resource lists: the version is preferred */
	struct owners_resource_table *t;
	struct owners_discovery_parse_group_list *groups;
	struct owners_error *err;
	const char *what;         /* "aggregated discovery document" */
	struct owners_buf path;   /* where we are: "items[2].versions[0]" */
};

static const char *type_name(const struct owners_json_value *v)
{
	switch (v->type) {
	case OWNERS_JSON_NULL: return "null";
	case OWNERS_JSON_BOOL: return "a boolean";
	case OWNERS_JSON_NUMBER: return "a number";
	case OWNERS_JSON_STRING: return "a string";
	case OWNERS_JSON_OBJECT: return "an object";
	case OWNERS_JSON_ARRAY: return "an array";
	}
	return "a value";
}

static const char *want_name(enum owners_json_type type)
{
	static const struct owners_json_value probe[] = {
		{ .type = OWNERS_JSON_NULL },   { .type = OWNERS_JSON_BOOL },
		{ .type = OWNERS_JSON_NUMBER }, { .type = OWNERS_JSON_STRING },
		{ .type = OWNERS_JSON_OBJECT }, { .type = OWNERS_JSON_ARRAY },
	};

	return type_name(&probe[type]);
}

/* The path of key below where we are, for messages. A failure to build it
 * only makes the message shorter. */
static void where(struct walk *w, struct owners_buf *b, const char *key)
{
	owners_buf_add(b, w->path.ptr, w->path.len);
	if (key)
		owners_buf_addf(b, "%s%s", w->path.len ? "." : "", key);
}

static int bad_type(struct walk *w, const char *key, const struct owners_json_value *v,
		    enum owners_json_type want)
{
	struct owners_buf b = OWNERS_BUF_INIT;

	where(w, &b, key);
	if (!b.len)
		owners_error_set(w->err, OWNERS_EPROTO, "invalid %s: the document is %s, expected %s",
				 w->what, type_name(v), want_name(want));
	else
		owners_error_set(w->err, OWNERS_EPROTO, "invalid %s: '%s' is %s, expected %s", w->what,
				 b.ptr, type_name(v), want_name(want));
	owners_buf_clear(&b);
	return OWNERS_EPROTO;
}

static int missing(struct walk *w, const char *key)
{
	struct owners_buf b = OWNERS_BUF_INIT;

	where(w, &b, key);
	owners_error_set(w->err, OWNERS_EPROTO, "invalid %s: '%s' is missing", w->what, b.ptr);
	owners_buf_clear(&b);
	return OWNERS_EPROTO;
}

/* obj[key] when it has the given type; *out is NULL when it is absent or
 * null (Go's encoder writes null for empty slices and pointers). */
static int member(struct walk *w, const struct owners_json_value *obj, const char *key,
		  enum owners_json_type type, int required, const struct owners_json_value **out)
{
	const struct owners_json_value *v = owners_json_get(obj, key);

	*out = NULL;
	if (!v || v->type == OWNERS_JSON_NULL) {
		if (!required)
			return 0;
		missing(w, key);
		return OWNERS_EPROTO;
	}
	if (v->type != type) {
		bad_type(w, key, v, type);
		return OWNERS_EPROTO;
	}
	*out = v;
	return 0;
}

/* Descends into key[index]; returns the mark to come back to. */
static size_t push(struct walk *w, const char *key, size_t index)
{
	size_t mark = w->path.len;

	owners_buf_addf(&w->path, "%s%s[%zu]", mark ? "." : "", key, index);
	return mark;
}

static size_t push_key(struct walk *w, const char *key)
{
	size_t mark = w->path.len;

	owners_buf_addf(&w->path, "%s%s", mark ? "." : "", key);
	return mark;
}

static void pop(struct walk *w, size_t mark)
{
	owners_buf_truncate(&w->path, mark);
}

static int oom(struct walk *w)
{
	return owners_error_oom(w->err);
}

/* obj[key], an optional array of strings. In the adding walk, *out is a
 * new array of pointers borrowed from the document (free only the array). */
static int string_list(struct walk *w, const struct owners_json_value *obj, const char *key,
		       char ***out, size_t *n)
{
	const struct owners_json_value *a;
	size_t i, mark;
	int rc;

	*out = NULL;
	*n = 0;
	rc = member(w, obj, key, OWNERS_JSON_ARRAY, 0, &a);
	if (rc || !a)
		return rc;
	for (i = 0; i < a->count; i++)
		if (a->items[i]->type != OWNERS_JSON_STRING) {
			mark = push(w, key, i);
			rc = bad_type(w, NULL, a->items[i], OWNERS_JSON_STRING);
			pop(w, mark);
			return rc;
		}
	if (!w->add || !a->count)
		return 0;
	*out = malloc(a->count * sizeof(**out));
	if (!*out)
		return oom(w);
	for (i = 0; i < a->count; i++)
		(*out)[i] = a->items[i]->string;
	*n = a->count;
	return 0;
}

unsigned owners_discovery_parse_verb(const char *verb)
{
	static const struct {
		const char *name;
		unsigned bit;
	} verbs[] = {
		{ "get", OWNERS_VERB_GET },
		{ "list", OWNERS_VERB_LIST },
		{ "watch", OWNERS_VERB_WATCH },
		{ "delete", OWNERS_VERB_DELETE },
		{ "patch", OWNERS_VERB_PATCH },
		{ "update", OWNERS_VERB_UPDATE },
		{ "create", OWNERS_VERB_CREATE },
		{ "deletecollection", OWNERS_VERB_DELETECOLLECTION },
	};
	size_t i;

	for (i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++)
		if (!strcmp(verb, verbs[i].name))
			return verbs[i].bit;
	return 0;
}

/* The parts of a resource both formats share: verbs, shortNames,
 * categories. Fills r (borrowing), the caller frees r's two arrays. */
static int common_lists(struct walk *w, const struct owners_json_value *res,
			struct owners_resource *r)
{
	char **verbs = NULL;
	size_t n_verbs = 0, i;
	int rc;

	rc = string_list(w, res, "verbs", &verbs, &n_verbs);
	if (!rc)
		rc = string_list(w, res, "shortNames", &r->short_names, &r->n_short_names);
	if (!rc)
		rc = string_list(w, res, "categories", &r->categories, &r->n_categories);
	for (i = 0; i < n_verbs; i++)
		r->verbs |= owners_discovery_parse_verb(verbs[i]);
	free(verbs);
	return rc;
}

static int table_add(struct walk *w, const struct owners_resource *r)
{
	int rc = owners_resource_table_add(w->t, r);

	if (rc == OWNERS_ENOMEM)
		return oom(w);
	if (rc)
		return owners_error_set(w->err, rc, "invalid %s: cannot add resource '%s'", w->what,
					r->resource);
	return 0;
}

static const char *str_or_empty(const struct owners_json_value *v)
{
	return v ? v->string : "";
}

/* ---- detection --------------------------------------------------------- */

enum owners_discovery_parse_format
owners_discovery_parse_detect(const struct owners_json_value *doc)
{
	const char *kind = owners_json_string(owners_json_get(doc, "kind"));
	const char *api_version = owners_json_string(owners_json_get(doc, "apiVersion"));

	if (!kind)
		return OWNERS_DISCOVERY_UNKNOWN;
	if (!strcmp(kind, "APIGroupDiscoveryList"))
		/* Only the versions whose shape we know: a future v3 may differ. */
		return api_version && (!strcmp(api_version, "apidiscovery.k8s.io/v2") ||
				       !strcmp(api_version, "apidiscovery.k8s.io/v2beta1"))
			       ? OWNERS_DISCOVERY_AGGREGATED
			       : OWNERS_DISCOVERY_UNKNOWN;
	if (!strcmp(kind, "APIVersions"))
		return OWNERS_DISCOVERY_API_VERSIONS;
	if (!strcmp(kind, "APIGroupList"))
		return OWNERS_DISCOVERY_API_GROUP_LIST;
	if (!strcmp(kind, "APIResourceList"))
		return OWNERS_DISCOVERY_API_RESOURCE_LIST;
	if (!strcmp(kind, "Status"))
		return OWNERS_DISCOVERY_STATUS;
	return OWNERS_DISCOVERY_UNKNOWN;
}

/* Refuses a document that is not of the expected format, naming it. */
static int expect_format(const struct owners_json_value *doc, enum owners_discovery_parse_format a,
			 enum owners_discovery_parse_format b, const char *what, const char *kinds,
			 struct owners_error *err)
{
	enum owners_discovery_parse_format f = owners_discovery_parse_detect(doc);
	const char *kind, *api_version, *message;

	if (f == a || f == b)
		return 0;
	if (!doc || doc->type != OWNERS_JSON_OBJECT)
		return owners_error_set(err, OWNERS_EPROTO, "invalid %s: not a JSON object", what);
	kind = owners_json_string(owners_json_get(doc, "kind"));
	api_version = owners_json_string(owners_json_get(doc, "apiVersion"));
	if (f == OWNERS_DISCOVERY_STATUS) {
		message = owners_json_string(owners_json_get(doc, "message"));
		return owners_error_set(err, OWNERS_EPROTO, "invalid %s: the server sent a status: %s",
					what, message ? message : "no message");
	}
	if (!kind)
		return owners_error_set(err, OWNERS_EPROTO, "invalid %s: no kind, expected %s", what,
					kinds);
	return owners_error_set(err, OWNERS_EPROTO, "invalid %s: kind '%s'%s%s%s, expected %s", what,
				kind, api_version ? " (" : "", api_version ? api_version : "",
				api_version ? ")" : "", kinds);
}

/* ---- aggregated -------------------------------------------------------- */

/* Whether an aggregated discovery entry lists the subresource `which`
 * ("status", "scale"). A malformed list only costs what the subresource
 * gives (the READY/STATUS columns, scaling first): no error. */
static int has_subresource(const struct owners_json_value *res, const char *which)
{
	const struct owners_json_value *subs = owners_json_get(res, "subresources");
	size_t i;

	for (i = 0; subs && subs->type == OWNERS_JSON_ARRAY && i < subs->count; i++) {
		const char *name = owners_json_string(owners_json_get(subs->items[i], "subresource"));

		if (name && !strcmp(name, which))
			return 1;
	}
	return 0;
}

static int aggregated_resource(struct walk *w, const struct owners_json_value *res,
			       const char *group, const char *version, int preferred)
{
	const struct owners_json_value *name, *rk, *kind = NULL, *scope, *singular;
	struct owners_resource r;
	size_t mark;
	int rc;

	memset(&r, 0, sizeof(r));
	if (res->type != OWNERS_JSON_OBJECT)
		return bad_type(w, NULL, res, OWNERS_JSON_OBJECT);
	if ((rc = member(w, res, "resource", OWNERS_JSON_STRING, 1, &name)) ||
	    (rc = member(w, res, "responseKind", OWNERS_JSON_OBJECT, 0, &rk)) ||
	    (rc = member(w, res, "scope", OWNERS_JSON_STRING, 0, &scope)) ||
	    (rc = member(w, res, "singularResource", OWNERS_JSON_STRING, 0, &singular)))
		goto out;
	if (rk) {
		mark = push_key(w, "responseKind");
		rc = member(w, rk, "kind", OWNERS_JSON_STRING, 0, &kind);
		pop(w, mark);
		if (rc)
			goto out;
	}
	if ((rc = common_lists(w, res, &r)))
		goto out;
	/* Subresources live in their parent's "subresources" and are ignored
	 * there; a '/' here would be one all the same. Without a kind nothing
	 * can refer to the resource (client-go drops these too). */
	if (!w->add || !kind || !*kind->string || !*name->string || strchr(name->string, '/'))
		goto out;
	r.group = (char *)group;
	r.version = (char *)version;
	r.resource = name->string;
	r.singular = (char *)str_or_empty(singular);
	r.kind = kind->string;
	r.namespaced = scope && !strcmp(scope->string, "Namespaced");
	r.preferred = preferred;
	r.has_status = has_subresource(res, "status");
	r.has_scale = has_subresource(res, "scale");
	rc = table_add(w, &r);
out:
	free(r.short_names);
	free(r.categories);
	return rc;
}

static int aggregated_version(struct walk *w, const struct owners_json_value *v,
			      const char *group, int *preferred_taken)
{
	const struct owners_json_value *version, *freshness, *resources;
	struct owners_buf gv = OWNERS_BUF_INIT;
	size_t i, mark;
	int rc, preferred;

	if (v->type != OWNERS_JSON_OBJECT)
		return bad_type(w, NULL, v, OWNERS_JSON_OBJECT);
	if ((rc = member(w, v, "version", OWNERS_JSON_STRING, 1, &version)) ||
	    (rc = member(w, v, "freshness", OWNERS_JSON_STRING, 0, &freshness)) ||
	    (rc = member(w, v, "resources", OWNERS_JSON_ARRAY, 0, &resources)))
		return rc;
	if (!*version->string)
		return missing(w, "version");
	if (freshness && !strcmp(freshness->string, "Stale")) {
		if (!w->add)
			return 0;
		if (*group ? owners_buf_addf(&gv, "%s/%s", group, version->string)
			   : owners_buf_adds(&gv, version->string))
			return oom(w);
		rc = owners_resource_table_add_stale(w->t, gv.ptr);
		owners_buf_clear(&gv);
		return rc ? oom(w) : 0;
	}
	preferred = !*preferred_taken;
	*preferred_taken = 1;
	for (i = 0; !rc && resources && i < resources->count; i++) {
		mark = push(w, "resources", i);
		rc = aggregated_resource(w, resources->items[i], group, version->string, preferred);
		pop(w, mark);
	}
	return rc;
}

static int aggregated_walk(struct walk *w, const struct owners_json_value *doc)
{
	const struct owners_json_value *items, *g, *meta, *name, *versions;
	size_t i, j, mark, mark2;
	int rc, preferred_taken;

	if ((rc = member(w, doc, "items", OWNERS_JSON_ARRAY, 1, &items)))
		return rc;
	for (i = 0; !rc && i < items->count; i++) {
		g = items->items[i];
		mark = push(w, "items", i);
		if (g->type != OWNERS_JSON_OBJECT) {
			rc = bad_type(w, NULL, g, OWNERS_JSON_OBJECT);
		} else if (!(rc = member(w, g, "metadata", OWNERS_JSON_OBJECT, 0, &meta)) &&
			   !(rc = member(w, g, "versions", OWNERS_JSON_ARRAY, 0, &versions))) {
			name = NULL;
			if (meta) {
				mark2 = push_key(w, "metadata");
				rc = member(w, meta, "name", OWNERS_JSON_STRING, 0, &name);
				pop(w, mark2);
			}
			/* The core group (in /api) has no name. */
			preferred_taken = 0;
			for (j = 0; !rc && versions && j < versions->count; j++) {
				mark2 = push(w, "versions", j);
				rc = aggregated_version(w, versions->items[j], str_or_empty(name),
							&preferred_taken);
				pop(w, mark2);
			}
		}
		pop(w, mark);
	}
	return rc;
}

/* Runs the checking walk, then the adding one. */
static int two_walks(struct walk *w, const struct owners_json_value *doc,
		     int (*fn)(struct walk *, const struct owners_json_value *))
{
	int rc;

	w->add = 0;
	rc = fn(w, doc);
	if (!rc) {
		w->add = 1;
		owners_buf_reset(&w->path);
		rc = fn(w, doc);
	}
	owners_buf_clear(&w->path);
	return rc;
}

int owners_discovery_parse_aggregated(struct owners_resource_table *t,
				      const struct owners_json_value *doc,
				      struct owners_error *err)
{
	struct walk w = { 0, 0, t, NULL, err, "aggregated discovery document", OWNERS_BUF_INIT };
	int rc;

	rc = expect_format(doc, OWNERS_DISCOVERY_AGGREGATED, OWNERS_DISCOVERY_AGGREGATED, w.what,
			   "an APIGroupDiscoveryList (apidiscovery.k8s.io/v2 or v2beta1)", err);
	return rc ? rc : two_walks(&w, doc, aggregated_walk);
}

/* ---- legacy: groups ---------------------------------------------------- */

void owners_discovery_parse_group_list_init(struct owners_discovery_parse_group_list *g)
{
	memset(g, 0, sizeof(*g));
}

static void group_clear(struct owners_discovery_parse_group *g)
{
	size_t i;

	free(g->name);
	for (i = 0; i < g->n_versions; i++)
		free(g->versions[i]);
	free(g->versions);
	free(g->preferred_version);
	memset(g, 0, sizeof(*g));
}

void owners_discovery_parse_group_list_clear(struct owners_discovery_parse_group_list *g)
{
	size_t i;

	if (!g)
		return;
	for (i = 0; i < g->count; i++)
		group_clear(&g->items[i]);
	free(g->items);
	owners_discovery_parse_group_list_init(g);
}

/* Appends a group; versions are borrowed from the document and copied. */
static int group_add(struct walk *w, const char *name, const char *const *versions, size_t n,
		     const char *preferred)
{
	struct owners_discovery_parse_group_list *out = w->groups;
	struct owners_discovery_parse_group g;
	size_t i;

	memset(&g, 0, sizeof(g));
	if (OWNERS_GROW(out->items, out->cap, out->count + 1))
		return oom(w);
	g.name = owners_strdup(name);
	g.preferred_version = owners_strdup(preferred ? preferred : n ? versions[0] : "");
	g.versions = n ? calloc(n, sizeof(*g.versions)) : NULL;
	if (!g.name || !g.preferred_version || (n && !g.versions))
		goto oom;
	for (i = 0; i < n; i++) {
		if (!(g.versions[i] = owners_strdup(versions[i])))
			goto oom;
		g.n_versions++;
	}
	out->items[out->count++] = g;
	return 0;
oom:
	group_clear(&g);
	return oom(w);
}

static int api_versions_walk(struct walk *w, const struct owners_json_value *doc)
{
	char **versions = NULL;
	size_t n = 0;
	int rc;

	rc = string_list(w, doc, "versions", &versions, &n);
	if (!rc && !owners_json_get(doc, "versions"))
		rc = missing(w, "versions");
	if (!rc && w->add)
		rc = group_add(w, "", (const char *const *)versions, n, NULL);
	free(versions);
	return rc;
}

/* One entry of an APIGroup's versions: {"groupVersion": "apps/v1",
 * "version": "v1"}. */
static int group_version(struct walk *w, const struct owners_json_value *ver, const char **out)
{
	const struct owners_json_value *v, *gv;
	const char *slash;
	int rc;

	if (ver->type != OWNERS_JSON_OBJECT)
		return bad_type(w, NULL, ver, OWNERS_JSON_OBJECT);
	if ((rc = member(w, ver, "version", OWNERS_JSON_STRING, 0, &v)) ||
	    (rc = member(w, ver, "groupVersion", OWNERS_JSON_STRING, 0, &gv)))
		return rc;
	if (v && *v->string) {
		if (out)
			*out = v->string;
		return 0;
	}
	/* Only groupVersion: the version is what follows the '/'. */
	slash = gv ? strchr(gv->string, '/') : NULL;
	if (!slash || !slash[1])
		return missing(w, "version");
	if (out)
		*out = slash + 1;
	return 0;
}

/* One APIGroup: {"name": "apps", "versions": [...], "preferredVersion": {...}}. */
static int group_list_entry(struct walk *w, const struct owners_json_value *g)
{
	const struct owners_json_value *name, *versions, *pv, *pref = NULL;
	const char **list = NULL;
	size_t j, n, mark;
	int rc;

	if (g->type != OWNERS_JSON_OBJECT)
		return bad_type(w, NULL, g, OWNERS_JSON_OBJECT);
	if ((rc = member(w, g, "name", OWNERS_JSON_STRING, 1, &name)) ||
	    (rc = member(w, g, "versions", OWNERS_JSON_ARRAY, 0, &versions)) ||
	    (rc = member(w, g, "preferredVersion", OWNERS_JSON_OBJECT, 0, &pv)))
		goto out;
	if (pv) {
		mark = push_key(w, "preferredVersion");
		rc = member(w, pv, "version", OWNERS_JSON_STRING, 0, &pref);
		pop(w, mark);
		if (rc)
			goto out;
	}
	n = versions ? versions->count : 0;
	if (w->add && n && !(list = calloc(n, sizeof(*list)))) {
		rc = oom(w);
		goto out;
	}
	for (j = 0; !rc && j < n; j++) {
		mark = push(w, "versions", j);
		rc = group_version(w, versions->items[j], list ? &list[j] : NULL);
		pop(w, mark);
	}
	if (!rc && w->add)
		rc = group_add(w, name->string, list, n, pref && *pref->string ? pref->string : NULL);
out:
	free(list);
	return rc;
}

static int group_list_walk(struct walk *w, const struct owners_json_value *doc)
{
	const struct owners_json_value *groups;
	size_t i, mark;
	int rc;

	if ((rc = member(w, doc, "groups", OWNERS_JSON_ARRAY, 1, &groups)))
		return rc;
	for (i = 0; !rc && i < groups->count; i++) {
		mark = push(w, "groups", i);
		rc = group_list_entry(w, groups->items[i]);
		pop(w, mark);
	}
	return rc;
}

static int groups_walk(struct walk *w, const struct owners_json_value *doc)
{
	return owners_discovery_parse_detect(doc) == OWNERS_DISCOVERY_API_VERSIONS
		       ? api_versions_walk(w, doc)
		       : group_list_walk(w, doc);
}

int owners_discovery_parse_groups(struct owners_discovery_parse_group_list *out,
				  const struct owners_json_value *doc, struct owners_error *err)
{
	struct walk w = { 0, 0, NULL, out, err, "discovery group list", OWNERS_BUF_INIT };
	int rc;

	rc = expect_format(doc, OWNERS_DISCOVERY_API_VERSIONS, OWNERS_DISCOVERY_API_GROUP_LIST,
			   w.what, "an APIVersions or an APIGroupList", err);
	return rc ? rc : two_walks(&w, doc, groups_walk);
}

/* ---- legacy: resources ------------------------------------------------- */

/* "pods/status", "deployments/scale": the resource of this group/version,
 * already in the table, has a status or a scale subresource. */
static void mark_subresource(struct walk *w, const char *name, const char *group,
			     const char *version)
{
	const char *slash = strchr(name, '/');
	int status = !strcmp(slash + 1, "status"), scale = !strcmp(slash + 1, "scale");
	size_t i;

	if (!status && !scale)
		return;
	for (i = w->t->count; i-- > 0;) {
		struct owners_resource *r = &w->t->items[i];

		if (!strncmp(r->resource, name, (size_t)(slash - name)) && !r->resource[slash - name] &&
		    !strcmp(r->group, group ? group : "") && !strcmp(r->version, version)) {
			r->has_status |= status;
			r->has_scale |= scale;
			return;
		}
	}
}

/* One APIResource. Its strings are borrowed into r; the table copies them. */
static int resource_list_entry(struct walk *w, const struct owners_json_value *res,
			       char *group, const char *version, const char *api_version)
{
	const struct owners_json_value *name, *singular, *kind, *ns;
	struct owners_resource r;
	int rc;

	memset(&r, 0, sizeof(r));
	if (res->type != OWNERS_JSON_OBJECT)
		return bad_type(w, NULL, res, OWNERS_JSON_OBJECT);
	if ((rc = member(w, res, "name", OWNERS_JSON_STRING, 1, &name)) ||
	    (rc = member(w, res, "singularName", OWNERS_JSON_STRING, 0, &singular)) ||
	    (rc = member(w, res, "kind", OWNERS_JSON_STRING, 0, &kind)) ||
	    (rc = member(w, res, "namespaced", OWNERS_JSON_BOOL, 0, &ns)) ||
	    (rc = common_lists(w, res, &r)))
		goto out;
	/* A name with '/' is a subresource: "deployments/scale". Its parent
	 * came before it in the list; "X/status" and "X/scale" mark it. */
	if (w->add && *name->string && strchr(name->string, '/')) {
		mark_subresource(w, name->string, group, version);
		goto out;
	}
	if (!w->add || !*name->string)
		goto out;
	r.group = group;
	r.version = (char *)version;
	r.api_version = (char *)api_version;
	r.resource = name->string;
	r.singular = (char *)str_or_empty(singular);
	r.kind = (char *)str_or_empty(kind);
	r.namespaced = ns && ns->boolean;
	r.preferred = w->preferred;
	rc = table_add(w, &r);
out:
	free(r.short_names);
	free(r.categories);
	return rc;
}

static int resource_list_walk(struct walk *w, const struct owners_json_value *doc)
{
	const struct owners_json_value *gv, *resources;
	char *group = NULL;
	const char *version, *slash;
	size_t i, mark;
	int rc;

	if ((rc = member(w, doc, "groupVersion", OWNERS_JSON_STRING, 1, &gv)) ||
	    (rc = member(w, doc, "resources", OWNERS_JSON_ARRAY, 0, &resources)))
		return rc;
	/* "v1" (the core group) or "apps/v1". */
	slash = strchr(gv->string, '/');
	version = slash ? slash + 1 : gv->string;
	if (!*version || slash == gv->string || strchr(version, '/'))
		return owners_error_set(w->err, OWNERS_EPROTO, "invalid %s: bad groupVersion '%s'",
					w->what, gv->string);
	if (w->add && !(group = owners_strndup(gv->string, slash ? (size_t)(slash - gv->string) : 0)))
		return oom(w);
	for (i = 0; !rc && resources && i < resources->count; i++) {
		mark = push(w, "resources", i);
		rc = resource_list_entry(w, resources->items[i], group, version, gv->string);
		pop(w, mark);
	}
	free(group);
	return rc;
}

int owners_discovery_parse_resource_list(struct owners_resource_table *t,
					 const struct owners_json_value *doc, int preferred,
					 struct owners_error *err)
{
	struct walk w = { 0, preferred, t, NULL, err, "discovery resource list", OWNERS_BUF_INIT };
	int rc;

	rc = expect_format(doc, OWNERS_DISCOVERY_API_RESOURCE_LIST,
			   OWNERS_DISCOVERY_API_RESOURCE_LIST, w.what, "an APIResourceList", err);
	if (rc)
		return rc;
	return two_walks(&w, doc, resource_list_walk);
}
