/*
 * Reading and writing one object by its REST path: the GET a safe write
 * starts from, and the conditional write itself. Every destructive module
 * (dangling --fix, finalizers remove, the orphan release) goes through
 * these two, so the metadata-only Accept, the dryRun query and the
 * "a conditional write may be resent" rule are decided once.
 *
 * Ownership: *doc belongs to the caller (owners_json_value_free()); every
 * input is borrowed.
 */
#ifndef OWNERS_OBJECT_IO_H
#define OWNERS_OBJECT_IO_H

#include "buf.h"
#include "owners_error.h"
#include "http.h"
#include "json.h"
#include "resource.h"

/* Which object: its type, namespace (NULL or "" when cluster-scoped) and
 * name. Every field borrowed. */
struct owners_object_key {
	const struct owners_resource *type;
	const char *ns;
	const char *name;
};

/* A GET of one object. */
struct owners_object_get_request {
	struct owners_object_key key;
	/* When set: the object with this UID, and no other that took its
	 * name since (then OWNERS_ENOTFOUND: the object asked about is gone). */
	const char *uid;
	int full; /* the whole object, not its metadata alone */
	/* "scale", "status": that subresource (always read in full); NULL:
	 * the object */
	const char *subresource;
};

/* GET the object of q: its metadata alone, or the whole object when
 * q->full. 0 with *doc parsed; otherwise the error code with err set (404,
 * or another UID than q->uid: OWNERS_ENOTFOUND, *doc NULL). */
int owners_object_get(struct owners_json_value **doc, struct owners_http_client *c,
		      const struct owners_object_get_request *q, struct owners_error *err);

/* How a write is dry run (kubectl's --dry-run): not at all, by the server
 * (dryRun=All: it validates, admits and checks the resourceVersion, and
 * stores nothing), or by the client (nothing is sent; the write is taken
 * as accepted). Every read before a write happens in all three, so a
 * client dry run decides from what the server holds now. */
enum owners_dry_run {
	OWNERS_DRY_RUN_NONE = 0,
	OWNERS_DRY_RUN_SERVER = 1,
	OWNERS_DRY_RUN_CLIENT = 2,
};

/* kubectl's words for it, "none", "server" and "client": 0, or
 * OWNERS_EINVAL for any other word. */
int owners_dry_run_parse(const char *word, enum owners_dry_run *out);
const char *owners_dry_run_name(enum owners_dry_run d);

/* One write, shaped like the owners_http_request it becomes. Every field
 * borrowed. */
struct owners_object_write_request {
	const char *method;       /* "PATCH" or "PUT" */
	const char *content_type; /* the body's */
	struct owners_object_key key;
	const char *subresource;  /* "finalize", "status", ...; NULL: the object */
	const struct owners_buf *body;
	enum owners_dry_run dry_run;
};

/* Sends the write w to the object or its subresource, with dryRun=All for
 * a server dry run; a client dry run sends nothing and answers 0 (*status
 * 200). The body must be conditional on a resourceVersion, which is what
 * makes resending it after a lost answer harmless. 0, or the error code
 * with err set (409: OWNERS_ECONFLICT, 404: OWNERS_ENOTFOUND); *status
 * (may be NULL) is the HTTP status, 0 when nothing answered. */
int owners_object_write(long *status, struct owners_http_client *c,
			const struct owners_object_write_request *w, struct owners_error *err);

/* metadata.KEY of a parsed object as a string; "" when absent. */
const char *owners_object_io_meta_string(const struct owners_json_value *doc, const char *key);

#endif
