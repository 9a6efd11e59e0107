/* The test hooks, read (see test_hooks.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "output.h"
#include "test_hooks.h"

static enum exit_code seconds_from_env(const char *name, double *seconds)
{
	const char *value = getenv(name);
	char *end;

	*seconds = 0;
	if (!value || !*value)
		return EXIT_OK;
	*seconds = strtod(value, &end);
	if (*end || !(*seconds >= 0 && *seconds < 3600))
		return usage_error("invalid %s '%s': want seconds", name, value);
	return EXIT_OK;
}

/* TEXT=SECONDS in variable name, TEXT kept in text (size bytes). */
static int text_and_seconds(const char *name, char *text, size_t size, const char **match, long *ms)
{
	const char *value = getenv(name), *eq = value ? strrchr(value, '=') : NULL;
	double seconds;
	char *end;

	*match = NULL;
	*ms = 0;
	if (!value || !*value)
		return 0;
	if (!eq || eq == value || (size_t)(eq - value) >= size)
		return -1;
	seconds = strtod(eq + 1, &end);
	if (*end || !(seconds >= 0 && seconds < 3600))
		return -1;
	memcpy(text, value, (size_t)(eq - value));
	text[eq - value] = 0;
	*match = text;
	*ms = (long)(seconds * 1000);
	return 0;
}

int test_hook_delay_requests(const char **match, long *ms)
{
	static char text[256];

	return text_and_seconds("OWNERS_TEST_DELAY_REQUESTS", text, sizeof(text), match, ms);
}

int test_hook_unanswered(const char **match, long *ms)
{
	static char text[256];

	return text_and_seconds("OWNERS_TEST_UNANSWERED", text, sizeof(text), match, ms);
}

int test_hook_delay_release_set(void)
{
	return getenv("OWNERS_TEST_DELAY_RELEASE") != NULL;
}

int test_hook_delay_released(void *ctx)
{
	const char *file = getenv("OWNERS_TEST_DELAY_RELEASE");

	(void)ctx;
	return file && *file && access(file, F_OK) == 0;
}

void test_hook_pause(double seconds, const char *kind, const char *namespace_, const char *name)
{
	struct timespec ts;
	int ns = namespace_ && *namespace_;

	fprintf(stderr, "owners: test hook: pausing %gs before patching %s %s%s%s\n", seconds, kind,
		ns ? namespace_ : "", ns ? "/" : "", name);
	fflush(stderr);
	ts.tv_sec = (time_t)seconds;
	ts.tv_nsec = (long)((seconds - floor(seconds)) * 1e9);
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

int test_hook_now(int64_t *t)
{
	const char *v = getenv("OWNERS_TEST_NOW");
	char *end;
	long long n;

	if (!v || !*v)
		return 0;
	n = strtoll(v, &end, 10);
	if (*end || n <= 0)
		return 0;
	*t = (int64_t)n;
	return 1;
}

int test_hook_shuffle(uint64_t *seed)
{
	const char *v = getenv("OWNERS_TEST_SHUFFLE");
	char *end;
	unsigned long long n;

	if (!v || !*v)
		return 0;
	n = strtoull(v, &end, 10);
	if (*end)
		return 0;
	*seed = (uint64_t)n;
	return 1;
}

enum exit_code test_hook_pause_before_patch(double *seconds)
{
	return seconds_from_env("OWNERS_TEST_PAUSE_BEFORE_PATCH", seconds);
}

enum exit_code test_hook_pause_before_fix(double *seconds)
{
	return seconds_from_env("OWNERS_TEST_PAUSE_BEFORE_FIX", seconds);
}

enum exit_code test_hook_progress(struct progress_timing *t)
{
	double every, quiet;
	enum exit_code rc = seconds_from_env("OWNERS_TEST_PROGRESS_EVERY", &every);

	if (!rc)
		rc = seconds_from_env("OWNERS_TEST_PROGRESS_QUIET", &quiet);
	t->every_ms = rc ? 0 : (long)(every * 1000);
	/* (a quiet start of 0 is asked for: none at all) */
	t->quiet_ms = rc || !getenv("OWNERS_TEST_PROGRESS_QUIET") ? -1 : (long)(quiet * 1000);
	return rc;
}

int test_hook_json_lists(void)
{
	const char *format = getenv("OWNERS_LIST_FORMAT");

	return format && !strcmp(format, "json");
}

int test_hook_memory(void)
{
	const char *v = getenv("OWNERS_TEST_MEMORY");

	return v && !strcmp(v, "1");
}
