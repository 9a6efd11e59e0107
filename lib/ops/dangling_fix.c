#include "dangling_fix.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "json.h"
#include "object_io.h"
#include "owner_check.h"
#include "patch.h"

#define DEFAULT_ATTEMPTS 5

struct fixer {
	struct owners_dangling_report *rep;
	struct owners_graph *g;
	struct owners_http_client *c;
	const struct owners_dangling_fix_options *o;
	int max_attempts;
	struct owners_owner_checks checks; /* owners already looked up in this run */
	unsigned char *patched;      /* per finding: its object got a patch accepted */
};

/* ---- helpers ---------------------------------------------------------- */

/* Records the outcome; the message is decoration: out of memory loses it,
 * never the outcome. */
static void set_fix(struct owners_dangling_finding *f, enum owners_fix_result r, const char *fmt,
		    ...) __attribute__((format(printf, 3, 4)));

static void set_fix(struct owners_dangling_finding *f, enum owners_fix_result r, const char *fmt,
		    ...)
{
	struct owners_buf b = OWNERS_BUF_INIT;
	va_list ap;

	f->fix = r;
	free(f->fix_message);
	f->fix_message = NULL;
	if (!fmt)
		return;
	va_start(ap, fmt);
	if (!owners_buf_vaddf(&b, fmt, ap))
		f->fix_message = owners_buf_detach(&b);
	va_end(ap);
	owners_buf_clear(&b);
}

static const char *meta_string(const struct owners_json_value *meta, const char *key)
{
	const char *s = owners_json_string(owners_json_get(meta, key));

	return s ? s : "";
}

/* ---- one object ------------------------------------------------------- */

/* The object as the server holds it now. 0 with *doc set; OWNERS_ENOTFOUND
 * (with *replaced when the name now belongs to another object); or another
 * error with err set. */
static int read_object(struct fixer *fx, const struct owners_node *n, struct owners_json_value **doc,
		       int *replaced, struct owners_error *err)
{
	const struct owners_object_get_request q = { .key = { n->place->resource, n->place->namespace_, n->name } };
	int rc = owners_object_get(doc, fx->c, &q, err);

	*replaced = 0;
	if (!rc && strcmp(owners_object_io_meta_string(*doc, "uid"), OWNERS_NODE_UID(n))) {
		owners_json_value_free(*doc);
		*doc = NULL;
		*replaced = 1;
		rc = OWNERS_ENOTFOUND;
	}
	return rc;
}

/* The finding in [a, b) that reports this reference and was not matched
 * yet (seen, per finding; an object may carry the same reference twice),
 * or NULL. */
static struct owners_dangling_finding *reported(struct fixer *fx, size_t a, size_t b,
						const struct owners_ref *ref, const unsigned char *seen)
{
	size_t k;

	for (k = a; k < b; k++) {
		struct owners_dangling_finding *f = &fx->rep->items[k];
		const struct owners_ref *was = &fx->g->nodes[f->object].refs[f->ref];

		/* the same UID: the same node (a UID the graph does not hold is
		 * none of its references') */
		if (!seen[k - a] && ref->owner != OWNERS_NO_NODE && was->owner == ref->owner &&
		    !strcmp(was->type->api_version, ref->type->api_version) &&
		    !strcmp(was->type->kind, ref->type->kind) && !strcmp(was->name, ref->name))
			return f;
	}
	return NULL;
}

static int send_patch(struct fixer *fx, const struct owners_node *n, const struct owners_buf *body,
		      long *status, struct owners_error *err)
{
	const struct owners_object_write_request w = {
		.method = "PATCH",
		.content_type = OWNERS_MERGE_PATCH_TYPE,
		.key = { n->place->resource, n->place->namespace_, n->name },
		.body = body,
		.dry_run = fx->o->dry_run,
	};

	return owners_object_write(status, fx->c, &w, err);
}

/* Sets every finding of [a, b) that plan selects (or, plan NULL, every
 * fixable one) to r. */
