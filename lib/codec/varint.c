#include "varint.h"

#include "owners_error.h"

int owners_varint_read(const unsigned char **p, const unsigned char *end, uint64_t *v)
{
	unsigned shift;

	*v = 0;
	for (shift = 0; shift < 64; shift += 7) {
		if (*p == end)
			return -1;
		*v |= (uint64_t)(**p & 0x7f) << shift;
		if (!(*(*p)++ & 0x80))
			return 0;
	}
	return -1;
}

int owners_varint_add(struct owners_buf *b, uint64_t v)
{
	unsigned char out[10];
	size_t n = 0;

	do {
		out[n] = (unsigned char)(v & 0x7f);
		v >>= 7;
		if (v)
			out[n] |= 0x80;
		n++;
	} while (v);
	return owners_buf_add(b, out, n) ? OWNERS_ENOMEM : 0;
}
