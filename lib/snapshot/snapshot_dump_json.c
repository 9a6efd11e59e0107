#include "snapshot_dump_json.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

#define BLOCK 65536

/* The first words of a pod's logs in kubectl cluster-info dump. */
static const char log_start[] = "==== START logs for container ";

struct reader {
	const char *name;
	struct owners_snapshot_dump_tree *t;
	struct owners_snapshot_dump_json_info info;
	struct owners_json_parser *p; /* the document being read; NULL between documents */
	unsigned long line;           /* of the byte being looked at, from 1 */
	unsigned long doc_line;
	size_t depth;
	int in_string, escape;
	/* between documents: a line of text, read whole to see whether it
	 * opens a pod's logs */
	int in_text;
	struct owners_buf text;
	/* inside a pod's logs: the END line looked for, and KMP's table */
	struct owners_buf end;
	size_t *fallback;
	size_t matched;
};

/* ---- yajl's events into the builder ---------------------------------- */

static int j_null(void *ctx)
{
	return owners_snapshot_dump_tree_scalar(ctx, OWNERS_JSON_NULL, "", 0);
}

static int j_bool(void *ctx, int value)
{
	return owners_snapshot_dump_tree_scalar(ctx, OWNERS_JSON_BOOL, value ? "true" : "false",
						value ? 4 : 5);
}

static int j_number(void *ctx, const char *s, size_t len)
{
	return owners_snapshot_dump_tree_scalar(ctx, OWNERS_JSON_NUMBER, s, len);
}

static int j_string(void *ctx, const char *s, size_t len)
{
	return owners_snapshot_dump_tree_scalar(ctx, OWNERS_JSON_STRING, s, len);
}

static int j_start_map(void *ctx)
{
	return owners_snapshot_dump_tree_open(ctx, OWNERS_JSON_OBJECT);
}

static int j_start_array(void *ctx)
{
	return owners_snapshot_dump_tree_open(ctx, OWNERS_JSON_ARRAY);
}

static int j_key(void *ctx, const char *s, size_t len)
{
	return owners_snapshot_dump_tree_key(ctx, s, len);
}

static int j_close(void *ctx)
{
	return owners_snapshot_dump_tree_close(ctx);
}

static const struct owners_json_callbacks to_tree = {
	j_null, j_bool, j_number, j_string, j_start_map, j_key, j_close, j_start_array, j_close,
};

/* ---- failures, with the file and the line ----------------------------- */

/* yajl's words may hold a newline: one line, always. */
static int at_line(struct reader *r, struct owners_error *err, int code, const char *what)
{
	struct owners_buf line = OWNERS_BUF_INIT;
	size_t i;

	if (owners_buf_adds(&line, what))
		return owners_error_oom(err);
	for (i = 0; i < line.len; i++)
		if (line.ptr[i] == '\n' || line.ptr[i] == '\r')
			line.ptr[i] = ' ';
	owners_error_set(err, code, "%s: line %lu: %s", r->name, r->line, line.ptr);
	owners_buf_clear(&line);
	return code;
}

/* A feed or finish failed: the builder's words when it stopped the parse
 * (its sink's code kept: OWNERS_ESTOP is no failure), else yajl's. */
static int parse_failed(struct reader *r, struct owners_error *parse_err, struct owners_error *err)
{
	struct owners_error why = OWNERS_ERROR_INIT;
	int code;

	if ((code = owners_snapshot_dump_tree_error(r->t, &why))) {
		if (code == OWNERS_ESTOP || code == OWNERS_ENOMEM)
			owners_error_set(err, code, "%s", why.msg.ptr);
		else
			at_line(r, err, code, why.msg.ptr);
	} else {
		code = at_line(r, err, OWNERS_EPROTO, owners_error_message(parse_err));
	}
	owners_error_clear(&why);
	return code;
}

static int feed(struct reader *r, const char *data, size_t len, struct owners_error *err)
{
	struct owners_error perr = OWNERS_ERROR_INIT;
	int rc;

	if (!len)
		return 0;
	owners_snapshot_dump_tree_at(r->t, r->line);
	rc = owners_json_parser_feed(r->p, data, len, &perr);
	if (rc)
		rc = parse_failed(r, &perr, err);
	owners_error_clear(&perr);
	return rc;
}

