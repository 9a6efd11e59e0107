/*
 * A UID as the graph keeps it. The apiserver writes every UID it makes as
 * a UUID: 36 characters, lowercase hex digits in groups of 8-4-4-4-12
 * joined by dashes. Kept as text that costs a pointer and 37 bytes; kept
 * as the 16 bytes it encodes it costs 16, and at ten million objects the
 * difference is hundreds of megabytes. Any other text (a reference may
 * name anything) is kept as a pointer to it, and the holder says which
 * with a bit beside (is_text).
 *
 * The bytes of two UUIDs compare as their texts do (hex digits in order,
 * dashes in the same places), so an order by UID is the same whichever
 * way each is kept.
 *
 * Ownership: the text a union points at is the holder's (an arena's).
 */
#ifndef OWNERS_UID_H
#define OWNERS_UID_H

#include <stddef.h>
#include <stdint.h>

/* Room for a UUID's text: 36 characters and NUL. */
#define OWNERS_UID_TEXT_SIZE 37

union owners_uid {
	uint8_t bytes[16];
	const char *text;
};

/* 1 when text is a UUID as the apiserver writes it, and then its 16
 * bytes are in *out; else 0 and *out is left as it was. */
int owners_uid_pack(union owners_uid *out, const char *text);
/* The text of u: written into buf (OWNERS_UID_TEXT_SIZE bytes) when u
 * holds bytes, else the text u points at. */
const char *owners_uid_text(const union owners_uid *u, int is_text, char *buf);
/* Whether a and b are the same UID. */
int owners_uid_equal(const union owners_uid *a, int a_text, const union owners_uid *b, int b_text);
/* a against b as strcmp() orders their texts. */
int owners_uid_cmp(const union owners_uid *a, int a_text, const union owners_uid *b, int b_text);
/* A hash of the UID, the same for one UID however it was given. */
uint64_t owners_uid_hash(const union owners_uid *u, int is_text);

#endif
