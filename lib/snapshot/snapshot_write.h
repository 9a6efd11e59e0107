/*
 * Writes owners' own snapshot format (read back by snapshot_file.c; the
 * layouts are described there), one record at a time as the scan streams:
 * nothing is built whole in memory. Objects of one type that come one
 * after another share one list document (format 1) or batch (format 2,
 * cut every 64 KiB); a list of another type, or any other record, closes
 * it.
 *
 * Ownership: the writer owns its file until close or abandon.
 */
#ifndef OWNERS_SNAPSHOT_WRITE_H
#define OWNERS_SNAPSHOT_WRITE_H

#include <stdint.h>

#include "snapshot.h"

struct owners_snapshot_writer;

/* path "-": stdout; a name ending in ".gz": gzip. */
int owners_snapshot_write_open(struct owners_snapshot_writer **out, const char *path,
			       enum owners_snapshot_format format, struct owners_error *err);
/* First, once: the header (its path and format are ignored) and the
 * types every later record points into. */
int owners_snapshot_write_header(struct owners_snapshot_writer *w, const struct owners_snapshot_header *h,
				 const struct owners_resource_table *types, struct owners_error *err);
int owners_snapshot_write_object(struct owners_snapshot_writer *w, const struct owners_resource *type,
				 const struct owners_object_meta *m, struct owners_error *err);
int owners_snapshot_write_listed(struct owners_snapshot_writer *w, const struct owners_snapshot_listed *l,
				 struct owners_error *err);
int owners_snapshot_write_fact(struct owners_snapshot_writer *w, const struct owners_snapshot_fact *f,
			       struct owners_error *err);
/* The end record (what a reader checks the file against), then the file
 * is closed and put in place; the writer is freed whatever the outcome. */
int owners_snapshot_write_close(struct owners_snapshot_writer *w, double seconds,
				struct owners_error *err);
void owners_snapshot_write_abandon(struct owners_snapshot_writer *w);
uint64_t owners_snapshot_write_objects(const struct owners_snapshot_writer *w);
uint64_t owners_snapshot_write_bytes(const struct owners_snapshot_writer *w);

#endif
