/* UIDs as 16 bytes (see uid.h). */
#include "uid.h"

#include <string.h>

#include "arena.h"

/* A hex digit's value plus one; 0 for anything else (uppercase too: its
 * text would not come back the same). */
static const unsigned char hex_plus_one[256] = {
	['0'] = 1,  ['1'] = 2,  ['2'] = 3,  ['3'] = 4,  ['4'] = 5,  ['5'] = 6,
	['6'] = 7,  ['7'] = 8,  ['8'] = 9,  ['9'] = 10, ['a'] = 11, ['b'] = 12,
	['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
};

static int dash_at(size_t i)
{
	return i == 8 || i == 13 || i == 18 || i == 23;
}

int owners_uid_pack(union owners_uid *out, const char *text)
{
	/* where each byte's two digits start, between the dashes */
	static const unsigned char at[16] = { 0,  2,  4,  6,  9,  11, 14, 16,
					      19, 21, 24, 26, 28, 30, 32, 34 };
	const unsigned char *t = (const unsigned char *)text;
	uint8_t b[16];
	size_t k;

	if (!text)
		return 0;
	/* In order, so that a shorter text stops at its end (NUL is no
	 * digit and no dash) before anything past it is read. */
	for (k = 0; k < 16; k++) {
		unsigned hi, lo;

		if (k == 4 || k == 6 || k == 8 || k == 10) {
			if (t[at[k] - 1] != '-')
				return 0;
		}
		if (!(hi = hex_plus_one[t[at[k]]]) || !(lo = hex_plus_one[t[at[k] + 1]]))
			return 0;
		b[k] = (uint8_t)((hi - 1) << 4 | (lo - 1));
	}
	if (t[36])
		return 0;
	memcpy(out->bytes, b, sizeof(b));
	return 1;
}

const char *owners_uid_text(const union owners_uid *u, int is_text, char *buf)
{
	static const char digits[] = "0123456789abcdef";
	size_t i, k = 0;

	if (is_text)
		return u->text;
	for (i = 0; i < 36; i++) {
		if (dash_at(i)) {
			buf[i] = '-';
			continue;
		}
		buf[i] = digits[u->bytes[k] >> 4];
		buf[++i] = digits[u->bytes[k++] & 15];
	}
	buf[36] = 0;
	return buf;
}

int owners_uid_equal(const union owners_uid *a, int a_text, const union owners_uid *b, int b_text)
{
	/* text that is a UUID is always kept as bytes: the two never meet */
	if (a_text != b_text)
		return 0;
	return a_text ? !strcmp(a->text, b->text) : !memcmp(a->bytes, b->bytes, 16);
}

int owners_uid_cmp(const union owners_uid *a, int a_text, const union owners_uid *b, int b_text)
{
	char x[OWNERS_UID_TEXT_SIZE], y[OWNERS_UID_TEXT_SIZE];
	int c;

	if (!a_text && !b_text) {
		c = memcmp(a->bytes, b->bytes, 16);
		return (c > 0) - (c < 0);
	}
	c = strcmp(owners_uid_text(a, a_text, x), owners_uid_text(b, b_text, y));
	return (c > 0) - (c < 0);
}

uint64_t owners_uid_hash(const union owners_uid *u, int is_text)
{
	return is_text ? owners_arena_hash(u->text, strlen(u->text))
		       : owners_arena_hash((const char *)u->bytes, sizeof(u->bytes));
}
