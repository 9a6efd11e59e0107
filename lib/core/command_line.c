#include "command_line.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "owners_error.h"
#include "strv.h"

/* Letters a shell reads as themselves, wherever they are in a word. */
#define PLAIN_WORD_CHARS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./=:,@%+-"

void owners_command_line_clear(struct owners_command_line *c)
{
	owners_strv_free(c->words, c->n);
	c->words = NULL;
	c->n = c->cap = 0;
}

int owners_command_line_add(struct owners_command_line *c, ...)
{
	const char *w;
	va_list ap;
	int rc = 0;

	va_start(ap, c);
	while (!rc && (w = va_arg(ap, const char *)))
		rc = owners_strv_push(&c->words, &c->n, &c->cap, owners_strdup(w));
	va_end(ap);
	return rc;
}

int owners_command_line_addf(struct owners_command_line *c, const char *fmt, ...)
{
	struct owners_buf word = OWNERS_BUF_INIT;
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = owners_buf_vaddf(&word, fmt, ap);
	va_end(ap);
	if (rc)
		return rc;
	return owners_strv_push(&c->words, &c->n, &c->cap, owners_buf_detach(&word));
}

int owners_command_line_quote_word(struct owners_buf *out, const char *w)
{
	int rc;

	if (*w && strspn(w, PLAIN_WORD_CHARS) == strlen(w))
		return owners_buf_adds(out, w);
	rc = owners_buf_addc(out, '\'');
	for (; !rc && *w; w++)
		rc = *w == '\'' ? owners_buf_adds(out, "'\\''") : owners_buf_addc(out, *w);
	return rc ? rc : owners_buf_addc(out, '\'');
}

int owners_command_line_spell(struct owners_buf *out, const char *program, const struct owners_command_line *c)
{
	size_t i;
	int rc = owners_buf_adds(out, program ? program : OWNERS_PROGRAM);

	for (i = 0; !rc && i < c->n; i++)
		if (!(rc = owners_buf_addc(out, ' ')))
			rc = owners_command_line_quote_word(out, c->words[i]);
	return rc;
}
