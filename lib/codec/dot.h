/*
 * Graphviz DOT quoting: a string as a double-quoted DOT ID, with newlines
 * as \n (a centred line break in a label) and quotes and backslashes
 * escaped. JSON quoting is not the same: DOT has no \uXXXX escapes.
 *
 * Ownership: appends to the caller's buffer; the string is borrowed.
 */
#ifndef OWNERS_DOT_H
#define OWNERS_DOT_H

#include <stddef.h>

#include "buf.h"

int owners_dot_quote(struct owners_buf *out, const char *s, size_t len);

#endif
