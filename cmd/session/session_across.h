/*
 * The cross-namespace look-up of a namespaced run: owners that read
 * absent in the namespace scanned, looked for everywhere, as the GC sees
 * them.
 */
#ifndef OWNERS_CMD_SESSION_ACROSS_H
#define OWNERS_CMD_SESSION_ACROSS_H

#include <stdint.h>

#include "output.h"
#include "session.h"

/* A namespaced run: the owners of nodes (n of them) that read absent are
 * looked for in every namespace, only for their types (one list each,
 * metadata only), so that an owner living elsewhere reads
 * invalid-namespace, as the GC, which sees every namespace, reports it. A
 * list that fails leaves them absent, and a note among the scan's
 * warnings says why. Prints the error, returns the exit code. */
enum exit_code session_look_across_namespaces(struct session *s, const uint32_t *nodes, size_t n);

#endif
