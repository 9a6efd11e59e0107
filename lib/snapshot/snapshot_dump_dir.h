/*
 * The files of a dump's directory (or of an archive standing for one:
 * snapshot_dump_archive.h): its entries in one order (by name, as
 * bytes, so that every read of the same directory hands out the same
 * objects in the same order), what each one is, and the names of the
 * kinds of file a dump is written in.
 *
 * Ownership: a listing is the caller's (owners_strv_free()); paths are
 * appended to the caller's buffer.
 */
#ifndef OWNERS_SNAPSHOT_DUMP_DIR_H
#define OWNERS_SNAPSHOT_DUMP_DIR_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "buf.h"
#include "owners_error.h"

enum owners_snapshot_dump_dir_entry_kind {
	OWNERS_SNAPSHOT_DUMP_MISSING,
	OWNERS_SNAPSHOT_DUMP_FILE,
	OWNERS_SNAPSHOT_DUMP_DIR,     /* a directory, not through a symbolic link */
	OWNERS_SNAPSHOT_DUMP_LINKED,  /* a directory through a symbolic link: never walked into */
	OWNERS_SNAPSHOT_DUMP_SPECIAL, /* a device, a socket, a FIFO */
};

/* What path is (a link to a file is a file). */
enum owners_snapshot_dump_dir_entry_kind owners_snapshot_dump_dir_entry(const char *path);

/* Whether path is a directory (through a link too). */
int owners_snapshot_dump_dir_is_dir(const char *path);
/* Whether dir/name is one. */
int owners_snapshot_dump_dir_has_dir(const char *dir, const char *name);

/* The names in dir, without "." and "..", sorted. 0, OWNERS_EIO ("DIR:
 * cannot read: why") or OWNERS_ENOMEM. */
int owners_snapshot_dump_dir_list(char ***names, size_t *count, const char *dir,
				  struct owners_error *err);

/* Opens the file at path to read (in a mounted archive too:
 * snapshot_dump_archive.h), *mtime its modification time; NULL with errno
 * set when it cannot be. */
FILE *owners_snapshot_dump_dir_open(const char *path, int64_t *mtime);

/* Replaces out with "dir/name". 0 or OWNERS_ENOMEM. */
int owners_snapshot_dump_dir_join(struct owners_buf *out, const char *dir, const char *name);

enum owners_snapshot_dump_dir_ext_kind {
	OWNERS_SNAPSHOT_DUMP_EXT_NONE,
	OWNERS_SNAPSHOT_DUMP_EXT_JSON, /* .json */
	OWNERS_SNAPSHOT_DUMP_EXT_YAML, /* .yaml, .yml */
};

/* By the name's end, in any case. */
enum owners_snapshot_dump_dir_ext_kind owners_snapshot_dump_dir_ext(const char *name);

/* name without its extension, appended to out ("pods.json" -> "pods"). */
int owners_snapshot_dump_dir_stem(struct owners_buf *out, const char *name);

#endif
