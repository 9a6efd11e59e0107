/* Go's time.ParseDuration grammar (lib/codec/duration.c): what kubectl's
 * --timeout accepts, and nothing else. */
#include <stdint.h>

#include "duration.h"
#include "owners_error.h"
#include "tap.h"

static void good(const char *s, int64_t want)
{
	int64_t ns = -42;
	const char *why = NULL;
	int rc = owners_duration_parse(&ns, s, &why);

	ok(rc == 0 && ns == want, "'%s' is %lld ns (got %lld, rc %d%s%s)", s, (long long)want, (long long)ns, rc,
	   why ? ": " : "", why ? why : "");
}

static void bad(const char *s, const char *want_why)
{
	int64_t ns = -42;
	const char *why = NULL;
	int rc = owners_duration_parse(&ns, s, &why);

	ok(rc == OWNERS_EINVAL && ns == -42, "'%s' is refused, *ns untouched", s);
	is_str(why ? why : "(none)", want_why, "'%s': %s", s, want_why);
}

#define S 1000000000LL

int main(void)
{
	good("0", 0);
	good("-0", 0);
	good("+0", 0);
	good("0s", 0);
	good("5s", 5 * S);
	good("30s", 30 * S);
	good("1m30s", 90 * S);
	good("1h2m3.5s", 3723 * S + S / 2);
	good("500ms", 500000000LL);
	good("1.5h", 5400 * S);
	good(".5s", S / 2);
	good("1.s", S);
	good("100us", 100000);
	good("100\xc2\xb5s", 100000);
	good("100\xce\xbcs", 100000);
	good("7ns", 7);
	good("1000000h", 1000000LL * 3600 * S);
	good("2562047h", 2562047LL * 3600 * S);
	good("0.000000001s", 1);
	good("1.0000000001s", S); /* digits past a nanosecond are dropped, as in Go */
	good("-1m", -60 * S);
	good("3h0m0s", 3 * 3600 * S);
	bad("", "not a duration");
	bad("5", "missing unit");
	bad("1.5", "missing unit");
	bad("0x10", "unknown unit");
	bad("1e9s", "unknown unit");
	bad("nan", "not a duration");
	bad("inf", "not a duration");
	bad("-", "not a duration");
	bad(".", "not a duration");
	bad(".s", "not a duration");
	bad("s", "not a duration");
	bad("5 s", "unknown unit");
	bad("5sec", "unknown unit");
	bad("5mx", "unknown unit");
	bad("1d", "unknown unit");
	bad("3000000h", "out of range");
	bad("9223372036854775808ns", "out of range");
	bad("99999999999999999999s", "out of range");
	bad("2562047h48m", "out of range");
	bad("1s-1s", "unknown unit"); /* Go reads "s-" as the unit */
	return tap_done();
}