static void set_all(struct fixer *fx, size_t a, size_t b, const unsigned char *plan,
		    enum owners_fix_result r, const char *message)
{
	size_t k;

	for (k = a; k < b; k++)
		if (plan ? plan[k - a] : owners_dangling_fixable(fx->rep->items[k].class_))
			set_fix(&fx->rep->items[k], r, message ? "%s" : NULL, message);
}

/* A served version of the group and kind of an apiVersion the server no
 * longer serves (apps/v1beta1 Deployment: apps/v1), or NULL. */
static const struct owners_resource *served_version(const struct owners_resource_table *t,
						   const char *api_version, const char *kind)
{
	const char *slash = strchr(api_version, '/');
	size_t glen = slash ? (size_t)(slash - api_version) : 0, i;
	const struct owners_resource *any = NULL;

	for (i = 0; i < t->count; i++) {
		const struct owners_resource *r = &t->items[i];

		if (strcmp(r->kind, kind) || strlen(r->group) != glen || strncmp(r->group, api_version, glen))
			continue;
		if (r->preferred)
			return r;
		any = any ? any : r;
	}
	return any;
}

/* Whether the owner named by ref, looked up by a served version of its
 * group and kind, is alive with ref's UID: then the reference is only out
 * of date, and repairing its apiVersion is the fix. */
static int repairable(struct fixer *fx, const struct owners_node *dep, const struct owners_ref *ref,
		      const char *uid, const struct owners_resource **to)
{
	const struct owners_resource *r = served_version(fx->g->types, ref->type->api_version, ref->type->kind);
	struct owners_ref moved;
	struct owners_node_place type;
	enum owners_owner_verdict v;
	const char *msg;

	*to = NULL;
	if (!r || (r->namespaced && !*dep->place->namespace_))
		return 0;
	moved = *ref;
	type = *ref->type;
	type.api_version = r->api_version;
	moved.type = &type;
	if (owners_owner_check(&v, &msg, &fx->checks, dep, &moved, uid) || v != OWNERS_OWNER_ALIVE)
		return 0;
	*to = r;
	return 1;
}

/* What one attempt decides for the references on the object as read:
 * per reference, whether it stays (keep), its class now and after the
 * patch, the finding it answers and its repaired apiVersion; per finding
 * of the object (rep->items[a, b), index from a), whether it is still
 * there (seen) and its plan (1: remove the reference, 2: repair its
 * apiVersion). */
struct decision {
	size_t a, b;
	size_t n_refs, n_change;
	unsigned char *keep;
	enum owners_ref_class *classes, *after;
	struct owners_dangling_finding **finding;
	const char **api_versions;
	unsigned char *seen, *plan;
};

static int decision_alloc(struct decision *d, size_t n_refs, size_t a, size_t b)
{
	size_t n_findings = b - a;

	memset(d, 0, sizeof(*d));
	d->a = a;
	d->b = b;
	d->n_refs = n_refs;
	d->keep = calloc(n_refs + 1, 1);
	d->classes = calloc(n_refs + 1, sizeof(*d->classes));
	d->after = calloc(n_refs + 1, sizeof(*d->after));
	d->finding = calloc(n_refs + 1, sizeof(*d->finding));
	d->api_versions = calloc(n_refs + 1, sizeof(*d->api_versions));
	d->seen = calloc(n_findings, 1);
	d->plan = calloc(n_findings, 1);
	if (!d->keep || !d->classes || !d->after || !d->finding || !d->api_versions || !d->seen ||
	    !d->plan)
		return OWNERS_ENOMEM;
	return 0;
}

static void decision_clear(struct decision *d)
{
	free(d->keep);
	free(d->classes);
	free(d->after);
	free(d->finding);
	free(d->api_versions);
	free(d->seen);
	free(d->plan);
	memset(d, 0, sizeof(*d));
}

