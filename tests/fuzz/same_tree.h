/* For the fuzzers of small documents: the tree a document parses into
 * must not depend on how its bytes arrive. It is parsed whole and one
 * byte at a time (a chunk boundary after every byte); both parse or both
 * fail, and both trees write the same text. abort() otherwise, which
 * libFuzzer reports as a crash. */
#ifndef OWNERS_FUZZ_SAME_TREE_H
#define OWNERS_FUZZ_SAME_TREE_H

#include <stdlib.h>
#include <string.h>

#include "json.h"

static int same_tree_text(const struct owners_json_value *v, struct owners_buf *out)
{
	struct owners_json_gen *g;
	int rc = owners_json_gen_new(&g, out, 0) ? -1 : owners_json_gen_value(g, v);

	owners_json_gen_free(g);
	return rc;
}

static void same_tree_whole_and_bytewise(const char *doc, size_t len)
{
	struct owners_json_value *whole = NULL, *bytewise = NULL;
	struct owners_buf a = OWNERS_BUF_INIT, b = OWNERS_BUF_INIT;
	int rc_whole = owners_json_parse_steps(&whole, doc, len, 0, NULL);
	int rc_bytewise = owners_json_parse_steps(&bytewise, doc, len, 1, NULL);

	if (!rc_whole != !rc_bytewise)
		abort(); /* one parsed, the other failed */
	if (!rc_whole && !same_tree_text(whole, &a) && !same_tree_text(bytewise, &b) &&
	    (a.len != b.len || memcmp(a.ptr, b.ptr, a.len)))
		abort(); /* two different trees */
	owners_buf_clear(&a);
	owners_buf_clear(&b);
	owners_json_value_free(whole);
	owners_json_value_free(bytewise);
}

#endif
