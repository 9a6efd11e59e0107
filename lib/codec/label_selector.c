/*
 * Label selectors (see label_selector.h), as k8s.io/apimachinery
 * pkg/labels/selector.go reads them: the same lexer (every token first,
 * longest special symbol of two), the same recursive descent with the
 * same look-ahead, so that the same input fails at the same token with
 * the same words; the key and value grammar is pkg/api/validate/content
 * (IsLabelKey, IsLabelValue, IsDNS1123Subdomain), and a requirement's
 * checks are NewRequirement's, aggregated as utilerrors does ("[a, b]"
 * when there are several).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "label_selector.h"
#include "strv.h"

enum tok {
	T_END,
	T_CLOSE,
	T_COMMA,
	T_NOT,
	T_EQEQ,
	T_EQ,
	T_GT,
	T_IDENT,
	T_IN,
	T_LT,
	T_NEQ,
	T_NOTIN,
	T_OPEN,
};

struct token {
	enum tok tok;
	const char *lit;
	int len; /* bounded by the selector's length; printed with %.*s */
};

enum op { OP_IN, OP_NOTIN, OP_EQ, OP_EQEQ, OP_NEQ, OP_GT, OP_LT, OP_EXISTS, OP_NOT_EXISTS };

struct requirement {
	char *key;
	enum op op;
	char **values; /* sorted, each once (a Go sets.String's List()) */
	size_t n_values;
	int64_t number; /* OP_GT, OP_LT: values[0] read as an integer */
};

struct owners_label_selector {
	struct requirement *reqs;
	size_t n, cap;
};

struct parser {
	struct token *toks;
	size_t n, cap, pos;
	struct owners_buf msg; /* why it failed */
	int in_requirement;    /* it failed in one: Go says "unable to parse requirement: " first */
};

/* In a value position "in" and "notin" are plain words (Go's Values
 * context); where an operator is expected they are keywords. */
enum context { KEY_AND_OPERATOR, VALUES };

/* ---- lexer ------------------------------------------------------------ */

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static int is_special(char c)
{
	return c && strchr("=!(),><", c);
}

static enum tok symbol_token(const char *s, size_t len)
{
	if (len == 2)
		return s[0] == '=' ? T_EQEQ : T_NEQ;
	switch (s[0]) {
	case ')': return T_CLOSE;
	case ',': return T_COMMA;
	case '!': return T_NOT;
	case '=': return T_EQ;
	case '>': return T_GT;
	case '<': return T_LT;
	default: return T_OPEN;
	}
}

static enum tok word_token(const char *s, size_t len)
{
	if (len == 2 && !memcmp(s, "in", 2))
		return T_IN;
	if (len == 5 && !memcmp(s, "notin", 5))
		return T_NOTIN;
	return T_IDENT;
}

/* Every token up to and including T_END, as Go's Parser.scan. Only "=="
 * and "!=" are two special characters long, so the longest match of Go's
 * scanSpecialSymbol is at most two. */
static int lex(struct parser *p, const char *text)
{
	const char *c = text;
	struct token t;

	do {
		size_t len = 0;

		while (is_space(*c))
			c++;
		if (is_special(*c))
			len = (c[1] == '=' && (c[0] == '=' || c[0] == '!')) ? 2 : 1;
		else
			while (c[len] && !is_special(c[len]) && !is_space(c[len]))
				len++;
		if (len > INT32_MAX)
			return OWNERS_EINVAL;
		t.lit = c;
		t.len = (int)len;
		t.tok = !*c ? T_END : is_special(*c) ? symbol_token(c, len) : word_token(c, len);
		if (OWNERS_GROW(p->toks, p->cap, p->n + 1))
			return OWNERS_ENOMEM;
		p->toks[p->n++] = t;
		c += len;
	} while (t.tok != T_END);
	return 0;
}

static const struct token *look(const struct parser *p, enum context ctx, enum tok *tok)
{
	const struct token *t = &p->toks[p->pos];

	*tok = (ctx == VALUES && (t->tok == T_IN || t->tok == T_NOTIN)) ? T_IDENT : t->tok;
	return t;
}

static const struct token *consume(struct parser *p, enum context ctx, enum tok *tok)
{
	const struct token *t = look(p, ctx, tok);

	if (t->tok != T_END)
		p->pos++;
	return t;
}

