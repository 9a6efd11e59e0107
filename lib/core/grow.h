/*
 * Growing arrays: the one way an array in lib/ or cmd/ gets bigger.
 *
 *	struct thing *v = NULL;
 *	size_t n = 0, cap = 0;
 *
 *	if (OWNERS_GROW(v, cap, n + 1))
 *		return OWNERS_ENOMEM;
 *	v[n++] = thing;
 *
 * OWNERS_GROW(array, cap, need) makes room for at least `need` elements of
 * *array. When cap is already enough it does nothing; otherwise it
 * reallocates array to half as many again as cap plus 16 (git's
 * alloc_nr(), so that appending one at a time costs amortised constant
 * time), or to need when that is more, and sets cap to the new size.
 *
 * It only reserves: the caller keeps its own count and writes the
 * elements. The room past the old cap is uninitialised, as realloc
 * leaves it; a caller that wants it zeroed (or its buffers initialised)
 * does so from the old cap, which it reads before the call.
 *
 * array is an lvalue of pointer type (a C array is refused at compile
 * time) and the element size is sizeof(*array), so the call is typed
 * where it is written; cap is a size_t lvalue (another integer type is
 * refused at compile time). Each argument is evaluated once.
 *
 * Ownership: the caller owns the array and frees it with free(). array
 * is NULL with cap 0 to start, and afterwards a block from malloc or
 * realloc with room for cap elements. OWNERS_GROW returns 0, or
 * OWNERS_ENOMEM when the allocation fails or need elements would not fit
 * in a size_t; then array and cap are left as they were (the elements
 * stay where they are, still owned by the caller).
 */
#ifndef OWNERS_GROW_H
#define OWNERS_GROW_H

#include <stddef.h>

/* The sizeof((array) = (array)) is never evaluated: it only makes the
 * compiler refuse an array that is not an assignable pointer. */
#define OWNERS_GROW(array, cap, need)                                                              \
	((void)sizeof((array) = (array)),                                                          \
	 owners_grow_reserve(&(array), &(cap), (need), sizeof(*(array))))

/* What OWNERS_GROW calls: arrayp is the address of the array's pointer
 * (any object pointer type), elem the size of one element (never 0). */
int owners_grow_reserve(void *arrayp, size_t *cap, size_t need, size_t elem);

#endif
