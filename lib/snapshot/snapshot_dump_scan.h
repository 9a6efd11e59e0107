/*
 * A dump's first read: every file through the shallow tree builder, to
 * learn what must be said before any object is handed out (the types, in
 * the visitor's order: header, types, then objects) and what the dump
 * holds whole:
 *  - its types (snapshot_dump_types.c), from the objects that have a uid;
 *  - of each document, what claiming it whole needs (its List's kind and
 *    resourceVersion, the type and namespace of its items);
 *  - which files hold anything Kubernetes at all, and how many objects
 *    have no uid;
 *  - the one namespace every namespaced object is in, if there is one,
 *    and whether any object is cluster-scoped;
 *  - the newest modification time of the files read.
 * A file that is damaged fails here, before the visitor hears anything.
 *
 * Ownership: the scan owns everything in it (owners_snapshot_dump_scan_clear()).
 */
#ifndef OWNERS_SNAPSHOT_DUMP_SCAN_H
#define OWNERS_SNAPSHOT_DUMP_SCAN_H

#include <stdint.h>

#include "owners_error.h"
#include "snapshot_dump_file.h"
#include "snapshot_dump_layout.h"
#include "snapshot_dump_tree.h"
#include "snapshot_dump_types.h"

/* Flags the scan notes on types (owners_snapshot_dump_types_flags()):
 * INCOMPLETE, an object of it has no uid (not all of it is handed out);
 * IN_LIST, it has objects in a List of a kubectl file. */
#define OWNERS_SNAPSHOT_DUMP_INCOMPLETE 1u
#define OWNERS_SNAPSHOT_DUMP_IN_LIST    2u

struct owners_snapshot_dump_scan_docinfo {
	size_t source;
	enum owners_snapshot_dump_tree_shape shape;
	char *kind; /* the List's, "" none */
	char *api_version;
	char *resource_version;
	char *item_api_version; /* the type of its items, when they share one; NULL none */
	char *item_kind;
	int mixed_types;
	char *namespace_; /* the namespace of its namespaced items, when one; NULL none */
	int mixed_namespaces;
};

struct owners_snapshot_dump_scan {
	struct owners_snapshot_dump_types types;
	struct owners_snapshot_dump_scan_docinfo *docs;
	size_t n_docs, cap_docs;
	unsigned char *recognised; /* per source: it holds a List or an object */
	size_t n_recognised;       /* sources that do */
	int64_t newest_mtime;
	char *namespace_; /* of every placed namespaced object, when one */
	int mixed_namespaces;
	int cluster_scoped;      /* a placed object has no namespace */
	size_t placed, unplaced; /* objects with a uid, and without */
	/* while a file is read */
	const struct owners_snapshot_dump_layout *layout;
	size_t source;
	struct owners_snapshot_dump_scan_docinfo cur;
	int cur_recognised;
};

/* Reads every source of l. 0, or the readers' codes with err set. */
int owners_snapshot_dump_scan_run(struct owners_snapshot_dump_scan *s,
				  const struct owners_snapshot_dump_layout *l,
				  struct owners_snapshot_dump_files *fs, struct owners_error *err);
void owners_snapshot_dump_scan_clear(struct owners_snapshot_dump_scan *s);

#endif