/* Decides reference i (item) of the object n as read now. */
static int decide_ref(struct fixer *fx, struct decision *d, const struct owners_node *n,
		      const struct owners_json_value *item, size_t i)
{
	struct owners_dangling_finding *items = fx->rep->items;
	size_t a = d->a, b = d->b;
	const struct owners_resource *to;
	struct owners_ref now;
	struct owners_node_place type = owners_graph_no_place;
	const char *now_uid = meta_string(item, "uid");
	struct owners_dangling_finding *f;
	enum owners_ref_class c;
	enum owners_owner_verdict v;
	const char *msg = NULL;
	int rc;

	d->keep[i] = 1;
	memset(&now, 0, sizeof(now));
	type.api_version = meta_string(item, "apiVersion");
	type.kind = meta_string(item, "kind");
	now.type = &type;
	now.name = meta_string(item, "name");
	if (!now_uid)
		now_uid = "";
	/* the node of its UID, when the graph holds one */
	now.owner = owners_graph_find_uid(fx->g, now_uid);
	/* What the GC makes of every reference, reported or not. */
	d->after[i] = d->classes[i] = c = owners_graph_classify_ref(fx->g, items[a].object, &now);
	/* Only what was reported, and only while it still dangles. */
	f = reported(fx, a, b, &now, d->seen);
	if (!f || !owners_dangling_fixable(f->class_))
		return 0;
	d->seen[f - &items[a]] = 1;
	if (!owners_dangling_fixable(c)) {
		set_fix(f, OWNERS_FIX_KEPT, "%s",
			c == OWNERS_REF_RESOLVED ? "resolves now" : "no verdict now");
		return 0;
	}
	if ((rc = owners_owner_check(&v, &msg, &fx->checks, n, &now, now_uid)))
		return rc;
	if (v == OWNERS_OWNER_ALIVE) {
		set_fix(f, OWNERS_FIX_KEPT, "%s", msg ? msg : "resolves now");
	} else if (v == OWNERS_OWNER_UNKNOWN) {
		set_fix(f, OWNERS_FIX_FAILED, "not removed: %s",
			msg ? msg : "the owner could not be checked");
	} else if (c == OWNERS_REF_UNRESOLVABLE && repairable(fx, n, &now, now_uid, &to)) {
		/* Out of date, not dangling: same object, served elsewhere. */
		d->api_versions[i] = to->api_version;
		d->after[i] = OWNERS_REF_RESOLVED;
		d->finding[i] = f;
		d->plan[f - &items[a]] = 2;
		d->n_change++;
	} else {
		d->keep[i] = 0;
		d->finding[i] = f;
		d->plan[f - &items[a]] = 1;
		d->n_change++;
	}
	return 0;
}

/* Never turn an object the GC keeps into one it deletes: the references
 * it gives up on stay, then, if need be, all of them. */
static void keep_what_the_gc_keeps(struct fixer *fx, size_t a, struct decision *d,
				   int cluster_scoped)
{
	struct owners_dangling_finding *items = fx->rep->items;
	size_t i;
	int pass;

	if (!d->n_change ||
	    owners_dangling_gc_fate(d->classes, d->n_refs, NULL, cluster_scoped) != OWNERS_DANGLING_GC_KEEPS)
		return;
	for (pass = 0; pass < 2; pass++) {
		if (owners_dangling_gc_fate(d->after, d->n_refs, d->keep, cluster_scoped) ==
		    OWNERS_DANGLING_GC_KEEPS)
			break;
		for (i = 0; i < d->n_refs; i++) {
			if (d->keep[i] ||
			    (!pass && !owners_dangling_gc_gives_up(d->classes[i], cluster_scoped)))
				continue;
			d->keep[i] = 1;
			d->plan[d->finding[i] - &items[a]] = 0;
			d->n_change--;
			set_fix(d->finding[i], OWNERS_FIX_KEPT, "%s",
				"kept: without it the garbage collector, which leaves the object "
				"alone now, "
				"could delete it (its other owners are gone or cannot be checked)");
		}
	}
}

/* What sending the patch came to (send_patch()), on attempt n_attempt. */
struct sent {
	int rc;
	long status;
	int n_attempt;
	const struct owners_error *err;
};

/* Records what the patch did on every finding it was for. OWNERS_ECONFLICT
 * stays when another attempt may. */
