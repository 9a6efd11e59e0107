/*
 * Other people's dumps, read as they are, through a snapshot's visitor
 * (snapshot.h), so that every read command answers from them as from a
 * live cluster, where they hold what the answer needs:
 *
 *  - kubectl get ... -o json|yaml output: a List (kind List, any mix of
 *    kinds) or one object; several documents one after another (JSON) or
 *    separated by "---" (YAML); a file, standard input ("-"), or a
 *    directory of such files (*.json, *.yaml, *.yml, to any depth: other
 *    files are passed over, and counted);
 *  - kubectl cluster-info dump: its stdout (the pods' logs between its
 *    Lists passed over), or its --output-directory;
 *  - an OpenShift must-gather directory (the top one, or one image's);
 *  - a Troubleshoot support bundle, unpacked (the .tar.gz is not read).
 *
 * What a dump does not hold is said, never guessed:
 *  - header: format, taken_at from the dump's own time (a must-gather's
 *    timestamp file), else the newest modification time of the files
 *    read, taken_at_from saying which (standard input has neither: 0);
 *    the server's version when the dump recorded it (a bundle); no
 *    discovery (has_discovery 0); namespace_ the one namespace of every
 *    namespaced object when there is one, else NULL; cluster_scoped when
 *    an object is;
 *  - types: built from the objects (snapshot_dump_types.h); a type with
 *    no object in the dump is not in the table;
 *  - objects: every object with a metadata.uid, once (a uid seen before
 *    is passed over). An object without one (a manifest, a stripped
 *    dump) cannot be placed in an owner graph: it is passed over and
 *    counted, its type never claimed whole; a dump none of whose objects
 *    has a uid is refused;
 *  - listed: the lists the dump holds whole (snapshot_dump_claims.h);
 *    every other (type, namespace) reads as not seen;
 *  - facts: snapshot_dump_facts.h.
 * Objects of every type are handed out (Events too): which a command
 * uses is the caller's (the scan lists the gc_tracked types).
 *
 * A dump is read in two passes, its types first (the visitor hears of
 * types before objects), each streaming, one object in memory at a time.
 * Opening it finds its layout and makes the first pass, once; each walk
 * is the second pass alone, so that a caller that reads it again (a
 * scan's second pass, the facts) does not find its layout again. A
 * damaged one fails when it is opened, before any visitor is called,
 * with one line naming the file and the place: "dump/ns/a.yaml: line 3:
 * ...". A directory with nothing a dump is written as fails with "DIR:
 * not a snapshot or a dump owners reads (looked for ...)".
 */
#ifndef OWNERS_SNAPSHOT_DUMP_H
#define OWNERS_SNAPSHOT_DUMP_H

#include <stddef.h>

#include "owners_error.h"
#include "snapshot.h"

/* What a read passed over, for the caller to say. */
struct owners_snapshot_dump_counts {
	size_t files;       /* files read */
	size_t objects;     /* objects handed out */
	size_t without_uid; /* passed over: no metadata.uid */
	size_t duplicates;  /* passed over: a uid handed out already */
	size_t not_objects; /* documents and items that are no Kubernetes object */
	/* files of a directory passed over: by name, or with nothing
	 * Kubernetes in them */
	size_t skipped_files;
};

/* A dump opened (its layout, its first pass); the caller's to close. */
struct owners_snapshot_dump;

/* Opens path: finds its layout, opens its files (standard input copied)
 * and makes the first pass, telling progress (NULL: nobody) of it as the
 * first half of the reading. 0, OWNERS_EPROTO (not a dump, damaged, no
 * uid anywhere), OWNERS_EIO or OWNERS_ENOMEM. */
int owners_snapshot_dump_open(struct owners_snapshot_dump **out, const char *path,
			      const struct owners_snapshot_progress *progress,
			      struct owners_error *err);
/* Hands out what d holds, calling v as snapshot.h says (v->progress told
 * of the pass as the second half), what was passed over in *counts (may
 * be NULL); as often as asked. 0 (an OWNERS_ESTOP from a callback too),
 * OWNERS_EIO, OWNERS_ENOMEM or a callback's code. */
int owners_snapshot_dump_walk(struct owners_snapshot_dump *d,
			      const struct owners_snapshot_visitor *v,
			      struct owners_snapshot_dump_counts *counts, struct owners_error *err);
void owners_snapshot_dump_close(struct owners_snapshot_dump *d);

/* Opens, walks once and closes: reads path, calling v as snapshot.h says. 0 (an OWNERS_ESTOP from a
 * callback too), OWNERS_EPROTO (not a dump, damaged, no uid anywhere),
 * OWNERS_EIO, OWNERS_ENOMEM or a callback's code. */
int owners_snapshot_dump_read(const char *path, const struct owners_snapshot_visitor *v,
			      struct owners_error *err);

/* The same, with what was passed over in *counts (may be NULL). */
int owners_snapshot_dump_read_counted(struct owners_snapshot_dump_counts *counts, const char *path,
				      const struct owners_snapshot_visitor *v,
				      struct owners_error *err);

#endif
