#include "jsonpath.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"

/* A set of values a path reached (borrowed from the document). */
struct values {
	const struct owners_json_value **v;
	size_t n, cap;
};

static int push(struct values *s, const struct owners_json_value *v)
{
	if (OWNERS_GROW(s->v, s->cap, s->n + 1))
		return OWNERS_ENOMEM;
	s->v[s->n++] = v;
	return 0;
}

struct ctx {
	const struct owners_json_value *root;
	const char *template_;
	struct owners_error *err;
	/* a name no value has is an error (kubectl's -o jsonpath with
	 * --allow-missing-template-keys=false), not nothing (its default;
	 * custom-columns: <none>) */
	int strict;
};

static int bad(struct ctx *x, const char *what)
{
	return owners_error_set(x->err, OWNERS_EINVAL, "error parsing jsonpath %s: %s", x->template_, what);
}

static int is_name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '-' || c == '/' || c == '$';
}

/* Every value at any depth under v (v included) that is under key name. */
static int descend(struct values *out, const struct owners_json_value *v, const char *name, size_t len)
{
	size_t i;
	int rc = 0;

	if (!v || (v->type != OWNERS_JSON_OBJECT && v->type != OWNERS_JSON_ARRAY))
		return 0;
	for (i = 0; !rc && i < v->count; i++) {
		if (v->type == OWNERS_JSON_OBJECT && strlen(v->keys[i]) == len && !strncmp(v->keys[i], name, len))
			rc = push(out, v->items[i]);
		if (!rc)
			rc = descend(out, v->items[i], name, len);
	}
	return rc;
}

static const struct owners_json_value *child(const struct owners_json_value *v, const char *name, size_t len)
{
	size_t i;

	if (!v || v->type != OWNERS_JSON_OBJECT)
		return NULL;
	for (i = 0; i < v->count; i++)
		if (strlen(v->keys[i]) == len && !strncmp(v->keys[i], name, len))
			return v->items[i];
	return NULL;
}

static int all_children(struct values *out, const struct owners_json_value *v)
{
	size_t i;
	int rc = 0;

	if (v && (v->type == OWNERS_JSON_OBJECT || v->type == OWNERS_JSON_ARRAY))
		for (i = 0; !rc && i < v->count; i++)
			rc = push(out, v->items[i]);
	return rc;
}

static int eval_path(struct ctx *x, const char *p, const char *end, const struct owners_json_value *cur,
		     struct values *out);

/* [?(@.path OP literal)] or [?(@.path)] on each element of v. */
static int filter(struct ctx *x, const char *f, const char *fend, const struct owners_json_value *v,
		  struct values *out)
{
	static const char *const ops[] = { "==", "!=", "<=", ">=", "<", ">", NULL };
	const char *op = NULL, *lit;
	size_t i, k, oplen = 0;
	int rc = 0;

