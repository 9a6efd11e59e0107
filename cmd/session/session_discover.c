#include "session_discover.h"
#include "session_state.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "apiservice.h"
#include "buf.h"
#include "discovery.h"
#include "grow.h"
#include "options.h"
#include "rest_config.h"
#include "session_connect.h"
#include "session_select.h"
#include "session_snapshot.h"
#include "type_resolve.h"

static const char *default_cache_dir(struct owners_buf *b)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");

	if (xdg && *xdg && !owners_buf_addf(b, "%s/owners", xdg))
		return b->ptr;
	if (home && *home && !owners_buf_addf(b, "%s/.cache/owners", home))
		return b->ptr;
	return NULL; /* no home: run without a disk cache */
}

/* Keeps a replaced table until the session closes: a type pointer a
 * caller still holds stays readable (it is never used to list again:
 * session_resolve_held() points the session's own into the new table). */
static int retire(struct session *s, struct owners_resource_table *old)
{
	if (OWNERS_GROW(s->retired, s->cap_retired, s->n_retired + 1))
		return OWNERS_ENOMEM;
	s->retired[s->n_retired++] = *old;
	return 0;
}

/* Aggregated discovery says only "stale" of a group whose API server
 * does not answer: the group's APIService says why, in the server's words
 * (ServiceNotFound, a 503 of its discovery check). */
static int explain_failed_groups(struct session *s)
{
	size_t i;

	for (i = 0; i < s->types.n_failed; i++) {
		struct owners_buf why = OWNERS_BUF_INIT;

		if (!owners_resource_table_failed_stale(&s->types, i) ||
		    !owners_apiservice_reason(s->http, s->types.failed_groups[i], &why)) {
			owners_buf_clear(&why);
			continue;
		}
		free(s->types.failed_reasons[i]);
		s->types.failed_reasons[i] = owners_buf_detach(&why);
		if (!s->types.failed_reasons[i])
			return OWNERS_ENOMEM;
	}
	return 0;
}

int session_discover(struct session *s, int refresh)
{
	/* (a cache's age is the machine's clock, whatever time an answer is about) */
	struct owners_discovery_options o = { NULL, owners_clock_wall(), 0, refresh };
	struct owners_discovery_stats stats;
	struct owners_buf dir = OWNERS_BUF_INIT;
	struct owners_resource_table old = s->types;
	int rc;

	if (s->snap)
		return 0; /* a snapshot's types came with it */

	if (s->types_loaded && retire(s, &old))
		return owners_error_oom(&s->err);
	o.cache_dir = s->cli->cache_dir ? s->cli->cache_dir : default_cache_dir(&dir);
	owners_resource_table_init(&s->types);
	s->types_loaded = 0;
	rc = owners_discovery_load(&s->types, s->http, s->cfg->server, &o, &stats, &s->err);
	owners_buf_clear(&dir);
	if (!rc) {
		s->types_loaded = 1;
		s->types_fresh = !stats.from_cache;
		rc = explain_failed_groups(s);
		if (!rc)
			rc = session_resolve_held(s);
	}
	return rc;
}

enum exit_code session_require_current_types(struct session *s)
{
	/* A type installed or removed since the cache was written changes
	 * what the GC sees: the cache is never trusted here. */
	return session_rediscover(s);
}

enum exit_code session_rediscover(struct session *s)
{
	if (s->types_fresh)
		return 0; /* already current: nothing new to learn */
	if (session_discover(s, 1))
		return session_fail(s);
	return 0;
}

enum exit_code session_resolve_type(struct session *s, const char *typed, const struct owners_resource **out)
{
	int rc = owners_type_resolve(out, &s->types, typed, &s->err);
	enum exit_code rediscovered;

	if (rc == OWNERS_ENOTFOUND && !s->types_fresh) {
		/* The cache may predate a CRD: ask the server once more. */
		owners_error_clear(&s->err);
		if ((rediscovered = session_rediscover(s)))
			return rediscovered;
		rc = owners_type_resolve(out, &s->types, typed, &s->err);
	}
	if (!rc)
		return 0;
	if (s->snap && rc == OWNERS_ENOTFOUND)
		session_snapshot_unknown_type(s, typed);
	report_error(&s->err);
	/* A type the server does not have is a mistake in the command line. */
	return rc == OWNERS_ENOTFOUND || rc == OWNERS_EAMBIGUOUS ? EXIT_USAGE : EXIT_ERROR;
}
