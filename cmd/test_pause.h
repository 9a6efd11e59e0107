/*
 * A test hook: the e2e suites make a command pause before a write
 * (OWNERS_TEST_PAUSE_BEFORE_PATCH, OWNERS_TEST_PAUSE_BEFORE_FIX, in
 * seconds) to change the object under it and prove the write is
 * conditional.
 */
#ifndef OWNERS_CMD_TEST_PAUSE_H
#define OWNERS_CMD_TEST_PAUSE_H

/* The pause asked for in environment variable name (0: none); EXIT_USAGE
 * with a message when it is not a number of seconds under an hour. */
int test_pause_from_env(const char *name, double *seconds);

/* Says on stderr what it waits before, then sleeps. */
void test_pause(double seconds, const char *kind, const char *namespace_, const char *name);

#endif
