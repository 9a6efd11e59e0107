/* OWNERS_GROW: the one way arrays grow (lib/core/grow.h). Linked with
 * failalloc.c, so that an allocation can be made to fail. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "owners_error.h"
#include "failalloc.h"
#include "grow.h"
#include "tap.h"

#ifdef HAVE_LSAN
/* A size the allocator cannot give is a NULL from realloc(), as from
 * glibc's, not an AddressSanitizer report. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "allocator_may_return_null=1";
}
#endif

struct triple {
	int a, b, c;
};

/* Elements 0..n-1 hold i, 2i, 3i. */
static int holds(const struct triple *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i].a != (int)i || v[i].b != 2 * (int)i || v[i].c != 3 * (int)i)
			return 0;
	return 1;
}

static void from_empty(void)
{
	struct triple *v = NULL;
	size_t cap = 0;

	is_int(OWNERS_GROW(v, cap, 0), 0, "nothing needed: nothing done");
	ok(!v && !cap, "an empty array stays NULL when nothing is needed");
	is_int(OWNERS_GROW(v, cap, 1), 0, "room for one in an empty array");
	ok(v != NULL, "the array is allocated");
	is_int(cap, 24, "first step: (0 + 16) * 3 / 2 elements");
	v[cap - 1].a = 7; /* the whole capacity is usable (ASan checks) */
	free(v);
}

static void keeps_contents(void)
{
	struct triple *v = NULL, *before;
	size_t n = 0, cap = 0, grows = 0, old;
	int steps = 1;

	for (n = 0; n < 10000; n++) {
		old = cap;
		if (OWNERS_GROW(v, cap, n + 1)) {
			steps = 0;
			break;
		}
		if (cap != old) {
			grows++;
			steps &= cap == (old + 16) * 3 / 2;
		}
		v[n].a = (int)n;
		v[n].b = 2 * (int)n;
		v[n].c = 3 * (int)n;
	}
	ok(steps && n == 10000, "10000 appends, each step half as much again plus 16");
	ok(holds(v, n), "the elements survive every move");
	ok(grows < 20, "grown %zu times for 10000 elements", grows);

	before = v;
	old = cap;
	is_int(OWNERS_GROW(v, cap, cap), 0, "need == cap: nothing to do");
	ok(v == before && cap == old, "the array is not moved");

	is_int(OWNERS_GROW(v, cap, 5 * cap), 0, "a need beyond the next step");
	is_int(cap, 5 * old, "is met exactly");
	ok(holds(v, n), "and the contents are kept");
	free(v);
}

static void overflow(void)
{
	struct triple *v = NULL, *before;
	unsigned char *bytes = NULL;
	/* as large an element as clang takes (its sizes are counted in bits) */
	char(*huge)[SIZE_MAX / 16] = NULL;
	size_t cap = 0, n;

	for (n = 0; n < 3; n++) {
		if (OWNERS_GROW(v, cap, n + 1))
			break;
		v[n].a = (int)n;
		v[n].b = 2 * (int)n;
		v[n].c = 3 * (int)n;
	}
	before = v;
	is_int(OWNERS_GROW(v, cap, SIZE_MAX / sizeof(*v) + 1), OWNERS_ENOMEM,
	       "need * sizeof(element) past SIZE_MAX is refused");
	ok(v == before && cap == 24 && holds(v, 3),
	   "the array, its capacity and contents are kept");
	is_int(OWNERS_GROW(v, cap, SIZE_MAX), OWNERS_ENOMEM, "need SIZE_MAX is refused");
	ok(v == before && cap == 24 && holds(v, 3), "the array is still as it was");
	free(v);

	cap = 0;
	is_int(OWNERS_GROW(bytes, cap, SIZE_MAX), OWNERS_ENOMEM,
	       "SIZE_MAX one-byte elements fit in a size_t, but no allocator gives them");
	ok(!bytes && !cap, "the empty array stays empty");

	/* At most 16 such elements fit in a size_t: the first step (24) is
	 * cut to 16, whose size the allocator then refuses; computed without
	 * wrapping round, it is never a small size that could succeed. */
	is_int(OWNERS_GROW(huge, cap, 1), OWNERS_ENOMEM,
	       "a step past SIZE_MAX bytes is cut, then refused");
	ok(!huge && !cap, "the empty array stays empty");
	is_int(OWNERS_GROW(huge, cap, 17), OWNERS_ENOMEM,
	       "17 elements of SIZE_MAX / 16 bytes are refused");
	ok(!huge && !cap, "and nothing changes");
}

static void failed_allocation(void)
{
	struct triple *v = NULL, *before;
	size_t cap = 0, n;
	int rc;

	failalloc_arm(1);
	rc = OWNERS_GROW(v, cap, 1);
	ok(failalloc_disarm(NULL), "the first allocation was failed");
	is_int(rc, OWNERS_ENOMEM, "growing an empty array without memory: OWNERS_ENOMEM");
	ok(!v && !cap, "the array stays NULL with capacity 0");

	for (n = 0; n < 24; n++) {
		if (OWNERS_GROW(v, cap, n + 1))
			break;
		v[n].a = (int)n;
		v[n].b = 2 * (int)n;
		v[n].c = 3 * (int)n;
	}
	ok(n == 24 && cap == 24, "24 elements in one allocation");
	before = v;
	failalloc_arm(1);
	rc = OWNERS_GROW(v, cap, n + 1);
	ok(failalloc_disarm(NULL), "the next growth's allocation was failed");
	is_int(rc, OWNERS_ENOMEM, "OWNERS_ENOMEM");
	ok(v == before && cap == 24 && holds(v, n),
	   "the array, its capacity and contents are kept");
	is_int(OWNERS_GROW(v, cap, n + 1), 0, "and it grows once memory is back");
	ok(cap == 60 && holds(v, n), "to the next step, with its contents");
	free(v);
}

int main(void)
{
	from_empty();
	keeps_contents();
	overflow();
	failed_allocation();
	return tap_done();
}
