/*
 * Go's time.ParseDuration, in C (see duration.h). The arithmetic is
 * Go's: the whole part and the fraction's digits are read as integers
 * (never strtod: no NaN, no exponent, no hex), each term scaled by its
 * unit in nanoseconds, every step checked against int64's range; only a
 * fraction is scaled in floating point, as Go does, to stay exact to the
 * nanosecond for fractions of hours.
 */
#include <string.h>

#include "duration.h"
#include "owners_error.h"

#define NS_MAX INT64_MAX

static const struct {
	const char *name;
	int64_t ns;
} units[] = {
	{ "ns", 1 },
	{ "us", 1000 },
	{ "\xc2\xb5s", 1000 }, /* U+00B5 micro sign */
	{ "\xce\xbcs", 1000 }, /* U+03BC Greek small letter mu */
	{ "ms", 1000000 },
	{ "s", 1000000000 },
	{ "m", 60 * (int64_t)1000000000 },
	{ "h", 3600 * (int64_t)1000000000 },
};

static int fail(const char **why, const char *what)
{
	if (why)
		*why = what;
	return OWNERS_EINVAL;
}

/* Digits at *p into *v (saturating: *overflow set past int64); how many. */
static size_t digits(const char **p, uint64_t *v, int *overflow)
{
	size_t n = 0;

	for (; **p >= '0' && **p <= '9'; (*p)++, n++) {
		if (*v > ((uint64_t)NS_MAX - (uint64_t)(**p - '0')) / 10)
			*overflow = 1;
		else
			*v = *v * 10 + (uint64_t)(**p - '0');
	}
	return n;
}

/* The fraction's digits as value/scale, the digits past what int64 holds
 * dropped (they cannot change a nanosecond count). */
static size_t fraction(const char **p, uint64_t *v, uint64_t *scale)
{
	size_t n = 0;

	for (; **p >= '0' && **p <= '9'; (*p)++, n++) {
		if (*scale > (uint64_t)NS_MAX / 10 || *v > ((uint64_t)NS_MAX - 9) / 10)
			continue;
		*v = *v * 10 + (uint64_t)(**p - '0');
		*scale *= 10;
	}
	return n;
}

/* The unit at *p (the longest name that matches): its nanoseconds, 0 when
 * none does. */
static int64_t unit(const char **p)
{
	size_t i, best = 0, len;
	int64_t ns = 0;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		len = strlen(units[i].name);
		if (len > best && !strncmp(*p, units[i].name, len)) {
			best = len;
			ns = units[i].ns;
		}
	}
	/* a unit is followed by a digit, a '.' or the end: "5mx" is no unit */
	if (ns && (*p)[best] && !((*p)[best] >= '0' && (*p)[best] <= '9') && (*p)[best] != '.')
		return 0;
	*p += best;
	return ns;
}

int owners_duration_parse(int64_t *ns, const char *s, const char **why)
{
	const char *p = s;
	uint64_t total = 0;
	int neg = 0;

	if (!s || !*s)
		return fail(why, "not a duration");
	if (*p == '-' || *p == '+')
		neg = *p++ == '-';
	if (!strcmp(p, "0")) {
		*ns = 0;
		return 0;
	}
	if (!*p)
		return fail(why, "not a duration");
	while (*p) {
		uint64_t whole = 0, frac = 0, scale = 1, term;
		int overflow = 0;
		size_t nw, nf = 0;
		int64_t u;

		if (!(*p >= '0' && *p <= '9') && *p != '.')
			return fail(why, "not a duration");
		nw = digits(&p, &whole, &overflow);
		if (*p == '.') {
			p++;
			nf = fraction(&p, &frac, &scale);
		}
		if (!nw && !nf)
			return fail(why, "not a duration"); /* "." alone, ".s" */
		if (!*p)
			return fail(why, "missing unit");
		if (!(u = unit(&p)))
			return fail(why, "unknown unit");
		if (overflow || whole > (uint64_t)NS_MAX / (uint64_t)u)
			return fail(why, "out of range");
		term = whole * (uint64_t)u;
		/* the fraction in nanoseconds, frac/scale * u, without losing it */
		if (frac) {
			double f = (double)frac * ((double)u / (double)scale);

			if (f > (double)NS_MAX)
				return fail(why, "out of range");
			term += (uint64_t)f;
		}
		if (term > (uint64_t)NS_MAX || total > (uint64_t)NS_MAX - term)
			return fail(why, "out of range");
		total += term;
	}
	*ns = neg ? -(int64_t)total : (int64_t)total;
	return 0;
}
