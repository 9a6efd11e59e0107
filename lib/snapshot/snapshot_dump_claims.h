/*
 * What a dump holds whole: the lists a snapshot's listed records claim,
 * from what the scan found. A claim is made only where the dump's writer
 * listed, never guessed from the objects alone:
 *
 *  - a must-gather's, a support bundle's and kubectl cluster-info dump's
 *    list files: the file's type in the file's namespace (or the whole
 *    type, for a cluster-scoped one), even with no item; a bundle's
 *    custom resources also from their bare arrays;
 *  - kubectl cluster-info dump's stdout (one file of typed Lists, NodeList
 *    then seven per namespace, as kubectl writes them): each List in the
 *    namespace of its group's items (a group with no item at all names no
 *    namespace, and claims nothing);
 *  - kubectl get output: each type with objects in a List is whole (what
 *    kubectl get TYPE -A and kubectl get all -A print), in the one
 *    namespace of the dump when its objects are all in one, else in
 *    every namespace. What kubectl wrote cannot say whether the list was
 *    cut by names or a label selector: a List of named objects reads as
 *    whole. A type with no object in the dump is never claimed (not even
 *    in the table), and an object alone, outside a List, claims nothing.
 *
 * A type any of whose objects has no uid (so is not handed out) is never
 * claimed whole: the claim would make its missing objects absent.
 *
 * Ownership: the claims own their strings (owners_snapshot_dump_claims_clear());
 * type pointers are borrowed from the scan's table.
 */
#ifndef OWNERS_SNAPSHOT_DUMP_CLAIMS_H
#define OWNERS_SNAPSHOT_DUMP_CLAIMS_H

#include "snapshot_dump_layout.h"
#include "snapshot_dump_scan.h"

struct owners_snapshot_dump_claim {
	const struct owners_resource *type;
	char *namespace_;       /* NULL: every namespace, or a cluster-scoped type */
	char *resource_version; /* the List's, "" unknown */
};

struct owners_snapshot_dump_claims {
	struct owners_snapshot_dump_claim *items;
	size_t count, cap;
	/* The single file was kubectl cluster-info dump's stdout. */
	int cluster_info;
};

/* ns: the dump's one namespace (NULL: several). 0 or OWNERS_ENOMEM. */
int owners_snapshot_dump_claims_build(struct owners_snapshot_dump_claims *c,
				      const struct owners_snapshot_dump_scan *s,
				      const struct owners_snapshot_dump_layout *l, const char *ns);
void owners_snapshot_dump_claims_clear(struct owners_snapshot_dump_claims *c);

#endif