static int document_end(struct reader *r, struct owners_error *err)
{
	struct owners_error perr = OWNERS_ERROR_INIT;
	int rc = owners_json_parser_finish(r->p, &perr);

	if (rc)
		rc = parse_failed(r, &perr, err);
	owners_error_clear(&perr);
	owners_json_parser_free(r->p);
	r->p = NULL;
	if (rc)
		return rc;
	r->info.documents++;
	rc = owners_snapshot_dump_tree_end(r->t);
	if (rc) {
		struct owners_error why = OWNERS_ERROR_INIT;

		owners_snapshot_dump_tree_error(r->t, &why);
		if (rc == OWNERS_ESTOP || rc == OWNERS_ENOMEM)
			owners_error_set(err, rc, "%s", why.msg.ptr);
		else
			owners_error_set(err, rc, "%s: line %lu: %s", r->name, r->doc_line,
					 why.msg.ptr);
		owners_error_clear(&why);
	}
	return rc;
}

/* ---- inside a document ------------------------------------------------ */

/* Feeds the document's bytes from data on, a line at a time, to where it
 * ends or the block does; *used: the bytes taken. */
static int in_document(struct reader *r, const char *data, size_t len, size_t *used,
		       struct owners_error *err)
{
	size_t i, seg = 0;
	int rc;

	for (i = 0; i < len; i++) {
		char c = data[i];

		if (r->in_string) {
			if (r->escape)
				r->escape = 0;
			else if (c == '\\')
				r->escape = 1;
			else if (c == '"')
				r->in_string = 0;
		} else if (c == '"') {
			r->in_string = 1;
		} else if (c == '{' || c == '[') {
			r->depth++;
		} else if ((c == '}' || c == ']') && r->depth && !--r->depth) {
			*used = i + 1;
			if ((rc = feed(r, data + seg, i + 1 - seg, err)))
				return rc;
			return document_end(r, err);
		}
		if (c == '\n') {
			if ((rc = feed(r, data + seg, i + 1 - seg, err)))
				return rc;
			seg = i + 1;
			r->line++;
		}
	}
	*used = len;
	return feed(r, data + seg, len - seg, err);
}

static int document_start(struct reader *r, struct owners_error *err)
{
	if (owners_json_parser_new(&r->p, &to_tree, r->t))
		return owners_error_oom(err);
	owners_snapshot_dump_tree_at(r->t, r->line);
	owners_snapshot_dump_tree_begin(r->t);
	r->doc_line = r->line;
	r->depth = 0;
	r->in_string = r->escape = 0;
	return 0;
}

/* ---- a pod's logs ------------------------------------------------------ */

/* The START line read whole: the END line to look for is the same words
 * with END for START, and its KMP table. */
static int log_begin(struct reader *r, struct owners_error *err)
{
	const char *rest = r->text.ptr + strlen("==== START");
	size_t n, k, i;

	owners_buf_reset(&r->end);
	if (owners_buf_adds(&r->end, "==== END") || owners_buf_adds(&r->end, rest))
		return owners_error_oom(err);
	n = r->end.len;
	free(r->fallback);
	if (!(r->fallback = calloc(n, sizeof(*r->fallback))))
		return owners_error_oom(err);
	for (i = 1, k = 0; i < n; i++) {
		while (k && r->end.ptr[i] != r->end.ptr[k])
			k = r->fallback[k - 1];
		if (r->end.ptr[i] == r->end.ptr[k])
			k++;
		r->fallback[i] = k;
	}
	r->matched = 0;
	r->info.log_blocks++;
	return 0;
}

/* Passes over log bytes up to the END line's last byte; *used: bytes
 * taken. Returns 1 when the END line was found. */
static int in_log(struct reader *r, const char *data, size_t len, size_t *used)
{
	size_t i;

	for (i = 0; i < len; i++) {
		char c = data[i];

		if (c == '\n')
			r->line++;
		while (r->matched && c != r->end.ptr[r->matched])
			r->matched = r->fallback[r->matched - 1];
		if (c == r->end.ptr[r->matched] && ++r->matched == r->end.len) {
			*used = i + 1;
			r->matched = 0;
			return 1;
		}
	}
	*used = len;
	return 0;
}

