/*
 * A file of JSON documents, as kubectl writes them: one (kubectl get -o
 * json), or several one after another (`kubectl get ... -o json >> f`,
 * and kubectl cluster-info dump, whose stdout is its Lists one after the
 * other with each pod's logs between them:
 *
 *	==== START logs for container C of pod NS/NAME ====
 *	...whatever the container wrote, JSON or not...
 *	==== END logs for container C of pod NS/NAME ====
 *
 * which are passed over to their own END line, found byte by byte, since
 * a log need not end with a newline). Each document goes through yajl
 * (json.h) into a dump tree builder (snapshot_dump_tree.h), a line at a
 * time, so that a failure names the line it is on; the file is read in
 * blocks and never held whole.
 *
 * Ownership: nothing is kept; f, name and t are borrowed.
 */
#ifndef OWNERS_SNAPSHOT_DUMP_JSON_H
#define OWNERS_SNAPSHOT_DUMP_JSON_H

#include <stdio.h>

#include "owners_error.h"
#include "snapshot_dump_tree.h"

/* What a read found beyond its documents. */
struct owners_snapshot_dump_json_info {
	size_t documents;
	size_t log_blocks; /* cluster-info dump's pod logs passed over */
};

/* Reads f to its end. 0; OWNERS_EPROTO with "NAME: line N: ..." (not
 * JSON, cut short, a document of the wrong shape); OWNERS_EIO; or the
 * builder's sink's code. info may be NULL. */
int owners_snapshot_dump_json_read(struct owners_snapshot_dump_json_info *info, FILE *f,
				   const char *name, struct owners_snapshot_dump_tree *t,
				   struct owners_error *err);

#endif
