/*
 * Allocation failure injection: see failalloc.h.
 *
 * The executable's own malloc/calloc/realloc/free/strdup/strndup take
 * precedence over every shared library's (the executable comes first in
 * symbol lookup), libc's internal callers included (glibc calls malloc
 * through its PLT precisely so that it can be replaced). Each wrapper
 * forwards to the next definition, found with dlsym(RTLD_NEXT): libc's, or
 * AddressSanitizer's in an Asan build, so ASan still tracks every block and
 * LeakSanitizer still sees leaks. strdup and strndup are wrapped because
 * ASan intercepts them itself and would allocate without calling malloc.
 *
 * dlsym may allocate while the real functions are being looked up: those
 * few bytes come from a static buffer, which free() recognises.
 */
#define _GNU_SOURCE
#include "failalloc.h"

#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_LSAN
#include <sanitizer/lsan_interface.h>
/* backtrace() loads the unwinder (libgcc_s) the first time: what the
 * dynamic loader allocates then is not ours to free, and LeakSanitizer
 * would report it forever after. */
#define QUIET_BEGIN() __lsan_disable()
#define QUIET_END() __lsan_enable()
#else
#define QUIET_BEGIN() ((void)0)
#define QUIET_END() ((void)0)
#endif

/* Everything of this file lives in its own section, so that a return
 * address inside the wrapper is recognised as such and skipped. */
#define WRAPPER __attribute__((section("failalloc_text"), noinline))
extern const char __start_failalloc_text[], __stop_failalloc_text[];

static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static void (*real_free)(void *);

static _Alignas(16) char boot[16384];
static size_t boot_used;
static int initializing;

static unsigned long counter, fail_at;
static int armed, busy, happened;
static struct failalloc_site last;
static void (*on_hit)(const struct failalloc_site *);

struct rule {
	char lib[64];
	char symbol[96];
	char via[96];
	int any_symbol, any_via;
};
static struct rule rules[16];
static int n_rules;

static WRAPPER void *boot_alloc(size_t n)
{
	void *p;

	n = (n + 15) & ~(size_t)15;
	if (boot_used + n > sizeof(boot))
		return NULL;
	p = boot + boot_used;
	boot_used += n;
	return p;
}

static WRAPPER int is_boot(const void *p)
{
	return (const char *)p >= boot && (const char *)p < boot + sizeof(boot);
}

static WRAPPER void init(void)
{
	initializing = 1;
	real_malloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
	real_calloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "calloc");
	real_realloc = (void *(*)(void *, size_t))dlsym(RTLD_NEXT, "realloc");
	real_free = (void (*)(void *))dlsym(RTLD_NEXT, "free");
	initializing = 0;
	if (!real_malloc || !real_calloc || !real_realloc || !real_free) {
		static const char msg[] = "failalloc: cannot find the real allocator\n";

		fwrite(msg, 1, sizeof(msg) - 1, stderr);
		abort();
	}
}

/* Frames that belong to the allocator, not to whoever wanted memory. */
static WRAPPER int allocator_frame(const void *addr, const Dl_info *info)
{
	const char *f = info->dli_fname ? info->dli_fname : "";

	if ((const char *)addr >= __start_failalloc_text && (const char *)addr < __stop_failalloc_text)
		return 1;
	return strstr(f, "/libc.so") || strstr(f, "/libasan.so") || strstr(f, "/libubsan.so") ||
	       strstr(f, "/ld-linux") || strstr(f, "/libgcc_s.so");
}