	for (k = 0; ops[k] && !op; k++) {
		const char *q;

		for (q = f; q < fend && !op; q++) {
			if (*q == '"' || *q == '\'')
				break; /* past the path: a literal */
			if (!strncmp(q, ops[k], strlen(ops[k])) && q + strlen(ops[k]) <= fend) {
				op = q;
				oplen = strlen(ops[k]);
			}
		}
	}
	if (!v || (v->type != OWNERS_JSON_ARRAY && v->type != OWNERS_JSON_OBJECT))
		return 0;
	for (i = 0; !rc && i < v->count; i++) {
		struct values got = { NULL, 0, 0 };
		const char *pend = op ? op : fend;
		int keep = 0;

		int strict = x->strict;

		while (pend > f && pend[-1] == ' ')
			pend--;
		/* a filter tests whether an item has the field: not an error */
		x->strict = 0;
		rc = eval_path(x, f, pend, v->items[i], &got);
		x->strict = strict;
		if (!rc && !op) {
			keep = got.n > 0;
		} else if (!rc && got.n) {
			const struct owners_json_value *a = got.v[0];
			char *text = NULL;
			int cmp;

			lit = op + oplen;
			while (lit < fend && *lit == ' ')
				lit++;
			if (*lit == '"' || *lit == '\'') {
				const char *close = memchr(lit + 1, *lit, (size_t)(fend - lit - 1));

				if (!close) {
					free(got.v);
					return bad(x, "unterminated string in a filter");
				}
				text = owners_strndup(lit + 1, (size_t)(close - lit - 1));
				cmp = text && a->type == OWNERS_JSON_STRING ? strcmp(a->string, text) : 2;
			} else {
				double want = strtod(lit, NULL), have;

				have = a->type == OWNERS_JSON_NUMBER ? strtod(a->string, NULL) : 0;
				cmp = a->type != OWNERS_JSON_NUMBER ? 2 : have < want ? -1 : have > want ? 1 : 0;
			}
			free(text);
			if (!strncmp(op, "==", 2))
				keep = cmp == 0;
			else if (!strncmp(op, "!=", 2))
				keep = cmp != 0;
			else if (cmp != 2 && !strncmp(op, "<=", 2))
				keep = cmp <= 0;
			else if (cmp != 2 && !strncmp(op, ">=", 2))
				keep = cmp >= 0;
			else if (cmp != 2 && *op == '<')
				keep = cmp < 0;
			else if (cmp != 2 && *op == '>')
				keep = cmp > 0;
		}
		free(got.v);
		if (!rc && keep)
			rc = push(out, v->items[i]);
	}
	return rc;
}

/* [n], [-n], [a:b], [*], ['name'], [?(...)] on each value of in. */
static int subscript(struct ctx *x, const char *s, const char *send, const struct values *in, struct values *out)
{
	size_t i;
	int rc = 0;

	for (i = 0; !rc && i < in->n; i++) {
		const struct owners_json_value *v = in->v[i];

		if (send - s == 1 && *s == '*') {
			rc = all_children(out, v);
		} else if (*s == '?') {
			if (send - s < 3 || s[1] != '(' || send[-1] != ')')
				return bad(x, "a filter is [?(...)]");
			rc = filter(x, s + 2, send - 1, v, out);
		} else if (*s == '\'' || *s == '"') {
			const struct owners_json_value *c =
				send - s >= 2 && send[-1] == *s ? child(v, s + 1, (size_t)(send - s - 2)) : NULL;

			if (send - s < 2 || send[-1] != *s)
				return bad(x, "unterminated name in brackets");
			if (c)
				rc = push(out, c);
		} else if (v && v->type == OWNERS_JSON_ARRAY) {
			const char *colon = memchr(s, ':', (size_t)(send - s));
			long n = (long)v->count, a = strtol(s, NULL, 10), b = n;
			long k;

			if (colon && colon + 1 < send)
				b = strtol(colon + 1, NULL, 10);
			if (colon && colon == s)
				a = 0;
			/* past either end is the end (and no overflow below) */
			a = a < -n ? -n - 1 : a > n ? n : a;
			b = b < -n ? -n - 1 : b > n ? n : b;
			if (a < 0)
				a += n;
			if (b < 0)
				b += n;
			if (!colon)
				b = a + 1;
			if (a < 0)
				a = 0;
			for (k = a; !rc && k < b && k < n; k++)
				rc = push(out, v->items[k]);
		}
	}
	return rc;
}

/* Evaluates path p..end from cur (or the root, $) into out. */
static int eval_path(struct ctx *x, const char *p, const char *end, const struct owners_json_value *cur,
		     struct values *out)
{
	struct values set = { NULL, 0, 0 }, next = { NULL, 0, 0 };
	int rc;

