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
#include "relations.h"
#include "session.h"
#include "snapshot.h"
#include "stuck_fetch.h"
#include "why_events.h"

/* session_connect() on the snapshot at path instead of the cluster. 0, or
 * an OWNERS_E* code with session_error(s) set (nothing printed). */
int session_connect_from(struct session *s, struct owners_cli *cli, const char *path);
void session_snapshot_free(struct session_snapshot *snap);

/* The scan's read of the file ended: the progress line of a big dump
 * (if any) is taken away. */
void session_snapshot_read(struct session *s);

/* The status recorded for uid, NULL when none was. */
const struct owners_object_status *session_snapshot_status(const struct session *s, const char *uid);
/* The object recorded as read at path (an API path), NULL when none was;
 * *read_at: the server's clock when it was read (0 unknown). */
const char *session_snapshot_object(const struct session *s, const char *path, size_t *len, int64_t *read_at);
/* Every fact of a kind recorded, in the snapshot's order: the i-th's JSON,
 * NULL past the last; *key: its path or namespace. */
const char *session_snapshot_fact_at(const struct session *s, enum owners_snapshot_fact_kind kind, size_t i,
				     size_t *len, const char **key);
/* For a dump without discovery, a warning with the scan's saying what
 * the dump lacks. 0, or OWNERS_ENOMEM. */
int session_snapshot_note(struct session *s);
/* session_error(s) for a type name the snapshot does not hold (typed: as typed). */
void session_snapshot_unknown_type(struct session *s, const char *typed);
/* The header as read: what it is, where it came from, its time. */
/* The relations the snapshot recorded, of the objects in the session's
 * graph, into rel (not resolved); which types were read whole is what it
 * listed, less what it says it could not read. A snapshot without them
 * (taken with --related=false) fails with OWNERS_EINVAL. 0, or an OWNERS_E*
 * code with session_error() set. */
int session_snapshot_relations(struct session *s, struct owners_relations *rel);
const struct owners_snapshot_header *session_snapshot_header(const struct session *s);

/* The facts of stuck objects (lib/ops/stuck_fetch.h): read from the
 * cluster, or as the snapshot recorded them. */
int session_stuck_facts(struct session *s, struct owners_stuck_facts *f, const struct owners_node_list *list,
			struct owners_error *err);
/* The events about n (lib/ops/why_events.h): read, or as recorded. */
int session_why_events(struct session *s, struct owners_why_events *out, const struct owners_node *n,
		       size_t limit);

#endif
