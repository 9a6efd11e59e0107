/*
 * A minimal TAP producer for unit tests: one executable per module, every
 * check numbered, a failing check prints where and what, and the exit code
 * is non-zero when any check failed (so ctest sees it).
 */
#ifndef OWNERS_TAP_H
#define OWNERS_TAP_H

#include <stdio.h>
#include <stdlib.h>
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

/* tap_skip(reason...): checks that cannot be made here. TAP's "# SKIP" on
 * stdout, "SKIP: reason" on stderr and, when OWNERS_SKIP_LOG names a file,
 * a line there (tests/run reports them: ctest shows nothing of a test that
 * passed); never a pass in disguise: under CI (CI=true), whose machine
 * .ci/run provides with every prerequisite, it is a failure. */
#define tap_skip(...)                                                              \
	do {                                                                       \
		const char *ci_ = getenv("CI");                                    \
		int fail_ = ci_ && !strcmp(ci_, "true");                           \
		tap_count++;                                                       \
		if (fail_)                                                         \
			tap_failed++;                                              \
		if (fail_) /* no "# SKIP" directive: a harness would pass it */    \
			printf("not ok %d - skipped, a failure under CI=true: ", tap_count); \
		else                                                               \
			printf("ok %d # SKIP ", tap_count);                        \
		printf(__VA_ARGS__);                                               \
		printf("\n");                                                      \
		fprintf(stderr, "SKIP: ");                                         \
		fprintf(stderr, __VA_ARGS__);                                      \
		fprintf(stderr, "\n");                                             \
		if (getenv("OWNERS_SKIP_LOG")) {                                   \
			FILE *log_ = fopen(getenv("OWNERS_SKIP_LOG"), "a");        \
			if (log_) {                                                \
				fprintf(log_, "%s: ", __FILE__);                   \
				fprintf(log_, __VA_ARGS__);                        \
				fprintf(log_, "\n");                               \
				fclose(log_);                                      \
			}                                                          \
		}                                                                  \
	} while (0)

static inline int tap_done(void)
{
	printf("1..%d\n", tap_count);
	if (tap_failed)
		printf("# %d of %d checks failed\n", tap_failed, tap_count);
	return tap_failed ? 1 : 0;
}

#endif