	while (p < end && *p == ' ')
		p++;
	if (p < end && *p == '$') {
		cur = x->root;
		p++;
	} else if (p < end && *p == '@') {
		p++;
	}
	if ((rc = push(&set, cur)))
		return rc;
	while (!rc && p < end) {
		size_t i;

		next.n = 0;
		if (*p == '.' && p + 1 < end && p[1] == '.') {
			const char *name = p + 2, *q = name;

			while (q < end && is_name_char(*q))
				q++;
			if (q == name)
				rc = bad(x, "a name must follow '..'");
			for (i = 0; !rc && i < set.n; i++)
				rc = descend(&next, set.v[i], name, (size_t)(q - name));
			p = q;
		} else if (*p == '.') {
			const char *name = p + 1, *q = name;

			if (q < end && *q == '*') {
				for (i = 0; !rc && i < set.n; i++)
					rc = all_children(&next, set.v[i]);
				p = q + 1;
			} else {
				while (q < end && is_name_char(*q))
					q++;
				for (i = 0; !rc && i < set.n && q > name; i++) {
					const struct owners_json_value *c = child(set.v[i], name, (size_t)(q - name));

					if (c)
						rc = push(&next, c);
				}
				/* as kubectl: values to look in and none has it (no
				 * values, an empty list: nothing, no error) */
				if (!rc && x->strict && q > name && set.n && !next.n)
					rc = owners_error_set(x->err, OWNERS_ENOTFOUND,
							      "error executing jsonpath '%s': %.*s is not found",
							      x->template_, (int)(q - name), name);
				if (q == name) { /* "." alone: the value itself */
					for (i = 0; !rc && i < set.n; i++)
						rc = push(&next, set.v[i]);
				}
				p = q;
			}
		} else if (*p == '[') {
			const char *q = p + 1;
			int depth = 1;
			char quote = 0;

			for (; q < end; q++) {
				if (quote) {
					if (*q == quote)
						quote = 0;
				} else if (*q == '\'' || *q == '"') {
					quote = *q;
				} else if (*q == '[') {
					depth++;
				} else if (*q == ']' && !--depth) {
					break;
				}
			}
			if (q >= end)
				rc = bad(x, "unclosed [");
			else
				rc = subscript(x, p + 1, q, &set, &next);
			p = q + 1;
		} else if (*p == ' ') {
			p++;
			continue;
		} else {
			rc = bad(x, "unrecognized character in a path");
		}
		if (!rc) {
			struct values t = set;

			set = next;
			next = t;
		}
	}
	for (size_t i = 0; !rc && i < set.n; i++)
		rc = push(out, set.v[i]);
	free(set.v);
	free(next.v);
	return rc;
}

static int print_value(struct owners_buf *out, const struct owners_json_value *v)
{
	struct owners_json_gen *g;
	int rc;

	switch (v->type) {
	case OWNERS_JSON_STRING:
	case OWNERS_JSON_NUMBER:
		return owners_buf_adds(out, v->string);
	case OWNERS_JSON_BOOL:
		return owners_buf_adds(out, v->boolean ? "true" : "false");
	case OWNERS_JSON_NULL:
		return 0;
	case OWNERS_JSON_OBJECT:
	case OWNERS_JSON_ARRAY:
		break;
	}
	if (owners_json_gen_new(&g, out, 0))
		return OWNERS_ENOMEM;
	rc = owners_json_gen_value(g, v);
	owners_json_gen_free(g);
	return rc;
}

/* A "..." literal with \n, \t, \\ and \" as kubectl reads them. */
static int literal(struct ctx *x, struct owners_buf *out, const char *a, const char *end)
{
	const char *p;
	int rc = 0;

	if (end - a < 2 || end[-1] != '"')
		return bad(x, "unterminated string");
	for (p = a + 1; !rc && p < end - 1; p++) {
		if (*p == '\\' && p + 1 < end - 1) {
			p++;
			rc = owners_buf_addc(out, *p == 'n' ? '\n' : *p == 't' ? '\t' : *p == 'r' ? '\r' : *p);
		} else {
			rc = owners_buf_addc(out, *p);
		}
	}
	return rc;
}

/* The closing brace of the action opened at p ('{'), quotes respected. */
static const char *action_end(const char *p)
{
	char quote = 0;

	for (p++; *p; p++) {
		if (quote) {
			if (*p == '\\' && p[1])
				p++;
			else if (*p == quote)
				quote = 0;
		} else if (*p == '"' || *p == '\'') {
			quote = *p;
		} else if (*p == '}') {
			return p;
		}
	}
	return NULL;
}

