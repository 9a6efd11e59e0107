/*
 * Prints a JSON tree as block-style YAML (for -o yaml). Strings are
 * written as double-quoted scalars using JSON escapes, which YAML reads
 * identically, so no value can be misread as a number, bool or null.
 */
#ifndef OWNERS_YAML_PRINT_H
#define OWNERS_YAML_PRINT_H

#include "buf.h"
#include "json.h"

int owners_yaml_print(struct owners_buf *out, const struct owners_json_value *v);

#endif
