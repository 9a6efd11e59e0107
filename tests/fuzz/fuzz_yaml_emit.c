/* libFuzzer target: -o yaml with awkward strings. Names, label values and
 * finalizers are user data: whatever string goes in, as a key and as a
 * value, the YAML must parse (libyaml's own parser) to exactly that string,
 * and a scalar written plain must not be one a YAML 1.1 reader resolves to
 * another type. That last check uses PyYAML's implicit resolvers, written
 * here as POSIX regular expressions: an implementation independent of the
 * emitter's own (PyYAML 6's resolver.py, YAML 1.1). */
#include <regex.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "json.h"
#include "yaml_emit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* bool, float, int, merge, null, timestamp, value. */
static const char *const resolvers[] = {
	"^(yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$",
	"^([-+]?[0-9][0-9_]*\\.[0-9_]*([eE][-+][0-9]+)?|\\.[0-9][0-9_]*([eE][-+][0-9]+)?"
	"|[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+\\.[0-9_]*|[-+]?\\.(inf|Inf|INF)|\\.(nan|NaN|NAN))$",
	"^([-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+"
	"|[-+]?[1-9][0-9_]*(:[0-5]?[0-9])+)$",
	"^<<$",
	"^(~|null|Null|NULL|)$",
	"^([0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?"
	"([Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](\\.[0-9]*)?([ \t]*(Z|[-+][0-9][0-9]?(:[0-9][0-9])?))?)$",
	"^=$",
};

static regex_t compiled[sizeof(resolvers) / sizeof(resolvers[0])];
static int ready;

static int resolves_to_other_type(const char *s)
{
	size_t i;

	for (i = 0; i < sizeof(resolvers) / sizeof(resolvers[0]); i++)
		if (!regexec(&compiled[i], s, 0, NULL, 0))
			return 1;
	return 0;
}

static int valid_utf8(const uint8_t *s, size_t n)
{
	size_t i = 0;

	while (i < n) {
		size_t len = s[i] < 0x80 ? 1 : (s[i] >> 5) == 6 ? 2 : (s[i] >> 4) == 14 ? 3 : (s[i] >> 3) == 30 ? 4 : 0;
		size_t k;

		if (!len || i + len > n || (len > 1 && s[i] < 0xc2 && len == 2))
			return 0;
		for (k = 1; k < len; k++)
			if ((s[i + k] & 0xc0) != 0x80)
				return 0;
		if (len == 3 && ((s[i] == 0xe0 && s[i + 1] < 0xa0) || (s[i] == 0xed && s[i + 1] >= 0xa0)))
			return 0;
		if (len == 4 && ((s[i] == 0xf0 && s[i + 1] < 0x90) || s[i] > 0xf4 || (s[i] == 0xf4 && s[i + 1] >= 0x90)))
			return 0;
		i += len;
	}
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct owners_buf json = OWNERS_BUF_INIT, out = OWNERS_BUF_INIT;
	struct owners_error err = OWNERS_ERROR_INIT;
	yaml_parser_t parser;
	yaml_event_t ev;
	size_t i, seen = 0;
	int done = 0;

	if (!ready) {
		for (i = 0; i < sizeof(resolvers) / sizeof(resolvers[0]); i++)
			if (regcomp(&compiled[i], resolvers[i], REG_EXTENDED | REG_NOSUB))
				abort();
		ready = 1;
	}
	/* JSON strings are UTF-8 without NUL (the tokenizer decodes escapes
	 * to exactly that); libyaml cannot carry a NUL through its C strings. */
	if (!valid_utf8(data, size) || memchr(data, 0, size))
		return 0;
	/* {"k": S, S: [S]} */
	if (owners_buf_adds(&json, "{\"k\":") || owners_json_quote(&json, (const char *)data, size) ||
	    owners_buf_addc(&json, ',') || owners_json_quote(&json, (const char *)data, size) ||
	    owners_buf_adds(&json, ":[") || owners_json_quote(&json, (const char *)data, size) ||
	    owners_buf_adds(&json, "]}"))
		abort();
	if (owners_yaml_from_json(&out, json.ptr, json.len, &err))
		abort(); /* every UTF-8 string must be writable */
	if (!yaml_parser_initialize(&parser))
		abort();
	yaml_parser_set_input_string(&parser, (const unsigned char *)out.ptr, out.len);
	while (!done) {
		if (!yaml_parser_parse(&parser, &ev))
			abort(); /* what we wrote must parse */
		if (ev.type == YAML_SCALAR_EVENT) {
			const char *v = (const char *)ev.data.scalar.value;

			if (seen >= 4)
				abort();
			if (seen == 0 ? strcmp(v, "k")
				      : (ev.data.scalar.length != size || memcmp(v, data, size)))
				abort(); /* read back as another string */
			if (seen && ev.data.scalar.style == YAML_PLAIN_SCALAR_STYLE && resolves_to_other_type(v))
				abort(); /* read back as a bool, number, null... */
			seen++;
		}
		done = ev.type == YAML_STREAM_END_EVENT;
		yaml_event_delete(&ev);
	}
	if (seen != 4)
		abort();
	yaml_parser_delete(&parser);
	owners_buf_clear(&json);
	owners_buf_clear(&out);
	owners_error_clear(&err);
	return 0;
}
