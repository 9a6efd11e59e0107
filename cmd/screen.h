/*
 * A whole-window view on a terminal, as watch(1) and top draw it: the
 * alternate screen, redrawn in place (one write per frame, each line
 * cleared to its end, nothing cleared first: no flicker), lines cut to the
 * window's width, the cursor hidden and typed keys not echoed; and the
 * terminal exactly as it was on the way out, whatever the way out.
 *
 * Signals (SIGINT, SIGTERM, SIGHUP, SIGWINCH) arrive as bytes on a pipe
 * (signals_fd()), so a loop that polls can wake on them.
 */
#ifndef OWNERS_CMD_SCREEN_H
#define OWNERS_CMD_SCREEN_H

#include <stddef.h>

/* Catches the signals above into the pipe. 0, or -1 (errno). */
int signals_open(void);
int signals_fd(void);
/* Reads what arrived: *resized when the window changed, *quit the first
 * ending signal (0 none). */
void signals_take(int *resized, int *quit);
/* Ends the program by sig as if it had not been caught (after the
 * terminal is restored): the shell sees what it expects of Ctrl-C. */
void signals_die(int sig);

/* Enters the view on stdout (a terminal). 0, or -1. */
int screen_open(void);
/* Restores the terminal; safe to call twice, and at exit. */
void screen_close(void);
void screen_size(int *rows, int *cols);
/* The width of the terminal on stderr, for a progress line redrawn in
 * place with \r, which must not wrap (a wrapped line is not cleared):
 * 80 when stderr is no terminal or says less than 21. */
size_t screen_progress_columns(void);
/* Draws the lines from the top (each cut to the width; what is beyond the
 * height is not drawn). 0, or -1 when the write failed. */
int screen_draw(char *const *lines, size_t n);
/* The byte length of s's first `cols` columns (escape sequences and UTF-8
 * continuation bytes take no room). */
size_t screen_cut(const char *s, size_t cols);

#endif
