/* Growing arrays (see grow.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "owners_error.h"
#include "grow.h"

/* git's alloc_nr(): half as much again, plus 16 so that a small array does
 * not crawl through sizes 1, 2, 3; never more than max. */
static size_t alloc_nr(size_t cap, size_t max)
{
	size_t step;

	if (cap > max || max - cap < 16)
		return max;
	cap += 16;
	step = cap / 2;
	return max - cap < step ? max : cap + step;
}

int owners_grow_reserve(void *arrayp, size_t *cap, size_t need, size_t elem)
{
	size_t max = SIZE_MAX / elem, n;
	void *old, *p;

	if (need <= *cap)
		return 0;
	if (need > max)
		return OWNERS_ENOMEM;
	n = alloc_nr(*cap, max);
	if (n < need)
		n = need;
	/* The array's pointer is read and written as the bytes of a void *,
	 * never through a void ** (which would pun its type): every object
	 * pointer has the representation of a void * on the systems owners
	 * runs on (POSIX asks as much, for dlsym()). */
	memcpy(&old, arrayp, sizeof(old));
	p = realloc(old, n * elem);
	if (!p)
		return OWNERS_ENOMEM;
	memcpy(arrayp, &p, sizeof(p));
	*cap = n;
	return 0;
}
