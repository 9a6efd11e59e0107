#include "url.h"

#include <string.h>

#include "owners_error.h"

static int unreserved(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	       c == '-' || c == '.' || c == '_' || c == '~';
}

int owners_url_escapen(struct owners_buf *out, const char *s, size_t len)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t i, n = 0;
	char *p;

	for (i = 0; i < len; i++)
		n += unreserved((unsigned char)s[i]) ? 1 : 3;
	/* Grow once, then write in place: the buffer is untouched on failure. */
	if (owners_buf_grow(out, n))
		return OWNERS_ENOMEM;
	p = out->ptr + out->len;
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (unreserved(c)) {
			*p++ = (char)c;
		} else {
			*p++ = '%';
			*p++ = hex[c >> 4];
			*p++ = hex[c & 15];
		}
	}
	out->len += n;
	out->ptr[out->len] = '\0';
	return 0;
}

int owners_url_escape(struct owners_buf *out, const char *s)
{
	return owners_url_escapen(out, s, strlen(s));
}

int owners_url_add_query(struct owners_buf *path, const char *key, const char *value)
{
	size_t old = path->len;
	int rc;

	rc = owners_buf_addc(path, memchr(path->ptr, '?', path->len) ? '&' : '?');
	if (!rc)
		rc = owners_url_escape(path, key);
	if (!rc)
		rc = owners_buf_addc(path, '=');
	if (!rc)
		rc = owners_url_escape(path, value);
	if (rc)
		owners_buf_truncate(path, old);
	return rc;
}
