/*
 * libarchive, as the archive reader calls it: through a table, so that
 * the library is loaded when an archive is first read rather than when
 * owners starts. Linked against Debian's shared libarchive, it and what
 * it pulls in (libxml2, ICU, libstdc++, four compressors) cost about
 * 3 MB of resident memory and their relocations in every run, most of
 * which never read an archive; the shared build (OWNERS_ARCHIVE_DLOPEN)
 * loads it with dlopen() on first use. The release binary links its own
 * libarchive statically, which costs neither: there the table points at
 * the functions themselves.
 *
 * Ownership: the table is static, loaded once and never unloaded.
 */
#ifndef OWNERS_SNAPSHOT_ARCHIVE_LIBRARY_H
#define OWNERS_SNAPSHOT_ARCHIVE_LIBRARY_H

#include <archive.h>
#include <archive_entry.h>

#include "owners_error.h"

/* Each member has the type of the libarchive function it names. */
struct owners_archive_library {
	__typeof__(&archive_read_new) read_new;
	__typeof__(&archive_read_support_filter_gzip) read_support_filter_gzip;
	__typeof__(&archive_read_support_format_tar) read_support_format_tar;
	__typeof__(&archive_read_open_filename) read_open_filename;
	__typeof__(&archive_read_next_header) read_next_header;
	__typeof__(&archive_read_data) read_data;
	__typeof__(&archive_read_free) read_free;
	__typeof__(&archive_error_string) error_string;
	__typeof__(&archive_entry_pathname) entry_pathname;
	__typeof__(&archive_entry_filetype) entry_filetype;
	__typeof__(&archive_entry_mtime) entry_mtime;
	__typeof__(&archive_entry_mtime_is_set) entry_mtime_is_set;
	__typeof__(&archive_entry_symlink) entry_symlink;
	__typeof__(&archive_entry_size) entry_size;
	__typeof__(&archive_entry_size_is_set) entry_size_is_set;
};

/* The library, loaded on the first call: NULL with err set ("reading
 * an archive needs libarchive: ...") when it cannot be. */
const struct owners_archive_library *owners_archive_library(struct owners_error *err);

#endif
