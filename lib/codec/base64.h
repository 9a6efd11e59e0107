/*
 * Base64 (RFC 4648, standard alphabet, '=' padding), as Kubernetes writes
 * []byte fields such as certificate-authority-data.
 *
 * Ownership: both functions append to a caller-owned owners_buf.
 */
#ifndef OWNERS_BASE64_H
#define OWNERS_BASE64_H

#include <stddef.h>

#include "buf.h"

/* Appends the bytes encoded by in[0..len). Whitespace (spaces, tabs,
 * newlines: PEM-style wrapping) is ignored; anything else outside the
 * alphabet, misplaced padding or a truncated final group is rejected, as
 * Go's StdEncoding does. Returns 0, OWNERS_EINVAL (out unchanged) or
 * OWNERS_ENOMEM (out unchanged). The caller names the field in its error. */
int owners_base64_decode(struct owners_buf *out, const char *in, size_t len);

/* Appends the padded encoding of in[0..len), without line breaks.
 * Returns 0 or OWNERS_ENOMEM (out unchanged). */
int owners_base64_encode(struct owners_buf *out, const void *in, size_t len);

#endif
