/*
 * A dump's second read: every file again, through the full tree builder,
 * each object with a uid handed to a snapshot's visitor once, with its
 * facts (snapshot_dump_facts.h); what is passed over is counted.
 *
 * Ownership: every input is borrowed.
 */
#ifndef OWNERS_SNAPSHOT_DUMP_EMIT_H
#define OWNERS_SNAPSHOT_DUMP_EMIT_H

#include "snapshot.h"
#include "snapshot_dump.h"
#include "snapshot_dump_file.h"
#include "snapshot_dump_layout.h"
#include "snapshot_dump_podclaims.h"
#include "snapshot_dump_types.h"

/* What the second read takes. */
struct owners_snapshot_dump_emit_in {
	const struct owners_snapshot_visitor *v;
	const struct owners_snapshot_dump_layout *layout;
	struct owners_snapshot_dump_files *files;
	const struct owners_snapshot_dump_types *types;
	struct owners_snapshot_dump_podclaims *podclaims; /* filled */
};

/* 0, a callback's code, or the readers' codes with err set (a file that
 * changed since the first read: OWNERS_EPROTO). */
int owners_snapshot_dump_emit_run(struct owners_snapshot_dump_counts *counts,
				  const struct owners_snapshot_dump_emit_in *in,
				  struct owners_error *err);

#endif
