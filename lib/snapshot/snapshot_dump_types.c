#include "snapshot_dump_types.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "builtin_names.h"
#include "grow.h"

struct owners_snapshot_dump_seen {
	char *api_version;
	char *kind;
	char *plural; /* the layout's, NULL until one is given */
	int namespaced;
	int has_status;
	size_t placed;
	unsigned flags;
};

void owners_snapshot_dump_types_init(struct owners_snapshot_dump_types *t)
{
	memset(t, 0, sizeof(*t));
	owners_resource_table_init(&t->table);
}

void owners_snapshot_dump_types_clear(struct owners_snapshot_dump_types *t)
{
	size_t i;

	for (i = 0; i < t->n_seen; i++) {
		free(t->seen[i].api_version);
		free(t->seen[i].kind);
		free(t->seen[i].plural);
	}
	free(t->seen);
	owners_resource_table_clear(&t->table);
	owners_snapshot_dump_types_init(t);
}

int owners_snapshot_dump_types_valid(const char *api_version, const char *kind)
{
	const char *slash = strchr(api_version, '/');

	if (!*api_version || !*kind || strchr(kind, '/') || api_version[0] == '/')
		return 0;
	return !slash || (slash[1] && !strchr(slash + 1, '/'));
}

int owners_snapshot_dump_types_plural(struct owners_buf *out, const char *kind)
{
	size_t start = out->len, n = strlen(kind), i;

	if (owners_buf_adds(out, kind))
		return OWNERS_ENOMEM;
	for (i = start; i < out->len; i++)
		out->ptr[i] = (char)tolower((unsigned char)out->ptr[i]);
	/* client-go's unpluralizedSuffixes: the same in both numbers. */
	if (n >= 9 && !strcmp(out->ptr + out->len - 9, "endpoints"))
		return 0;
	if (n && out->ptr[out->len - 1] == 's')
		return owners_buf_adds(out, "es");
	if (n && out->ptr[out->len - 1] == 'y') {
		owners_buf_truncate(out, out->len - 1);
		return owners_buf_adds(out, "ies");
	}
	return owners_buf_adds(out, "s");
}

static struct owners_snapshot_dump_seen *lookup(const struct owners_snapshot_dump_types *t,
						const char *api_version, const char *kind,
						size_t *index)
{
	size_t i;

	if (t->last && !strcmp(t->seen[t->last - 1].kind, kind) &&
	    !strcmp(t->seen[t->last - 1].api_version, api_version)) {
		*index = t->last - 1;
		return &t->seen[t->last - 1];
	}
	for (i = 0; i < t->n_seen; i++)
		if (!strcmp(t->seen[i].kind, kind) &&
		    !strcmp(t->seen[i].api_version, api_version)) {
			*index = i;
			return &t->seen[i];
		}
	return NULL;
}

unsigned owners_snapshot_dump_types_flags(const struct owners_snapshot_dump_types *t,
					  const char *api_version, const char *kind)
{
	size_t i;
	const struct owners_snapshot_dump_seen *s = lookup(t, api_version, kind, &i);

	return s ? s->flags : 0;
}

int owners_snapshot_dump_types_note(struct owners_snapshot_dump_types *t,
				    const struct owners_snapshot_dump_type_note *n)
{
	size_t i = t->n_seen;
	struct owners_snapshot_dump_seen *s = lookup(t, n->api_version, n->kind, &i);

	if (!s) {
		if (OWNERS_GROW(t->seen, t->cap_seen, t->n_seen + 1))
			return OWNERS_ENOMEM;
		s = &t->seen[t->n_seen];
		memset(s, 0, sizeof(*s));
		s->api_version = owners_strdup(n->api_version);
		s->kind = owners_strdup(n->kind);
		if (!s->api_version || !s->kind) {
			free(s->api_version);
			free(s->kind);
			return OWNERS_ENOMEM;
		}
		t->n_seen++;
	}
	t->last = i + 1;
	if (n->plural && *n->plural && !s->plural && !(s->plural = owners_strdup(n->plural)))
		return OWNERS_ENOMEM;
	if (n->placed) {
		s->placed++;
		s->namespaced |= n->namespaced;
		s->has_status |= n->has_status;
	}
	s->flags |= n->flags;
	return 0;
}

