#include "json_split.h"

#include <string.h>

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Outside a document: skips whitespace, starts the next document, or
 * hands junk on. Returns how many bytes were consumed, or -1 on error. */
static long between(struct owners_json_split *s, const char *p, size_t len, int *rc,
		    struct owners_error *err)
{
	size_t i = 0, j;

	while (i < len && is_space(p[i])) {
		if (p[i] == '\n') {
			s->line++;
			s->junk = 0;
		}
		i++;
	}
	if (i == len)
		return (long)i;
	if ((p[i] == '{' || p[i] == '[') && !s->junk) {
		s->doc_line = s->line + 1;
		return (long)i; /* the document starts here */
	}
	if (!s->on_junk) {
		*rc = owners_error_set(err, OWNERS_EPROTO, "line %lu: '%c' where a JSON document should begin",
				       s->line + 1, p[i]);
		return -1;
	}
	/* junk runs to the end of its line */
	for (j = i; j < len && p[j] != '\n'; j++)
		;
	s->junk = 1;
	if ((*rc = s->on_junk(s->ctx, p + i, j - i)))
		return -1;
	return (long)j;
}

/* From i inside a string: the index of its closing quote (the string
 * ends) or of a backslash (the next byte is escaped), else len - 1. */
static size_t skip_string(struct owners_json_split *s, const char *data, size_t i, size_t len)
{
	const char *quote = memchr(data + i, '"', len - i);
	const char *end = quote ? quote : data + len;
	const char *backslash = memchr(data + i, '\\', (size_t)(end - (data + i)));

	if (backslash) {
		s->escape = 1;
		return (size_t)(backslash - data);
	}
	if (!quote)
		return len - 1;
	s->in_string = 0;
	return (size_t)(quote - data);
}

int owners_json_split_feed(struct owners_json_split *s, const char *data, size_t len,
			   struct owners_error *err)
{
	size_t i = 0, start;
	int rc = 0;

	while (i < len) {
		if (!s->depth) {
			long k = between(s, data + i, len - i, &rc, err);

			if (k < 0)
				return rc;
			i += (size_t)k;
			if (i == len || is_space(data[i]) || s->junk)
				continue;
		}
		start = i;
		for (; i < len; i++) {
			char c = data[i];

			if (s->in_string) {
				if (s->escape) {
					s->escape = 0;
					continue;
				}
				/* Strings are most of a document: jumped over to
				 * their end or their next escape (a raw newline
				 * inside one is invalid JSON, left to the parser). */
				i = skip_string(s, data, i, len);
				continue;
			}
			if (c == '\n')
				s->line++;
			if (c == '"')
				s->in_string = 1;
			else if (c == '{' || c == '[')
				s->depth++;
			else if ((c == '}' || c == ']') && !--s->depth) {
				i++;
				if ((rc = s->on_part(s->ctx, data + start, i - start, 1)))
					return rc;
				break;
			}
		}
		if (s->depth && i > start && (rc = s->on_part(s->ctx, data + start, i - start, 0)))
			return rc;
	}
	return 0;
}

int owners_json_split_finish(struct owners_json_split *s, struct owners_error *err)
{
	if (s->depth || s->in_string)
		return owners_error_set(err, OWNERS_EPROTO,
					"line %lu: cut short: the document begun on line %lu does not end",
					s->line + 1, s->doc_line);
	return 0;
}
