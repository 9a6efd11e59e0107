/* Signal handling (see signals.h). */
#include "signals.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

/* The signal handler's state (a handler is handed nothing else): the
 * pipe it writes to, and the first stop signal. */
static int handler_pipe[2] = { -1, -1 };
static volatile sig_atomic_t handler_first_stop;

static void on_signal(int sig)
{
	int saved = errno;
	unsigned char b = (unsigned char)sig;

	if (sig != SIGWINCH && !handler_first_stop)
		handler_first_stop = sig;
	/* Full: the loop has bytes to read already. */
	if (handler_pipe[1] >= 0 && write(handler_pipe[1], &b, 1) < 0)
		(void)0;
	errno = saved;
}

static const int caught[] = { SIGINT, SIGTERM, SIGHUP, SIGWINCH };

enum exit_code signals_open(enum signals_second second)
{
	struct sigaction sa;
	size_t i;

	handler_first_stop = 0;
	if (pipe(handler_pipe)) {
		error_msg("cannot catch signals: %s", strerror(errno));
		return EXIT_ERROR;
	}
	for (i = 0; i < 2; i++) {
		fcntl(handler_pipe[i], F_SETFL, fcntl(handler_pipe[i], F_GETFL) | O_NONBLOCK);
		fcntl(handler_pipe[i], F_SETFD, FD_CLOEXEC);
	}
	for (i = 0; i < sizeof(caught) / sizeof(caught[0]); i++) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		sa.sa_flags = SA_RESTART;
		if (second == SIGNALS_SECOND_ENDS && caught[i] != SIGWINCH)
			sa.sa_flags |= SA_RESETHAND;
		if (sigaction(caught[i], &sa, NULL)) {
			error_msg("cannot catch signals: %s", strerror(errno));
			return EXIT_ERROR;
		}
	}
	return EXIT_OK;
}

void signals_close(void)
{
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(caught) / sizeof(caught[0]); i++)
		sigaction(caught[i], &sa, NULL);
	for (i = 0; i < 2; i++)
		if (handler_pipe[i] >= 0) {
			close(handler_pipe[i]);
			handler_pipe[i] = -1;
		}
}

int signals_fd(void)
{
	return handler_pipe[0];
}

void signals_take(int *resized, int *quit)
{
	unsigned char b[64];
	ssize_t n, i;

	while (handler_pipe[0] >= 0 && (n = read(handler_pipe[0], b, sizeof(b))) > 0)
		for (i = 0; i < n; i++) {
			if (b[i] == SIGWINCH)
				*resized = 1;
			else if (!*quit)
				*quit = b[i];
		}
}

int signals_stop_signal(void)
{
	return (int)handler_first_stop;
}

void signals_die(int sig)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
	raise(sig);
	_exit(exit_by_signal(sig)); /* if it did not end us */
}
