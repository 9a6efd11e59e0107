/*
 * -o yaml: a JSON document written again as YAML, the way kubectl prints
 * it: block mappings, "- key: value" sequences at their parent's indent,
 * two-space indentation, plain scalars wherever YAML allows them.
 *
 * libyaml's emitter does the writing (it knows which plain scalars are
 * syntactically allowed, falls back to quotes otherwise, and escapes
 * control characters). What it cannot know is type: a string "true",
 * "0", "null" or "2026-01-01" written plain would be read back as a bool,
 * a number, null or a timestamp. Such strings are double-quoted, as
 * kubectl (go-yaml) does; numbers, booleans and null from the JSON stay
 * plain. Strings with line breaks are literal blocks ("|").
 *
 * The conversion streams: the JSON is parsed event by event and each event
 * becomes a YAML event, so a large document is never held as a tree.
 *
 * Ownership: the caller owns out.
 */
#ifndef OWNERS_YAML_EMIT_H
#define OWNERS_YAML_EMIT_H

#include <stddef.h>

#include "buf.h"
#include "owners_error.h"

/* Appends the YAML form of the JSON document json[0..len) to out. Fails
 * with OWNERS_EPROTO for invalid JSON (or text libyaml refuses, such as
 * invalid UTF-8), OWNERS_ENOMEM when out of memory. */
int owners_yaml_from_json(struct owners_buf *out, const char *json, size_t len,
			  struct owners_error *err);

/* Whether the string s[0..len), written as a plain scalar, would be read
 * back as something other than that string (null, a bool, a number or a
 * timestamp) by a YAML 1.1 or 1.2 reader. */
int owners_yaml_plain_changes_type(const char *s, size_t len);

#endif