static int record_patch(struct fixer *fx, const struct decision *d, const struct sent *sent)
{
	struct owners_dangling_finding *items = fx->rep->items;
	size_t a = d->a, b = d->b, k;
	int rc = sent->rc, n_attempt = sent->n_attempt;
	long status = sent->status;
	const struct owners_error *err = sent->err;

	for (k = a; k < b; k++)
		items[k].attempts = n_attempt;
	if (rc == OWNERS_ENOMEM ||
	    (rc == OWNERS_ECONFLICT && status == 409 && n_attempt < fx->max_attempts))
		return rc; /* a conflict: read again, decide again */
	for (k = a; k < b; k++) {
		const struct owners_ref *was = &fx->g->nodes[items[k].object].refs[items[k].ref];
		const struct owners_resource *to;

		if (!d->plan[k - a])
			continue;
		if (rc == OWNERS_ECONFLICT && status == 409)
			set_fix(&items[k], OWNERS_FIX_FAILED,
				"gave up after %d conflicting updates", n_attempt);
		else if (rc == OWNERS_ENOTFOUND)
			set_fix(&items[k], OWNERS_FIX_GONE, "the object no longer exists");
		else if (rc)
			set_fix(&items[k], OWNERS_FIX_FAILED, "cannot patch the object: %s",
				owners_error_message(err));
		else if (d->plan[k - a] == 1)
			set_fix(&items[k],
				fx->o->dry_run ? OWNERS_FIX_WOULD_REMOVE : OWNERS_FIX_REMOVED,
				NULL);
		else if ((to = served_version(fx->g->types, was->type->api_version, was->type->kind)))
			set_fix(&items[k],
				fx->o->dry_run ? OWNERS_FIX_WOULD_REPAIR : OWNERS_FIX_REPAIRED,
				"apiVersion %s → %s (the owner is alive under it, same UID)",
				was->type->api_version, to->api_version);
	}
	if (!rc)
		fx->patched[a] = 1;
	return 0;
}

/* Reads the object; a failure is recorded on its findings (done with it). */
static int read_for_attempt(struct fixer *fx, size_t a, size_t b, const struct owners_node *n,
			    struct owners_json_value **doc, struct owners_error *err)
{
	struct owners_dangling_finding *items = fx->rep->items;
	int rc, replaced = 0;
	size_t k;

	rc = read_object(fx, n, doc, &replaced, err);
	if (rc == OWNERS_ENOTFOUND)
		set_all(fx, a, b, NULL, OWNERS_FIX_GONE,
			replaced ? "the object was replaced (new UID) since the scan"
				 : "the object no longer exists");
	else if (rc && rc != OWNERS_ENOMEM)
		for (k = a; k < b; k++)
			if (owners_dangling_fixable(items[k].class_))
				set_fix(&items[k], OWNERS_FIX_FAILED, "cannot read the object: %s",
					owners_error_message(err));
	return rc;
}

/* One attempt: read, decide, patch. Returns 0 when the object is done
 * (whatever the outcome), OWNERS_ECONFLICT to go again, OWNERS_ENOMEM. */
