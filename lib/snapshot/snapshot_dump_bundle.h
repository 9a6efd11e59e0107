/*
 * A Troubleshoot support bundle, unpacked as a dump's layout (snapshot_dump_layout.h):
 * what its files are, found in dir. The layout it is written in is
 * described in snapshot_dump_bundle.c.
 */
#ifndef OWNERS_SNAPSHOT_DUMP_BUNDLE_H
#define OWNERS_SNAPSHOT_DUMP_BUNDLE_H

#include "owners_error.h"
#include "snapshot_dump_layout.h"

/* *found 0 when dir is not that dump (l untouched); 1 with l filled. 0,
 * or OWNERS_EIO / OWNERS_ENOMEM with err set. */
int owners_snapshot_dump_bundle_find(struct owners_snapshot_dump_layout *l, int *found,
				     const char *dir, struct owners_error *err);

#endif
