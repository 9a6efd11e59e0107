/*
 * A cluster on a file: what a read command sees, as every reader of a
 * snapshot hands it out. One interface for every format a snapshot comes
 * in: owners' own (snapshot_file.c, written by `owners snapshot`) and the
 * dumps other tools write (kubectl get -o json|yaml, kubectl cluster-info
 * dump, must-gather, support bundles: snapshot_dump*.c).
 *
 * A reader calls the visitor in this order: header once, types once, then
 * any mix of object, listed and fact, then end once. Every pointer handed
 * to a callback is borrowed for that call only: copy what you keep. A
 * callback returns 0 to go on, OWNERS_ESTOP to end the read early (the
 * reader then returns 0), or another OWNERS_E* code to fail it.
 *
 * What a format does not hold is said, never guessed: a dump without
 * discovery has types built from its objects (has_discovery 0), and a type
 * it did not collect has no listed record, so it reads as not seen, as a
 * type the server refused to list does live.
 */
#ifndef OWNERS_SNAPSHOT_H
#define OWNERS_SNAPSHOT_H

#include <stddef.h>
#include <stdint.h>

#include "object_meta.h"
#include "object_status.h"
#include "owners_error.h"
#include "resource.h"

/* owners' own snapshot formats, by the number a file carries (see
 * snapshot_file.h for their layouts). */
enum owners_snapshot_format {
	OWNERS_SNAPSHOT_FORMAT_JSON = 1,   /* JSON documents, one a line: still read, written when asked for */
	OWNERS_SNAPSHOT_FORMAT_FRAMES = 2, /* frames, objects and statuses in binary batches */
};
/* The newest, which `owners snapshot` writes by default. */
#define OWNERS_SNAPSHOT_FORMAT OWNERS_SNAPSHOT_FORMAT_FRAMES

struct owners_snapshot_header {
	const char *path;          /* the file or directory read */
	const char *format;        /* "owners snapshot", "kubectl List", "must-gather", ... */
	int64_t taken_at;          /* unix seconds: "now" of every answer read from it; 0 unknown */
	const char *taken_at_from; /* where taken_at came from, for a dump: "the files' modification time" */
	const char *server;        /* "https://10.0.0.1:6443", "" unknown */
	const char *server_version; /* "v1.36.3", "" unknown */
	/* What was collected: namespace_ NULL for every namespace; the
	 * cluster-scoped types are in it unless cluster_scoped is 0. */
	const char *namespace_;
	int cluster_scoped;
	const char *label_selector; /* only objects with these labels; NULL: all */
	/* The types came from the server's discovery (1), or were built from
	 * the objects the dump holds (0: scope from the objects, verbs and
	 * versions unknown). */
	int has_discovery;
	/* It holds what relations need (lib/api/uses_record.h): the uses of
	 * every object of the types that have them, as USES facts, and a
	 * USES_READ fact for a type that could not be read whole. An owners
	 * snapshot holds them when taken with --related; a dump always (it
	 * holds whole objects). */
	int has_relations;
	double seconds;            /* how long the snapshot took; 0 unknown */
};

/* A list the snapshot holds whole: every object of type in namespace_
 * (NULL: every namespace, or a cluster-scoped type) is among the objects
 * handed out. code 0: listed; otherwise it failed as a live list fails,
 * with the HTTP code and the messages the live scan reports (see
 * owners_scan_failure). */
struct owners_snapshot_listed {
	const struct owners_resource *type;
	const char *namespace_;
	const char *resource_version; /* "" unknown */
	int code;
	const char *message;
	const char *detail;           /* NULL when none */
	/* Requests of the list the server left unanswered until the client
	 * gave them up and sent them again (0: none), the time those took,
	 * and the whole list's: the snapshot spans that wait. */
	int unanswered;
	long waited_ms;
	long took_ms;
};

/* A fact a read command needs beyond the lists, as recorded. */
enum owners_snapshot_fact_kind {
	/* The READY/STATUS of one object (uid), as tree shows it. */
	OWNERS_SNAPSHOT_FACT_STATUS,
	/* A whole object read on its own (a Namespace or a PersistentVolume in
	 * deletion, the controller-manager's Lease), as JSON text. */
	OWNERS_SNAPSHOT_FACT_OBJECT,
	/* The pods of a namespace that mount claims: JSON text. */
	OWNERS_SNAPSHOT_FACT_POD_CLAIMS,
	/* An Event, as JSON text. */
	OWNERS_SNAPSHOT_FACT_EVENT,
	/* What one object (uid) uses: a record of lib/api/uses_record.h. */
	OWNERS_SNAPSHOT_FACT_USES,
	/* A type whose objects could not be read whole where they were
	 * listed: JSON text {"group","version","resource","namespace"
	 * (absent: everywhere),"code","message"}. */
	OWNERS_SNAPSHOT_FACT_USES_READ,
};

