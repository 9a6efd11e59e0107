#include "graph_diff_render.h"
#include "palette.h"

#include <string.h>

#include "document_json.h"
#include "json.h"
#include "node_json.h"
#include "timeutil.h"


/* ---- text ----------------------------------------------------------------- */

static int add_age(struct owners_buf *out, const struct owners_graph_diff *d, int64_t since)
{
	return owners_time_format_age(out, d->b.now > since ? d->b.now - since : 0);
}

/* " (in the last 10m)" for what happened between the two times. */
static int add_bound(struct owners_buf *out, const struct owners_graph_diff *d,
		     const struct owners_diff_item *it)
{
	if (!it->since || it->since_exact)
		return 0;
	return owners_buf_adds(out, " (in the last ") || add_age(out, d, it->since) ||
			       owners_buf_addc(out, ')')
		       ? OWNERS_ENOMEM
		       : 0;
}

/* what, then, when the objects say when it began, e.g. ", created 5m
 * ago" (between and after around the age); else the bound. */
static int add_dated(struct owners_buf *out, const struct owners_graph_diff *d,
		     const struct owners_diff_item *it, const char *what, const char *between, const char *after)
{
	if (owners_buf_adds(out, what))
		return OWNERS_ENOMEM;
	if (!it->since_exact)
		return add_bound(out, d, it);
	return owners_buf_adds(out, between) || add_age(out, d, it->since) || owners_buf_adds(out, after)
		       ? OWNERS_ENOMEM
		       : 0;
}

static int add_holders(struct owners_buf *out, const struct owners_node *n)
{
	uint32_t k;
	int rc = 0;

	for (k = 0; !rc && k < n->extras->n_finalizers; k++)
		rc = owners_buf_addf(out, "%s%s", k ? ", " : ", held by ", n->extras->finalizers[k]);
	return rc;
}

/* What a change says about a reference, after "owner Kind/name" (or
 * "adopted by", "released by"). */
static const char *ref_change_words(enum owners_diff_change c)
{
	switch (c) {
	case OWNERS_DIFF_REFERENCE_ADDED: return " added";
	case OWNERS_DIFF_REFERENCE_REMOVED: return " removed";
	case OWNERS_DIFF_CONTROLLER_SET: return " became its controller";
	case OWNERS_DIFF_CONTROLLER_CLEARED: return " no longer its controller";
	case OWNERS_DIFF_WENT_DANGLING: return " dangling: ";
	case OWNERS_DIFF_RESOLVES_AGAIN: return " resolves again (was ";
	default: return "";
	}
}

static int describe_ref(struct owners_buf *out, const struct owners_graph_diff *d,
			const struct owners_diff_item *it, const struct owners_ref *ref)
{
	const char *who = it->change == OWNERS_DIFF_ADOPTED    ? "adopted by"
			  : it->change == OWNERS_DIFF_RELEASED ? "released by"
							       : "owner";
	int rc = owners_buf_addf(out, "%s %s/%s%s", who, ref->type->kind, ref->name, ref_change_words(it->change));

	if (!rc && it->change == OWNERS_DIFF_WENT_DANGLING)
		rc = owners_buf_adds(out, owners_ref_class_name(it->class_b));
	if (!rc && it->change == OWNERS_DIFF_RESOLVES_AGAIN)
		rc = owners_buf_addf(out, "%s)", owners_ref_class_name(it->class_a));
	/* a new reference whose owner does not resolve: said at once */
	if (!rc && (it->change == OWNERS_DIFF_ADOPTED || it->change == OWNERS_DIFF_REFERENCE_ADDED) &&
	    it->class_b != OWNERS_REF_RESOLVED)
		rc = owners_buf_addf(out, ", %s", owners_ref_class_name(it->class_b));
	return rc ? rc : add_bound(out, d, it);
}

