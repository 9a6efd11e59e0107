/*
 * owners_buf: the one growable byte buffer of the project.
 *
 * Ownership: a buffer owns its bytes. It is never NULL after
 * OWNERS_BUF_INIT or owners_buf_init(): ptr points at a shared empty
 * string until the first append, and is always NUL-terminated, so
 * buf.ptr can be handed to anything that wants a C string.
 * owners_buf_clear() frees and re-initialises; owners_buf_detach()
 * hands the heap string to the caller (who frees it with free()).
 *
 * Appends return 0, or OWNERS_ENOMEM and leave the buffer unchanged.
 */
#ifndef OWNERS_BUF_H
#define OWNERS_BUF_H

#include <stdarg.h>
#include <stddef.h>

extern char owners_buf_empty[];

struct owners_buf {
	char *ptr;
	size_t len;
	size_t cap; /* 0 while ptr is owners_buf_empty */
};

#define OWNERS_BUF_INIT { owners_buf_empty, 0, 0 }

void owners_buf_init(struct owners_buf *b);
void owners_buf_clear(struct owners_buf *b);
/* Keeps the allocation, empties the content. */
void owners_buf_reset(struct owners_buf *b);
/* Returns the heap string (never NULL unless out of memory) and re-inits. */
char *owners_buf_detach(struct owners_buf *b);

int owners_buf_grow(struct owners_buf *b, size_t extra);
int owners_buf_add(struct owners_buf *b, const void *data, size_t len);
int owners_buf_adds(struct owners_buf *b, const char *s);
int owners_buf_addc(struct owners_buf *b, char c);
int owners_buf_addf(struct owners_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int owners_buf_vaddf(struct owners_buf *b, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/* Replaces the content with s. */
int owners_buf_sets(struct owners_buf *b, const char *s);
void owners_buf_truncate(struct owners_buf *b, size_t len);

/* strdup/strndup that report failure instead of aborting; NULL in, NULL out. */
char *owners_strdup(const char *s);
char *owners_strndup(const char *s, size_t n);
/* s ends with tail (case counts): a file name's ".gz", ".json". */
int owners_str_ends_with(const char *s, const char *tail);

#endif