static int fail(struct parser *p, const char *fmt, const struct token *t)
{
	owners_buf_reset(&p->msg);
	return owners_buf_addf(&p->msg, fmt, t->len, t->lit) ? OWNERS_ENOMEM : OWNERS_EINVAL;
}

/* ---- what a key and a value may be ------------------------------------ */

static int is_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9] */
static int is_name(const char *s, size_t len)
{
	size_t i;

	if (!len || !is_alnum(s[0]) || !is_alnum(s[len - 1]))
		return 0;
	for (i = 0; i < len; i++)
		if (!is_alnum(s[i]) && s[i] != '-' && s[i] != '_' && s[i] != '.')
			return 0;
	return 1;
}

/* [a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)* */
static int is_subdomain(const char *s, size_t len)
{
	size_t i, start = 0;

	for (i = 0; i <= len; i++) {
		if (i < len && s[i] != '.') {
			if (!(s[i] >= 'a' && s[i] <= 'z') && !(s[i] >= '0' && s[i] <= '9') && s[i] != '-')
				return 0;
			continue;
		}
		if (i == start || s[start] == '-' || s[i - 1] == '-')
			return 0;
		start = i + 1;
	}
	return 1;
}

#define NAME_RE "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
#define NAME_RULE                                                                                  \
	"must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an " \
	"alphanumeric character"
#define NAME_EXAMPLES "(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '"
#define SUBDOMAIN_RE "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*"

static int add_detail(struct owners_buf *b, const char *text)
{
	if (b->len && owners_buf_adds(b, "; "))
		return OWNERS_ENOMEM;
	return owners_buf_adds(b, text);
}

/* content.IsLabelKey's messages joined with "; ", into detail (empty:
 * the key is valid). */
static int key_detail(struct owners_buf *detail, const char *key)
{
	const char *slash = strchr(key, '/'), *name = slash ? slash + 1 : key;
	size_t len = strlen(name);
	int rc = 0;

	if (slash && strchr(name, '/'))
		return add_detail(detail, "a valid label key " NAME_RULE " " NAME_EXAMPLES NAME_RE
				  "') with an optional DNS subdomain prefix and '/' (e.g. "
				  "'example.com/MyName')");
	if (slash == key)
		rc = add_detail(detail, "prefix part must be non-empty");
	if (slash && slash > key && (size_t)(slash - key) > 253)
		rc = rc ? rc : add_detail(detail, "prefix part must be no more than 253 bytes");
	if (slash && slash > key && !is_subdomain(key, (size_t)(slash - key)))
		rc = rc ? rc
			: add_detail(detail, "prefix part a lowercase RFC 1123 subdomain must consist of "
					     "lower case alphanumeric characters, '-' or '.', and must "
					     "start and end with an alphanumeric character (e.g. "
					     "'example.com', regex used for validation is '" SUBDOMAIN_RE
					     "')");
	if (!len)
		rc = rc ? rc : add_detail(detail, "name part must be non-empty");
	else if (len > 63)
		rc = rc ? rc : add_detail(detail, "name part must be no more than 63 bytes");
	if (!is_name(name, len))
		rc = rc ? rc : add_detail(detail, "name part " NAME_RULE " " NAME_EXAMPLES NAME_RE "')");
	return rc;
}

/* content.IsLabelValue's messages joined with "; ". */
static int value_detail(struct owners_buf *detail, const char *value)
{
	size_t len = strlen(value);
	int rc = 0;

	if (len > 63)
		rc = add_detail(detail, "must be no more than 63 bytes");
	if (len && !is_name(value, len))
		rc = rc ? rc
			: add_detail(detail, "a valid label must be an empty string or consist of "
					     "alphanumeric characters, '-', '_' or '.', and must start "
					     "and end with an alphanumeric character (e.g. 'MyValue',  or "
					     "'my_value',  or '12345', regex used for validation is '(" NAME_RE
					     ")?')");
	return rc;
}

/* The length of the valid UTF-8 sequence at s (at most n bytes), 0 if
 * it is not one (overlong, a surrogate, past U+10FFFF, cut short). */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : 2, i;
	uint32_t cp;

	if (s[0] < 0xc2 || s[0] > 0xf4 || n < len)
		return 0;
	cp = s[0] & (0x7f >> len);
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

/* Go's %q of s: quotes, backslash escapes for '"', '\\' and control
 * characters, \xNN for bytes that are not UTF-8. */
