/*
 * Durations as Go's time.ParseDuration reads them, which is what kubectl
 * accepts for --timeout and friends: an optional sign, then one or more
 * decimal numbers (a fraction allowed) each with its unit (ns, us, µs,
 * μs, ms, s, m, h): "300ms", "1.5h", "1h2m3.5s", and "0" alone without a
 * unit. Nothing else: no bare number, no exponent, no hex, no "nan".
 *
 * Ownership: the input is borrowed; nothing is allocated.
 */
#ifndef OWNERS_DURATION_H
#define OWNERS_DURATION_H

#include <stdint.h>

/* *ns: the duration in nanoseconds, as Go keeps it (int64: up to about
 * 2,562,047 hours). 0, or OWNERS_EINVAL with *ns unchanged and *why (may
 * be NULL) saying what is wrong, as Go words it ("missing unit",
 * "unknown unit", "out of range", "not a duration"). */
int owners_duration_parse(int64_t *ns, const char *s, const char **why);

#endif
