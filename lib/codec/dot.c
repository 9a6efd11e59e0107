#include "dot.h"

int owners_dot_quote(struct owners_buf *out, const char *s, size_t len)
{
	size_t i;
	int rc = owners_buf_addc(out, '"');

	for (i = 0; !rc && i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '\n')
			rc = owners_buf_adds(out, "\\n");
		else if (c == '"' || c == '\\')
			rc = owners_buf_addf(out, "\\%c", c);
		else if (c < 0x20)
			rc = owners_buf_addc(out, ' '); /* other controls have no meaning in a label */
		else
			rc = owners_buf_addc(out, (char)c);
	}
	return rc ? rc : owners_buf_addc(out, '"');
}
