/*
 * The clocks, read here and nowhere else. Durations: milliseconds on
 * CLOCK_MONOTONIC, which neither jumps with the wall clock nor goes back,
 * so deadlines, waits and frame intervals measured with it hold across an
 * NTP step. The wall clock, in unix seconds: what an age is counted to.
 */
#ifndef OWNERS_CLOCK_H
#define OWNERS_CLOCK_H

#include <stdint.h>

int64_t owners_clock_ms(void);
/* The same in microseconds (the HTTP client's waits). */
int64_t owners_clock_us(void);
int64_t owners_clock_wall(void);

#endif
