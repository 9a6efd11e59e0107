#include "uses_record.h"

#include <string.h>

#include "object_uses.h"
#include "pod_uses.h"

int owners_uses_record_kind(const char *group, const char *kind)
{
	return owners_pod_uses_spec_path(group, kind) || owners_object_uses_kind(group, kind) ||
	       owners_pod_selector_kind(group, kind);
}

static void gen_use(struct owners_json_gen *j, const struct owners_use *u)
{
	owners_json_gen_array_open(j);
	owners_json_gen_string(j, u->group);
	owners_json_gen_string(j, u->kind);
	if (u->namespace_)
		owners_json_gen_string(j, u->namespace_);
	else
		owners_json_gen_null(j);
	owners_json_gen_string(j, u->name);
	owners_json_gen_string(j, owners_uses_how_key(u->how));
	owners_json_gen_string(j, u->path);
	owners_json_gen_int(j, u->optional ? 1 : 0);
	if (u->how == OWNERS_USE_CLAIMS_TEMPLATE) {
		owners_json_gen_int(j, u->first_ordinal);
		owners_json_gen_int(j, u->ordinals);
	}
	owners_json_gen_array_close(j);
}

int owners_uses_record_write(struct owners_buf *out, const char *group, const char *kind,
			     const struct owners_use *uses, size_t n,
			     const struct owners_pod_selector *selector, unsigned marks)
{
	struct owners_json_gen *j;
	size_t i;
	int rc;

	if (owners_json_gen_new(&j, out, 0))
		return OWNERS_ENOMEM;
	owners_json_gen_map_open(j);
	owners_json_gen_kv(j, "group", group);
	owners_json_gen_kv(j, "kind", kind);
	if (n) {
		owners_json_gen_string(j, "uses");
		owners_json_gen_array_open(j);
		for (i = 0; i < n; i++)
			gen_use(j, &uses[i]);
		owners_json_gen_array_close(j);
	}
	if (selector && selector->scope != OWNERS_POD_SELECTOR_NONE) {
		owners_json_gen_string(j, "selector");
		owners_json_gen_array_open(j);
		owners_json_gen_string(j, selector->scope == OWNERS_POD_SELECTOR_ALL ? "all"
										     : "matching");
		if (selector->scope == OWNERS_POD_SELECTOR_MATCHING)
			owners_json_gen_string(j, selector->text ? selector->text : "");
		owners_json_gen_array_close(j);
	}
	if (marks)
		owners_json_gen_kv_int(j, "marks", marks);
	owners_json_gen_map_close(j);
	rc = owners_json_gen_error(j);
	owners_json_gen_free(j);
	return rc ? OWNERS_ENOMEM : 0;
}

int owners_uses_record_of_object(struct owners_buf *out, const struct owners_json_value *object,
				 const char *group, const char *kind)
{
	struct owners_uses uses = { NULL, 0, 0, 0 };
	struct owners_pod_selector selector;
	int rc = 0, any;

	memset(&selector, 0, sizeof(selector));
	if (owners_pod_uses_spec_path(group, kind))
		rc = owners_pod_uses_read(&uses, object, group, kind);
	else if (owners_object_uses_kind(group, kind))
		rc = owners_object_uses_read(&uses, object, group, kind);
	if (!rc && owners_pod_selector_kind(group, kind))
		rc = owners_pod_selector_read(&selector, object, group, kind);
	any = uses.count || uses.marks || selector.scope != OWNERS_POD_SELECTOR_NONE;
	if (!rc && any)
		rc = owners_uses_record_write(out, group, kind, uses.items, uses.count, &selector,
					      uses.marks);
	owners_uses_clear(&uses);
	owners_pod_selector_clear(&selector);
	return rc ? -rc : any;
}

static const char *string_at(const struct owners_json_value *v, size_t i)
{
	return v->count > i ? owners_json_string(v->items[i]) : NULL;
}

