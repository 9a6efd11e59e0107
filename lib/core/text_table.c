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
