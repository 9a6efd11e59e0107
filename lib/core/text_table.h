/*
 * A table as kubectl get prints one: a header row, then a row per line,
 * each column as wide as its widest cell (counted in characters, not
 * bytes), three spaces between columns, nothing trailing. For the
 * commands whose rows are plain cells (dangling --related, unused).
 *
 * Ownership: the cells are borrowed; the table is appended to out.
 */
#ifndef OWNERS_TEXT_TABLE_H
#define OWNERS_TEXT_TABLE_H

#include <stddef.h>

#include "buf.h"

/* cells: rows x cols strings, row by row, the header first (left out with
 * no_headers). 0, or OWNERS_ENOMEM. */
int owners_text_table_render(struct owners_buf *out, const char *const *cells, size_t rows,
			     size_t cols, int no_headers);

#endif