static int read_use(struct owners_uses *uses, const struct owners_json_value *u,
		    struct owners_error *err)
{
	struct owners_use_target t;
	enum owners_use_how how;
	int rc;

	if (!u || u->type != OWNERS_JSON_ARRAY || u->count < 7)
		return owners_error_set(err, OWNERS_EPROTO, "a use that is not a list of 7 fields");
	t.group = string_at(u, 0);
	t.kind = string_at(u, 1);
	t.namespace_ = u->items[2]->type == OWNERS_JSON_NULL ? NULL : string_at(u, 2);
	t.name = string_at(u, 3);
	if (!t.group || !t.kind || !t.name || !*t.name || !*t.kind || !string_at(u, 5) ||
	    (u->items[2]->type != OWNERS_JSON_NULL && !t.namespace_))
		return owners_error_set(err, OWNERS_EPROTO, "a use without its object or path");
	if (owners_uses_how_from_key(string_at(u, 4), &how))
		return owners_error_set(err, OWNERS_EPROTO, "a use of an unknown relation");
	if (how == OWNERS_USE_CLAIMS_TEMPLATE && u->count < 9)
		return owners_error_set(err, OWNERS_EPROTO,
					"a claim template without its ordinals");
	if ((rc = owners_uses_add(uses, &t, how, owners_json_int(u->items[6], 0) != 0, "%s",
				  string_at(u, 5))))
		return owners_error_oom(err);
	if (how == OWNERS_USE_CLAIMS_TEMPLATE) {
		struct owners_use *x = &uses->items[uses->count - 1];

		x->first_ordinal = owners_json_int(u->items[7], 0);
		x->ordinals = owners_json_int(u->items[8], 0);
		if (x->ordinals < 0)
			x->ordinals = 0;
	}
	return 0;
}

static int read_selector(struct owners_pod_selector *selector, const char *group, const char *kind,
			 const struct owners_json_value *s, struct owners_error *err)
{
	const char *scope = s && s->type == OWNERS_JSON_ARRAY ? string_at(s, 0) : NULL;

	if (!s)
		return 0;
	if (!scope || (strcmp(scope, "all") && (strcmp(scope, "matching") || !string_at(s, 1))))
		return owners_error_set(err, OWNERS_EPROTO,
					"a selector that is neither all nor matching");
	if (owners_pod_selector_from_text(selector, group, kind,
					  *scope == 'a' ? OWNERS_POD_SELECTOR_ALL
							: OWNERS_POD_SELECTOR_MATCHING,
					  string_at(s, 1)))
		return owners_error_oom(err);
	return 0;
}

int owners_uses_record_read(const char *json, size_t len, struct owners_uses *uses,
			    struct owners_pod_selector *selector, unsigned *marks,
			    struct owners_error *err)
{
	struct owners_json_value *v = NULL;
	const struct owners_json_value *list;
	const char *group, *kind;
	size_t i;
	int rc;

	memset(selector, 0, sizeof(*selector));
	*marks = 0;
	if ((rc = owners_json_parse(&v, json, len, err)))
		return rc == OWNERS_ENOMEM ? rc
					   : owners_error_set(err, OWNERS_EPROTO,
							      "a record of uses that is not JSON");
	group = owners_json_string(owners_json_get(v, "group"));
	kind = owners_json_string(owners_json_get(v, "kind"));
	list = owners_json_get(v, "uses");
	if (!group || !kind || (list && list->type != OWNERS_JSON_ARRAY))
		rc = owners_error_set(err, OWNERS_EPROTO, "a record of uses without its kind");
	for (i = 0; !rc && list && i < list->count; i++)
		rc = read_use(uses, list->items[i], err);
	if (!rc)
		rc = read_selector(selector, group, kind, owners_json_get(v, "selector"), err);
	if (!rc)
		*marks = (unsigned)owners_json_int(owners_json_get(v, "marks"), 0) &
			 (OWNERS_USES_MARK_DEFAULT | OWNERS_USES_MARK_ENDPOINTS);
	owners_json_value_free(v);
	return rc;
}
