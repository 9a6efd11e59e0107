#include "similar.h"
#include "type_resolve.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"

enum round { BY_NAME, BY_SHORT, BY_KIND, ROUNDS };

static int matches(const struct owners_resource *r, const char *name, enum round round)
{
	size_t i;

	switch (round) {
	case BY_NAME:
		return !strcasecmp(r->resource, name) || (*r->singular && !strcasecmp(r->singular, name));
	case BY_SHORT:
		for (i = 0; i < r->n_short_names; i++)
			if (!strcasecmp(r->short_names[i], name))
				return 1;
		return 0;
	case BY_KIND:
		return *r->kind && !strcasecmp(r->kind, name);
	case ROUNDS:
		break;
	}
	return 0;
}

static int by_name(const void *a, const void *b)
{
	const struct owners_resource *x = *(const struct owners_resource *const *)a;
	const struct owners_resource *y = *(const struct owners_resource *const *)b;
	int c = strcmp(x->resource, y->resource);

	return c ? c : strcmp(x->group, y->group);
}

static int ambiguous(const struct owners_resource **cand, size_t n, const char *typed,
		     struct owners_error *err)
{
	struct owners_buf b = OWNERS_BUF_INIT;
	size_t i;
	int rc = 0;

	/* Sorted, so the message does not depend on discovery order. */
	qsort(cand, n, sizeof(*cand), by_name);
	for (i = 0; !rc && i < n; i++)
		rc = owners_buf_addf(&b, "%s%s%s%s", i ? ", " : "", cand[i]->resource,
				     *cand[i]->group ? "." : "", cand[i]->group);
	if (rc)
		rc = owners_error_oom(err);
	else
		rc = owners_error_set(err, OWNERS_EAMBIGUOUS,
				      "the server has several types named '%s': %s", typed, b.ptr);
	owners_buf_clear(&b);
	return rc;
}

/* One reading of what was typed: "name.version.group" or "name.group". */
struct query {
	const char *typed;   /* as typed, for messages */
	const char *name;
	const char *version; /* NULL: the preferred */
	const char *group;   /* NULL: any */
};

/*
 * Looks q->name up in q->group and q->version. Returns 0 with *out set,
 * OWNERS_ENOTFOUND without a message, or an error with its message.
 */
static int lookup(const struct owners_resource **out, const struct owners_resource_table *t,
		  const struct query *q, struct owners_error *err)
{
	const char *name = q->name, *version = q->version, *group = q->group;
	const struct owners_resource **cand = NULL;
	size_t i, j, n = 0, n_core;
	int round, rc = OWNERS_ENOTFOUND;

	if (!t->count)
		return OWNERS_ENOTFOUND;
	cand = malloc(t->count * sizeof(*cand));
	if (!cand)
		return owners_error_oom(err);
	for (round = 0; round < ROUNDS && !n; round++) {
		for (i = 0; i < t->count; i++) {
			const struct owners_resource *r = &t->items[i];

			if ((group && strcasecmp(r->group, group)) ||
			    (version && strcasecmp(r->version, version)) ||
			    !matches(r, name, (enum round)round))
				continue;
			/* One candidate per group and resource: the preferred
			 * version, else the first served (discovery order is the
			 * server's order of preference). */
			for (j = 0; j < n; j++)
				if (!strcmp(cand[j]->group, r->group) &&
				    !strcmp(cand[j]->resource, r->resource))
					break;
			if (j == n)
				cand[n++] = r;
			else if (r->preferred && !cand[j]->preferred)
				cand[j] = r;
		}
	}
	if (!n)
		goto out;
	/* kubectl prefers the legacy core group over any other. */
	for (i = n_core = 0; i < n; i++)
		if (!*cand[i]->group)
			cand[n_core++] = cand[i];
	if (n_core)
		n = n_core;
	if (n == 1) {
		*out = cand[0];
		rc = 0;
	} else {
		rc = ambiguous(cand, n, q->typed, err);
	}
out:
	free(cand);
	return rc;
}

/* The name of t closest to name (a resource, its singular, kind or short
 * name), for "did you mean": NULL when none is close (owners_similar_close()). */
static const char *closest_name(const struct owners_resource_table *t, const char *name)
{
	const char *best = NULL;
	size_t i, k, best_d = (size_t)-1;

	for (i = 0; i < t->count; i++) {
		const struct owners_resource *r = &t->items[i];
		const char *names[3] = { r->resource, r->singular, r->kind };

		for (k = 0; k < 3 + r->n_short_names; k++) {
			const char *c = k < 3 ? names[k] : r->short_names[k - 3];
			size_t d;

			if (!c || !*c || !owners_similar_close(name, c))
				continue;
			d = owners_similar_distance(name, c, 2);
			if (d < best_d) {
				best_d = d;
				best = c;
			}
		}
	}
	return best;
}

/* The failure recorded for group and version (NULL: any version), as an
 * index into t->failed_groups, or t->n_failed. An entry without a version
 * ("metrics.k8s.io") covers the group. */
