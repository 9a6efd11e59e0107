/*
 * A session on a snapshot (--from): the header and types read at the
 * start, every scan read from the file through the snapshot's list
 * source (lib/graph/snapshot_lists.h), and the facts the scans read past
 * (statuses, objects read on their own, events) kept for the commands
 * that show them. "Now" is the snapshot's time.
 */
#ifndef OWNERS_CMD_SESSION_SNAPSHOT_H
#define OWNERS_CMD_SESSION_SNAPSHOT_H

#include "object_status.h"
#include "session.h"
#include "snapshot.h"

/* session_connect() on the snapshot at path instead of the cluster. 0, or
 * an OWNERS_E* code with s->err set (nothing printed). */
int session_connect_from(struct session *s, struct owners_cli *cli, const char *path);
void session_snapshot_free(struct session_snapshot *snap);

/* The status recorded for uid, NULL when none was. */
const struct owners_object_status *session_snapshot_status(const struct session *s, const char *uid);
/* The object recorded as read at path (an API path), NULL when none was;
 * *read_at: the server's clock when it was read (0 unknown). */
const char *session_snapshot_object(const struct session *s, const char *path, size_t *len, int64_t *read_at);
/* Every fact of a kind recorded, in the snapshot's order: the i-th's JSON,
 * NULL past the last; *key: its path or namespace. */
const char *session_snapshot_fact_at(const struct session *s, enum owners_snapshot_fact_kind kind, size_t i,
				     size_t *len, const char **key);
/* The header as read: what it is, where it came from, its time. */
const struct owners_snapshot_header *session_snapshot_header(const struct session *s);

#endif