static int describe(struct owners_buf *out, const struct owners_graph_diff *d, const struct owners_diff_item *it)
{
	const struct owners_node *n = owners_graph_diff_object(d, it, NULL);
	const struct owners_ref *ref = owners_graph_diff_ref(d, NULL, it);

	switch (it->change) {
	case OWNERS_DIFF_APPEARED: return add_dated(out, d, it, "appeared", ", created ", " ago");
	case OWNERS_DIFF_WENT: return owners_buf_adds(out, "went") || add_bound(out, d, it) ? OWNERS_ENOMEM : 0;
	case OWNERS_DIFF_DELETION_STARTED:
		return add_dated(out, d, it, "in deletion", " for ", "") || add_holders(out, n) ? OWNERS_ENOMEM : 0;
	case OWNERS_DIFF_FINALIZER_ADDED:
	case OWNERS_DIFF_FINALIZER_REMOVED:
		return owners_buf_addf(out, "finalizer %s %s", it->finalizer,
				       it->change == OWNERS_DIFF_FINALIZER_ADDED ? "added" : "removed") ||
				       add_bound(out, d, it)
			       ? OWNERS_ENOMEM
			       : 0;
	default: return ref ? describe_ref(out, d, it, ref) : 0;
	}
}

/* Whether two changes' objects share a heading: kind.group and namespace. */
static int same_group(const struct owners_graph_diff *d, const struct owners_diff_item *x,
		      const struct owners_diff_item *y, struct owners_buf *tx, struct owners_buf *ty)
{
	const struct owners_node *a = owners_graph_diff_object(d, x, NULL);
	const struct owners_node *b = owners_graph_diff_object(d, y, NULL);

	owners_buf_reset(tx);
	owners_buf_reset(ty);
	if (owners_graph_node_type(tx, a) || owners_graph_node_type(ty, b))
		return -1;
	return !strcmp(tx->ptr, ty->ptr) && !strcmp(a->place->namespace_, b->place->namespace_);
}

static int heading(struct owners_buf *out, const struct owners_node *n)
{
	int rc = owners_graph_node_type(out, n);

	if (!rc && *n->place->namespace_)
		rc = owners_buf_addf(out, " in namespace %s:\n", n->place->namespace_);
	else if (!rc)
		rc = owners_buf_adds(out, " (cluster-scoped):\n");
	return rc;
}

static int line(struct owners_buf *out, const struct owners_graph_diff_render *r,
		const struct owners_diff_item *it, int width)
{
	const struct owners_node *n = owners_graph_diff_object(r->d, it, NULL);
	const char mark = it->change == OWNERS_DIFF_APPEARED ? '+' : it->change == OWNERS_DIFF_WENT ? '-' : '~';
	const char *color = mark == '+' ? OWNERS_PALETTE_GOOD : mark == '-' ? OWNERS_PALETTE_BAD : OWNERS_PALETTE_PENDING;
	int rc = owners_buf_addf(out, "  %s%c%s %-*s  ", r->print.color ? color : "", mark,
				 r->print.color ? OWNERS_PALETTE_RESET : "", width, n->name);

	if (!rc)
		rc = describe(out, r->d, it);
	return rc ? rc : owners_buf_addc(out, '\n');
}

int owners_graph_diff_render_text(struct owners_buf *out, const struct owners_graph_diff_render *r)
{
	const struct owners_graph_diff *d = r->d;
	struct owners_buf tx = OWNERS_BUF_INIT, ty = OWNERS_BUF_INIT;
	size_t i, width = 0;
	int rc = 0;

	for (i = 0; i < d->count; i++) {
		size_t w = strlen(owners_graph_diff_object(d, &d->items[i], NULL)->name);

		width = w > width ? w : width;
	}
	for (i = 0; !rc && i < d->count; i++) {
		int same = i ? same_group(d, &d->items[i - 1], &d->items[i], &tx, &ty) : 0;

		if (same < 0)
			rc = OWNERS_ENOMEM;
		else if (!same)
			rc = heading(out, owners_graph_diff_object(d, &d->items[i], NULL));
		if (!rc)
			rc = line(out, r, &d->items[i], width > 60 ? 60 : (int)width);
	}
	owners_buf_clear(&tx);
	owners_buf_clear(&ty);
	return rc;
}

/* ---- JSON ----------------------------------------------------------------- */

static void json_side(struct owners_json_gen *j, const char *key, const char *source, int64_t t, int live)
{
	owners_json_gen_string(j, key);
	owners_json_gen_map_open(j);
	owners_json_gen_kv(j, "source", source ? source : "");
	owners_json_gen_kv_time(j, "time", t);
	owners_json_gen_kv_bool(j, "live", live);
	owners_json_gen_map_close(j);
}

