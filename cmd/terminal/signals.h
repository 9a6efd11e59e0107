/*
 * Signal handling, for every command in one place. SIGINT, SIGTERM and
 * SIGHUP ask a run to stop; SIGWINCH says the window changed. Each arrives
 * twice over: as a byte on a pipe (signals_fd()), so that a loop that
 * polls (gc --watch, tree --watch) wakes on it, and as the first stop
 * signal kept (signals_stop_signal()), for a loop that asks between rounds
 * (delete). Requests in flight go on (SA_RESTART: curl retries what EINTR
 * cut short).
 *
 * The mutable state is the handler's and nothing else's: the pipe and the
 * first stop signal.
 */
#ifndef OWNERS_CMD_SIGNALS_H
#define OWNERS_CMD_SIGNALS_H

#include "output.h"

enum signals_second {
	SIGNALS_SECOND_ASKS,  /* a second stop signal asks again (a watch reads them all) */
	SIGNALS_SECOND_ENDS,  /* a second one ends the program at once (the handler resets as
				 it runs: safe, since every request carries its preconditions) */
};

/* Catches the signals above. EXIT_OK, or EXIT_ERROR (said). */
enum exit_code signals_open(enum signals_second second);
/* The default handlers again, the pipe closed; safe without an open. */
void signals_close(void);
int signals_fd(void);
/* Reads what arrived on the pipe: *resized when the window changed,
 * *quit the first stop signal (0 none). */
void signals_take(int *resized, int *quit);
/* The first stop signal caught since signals_open() (0: none). */
int signals_stop_signal(void);
/* Ends the program by sig as if it had not been caught (after the
 * terminal is restored): the shell sees what it expects of Ctrl-C. */
void signals_die(int sig);

#endif
