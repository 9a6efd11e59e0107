/* The client-side token bucket (lib/client/rate_limit.h), on a clock the
 * test sets: starts full, refills at qps, waits when empty, never holds
 * more than burst. */
#include <stdint.h>

#include "rate_limit.h"
#include "tap.h"

int main(void)
{
	struct owners_rate_limit b;
	int i, free_ = 1;

	owners_rate_limit_init(&b, 10, 3, 0);
	for (i = 0; i < 3; i++)
		free_ &= owners_rate_limit_take(&b, 0) == 0;
	ok(free_, "a full bucket: burst (3) requests at once");
	is_int(owners_rate_limit_take(&b, 0), 100001, "then empty: the next token is 100 ms away (+1 us)");
	is_int(owners_rate_limit_take(&b, 50000), 50001, "half way there: 50 ms more");
	is_int(owners_rate_limit_take(&b, 100000), 0, "at 100 ms: a token (10 a second)");
	is_int(owners_rate_limit_take(&b, 100000), 100001, "and empty again");
	/* a long pause refills to burst, no more */
	for (i = 0, free_ = 1; i < 3; i++)
		free_ &= owners_rate_limit_take(&b, 60000000) == 0;
	ok(free_, "after a minute idle: burst tokens");
	ok(owners_rate_limit_take(&b, 60000000) > 0, "not more than burst");

	owners_rate_limit_init(&b, 5, 0, 0);
	is_int(b.burst, 1, "burst 0 is taken as 1");
	is_int(owners_rate_limit_take(&b, 0), 0, "one token to start with");
	is_int(owners_rate_limit_take(&b, 0), 200001, "then one each 200 ms");

	owners_rate_limit_init(&b, 0, 1, 0);
	for (i = 0, free_ = 1; i < 1000; i++)
		free_ &= owners_rate_limit_take(&b, 0) == 0;
	ok(free_, "qps 0: no limit");
	owners_rate_limit_init(&b, -1, 1, 0);
	is_int(owners_rate_limit_take(&b, 0) + owners_rate_limit_take(&b, 0), 0, "qps < 0: no limit");
	return tap_done();
}
