/*
 * One file of a dump, opened and read through the parser its content
 * needs: JSON (snapshot_dump_json.c) or YAML (snapshot_dump_yaml.c), by
 * its name in a directory, by its first byte when given alone ('{' or '['
 * is JSON). A dump is read twice (its types first, then its objects:
 * snapshot_dump.c); what can be read only once (standard input, a FIFO)
 * is first copied to a temporary file.
 *
 * Ownership: the files struct owns the copy (owners_snapshot_dump_files_clear()).
 */
#ifndef OWNERS_SNAPSHOT_DUMP_FILE_H
#define OWNERS_SNAPSHOT_DUMP_FILE_H

#include <stdint.h>
#include <stdio.h>

#include "owners_error.h"
#include "snapshot_dump_layout.h"
#include "snapshot_dump_tree.h"

struct owners_snapshot_dump_files {
	FILE *spool; /* the single file's copy, or NULL */
	struct owners_snapshot_dump_tree_meter *meter; /* how far the reading is; NULL: not told */
};

/* The size of source s (0 when it cannot be told): what the meter counts. */
uint64_t owners_snapshot_dump_file_size(const struct owners_snapshot_dump_files *fs,
					const struct owners_snapshot_dump_layout_source *s);

/* What reading one file found beside its documents. */
struct owners_snapshot_dump_file_info {
	int64_t mtime;     /* its modification time; 0 for a copy of standard input */
	size_t log_blocks; /* kubectl cluster-info dump's pod logs passed over */
};

/* For a layout of one file that cannot be read twice: copies it. 0,
 * OWNERS_EIO or OWNERS_ENOMEM. */
int owners_snapshot_dump_files_open(struct owners_snapshot_dump_files *fs,
				    const struct owners_snapshot_dump_layout *l,
				    struct owners_error *err);
void owners_snapshot_dump_files_clear(struct owners_snapshot_dump_files *fs);

/* The name a source is called in messages: its path, or "standard input". */
const char *owners_snapshot_dump_file_name(const struct owners_snapshot_dump_layout_source *s);

/* Reads s into t to its end; info may be NULL. 0, or the readers' codes
 * with err naming the file. */
int owners_snapshot_dump_file_read(struct owners_snapshot_dump_files *fs,
				   const struct owners_snapshot_dump_layout_source *s,
				   struct owners_snapshot_dump_tree *t,
				   struct owners_snapshot_dump_file_info *info,
				   struct owners_error *err);

#endif
