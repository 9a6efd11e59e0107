/*
 * A file read or written as a stream of chunks, gzip or not: what a
 * snapshot is read from and written to. Reading takes either (a gzip
 * stream is recognised by its magic bytes, whatever the name); writing
 * compresses when the name ends in ".gz". "-" is stdin or stdout.
 *
 * A file written by name goes to a temporary file next to it, renamed
 * over the name only when owners_file_writer_close() succeeds: a run that
 * fails or is interrupted leaves no half snapshot under the name asked
 * for.
 *
 * Ownership: each stream is the caller's until its _free() or _close().
 */
#ifndef OWNERS_FILE_STREAM_H
#define OWNERS_FILE_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "owners_error.h"

struct owners_file_reader;

/* Messages name path. 0, OWNERS_EIO (with err) or OWNERS_ENOMEM. */
int owners_file_reader_open(struct owners_file_reader **out, const char *path, struct owners_error *err);
/* Up to cap bytes into buf; *got 0 at the end. 0, or OWNERS_EIO (a read
 * error, or a gzip stream that is damaged or cut short). */
int owners_file_reader_read(struct owners_file_reader *r, char *buf, size_t cap, size_t *got,
			    struct owners_error *err);
void owners_file_reader_free(struct owners_file_reader *r);

struct owners_file_writer;

int owners_file_writer_open(struct owners_file_writer **out, const char *path, struct owners_error *err);
/* Buffered; a failure is kept and returned again by every later call and
 * by close. */
int owners_file_writer_write(struct owners_file_writer *w, const char *data, size_t len,
			     struct owners_error *err);
/* Flushes, closes and renames into place. The writer is freed whatever
 * the outcome; on failure the temporary file is removed. */
int owners_file_writer_close(struct owners_file_writer *w, struct owners_error *err);
/* Gives up: removes the temporary file and frees the writer. */
void owners_file_writer_abandon(struct owners_file_writer *w);
/* Bytes written so far, before compression. */
uint64_t owners_file_writer_bytes(const struct owners_file_writer *w);

/* The CRC32 of data (zlib's, as gzip's trailer has it): what a snapshot
 * frame carries to show it is whole. */
uint32_t owners_crc32(const void *data, size_t len);

#endif
