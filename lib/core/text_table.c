#include "text_table.h"

#include <stdlib.h>
#include <string.h>

#include "owners_error.h"

/* Characters in s: UTF-8 continuation bytes do not count. */
static size_t chars(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

int owners_text_table_render(struct owners_buf *out, const char *const *cells, size_t rows,
			     size_t cols, int no_headers)
{
	size_t *width = calloc(cols ? cols : 1, sizeof(*width)), r, c, pad;
	int rc = width ? 0 : OWNERS_ENOMEM;

	for (r = no_headers ? 1 : 0; !rc && r < rows; r++)
		for (c = 0; c < cols; c++) {
			size_t w = chars(cells[r * cols + c] ? cells[r * cols + c] : "");

			if (w > width[c])
				width[c] = w;
		}
	for (r = no_headers ? 1 : 0; !rc && r < rows; r++) {
		size_t line = out->len;

		for (c = 0; !rc && c < cols; c++) {
			const char *cell = cells[r * cols + c] ? cells[r * cols + c] : "";

			rc = owners_buf_adds(out, cell);
			for (pad = chars(cell); !rc && c + 1 < cols && pad < width[c] + 3; pad++)
				rc = owners_buf_addc(out, ' ');
		}
		while (!rc && out->len > line && out->ptr[out->len - 1] == ' ')
			owners_buf_truncate(out, out->len - 1);
		if (!rc)
			rc = owners_buf_addc(out, '\n');
	}
	free(width);
	return rc;
}

int owners_text_table_init(struct owners_text_table *t, const char *const *titles, size_t cols,
			   size_t rows)
{
	size_t i;

	t->titles = titles;
	t->rows = rows;
	t->cols = cols;
	if (!(t->cells = calloc(rows * cols + 1, sizeof(*t->cells))))
		return OWNERS_ENOMEM;
	for (i = 0; i < rows * cols; i++)
		owners_buf_init(&t->cells[i]);
	return 0;
}

struct owners_buf *owners_text_table_cell(struct owners_text_table *t, size_t row, size_t col)
{
	return &t->cells[row * t->cols + col];
}

int owners_text_table_write(struct owners_buf *out, const struct owners_text_table *t,
			    const unsigned char *keep, int no_headers)
{
	size_t shown = 0, r, c, k;
	const char **cells;
	int rc;

	for (c = 0; c < t->cols; c++)
		shown += !keep || keep[c];
	if (!(cells = calloc((t->rows + 1) * shown + 1, sizeof(*cells))))
		return OWNERS_ENOMEM;
	for (r = 0; r <= t->rows; r++)
		for (c = k = 0; c < t->cols; c++) {
			const struct owners_buf *b = r ? &t->cells[(r - 1) * t->cols + c] : NULL;

			if (keep && !keep[c])
				continue;
			cells[r * shown + k++] = !r ? t->titles[c] : b->ptr ? b->ptr : "";
		}
	rc = owners_text_table_render(out, cells, t->rows + 1, shown, no_headers);
	free(cells);
	return rc;
}

void owners_text_table_clear(struct owners_text_table *t)
{
	size_t i;

	for (i = 0; t->cells && i < t->rows * t->cols; i++)
		owners_buf_clear(&t->cells[i]);
	free(t->cells);
	t->cells = NULL;
}