static int attempt(struct fixer *fx, size_t a, size_t b, int n_attempt)
{
	struct owners_dangling_finding *items = fx->rep->items;
	const struct owners_node *n = &fx->g->nodes[items[a].object];
	struct owners_error err = OWNERS_ERROR_INIT;
	struct owners_json_value *doc = NULL;
	const struct owners_json_value *meta, *refs;
	struct owners_buf body = OWNERS_BUF_INIT;
	struct decision d;
	size_t i, k;
	long status = 0;
	int rc;

	memset(&d, 0, sizeof(d));
	set_all(fx, a, b, NULL, OWNERS_FIX_NONE, NULL);
	if ((rc = read_for_attempt(fx, a, b, n, &doc, &err)))
		goto out;
	meta = owners_json_get(doc, "metadata");
	refs = owners_json_get(meta, "ownerReferences");
	if (refs && refs->type != OWNERS_JSON_ARRAY)
		refs = NULL;
	if ((rc = decision_alloc(&d, refs ? refs->count : 0, a, b)))
		goto out;
	for (i = 0; !rc && i < d.n_refs; i++)
		rc = decide_ref(fx, &d, n, refs->items[i], i);
	if (rc)
		goto out;
	for (k = a; k < b; k++)
		if (owners_dangling_fixable(items[k].class_) && !d.seen[k - a])
			set_fix(&items[k], OWNERS_FIX_GONE, "no longer on the object");
	keep_what_the_gc_keeps(fx, a, &d, !*n->place->namespace_);
	if (!d.n_change)
		goto out;
	if (n_attempt == 1 && fx->o->before_patch)
		fx->o->before_patch(fx->o->ctx, n);
	rc = owners_patch_owner_refs(&body, meta_string(meta, "resourceVersion"), refs, d.keep,
				     d.api_versions, &err);
	if (rc && rc != OWNERS_ENOMEM) {
		/* No resourceVersion came back: never patch unconditionally. */
		for (k = a; k < b; k++)
			if (d.plan[k - a])
				set_fix(&items[k], OWNERS_FIX_FAILED, "%s", owners_error_message(&err));
		rc = 0;
	}
	if (!rc) {
		rc = send_patch(fx, n, &body, &status, &err);
		rc = record_patch(fx, &d, &(const struct sent){ rc, status, n_attempt, &err });
	}
out:
	if (rc && rc != OWNERS_ENOMEM && rc != OWNERS_ECONFLICT)
		rc = 0; /* a read failure: recorded in the findings, the object is done */
	owners_json_value_free(doc);
	owners_buf_clear(&body);
	owners_error_clear(&err);
	decision_clear(&d);
	return rc;
}

static int fix_object(struct fixer *fx, size_t a, size_t b)
{
	size_t k;
	int n, rc = 0, any = 0;

	/* Decided already: collected as the GC would (owners_dangling_collect()). */
	if (fx->rep->items[a].fix != OWNERS_FIX_NONE)
		return 0;
	/* In deletion: the GC's attemptToDeleteItem leaves an object being
	 * deleted as it is (one waiting on its dependents goes to
	 * processDeletingDependentsItem, which patches no reference), and so
	 * does --fix, whatever it is asked. */
	if (fx->g->nodes[fx->rep->items[a].object].extras->deleted) {
		for (k = a; k < b; k++)
			set_fix(&fx->rep->items[k], OWNERS_FIX_KEPT, "%s",
				"left as it is: the object is in deletion, and the garbage collector never "
				"changes the references of an object in deletion");
		return 0;
	}
	/* The GC never acts on this object: neither does --fix, unless asked. */
	if (!fx->o->fix_unresolvable && owners_dangling_gc_never(&fx->rep->items[a])) {
		for (k = a; k < b; k++)
			set_fix(&fx->rep->items[k], OWNERS_FIX_KEPT, "%s",
				"left as it is: the garbage collector never acts on this object");
		return 0;
	}
	for (k = a; k < b; k++) {
		if (owners_dangling_fixable(fx->rep->items[k].class_))
			any = 1;
		else
			set_fix(&fx->rep->items[k], OWNERS_FIX_KEPT, "unknown: never removed");
	}
	if (!any)
		return 0;
	for (n = 1; n <= fx->max_attempts; n++)
		if ((rc = attempt(fx, a, b, n)) != OWNERS_ECONFLICT)
			break;
	return rc;
}

