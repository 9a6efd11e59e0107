#include "yajl_alloc.h"

#include "owners_error.h"

#include <stdlib.h>

/* Through the project's allocator (malloc, which the allocation-failure
 * tests replace), so that those tests fail yajl's allocations too. yajl
 * 2.1 does not check most of its own allocations (its handles, lexer,
 * buffers and stacks are written to at once), so a failed one never
 * returns to it: the program ends through owners_oom_fatal() with the
 * same clean out-of-memory message and exit code as anywhere else. */
static void *yajl_malloc_cb(void *ctx, size_t n)
{
	void *p = malloc(n);

	(void)ctx;
	if (!p)
		owners_oom_fatal();
	return p;
}

static void *yajl_realloc_cb(void *ctx, void *p, size_t n)
{
	void *q = realloc(p, n);

	(void)ctx;
	if (!q)
		owners_oom_fatal();
	return q;
}

static void yajl_free_cb(void *ctx, void *p)
{
	(void)ctx;
	free(p);
}

yajl_alloc_funcs owners_yajl_alloc_funcs = { yajl_malloc_cb, yajl_realloc_cb, yajl_free_cb, NULL };
