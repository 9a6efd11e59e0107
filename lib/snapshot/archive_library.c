#include "archive_library.h"

#ifdef OWNERS_ARCHIVE_DLOPEN

#include <dlfcn.h>
#include <stddef.h>

/* The names to try: the library's own (libarchive's soname since 3.0,
 * 2011; FreeBSD's base system has its own; macOS names it its way), then
 * the development link, for a build whose library goes by another. */
static const char *const sonames[] = {
#if defined(__APPLE__)
	"libarchive.13.dylib",
	"libarchive.dylib",
#elif defined(__FreeBSD__)
	"libarchive.so.7",
	"libarchive.so",
#else
	"libarchive.so.13",
	"libarchive.so",
#endif
};

/* Each member's symbol, in the order of the table. */
static const struct symbol {
	const char *name;
	size_t offset;
} symbols[] = {
#define SYMBOL(member, name) { name, offsetof(struct owners_archive_library, member) }
	SYMBOL(read_new, "archive_read_new"),
	SYMBOL(read_support_filter_gzip, "archive_read_support_filter_gzip"),
	SYMBOL(read_support_format_tar, "archive_read_support_format_tar"),
	SYMBOL(read_open_filename, "archive_read_open_filename"),
	SYMBOL(read_next_header, "archive_read_next_header"),
	SYMBOL(read_data, "archive_read_data"),
	SYMBOL(read_free, "archive_read_free"),
	SYMBOL(error_string, "archive_error_string"),
	SYMBOL(entry_pathname, "archive_entry_pathname"),
	SYMBOL(entry_filetype, "archive_entry_filetype"),
	SYMBOL(entry_mtime, "archive_entry_mtime"),
	SYMBOL(entry_mtime_is_set, "archive_entry_mtime_is_set"),
	SYMBOL(entry_symlink, "archive_entry_symlink"),
	SYMBOL(entry_size, "archive_entry_size"),
	SYMBOL(entry_size_is_set, "archive_entry_size_is_set"),
#undef SYMBOL
};

const struct owners_archive_library *owners_archive_library(struct owners_error *err)
{
	static struct owners_archive_library lib;
	static int loaded;
	void *handle = NULL;
	size_t i;

	if (loaded)
		return &lib;
	for (i = 0; !handle && i < sizeof(sonames) / sizeof(*sonames); i++)
		handle = dlopen(sonames[i], RTLD_NOW | RTLD_LOCAL);
	if (!handle) {
		owners_error_set(err, OWNERS_EIO, "reading an archive needs libarchive: %s",
				 dlerror());
		return NULL;
	}
	for (i = 0; i < sizeof(symbols) / sizeof(*symbols); i++) {
		/* POSIX: a data pointer from dlsym() converts to a function's */
		void *f = dlsym(handle, symbols[i].name);

		if (!f) {
			owners_error_set(err, OWNERS_EIO,
					 "reading an archive needs libarchive: %s has no %s",
					 sonames[0], symbols[i].name);
			dlclose(handle);
			return NULL;
		}
		*(void **)((char *)&lib + symbols[i].offset) = f;
	}
	loaded = 1;
	return &lib;
}

#else

const struct owners_archive_library *owners_archive_library(struct owners_error *err)
{
	static const struct owners_archive_library lib = {
		archive_read_new,	  archive_read_support_filter_gzip,
		archive_read_support_format_tar, archive_read_open_filename,
		archive_read_next_header, archive_read_data,
		archive_read_free,	  archive_error_string,
		archive_entry_pathname,	  archive_entry_filetype,
		archive_entry_mtime,	  archive_entry_mtime_is_set,
		archive_entry_symlink,	  archive_entry_size,
		archive_entry_size_is_set,
	};

	(void)err;
	return &lib;
}

#endif
