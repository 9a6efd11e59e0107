#include "base64.h"

#include <string.h>

#include "owners_error.h"

static const char alphabet[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* 0..63 for alphabet characters, -1 otherwise. */
static int sextet(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

static int is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

int owners_base64_decode(struct owners_buf *out, const char *in, size_t len)
{
	size_t start = out->len, i;
	unsigned int group = 0;
	int n = 0, pad = 0, v;
	unsigned char c;

	/* Three output bytes per four input characters at most. */
	if (owners_buf_grow(out, len / 4 * 3 + 3))
		return OWNERS_ENOMEM;
	for (i = 0; i < len; i++) {
		c = (unsigned char)in[i];
		if (is_space(c))
			continue;
		if (c == '=') {
			/* Padding only completes a group that has 2 or 3 characters. */
			if (n + pad < 2)
				goto invalid;
			pad++;
			if (n + pad > 4)
				goto invalid;
			if (n + pad == 4) {
				group <<= 6 * pad;
				out->ptr[out->len++] = (char)(group >> 16);
				if (pad == 1)
					out->ptr[out->len++] = (char)(group >> 8);
				group = 0;
				pad = 0;
				n = -4; /* nothing but whitespace may follow */
			}
			continue;
		}
		if (pad || n < 0)
			goto invalid;
		v = sextet(c);
		if (v < 0)
			goto invalid;
		group = group << 6 | (unsigned int)v;
		if (++n == 4) {
			out->ptr[out->len++] = (char)(group >> 16);
			out->ptr[out->len++] = (char)(group >> 8);
			out->ptr[out->len++] = (char)group;
			group = 0;
			n = 0;
		}
	}
	if (n > 0 || pad)
		goto invalid;
	out->ptr[out->len] = '\0';
	return 0;
invalid:
	/* What was decoded may be part of a key: do not leave it lying around. */
	memset(out->ptr + start, 0, out->len - start);
	owners_buf_truncate(out, start);
	return OWNERS_EINVAL;
}

int owners_base64_encode(struct owners_buf *out, const void *in, size_t len)
{
	const unsigned char *p = in;
	size_t i;
	unsigned int group;
	char *o;

	if (len > ((size_t)-1 - 3) / 4 * 3)
		return OWNERS_ENOMEM;
	if (owners_buf_grow(out, (len + 2) / 3 * 4))
		return OWNERS_ENOMEM;
	o = out->ptr + out->len;
	for (i = 0; i + 2 < len; i += 3) {
		group = (unsigned int)p[i] << 16 | (unsigned int)p[i + 1] << 8 | p[i + 2];
		*o++ = alphabet[group >> 18 & 63];
		*o++ = alphabet[group >> 12 & 63];
		*o++ = alphabet[group >> 6 & 63];
		*o++ = alphabet[group & 63];
	}
	if (i < len) {
		group = (unsigned int)p[i] << 16;
		if (i + 1 < len)
			group |= (unsigned int)p[i + 1] << 8;
		*o++ = alphabet[group >> 18 & 63];
		*o++ = alphabet[group >> 12 & 63];
		*o++ = i + 1 < len ? alphabet[group >> 6 & 63] : '=';
		*o++ = '=';
	}
	out->len = (size_t)(o - out->ptr);
	out->ptr[out->len] = '\0';
	return 0;
}