static int add_quoted(struct owners_buf *b, const char *s)
{
	static const char esc_from[] = "\a\b\f\n\r\t\v\"\\", esc_to[] = "abfnrtv\"\\";
	size_t n = strlen(s), i, k;
	int rc = owners_buf_addc(b, '"');

	for (i = 0; !rc && i < n; i += k) {
		const unsigned char c = (unsigned char)s[i];
		const char *e = c ? strchr(esc_from, c) : NULL;

		k = c >= 0x80 ? utf8_len((const unsigned char *)s + i, n - i) : 1;
		if (e)
			rc = owners_buf_addf(b, "\\%c", esc_to[e - esc_from]);
		else if (c < 0x20 || c == 0x7f || !k)
			rc = owners_buf_addf(b, "\\x%02x", c);
		else
			rc = owners_buf_add(b, s + i, k);
		k = k ? k : 1;
	}
	return rc ? rc : owners_buf_addc(b, '"');
}

/* One field.Invalid error: "FIELD: Invalid value: "VALUE": DETAIL". */
static int add_invalid(struct owners_buf *b, const char *field, const char *value, const char *detail)
{
	if (b->len && owners_buf_adds(b, ", "))
		return OWNERS_ENOMEM;
	if (owners_buf_addf(b, "%s: Invalid value: ", field) || add_quoted(b, value))
		return OWNERS_ENOMEM;
	return owners_buf_addf(b, ": %s", detail);
}

/* ---- requirements ----------------------------------------------------- */

static void requirement_clear(struct requirement *r)
{
	free(r->key);
	owners_strv_free(r->values, r->n_values);
	memset(r, 0, sizeof(*r));
}

/* strconv.ParseInt(s, 10, 64): an optional sign, then decimal digits. */
static int parse_int64(int64_t *out, const char *s)
{
	int neg = *s == '-';
	uint64_t v = 0, limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;

	s += (*s == '-' || *s == '+');
	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > (limit - (uint64_t)(*s - '0')) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return 0;
}

