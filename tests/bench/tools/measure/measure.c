/*
 * measure COMMAND [ARG]...: runs COMMAND and writes one line
 * "WALL_SECONDS MAXRSS_KIB EXIT_CODE" to the file named by $MEASURE_OUT
 * (stderr when unset). Its exit code is the command's.
 *
 * A tiny C program on purpose: Linux counts the RSS a process had before
 * exec() in its peak (ru_maxrss), so a wrapper that is itself big (Python,
 * Go) would report its own size for small commands. This one is ~1 MiB.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct timespec t0, t1;
	struct rusage ru;
	int status, code;
	pid_t pid;
	const char *path = getenv("MEASURE_OUT");
	FILE *out = stderr;

	if (argc < 2) {
		fprintf(stderr, "usage: measure COMMAND [ARG]...\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid < 0) {
		perror("measure: fork");
		return 127;
	}
	if (pid == 0) {
		unsetenv("MEASURE_OUT");
		execvp(argv[1], argv + 1);
		fprintf(stderr, "measure: %s: %s\n", argv[1], strerror(errno));
		_exit(127);
	}
	while (wait4(pid, &status, 0, &ru) < 0)
		if (errno != EINTR) {
			perror("measure: wait4");
			return 127;
		}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (path && !(out = fopen(path, "w"))) {
		perror(path);
		out = stderr;
	}
	code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	fprintf(out, "%.6f %ld %d\n", (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9, ru.ru_maxrss, code);
	if (out != stderr)
		fclose(out);
	return code;
}
