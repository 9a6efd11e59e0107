/* libFuzzer target: -o jsonpath templates and custom-columns specs (what a
 * user types) over a JSON document. The input is "TEMPLATE\nDOCUMENT"; the
 * template is run as jsonpath and, read as a spec, as custom columns (with
 * and without nested rows). Nothing may crash, leak or read out of bounds;
 * errors are fine. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "jsonpath.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *nl = memchr(data, '\n', size);
	struct owners_json_value *doc = NULL;
	struct owners_buf out = OWNERS_BUF_INIT;
	struct owners_error err = OWNERS_ERROR_INIT;
	char *tpl;

	if (!nl || memchr(data, '\0', (size_t)(nl - (const char *)data)))
		return 0;
	tpl = strndup((const char *)data, (size_t)(nl - (const char *)data));
	if (!tpl)
		return 0;
	if (!owners_json_parse(&doc, nl + 1, size - (size_t)(nl + 1 - (const char *)data), NULL)) {
		owners_jsonpath_print(&out, tpl, doc, (int)(size % 2), &err);
		owners_error_clear(&err);
		owners_buf_reset(&out);
		owners_custom_columns_print(&out, tpl, doc, "dependents", 0, &err);
		owners_error_clear(&err);
		owners_buf_reset(&out);
		owners_custom_columns_print(&out, tpl, doc, NULL, 1, &err);
		owners_error_clear(&err);
	}
	owners_buf_clear(&out);
	owners_json_value_free(doc);
	free(tpl);
	return 0;
}
