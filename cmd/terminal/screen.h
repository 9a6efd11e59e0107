/*
 * A whole-window view on a terminal, as watch(1) and top draw it: the
 * alternate screen, redrawn in place (one write per frame, each line
 * cleared to its end, nothing cleared first: no flicker), lines cut to the
 * window's width, the cursor hidden and typed keys not echoed; and the
 * terminal exactly as it was on the way out, whatever the way out (the
 * signals that end a run: signals.h).
 */
#ifndef OWNERS_CMD_SCREEN_H
#define OWNERS_CMD_SCREEN_H

#include <stddef.h>

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
