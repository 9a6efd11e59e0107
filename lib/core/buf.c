#include "buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "owners_error.h"

char owners_buf_empty[1];

void owners_buf_init(struct owners_buf *b)
{
	b->ptr = owners_buf_empty;
	b->len = 0;
	b->cap = 0;
}

void owners_buf_clear(struct owners_buf *b)
{
	if (b->cap)
		free(b->ptr);
	owners_buf_init(b);
}

void owners_buf_reset(struct owners_buf *b)
{
	owners_buf_truncate(b, 0);
}

void owners_buf_truncate(struct owners_buf *b, size_t len)
{
	if (len >= b->len)
		return;
	b->len = len;
	b->ptr[len] = '\0';
}

char *owners_buf_detach(struct owners_buf *b)
{
	char *s;

	if (!b->cap)
		return owners_strdup("");
	s = b->ptr;
	owners_buf_init(b);
	return s;
}

int owners_buf_grow(struct owners_buf *b, size_t extra)
{
	size_t want, cap;
	char *p;

	if (extra > (size_t)-1 - b->len - 1)
		return OWNERS_ENOMEM;
	want = b->len + extra + 1;
	if (want <= b->cap)
		return 0;
	cap = b->cap ? b->cap : 64;
	while (cap < want)
		cap = cap > ((size_t)-1) / 2 ? want : cap * 2;
	p = realloc(b->cap ? b->ptr : NULL, cap);
	if (!p)
		return OWNERS_ENOMEM;
	if (!b->cap)
		p[0] = '\0';
	b->ptr = p;
	b->cap = cap;
	return 0;
}

int owners_buf_add(struct owners_buf *b, const void *data, size_t len)
{
	if (owners_buf_grow(b, len))
		return OWNERS_ENOMEM;
	if (len)
		memcpy(b->ptr + b->len, data, len);
	b->len += len;
	b->ptr[b->len] = '\0';
	return 0;
}

int owners_buf_adds(struct owners_buf *b, const char *s)
{
	return owners_buf_add(b, s, strlen(s));
}

int owners_buf_addc(struct owners_buf *b, char c)
{
	return owners_buf_add(b, &c, 1);
}

int owners_buf_sets(struct owners_buf *b, const char *s)
{
	owners_buf_reset(b);
	return owners_buf_adds(b, s);
}

int owners_buf_vaddf(struct owners_buf *b, const char *fmt, va_list ap)
{
	va_list again;
	int n;

	va_copy(again, ap);
	n = vsnprintf(NULL, 0, fmt, again);
	va_end(again);
	if (n < 0)
		return OWNERS_EINVAL;
	if (owners_buf_grow(b, (size_t)n))
		return OWNERS_ENOMEM;
	vsnprintf(b->ptr + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
	return 0;
}

int owners_buf_addf(struct owners_buf *b, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = owners_buf_vaddf(b, fmt, ap);
	va_end(ap);
	return rc;
}

char *owners_strdup(const char *s)
{
	return s ? owners_strndup(s, strlen(s)) : NULL;
}

char *owners_strndup(const char *s, size_t n)
{
	char *p;

	if (!s)
		return NULL;
	p = malloc(n + 1);
	if (!p)
		return NULL;
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

int owners_str_ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), m = strlen(tail);

	return n >= m && !strcmp(s + n - m, tail);
}
