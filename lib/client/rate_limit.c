/* The client-side token bucket (see rate_limit.h). */
#include "rate_limit.h"

void owners_rate_limit_init(struct owners_rate_limit *b, double qps, int burst, int64_t now_us)
{
	/* client-go: the bucket starts full, and holds at least one token. */
	b->qps = qps;
	b->burst = burst < 1 ? 1 : burst;
	b->tokens = b->burst;
	b->last_us = now_us;
}

int64_t owners_rate_limit_take(struct owners_rate_limit *b, int64_t now_us)
{
	if (b->qps <= 0)
		return 0;
	b->tokens += (double)(now_us - b->last_us) * b->qps / 1e6;
	if (b->tokens > b->burst)
		b->tokens = b->burst;
	b->last_us = now_us;
	if (b->tokens >= 1.0) {
		b->tokens -= 1.0;
		return 0;
	}
	/* The cast rounds down: one microsecond more, so that the token is
	 * there when the wait is over. */
	return (int64_t)((1.0 - b->tokens) * 1e6 / b->qps) + 1;
}
