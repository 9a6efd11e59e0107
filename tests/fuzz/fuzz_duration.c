/* libFuzzer target: Go durations (lib/codec/duration.c). Besides not
 * crashing: what is accepted is the grammar's alphabet only, and a sign
 * in front negates it exactly. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "duration.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 2), *neg = s + 1;
	int64_t ns = 0, back = 0;
	const char *why = NULL;

	if (!s)
		return 0;
	s[0] = '-';
	memcpy(neg + 0, data, size);
	neg[size] = '\0';
	if (!memchr(data, '\0', size) && !owners_duration_parse(&ns, neg, &why)) {
		/* digits, '.', '+', '-' and the units' letters (and µ, μ) only */
		for (const char *p = neg; *p; p++)
			if (!strchr("0123456789.+-nsumh\xc2\xb5\xce\xbc", *p))
				abort();
		if (neg[0] != '-' && neg[0] != '+' && (owners_duration_parse(&back, s, &why) || back != -ns))
			abort();
	}
	free(s);
	return 0;
}
