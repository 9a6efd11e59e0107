/*
 * The table of resource types as JSON: what the discovery cache and a
 * snapshot keep of discovery (every type's names, verbs, scope and
 * subresources; the groups that failed, why, and whether they were stale).
 *
 * Ownership: from_json copies into the caller's table.
 */
#ifndef OWNERS_RESOURCE_JSON_H
#define OWNERS_RESOURCE_JSON_H

#include "json.h"
#include "resource.h"

/* Writes t as one JSON object, with "format": format (the reader's
 * version check is the caller's). */
void owners_resource_json_gen(struct owners_json_gen *j, const struct owners_resource_table *t,
			      int format);
/* Adds the types of doc (written by owners_resource_json_gen()) to t. 0,
 * or -1 when doc is not of that shape (t then holds what was read so far). */
int owners_resource_json_read(struct owners_resource_table *t, const struct owners_json_value *doc);

#endif
