/*
 * The facts a read command needs of one object of a dump, beyond its
 * metadata, handed to a snapshot's visitor (snapshot.h):
 *  - STATUS: its READY and STATUS (owners_object_status_read()), for
 *    every object of a type with a status (has_status: some object of it
 *    carries one), as tree fetches it live;
 *  - EVENT: a core/v1 Event, as JSON text;
 *  - OBJECT: a Namespace, a PersistentVolume and the controller-manager's
 *    Lease (kube-system/kube-controller-manager), whole, as JSON text, at
 *    the API path a live read would GET them from.
 *
 * Ownership: every input is borrowed; what the visitor is handed lives
 * for its call only.
 */
#ifndef OWNERS_SNAPSHOT_DUMP_FACTS_H
#define OWNERS_SNAPSHOT_DUMP_FACTS_H

#include "json.h"
#include "object_meta.h"
#include "resource.h"
#include "snapshot.h"

/* A core/v1 Event's fact alone, to v->fact: for one listed again after
 * the events.k8s.io copy of it was kept as the object (its type may then
 * not be among the dump's). 0, the callback's code, or OWNERS_ENOMEM. */
int owners_snapshot_dump_facts_event(const struct owners_snapshot_visitor *v, const struct owners_object_meta *m,
				     const struct owners_json_value *object, struct owners_error *err);
/* The facts of object (of type, with metadata m) to v->fact. 0, the
 * callback's code, or OWNERS_ENOMEM. */
int owners_snapshot_dump_facts_hand(const struct owners_snapshot_visitor *v,
				    const struct owners_resource *type,
				    const struct owners_object_meta *m,
				    const struct owners_json_value *object,
				    struct owners_error *err);

#endif
