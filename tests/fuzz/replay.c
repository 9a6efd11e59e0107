/*
 * The fuzz targets without libFuzzer: each target's
 * LLVMFuzzerTestOneInput fed every file of the folders (or the files)
 * named on the command line, in name order, once each.
 *
 * Why: libFuzzer needs clang and its runtime, so tests/fuzz/run builds the
 * targets apart from every other build, and a target that no longer
 * compiled was first seen by CI's fuzzing step. Built beside the unit
 * tests (gcc and clang, warnings as errors) and run by ctest under
 * ASan+UBSan over the committed corpus and the inputs that once crashed, a
 * target that breaks is seen by the first `tests/run unit`.
 *
 * The first path must exist (the corpus); a later one may be absent (a
 * target with no regressions has no folder of them). Exits 1 when no
 * input was read (a test that replays nothing proves nothing) or one
 * could not be read; a crash is the sanitizers' to report.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
#ifdef OWNERS_REPLAY_INITIALIZE
int LLVMFuzzerInitialize(int *argc, char ***argv);
#endif

/* The file's bytes in a block of exactly their size (libFuzzer hands a
 * target no terminator: ASan then sees a read past the end here too). */
static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	struct stat st;
	uint8_t *data;
	size_t size;

	if (!f || fstat(fileno(f), &st) != 0) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		if (f)
			fclose(f);
		return -1;
	}
	size = (size_t)st.st_size;
	if (!(data = malloc(size ? size : 1)) || fread(data, 1, size, f) != size) {
		fprintf(stderr, "replay: %s: %s\n", path, data ? "short read" : "out of memory");
		free(data);
		fclose(f);
		return -1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(data, size);
	free(data);
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file of dir, in name order (the order a failure is
 * reproduced in must not depend on the file system's). */
static int replay_dir(const char *dir, unsigned *count)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0, i;
	int rc = 0;

	if (!d) {
		fprintf(stderr, "replay: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (n == cap) {
			char **grown;

			cap = cap ? cap * 2 : 32;
			if (!(grown = realloc(names, cap * sizeof *names))) {
				rc = -1;
				break;
			}
			names = grown;
		}
		if (!(names[n] = malloc(strlen(dir) + strlen(e->d_name) + 2))) {
			rc = -1;
			break;
		}
		sprintf(names[n++], "%s/%s", dir, e->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof *names, by_name);
	for (i = 0; i < n; i++) {
		struct stat st;

		if (rc == 0 && stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) {
			if (replay_file(names[i]) != 0)
				rc = -1;
			else
				(*count)++;
		}
		free(names[i]);
	}
	free(names);
	return rc;
}

int main(int argc, char **argv)
{
	unsigned count = 0;
	int i, rc = 0;

#ifdef OWNERS_REPLAY_INITIALIZE
	LLVMFuzzerInitialize(&argc, &argv);
#endif
	for (i = 1; i < argc; i++) {
		struct stat st;

		if (stat(argv[i], &st) != 0) {
			if (errno == ENOENT && i > 1)
				continue;
			fprintf(stderr, "replay: %s: %s\n", argv[i], strerror(errno));
			return 1;
		}
		if (S_ISDIR(st.st_mode))
			rc |= replay_dir(argv[i], &count);
		else if (replay_file(argv[i]) == 0)
			count++;
		else
			rc = -1;
	}
	if (rc != 0)
		return 1;
	if (count == 0) {
		fprintf(stderr, "replay: no input read\n");
		return 1;
	}
	printf("replayed %u inputs\n", count);
	return 0;
}
