#include "screen.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "buf.h"

/* What the way out puts back: screen_close() runs at exit (atexit(),
 * which hands it nothing), the one way a signal's end takes too
 * (signals_die() exits). The only state here, and only for that. */
static struct {
	int screen_on;
	int termios_saved;
	struct termios termios;
} restore_at_exit;

static void write_all(const char *s, size_t len)
{
	while (len) {
		ssize_t n = write(STDOUT_FILENO, s, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		s += n;
		len -= (size_t)n;
	}
}

void screen_close(void)
{
	if (!restore_at_exit.screen_on)
		return;
	restore_at_exit.screen_on = 0;
	/* Attributes off, cursor back, the main screen with what it held. */
	write_all("\x1b[0m\x1b[?25h\x1b[?1049l", strlen("\x1b[0m\x1b[?25h\x1b[?1049l"));
	if (restore_at_exit.termios_saved)
		tcsetattr(STDIN_FILENO, TCSAFLUSH, &restore_at_exit.termios);
}

int screen_open(void)
{
	if (isatty(STDIN_FILENO) && !tcgetattr(STDIN_FILENO, &restore_at_exit.termios)) {
		struct termios t = restore_at_exit.termios;

		/* Keys typed while watching would be drawn over the view. */
		t.c_lflag &= ~(tcflag_t)ECHO;
		restore_at_exit.termios_saved = !tcsetattr(STDIN_FILENO, TCSANOW, &t);
	}
	restore_at_exit.screen_on = 1;
	atexit(screen_close);
	write_all("\x1b[?1049h\x1b[?25l\x1b[H\x1b[2J", strlen("\x1b[?1049h\x1b[?25l\x1b[H\x1b[2J"));
	return 0;
}

void screen_size(int *rows, int *cols)
{
	struct winsize ws;

	*rows = 24;
	*cols = 80;
	if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_row && ws.ws_col) {
		*rows = ws.ws_row;
		*cols = ws.ws_col;
	}
}

size_t screen_progress_columns(void)
{
	struct winsize ws;

	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 20)
		return ws.ws_col;
	return 80;
}

/* The length of the escape sequence at s (CSI ... final byte), else 0. */
static size_t escape_len(const char *s)
{
	size_t i = 2;

	if (s[0] != '\x1b' || s[1] != '[')
		return 0;
	while (s[i] && (s[i] < 0x40 || s[i] > 0x7e))
		i++;
	return s[i] ? i + 1 : i;
}

size_t screen_cut(const char *s, size_t cols)
{
	size_t i = 0, used = 0, e;

	while (s[i]) {
		if ((e = escape_len(s + i))) {
			i += e;
			continue;
		}
		if (((unsigned char)s[i] & 0xc0) != 0x80) {
			if (used == cols)
				break;
			used++;
		}
		i++;
	}
	return i;
}

int screen_draw(char *const *lines, size_t n)
{
	struct owners_buf frame = OWNERS_BUF_INIT;
	int rows, cols, rc = 0;
	size_t i;

	screen_size(&rows, &cols);
	rc = owners_buf_adds(&frame, "\x1b[H");
	for (i = 0; !rc && i < n && i < (size_t)rows; i++) {
		size_t len = screen_cut(lines[i], (size_t)cols);

		rc = owners_buf_add(&frame, lines[i], len);
		/* The last row stays without a newline: one more would scroll. */
		if (!rc)
			rc = owners_buf_adds(&frame, i + 1 < (size_t)rows && i + 1 < n ? "\x1b[0m\x1b[K\r\n"
										 : "\x1b[0m\x1b[K");
	}
	if (!rc)
		rc = owners_buf_adds(&frame, "\x1b[J");
	if (!rc)
		write_all(frame.ptr, frame.len);
	owners_buf_clear(&frame);
	return rc ? -1 : 0;
}