/* ---- between documents ------------------------------------------------- */

/* A line of text between documents ended (its newline included): the
 * start of a pod's logs, or not JSON at all. */
static int text_line(struct reader *r, struct owners_error *err)
{
	size_t n = strlen(log_start);

	r->in_text = 0;
	if (r->text.len > n && !strncmp(r->text.ptr, log_start, n))
		return log_begin(r, err);
	return at_line(r, err, OWNERS_EPROTO,
		       "not JSON: a JSON document (an object or a list) was expected");
}

static int between(struct reader *r, const char *data, size_t len, size_t *used,
		   struct owners_error *err)
{
	size_t i;

	for (i = 0; i < len; i++) {
		char c = data[i];

		if (r->in_text) {
			if (owners_buf_addc(&r->text, c))
				return owners_error_oom(err);
			if (c != '\n')
				continue;
			*used = i + 1;
			r->line++;
			return text_line(r, err);
		}
		if (c == '\n') {
			r->line++;
		} else if (c == '{' || c == '[') {
			*used = i;
			return document_start(r, err);
		} else if (c != ' ' && c != '\t' && c != '\r') {
			r->in_text = 1;
			owners_buf_reset(&r->text);
			if (owners_buf_addc(&r->text, c))
				return owners_error_oom(err);
		}
	}
	*used = len;
	return 0;
}

/* ---- the file ----------------------------------------------------------- */

static int block(struct reader *r, const char *data, size_t len, struct owners_error *err)
{
	size_t at = 0, used = 0;
	int rc = 0;

	while (!rc && at < len) {
		if (r->end.len) {
			if (in_log(r, data + at, len - at, &used))
				owners_buf_reset(&r->end);
		} else if (r->p) {
			rc = in_document(r, data + at, len - at, &used, err);
		} else {
			rc = between(r, data + at, len - at, &used, err);
		}
		at += used;
	}
	return rc;
}

static int at_eof(struct reader *r, struct owners_error *err)
{
	if (r->p)
		return owners_error_set(err, OWNERS_EPROTO,
					"%s: line %lu: the file ends inside the JSON document that "
					"starts at line %lu: it is cut short",
					r->name, r->line, r->doc_line);
	if (r->end.len)
		return at_line(r, err, OWNERS_EPROTO,
			       "the file ends inside a pod's logs (no '==== END logs' line): it "
			       "is cut short");
	if (r->in_text && r->text.len > strlen(log_start) &&
	    !strncmp(r->text.ptr, log_start, strlen(log_start)))
		return at_line(r, err, OWNERS_EPROTO,
			       "the file ends inside a pod's logs: it is cut short");
	if (r->in_text)
		return at_line(r, err, OWNERS_EPROTO,
			       "not JSON: a JSON document (an object or a list) was expected");
	return 0;
}

int owners_snapshot_dump_json_read(struct owners_snapshot_dump_json_info *info, FILE *f,
				   const char *name, struct owners_snapshot_dump_tree *t,
				   struct owners_error *err)
{
	struct reader r;
	char *buf = malloc(BLOCK);
	uint64_t at = 0;
	size_t n;
	int rc = 0;

	memset(&r, 0, sizeof(r));
	r.name = name;
	r.t = t;
	r.line = 1;
	owners_buf_init(&r.text);
	owners_buf_init(&r.end);
	if (!buf)
		return owners_error_oom(err);
	while (!rc && (n = fread(buf, 1, BLOCK, f)) > 0) {
		rc = block(&r, buf, n, err);
		owners_snapshot_dump_tree_read_to(t, at += n);
	}
	if (!rc && ferror(f))
		rc = owners_error_set(err, OWNERS_EIO, "%s: cannot read: %s", name,
				      strerror(errno ? errno : EIO));
	if (!rc)
		rc = at_eof(&r, err);
	if (info)
		*info = r.info;
	owners_json_parser_free(r.p);
	owners_buf_clear(&r.text);
	owners_buf_clear(&r.end);
	free(r.fallback);
	free(buf);
	return rc;
}
