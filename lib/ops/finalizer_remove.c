#include "finalizer_remove.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "api_path.h"
#include "finalizer_patch.h"
#include "grow.h"
#include "json.h"
#include "object_io.h"

#define DEFAULT_ATTEMPTS 5

const char *owners_finalizer_remove_result_name(enum owners_finalizer_remove_result r)
{
	switch (r) {
	case OWNERS_FINALIZER_REMOVE_GONE: return "gone";
	case OWNERS_FINALIZER_REMOVE_FREED: return "freed";
	case OWNERS_FINALIZER_REMOVE_DRY_RUN: return "dry-run";
	case OWNERS_FINALIZER_REMOVE_NOTHING: return "nothing";
	case OWNERS_FINALIZER_REMOVE_NOT_FOUND: return "not-found";
	case OWNERS_FINALIZER_REMOVE_REFUSED: return "refused";
	case OWNERS_FINALIZER_REMOVE_FAILED: return "failed";
	case OWNERS_FINALIZER_REMOVE_LEFT: return "left";
	}
	return "failed";
}

static void names_free(struct owners_finalizer_remove_finalizer *a, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(a[i].name);
	free(a);
}

void owners_finalizer_remove_outcome_clear(struct owners_finalizer_remove_outcome *out)
{
	if (!out)
		return;
	free(out->message);
	free(out->uid);
	names_free(out->removed, out->n_removed);
	names_free(out->left, out->n_left);
	memset(out, 0, sizeof(*out));
}

/* ---- the object as read ---------------------------------------------------- */

struct object {
	struct owners_json_value *doc;
	const char *uid;
	const char *rv;
	int deleting;
	const struct owners_json_value *meta_fins;  /* array or NULL */
	const struct owners_json_value *spec_fins;  /* a Namespace's; array or NULL */
};

struct run {
	struct owners_finalizer_remove_outcome *out;
	struct owners_http_client *c;
	const struct owners_finalizer_remove_target *t;
	const struct owners_finalizer_remove_options *o;
	int is_namespace;
	int max_attempts;
	int hooked;
	struct owners_buf subject;    /* "pods 'x' in namespace 'default'" */
	struct object obj;
	struct owners_error err;
};

static void object_clear(struct object *ob)
{
	owners_json_value_free(ob->doc);
	memset(ob, 0, sizeof(*ob));
}

static const struct owners_json_value *string_array(const struct owners_json_value *v)
{
	return v && v->type == OWNERS_JSON_ARRAY ? v : NULL;
}

/* GET the object: metadata only, or a Namespace in full. 0, OWNERS_ENOTFOUND
 * (also when the name now belongs to another object than the one first
 * read), or another error with x->err set. */
static int read_object(struct run *x)
{
	const struct owners_object_get_request q = {
		.key = { x->t->resource, x->t->namespace_, x->t->name },
		.full = x->is_namespace,
	};
	const struct owners_json_value *meta;
	int rc;

	object_clear(&x->obj);
	owners_error_clear(&x->err);
	rc = owners_object_get(&x->obj.doc, x->c, &q, &x->err);
	if (rc)
		return rc;
	meta = owners_json_get(x->obj.doc, "metadata");
	x->obj.uid = owners_json_string(owners_json_get(meta, "uid"));
	x->obj.rv = owners_json_string(owners_json_get(meta, "resourceVersion"));
	x->obj.deleting = owners_json_string(owners_json_get(meta, "deletionTimestamp")) != NULL;
	x->obj.meta_fins = string_array(owners_json_get(meta, "finalizers"));
	if (x->is_namespace)
		x->obj.spec_fins = string_array(owners_json_path(x->obj.doc, "spec", "finalizers", NULL));
	if (!x->obj.uid)
		x->obj.uid = "";
	if (x->out->uid && strcmp(x->out->uid, x->obj.uid)) {
		object_clear(&x->obj);
		return OWNERS_ENOTFOUND; /* replaced: not the object we were asked about */
	}
	return 0;
}

static int asked(const struct run *x, const char *name)
{
	size_t i;

	if (x->o->all)
		return 1;
	for (i = 0; i < x->o->n_finalizers; i++)
		if (!strcmp(x->o->finalizers[i], name))
			return 1;
	return 0;
}

static int has(const struct owners_json_value *fins, const char *name)
{
	size_t i;

	for (i = 0; fins && i < fins->count; i++) {
		const char *f = owners_json_string(fins->items[i]);

		if (f && !strcmp(f, name))
			return 1;
	}
	return 0;
}

