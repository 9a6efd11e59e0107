#include "pod_selector.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "owners_error.h"

static int is(const char *group, const char *kind, const char *g, const char *k)
{
	return !strcmp(group, g) && !strcmp(kind, k);
}

int owners_pod_selector_kind(const char *group, const char *kind)
{
	return is(group, kind, "", "Service") ||
	       is(group, kind, "networking.k8s.io", "NetworkPolicy") ||
	       is(group, kind, "policy", "PodDisruptionBudget");
}

/* Whether s is made of what a label key (slash: its prefix too) or value
 * may hold: anything else would read as more of the selector's text
 * ("a,b=c"), and the API refuses it anyway. */
static int plain(const char *s, int slash)
{
	return strspn(s,
		      slash ? "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_./"
			    : "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
			      ".") == strlen(s);
}

/* key=value pairs of a map, ANDed, in the selector's text. */
static int add_labels(struct owners_buf *text, const struct owners_json_value *map)
{
	size_t i;
	int rc = 0;

	for (i = 0; !rc && map && map->type == OWNERS_JSON_OBJECT && i < map->count; i++) {
		const char *value = owners_json_string(map->items[i]);

		if (!value || !*map->keys[i] || !plain(map->keys[i], 1) || !plain(value, 0))
			return OWNERS_EINVAL;
		rc = owners_buf_addf(text, "%s%s=%s", text->len ? "," : "", map->keys[i], value);
	}
	return rc;
}

/* One matchExpression as text: "k in (a,b)", "k notin (a)", "k", "!k". */
static int add_expression(struct owners_buf *text, const struct owners_json_value *e)
{
	const char *key = owners_json_string(owners_json_get(e, "key"));
	const char *op = owners_json_string(owners_json_get(e, "operator"));
	const struct owners_json_value *values = owners_json_get(e, "values");
	size_t i, n = owners_json_array_count(values);
	int rc;

	if (!key || !*key || !plain(key, 1) || !op)
		return OWNERS_EINVAL;
	if (!strcmp(op, "Exists") || !strcmp(op, "DoesNotExist"))
		return owners_buf_addf(text, "%s%s%s", text->len ? "," : "", *op == 'D' ? "!" : "",
				       key);
	/* In and NotIn need a value at least (the API refuses none) */
	if ((strcmp(op, "In") && strcmp(op, "NotIn")) || !n)
		return OWNERS_EINVAL;
	rc = owners_buf_addf(text, "%s%s %s (", text->len ? "," : "", key,
			     !strcmp(op, "In") ? "in" : "notin");
	for (i = 0; !rc && i < n; i++) {
		const char *v = owners_json_string(values->items[i]);

		rc = v && plain(v, 0) ? owners_buf_addf(text, "%s%s", i ? "," : "", v)
				      : OWNERS_EINVAL;
	}
	return rc ? rc : owners_buf_addc(text, ')');
}

/* A selector's text, parsed: MATCHING, or NONE when the API would refuse
 * it. */
static int parse(struct owners_pod_selector *out, const struct owners_buf *text)
{
	struct owners_error err = OWNERS_ERROR_INIT;
	int rc = owners_label_selector_parse(&out->match, text->ptr, &err);

	owners_error_clear(&err);
	if (rc == OWNERS_ENOMEM)
		return rc;
	out->scope = rc ? OWNERS_POD_SELECTOR_NONE : OWNERS_POD_SELECTOR_MATCHING;
	if (!rc && !(out->text = strdup(text->ptr)))
		return OWNERS_ENOMEM;
	return 0;
}

/* A LabelSelector ({matchLabels, matchExpressions}): {} selects every Pod. */
static int label_selector(struct owners_pod_selector *out, const struct owners_json_value *sel)
{
	const struct owners_json_value *exprs = owners_json_get(sel, "matchExpressions");
	struct owners_buf text = OWNERS_BUF_INIT;
	size_t i;
	int rc;

	if (!sel || sel->type != OWNERS_JSON_OBJECT)
		return 0; /* absent or null: none */
	rc = add_labels(&text, owners_json_get(sel, "matchLabels"));
	for (i = 0; !rc && exprs && exprs->type == OWNERS_JSON_ARRAY && i < exprs->count; i++)
		rc = add_expression(&text, exprs->items[i]);
	if (!rc && !text.len)
		out->scope = OWNERS_POD_SELECTOR_ALL;
	else if (!rc)
		rc = parse(out, &text);
	owners_buf_clear(&text);
	return rc == OWNERS_EINVAL ? 0 : rc;
}

/* The field a kind's selector is at (NULL: it has none). */
static const char *selector_path(const char *group, const char *kind)
{
	if (is(group, kind, "", "Service"))
		return "spec.selector";
	if (is(group, kind, "networking.k8s.io", "NetworkPolicy"))
		return "spec.podSelector";
	if (is(group, kind, "policy", "PodDisruptionBudget"))
		return "spec.selector";
	return NULL;
}

int owners_pod_selector_from_text(struct owners_pod_selector *out, const char *group,
				  const char *kind, enum owners_pod_selector_scope scope,
				  const char *text)
{
	struct owners_buf b = OWNERS_BUF_INIT;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	out->path = selector_path(group, kind);
	out->scope =
		out->path && scope == OWNERS_POD_SELECTOR_ALL ? scope : OWNERS_POD_SELECTOR_NONE;
	if (out->path && scope == OWNERS_POD_SELECTOR_MATCHING && text && *text) {
		rc = owners_buf_adds(&b, text);
		if (!rc)
			rc = parse(out, &b);
		owners_buf_clear(&b);
	}
	return rc;
}

int owners_pod_selector_read(struct owners_pod_selector *out,
			     const struct owners_json_value *object, const char *group,
			     const char *kind)
{
	const struct owners_json_value *spec = owners_json_get(object, "spec");
	struct owners_buf text = OWNERS_BUF_INIT;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	out->scope = OWNERS_POD_SELECTOR_NONE;
	out->path = selector_path(group, kind);
	if (is(group, kind, "", "Service")) {
		/* a map; empty or absent selects nothing */
		rc = add_labels(&text, owners_json_get(spec, "selector"));
		if (!rc && text.len)
			rc = parse(out, &text);
		owners_buf_clear(&text);
		return rc == OWNERS_EINVAL ? 0 : rc;
	}
	if (is(group, kind, "networking.k8s.io", "NetworkPolicy"))
		return label_selector(out, owners_json_get(spec, "podSelector"));
	if (is(group, kind, "policy", "PodDisruptionBudget"))
		return label_selector(out, owners_json_get(spec, "selector"));
	return 0;
}

int owners_pod_selector_matches(const struct owners_pod_selector *s,
				const struct owners_label_meta *labels, size_t n)
{
	switch (s->scope) {
	case OWNERS_POD_SELECTOR_ALL: return 1;
	case OWNERS_POD_SELECTOR_MATCHING: return owners_label_selector_match(s->match, labels, n);
	case OWNERS_POD_SELECTOR_NONE: break;
	}
	return 0;
}

void owners_pod_selector_clear(struct owners_pod_selector *s)
{
	owners_label_selector_free(s->match);
	free(s->text);
	memset(s, 0, sizeof(*s));
}
