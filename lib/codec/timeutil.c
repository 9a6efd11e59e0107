#include "timeutil.h"

#include <time.h>

#include "owners_error.h"

/* Reads exactly n decimal digits; -1 when one is missing. */
static int digits(const char **s, int n)
{
	int v = 0;

	while (n--) {
		if (**s < '0' || **s > '9')
			return -1;
		v = v * 10 + (**s - '0');
		(*s)++;
	}
	return v;
}

static int expect(const char **s, char c)
{
	if (**s != c)
		return -1;
	(*s)++;
	return 0;
}

/* Days from 1970-01-01 to the date (the proleptic Gregorian calendar),
 * by arithmetic: timegm() costs a tenth of reading a graph, which reads
 * two times an object, and is not in POSIX. Years are counted from March,
 * so that the leap day ends a year; a 400-year era holds 146097 days. */
static int64_t days_since_epoch(int year, int month, int day)
{
	int64_t y = year - (month <= 2), era = (y >= 0 ? y : y - 399) / 400;
	int64_t year_of_era = y - era * 400;
	int64_t day_of_year = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
	int64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;

	return era * 146097 + day_of_era - 719468; /* 719468: 0000-03-01 to 1970-01-01 */
}

static int days_in_month(int year, int month)
{
	static const int days[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };

	if (month == 2 && year % 4 == 0 && (year % 100 != 0 || year % 400 == 0))
		return 29;
	return days[month - 1];
}

int owners_time_parse_rfc3339(int64_t *out, const char *s)
{
	int year, mon, day, hour, min, sec, oh = 0, om = 0, sign = 0;
	int64_t t;

	if (!s)
		return -1;
	if ((year = digits(&s, 4)) < 0 || expect(&s, '-') || (mon = digits(&s, 2)) < 0 ||
	    expect(&s, '-') || (day = digits(&s, 2)) < 0)
		return -1;
	/* RFC 3339 allows a lowercase 't' and 'z'. */
	if (*s != 'T' && *s != 't')
		return -1;
	s++;
	if ((hour = digits(&s, 2)) < 0 || expect(&s, ':') || (min = digits(&s, 2)) < 0 ||
	    expect(&s, ':') || (sec = digits(&s, 2)) < 0)
		return -1;
	if (*s == '.') {
		/* The fraction only needs to be well formed: ages are whole seconds. */
		s++;
		if (*s < '0' || *s > '9')
			return -1;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	if (*s == 'Z' || *s == 'z') {
		s++;
	} else if (*s == '+' || *s == '-') {
		sign = *s++ == '-' ? -1 : 1;
		if ((oh = digits(&s, 2)) < 0 || expect(&s, ':') || (om = digits(&s, 2)) < 0)
			return -1;
	} else {
		return -1;
	}
	if (*s)
		return -1;
	/* Go's time.Parse rejects leap seconds (60) too, so the server never
	 * sends them. */
	if (mon < 1 || mon > 12 || day < 1 || day > days_in_month(year, mon) || hour > 23 ||
	    min > 59 || sec > 59 || oh > 23 || om > 59)
		return -1;
	t = days_since_epoch(year, mon, day) * 86400 + hour * 3600 + min * 60 + sec;
	/* A local time ahead of UTC (+hh:mm) is that much earlier in UTC. */
	*out = t - sign * (int64_t)(oh * 3600 + om * 60);
	return 0;
}

/* The rules of k8s.io/apimachinery/pkg/util/duration.HumanDuration, which
 * kubectl uses for its AGE column, so both tools print the same thing. */
int owners_time_format_age(struct owners_buf *out, int64_t seconds)
{
	int64_t minutes, hours, days;

	/* Up to a second in the future is clock skew between us and the server. */
	if (seconds < -1)
		return owners_buf_adds(out, "<invalid>");
	if (seconds < 0)
		return owners_buf_adds(out, "0s");
	if (seconds < 2 * 60)
		return owners_buf_addf(out, "%llds", (long long)seconds);
	minutes = seconds / 60;
	if (minutes < 10) {
		if (seconds % 60 == 0)
			return owners_buf_addf(out, "%lldm", (long long)minutes);
		return owners_buf_addf(out, "%lldm%llds", (long long)minutes,
				       (long long)(seconds % 60));
	}
	if (minutes < 3 * 60)
		return owners_buf_addf(out, "%lldm", (long long)minutes);
	hours = seconds / 3600;
	if (hours < 8) {
		if (minutes % 60 == 0)
			return owners_buf_addf(out, "%lldh", (long long)hours);
		return owners_buf_addf(out, "%lldh%lldm", (long long)hours,
				       (long long)(minutes % 60));
	}
	if (hours < 48)
		return owners_buf_addf(out, "%lldh", (long long)hours);
	days = hours / 24;
	if (hours < 24 * 8) {
		if (hours % 24 == 0)
			return owners_buf_addf(out, "%lldd", (long long)days);
		return owners_buf_addf(out, "%lldd%lldh", (long long)days, (long long)(hours % 24));
	}
	if (hours < 24 * 365 * 2)
		return owners_buf_addf(out, "%lldd", (long long)days);
	if (hours < 24 * 365 * 8) {
		if (days % 365 == 0)
			return owners_buf_addf(out, "%lldy", (long long)(days / 365));
		return owners_buf_addf(out, "%lldy%lldd", (long long)(days / 365),
				       (long long)(days % 365));
	}
	return owners_buf_addf(out, "%lldy", (long long)(days / 365));
}
