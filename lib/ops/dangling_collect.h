/*
 * `owners dangling --fix` on an object the garbage collector deletes: it
 * is collected, exactly as `owners gc` would collect it (the collector's
 * step on the object now, lib/ops/collector.c: DELETE with the policy its
 * finalizers say, or Foreground under an owner that waits for its
 * dependents; UID and resourceVersion preconditions), not stripped of its
 * references, which would turn garbage into an object kept forever.
 *
 * Only objects whose every finding says "delete the object" now and whose
 * collector step is a DELETE, once every owner missing from the scan has
 * been read from the server and found gone (absence_confirm.h), are
 * collected; the rest are left to the
 * reference fixer (dangling_fix.h), which skips the findings decided here.
 *
 * Ownership: the report is updated in place (fix, fix_message); the graph
 * and the client are borrowed.
 */
#ifndef OWNERS_DANGLING_COLLECT_H
#define OWNERS_DANGLING_COLLECT_H

#include "dangling.h"
#include "owners_error.h"
#include "http.h"
#include "object_io.h"

/* rep sorted (owners_dangling_sort()). With a client dry run no request
 * is sent (WOULD_DELETE); a server dry run sends dryRun=All. Non-zero only
 * when the run itself failed (out of memory, no client). */
int owners_dangling_collect(struct owners_dangling_report *rep, struct owners_graph *g,
			    struct owners_http_client *c, enum owners_dry_run dry_run,
			    struct owners_error *err);

#endif
