/*
 * What `owners snapshot` records beside the lists, read from the cluster
 * as the commands that show it read it there: the controller-manager's
 * lease (gc's evidence of whether the GC runs), the events of the scope
 * (why's) and, with --related, what each object uses (the relations'),
 * each a fact of the writer (snapshot_write.h). The
 * events page as every other list does (lib/api/list_page.h).
 *
 * Best effort, as the live reads are: what cannot be read is left out
 * (the commands then say it is not recorded); only the writer's failure
 * and memory fail a recording.
 */
#ifndef OWNERS_SNAPSHOT_RECORD_H
#define OWNERS_SNAPSHOT_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "http.h"
#include "json.h"
#include "resource.h"
#include "snapshot_write.h"

/* The lease, whole, at OWNERS_GC_LEASE_PATH with the server's clock when
 * it was read. 0, or the writer's code (err set). */
int owners_snapshot_record_lease(struct owners_snapshot_writer *w, struct owners_http_client *c,
				 struct owners_error *err);
/* Every core/v1 Event of ns (NULL: all namespaces) whose involvedObject
 * has a UID, keyed by that UID; events: the server's v1 Event type (NULL:
 * none to record). page_size: as owners_list_page_limit()'s. 0, or the
 * writer's code (err set). */
int owners_snapshot_record_events(struct owners_snapshot_writer *w, struct owners_http_client *c,
				  const struct owners_resource *events, const char *ns,
				  size_t page_size, struct owners_error *err);
/* What each object of the lists' types uses, the lists read whole at once
 * (lib/api/list_reads.h): a USES fact per object that uses anything
 * (lib/api/uses_record.h), and one USES_READ fact per list that cannot be
 * read (what the relations of that type there then are: unknown).
 * page_size: as owners_list_page_limit()'s. 0, or the writer's code (err
 * set). */
struct owners_snapshot_record_list {
	const struct owners_resource *type;
	const char *namespace_; /* NULL: every namespace, or a cluster-scoped type */
};
int owners_snapshot_record_uses(struct owners_snapshot_writer *w, struct owners_http_client *c,
				const struct owners_snapshot_record_list *lists, size_t n,
				size_t page_size, struct owners_error *err);
/* One JSON value as a fact of kind under key, written compact. 0, or the
 * writer's code (err set). */
int owners_snapshot_record_value(struct owners_snapshot_writer *w,
				 enum owners_snapshot_fact_kind kind, const char *key,
				 const struct owners_json_value *v, int64_t read_at,
				 struct owners_error *err);

#endif
