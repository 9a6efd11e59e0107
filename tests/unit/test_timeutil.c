/* RFC 3339 timestamps and kubectl's AGE column. */
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "buf.h"
#include "tap.h"
#include "timeutil.h"

static int64_t parsed(const char *s)
{
	int64_t t = -12345;

	if (owners_time_parse_rfc3339(&t, s))
		return -99999;
	return t;
}

static const char *age(int64_t seconds)
{
	static struct owners_buf out = OWNERS_BUF_INIT;

	owners_buf_clear(&out);
	if (seconds == INT64_MIN)
		return NULL; /* frees the buffer at the end */
	owners_buf_adds(&out, "[");
	owners_time_format_age(&out, seconds);
	/* Appending: what was there stays. */
	return out.ptr[0] == '[' ? out.ptr + 1 : "not appended";
}

int main(void)
{
	const int64_t m = 60, h = 3600, d = 86400;

	/* parsing */
	is_int(parsed("1970-01-01T00:00:00Z"), 0, "the epoch");
	is_int(parsed("2024-05-01T10:00:00Z"), 1714557600, "a Kubernetes creationTimestamp");
	is_int(parsed("2024-05-01T10:00:00.123456789Z"), 1714557600, "a fraction is dropped");
	is_int(parsed("2024-05-01T10:00:00.9Z"), 1714557600, "a fraction never rounds up");
	is_int(parsed("2024-05-01T12:00:00+02:00"), 1714557600, "a positive offset");
	is_int(parsed("2024-05-01T05:30:00-04:30"), 1714557600, "a negative offset with minutes");
	is_int(parsed("2024-05-01T10:00:00.5-00:00"), 1714557600, "a fraction and an offset");
	is_int(parsed("2024-05-01t10:00:00z"), 1714557600, "lowercase t and z (RFC 3339 5.6)");
	is_int(parsed("2024-02-29T00:00:00Z"), 1709164800, "29 February of a leap year");
	is_int(parsed("2000-02-29T00:00:00Z"), 951782400, "2000 is a leap year");
	is_int(parsed("1969-12-31T23:59:59Z"), -1, "before the epoch");
	is_int(parsed("2262-04-12T00:00:00Z"), 9223372800LL, "far future (64-bit)");
	is_int(parsed("2024-01-01T00:30:00+01:00"), 1704065400, "an offset crossing the year");
	{
		/* the arithmetic against the C library's timegm(), on the first
		 * and the last day of every month from year 1 to 9999 */
		int year, mon, bad = 0, checked = 0;

		for (year = 1; year <= 9999; year += year < 1500 || year > 2500 ? 7 : 1)
			for (mon = 1; mon <= 12; mon++) {
				int day;

				for (day = 1; day <= 31; day += 27) {
					struct tm tm = { 0 };
					char text[96]; /* (room for any int, as the compiler counts) */
					int64_t t;

					tm.tm_year = year - 1900;
					tm.tm_mon = mon - 1;
					tm.tm_mday = day;
					tm.tm_hour = 23;
					tm.tm_min = 59;
					tm.tm_sec = 58;
					snprintf(text, sizeof(text), "%04d-%02d-%02dT23:59:58Z",
						 year, mon, day);
					if (owners_time_parse_rfc3339(&t, text))
						continue; /* 31 in a short month: refused, as above */
					checked++;
					if (t != (int64_t)timegm(&tm) && bad++ < 3)
						printf("# %s: %lld, timegm %lld\n", text,
						       (long long)t, (long long)timegm(&tm));
				}
			}
		is_int(bad, 0, "every one of %d dates from year 1 to 9999 as timegm() has it",
		       checked);
	}

	is_int(parsed("2023-02-29T00:00:00Z"), -99999, "29 February of a common year");
	is_int(parsed("1900-02-29T00:00:00Z"), -99999, "1900 is not a leap year");
	is_int(parsed("2024-04-31T00:00:00Z"), -99999, "31 April");
	is_int(parsed("2024-13-01T00:00:00Z"), -99999, "month 13");
	is_int(parsed("2024-00-01T00:00:00Z"), -99999, "month 0");
	is_int(parsed("2024-01-00T00:00:00Z"), -99999, "day 0");
	is_int(parsed("2024-01-01T24:00:00Z"), -99999, "hour 24");
	is_int(parsed("2024-01-01T00:60:00Z"), -99999, "minute 60");
	is_int(parsed("2016-12-31T23:59:60Z"), -99999, "leap second 60 (Go rejects it too)");
	is_int(parsed("2024-01-01T00:00:00"), -99999, "no zone");
	is_int(parsed("2024-01-01 00:00:00Z"), -99999, "a space instead of T");
	is_int(parsed("2024-01-01T00:00:00.Z"), -99999, "an empty fraction");
	is_int(parsed("2024-01-01T00:00:00+0100"), -99999, "an offset without a colon");
	is_int(parsed("2024-01-01T00:00:00+24:00"), -99999, "an offset of 24 hours");
	is_int(parsed("2024-01-01T00:00:00Zjunk"), -99999, "trailing text");
	is_int(parsed("24-01-01T00:00:00Z"), -99999, "a two-digit year");
	is_int(parsed("2024-1-01T00:00:00Z"), -99999, "a one-digit month");
	is_int(parsed(""), -99999, "an empty string");
	is_int(parsed("2024-01-01T00:00"), -99999, "truncated");
	is_int(parsed(NULL), -99999, "NULL");

	/* ages: k8s.io/apimachinery/pkg/util/duration.HumanDuration */
	is_str(age(-5), "<invalid>", "more than a second in the future is invalid");
	is_str(age(-2), "<invalid>", "two seconds in the future is invalid");
	is_str(age(-1), "0s", "one second in the future is clock skew");
	is_str(age(0), "0s", "zero");
	is_str(age(59), "59s", "59 seconds");
	is_str(age(75), "75s", "seconds up to two minutes");
	is_str(age(119), "119s", "119 seconds");
	is_str(age(120), "2m", "two minutes, no seconds");
	is_str(age(200), "3m20s", "minutes and seconds below ten minutes");
	is_str(age(9 * m + 59), "9m59s", "just under ten minutes");
	is_str(age(10 * m), "10m", "ten minutes");
	is_str(age(10 * m + 30), "10m", "seconds dropped from ten minutes on");
	is_str(age(3 * h - 1), "179m", "minutes up to three hours");
	is_str(age(3 * h), "3h", "three hours");
	is_str(age(3 * h + 5 * m + 7), "3h5m", "hours and minutes below eight hours");
	is_str(age(8 * h - 1), "7h59m", "just under eight hours");
	is_str(age(8 * h + 59 * m), "8h", "minutes dropped from eight hours on");
	is_str(age(47 * h + 59 * m), "47h", "hours up to two days");
	is_str(age(48 * h), "2d", "two days");
	is_str(age(2 * d + 5 * h), "2d5h", "days and hours below eight days");
	is_str(age(8 * d - 1), "7d23h", "just under eight days");
	is_str(age(8 * d + 23 * h), "8d", "hours dropped from eight days on");
	is_str(age(729 * d), "729d", "days up to two years");
	is_str(age(730 * d), "2y", "two years");
	is_str(age(730 * d + 40 * d), "2y40d", "years and days below eight years");
	is_str(age(8 * 365 * d - 1), "7y364d", "just under eight years");
	is_str(age(8 * 365 * d + 100 * d), "8y", "years only from eight years on");
	is_str(age(100 * 365 * d), "100y", "a century");
	age(INT64_MIN);
	return tap_done();
}