static int is_word(const char *a, const char *end, const char *w)
{
	size_t n = strlen(w);

	while (a < end && *a == ' ')
		a++;
	return (size_t)(end - a) >= n && !strncmp(a, w, n) && (a + n == end || a[n] == ' ');
}

/* Runs the template from p to its end, or to the {end} that closes a
 * range (*stop then points past it), with cur as @. */
static int run(struct ctx *x, struct owners_buf *out, const char *p, const struct owners_json_value *cur,
	       const char **stop)
{
	int rc = 0;

	while (!rc && *p) {
		const char *open = strchr(p, '{'), *close, *a;

		if (!open)
			return owners_buf_adds(out, p) ? OWNERS_ENOMEM : (stop ? bad(x, "range without end") : 0);
		if ((rc = owners_buf_add(out, p, (size_t)(open - p))))
			return rc;
		if (!(close = action_end(open)))
			return bad(x, "unclosed action");
		a = open + 1;
		while (a < close && *a == ' ')
			a++;
		p = close + 1;
		if (is_word(a, close, "end")) {
			if (!stop)
				return bad(x, "end without range");
			*stop = p;
			return 0;
		}
		if (is_word(a, close, "range")) {
			struct values items = { NULL, 0, 0 };
			const char *after = NULL;
			size_t i;

			rc = eval_path(x, a + 5, close, cur, &items);
			/* the body once to find its end, even with no items */
			if (!rc) {
				struct owners_buf scratch = OWNERS_BUF_INIT;
				int strict = x->strict;

				/* read, not run: its names are not looked for here */
				x->strict = 0;
				rc = run(x, &scratch, p, cur, &after);
				x->strict = strict;
				owners_buf_clear(&scratch);
			}
			for (i = 0; !rc && i < items.n; i++)
				rc = run(x, out, p, items.v[i], &after);
			free(items.v);
			if (!rc)
				p = after;
			continue;
		}
		if (*a == '"') {
			rc = literal(x, out, a, close);
			continue;
		}
		{
			struct values got = { NULL, 0, 0 };
			size_t i;

			rc = eval_path(x, a, close, cur, &got);
			for (i = 0; !rc && i < got.n; i++)
				rc = (i ? owners_buf_addc(out, ' ') : 0) || print_value(out, got.v[i]);
			free(got.v);
		}
	}
	if (!rc && stop)
		rc = bad(x, "range without end");
	return rc;
}

int owners_jsonpath_print(struct owners_buf *out, const char *template_, const struct owners_json_value *doc,
			  int allow_missing, struct owners_error *err)
{
	struct ctx x = { doc, template_, err, !allow_missing };

	if (!*template_)
		return owners_error_set(err, OWNERS_EINVAL, "template format specified but no template given");
	return run(&x, out, template_, doc, NULL);
}

/* ---- custom columns ------------------------------------------------- */

/* The value at a dotted path of keys under v ("owners.dependents"), or
 * NULL. */
static const struct owners_json_value *at_path(const struct owners_json_value *v, const char *path)
{
	const char *p = path, *dot;

	while (v && (dot = strchr(p, '.'))) {
		v = child(v, p, (size_t)(dot - p));
		p = dot + 1;
	}
	return v ? child(v, p, strlen(p)) : NULL;
}

static int gather(struct values *rows, const struct owners_json_value *items, const char *nested)
{
	size_t i;
	int rc = 0;

	if (!items || items->type != OWNERS_JSON_ARRAY)
		return 0;
	for (i = 0; !rc && i < items->count; i++) {
		rc = push(rows, items->items[i]);
		if (!rc && nested)
			rc = gather(rows, at_path(items->items[i], nested), nested);
	}
	return rc;
}

