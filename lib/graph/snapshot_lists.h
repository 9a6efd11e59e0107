/*
 * The lists of a snapshot as a list source (list_source.h): each scan
 * reads the snapshot again, from its start (its layout found once, when
 * it was opened), and is handed exactly what
 * the same scan of the live cluster would have been (the types it
 * selects, in its namespace, with its labels), every list failure as the
 * snapshot recorded it, and a list the snapshot does not hold as not
 * seen: its objects read as unknown, never as absent.
 *
 * The snapshot is streamed, never held: its objects go straight into the
 * graph, as a live list's do.
 *
 * Ownership: the source borrows src (which must outlive it).
 */
#ifndef OWNERS_SNAPSHOT_LISTS_H
#define OWNERS_SNAPSHOT_LISTS_H

#include "list_source.h"
#include "snapshot.h"

struct owners_snapshot_lists {
	/* The snapshot, opened once (snapshot.h): each scan reads it from
	 * its start. */
	struct owners_snapshot_reader *reader;
	const char *shown; /* as messages name it */
	/* What the snapshot holds for lists it does not (set by the caller,
	 * for messages): "taken in namespace 'x'", "a kubectl List". */
	const char *scope;
	/* Called with each fact as a scan reads past it (NULL: skipped). */
	int (*on_fact)(void *ctx, const struct owners_snapshot_fact *f);
	void *on_fact_ctx;
	/* Whether m has the labels selector asks for (lib/codec/label_selector.h):
	 * 1, 0, or a negative OWNERS_E* (a selector that does not parse:
	 * OWNERS_EINVAL). NULL: a selector is refused. */
	int (*labels_match)(void *ctx, const char *selector, const struct owners_object_meta *m);
	void *labels_ctx;
	/* Told how far a dump's reading is (snapshot.h's progress); NULL:
	 * not told. */
	void (*progress)(void *ctx, unsigned percent, uint64_t size);
	void *progress_ctx;
	/* Filled by each scan with what a dump passed over (zeroed for an
	 * owners snapshot); NULL: not counted. */
	struct owners_snapshot_dump_counts *counts;
};

void owners_snapshot_lists_source(struct owners_list_source *out,
				  struct owners_snapshot_lists *src);

#endif
