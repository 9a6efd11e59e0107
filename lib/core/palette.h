/*
 * The one palette: every colour owners writes on a terminal, named by
 * what it says, so that green means the same in a tree, a diff and a
 * watch. (Whether to colour at all is the caller's: --color, NO_COLOR.)
 */
#ifndef OWNERS_PALETTE_H
#define OWNERS_PALETTE_H

#define OWNERS_PALETTE_RESET "\033[0m"
#define OWNERS_PALETTE_GOOD "\033[32m"    /* green: ready, appeared */
#define OWNERS_PALETTE_PENDING "\033[33m" /* yellow: pending, in deletion, changed, no verdict, a warning */
#define OWNERS_PALETTE_BAD "\033[31m"     /* red: failing, dangling, missing, gone */
#define OWNERS_PALETTE_STUCK "\033[35m"   /* magenta: stuck for ever (an unresolvable reference) */
#define OWNERS_PALETTE_TITLE "\033[1m"    /* bold: a view's title */
#define OWNERS_PALETTE_GOING "\033[9;2m"  /* struck through and dim: a row on its way out */

#endif