int owners_custom_columns_print(struct owners_buf *out, const char *spec, const struct owners_json_value *doc,
				const char *nested, int no_headers, struct owners_error *err)
{
	struct ctx x = { doc, spec, err, 0 };
	struct values rows = { NULL, 0, 0 };
	struct owners_buf *cells = NULL;
	char **heads = NULL, **paths = NULL;
	size_t n_cols = 0, cap_heads = 0, cap_paths = 0, i, c, *width = NULL;
	const char *p = spec;
	int rc = 0;

	if (!*spec)
		return owners_error_set(err, OWNERS_EINVAL, "custom-columns format specified but no custom columns given");
	/* HEADER:PATH, ... */
	while (!rc && *p) {
		const char *comma = strchr(p, ','), *colon = strchr(p, ':');
		const char *end = comma ? comma : p + strlen(p);

		if (!colon || colon > end || colon == p || colon + 1 == end) {
			rc = owners_error_set(err, OWNERS_EINVAL,
					      "custom-columns format is HEADER:.path[,HEADER:.path...], not '%s'", spec);
			break;
		}
		if (OWNERS_GROW(heads, cap_heads, n_cols + 1) ||
		    OWNERS_GROW(paths, cap_paths, n_cols + 1))
			rc = OWNERS_ENOMEM;
		if (!rc) {
			const char *ps = colon + 1, *pe = end;

			/* {.path} or .path, as kubectl takes both */
			if (*ps == '{' && pe[-1] == '}') {
				ps++;
				pe--;
			}
			heads[n_cols] = owners_strndup(p, (size_t)(colon - p));
			paths[n_cols] = owners_strndup(ps, (size_t)(pe - ps));
			n_cols++;
			if (!heads[n_cols - 1] || !paths[n_cols - 1])
				rc = OWNERS_ENOMEM;
		}
		p = comma ? comma + 1 : end;
	}
	if (!rc)
		rc = gather(&rows, owners_json_get(doc, "items"), nested);
	if (!rc && !(cells = calloc((rows.n + 1) * n_cols + 1, sizeof(*cells))))
		rc = OWNERS_ENOMEM;
	if (!rc && !(width = calloc(n_cols + 1, sizeof(*width))))
		rc = OWNERS_ENOMEM;
	for (c = 0; !rc && c < n_cols; c++) {
		rc = owners_buf_adds(&cells[c], heads[c]);
		width[c] = no_headers ? 0 : strlen(heads[c]);
	}
	for (i = 0; !rc && i < rows.n; i++)
		for (c = 0; !rc && c < n_cols; c++) {
			struct owners_buf *cell = &cells[(i + 1) * n_cols + c];
			struct values got = { NULL, 0, 0 };
			size_t k;

			x.template_ = paths[c];
			rc = eval_path(&x, paths[c], paths[c] + strlen(paths[c]), rows.v[i], &got);
			for (k = 0; !rc && k < got.n; k++)
				rc = (k ? owners_buf_addc(cell, ',') : 0) || print_value(cell, got.v[k]);
			if (!rc && !cell->len)
				rc = owners_buf_adds(cell, "<none>");
			free(got.v);
			if (!rc && cell->len > width[c])
				width[c] = cell->len;
		}
	for (i = no_headers ? 1 : 0; !rc && i <= rows.n; i++) {
		for (c = 0; !rc && c < n_cols; c++) {
			const struct owners_buf *cell = &cells[i * n_cols + c];

			rc = owners_buf_add(out, cell->ptr ? cell->ptr : "", cell->len);
			for (size_t pad = cell->len; !rc && c + 1 < n_cols && pad < width[c] + 3; pad++)
				rc = owners_buf_addc(out, ' ');
		}
		if (!rc)
			rc = owners_buf_addc(out, '\n');
	}
	for (c = 0; c < n_cols; c++) {
		free(heads[c]);
		free(paths[c]);
	}
	for (i = 0; cells && i < (rows.n + 1) * n_cols; i++)
		owners_buf_clear(&cells[i]);
	free(cells);
	free(width);
	free(heads);
	free(paths);
	free(rows.v);
	return rc;
}
