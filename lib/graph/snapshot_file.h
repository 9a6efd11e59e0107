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
 * A reader of format 1 refuses a later format, a file without its End
 * (cut short), and an End whose count is not the objects read.
 */
#ifndef OWNERS_SNAPSHOT_FILE_H
#define OWNERS_SNAPSHOT_FILE_H

#include "file_stream.h"
#include "snapshot.h"

/* Whether the first bytes of a file are an owners snapshot's. */
int owners_snapshot_file_recognise(const char *head, size_t len);

/* Reads the snapshot from r (positioned at its start; head, len: bytes
 * already read from it, handed in first). Messages name path and line. */
int owners_snapshot_file_read(struct owners_file_reader *r, const char *path, const char *head,
			      size_t len, const struct owners_snapshot_visitor *v, struct owners_error *err);

#endif
