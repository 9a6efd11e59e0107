/*
 * A dump that arrives as an archive (a support bundle's or a
 * must-gather's .tar.gz, a .tgz, a .tar), read as it is, never unpacked to
 * disk: libarchive reads it once into memory (the JSON and YAML members,
 * and the small files a layout looks at), and the archive then stands in
 * for a directory of the same name, so that every layout
 * (snapshot_dump_layout.h) finds its files in it as in a directory
 * (snapshot_dump_dir.c asks here first).
 *
 * An archive is "mounted" for the reads of the thread that mounted it: a
 * thread's mounts are its own (diff reads its two sides on two threads),
 * and a mount lasts until it is unmounted (the layout's clear).
 *
 * Ownership: the mounts own their copies of the members.
 */
#ifndef OWNERS_SNAPSHOT_DUMP_ARCHIVE_H
#define OWNERS_SNAPSHOT_DUMP_ARCHIVE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "owners_error.h"
#include "snapshot_dump_dir.h"

/* What the first bytes of a file say it is, read after gzip is undone
 * (head): 1 a tar archive owners reads; -1 another archive or compressed
 * file it does not (*what: "a zip archive", ...); 0 neither. */
int owners_snapshot_dump_archive_kind(const unsigned char *head, size_t n, const char **what);

/* Reads the archive at path and mounts it in its own place. 0;
 * OWNERS_EPROTO ("PATH: damaged archive: why"), OWNERS_EIO, OWNERS_ENOMEM. */
int owners_snapshot_dump_archive_mount(const char *path, struct owners_error *err);
void owners_snapshot_dump_archive_unmount(const char *path);

/* For a path inside a mounted archive (or the archive itself): 1 and what
 * it is; 0 when path is not in one. */
int owners_snapshot_dump_archive_entry(const char *path,
				       enum owners_snapshot_dump_dir_entry_kind *e);
/* For a directory inside a mounted archive: 1 with its names (the
 * caller's; a subdirectory's once per member under it: the caller sorts
 * and keeps each once), or -1 with err set (out of memory); 0 when not in
 * one. */
int owners_snapshot_dump_archive_list(const char *dir, char ***names, size_t *count,
				      struct owners_error *err);
/* For a file inside a mounted archive: 1 with *f open on its bytes (NULL
 * with errno set when the member was not kept or cannot be opened) and
 * *mtime its time; 0 when not in one. */
int owners_snapshot_dump_archive_open(const char *path, FILE **f, int64_t *mtime);

#endif
