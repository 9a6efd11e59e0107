/* Redaction of the HTTP client's log lines (see http_redact.h). */
#include "http_redact.h"

#include <string.h>
#include <strings.h>

#include "owners_error.h"

/* Shorter secrets are left alone: see owners_http_redact_secret(). */
#define SECRET_MIN 8

static const char *find_ci(const char *hay, size_t hay_len, const char *needle)
{
	size_t n = strlen(needle), i;

	for (i = 0; n && i + n <= hay_len; i++)
		if (!strncasecmp(hay + i, needle, n))
			return hay + i;
	return NULL;
}

static const char *find_bytes(const char *hay, size_t hay_len, const char *needle, size_t n)
{
	size_t i;

	for (i = 0; n && i + n <= hay_len; i++)
		if (hay[i] == needle[0] && !memcmp(hay + i, needle, n))
			return hay + i;
	return NULL;
}

/* The redacted line: out, then the rest of line from rest (n bytes),
 * replaces line. */
static int finish(struct owners_buf *line, struct owners_buf *out, const char *rest, size_t n)
{
	if (owners_buf_add(out, rest, n)) {
		owners_buf_clear(out);
		return OWNERS_ENOMEM;
	}
	owners_buf_clear(line);
	*line = *out;
	return 0;
}

/* Covers "Authorization: Bearer x" in our header lists, libcurl's trace
 * (HTTP/2 headers are printed as "[authorization: Bearer x]") and bodies
 * that echo headers as JSON ("authorization": ["Bearer x"]). */
int owners_http_redact_authorization(struct owners_buf *line)
{
	static const char name[] = "authorization";
	struct owners_buf out = OWNERS_BUF_INIT;
	const char *p = line->ptr, *end = line->ptr + line->len, *hit;
	int changed = 0;

	while ((hit = find_ci(p, (size_t)(end - p), name))) {
		const char *q = hit + sizeof(name) - 1, *word, *cred;

		/* Only a header-like "authorization:" (or quoted, or "=") carries a
		 * credential; "rbac.authorization.k8s.io" in a URL does not. */
		if (q >= end || !strchr(" \t:\"'=[", *q)) {
			if (owners_buf_add(&out, p, (size_t)(q - p)))
				goto oom;
			p = q;
			continue;
		}
		while (q < end && strchr(" \t:\"'=[", *q))
			q++;
		/* The scheme word ("Bearer", "Basic") stays. */
		for (word = q; q < end && ((*q >= 'A' && *q <= 'Z') || (*q >= 'a' && *q <= 'z'));
		     q++)
			;
		if (q > word && q < end && *q == ' ') {
			while (q < end && *q == ' ')
				q++;
		} else {
			q = word;
		}
		for (cred = q; q < end && !strchr(" \t\"'],;\\", *q); q++)
			;
		if (q == cred) {
			if (owners_buf_add(&out, p, (size_t)(q - p)))
				goto oom;
		} else {
			if (owners_buf_add(&out, p, (size_t)(cred - p)) ||
			    owners_buf_adds(&out, "<redacted>"))
				goto oom;
			changed = 1;
		}
		p = q;
	}
	if (!changed) {
		owners_buf_clear(&out);
		return 0;
	}
	return finish(line, &out, p, (size_t)(end - p));
oom:
	owners_buf_clear(&out);
	return OWNERS_ENOMEM;
}

int owners_http_redact_secret(struct owners_buf *line, const char *secret)
{
	struct owners_buf out = OWNERS_BUF_INIT;
	size_t n, i = 0;
	const char *hit;

	/* A very short "secret" would blank out ordinary text; such tokens do
	 * not occur in practice, and Authorization lines are cut anyway. */
	if (!secret || (n = strlen(secret)) < SECRET_MIN ||
	    !find_bytes(line->ptr, line->len, secret, n))
		return 0;
	while ((hit = find_bytes(line->ptr + i, line->len - i, secret, n))) {
		if (owners_buf_add(&out, line->ptr + i, (size_t)(hit - line->ptr) - i) ||
		    owners_buf_adds(&out, "<redacted>"))
			goto oom;
		i = (size_t)(hit - line->ptr) + n;
	}
	return finish(line, &out, line->ptr + i, line->len - i);
oom:
	owners_buf_clear(&out);
	return OWNERS_ENOMEM;
}

/* Control characters from a server (bodies, headers) must not reach a
 * terminal. */
int owners_http_redact_controls(struct owners_buf *line)
{
	struct owners_buf out = OWNERS_BUF_INIT;
	size_t i;
	int rc = 0;

	for (i = 0; i < line->len; i++) {
		unsigned char ch = (unsigned char)line->ptr[i];

		if (ch >= 0x20 && ch != 0x7f)
			continue;
		break;
	}
	if (i == line->len)
		return 0;
	for (i = 0; !rc && i < line->len; i++) {
		unsigned char ch = (unsigned char)line->ptr[i];

		if (ch == '\n')
			rc = owners_buf_adds(&out, "\\n");
		else if (ch == '\r')
			rc = owners_buf_adds(&out, "\\r");
		else if (ch == '\t')
			rc = owners_buf_addc(&out, ' ');
		else if (ch < 0x20 || ch == 0x7f)
			rc = owners_buf_addf(&out, "\\x%02x", ch);
		else
			rc = owners_buf_addc(&out, (char)ch);
	}
	if (rc) {
		owners_buf_clear(&out);
		return rc;
	}
	owners_buf_clear(line);
	*line = out;
	return 0;
}

int owners_http_redact_line(struct owners_buf *line, const char *const *secrets, size_t n)
{
	size_t i;
	int rc = owners_http_redact_authorization(line);

	for (i = 0; !rc && i < n; i++)
		rc = owners_http_redact_secret(line, secrets[i]);
	return rc ? rc : owners_http_redact_controls(line);
}
