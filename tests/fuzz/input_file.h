/* For the fuzzers of readers that take a path, not bytes: the input
 * written whole to a file of this process's own (so that two targets, or
 * two runs, never share one), /tmp/owners-fuzz-NAME.PID then suffix.
 * The path, or NULL when it could not be written (the input is then
 * passed over). */
#ifndef OWNERS_FUZZ_INPUT_FILE_H
#define OWNERS_FUZZ_INPUT_FILE_H

#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

static const char *fuzz_input_file(char *path, size_t size_of_path, const char *name,
				   const char *suffix, const uint8_t *data, size_t size)
{
	FILE *f;
	int ok;

	if (!path[0])
		snprintf(path, size_of_path, "/tmp/owners-fuzz-%s.%ld%s", name, (long)getpid(),
			 suffix);
	if (!(f = fopen(path, "wb")))
		return NULL;
	ok = fwrite(data, 1, size, f) == size;
	return fclose(f) == 0 && ok ? path : NULL;
}

#endif