static WRAPPER void copy(char *dst, size_t size, const char *src)
{
	size_t n = strlen(src);

	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* Where the executable (our code) is loaded. */
static WRAPPER const void *main_base(void)
{
	static const void *base;
	Dl_info info;

	if (!base && dladdr((const void *)&failalloc_count, &info))
		base = info.dli_fbase;
	return base;
}

/* Describes the first caller outside the allocator. */
static WRAPPER void identify(struct failalloc_site *s)
{
	void *frames[48];
	int n = backtrace(frames, 48), i, j;

	memset(s->callers, 0, sizeof(s->callers));
	copy(s->lib, sizeof(s->lib), "?");
	s->symbol[0] = '\0';
	s->via[0] = '\0';
	s->offset = 0;
	for (i = 0; i < n; i++) {
		Dl_info info;
		const char *base;

		memset(&info, 0, sizeof(info));
		if (!dladdr(frames[i], &info) || allocator_frame(frames[i], &info))
			continue;
		base = info.dli_fname ? strrchr(info.dli_fname, '/') : NULL;
		base = base ? base + 1 : (info.dli_fname ? info.dli_fname : "?");
		/* the executable itself: our code (lib/ and the test) */
		if (info.dli_fbase == main_base())
			base = "main";
		copy(s->lib, sizeof(s->lib), base);
		copy(s->symbol, sizeof(s->symbol), info.dli_sname ? info.dli_sname : "");
		s->offset = (unsigned long)((const char *)frames[i] - (const char *)info.dli_fbase);
		copy(s->via, sizeof(s->via), s->symbol);
		for (j = 0; i + 1 + j < n; j++) {
			Dl_info up;

			memset(&up, 0, sizeof(up));
			if (!dladdr(frames[i + 1 + j], &up) || up.dli_fbase != info.dli_fbase)
				break;
			if (j < 4)
				s->callers[j] = (unsigned long)((const char *)frames[i + 1 + j] -
								(const char *)up.dli_fbase);
			if (!s->via[0] && up.dli_sname)
				copy(s->via, sizeof(s->via), up.dli_sname);
		}
		return;
	}
}

static WRAPPER int skipped(const struct failalloc_site *s)
{
	int i;

	for (i = 0; i < n_rules; i++)
		if (strstr(s->lib, rules[i].lib) &&
		    (rules[i].any_symbol || !strcmp(s->symbol, rules[i].symbol)) &&
		    (rules[i].any_via || !strcmp(s->via, rules[i].via)))
			return 1;
	return 0;
}

/* Counts one allocation; 1 when this one must fail. */
static WRAPPER int should_fail(void)
{
	if (!armed || busy)
		return 0;
	if (++counter != fail_at)
		return 0;
	busy = 1; /* backtrace() may allocate: not counted */
	QUIET_BEGIN();
	identify(&last);
	QUIET_END();
	last.n = counter;
	last.skipped = skipped(&last);
	happened = 1;
	if (on_hit)
		on_hit(&last);
	busy = 0;
	return !last.skipped;
}

WRAPPER void *malloc(size_t n)
{
	if (!real_malloc) {
		if (initializing)
			return boot_alloc(n);
		init();
	}
	if (should_fail()) {
		errno = ENOMEM;
		return NULL;
	}
	return real_malloc(n);
}

WRAPPER void *calloc(size_t n, size_t size)
{
	if (!real_calloc) {
		if (initializing)
			return boot_alloc(n * size); /* zeroed: static storage */
		init();
	}
	if (should_fail()) {
		errno = ENOMEM;
		return NULL;
	}
	return real_calloc(n, size);
}

WRAPPER void *realloc(void *p, size_t n)
{
	if (!real_realloc)
		init();
	if (p && is_boot(p)) {
		void *q = malloc(n);

		size_t room = (size_t)(boot + sizeof(boot) - (char *)p);

		if (q)
			memcpy(q, p, n < room ? n : room);
		return q;
	}
	if (should_fail()) {
		errno = ENOMEM;
		return NULL;
	}
	return real_realloc(p, n);
}

WRAPPER void free(void *p)
{
	if (!p || is_boot(p))
		return;
	if (!real_free)
		init();
	real_free(p);
}

WRAPPER char *strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);

	if (d)
		memcpy(d, s, n);
	return d;
}

WRAPPER char *strndup(const char *s, size_t max)
{
	size_t n = strnlen(s, max);
	char *d = malloc(n + 1);

	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

void failalloc_skip(const char *lib, const char *symbol, const char *via)
{
	if (n_rules >= (int)(sizeof(rules) / sizeof(rules[0])))
		abort();
	copy(rules[n_rules].lib, sizeof(rules[n_rules].lib), lib);
	copy(rules[n_rules].symbol, sizeof(rules[n_rules].symbol), symbol ? symbol : "");
	copy(rules[n_rules].via, sizeof(rules[n_rules].via), via ? via : "");
	rules[n_rules].any_symbol = symbol == NULL;
	rules[n_rules].any_via = via == NULL;
	n_rules++;
}

void failalloc_on_hit(void (*fn)(const struct failalloc_site *site))
{
	on_hit = fn;
}

void failalloc_arm(unsigned long n)
{
	static int warmed;

	if (!warmed) {
		void *f[2];

		/* The first backtrace() loads the unwinder (and allocates): do
		 * it now, outside any counting. */
		busy = 1;
		QUIET_BEGIN();
		backtrace(f, 2);
		QUIET_END();
		busy = 0;
		warmed = 1;
	}
	memset(&last, 0, sizeof(last));
	counter = 0;
	fail_at = n;
	happened = 0;
	armed = 1;
}

int failalloc_disarm(struct failalloc_site *site)
{
	armed = 0;
	if (site)
		*site = last;
	return happened;
}

unsigned long failalloc_count(void)
{
	return counter;
}
