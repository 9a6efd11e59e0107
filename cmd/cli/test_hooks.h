/*
 * The test hooks: environment variables the e2e suites set to make a
 * command show, on a real cluster, what it would otherwise show only by
 * chance. Every one is read here, and only here; production code asks
 * these functions, which answer "none" when the variable is unset.
 *
 *   OWNERS_TEST_PAUSE_BEFORE_PATCH=SECONDS  finalizers remove sleeps before each patch, and
 *   OWNERS_TEST_PAUSE_BEFORE_FIX=SECONDS    dangling --fix before each fix: the suite changes
 *                                           the object meanwhile, to prove the write conditional
 *   OWNERS_TEST_DELAY_REQUESTS=TEXT=SECONDS a request whose path holds TEXT is sent that much
 *                                           later, so that one type's lists or watch lag
 *                                           another's (a missing owner proven read first)
 *   OWNERS_TEST_DELAY_RELEASE=FILE          such a hold ends the moment FILE exists (faults.t
 *                                           installs a fault, then releases the request into it)
 *   OWNERS_TEST_UNANSWERED=TEXT=SECONDS     the first attempt of a request whose path holds
 *                                           TEXT is lost (counted as sent, never handed to the
 *                                           connection), and the answer deadline that ends
 *                                           such a wait is SECONDS
 *   OWNERS_TEST_NOW=UNIX-SECONDS            the time the answers are about (AGE, "deleting
 *                                           for"), so that live and a snapshot taken then
 *                                           compare byte for byte
 *   OWNERS_TEST_SHUFFLE=SEED                every scan's objects and lists handed on in an
 *                                           order drawn from SEED (lib/graph/list_shuffle.h)
 *   OWNERS_TEST_PROGRESS_EVERY=SECONDS      the progress log's interval, and
 *   OWNERS_TEST_PROGRESS_QUIET=SECONDS      its quiet start (see progress_log.h)
 *   OWNERS_LIST_FORMAT=json                 lists read in JSON only (tests/run runs a suite so)
 *   OWNERS_TEST_MEMORY=1                    graph says on stderr where the graph's bytes go
 *                                           (lib/graph/graph_memory.h; tests/bench/REPORT.md),
 *                                           and the kernel's VmRSS and VmHWM then (Linux)
 */
#ifndef OWNERS_CMD_TEST_HOOKS_H
#define OWNERS_CMD_TEST_HOOKS_H

#include <stdint.h>

#include "output.h"
#include "progress_log.h"

/* OWNERS_TEST_PAUSE_BEFORE_PATCH and _FIX: *seconds (0: none); EXIT_USAGE
 * with a message when it is not a number of seconds under an hour. */
enum exit_code test_hook_pause_before_patch(double *seconds);
enum exit_code test_hook_pause_before_fix(double *seconds);
/* Says on stderr what it waits before, then sleeps. */
void test_hook_pause(double seconds, const char *kind, const char *namespace_, const char *name);

/* OWNERS_TEST_DELAY_REQUESTS: *match points into static storage (NULL
 * when unset). 0, or -1 when malformed (nothing said). */
int test_hook_delay_requests(const char **match, long *ms);
/* Whether OWNERS_TEST_DELAY_RELEASE is set, and (the HTTP client's
 * callback shape, ctx unused) whether its file exists yet. */
int test_hook_delay_release_set(void);
int test_hook_delay_released(void *ctx);
/* OWNERS_TEST_UNANSWERED, as test_hook_delay_requests(). */
int test_hook_unanswered(const char **match, long *ms);

/* OWNERS_TEST_NOW: *t and 1, else 0 (session_now() asks). */
int test_hook_now(int64_t *t);
/* OWNERS_TEST_SHUFFLE=SEED (a number): *seed and 1, else 0. */
int test_hook_shuffle(uint64_t *seed);
/* OWNERS_TEST_PROGRESS_EVERY and _QUIET into *t (the defaults' values
 * when unset); EXIT_USAGE with a message when one is not a number of
 * seconds under an hour. */
enum exit_code test_hook_progress(struct progress_timing *t);
/* OWNERS_LIST_FORMAT=json. */
int test_hook_json_lists(void);
/* OWNERS_TEST_MEMORY=1. */
int test_hook_memory(void);

#endif