static int by_string(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void sort_unique(struct requirement *r)
{
	size_t i, n = 0;

	if (r->n_values)
		qsort(r->values, r->n_values, sizeof(*r->values), by_string);
	for (i = 0; i < r->n_values; i++) {
		if (n && !strcmp(r->values[n - 1], r->values[i]))
			free(r->values[i]);
		else
			r->values[n++] = r->values[i];
	}
	r->n_values = n;
}

/* NewRequirement's checks of the values, every failure kept, in its
 * order: each value of > and < as an integer, then each as a label
 * value. Several are written "[a, b]" as utilerrors' aggregate does. */
static int check_values(struct parser *p, struct requirement *r)
{
	struct owners_buf all = OWNERS_BUF_INIT, detail = OWNERS_BUF_INIT, field = OWNERS_BUF_INIT;
	size_t i, n = 0;
	int rc = 0;

	for (i = 0; !rc && (r->op == OP_GT || r->op == OP_LT) && i < r->n_values; i++) {
		owners_buf_reset(&field);
		if (!parse_int64(&r->number, r->values[i]))
			continue;
		n++;
		rc = owners_buf_addf(&field, "values[%zu]", i) ||
		     add_invalid(&all, field.ptr, r->values[i],
				 "for 'Gt', 'Lt' operators, the value must be an integer");
	}
	for (i = 0; !rc && i < r->n_values; i++) {
		owners_buf_reset(&detail);
		owners_buf_reset(&field);
		if ((rc = value_detail(&detail, r->values[i])) || !detail.len)
			continue;
		n++;
		rc = owners_buf_addf(&field, "values[%zu][%s]", i, r->key) ||
		     add_invalid(&all, field.ptr, r->values[i], detail.ptr);
	}
	owners_buf_reset(&p->msg);
	if (!rc && n)
		rc = owners_buf_addf(&p->msg, n > 1 ? "[%s]" : "%s", all.ptr) ? OWNERS_ENOMEM
									 : OWNERS_EINVAL;
	owners_buf_clear(&all);
	owners_buf_clear(&detail);
	owners_buf_clear(&field);
	return rc ? (rc == OWNERS_EINVAL ? rc : OWNERS_ENOMEM) : 0;
}

static int push_value(struct requirement *r, size_t *cap, const char *s, size_t len)
{
	return owners_strv_push(&r->values, &r->n_values, cap, owners_strndup(s, len));
}

/* Go's parseIdentifiersList: "(a,b)", "(,a)", "(a,,b)" and "(a,)" (the
 * empty words are the value ""). */
static int parse_identifiers(struct parser *p, struct requirement *r, size_t *cap)
{
	const struct token *t;
	enum tok tok, next;
	int rc;

	for (;;) {
		t = consume(p, VALUES, &tok);
		if (tok == T_IDENT) {
			if ((rc = push_value(r, cap, t->lit, (size_t)t->len)))
				return rc;
			t = look(p, VALUES, &next);
			if (next == T_CLOSE)
				return 0;
			if (next != T_COMMA)
				return fail(p, "found '%.*s', expected: ',' or ')'", t);
		} else if (tok == T_COMMA) {
			look(p, VALUES, &next);
			if ((!r->n_values || next == T_CLOSE || next == T_COMMA) &&
			    (rc = push_value(r, cap, "", 0)))
				return rc;
			if (next == T_CLOSE)
				return 0;
		} else {
			return fail(p, "found '%.*s', expected: ',', or identifier", t);
		}
	}
}

/* Go's parseValues: "(" values ")"; "()" is the one value "". */
static int parse_values(struct parser *p, struct requirement *r)
{
	const struct token *t, *first;
	size_t cap = 0;
	enum tok tok;
	int rc;

	t = consume(p, VALUES, &tok);
	if (tok != T_OPEN)
		return fail(p, "found '%.*s' expected: '('", t);
	first = look(p, VALUES, &tok);
	if (tok == T_CLOSE) {
		consume(p, VALUES, &tok);
		return push_value(r, &cap, "", 0);
	}
	if (tok != T_IDENT && tok != T_COMMA)
		return fail(p, "found '%.*s', expected: ',', ')' or identifier", first);
	if ((rc = parse_identifiers(p, r, &cap)))
		return rc;
	if (consume(p, VALUES, &tok)->tok != T_CLOSE)
		return fail(p, "found '%.*s', expected: ')'", first);
	return 0;
}

/* Go's parseExactValue: one word, or nothing (the value ""). */
static int parse_exact_value(struct parser *p, struct requirement *r)
{
	const struct token *t;
	size_t cap = 0;
	enum tok tok;

	look(p, VALUES, &tok);
	if (tok == T_END || tok == T_COMMA)
		return push_value(r, &cap, "", 0);
	t = consume(p, VALUES, &tok);
	if (tok != T_IDENT)
		return fail(p, "found '%.*s', expected: identifier", t);
	return push_value(r, &cap, t->lit, (size_t)t->len);
}

static int parse_operator(struct parser *p, enum op *op)
{
	static const struct {
		enum tok tok;
		enum op op;
	} ops[] = { { T_IN, OP_IN }, { T_NOTIN, OP_NOTIN }, { T_EQ, OP_EQ }, { T_EQEQ, OP_EQEQ },
		    { T_NEQ, OP_NEQ }, { T_GT, OP_GT },	      { T_LT, OP_LT } };
	enum tok tok;
	const struct token *t = consume(p, KEY_AND_OPERATOR, &tok);
	size_t i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (ops[i].tok == tok) {
			*op = ops[i].op;
			return 0;
		}
	return fail(p, "found '%.*s', expected: in, notin, =, ==, !=, gt, lt", t);
}

/* Go's parseKeyAndInferOperator: [!] KEY; a key followed by "," or the
 * end is "exists" (or, after "!", "does not exist"). r->op is left
 * OP_IN when an operator is to follow. */
static int parse_key(struct parser *p, struct requirement *r)
{
	struct owners_buf detail = OWNERS_BUF_INIT;
	const struct token *t;
	enum tok tok;
	int rc;

	r->op = OP_IN;
	t = consume(p, VALUES, &tok);
	if (tok == T_NOT) {
		r->op = OP_NOT_EXISTS;
		t = consume(p, VALUES, &tok);
	}
	if (tok != T_IDENT)
		return fail(p, "found '%.*s', expected: identifier", t);
	if (!(r->key = owners_strndup(t->lit, (size_t)t->len)))
		return OWNERS_ENOMEM;
	rc = key_detail(&detail, r->key);
	if (!rc && detail.len) {
		owners_buf_reset(&p->msg);
		rc = add_invalid(&p->msg, "<nil>", r->key, detail.ptr) ? OWNERS_ENOMEM : OWNERS_EINVAL;
	}
	owners_buf_clear(&detail);
	if (rc)
		return rc;
	look(p, VALUES, &tok);
	if ((tok == T_END || tok == T_COMMA) && r->op != OP_NOT_EXISTS)
		r->op = OP_EXISTS;
	return 0;
}

static int parse_requirement(struct parser *p, struct requirement *r)
{
	int rc = parse_key(p, r);

	if (rc || r->op == OP_EXISTS || r->op == OP_NOT_EXISTS)
		return rc;
	if ((rc = parse_operator(p, &r->op)))
		return rc;
	rc = (r->op == OP_IN || r->op == OP_NOTIN) ? parse_values(p, r) : parse_exact_value(p, r);
	if (rc)
		return rc;
	sort_unique(r);
	return check_values(p, r);
}

/* Go's Parser.parse: requirements joined by ",", then the end. The
 * requirement is kept in s as soon as it is parsed, so that a failure
 * frees it with the rest. */
static int parse_all(struct parser *p, struct owners_label_selector *s)
{
	const struct token *t;
	enum tok tok;
	int rc;

	for (;;) {
		t = look(p, VALUES, &tok);
		if (tok == T_END)
			return 0;
		if (tok != T_IDENT && tok != T_NOT)
			return fail(p, "found '%.*s', expected: !, identifier, or 'end of string'", t);
		if (OWNERS_GROW(s->reqs, s->cap, s->n + 1))
			return OWNERS_ENOMEM;
		memset(&s->reqs[s->n], 0, sizeof(s->reqs[0]));
		if ((rc = parse_requirement(p, &s->reqs[s->n++]))) {
			p->in_requirement = 1;
			return rc;
		}
		t = consume(p, VALUES, &tok);
		if (tok == T_END)
			return 0;
		if (tok != T_COMMA)
			return fail(p, "found '%.*s', expected: ',' or 'end of string'", t);
		t = look(p, VALUES, &tok);
		if (tok != T_IDENT && tok != T_NOT)
			return fail(p, "found '%.*s', expected: identifier after ','", t);
	}
}

int owners_label_selector_parse(struct owners_label_selector **out, const char *text,
				struct owners_error *err)
{
	struct parser p = { NULL, 0, 0, 0, OWNERS_BUF_INIT, 0 };
	struct owners_label_selector *s = calloc(1, sizeof(*s));
	int rc;

	*out = NULL;
	if (!s)
		return owners_error_oom(err);
	rc = lex(&p, text ? text : "");
	if (rc == OWNERS_EINVAL)
		rc = owners_error_set(err, rc, "label selector too long");
	else if (!rc)
		rc = parse_all(&p, s);
	if (rc == OWNERS_EINVAL)
		owners_error_set(err, rc, "%s%s", p.in_requirement ? "unable to parse requirement: " : "",
				 p.msg.ptr);
	else if (rc)
		owners_error_oom(err);
	free(p.toks);
	owners_buf_clear(&p.msg);
	if (rc) {
		owners_label_selector_free(s);
		return rc;
	}
	*out = s;
	return 0;
}

/* ---- matching --------------------------------------------------------- */

static const char *label_value(const struct owners_label_meta *labels, size_t n, const char *key)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(labels[i].key, key))
			return labels[i].value ? labels[i].value : "";
	return NULL;
}

static int has_value(const struct requirement *r, const char *value)
{
	return bsearch(&value, r->values, r->n_values, sizeof(*r->values), by_string) != NULL;
}

static int requirement_match(const struct requirement *r, const char *value)
{
	int64_t v;

	switch (r->op) {
	case OP_IN:
	case OP_EQ:
	case OP_EQEQ: return value && has_value(r, value);
	case OP_NOTIN:
	case OP_NEQ: return !value || !has_value(r, value);
	case OP_EXISTS: return value != NULL;
	case OP_NOT_EXISTS: return value == NULL;
	case OP_GT: return value && !parse_int64(&v, value) && v > r->number;
	case OP_LT: return value && !parse_int64(&v, value) && v < r->number;
	}
	return 0;
}

int owners_label_selector_match(const struct owners_label_selector *s,
				const struct owners_label_meta *labels, size_t n)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!requirement_match(&s->reqs[i], label_value(labels, n, s->reqs[i].key)))
			return 0;
	return 1;
}

int owners_label_selector_empty(const struct owners_label_selector *s)
{
	return !s->n;
}

void owners_label_selector_free(struct owners_label_selector *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->n; i++)
		requirement_clear(&s->reqs[i]);
	free(s->reqs);
	free(s);
}
