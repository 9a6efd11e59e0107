/*
 * Reads owners' own snapshot format (written by snapshot_write.c).
 *
 * The format, version 1: a stream of JSON documents, one after another
 * (each a line, but for the lists), gzip-compressed or not:
 *
 *   {"apiVersion":"owners.dev/v1","kind":"Snapshot","format":1,
 *    "takenAt":RFC 3339,"server":URL,"serverVersion":"v1.36.3",
 *    "namespace":null|NS,"clusterScoped":bool,"labelSelector":null|TEXT,
 *    "discovery":{the types table: lib/api/resource_json.h}}     first, once
 *   {"apiVersion":"apps/v1","kind":"DeploymentList","items":[
 *   {"metadata":{name, namespace, uid, resourceVersion, creationTimestamp,
 *     deletionTimestamp, labels, finalizers, ownerReferences}},
 *   ...]}           objects of one type, as the server's own list names them
 *   {"apiVersion":"owners.dev/v1","kind":"Listed","group":..,"version":..,
 *    "resource":..,"namespace":null|NS,"resourceVersion":..,"code":0
 *    [,"message":..,"detail":..]}       a list that came back whole, or failed
 *   {"apiVersion":"owners.dev/v1","kind":"Status","uid":..,"ready":..,
 *    "status":..,"health":""|ok|pending|bad,"isReady":bool}
 *   {"apiVersion":"owners.dev/v1","kind":"Read"|"PodClaims"|"Event",
 *    ["path":..,]"object":{...}}                  facts (see snapshot.h)
 *   {"apiVersion":"owners.dev/v1","kind":"End","objects":N,"seconds":S}  last
 *
 * Format 2 (what `owners snapshot` writes unless asked for format 1)
 * holds the same records, framed, with the objects and the statuses in
 * binary batches (snapshot_batch.h) that are read without a parser:
 *
 *   OWNERS_SNAPSHOT_MAGIC (8 bytes: a high byte, "OWN", CR LF, ^Z, LF, so
 *   that a transfer in text mode shows as damage)
 *   then frames: kind (1 byte), length (4 bytes, little-endian), the
 *   payload's CRC32 (4 bytes, little-endian; zlib's crc32()), payload
 *     'J'  a record of format 1 (Snapshot with "format": 2, first; Listed;
 *          End, last), as JSON text
 *     'F'  a fact record of format 1 (Read, PodClaims, Event), as JSON
 *          text: passed over unread by a reader that wants no facts
 *     'O'  a batch of objects of one type
 *     'S'  a batch of READY/STATUS records
 *
 * A reader refuses a later format, a file without its End (cut short),
 * and an End whose count is not the objects read; in format 2 also a
 * frame of an unknown kind or larger than OWNERS_SNAPSHOT_FRAME_MAX, and
 * a batch that does not decode, and a payload whose CRC32 differs: every
 * frame is checked, read or passed over, so damage anywhere is said.
 * Messages name the line (format 1) or the byte the frame begins at
 * (format 2).
 */
#ifndef OWNERS_SNAPSHOT_FILE_H
#define OWNERS_SNAPSHOT_FILE_H

#include "file_stream.h"
#include "snapshot.h"

#define OWNERS_SNAPSHOT_MAGIC "\x89OWN\r\n\x1a\n"
#define OWNERS_SNAPSHOT_MAGIC_LEN 8
#define OWNERS_SNAPSHOT_FRAME_HEAD 9
/* No frame a snapshot writes comes near it (a batch is cut at 64 KiB; the
 * header holds discovery, a few hundred KiB): anything larger is damage. */
#define OWNERS_SNAPSHOT_FRAME_MAX (64u << 20)
#define OWNERS_SNAPSHOT_FRAME_RECORD 'J'
#define OWNERS_SNAPSHOT_FRAME_FACT 'F'
#define OWNERS_SNAPSHOT_FRAME_OBJECTS 'O'
#define OWNERS_SNAPSHOT_FRAME_STATUSES 'S'

/* Whether the first bytes of a file are an owners snapshot's. */
int owners_snapshot_file_recognise(const char *head, size_t len);

/* Reads the snapshot from r (positioned at its start; head, len: bytes
 * already read from it, handed in first). Messages name path and line. */
int owners_snapshot_file_read(struct owners_file_reader *r, const char *path, const char *head,
			      size_t len, const struct owners_snapshot_visitor *v, struct owners_error *err);

#endif
