/*
 * A minimal TAP producer for unit tests: one executable per module, every
 * check numbered, a failing check prints where and what, and the exit code
 * is non-zero when any check failed (so ctest sees it).
 */
#ifndef OWNERS_TAP_H
#define OWNERS_TAP_H

#include <stdio.h>
#include <string.h>

static int tap_count, tap_failed;

#define ok(cond, ...)                                                              \
	do {                                                                       \
		int ok_ = !!(cond);                                                \
		tap_count++;                                                       \
		if (!ok_)                                                          \
			tap_failed++;                                              \
		printf("%sok %d - ", ok_ ? "" : "not ", tap_count);                \
		printf(__VA_ARGS__);                                               \
		printf("\n");                                                      \
		if (!ok_)                                                          \
			printf("#   failed at %s:%d: %s\n", __FILE__, __LINE__, #cond); \
	} while (0)

#define is_str(got, want, ...)                                                     \
	do {                                                                       \
		const char *g_ = (got), *w_ = (want);                              \
		int same_ = (g_ && w_) ? !strcmp(g_, w_) : g_ == w_;               \
		ok(same_, __VA_ARGS__);                                            \
		if (!same_)                                                        \
			printf("#   got:  '%s'\n#   want: '%s'\n", g_ ? g_ : "(null)", \
			       w_ ? w_ : "(null)");                                \
	} while (0)

#define is_int(got, want, ...)                                                     \
	do {                                                                       \
		long long g_ = (long long)(got), w_ = (long long)(want);           \
		ok(g_ == w_, __VA_ARGS__);                                         \
		if (g_ != w_)                                                      \
			printf("#   got:  %lld\n#   want: %lld\n", g_, w_);            \
	} while (0)

static inline int tap_done(void)
{
	printf("1..%d\n", tap_count);
	if (tap_failed)
		printf("# %d of %d checks failed\n", tap_failed, tap_count);
	return tap_failed ? 1 : 0;
}

#endif
