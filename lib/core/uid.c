/* UIDs as 16 bytes (see uid.h). */
#include "uid.h"

#include <string.h>

#include "arena.h"

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1; /* uppercase too: its text would not come back the same */
}

static int dash_at(size_t i)
{
	return i == 8 || i == 13 || i == 18 || i == 23;
}

int owners_uid_pack(union owners_uid *out, const char *text)
{
	uint8_t b[16];
	size_t i, k = 0;

	if (!text)
		return 0;
	for (i = 0; i < 36; i++) {
		int hi, lo;

		if (dash_at(i)) {
			if (text[i] != '-')
				return 0;
			continue;
		}
		if ((hi = hex_value(text[i])) < 0 || (lo = hex_value(text[i + 1])) < 0 ||
		    dash_at(i + 1))
			return 0;
		b[k++] = (uint8_t)(hi << 4 | lo);
		i++;
	}
	if (text[36])
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

int owners_uid_is(const union owners_uid *u, int is_text, const char *text, int packed,
		  const union owners_uid *bytes)
{
	if (packed)
		return !is_text && !memcmp(u->bytes, bytes->bytes, 16);
	return is_text && !strcmp(u->text, text);
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
