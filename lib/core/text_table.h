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

/* A table filled cell by cell: titles, then rows of cols buffers. */
struct owners_text_table {
	const char *const *titles;
	struct owners_buf *cells; /* rows x cols */
	size_t rows, cols;
};

/* An empty table of rows rows under cols titles (borrowed). 0, or
 * OWNERS_ENOMEM. */
int owners_text_table_init(struct owners_text_table *t, const char *const *titles, size_t cols,
			   size_t rows);
/* Row row's cell of column col, to append to. */
struct owners_buf *owners_text_table_cell(struct owners_text_table *t, size_t row, size_t col);
/* The table, its columns first..first+n (a table prints fewer than it
 * holds: -o wide's), as owners_text_table_render() writes it; keep: the
 * columns printed (NULL: all). 0, or OWNERS_ENOMEM. */
int owners_text_table_write(struct owners_buf *out, const struct owners_text_table *t,
			    const unsigned char *keep, int no_headers);
void owners_text_table_clear(struct owners_text_table *t);

#endif