static void json_change(struct owners_json_gen *j, const struct owners_graph_diff *d,
			const struct owners_diff_item *it)
{
	const struct owners_graph *rg = NULL;
	const struct owners_ref *ref = owners_graph_diff_ref(d, &rg, it);

	owners_json_gen_map_open(j);
	owners_json_gen_kv(j, "change", owners_diff_change_name(it->change));
	owners_json_gen_kv_time(j, "since", it->since);
	owners_json_gen_kv_bool(j, "sinceExact", it->since_exact);
	if (it->since)
		owners_json_gen_kv_int(j, "ageSeconds", d->b.now > it->since ? d->b.now - it->since : 0);
	if (it->finalizer)
		owners_json_gen_kv(j, "finalizer", it->finalizer);
	if (ref) {
		owners_json_gen_string(j, "owner");
		owners_json_gen_map_open(j);
		owners_ref_json_fields(j, rg, ref);
		owners_json_gen_map_close(j);
	}
	if (ref && it->ref_a != OWNERS_DIFF_NO_INDEX)
		owners_json_gen_kv(j, "before", owners_ref_class_name(it->class_a));
	if (ref && it->ref_b != OWNERS_DIFF_NO_INDEX)
		owners_json_gen_kv(j, "after", owners_ref_class_name(it->class_b));
	owners_json_gen_map_close(j);
}

/* The item of the object of changes [i, end), those changes under owners. */
static size_t json_item(struct owners_json_gen *j, const struct owners_graph_diff *d, size_t i)
{
	const struct owners_graph *g = NULL;
	const struct owners_node *n = owners_graph_diff_object(d, &d->items[i], &g);

	owners_json_gen_map_open(j);
	owners_document_object(j, g, n);
	owners_document_facts(j);
	owners_json_gen_string(j, "changes");
	owners_json_gen_array_open(j);
	do
		json_change(j, d, &d->items[i++]);
	while (i < d->count && owners_graph_diff_object(d, &d->items[i], NULL) == n);
	owners_json_gen_array_close(j);
	owners_json_gen_map_close(j);
	owners_json_gen_map_close(j);
	return i;
}

/* "notCompared": per kind, the objects one side could not have seen
 * (only when there are any: a document without them reads as before). */
static void json_not_compared(struct owners_json_gen *j, const struct owners_graph_diff *d)
{
	size_t i;

	if (!d->n_unseen)
		return;
	owners_json_gen_string(j, "notCompared");
	owners_json_gen_array_open(j);
	for (i = 0; i < d->n_unseen; i++) {
		const struct owners_diff_unseen *u = &d->unseen[i];
		const char *slash = strchr(u->api_version, '/');

		owners_json_gen_map_open(j);
		owners_json_gen_kv(j, "kind", u->kind);
		owners_json_gen_string(j, "group");
		owners_json_gen_stringn(j, u->api_version, slash ? (size_t)(slash - u->api_version) : 0);
		owners_json_gen_kv_int(j, "notSeenBefore", (long long)u->in_a);
		owners_json_gen_kv_int(j, "notSeenAfter", (long long)u->in_b);
		owners_json_gen_map_close(j);
	}
	owners_json_gen_array_close(j);
}

int owners_graph_diff_render_json(struct owners_buf *out, const struct owners_graph_diff_render *r)
{
	const struct owners_graph_diff *d = r->d;
	struct owners_json_gen *j;
	size_t i = 0;
	int rc;

	if (owners_json_gen_new(&j, out, 1))
		return OWNERS_ENOMEM;
	owners_document_open(j, "OwnersDiff");
	json_side(j, "before", r->source_a, d->a.now, 0);
	json_side(j, "after", r->source_b, d->b.now, r->b_live);
	owners_json_gen_kv_int(j, "notSeenBefore", (long long)d->unseen_in_a);
	owners_json_gen_kv_int(j, "notSeenAfter", (long long)d->unseen_in_b);
	json_not_compared(j, d);
	owners_document_items(j);
	while (i < d->count && !owners_json_gen_error(j))
		i = json_item(j, d, i);
	owners_document_close(j, r->print.warnings, r->print.n_warnings);
	rc = owners_json_gen_error(j);
	owners_json_gen_free(j);
	if (!rc && out->len && out->ptr[out->len - 1] != '\n')
		rc = owners_buf_addc(out, '\n');
	return rc;
}
