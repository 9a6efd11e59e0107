/*
 * Allocation failure injection for tests (failalloc.c): linked into a test
 * executable, it takes the place of malloc, calloc, realloc, free, strdup
 * and strndup for the whole process (the test, lib/, libyaml, libc's own
 * callers), forwards to the real allocator (AddressSanitizer's in an Asan
 * build), and makes exactly one chosen allocation fail.
 *
 *	failalloc_arm(n);      the n-th allocation from now returns NULL
 *	rc = code_under_test();
 *	if (!failalloc_disarm(&site)) ...  no failure was injected: n was past
 *	                                   the last allocation, the run is complete
 *
 * Only allocations made while armed are counted. The failed allocation's
 * caller is identified (the first frame outside the allocator and libc):
 * the library it is in, the nearest symbol, and its offset. A skip rule
 * (failalloc_skip) makes the wrapper let allocations from a given place
 * succeed instead, for third-party code that cannot survive a failure; a
 * skipped allocation is reported in the site, never silently.
 */
#ifndef OWNERS_FAILALLOC_H
#define OWNERS_FAILALLOC_H

#include <stddef.h>

/* HAVE_LSAN: built with AddressSanitizer, so LeakSanitizer sees leaks. */
#if defined(__SANITIZE_ADDRESS__)
#define HAVE_LSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HAVE_LSAN 1
#endif
#endif

struct failalloc_site {
	char lib[64];      /* "main" for the test executable (our code), else the
			      library's base name, e.g. "libyaml-0.so.2" */
	char symbol[96];   /* the exported function it is in, "" when it is in
			      a hidden one (a library's internal helper) */
	char via[96];      /* the first exported function up the stack in the
			      same object (the API call that led there) */
	unsigned long offset;      /* from the start of lib (stable across runs) */
	unsigned long callers[4];  /* offsets of the next frames in the same
				      object (0: none), for addr2line */
	unsigned long n;           /* which allocation it was */
	int skipped;               /* a skip rule let it succeed */
};

/* Lets allocations succeed when their caller is in library LIB (a
 * substring of its file name) and, when not NULL, its function is SYMBOL
 * ("" for a hidden function) and it was reached through the exported
 * function VIA. Up to 16 rules. */
void failalloc_skip(const char *lib, const char *symbol, const char *via);

void failalloc_arm(unsigned long n);
/* Stops counting. Returns 1 when an allocation was failed (or skipped:
 * the n-th allocation happened), 0 when fewer than n allocations were
 * made; *site (may be NULL) describes the n-th allocation. */
int failalloc_disarm(struct failalloc_site *site);
/* Called as soon as the n-th allocation is identified, before it fails
 * (so a test can record where, even if what follows crashes). */
void failalloc_on_hit(void (*fn)(const struct failalloc_site *site));

/* Allocations counted since the last arm. */
unsigned long failalloc_count(void);

#endif
