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

/* Each relation's words, and its key in documents and snapshots (one
 * word, stable: a record read back finds its relation by it). Indexed by
 * enum owners_use_how. */
static const struct {
	const char *words, *key;
} hows[] = {
	[OWNERS_USE_MOUNTS] = { "mounts", "mounts" },
	[OWNERS_USE_MOUNTS_PROJECTED] = { "mounts (projected)", "mountsProjected" },
	[OWNERS_USE_ENV] = { "reads env from", "env" },
	[OWNERS_USE_ENV_FROM] = { "reads all env from", "envFrom" },
	[OWNERS_USE_PULLS_WITH] = { "pulls images with", "pullsWith" },
	[OWNERS_USE_CLAIMS] = { "claims", "claims" },
	[OWNERS_USE_CLAIMS_TEMPLATE] = { "claims (template)", "claimsTemplate" },
	[OWNERS_USE_RUNS_AS] = { "runs as", "runsAs" },
	[OWNERS_USE_PRIORITY] = { "has priority", "priority" },
	[OWNERS_USE_RUNTIME] = { "runs with", "runtime" },
	[OWNERS_USE_RUNS_ON] = { "runs on", "runsOn" },
	[OWNERS_USE_ROUTES_TO] = { "routes to", "routesTo" },
	[OWNERS_USE_TLS] = { "serves TLS with", "tls" },
	[OWNERS_USE_CLASS] = { "is of class", "class" },
	[OWNERS_USE_PARAMETERS] = { "is configured by", "parameters" },
	[OWNERS_USE_ATTACHES_TO] = { "attaches to", "attachesTo" },
	[OWNERS_USE_BINDS] = { "binds", "binds" },
	[OWNERS_USE_GRANTS] = { "grants to", "grants" },
	[OWNERS_USE_BOUND_TO] = { "is bound to", "boundTo" },
	[OWNERS_USE_ATTACHES] = { "attaches", "attaches" },
	[OWNERS_USE_SCALES] = { "scales", "scales" },
	[OWNERS_USE_HOLDS] = { "holds", "holds" },
	[OWNERS_USE_CALLS] = { "calls", "calls" },
	[OWNERS_USE_SELECTS] = { "selects", "selects" },
	[OWNERS_USE_TOKEN_OF] = { "is a token of", "tokenOf" },
};

const char *owners_uses_how_name(enum owners_use_how how)
{
	return (unsigned)how <= OWNERS_USE_HOW_LAST ? hows[how].words : "uses";
}

const char *owners_uses_how_key(enum owners_use_how how)
{
	return (unsigned)how <= OWNERS_USE_HOW_LAST ? hows[how].key : "uses";
}

int owners_uses_how_from_key(const char *key, enum owners_use_how *how)
{
	size_t i;

	for (i = 0; key && i <= OWNERS_USE_HOW_LAST; i++)
		if (!strcmp(hows[i].key, key)) {
			*how = (enum owners_use_how)i;
			return 0;
		}
	return OWNERS_EINVAL;
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
