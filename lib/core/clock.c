#include "clock.h"

#include <time.h>

int64_t owners_clock_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

int64_t owners_clock_ms(void)
{
	return owners_clock_us() / 1000;
}

int64_t owners_clock_wall(void)
{
	return (int64_t)time(NULL);
}
