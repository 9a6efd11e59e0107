/* Label selectors on this side (lib/codec/label_selector.c), checked
 * against k8s.io/apimachinery pkg/labels: selector_test.go's good and bad
 * strings and matches, and for each way to fail the words Go's parser
 * says (worked out from selector.go, pkg/api/validate/content and
 * field.Error by hand: "unable to parse requirement: " only for what
 * fails inside one requirement; "<nil>" as the field of a bad key). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "label_selector.h"
#include "tap.h"

#define NAME_RULE                                                                                  \
	"must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an " \
	"alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "    \
	"validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
#define VALUE_RULE                                                                                 \
	"a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or " \
	"'.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or "         \
	"'my_value',  or '12345', regex used for validation is "                                   \
	"'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
#define REQ "unable to parse requirement: "

/* Labels written "k=v,k2=v2" ("" none); at most 8. */
static size_t labels_of(struct owners_label_meta *out, char *buf, const char *spec)
{
	size_t n = 0;
	char *save = NULL, *kv;

	strcpy(buf, spec);
	for (kv = strtok_r(buf, ",", &save); kv && n < 8; kv = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(kv, '=');

		*eq = 0;
		out[n].key = kv;
		out[n++].value = eq + 1;
	}
	return n;
}

static int matches(const char *sel, const char *labels)
{
	struct owners_label_selector *s = NULL;
	struct owners_error err = OWNERS_ERROR_INIT;
	struct owners_label_meta l[8];
	char buf[256];
	int rc = owners_label_selector_parse(&s, sel, &err), m = -1;

	if (!rc)
		m = owners_label_selector_match(s, l, labels_of(l, buf, labels));
	else
		printf("# '%s': %s\n", sel, owners_error_message(&err));
	owners_label_selector_free(s);
	owners_error_clear(&err);
	return m;
}

static void match(const char *sel, const char *labels)
{
	ok(matches(sel, labels) == 1, "'%s' matches {%s}", sel, labels);
}

static void no_match(const char *sel, const char *labels)
{
	ok(matches(sel, labels) == 0, "'%s' does not match {%s}", sel, labels);
}

/* sel for a check's name, on one line: tabs, CR and LF as '.'. */
static const char *shown(const char *sel)
{
	static char out[128];
	size_t i;

	snprintf(out, sizeof(out), "%s", sel);
	for (i = 0; out[i]; i++)
		if (out[i] == '\t' || out[i] == '\r' || out[i] == '\n')
			out[i] = '.';
	return out;
}

static void good(const char *sel)
{
	struct owners_label_selector *s = NULL;
	struct owners_error err = OWNERS_ERROR_INIT;
	int rc = owners_label_selector_parse(&s, sel, &err);

	ok(!rc && s, "'%s' parses%s%s", shown(sel), rc ? ": " : "", rc ? owners_error_message(&err) : "");
	owners_label_selector_free(s);
	owners_error_clear(&err);
}

static void bad(const char *sel, const char *want)
{
	struct owners_label_selector *s = (void *)&s;
	struct owners_error err = OWNERS_ERROR_INIT;
	int rc = owners_label_selector_parse(&s, sel, &err);

	ok(rc == OWNERS_EINVAL && !s, "'%s' is refused, *out NULL", sel);
	is_str(owners_error_message(&err), want, "'%s': apimachinery's words", sel);
	owners_error_clear(&err);
}

static void syntax(void)
{
	/* selector_test.go's TestSelectorParse and TestSetSelectorParser */
	good("x=a,y=b,z=c");
	good("");
	good("x!=a,y=b");
	good("x=");
	good("x= ");
	good("x=,z= ");
	good("!x");
	good("x>1,z<5");
	good("\rx");
	good("this-is-a-dns.domain.com/key-with-dash");
	good("0.1.2.domain/99 notin (10.10.100.1, tick.tack.clock)");
	good("foo  in\t (abc)");
	good("x notin\n (abc)");
	good("x notin (abc,def),bar,z in (),w");
	good("x notin ( )");
	good("x notin (, a)");
	good("a ");
	good("a in (x,y,notin, z,in)");
	/* "in" and "notin" are words where no operator is expected */
	good("in in (in)");
	good("notin notin (notin)");
	/* today's apimachinery does not consume the second comma of ",," */
	good("a in (x,,)");
	good("a==b,c!=d");
	good("example.com/" "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa=b"); /* 63 */
	bad("x==a==b", "found '==', expected: ',' or 'end of string'");
	bad("!x=a", "found '=', expected: ',' or 'end of string'");
	bad("x,,y", "found ',', expected: identifier after ','");
	bad(",x,y", "found ',', expected: !, identifier, or 'end of string'");
	bad("a in (xyz),", "found '', expected: identifier after ','");
	bad("a in (xyz)b notin ()", "found 'b', expected: ',' or 'end of string'");
	bad("(", "found '(', expected: !, identifier, or 'end of string'");
	bad("x nott in (y)", REQ "found 'nott', expected: in, notin, =, ==, !=, gt, lt");
	bad("a (", REQ "found '(', expected: in, notin, =, ==, !=, gt, lt");
	bad("a!b", REQ "found '!', expected: in, notin, =, ==, !=, gt, lt");
	bad("a in (xyz abc)", REQ "found 'abc', expected: ',' or ')'");
	bad("a in (x", REQ "found '', expected: ',' or ')'");
	bad("a notin(", REQ "found '', expected: ',', ')' or identifier");
	bad("a in (,", REQ "found '', expected: ',', or identifier");
	bad("a in (=)", REQ "found '=', expected: ',', ')' or identifier");
	bad("a in", REQ "found '' expected: '('");
	bad("!", REQ "found '', expected: identifier");
	bad("!=a", "found '!=', expected: !, identifier, or 'end of string'");
	bad("! =a", REQ "found '=', expected: identifier");
	bad("a===b", REQ "found '=', expected: identifier");
}

