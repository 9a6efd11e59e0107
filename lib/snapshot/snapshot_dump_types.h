/*
 * The types of a dump, built from its objects: a dump has no discovery,
 * so a type is what its objects say of it, and nothing more.
 *
 *  - identity: the objects' apiVersion and kind;
 *  - plural: the one the dump's layout names where it names one (a
 *    must-gather file namespaces/NS/apps/deployments.yaml, a support
 *    bundle's custom-resources/widgets.example.com/), else the kind in
 *    lower case made plural as client-go's RESTMapper guesses
 *    (meta.UnsafeGuessKindToResource: "endpoints" stays, "...s" takes
 *    "es", "...y" becomes "ies", else "s");
 *  - singular: the kind in lower case;
 *  - scope: namespaced when its objects carry a namespace (the API server
 *    writes none on a cluster-scoped object); a type with no object in
 *    the dump is not in the table at all: its scope is unknown;
 *  - verbs: get, list, watch, delete and patch, so that every type reads
 *    as listable and the garbage collector's (gc_tracked, set by
 *    owners_resource_table_mark_tracked());
 *  - versions: the first version of a (group, plural) the dump shows is
 *    its preferred one;
 *  - has_status: its objects carry a status.
 *
 * Ownership: the table and every string in it belong to the struct,
 * until owners_snapshot_dump_types_clear().
 */
#ifndef OWNERS_SNAPSHOT_DUMP_TYPES_H
#define OWNERS_SNAPSHOT_DUMP_TYPES_H

#include "buf.h"
#include "resource.h"

struct owners_snapshot_dump_seen;

struct owners_snapshot_dump_types {
	struct owners_resource_table table; /* filled by _build() */
	struct owners_snapshot_dump_seen *seen;
	size_t n_seen, cap_seen;
	size_t last; /* the entry the previous object was of + 1; objects come in runs */
};

void owners_snapshot_dump_types_init(struct owners_snapshot_dump_types *t);
void owners_snapshot_dump_types_clear(struct owners_snapshot_dump_types *t);

/* Whether apiVersion and kind can name a type: "v1" or "group/version",
 * and a kind (no slash in it). */
int owners_snapshot_dump_types_valid(const char *api_version, const char *kind);

/* An object read from the dump. */
struct owners_snapshot_dump_type_note {
	const char *api_version; /* valid, with kind */
	const char *kind;
	const char *plural; /* the layout's; NULL: none */
	int namespaced;     /* it carries a namespace */
	int has_status;     /* it carries a status */
	int placed;         /* it is handed out (it has a uid): only such make a type */
	unsigned flags;     /* the caller's, OR'ed into the type's */
};

/* 0 or OWNERS_ENOMEM. */
int owners_snapshot_dump_types_note(struct owners_snapshot_dump_types *t,
				    const struct owners_snapshot_dump_type_note *n);

/* The flags noted for api_version and kind; 0 when none were. */
unsigned owners_snapshot_dump_types_flags(const struct owners_snapshot_dump_types *t,
					  const char *api_version, const char *kind);

/* Builds the table from what was noted (the types with an object placed),
 * marks the GC's versions. 0 or OWNERS_ENOMEM. */
int owners_snapshot_dump_types_build(struct owners_snapshot_dump_types *t);

/* The type of api_version and kind in the built table; NULL when none. */
const struct owners_resource *
owners_snapshot_dump_types_find(const struct owners_snapshot_dump_types *t, const char *api_version,
				const char *kind);

/* The type the layout names by group ("" core) and plural, in the built
 * table: its GC-tracked version when it has several; NULL when none. */
const struct owners_resource *
owners_snapshot_dump_types_by_name(const struct owners_snapshot_dump_types *t, const char *group,
				   const char *plural);

/* Appends the plural client-go guesses for kind. */
int owners_snapshot_dump_types_plural(struct owners_buf *out, const char *kind);

#endif
