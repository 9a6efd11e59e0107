/*
 * What one object uses, as a snapshot records it: the relations of
 * owners(1) kept without the object they were read from, so that a
 * snapshot (or a dump read) answers --related and unused as a live run
 * does at a small part of the cost. A record is one JSON object:
 *
 *   {"group":"apps","kind":"Deployment",
 *    "uses":[["","ConfigMap","shop","app","mounts","spec.template.spec.volumes[0].configMap",0]],
 *    "selector":["matching","app=web"],"marks":1}
 *
 * Each use is [group, kind, namespace (null: cluster-scoped), name,
 * relation key (owners_uses_how_key()), path, optional] and, for a claim
 * template, its first ordinal and how many. selector is [scope, text]
 * ("all", or "matching" and the selector as -l writes it); uses,
 * selector and marks are left out when empty.
 *
 * Ownership: a record read fills the caller's uses (owners_uses_clear())
 * and selector (owners_pod_selector_clear()).
 */
#ifndef OWNERS_USES_RECORD_H
#define OWNERS_USES_RECORD_H

#include <stddef.h>

#include "buf.h"
#include "json.h"
#include "owners_error.h"
#include "pod_selector.h"
#include "uses.h"

/* The record of object (of group/kind, read whole) into out: 1 when it
 * uses, selects or is marked with anything (out then holds the record), 0
 * when there is nothing to record, or OWNERS_ENOMEM (negated). */
int owners_uses_record_of_object(struct owners_buf *out, const struct owners_json_value *object,
				 const char *group, const char *kind);
/* Whether objects of group/kind have anything to record. */
int owners_uses_record_kind(const char *group, const char *kind);
/* The record of what is already read: uses, a selector (NULL: none) and
 * marks, of an object of group/kind. 0, or OWNERS_ENOMEM. */
int owners_uses_record_write(struct owners_buf *out, const char *group, const char *kind,
			     const struct owners_use *uses, size_t n,
			     const struct owners_pod_selector *selector, unsigned marks);
/* Reads a record back into uses (appended), selector and marks. 0;
 * OWNERS_EPROTO with err saying what is wrong; OWNERS_ENOMEM. */
int owners_uses_record_read(const char *json, size_t len, struct owners_uses *uses,
			    struct owners_pod_selector *selector, unsigned *marks,
			    struct owners_error *err);

#endif
