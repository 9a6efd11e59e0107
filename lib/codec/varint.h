/*
 * Varints (LEB128, as protobuf writes them): seven bits a byte, low
 * first, the high bit set on every byte but the last. Read from a whole
 * buffer by proto_tree.c and snapshot format 2's batches, written by the
 * batches (list_proto.c reads its own, as bytes arrive in chunks).
 */
#ifndef OWNERS_VARINT_H
#define OWNERS_VARINT_H

#include <stdint.h>

#include "buf.h"

/* The varint at *p (before end) into *v, *p moved past it: 0, or -1 when
 * it runs past end or past 64 bits (*p is then anywhere up to end). */
int owners_varint_read(const unsigned char **p, const unsigned char *end, uint64_t *v);
/* Appends v: 0 or OWNERS_ENOMEM. */
int owners_varint_add(struct owners_buf *b, uint64_t v);

#endif