/* Whether an earlier entry has the same group and plural: a version of a
 * type already in the table. */
static int earlier_version(const struct owners_resource_table *table, const char *group,
			   const char *plural)
{
	size_t i;

	for (i = 0; i < table->count; i++)
		if (!strcmp(table->items[i].group, group) &&
		    !strcmp(table->items[i].resource, plural))
			return 1;
	return 0;
}

static int add_type(struct owners_snapshot_dump_types *t, const struct owners_snapshot_dump_seen *s)
{
	struct owners_resource r;
	struct owners_buf group = OWNERS_BUF_INIT, plural = OWNERS_BUF_INIT;
	struct owners_buf singular = OWNERS_BUF_INIT;
	struct owners_builtin_names names;
	const char *slash = strchr(s->api_version, '/');
	size_t i;
	int rc = OWNERS_ENOMEM;

	memset(&r, 0, sizeof(r));
	if (slash && owners_buf_add(&group, s->api_version, (size_t)(slash - s->api_version)))
		goto out;
	if (s->plural ? owners_buf_adds(&plural, s->plural)
		      : owners_snapshot_dump_types_plural(&plural, s->kind))
		goto out;
	if (owners_buf_adds(&singular, s->kind))
		goto out;
	for (i = 0; i < singular.len; i++)
		singular.ptr[i] = (char)tolower((unsigned char)singular.ptr[i]);
	r.group = group.ptr;
	r.version = slash ? (char *)slash + 1 : s->api_version;
	r.api_version = s->api_version;
	r.resource = plural.ptr;
	r.singular = singular.ptr;
	r.kind = s->kind;
	r.verbs = OWNERS_VERB_GET | OWNERS_VERB_LIST | OWNERS_VERB_WATCH | OWNERS_VERB_DELETE |
		  OWNERS_VERB_PATCH;
	r.namespaced = s->namespaced;
	r.preferred = !earlier_version(&t->table, r.group, r.resource);
	r.has_status = s->has_status;
	/* kubectl's short names and categories of a built-in type: a dump has
	 * no discovery to say them, and cm/x or `all` must work on it */
	names = owners_builtin_names_of(r.group, r.resource);
	for (r.n_short_names = 0; names.short_names[r.n_short_names]; r.n_short_names++)
		;
	for (r.n_categories = 0; names.categories[r.n_categories]; r.n_categories++)
		;
	r.short_names = (char **)names.short_names; /* copied by the table */
	r.categories = (char **)names.categories;
	rc = owners_resource_table_add(&t->table, &r);
out:
	owners_buf_clear(&group);
	owners_buf_clear(&plural);
	owners_buf_clear(&singular);
	return rc;
}

int owners_snapshot_dump_types_build(struct owners_snapshot_dump_types *t)
{
	size_t i;
	int rc;

	for (i = 0; i < t->n_seen; i++)
		if (t->seen[i].placed && (rc = add_type(t, &t->seen[i])))
			return rc;
	owners_resource_table_mark_tracked(&t->table);
	return 0;
}

const struct owners_resource *
owners_snapshot_dump_types_find(const struct owners_snapshot_dump_types *t, const char *api_version,
				const char *kind)
{
	return owners_resource_by_gvk(&t->table, api_version, kind);
}

const struct owners_resource *
owners_snapshot_dump_types_by_name(const struct owners_snapshot_dump_types *t, const char *group,
				   const char *plural)
{
	const struct owners_resource *found = NULL;
	size_t i;

	for (i = 0; i < t->table.count; i++) {
		const struct owners_resource *r = &t->table.items[i];

		if (strcmp(r->group, group) || strcmp(r->resource, plural))
			continue;
		if (r->gc_tracked)
			return r;
		if (!found)
			found = r;
	}
	return found;
}