/* The end state: the patched object read again. */
static int verify_object(struct fixer *fx, size_t a, size_t b)
{
	struct owners_dangling_finding *items = fx->rep->items;
	const struct owners_node *n = &fx->g->nodes[items[a].object];
	struct owners_error err = OWNERS_ERROR_INIT;
	struct owners_json_value *doc = NULL;
	const struct owners_json_value *refs;
	size_t k, i;
	int rc, replaced;

	rc = read_object(fx, n, &doc, &replaced, &err);
	refs = owners_json_path(doc, "metadata", "ownerReferences", NULL);
	for (k = a; rc != OWNERS_ENOMEM && k < b; k++) {
		struct owners_dangling_finding *f = &items[k];
		const struct owners_ref *was = &fx->g->nodes[f->object].refs[f->ref];
		int still = 0;

		if (f->fix != OWNERS_FIX_REMOVED && f->fix != OWNERS_FIX_REPAIRED)
			continue;
		if (rc == OWNERS_ENOTFOUND) {
			set_fix(f, OWNERS_FIX_GONE, "removed, then the object was %s by someone else",
				replaced ? "replaced" : "deleted");
			continue;
		}
		if (rc) {
			set_fix(f, OWNERS_FIX_FAILED, "patched, but the object could not be read again: %s",
				owners_error_message(&err));
			continue;
		}
		/* Removed: no reference with its UID and apiVersion is left.
		 * Repaired: the reference is there, under another apiVersion. */
		for (i = 0; refs && refs->type == OWNERS_JSON_ARRAY && i < refs->count; i++)
			if (!strcmp(meta_string(refs->items[i], "uid"), OWNERS_REF_UID(fx->g, was)))
				still |= strcmp(meta_string(refs->items[i], "apiVersion"), was->type->api_version) ? 2 : 1;
		if (f->fix == OWNERS_FIX_REMOVED && still)
			set_fix(f, OWNERS_FIX_FAILED, "still on the object after the patch");
		else if (f->fix == OWNERS_FIX_REPAIRED && still != 2)
			set_fix(f, OWNERS_FIX_FAILED, "not repaired on the object after the patch");
	}
	owners_json_value_free(doc);
	owners_error_clear(&err);
	return rc == OWNERS_ENOMEM ? rc : 0;
}

int owners_dangling_fix(struct owners_dangling_report *rep, struct owners_graph *g,
			struct owners_http_client *c, const struct owners_dangling_fix_options *o,
			struct owners_dangling_fix_stats *stats, struct owners_error *err)
{
	struct fixer fx;
	size_t a, b, i;
	int rc = 0;

	memset(&fx, 0, sizeof(fx));
	fx.rep = rep;
	fx.g = g;
	fx.c = c;
	fx.o = o;
	fx.max_attempts = o->max_attempts > 0 ? o->max_attempts : DEFAULT_ATTEMPTS;
	fx.patched = calloc(rep->count + 1, 1);
	if (!fx.patched)
		return owners_error_oom(err);
	owners_owner_checks_init(&fx.checks, g->types, c);
	for (a = 0; !rc && a < rep->count; a = b) {
		for (b = a + 1; b < rep->count && rep->items[b].object == rep->items[a].object; b++)
			;
		rc = fix_object(&fx, a, b);
	}
	for (a = 0; !rc && !o->dry_run && a < rep->count; a = b) {
		for (b = a + 1; b < rep->count && rep->items[b].object == rep->items[a].object; b++)
			;
		if (fx.patched[a])
			rc = verify_object(&fx, a, b);
	}
	if (stats) {
		memset(stats, 0, sizeof(*stats));
		for (i = 0; i < rep->count; i++) {
			switch (rep->items[i].fix) {
			case OWNERS_FIX_WOULD_REMOVE:
			case OWNERS_FIX_REMOVED: stats->removed++; break;
			case OWNERS_FIX_KEPT: stats->kept++; break;
			case OWNERS_FIX_GONE: stats->gone++; break;
			case OWNERS_FIX_FAILED: stats->failed++; break;
			case OWNERS_FIX_WOULD_REPAIR:
			case OWNERS_FIX_REPAIRED: stats->repaired++; break;
			case OWNERS_FIX_WOULD_DELETE:
			case OWNERS_FIX_DELETED: stats->deleted++; break;
			case OWNERS_FIX_NONE: break;
			}
			stats->objects_patched += fx.patched[i];
		}
	}
	owners_owner_checks_clear(&fx.checks);
	free(fx.patched);
	return rc ? owners_error_oom(err) : 0;
}
