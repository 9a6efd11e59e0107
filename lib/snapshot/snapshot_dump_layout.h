/*
 * Which dump a path is, and the files of it to read, each with what the
 * dump's layout says of it:
 *
 *  - a must-gather (snapshot_dump_mustgather.c), a support bundle
 *    (snapshot_dump_bundle.c), kubectl cluster-info dump's directory
 *    (snapshot_dump_clusterinfo.c), each found by the directories and
 *    files its tool writes;
 *  - any of them in a tar archive (.tar, .tar.gz, .tgz), read in place
 *    as the directory it was made of (snapshot_dump_archive.h);
 *  - otherwise kubectl get -o json|yaml output: a file (or "-", standard
 *    input), or a directory of them, walked to any depth (not through
 *    symbolic links to directories), reading the files named *.json,
 *    *.yaml and *.yml and passing over every other file (logs, READMEs,
 *    archives): a dump's directory holds both. Whether a single file of
 *    JSON is kubectl cluster-info dump's stdout is only known from its
 *    documents (snapshot_dump.c).
 *
 * Ownership: the layout owns its sources and strings
 * (owners_snapshot_dump_layout_clear()).
 */
#ifndef OWNERS_SNAPSHOT_DUMP_LAYOUT_H
#define OWNERS_SNAPSHOT_DUMP_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "owners_error.h"

/* What a file's Lists say of what the dump holds whole. */
enum owners_snapshot_dump_layout_claim_by {
	/* nothing: objects read on their own (a must-gather object file) */
	OWNERS_SNAPSHOT_DUMP_CLAIM_NONE,
	/* the file is the List of one type in one namespace (namespace_), or
	 * of a cluster-scoped type (namespace_ NULL) */
	OWNERS_SNAPSHOT_DUMP_CLAIM_FILE,
	/* kubectl get: each type with objects in a List of the file is whole
	 * (kubectl get TYPE -A; kubectl get all -A) */
	OWNERS_SNAPSHOT_DUMP_CLAIM_TYPES,
};

struct owners_snapshot_dump_layout_source {
	char *path;
	enum owners_snapshot_dump_layout_claim_by claim;
	char *namespace_; /* CLAIM_FILE: the namespace listed, NULL for a cluster-scoped type */
	/* The type the layout names for the file (a must-gather's
	 * <group>/<plural>.yaml, a bundle's directory): group ("" the core
	 * group) and plural; NULL when it names none. */
	char *group;
	char *plural;
	/* The type of a bundle's built-in directory, for objects written
	 * without kind and apiVersion by older troubleshoot; NULL when none.
	 * Static strings. */
	const char *api_version;
	const char *kind;
	/* A bare array of objects is the whole list too (a bundle's custom
	 * resources); otherwise only a List document claims. */
	int array_is_list;
	int yaml;  /* read as YAML, else JSON */
	int sniff; /* which of the two is found from the first byte (a file given alone) */
};

struct owners_snapshot_dump_layout {
	const char *format; /* "kubectl List", "must-gather", ... (static) */
	struct owners_snapshot_dump_layout_source *sources;
	size_t count, cap;
	int64_t taken_at;          /* the dump's own time; 0 when it has none */
	const char *taken_at_from; /* where it came from (static) */
	char *server_version;      /* "" unknown */
	int single_file;           /* path is one file (or "-") */
	char *archive;             /* path is a tar archive, mounted in its place; NULL */
	size_t skipped_files;      /* files of the directory passed over by name */
};

void owners_snapshot_dump_layout_init(struct owners_snapshot_dump_layout *l);
void owners_snapshot_dump_layout_clear(struct owners_snapshot_dump_layout *l);

/* Finds what path is and lists its files. 0; OWNERS_EIO ("PATH: cannot
 * read: why"); OWNERS_EPROTO ("DIR: not a snapshot or a dump owners
 * reads (looked for ...)"), when a directory has nothing a dump is
 * written as; OWNERS_ENOMEM. */
int owners_snapshot_dump_layout_find(struct owners_snapshot_dump_layout *l, const char *path,
				     struct owners_error *err);

/* Appends a copy of s (its strings copied). 0 or OWNERS_ENOMEM. */
int owners_snapshot_dump_layout_add(struct owners_snapshot_dump_layout *l,
				    const struct owners_snapshot_dump_layout_source *s);

/* The type of an object read from s: its own apiVersion and kind (the
 * item's, its List's for a typed List's items), else s's built-in type.
 * Returns whether they name a type (owners_snapshot_dump_types_valid()). */
int owners_snapshot_dump_layout_item_type(const struct owners_snapshot_dump_layout_source *s,
					  const char *item_api_version, const char *item_kind,
					  const char **api_version, const char **kind);

/* The plural s's layout gives objects of api_version: s's, when its group
 * is api_version's; NULL otherwise. */
const char *owners_snapshot_dump_layout_plural(const struct owners_snapshot_dump_layout_source *s,
					       const char *api_version);

/* Drops the sources from count on. */
void owners_snapshot_dump_layout_truncate(struct owners_snapshot_dump_layout *l, size_t count);

#endif