static size_t failed_entry(const struct owners_resource_table *t, const char *group, const char *version)
{
	size_t i, len = strlen(group);

	for (i = 0; i < t->n_failed; i++) {
		const char *f = t->failed_groups[i];
		const char *slash = strchr(f, '/');
		size_t flen = slash ? (size_t)(slash - f) : strlen(f);

		if (flen != len || strncasecmp(f, group, len))
			continue;
		if (!slash || !version || !strcasecmp(slash + 1, version))
			return i;
	}
	return t->n_failed;
}

int owners_type_resolve(const struct owners_resource **out, const struct owners_resource_table *t,
			const char *typed, struct owners_error *err)
{
	char *name = NULL, *rest = NULL, *version = NULL;
	const char *dot, *dot2;
	size_t failed;
	int rc = OWNERS_ENOMEM;

	*out = NULL;
	if (!typed || !*typed)
		return owners_error_set(err, OWNERS_EINVAL, "empty resource type");
	dot = strchr(typed, '.');
	name = owners_strndup(typed, dot ? (size_t)(dot - typed) : strlen(typed));
	if (!name)
		goto oom;
	if (dot && dot[1]) {
		rest = owners_strdup(dot + 1);
		if (!rest)
			goto oom;
	}
	dot2 = rest ? strchr(rest, '.') : NULL;
	if (dot2 && dot2 != rest && dot2[1]) {
		version = owners_strndup(rest, (size_t)(dot2 - rest));
		if (!version)
			goto oom;
	}

	rc = OWNERS_ENOTFOUND;
	if (*name) {
		struct query q = { typed, name, version, version ? dot2 + 1 : NULL };

		/* name.version.group first, then name.group, as kubectl does. */
		if (version)
			rc = lookup(out, t, &q, err);
		q.version = NULL;
		q.group = rest;
		if (rc == OWNERS_ENOTFOUND)
			rc = lookup(out, t, &q, err);
	}
	if (rc != OWNERS_ENOTFOUND)
		goto done;

	/* Not served, or not known because discovery of its group failed? */
	failed = version ? failed_entry(t, dot2 + 1, version) : t->n_failed;
	if (failed == t->n_failed && rest)
		failed = failed_entry(t, rest, NULL);
	/* With the server's reason (the APIService's, cmd/session/session.c): "stale"
	 * alone says nothing. */
	if (failed < t->n_failed && t->failed_reasons[failed] && *t->failed_reasons[failed])
		rc = owners_error_set(err, OWNERS_ESERVER, "cannot resolve '%s': discovery of %s failed: %s", typed,
				      t->failed_groups[failed], t->failed_reasons[failed]);
	else if (failed < t->n_failed)
		rc = owners_error_set(err, OWNERS_ESERVER, "cannot resolve '%s': discovery of %s failed",
				      typed, t->failed_groups[failed]);
	else if (!rest && closest_name(t, name))
		rc = owners_error_set(err, OWNERS_ENOTFOUND,
				      "the server doesn't have a resource type '%s'; did you mean '%s'?", typed,
				      closest_name(t, name));
	else
		rc = owners_error_set(err, OWNERS_ENOTFOUND,
				      "the server doesn't have a resource type '%s'", typed);
	goto done;
oom:
	rc = owners_error_oom(err);
done:
	free(name);
	free(rest);
	free(version);
	return rc;
}

static int in_category(const struct owners_resource *r, const char *category)
{
	size_t i;

	for (i = 0; i < r->n_categories; i++)
		if (!strcasecmp(r->categories[i], category))
			return 1;
	return 0;
}

int owners_type_category(const struct owners_resource ***out, size_t *n, const struct owners_resource_table *t,
			 const char *typed)
{
	const struct owners_resource **cand = NULL;
	size_t i, j, count = 0;

	*out = NULL;
	*n = 0;
	if (!typed || !*typed || !t->count)
		return 0;
	for (i = 0; i < t->count; i++) {
		const struct owners_resource *r = &t->items[i];

		if (!in_category(r, typed))
			continue;
		if (!cand && !(cand = malloc(t->count * sizeof(*cand))))
			return OWNERS_ENOMEM;
		/* One per group and resource, as in lookup(). */
		for (j = 0; j < count; j++)
			if (!strcmp(cand[j]->group, r->group) && !strcmp(cand[j]->resource, r->resource))
				break;
		if (j == count)
			cand[count++] = r;
		else if (r->preferred && !cand[j]->preferred)
			cand[j] = r;
	}
	*out = cand;
	*n = count;
	return 0;
}

int owners_type_expand(const struct owners_resource ***out, size_t *n, int *category,
		       const struct owners_resource_table *t, const char *typed, struct owners_error *err)
{
	const struct owners_resource *r;
	int rc = owners_type_resolve(&r, t, typed, err);

	*out = NULL;
	*n = 0;
	*category = 0;
	if (!rc) {
		if (!(*out = malloc(sizeof(**out))))
			return owners_error_oom(err);
		(*out)[0] = r;
		*n = 1;
		return 0;
	}
	if (rc != OWNERS_ENOTFOUND)
		return rc;
	/* Not a type: a category perhaps ("all"). */
	if (owners_type_category(out, n, t, typed))
		return owners_error_oom(err);
	if (!*n)
		return rc;
	owners_error_clear(err);
	*category = 1;
	return 0;
}
