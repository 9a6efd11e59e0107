/*
 * The pods of a namespace that mount claims, for the POD_CLAIMS fact
 * (snapshot.h): what `finalizers` and `why` read live (every pod of the
 * namespace, lib/ops/stuck_fetch.c) to tell whether the pvc-protection
 * controller still counts a pod as using a claim in deletion. Gathered
 * while a dump's objects are handed out: of each core/v1 Pod with a
 * persistentVolumeClaim or an ephemeral volume, its JSON; handed out at
 * the end as a PodList of them, for each namespace that has a
 * PersistentVolumeClaim and whose pods the dump holds whole (a listed
 * record for pods there): elsewhere what holds a claim is not known.
 *
 * Ownership: the struct owns what it gathered
 * (owners_snapshot_dump_podclaims_clear()).
 */
#ifndef OWNERS_SNAPSHOT_DUMP_PODCLAIMS_H
#define OWNERS_SNAPSHOT_DUMP_PODCLAIMS_H

#include "buf.h"
#include "json.h"
#include "object_meta.h"
#include "resource.h"
#include "snapshot.h"
#include "snapshot_dump_claims.h"
#include "strset.h"

struct owners_snapshot_dump_podclaims_ns {
	char *namespace_;
	struct owners_buf pods; /* the pods' JSON, comma-separated */
	int has_claim;          /* a PersistentVolumeClaim is in it */
};

struct owners_snapshot_dump_podclaims {
	struct owners_strset index; /* namespace -> its entry's index */
	struct owners_snapshot_dump_podclaims_ns *items;
	size_t count, cap;
};

void owners_snapshot_dump_podclaims_init(struct owners_snapshot_dump_podclaims *p);
void owners_snapshot_dump_podclaims_clear(struct owners_snapshot_dump_podclaims *p);

/* One object handed out. 0 or OWNERS_ENOMEM. */
int owners_snapshot_dump_podclaims_note(struct owners_snapshot_dump_podclaims *p,
					const struct owners_resource *type,
					const struct owners_object_meta *m,
					const struct owners_json_value *object);

/* The facts, to v->fact. 0, the callback's code, or OWNERS_ENOMEM. */
int owners_snapshot_dump_podclaims_hand(const struct owners_snapshot_dump_podclaims *p,
					const struct owners_snapshot_dump_claims *claims,
					const struct owners_snapshot_visitor *v);

#endif
