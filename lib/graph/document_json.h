/*
 * The shape of every document owners writes (-o json, yaml, jsonpath,
 * custom-columns), Kubernetes-shaped so kubectl habits carry over:
 *
 *   {"apiVersion": "owners.dev/v1", "kind": "OwnersTree",
 *    "metadata": {the command's own facts: direction, dryRun, ...},
 *    "items": [
 *      {"apiVersion": "apps/v1", "kind": "Deployment",
 *       "metadata": {"name", "namespace", "uid", "creationTimestamp",
 *                    "deletionTimestamp", "finalizers", "ownerReferences",
 *                    "labels"},
 *       "owners": {what owners found out about the object}}],
 *    "warnings": [{"reason": "Forbidden", "group", "version", "resource",
 *                  "canHoldAnswer", "message"}]}
 *
 * An item's apiVersion, kind and metadata are the object's as the server
 * has them (as far as the scan kept them); everything owners adds is
 * under "owners". Other objects an item mentions (an owner found absent,
 * the object a step waits for) are references: {apiVersion, kind,
 * namespace, name, uid} (owners_node_json_identity()).
 *
 * Each function writes into the generator (borrowed) and returns its
 * first error (0, OWNERS_ENOMEM, OWNERS_EINVAL): the calls need no checks
 * between them.
 */
#ifndef OWNERS_GRAPH_DOCUMENT_JSON_H
#define OWNERS_GRAPH_DOCUMENT_JSON_H

#include <stddef.h>

#include "graph.h"
#include "json.h"
#include "scan_warnings.h"

#define OWNERS_DOCUMENT_API_VERSION "owners.dev/v1"

/* Opens the document: "apiVersion", "kind" and "metadata" opened, for the
 * command's facts. */
int owners_document_open(struct owners_json_gen *j, const char *kind);
/* Closes "metadata" and opens "items". */
int owners_document_items(struct owners_json_gen *j);
/* Closes "items", writes "warnings" (every one, structured) and closes
 * the document. */
int owners_document_close(struct owners_json_gen *j, const struct owners_scan_warning *w, size_t n);

/* The object half of an item, into the map the caller opened:
 * "apiVersion", "kind", "metadata" as the server has them (a node never
 * observed: what the reference to it says, name, namespace, uid). The
 * caller writes "owners" after it (owners_document_facts()). */
int owners_document_object(struct owners_json_gen *j, const struct owners_graph *g,
			   const struct owners_node *n);
/* Opens the item's "owners" map. */
int owners_document_facts(struct owners_json_gen *j);
/* "warnings": [...] alone, for a document of its own shape (a tree
 * --watch event has none). */
int owners_document_warnings(struct owners_json_gen *j, const struct owners_scan_warning *w, size_t n);

#endif