/* How many of the list's finalizers are asked for. */
static size_t count_asked(const struct run *x, const struct owners_json_value *fins)
{
	size_t i, n = 0;

	for (i = 0; fins && i < fins->count; i++) {
		const char *f = owners_json_string(fins->items[i]);

		n += f && asked(x, f);
	}
	return n;
}

/* ---- the outcome -------------------------------------------------------------- */

static int set_result(struct run *x, enum owners_finalizer_remove_result r, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int set_result(struct run *x, enum owners_finalizer_remove_result r, const char *fmt, ...)
{
	struct owners_buf b = OWNERS_BUF_INIT;
	va_list ap;
	int rc = 0;

	x->out->result = r;
	free(x->out->message);
	x->out->message = NULL;
	if (!fmt)
		return 0;
	va_start(ap, fmt);
	rc = owners_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	if (!rc && !(x->out->message = owners_buf_detach(&b)))
		rc = OWNERS_ENOMEM;
	owners_buf_clear(&b);
	return rc;
}

static int add_name(struct owners_finalizer_remove_finalizer **a, size_t *n, size_t *cap,
		    const char *name, int spec)
{
	if (OWNERS_GROW(*a, *cap, *n + 1))
		return OWNERS_ENOMEM;
	(*a)[*n].spec = spec;
	if (!((*a)[*n].name = owners_strdup(name)))
		return OWNERS_ENOMEM;
	(*n)++;
	return 0;
}

/* Records the finalizers of fins that are asked for in x->out->removed
 * (removed set), or those that are not in x->out->left. */
static int record(struct run *x, const struct owners_json_value *fins, int spec, int removed)
{
	struct owners_finalizer_remove_outcome *out = x->out;
	size_t i;
	int rc = 0;

	for (i = 0; !rc && fins && i < fins->count; i++) {
		const char *f = owners_json_string(fins->items[i]);

		if (f && asked(x, f) == removed)
			rc = removed ? add_name(&out->removed, &out->n_removed, &out->cap_removed, f, spec)
				     : add_name(&out->left, &out->n_left, &out->cap_left, f, spec);
	}
	return rc;
}

/* "a, b" or "none" */
static int list_names(struct owners_buf *b, const struct owners_json_value *a,
		      const struct owners_json_value *spec)
{
	size_t i, n = 0;
	int rc = 0;

	for (i = 0; !rc && a && i < a->count; i++)
		if (owners_json_string(a->items[i]))
			rc = owners_buf_addf(b, "%s%s", n++ ? ", " : "", owners_json_string(a->items[i]));
	for (i = 0; !rc && spec && i < spec->count; i++)
		if (owners_json_string(spec->items[i]))
			rc = owners_buf_addf(b, "%s%s (spec)", n++ ? ", " : "",
					     owners_json_string(spec->items[i]));
	if (!rc && !n)
		rc = owners_buf_adds(b, "none");
	return rc;
}

/* ---- writes ----------------------------------------------------------------- */

/* Sends one write; returns 0, or the error code with x->err set
 * (OWNERS_ECONFLICT for 409, OWNERS_ENOTFOUND for 404). */
static int write_object(struct run *x, const char *method, const char *subresource, const char *type,
		const struct owners_buf *body)
{
	const struct owners_object_write_request w = {
		.method = method,
		.content_type = type,
		.key = { x->t->resource, x->t->namespace_, x->t->name },
		.subresource = subresource,
		.body = body,
		.dry_run = x->o->dry_run,
	};

	owners_error_clear(&x->err);
	x->out->writes++;
	return owners_object_write(NULL, x->c, &w, &x->err);
}

static void hook(struct run *x)
{
	if (!x->hooked && x->o->before_write)
		x->o->before_write(x->o->ctx, x->t);
	x->hooked = 1;
}

/* `orphan` on an object in deletion may go only once its dependents were
 * released (see owners_finalizer_remove_target). */
static int orphan_may_go(const struct run *x)
{
	if (!x->obj.deleting || !asked(x, "orphan") || !has(x->obj.meta_fins, "orphan"))
		return 1;
	return !x->t->orphan_blocked && *x->t->orphan_released_uid &&
	       !strcmp(x->t->orphan_released_uid, x->obj.uid);
}

static int refuse_orphan(struct run *x)
{
	int rc = set_result(x, OWNERS_FINALIZER_REMOVE_REFUSED,
			    "%s keeps its 'orphan' finalizer (without it the garbage collector "
			    "would delete the dependents it was asked to keep): %s",
			    x->subject.ptr,
			    x->t->orphan_blocked ? x->t->orphan_blocked
						 : "its dependents were not released first (it entered "
						   "deletion after they were looked up: run again); "
						   "nothing was changed");
	return rc ? rc : 1;
}

/* One step (metadata.finalizers, or spec.finalizers through finalize):
 * write, and on a conflict read again and write again. 0 when the step is
 * done (the finalizers asked for are off, or nothing is left to do), 1 when
 * the outcome is settled (gone, failed), or OWNERS_ENOMEM. */
static int step(struct run *x, int spec)
{
	struct owners_buf body = OWNERS_BUF_INIT;
	const char **keep = NULL;
	unsigned char *flags = NULL;
	int attempt, rc = 0;

	for (attempt = 1;; attempt++) {
		const struct owners_json_value *fins = spec ? x->obj.spec_fins : x->obj.meta_fins;
		size_t i, n_keep = 0, n = fins ? fins->count : 0;

		if (!count_asked(x, fins))
			break; /* none of them (any more): done */
		if (!spec && !orphan_may_go(x)) {
			/* It entered deletion with `orphan` since it was first read. */
			rc = refuse_orphan(x);
			break;
		}
		free(keep);
		free(flags);
		keep = calloc(n + 1, sizeof(*keep));
		flags = calloc(n + 1, 1);
		if (!keep || !flags) {
			rc = OWNERS_ENOMEM;
			break;
		}
		for (i = 0; i < n; i++) {
			const char *f = owners_json_string(fins->items[i]);

			/* Anything that is not a name asked for stays, as read. */
			flags[i] = !f || !asked(x, f);
			if (f && flags[i])
				keep[n_keep++] = f;
		}
		owners_buf_reset(&body);
		if (spec)
			rc = owners_namespace_finalize_body(&body, x->obj.doc, flags, &x->err);
		else
			rc = owners_finalizer_patch(&body, x->obj.rv, keep, n_keep, &x->err);
		if (rc == OWNERS_ENOMEM)
			break;
		if (rc) {
			rc = set_result(x, OWNERS_FINALIZER_REMOVE_FAILED, "%s", owners_error_message(&x->err));
			rc = rc ? rc : 1;
			break;
		}
		hook(x);
		if (spec)
			rc = write_object(x, "PUT", "finalize", "application/json", &body);
		else
			rc = write_object(x, "PATCH", NULL, OWNERS_FINALIZER_PATCH_TYPE, &body);
		if (!rc) {
			rc = record(x, fins, spec, 1);
			break;
		}
		if (rc == OWNERS_ENOTFOUND) {
			rc = set_result(x, OWNERS_FINALIZER_REMOVE_GONE, "deleted by someone else meanwhile");
			rc = rc ? rc : 1;
			break;
		}
		if (rc != OWNERS_ECONFLICT) {
			rc = set_result(x, OWNERS_FINALIZER_REMOVE_FAILED, "cannot %s %s: %s",
					spec ? "finalize" : "patch", x->subject.ptr,
					owners_error_message(&x->err));
			rc = rc ? rc : 1;
			break;
		}
		if (attempt >= x->max_attempts) {
			rc = set_result(x, OWNERS_FINALIZER_REMOVE_FAILED,
					"cannot %s %s: it kept changing (%d conflicting updates)",
					spec ? "finalize" : "patch", x->subject.ptr, attempt);
			rc = rc ? rc : 1;
			break;
		}
		/* Changed since it was read: read it again, decide again. */
		rc = read_object(x);
		if (rc == OWNERS_ENOTFOUND) {
			rc = set_result(x, OWNERS_FINALIZER_REMOVE_GONE, "deleted by someone else meanwhile");
			rc = rc ? rc : 1;
			break;
		}
		if (rc == OWNERS_ENOMEM)
			break;
		if (rc) {
			rc = set_result(x, OWNERS_FINALIZER_REMOVE_FAILED, "cannot read %s again: %s",
					x->subject.ptr, owners_error_message(&x->err));
			rc = rc ? rc : 1;
			break;
		}
	}
	free(keep);
	free(flags);
	owners_buf_clear(&body);
	return rc;
}

/* ---- deciding ---------------------------------------------------------------- */

static int uid_asked(const struct run *x)
{
	size_t i;

	for (i = 0; i < x->t->n_uids; i++)
		if (!strcmp(x->t->uids[i], x->obj.uid))
			return 1;
	return 0;
}

/* --uid: what the printed command was to finish is done already (the
 * object gone, or another one under its name): 1, said in the outcome;
 * 0 to go on. */
static int already_done(struct run *x, int read)
{
	int rc;

	if (!x->t->n_uids)
		return 0;
	if (read == OWNERS_ENOTFOUND)
		rc = set_result(x, OWNERS_FINALIZER_REMOVE_GONE, "already done: %s is gone: someone else "
				"finished it", x->subject.ptr);
	else if (!read && !uid_asked(x))
		rc = set_result(x, OWNERS_FINALIZER_REMOVE_NOTHING, "already done: the object this command "
				"was for is gone; %s is another one (UID %s, not one of --uid): left alone",
				x->subject.ptr, x->obj.uid);
	else
		return 0;
	return rc ? rc : 1;
}

/* Step 1: 0 to go on, 1 when the outcome is settled, or OWNERS_ENOMEM. */
static int decide(struct run *x)
{
	struct owners_buf missing = OWNERS_BUF_INIT, has_list = OWNERS_BUF_INIT;
	size_t i, n_missing = 0;
	int rc = read_object(x), one = x->t->content_objects == 1, done = already_done(x, rc);

	if (done)
		return done;
	if (rc == OWNERS_ENOTFOUND) {
		rc = set_result(x, OWNERS_FINALIZER_REMOVE_NOT_FOUND, "%s not found", x->subject.ptr);
		return rc ? rc : 1;
	}
	if (rc == OWNERS_ENOMEM)
		return rc;
	if (rc) {
		rc = set_result(x, OWNERS_FINALIZER_REMOVE_FAILED, "cannot read %s: %s", x->subject.ptr,
				owners_error_message(&x->err));
		return rc ? rc : 1;
	}
	if (!(x->out->uid = owners_strdup(x->obj.uid)))
		return OWNERS_ENOMEM;
	x->out->deleting = x->obj.deleting;
	/* --uid: one it no longer has was removed by someone else */
	for (i = 0; !x->o->all && !x->t->n_uids && i < x->o->n_finalizers; i++) {
		const char *f = x->o->finalizers[i];

		if (!has(x->obj.meta_fins, f) && !has(x->obj.spec_fins, f) &&
		    owners_buf_addf(&missing, "%s'%s'", n_missing++ ? ", " : "", f))
			rc = OWNERS_ENOMEM;
	}
	if (!rc && n_missing) {
		rc = list_names(&has_list, x->obj.meta_fins, x->obj.spec_fins);
		if (!rc)
			rc = set_result(x, OWNERS_FINALIZER_REMOVE_REFUSED,
					"%s has no finalizer %s (it has: %s); nothing was changed",
					x->subject.ptr, missing.ptr, has_list.ptr);
		rc = rc ? rc : 1;
	} else if (!rc && !x->obj.deleting && !x->o->force) {
		rc = set_result(x, OWNERS_FINALIZER_REMOVE_REFUSED,
				"%s is not being deleted: taking finalizers off a live object disables "
				"what they protect (use --force to do it anyway)",
				x->subject.ptr);
		rc = rc ? rc : 1;
	} else if (!rc && !count_asked(x, x->obj.meta_fins) && !count_asked(x, x->obj.spec_fins)) {
		rc = x->t->n_uids ? set_result(x, OWNERS_FINALIZER_REMOVE_NOTHING, "already done: %s no "
					       "longer has the finalizers asked for: someone else "
					       "removed them", x->subject.ptr)
				  : set_result(x, OWNERS_FINALIZER_REMOVE_NOTHING, "it has no finalizers");
		rc = rc ? rc : 1;
	} else if (!rc && !orphan_may_go(x)) {
		rc = refuse_orphan(x);
	} else if (!rc && x->is_namespace && asked(x, "kubernetes") &&
		   has(x->obj.spec_fins, "kubernetes") && x->t->content_objects > 0 && !x->o->force) {
		rc = set_result(x, OWNERS_FINALIZER_REMOVE_REFUSED,
				"%s still has %ld object%s in it (%s): without its 'kubernetes' "
				"finalizer the namespace goes at once and leaves %s in storage, where "
				"%s back if a namespace of that name is created again; free %s "
				"first ('%s finalizers -n %s' says what holds %s) or use --force",
				x->subject.ptr, x->t->content_objects, one ? "" : "s",
				x->t->content_summary ? x->t->content_summary : "unknown types",
				one ? "it" : "them", one ? "it comes" : "they come", one ? "it" : "them",
				x->o->program ? x->o->program : OWNERS_PROGRAM, x->t->name, one ? "it" : "them");
		rc = rc ? rc : 1;
	} else if (!rc && x->is_namespace && asked(x, "kubernetes") &&
		   has(x->obj.spec_fins, "kubernetes") && x->t->content_error && !x->o->force) {
		rc = set_result(x, OWNERS_FINALIZER_REMOVE_REFUSED,
				"cannot tell whether %s is empty (%s): without its 'kubernetes' "
				"finalizer the namespace goes at once and would leave its content in "
				"storage; use --force to finalize it anyway",
				x->subject.ptr, x->t->content_error);
		rc = rc ? rc : 1;
	}
	owners_buf_clear(&missing);
	owners_buf_clear(&has_list);
	return rc;
}

/* Step 4: the end state, as the server has it now. */
static int verify(struct run *x)
{
	struct owners_buf back = OWNERS_BUF_INIT;
	size_t i;
	int rc = read_object(x);

	if (rc == OWNERS_ENOTFOUND) {
		x->out->deleting = 0;
		return set_result(x, OWNERS_FINALIZER_REMOVE_GONE, NULL);
	}
	if (rc == OWNERS_ENOMEM)
		return rc;
	if (rc)
		return set_result(x, OWNERS_FINALIZER_REMOVE_FAILED,
				  "changed, but cannot read %s again to check: %s", x->subject.ptr,
				  owners_error_message(&x->err));
	x->out->deleting = x->obj.deleting;
	rc = record(x, x->obj.meta_fins, 0, 0);
	if (!rc)
		rc = record(x, x->obj.spec_fins, 1, 0);
	for (i = 0; !rc && i < x->out->n_removed; i++) {
		const struct owners_finalizer_remove_finalizer *f = &x->out->removed[i];

		if (has(f->spec ? x->obj.spec_fins : x->obj.meta_fins, f->name)) {
			rc = owners_buf_addf(&back, "%s'%s'", back.len ? ", " : "", f->name);
			if (!rc)
				rc = add_name(&x->out->left, &x->out->n_left, &x->out->cap_left,
					      f->name, f->spec);
		}
	}
	if (!rc && back.len)
		rc = set_result(x, OWNERS_FINALIZER_REMOVE_LEFT,
				"%s is back on %s: something re-added it (its controller?)", back.ptr,
				x->subject.ptr);
	else if (!rc)
		rc = set_result(x, OWNERS_FINALIZER_REMOVE_FREED, NULL);
	owners_buf_clear(&back);
	return rc;
}

int owners_finalizer_remove(struct owners_finalizer_remove_outcome *out, struct owners_http_client *c,
		      const struct owners_finalizer_remove_target *t, const struct owners_finalizer_remove_options *o,
		      struct owners_error *err)
{
	struct run x;
	const struct owners_resource *r = t->resource;
	int rc;

	memset(out, 0, sizeof(*out));
	memset(&x, 0, sizeof(x));
	x.out = out;
	x.c = c;
	x.t = t;
	x.o = o;
	x.is_namespace = !*r->group && !strcmp(r->resource, "namespaces");
	x.max_attempts = o->max_attempts > 0 ? o->max_attempts : DEFAULT_ATTEMPTS;
	rc = owners_api_type_name(&x.subject, r);
	if (!rc)
		rc = owners_buf_addf(&x.subject, " '%s'", t->name);
	if (!rc && r->namespaced && t->namespace_ && *t->namespace_)
		rc = owners_buf_addf(&x.subject, " in namespace '%s'", t->namespace_);
	if (!rc)
		rc = decide(&x);
	if (!rc)
		rc = step(&x, 0);
	if (!rc && x.is_namespace && count_asked(&x, x.obj.spec_fins)) {
		/* The metadata patch changed the resourceVersion: finalize what
		 * the server holds now. A dry run changed nothing. */
		if (x.out->n_removed && !o->dry_run) {
			rc = read_object(&x);
			if (rc == OWNERS_ENOTFOUND)
				rc = set_result(&x, OWNERS_FINALIZER_REMOVE_GONE, NULL) ? OWNERS_ENOMEM : 1;
			else if (rc && rc != OWNERS_ENOMEM)
				rc = set_result(&x, OWNERS_FINALIZER_REMOVE_FAILED, "cannot read %s again: %s",
						x.subject.ptr, owners_error_message(&x.err))
					     ? OWNERS_ENOMEM
					     : 1;
		}
		if (!rc)
			rc = step(&x, 1);
	}
	if (!rc && o->dry_run) {
		rc = record(&x, x.obj.meta_fins, 0, 0);
		if (!rc)
			rc = record(&x, x.obj.spec_fins, 1, 0);
		if (!rc)
			rc = set_result(&x, OWNERS_FINALIZER_REMOVE_DRY_RUN, NULL);
	} else if (!rc) {
		rc = verify(&x);
	}
	object_clear(&x.obj);
	owners_error_clear(&x.err);
	owners_buf_clear(&x.subject);
	if (rc == OWNERS_ENOMEM)
		return owners_error_oom(err);
	return 0;
}
