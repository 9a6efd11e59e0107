#include "uses.h"

#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "grow.h"
#include "owners_error.h"

static void use_clear(struct owners_use *u)
{
	free(u->group);
	free(u->kind);
	free(u->namespace_);
	free(u->name);
	free(u->path);
}

void owners_uses_clear(struct owners_uses *u)
{
	size_t i;

	for (i = 0; i < u->count; i++)
		use_clear(&u->items[i]);
	free(u->items);
	memset(u, 0, sizeof(*u));
}

const char *owners_uses_how_name(enum owners_use_how how)
{
	switch (how) {
	case OWNERS_USE_MOUNTS: return "mounts";
	case OWNERS_USE_MOUNTS_PROJECTED: return "mounts (projected)";
	case OWNERS_USE_ENV: return "reads env from";
	case OWNERS_USE_ENV_FROM: return "reads all env from";
	case OWNERS_USE_PULLS_WITH: return "pulls images with";
	case OWNERS_USE_CLAIMS: return "claims";
	case OWNERS_USE_CLAIMS_TEMPLATE: return "claims (template)";
	case OWNERS_USE_RUNS_AS: return "runs as";
	case OWNERS_USE_PRIORITY: return "has priority";
	case OWNERS_USE_RUNTIME: return "runs with";
	case OWNERS_USE_RUNS_ON: return "runs on";
	case OWNERS_USE_ROUTES_TO: return "routes to";
	case OWNERS_USE_TLS: return "serves TLS with";
	case OWNERS_USE_CLASS: return "is of class";
	case OWNERS_USE_PARAMETERS: return "is configured by";
	case OWNERS_USE_ATTACHES_TO: return "attaches to";
	case OWNERS_USE_BINDS: return "binds";
	case OWNERS_USE_GRANTS: return "grants to";
	case OWNERS_USE_BOUND_TO: return "is bound to";
	case OWNERS_USE_ATTACHES: return "attaches";
	case OWNERS_USE_SCALES: return "scales";
	case OWNERS_USE_HOLDS: return "holds";
	case OWNERS_USE_CALLS: return "calls";
	case OWNERS_USE_SELECTS: return "selects";
	case OWNERS_USE_TOKEN_OF: return "is a token of";
	}
	return "uses";
}

/* A copy of s, or NULL for NULL; *failed set when memory ran out. */
static char *copy(const char *s, int *failed)
{
	char *c = s ? owners_strdup(s) : NULL;

	if (s && !c)
		*failed = 1;
	return c;
}

int owners_uses_vadd(struct owners_uses *out, const struct owners_use_target *t,
		     enum owners_use_how how, int optional, const char *fmt, va_list ap)
{
	struct owners_buf path = OWNERS_BUF_INIT;
	struct owners_use u;
	int failed;

	if (!t->name || !*t->name)
		return 0;
	failed = owners_buf_vaddf(&path, fmt, ap) != 0;
	memset(&u, 0, sizeof(u));
	u.group = copy(t->group ? t->group : "", &failed);
	u.kind = copy(t->kind, &failed);
	u.namespace_ = copy(t->namespace_, &failed);
	u.name = copy(t->name, &failed);
	u.path = failed ? NULL : owners_buf_detach(&path);
	u.how = how;
	u.optional = optional;
	if (failed || !u.path || OWNERS_GROW(out->items, out->cap, out->count + 1)) {
		owners_buf_clear(&path);
		use_clear(&u);
		return OWNERS_ENOMEM;
	}
	out->items[out->count++] = u;
	return 0;
}

int owners_uses_add(struct owners_uses *out, const struct owners_use_target *t,
		    enum owners_use_how how, int optional, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = owners_uses_vadd(out, t, how, optional, fmt, ap);
	va_end(ap);
	return rc;
}

int owners_uses_names(const struct owners_use *u, const char *name)
{
	size_t stem = strlen(u->name);
	const char *p;
	long long n = 0;

	if (u->how != OWNERS_USE_CLAIMS_TEMPLATE)
		return !strcmp(u->name, name);
	if (strncmp(name, u->name, stem) || name[stem] != '-' || !name[stem + 1])
		return 0;
	/* the ordinal: decimal, no sign, no leading zero (as the
	 * StatefulSet controller writes it) */
	p = name + stem + 1;
	if (p[0] == '0' && p[1])
		return 0;
	for (; *p; p++) {
		if (*p < '0' || *p > '9' || n > (LLONG_MAX - 9) / 10)
			return 0;
		n = n * 10 + (*p - '0');
	}
	return n >= u->first_ordinal && n - u->first_ordinal < u->ordinals;
}
