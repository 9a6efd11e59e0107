#include "snapshot_lists.h"

#include <stdlib.h>
#include <string.h>

#include "api_path.h"
#include "buf.h"
#include "strset.h"

/* One scan over the snapshot. */
struct scan {
	struct owners_snapshot_lists *src;
	struct owners_graph *g;
	const struct owners_resource_table *types;  /* the session's */
	const struct owners_resource_table *file;   /* the snapshot's own */
	const struct owners_scan_options *o;
	struct owners_scan_report *report;
	unsigned char *selected;  /* per type: 1 selected, 2 its list seen; | 4: objects of it seen */
	struct owners_error *err;
	/* The snapshot holds only objects with these labels (snapshot -l):
	 * its lists are whole only for a scan with the same selector. */
	char *taken_with;
	/* A scan of every namespace reading lists of one namespace each (a
	 * must-gather, a bundle, an -n snapshot): per type, the namespaces
	 * whose list it holds, each whole there; and every namespace any list
	 * is of (what "held for N of M namespaces" counts). */
	uint32_t *namespaces_held;
	struct owners_strset namespaces;
};

/* The session's type for the snapshot's: both tables come from the same
 * discovery, in the same order. */
static const struct owners_resource *session_type(const struct scan *s, const struct owners_resource *r)
{
	size_t i = (size_t)(r - s->file->items);

	return i < s->types->count ? &s->types->items[i] : NULL;
}

static const char *scope_of(const struct scan *s, const struct owners_resource *r)
{
	return r->namespaced ? s->o->namespace_ : NULL;
}

static int on_header(void *ctx, const struct owners_snapshot_header *h)
{
	struct scan *s = ctx;

	if (h->label_selector && !(s->taken_with = strdup(h->label_selector)))
		return owners_error_oom(s->err);
	return 0;
}

static int on_types(void *ctx, const struct owners_resource_table *t)
{
	struct scan *s = ctx;
	size_t i;

	if (t->count != s->types->count)
		return owners_error_set(s->err, OWNERS_EPROTO, "%s: changed while it was read",
					s->src->shown);
	s->file = t;
	for (i = 0; i < t->count; i++)
		s->selected[i] = owners_scan_selects(s->o, &s->types->items[i]) ? 1 : 0;
	return 0;
}

/* What owners_graph_add() will look up for an object of a selected
 * type, asked for ahead (its namespace is not known here: with one
 * namespace wanted, nothing is). */
static void on_ahead(void *ctx, const struct owners_resource *type, const char *uid)
{
	struct scan *s = ctx;
	const struct owners_resource *r;

	if (!s->g || s->o->on_object) /* objects handed on, not added */
		return;
	if (!uid) {
		owners_graph_prefetch_begin(s->g);
		return;
	}
	r = session_type(s, type);
	if (r && s->selected[r - s->types->items] && !scope_of(s, r))
		owners_graph_prefetch_uid(s->g, uid);
}

static int on_object(void *ctx, const struct owners_resource *type, const struct owners_object_meta *m)
{
	struct scan *s = ctx;
	const struct owners_resource *r = session_type(s, type);
	const char *ns;
	struct owners_object_meta copy;
	int rc;

	if (!r || !s->selected[r - s->types->items])
		return 0;
	ns = scope_of(s, r);
	if (ns && strcmp(ns, m->namespace_))
		return 0;
	if (s->o->label_selector) {
		rc = s->src->labels_match(s->src->labels_ctx, s->o->label_selector, m);
		if (rc < 0)
			return rc == OWNERS_ENOMEM ? owners_error_oom(s->err)
						   : owners_error_set(s->err, rc, "invalid label selector '%s'",
								      s->o->label_selector);
		if (!rc)
			return 0;
	}
	s->selected[r - s->types->items] |= 4; /* some of its objects are here */
	copy = *m;
	if (!s->o->keep_labels) {
		copy.labels = NULL;
		copy.n_labels = 0;
	}
	if (s->o->tap && (rc = s->o->tap(s->o->tap_ctx, r, &copy)))
		return rc == OWNERS_ENOMEM ? owners_error_oom(s->err) : OWNERS_ESTOP;
	if (s->o->on_object) {
		if ((rc = s->o->on_object(s->o->on_object_ctx, r, &copy)))
			return rc == OWNERS_ENOMEM ? owners_error_oom(s->err) : OWNERS_ESTOP;
	} else if (owners_graph_add(s->g, r, &copy)) {
		return owners_error_oom(s->err);
	}
	s->report->objects++;
	return 0;
}

static int not_held(struct scan *s, const struct owners_resource *r);

/* Whether a list the snapshot holds covers what this scan asks of r. */
static int covers(const struct scan *s, const struct owners_resource *r, const char *listed_ns)
{
	const char *want = scope_of(s, r);

	return !listed_ns || (want && !strcmp(want, listed_ns));
}

/* A list of one namespace read by a scan of every namespace: whole for
 * that namespace, so that -A answers there as -n does; the type is named
 * at the end as held for so many namespaces. */
static int held_in_namespace(struct scan *s, const struct owners_resource *r, const struct owners_snapshot_listed *l)
{
	if (scope_of(s, r) || !l->namespace_ || !r->namespaced)
		return 0;
	if (!owners_strset_add(&s->namespaces, l->namespace_, NULL))
		return owners_error_oom(s->err);
	if (l->code || (s->taken_with && (!s->o->label_selector || strcmp(s->o->label_selector, s->taken_with))))
		return 0;
	s->namespaces_held[r - s->types->items]++;
	if (!s->o->on_object && owners_graph_note_listing(s->g, r, l->namespace_, 0, NULL))
		return owners_error_oom(s->err);
	return 0;
}

