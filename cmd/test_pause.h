/*
 * A test hook: the e2e suites make a command pause before a write
 * (OWNERS_TEST_PAUSE_BEFORE_PATCH, OWNERS_TEST_PAUSE_BEFORE_FIX, in
 * seconds) to change the object under it and prove the write is
 * conditional; and delay the requests whose path holds a text
 * (OWNERS_TEST_DELAY_REQUESTS=TEXT=SECONDS), so that one type's lists or
 * watch lag another's and a missing owner is proven read before it is
 * acted on; OWNERS_TEST_DELAY_RELEASE=FILE ends such a hold early, the
 * moment FILE exists (faults.t installs a fault, then releases the
 * request into it). OWNERS_TEST_NOW=UNIX-SECONDS fixes the clock of the answers
 * (AGE, "deleting for"), so that a live answer and one from a snapshot
 * taken at that time can be compared byte for byte.
 * OWNERS_TEST_UNANSWERED=TEXT=SECONDS loses the first attempt of each
 * request whose path holds TEXT (counted as sent, never handed to the
 * connection, as a stream the server never received) and sets the answer
 * deadline that ends such a wait to SECONDS, so that a suite proves a
 * lost list is given up, sent again and reported.
 * OWNERS_TEST_SHUFFLE=SEED hands every scan's objects and lists on in an
 * order drawn from SEED (lib/graph/list_shuffle.h), so that a suite shows
 * the same bytes whatever order the lists arrive in.
 */
#ifndef OWNERS_CMD_TEST_PAUSE_H
#define OWNERS_CMD_TEST_PAUSE_H

#include <stdint.h>

/* The pause asked for in environment variable name (0: none); EXIT_USAGE
 * with a message when it is not a number of seconds under an hour. */
int test_pause_from_env(const char *name, double *seconds);

/* OWNERS_TEST_DELAY_REQUESTS=TEXT=SECONDS: *match points into the
 * environment (NULL when unset). 0, or -1 when malformed (nothing said). */
int test_delay_from_env(const char **match, long *ms);

/* OWNERS_TEST_UNANSWERED=TEXT=SECONDS, as test_delay_from_env(). */
int test_unanswered_from_env(const char **match, long *ms);

/* Nonzero once OWNERS_TEST_DELAY_RELEASE names a file that exists
 * (ctx unused: the HTTP client's callback shape). */
int test_delay_released(void *ctx);

/* Says on stderr what it waits before, then sleeps. */
void test_pause(double seconds, const char *kind, const char *namespace_, const char *name);

/* The time the answer is about: OWNERS_TEST_NOW when set, else the clock. */
int64_t test_now(void);

/* OWNERS_TEST_SHUFFLE=SEED (a number): *seed and 1, else 0. */
int test_shuffle_from_env(uint64_t *seed);

#endif