static void keys_and_values(void)
{
	bad("x=a||y=b", REQ "values[0][x]: Invalid value: \"a||y\": " VALUE_RULE);
	bad("x<a", REQ "values[0]: Invalid value: \"a\": for 'Gt', 'Lt' operators, the value must be an integer");
	bad("x>-1", REQ "values[0][x]: Invalid value: \"-1\": " VALUE_RULE);
	bad("x>99999999999999999999",
	    REQ "values[0]: Invalid value: \"99999999999999999999\": for 'Gt', 'Lt' operators, the value must be an integer");
	bad("x>a@", REQ "[values[0]: Invalid value: \"a@\": for 'Gt', 'Lt' operators, the value must be an "
			"integer, values[0][x]: Invalid value: \"a@\": " VALUE_RULE "]");
	/* the values sorted, each once, before they are checked */
	bad("a in (z_, -y, z_)", REQ "[values[0][a]: Invalid value: \"-y\": " VALUE_RULE
				     ", values[1][a]: Invalid value: \"z_\": " VALUE_RULE "]");
	bad("a=" "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", /* 64 */
	    REQ "values[0][a]: Invalid value: \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\": "
		"must be no more than 63 bytes");
	bad("-a", REQ "<nil>: Invalid value: \"-a\": name part " NAME_RULE);
	bad("a/", REQ "<nil>: Invalid value: \"a/\": name part must be non-empty; name part " NAME_RULE);
	bad("/a", REQ "<nil>: Invalid value: \"/a\": prefix part must be non-empty");
	bad("Example.com/a=b",
	    REQ "<nil>: Invalid value: \"Example.com/a\": prefix part a lowercase RFC 1123 subdomain must "
		"consist of lower case alphanumeric characters, '-' or '.', and must start and end with an "
		"alphanumeric character (e.g. 'example.com', regex used for validation is "
		"'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
	bad("a..b-/c", REQ "<nil>: Invalid value: \"a..b-/c\": prefix part a lowercase RFC 1123 subdomain must "
			   "consist of lower case alphanumeric characters, '-' or '.', and must start and end with an "
			   "alphanumeric character (e.g. 'example.com', regex used for validation is "
			   "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
	bad("a/b/c", REQ "<nil>: Invalid value: \"a/b/c\": a valid label key " NAME_RULE
			 " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
	bad("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", /* 64 */
	    REQ "<nil>: Invalid value: \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\": "
		"name part must be no more than 63 bytes");
	/* %q: quotes and backslashes escaped, UTF-8 kept, other bytes \x */
	bad("a\"b\\", REQ "<nil>: Invalid value: \"a\\\"b\\\\\": name part " NAME_RULE);
	bad("\xc3\xa9", REQ "<nil>: Invalid value: \"\xc3\xa9\": name part " NAME_RULE);
	bad("\xff\x01", REQ "<nil>: Invalid value: \"\\xff\\x01\": name part " NAME_RULE);
}

static void matching(void)
{
	/* selector_test.go's TestSelectorMatches and TestRequirementSelectorMatching */
	match("", "x=y");
	match("", "");
	match("x=y", "x=y");
	match("x=y,z=w", "x=y,z=w");
	match("x!=y,z!=w", "x=z,z=a");
	match("notin=in", "notin=in");
	match("x", "x=z");
	match("!x", "y=z");
	match("x>1", "x=2");
	match("x<1", "x=0");
	no_match("x=z", "");
	no_match("x=y", "x=z");
	no_match("x=y,z=w", "x=w,z=w");
	no_match("x!=y,z!=w", "x=z,z=w");
	no_match("x", "y=z");
	no_match("!x", "x=z");
	no_match("x>1", "x=0");
	no_match("x<1", "x=2");
	no_match("x>1", "x=v2");
	no_match("x>1", "");
	match("foo=bar,baz=blah", "foo=bar,baz=blah");
	no_match("foo=bar,foobar=bar,baz=blah", "foo=bar,baz=blah");
	match("x in (foo),y notin (alpha)", "x=foo,y=baz");
	no_match("x in (foo),y in (alpha)", "x=foo,y=baz");
	match("x notin (),y", "y=");
	no_match("x notin (),y", "x=,y=");
	no_match("x notin (),!y", "y=");
	no_match("x in ()", "y=baz");
	match("x in ()", "x=");
	/* != and notin match an object without the label */
	match("x!=y", "");
	match("x notin (a,b)", "z=a");
	no_match("x notin (a,b)", "x=b");
	match("x==y", "x=y");
	match("x=", "x=");
	no_match("x=", "");
	no_match("!x", "x=");
	match("x in (a,,b)", "x=");
	match("x in (b , a)", "x=a");
	match("x<10", "x=9");
	no_match("x>9223372036854775807", "x=99999999999999999999");
}

int main(void)
{
	syntax();
	keys_and_values();
	matching();
	return tap_done();
}
