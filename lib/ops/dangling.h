/*
 * Dangling ownerReferences: every reference of the chosen objects that
 * does not resolve, one finding per reference, classified the way the
 * garbage collector decides (owners_graph_classify_ref()), with what the
 * garbage collector will do about it, and renderers for the table and the
 * JSON document of `owners dangling`.
 *
 * What the GC will do is decided per object, as attemptToDeleteItem()
 * in pkg/controller/garbagecollector/garbagecollector.go does:
 *  - an object already being deleted is left alone (it returns at once);
 *  - classifyReferences() looks every reference up, in order, and gives up
 *    on the whole object at the first one it cannot look up: a kind the
 *    REST mapper cannot map (unresolvable: an error, retried forever) or a
 *    namespaced owner of a cluster-scoped object (isDangling() returns
 *    namespacedOwnerOfClusterScopedObjectErr and the item is forgotten).
 *    Then nothing ever happens to that object, to none of its references;
 *  - otherwise references are solid (owner found with the same UID, not
 *    waiting for its dependents' deletion), dangling (isDangling(): 404 or
 *    another UID; a namespaced owner is looked up in the dependent's
 *    namespace only, so one in another namespace is dangling too) or
 *    waiting (owner being deleted with the foregroundDeletion finalizer);
 *  - at least one solid owner: the dangling references (and the waiting
 *    ones) are patched out, the object stays;
 *  - no solid owner: the object is deleted.
 * An owner we could not check because this user may not list its type
 * makes the outcome unknown unless a solid owner already decides it; one
 * the GC cannot look up either (its group failed discovery, its list
 * failed) stops classifyReferences() with an error: nothing happens to
 * the object while that lasts.
 *
 * Ownership: a report owns its findings and their messages
 * (owners_dangling_report_clear()); findings refer to graph nodes by index,
 * so the graph must outlive the report's use.
 */
#ifndef OWNERS_DANGLING_H
#define OWNERS_DANGLING_H

#include <stddef.h>
#include <stdint.h>

#include "print_options.h"
#include "buf.h"
#include "collector.h"
#include "graph.h"

#define OWNERS_NO_REF UINT32_MAX

/* What the cluster's garbage collector will do about a finding. */
enum owners_dangling_gc_action {
	OWNERS_DANGLING_GC_DELETE_OBJECT,    /* no owner of the object resolves: it deletes the object */
	OWNERS_DANGLING_GC_REMOVE_REFERENCE, /* the object has a live owner: it patches this reference out */
	OWNERS_DANGLING_GC_NOTHING,          /* it never acts (see why) */
	OWNERS_DANGLING_GC_UNKNOWN,          /* it depends on an owner we could not check */
};

enum owners_dangling_gc_why {
	OWNERS_DANGLING_GC_WHY_NO_LIVE_OWNER,  /* delete: every owner dangles (or waits for deletion) */
	OWNERS_DANGLING_GC_WHY_LIVE_OWNER,     /* remove: `because` resolves to a live owner */
	OWNERS_DANGLING_GC_WHY_UNRESOLVABLE,   /* nothing: `because` names an unserved kind (retried forever) */
	OWNERS_DANGLING_GC_WHY_CLUSTER_SCOPED, /* nothing: `because` is namespaced, the object cluster-scoped */
	OWNERS_DANGLING_GC_WHY_IN_DELETION,    /* nothing: the object is already being deleted */
	OWNERS_DANGLING_GC_WHY_UNKNOWN_OWNER,  /* unknown: `because` could not be checked */
	OWNERS_DANGLING_GC_WHY_BLIND_OWNER,    /* nothing for now: the GC cannot look `because` up either
					 (its API group failed discovery, its list failed) */
	OWNERS_DANGLING_GC_WHY_OWNER_COLLECTED,/* delete, later: the live owner is garbage itself; the GC
					 collects `after` first (owners_dangling_eventual()) */
};

/* What --fix (or --dry-run) did about a finding. */
enum owners_fix_result {
	OWNERS_FIX_NONE,         /* no fix was asked for */
	OWNERS_FIX_WOULD_REMOVE, /* dry run: the server accepted the patch without applying it */
	OWNERS_FIX_REMOVED,      /* removed: the object, re-read, no longer has it */
	OWNERS_FIX_KEPT,         /* left on purpose: unknown, or it resolves now */
	OWNERS_FIX_GONE,         /* nothing to fix: the reference or object is no longer there */
	OWNERS_FIX_FAILED,       /* could not be removed (message says why) */
	OWNERS_FIX_WOULD_REPAIR, /* dry run: the apiVersion would be made a served one */
	OWNERS_FIX_REPAIRED,     /* an unserved apiVersion replaced by a served one (same UID, alive) */
	OWNERS_FIX_WOULD_DELETE, /* dry run: the object would be collected (the GC deletes it now) */
	OWNERS_FIX_DELETED,      /* collected: the DELETE the GC would send was accepted */
};

