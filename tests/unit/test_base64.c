/* Base64 as Kubernetes writes []byte fields (Go's StdEncoding). */
#include <stdlib.h>
#include <string.h>

#include "base64.h"
#include "owners_error.h"
#include "tap.h"

static int decodes_to(const char *in, const char *want)
{
	struct owners_buf out = OWNERS_BUF_INIT;
	int same = !owners_base64_decode(&out, in, strlen(in)) && out.len == strlen(want) &&
		   !memcmp(out.ptr, want, out.len) && out.ptr[out.len] == '\0';

	owners_buf_clear(&out);
	return same;
}

static int rejects(const char *in)
{
	struct owners_buf out = OWNERS_BUF_INIT;
	int rc;

	owners_buf_adds(&out, "kept");
	rc = owners_base64_decode(&out, in, strlen(in));
	rc = rc == OWNERS_EINVAL && !strcmp(out.ptr, "kept") && out.len == 4;
	owners_buf_clear(&out);
	return rc;
}

static const char *encoded(const void *in, size_t len)
{
	static struct owners_buf out = OWNERS_BUF_INIT;

	owners_buf_clear(&out);
	if (owners_base64_encode(&out, in, len))
		return NULL;
	return out.ptr;
}

int main(void)
{
	struct owners_buf out = OWNERS_BUF_INIT;
	unsigned char all[256];
	char *text;
	size_t i;

	/* RFC 4648 test vectors */
	ok(decodes_to("", ""), "empty input decodes to nothing");
	ok(decodes_to("Zg==", "f"), "one byte, two pads");
	ok(decodes_to("Zm8=", "fo"), "two bytes, one pad");
	ok(decodes_to("Zm9v", "foo"), "three bytes, no pad");
	ok(decodes_to("Zm9vYg==", "foob"), "four bytes");
	ok(decodes_to("Zm9vYmE=", "fooba"), "five bytes");
	ok(decodes_to("Zm9vYmFy", "foobar"), "six bytes");

	ok(decodes_to("Zm9v\nYmFy\n", "foobar"), "newlines (PEM-style wrapping) are ignored");
	ok(decodes_to("  Zm9v YmFy\r\n\t", "foobar"), "spaces, tabs and CRLF are ignored");
	ok(decodes_to("Zm8=\n", "fo"), "whitespace after the padding is fine");
	ok(decodes_to("Pz8/", "???"), "'/' is in the standard alphabet");
	ok(decodes_to("Pj4+", ">>>"), "'+' is in the standard alphabet");

	ok(rejects("Zm9"), "a truncated group is rejected");
	ok(rejects("Zg"), "missing padding is rejected, as Go's StdEncoding does");
	ok(rejects("Zg="), "half the padding is rejected");
	ok(rejects("Z==="), "three pads are rejected");
	ok(rejects("===="), "padding alone is rejected");
	ok(rejects("Zg==Zg=="), "data after padding is rejected");
	ok(rejects("Zm9v!mFy"), "a character outside the alphabet is rejected");
	ok(rejects("Zm9v_mFy"), "the URL-safe alphabet is rejected");
	ok(rejects("Zm9vYmFy="), "a pad after a complete group is rejected");
	ok(rejects("Zm\x80v"), "a high byte is rejected");

	/* Embedded NUL bytes survive: len is explicit. */
	owners_buf_init(&out);
	ok(!owners_base64_decode(&out, "AGEA", 4) && out.len == 3 && out.ptr[0] == 0 &&
		   out.ptr[1] == 'a' && out.ptr[2] == 0,
	   "binary output with NUL bytes keeps its length");
	owners_buf_clear(&out);

	owners_buf_adds(&out, "x:");
	ok(!owners_base64_decode(&out, "Zm9v", 4) && !strcmp(out.ptr, "x:foo"),
	   "decoding appends to what the buffer holds");
	owners_buf_clear(&out);

	is_str(encoded("", 0), "", "encode: empty");
	is_str(encoded("f", 1), "Zg==", "encode: one byte");
	is_str(encoded("fo", 2), "Zm8=", "encode: two bytes");
	is_str(encoded("foo", 3), "Zm9v", "encode: three bytes");
	is_str(encoded("foobar", 6), "Zm9vYmFy", "encode: six bytes");

	for (i = 0; i < sizeof(all); i++)
		all[i] = (unsigned char)i;
	owners_buf_init(&out);
	text = owners_strdup(encoded(all, sizeof(all)));
	ok(text && !owners_base64_decode(&out, text, strlen(text)) && out.len == sizeof(all) &&
		   !memcmp(out.ptr, all, sizeof(all)),
	   "every byte value round-trips");
	free(text);
	owners_buf_clear(&out);
	encoded(NULL, 0);
	return tap_done();
}