static int on_listed(void *ctx, const struct owners_snapshot_listed *l)
{
	struct scan *s = ctx;
	const struct owners_resource *r = session_type(s, l->type);
	size_t i;
	int rc;

	if (!r || (s->selected[i = (size_t)(r - s->types->items)] & 3) != 1)
		return 0;
	if (!covers(s, r, l->namespace_))
		return held_in_namespace(s, r, l);
	s->selected[i] = (unsigned char)((s->selected[i] & 4) | 2);
	if (l->unanswered &&
	    owners_scan_report_wait(s->report, &(const struct owners_scan_wait){ r, (char *)scope_of(s, r), l->unanswered,
										 l->waited_ms, l->took_ms }))
		return owners_error_oom(s->err);
	if (s->taken_with && (!s->o->label_selector || strcmp(s->o->label_selector, s->taken_with))) {
		/* a part of the list: its objects are there, the rest unknown */
		s->report->types_listed++;
		return not_held(s, r) ? owners_error_oom(s->err) : 0;
	}
	if (l->code)
		return owners_scan_report_failure(s->report, s->o->on_object ? NULL : s->g,
						  &(const struct owners_scan_failed){ r, scope_of(s, r), l->code,
										      l->message, l->detail })
			       ? owners_error_oom(s->err)
			       : 0;
	s->report->types_listed++;
	if (!s->o->on_object && owners_graph_note_listing(s->g, r, scope_of(s, r), 0, NULL))
		return owners_error_oom(s->err);
	if (s->o->on_listed &&
	    (rc = s->o->on_listed(s->o->on_listed_ctx, r, scope_of(s, r), l->resource_version)))
		return owners_error_set(s->err, rc, "stopped");
	return 0;
}

static int on_fact(void *ctx, const struct owners_snapshot_fact *f)
{
	struct scan *s = ctx;

	return s->src->on_fact ? s->src->on_fact(s->src->on_fact_ctx, f) : 0;
}

/* A type the scan wanted that the snapshot does not hold (whole, in this
 * scope): not seen, as a list the server refused. */
static int not_held(struct scan *s, const struct owners_resource *r)
{
	struct owners_buf msg = OWNERS_BUF_INIT, type = OWNERS_BUF_INIT;
	const char *ns = scope_of(s, r);
	int rc = owners_api_type_name(&type, r);

	uint32_t held = s->namespaces_held[r - s->types->items];

	if (!rc && held) /* lists of some namespaces: whole there, and said */
		rc = owners_buf_addf(&msg, "cannot list '%s' in every namespace: the snapshot%s%s holds it for %u of "
				     "%zu namespaces", type.ptr, s->src->scope ? " " : "",
				     s->src->scope ? s->src->scope : "", (unsigned)held, s->namespaces.count);
	else if (!rc)
		rc = owners_buf_addf(&msg, "cannot list '%s'%s%s%s: not in the snapshot%s%s%s%s%s", type.ptr,
				     ns ? " in namespace '" : "", ns ? ns : "", ns ? "'" : "",
				     s->src->scope ? " " : "", s->src->scope ? s->src->scope : "",
				     s->taken_with ? " (it holds only objects with labels '" : "",
				     s->taken_with ? s->taken_with : "", s->taken_with ? "')" : "");
	if (!rc)
		rc = owners_scan_report_failure(s->report, s->o->on_object ? NULL : s->g,
						&(const struct owners_scan_failed){ r, ns, OWNERS_ENOTFOUND, msg.ptr,
										    NULL });
	owners_buf_clear(&msg);
	owners_buf_clear(&type);
	return rc;
}

static void on_progress(void *ctx, unsigned percent, uint64_t size)
{
	struct scan *s = ctx;

	s->src->progress(s->src->progress_ctx, percent, size);
}

static int list_snapshot(void *ctx, struct owners_graph *g, const struct owners_resource_table *types,
			 const struct owners_scan_options *o, struct owners_scan_report *report,
			 struct owners_error *err)
{
	struct scan s = { ctx, g, types, NULL, o, report, NULL, err, NULL, NULL, { NULL, 0, 0 } };
	struct owners_snapshot_visitor v = { on_header, on_types,
					     on_object, on_listed,
					     on_fact,   NULL,
					     &s,        s.src->progress ? on_progress : NULL,
					     on_ahead };
	size_t i;
	int rc;

	memset(report, 0, sizeof(*report));
	if (o->label_selector && !s.src->labels_match)
		return owners_error_set(err, OWNERS_EINVAL, "a label selector cannot be read from a snapshot");
	owners_strset_init(&s.namespaces);
	s.selected = calloc(types->count ? types->count : 1, 1);
	s.namespaces_held = calloc(types->count ? types->count : 1, sizeof(*s.namespaces_held));
	if (!s.selected || !s.namespaces_held) {
		free(s.selected);
		free(s.namespaces_held);
		return owners_error_oom(err);
	}
	rc = owners_snapshot_reader_read(s.src->reader, &v, s.src->counts, err);
	for (i = 0; !rc && i < types->count; i++) {
		if ((s.selected[i] & 3) != 1)
			continue;
		/* objects of it, but no list held whole (a dump of single
		 * objects): a view, with what it lacks unknown */
		if (s.selected[i] & 4)
			report->types_listed++;
		if (not_held(&s, &types->items[i]))
			rc = owners_error_oom(err);
	}
	if (!rc && !o->on_object)
		rc = owners_graph_link(g);
	free(s.selected);
	free(s.namespaces_held);
	owners_strset_clear(&s.namespaces);
	free(s.taken_with);
	return rc;
}

void owners_snapshot_lists_source(struct owners_list_source *out, struct owners_snapshot_lists *src)
{
	out->list = list_snapshot;
	out->ctx = src;
}