struct owners_dangling_finding {
	uint32_t object;             /* the dependent's node */
	uint32_t ref;                /* index into its refs */
	enum owners_ref_class class_;
	enum owners_dangling_gc_action gc;
	enum owners_dangling_gc_why why;
	/* the reference (of the same object) the prediction hinges on, or OWNERS_NO_REF */
	uint32_t because;
	/* OWNERS_DANGLING_GC_WHY_OWNER_COLLECTED: the object the GC collects first (a
	 * node), else OWNERS_NO_NODE */
	uint32_t after;
	enum owners_fix_result fix;
	char *fix_message;           /* owned; NULL when there is nothing to add */
	int attempts;                /* patches sent for the object (conflicts make more) */
};

struct owners_dangling_report {
	struct owners_dangling_finding *items;
	size_t count;
	size_t cap;
};

/* Appends the findings of one object (real node) to rep. */
int owners_dangling_check(struct owners_dangling_report *rep, struct owners_graph *g,
			  uint32_t node);
/* A scan of one namespace sees an owner in another namespace as absent;
 * the garbage collector, which sees every namespace, reports it
 * invalid-namespace (OwnerRefInvalidNamespace). The owner types worth
 * listing across namespaces to tell the two apart: those of the references
 * of nodes that classify absent with a namespaced owner, each type once
 * (compare with owners_resource_same_type()). *types is the caller's to
 * free; NULL with *n_types 0 when there are none. */
int owners_dangling_absent_owner_types(struct owners_graph *g, const uint32_t *nodes, size_t n,
				       const struct owners_resource ***types, size_t *n_types);
/* What the GC does once its passes settle, not only now: a finding whose
 * object keeps a live owner that is garbage itself (owners_collector_settle()
 * collects the object) becomes a deletion after that owner
 * (OWNERS_DANGLING_GC_WHY_OWNER_COLLECTED). 0 or OWNERS_ENOMEM. */
int owners_dangling_eventual(struct owners_dangling_report *rep, struct owners_graph *g);
/* Orders findings by namespace, kind, name, object and reference order
 * (so the findings of one object are adjacent). */
void owners_dangling_sort(struct owners_dangling_report *rep, const struct owners_graph *g);
void owners_dangling_report_clear(struct owners_dangling_report *rep);

/* Whether --fix may remove a reference of this class (all but resolved
 * and unknown: when in doubt, keep). */
int owners_dangling_fixable(enum owners_ref_class c);

/* What the garbage collector does to an object with exactly the
 * references of these classes (keep NULL: all n; else those with keep[i]
 * set), as attemptToDeleteItem() decides: it gives up on the object when
 * one is unresolvable, or namespaced while the object is cluster-scoped;
 * it keeps it while one resolves, or when none is left; it deletes it
 * when all dangle, and may delete it when the rest are unknown. --fix
 * never turns KEEPS into one of the others. */
enum owners_dangling_fate {
	OWNERS_DANGLING_GC_KEEPS,
	OWNERS_DANGLING_GC_MAY_DELETE,
	OWNERS_DANGLING_GC_DELETES,
};
enum owners_dangling_fate owners_dangling_gc_fate(const enum owners_ref_class *classes, size_t n,
					    const unsigned char *keep, int cluster_scoped);
/* Whether the GC gives up on an object for a reference of this class. */
int owners_dangling_gc_gives_up(enum owners_ref_class c, int cluster_scoped);
/* Whether the finding is on an object the GC never acts on ("nothing,
 * ever": an unresolvable reference, or a namespaced owner named by a
 * cluster-scoped object): --fix leaves it alone unless asked by name
 * (--fix-unresolvable). */
int owners_dangling_gc_never(const struct owners_dangling_finding *f);

/* Stable names, as in the JSON output. */
const char *owners_dangling_gc_action_name(enum owners_dangling_gc_action a);   /* "delete-object", ... */
const char *owners_dangling_gc_action_text(const struct owners_dangling_finding *f); /* table wording */
const char *owners_fix_result_name(enum owners_fix_result r); /* "removed", ... */
/* Appends why the GC will do what it will, in words. */
int owners_dangling_gc_reason(struct owners_buf *out, const struct owners_graph *g,
			      const struct owners_dangling_finding *f);

/* ---- rendering ---------------------------------------------------- */

struct owners_dangling_render {
	const struct owners_graph *g;
	const struct owners_dangling_report *rep;
	/* wide: add apiVersion, UID and the reason, and the object's group
	 * (Kind.group/name); color: the class */
	struct owners_print_options print;
	int show_fix;               /* --fix or --dry-run ran: add the outcome */
	int dry_run;
};

/* NAMESPACE OBJECT OWNER CLASS GC-ACTION [FIX]; nothing when no findings. */
int owners_dangling_render_text(struct owners_buf *out, const struct owners_dangling_render *r);
/* The documented JSON document (see cmd/dangling.c's json_schema, and
 * lib/graph/document_json.h): an item per finding, the object with its
 * reference under owners. */
int owners_dangling_render_json(struct owners_buf *out, const struct owners_dangling_render *r);
/* -o name: each object with a finding once, "deployment.apps/web" as
 * kubectl delete and owners delete take it, one a line. */
int owners_dangling_render_names(struct owners_buf *out, const struct owners_dangling_render *r);

#endif