struct owners_snapshot_fact {
	enum owners_snapshot_fact_kind kind;
	const char *uid;                           /* STATUS, USES: whose */
	const struct owners_object_status *status; /* STATUS */
	const char *path;    /* OBJECT: the API path it was read at; POD_CLAIMS: the namespace;
				EVENT: the UID of the object it is about (involvedObject) */
	const char *json;    /* OBJECT, POD_CLAIMS, EVENT, USES, USES_READ */
	size_t json_len;
	int64_t read_at;     /* OBJECT: the server's clock when it was read; 0 unknown */
};

struct owners_snapshot_visitor {
	int (*header)(void *ctx, const struct owners_snapshot_header *h);
	/* The types, whole; the table is the reader's (borrowed until end):
	 * every type pointer handed to the later callbacks points into it. */
	int (*types)(void *ctx, const struct owners_resource_table *t);
	int (*object)(void *ctx, const struct owners_resource *type, const struct owners_object_meta *m);
	int (*listed)(void *ctx, const struct owners_snapshot_listed *l);
	int (*fact)(void *ctx, const struct owners_snapshot_fact *f);
	/* The snapshot ended where it says it ends (a file cut short fails
	 * before this with OWNERS_EPROTO). */
	int (*end)(void *ctx);
	void *ctx;
	/* How far a dump's reading is: percent of it (the reader walks its
	 * files twice), of size bytes of files; told about every megabyte
	 * and at the end, so that a caller can show how far a big dump is.
	 * May be NULL (last, so that initializers may leave it). */
	void (*progress)(void *ctx, unsigned percent, uint64_t size);
	/* The objects about to be handed on, a batch of a type at a time
	 * (format 2): each one's UID and its owners' UIDs, told before any
	 * of them is, so that a reader of millions may ask for what it will
	 * look them up in at once, not one by one. The UIDs' text stays
	 * where it is told (at addresses rising through the batch) until the
	 * batch's objects are handed on; uid NULL before a batch is told and
	 * after its objects: forget what was told. May be NULL. */
	void (*ahead)(void *ctx, const struct owners_resource *type, const char *uid);
};

/* Who is told how far a reading is (the visitor's progress, for what is
 * read before any visitor: a dump's first pass). */
struct owners_snapshot_progress {
	void (*fn)(void *ctx, unsigned percent, uint64_t size);
	void *ctx;
};

/*
 * A snapshot opened once and read from its start as often as asked: what
 * path is (an owners snapshot, or a dump and its layout) is found when it
 * is opened, a dump's first pass made then too (snapshot_dump.h), so
 * that the reads a command makes (its header, each scan, the facts) do
 * not find it again.
 */
struct owners_snapshot_reader;

/* Opens path (a file, or a directory), named shown in messages and the
 * header; progress (NULL: nobody) told of a dump's first pass. 0, or as
 * owners_snapshot_read() fails, before any visitor is called. */
int owners_snapshot_reader_open(struct owners_snapshot_reader **out, const char *path,
				const char *shown, const struct owners_snapshot_progress *progress,
				struct owners_error *err);
struct owners_snapshot_dump_counts;
/* Reads it from its start, calling v; for a dump what it passed over in
 * counts (zeroed for an owners snapshot; may be NULL). 0, or as
 * owners_snapshot_read() fails. */
int owners_snapshot_reader_read(struct owners_snapshot_reader *r,
				const struct owners_snapshot_visitor *v,
				struct owners_snapshot_dump_counts *counts,
				struct owners_error *err);
void owners_snapshot_reader_close(struct owners_snapshot_reader *r);

/* Reads path (a file, "-" for stdin, or a directory) in whichever format
 * it is in, calling v (opened, read once and closed). A failure's message names the file and the place:
 * "snap.json.gz: line 12: ...". 0, OWNERS_EPROTO (not a snapshot, or
 * damaged), OWNERS_EIO, OWNERS_ENOMEM or a callback's code. Any callback
 * may be NULL. */
int owners_snapshot_read(const char *path, const struct owners_snapshot_visitor *v,
			 struct owners_error *err);
/* The same, path named shown in messages and in the header (a copy of
 * standard input is "standard input", not the file it was copied to). */
int owners_snapshot_read_shown(const char *path, const char *shown, const struct owners_snapshot_visitor *v,
			       struct owners_error *err);
/* The same, and for a dump what it passed over in counts (zeroed for an
 * owners snapshot), so that one walk says both. */
int owners_snapshot_read_counted(const char *path, const char *shown, const struct owners_snapshot_visitor *v,
				 struct owners_snapshot_dump_counts *counts, struct owners_error *err);

#endif
