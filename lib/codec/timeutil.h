/*
 * Time helpers: RFC 3339 parsing (Kubernetes timestamps) and the short
 * ages kubectl prints ("5s", "3m12s", "4h", "2d").
 *
 * Ownership: nothing is allocated but what is appended to the caller's
 * buffer; the inputs are borrowed.
 */
#ifndef OWNERS_TIMEUTIL_H
#define OWNERS_TIMEUTIL_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

/* "2024-05-01T10:00:00Z" or with a fraction or offset; returns 0 and sets
 * *out to unix seconds, or -1 when s is not RFC 3339. */
int owners_time_parse_rfc3339(int64_t *out, const char *s);
/* Appends a kubectl-style duration, e.g. 75 -> "75s", 200 -> "3m20s"
 * (k8s.io/apimachinery HumanDuration: -1 -> "0s", below -> "<invalid>"). */
int owners_time_format_age(struct owners_buf *out, int64_t seconds);

#endif
