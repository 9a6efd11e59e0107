/* String vectors (see strv.h). */
#include <stdlib.h>

#include "owners_error.h"
#include "grow.h"
#include "strv.h"

int owners_strv_push(char ***v, size_t *n, size_t *cap, char *s)
{
	char **grown = *v;

	if (!s || OWNERS_GROW(grown, *cap, *n + 1)) {
		free(s);
		return OWNERS_ENOMEM;
	}
	*v = grown;
	grown[(*n)++] = s;
	return 0;
}

void owners_strv_free(char **v, size_t n)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void owners_strv_free_terminated(char **v)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; v[i]; i++)
		free(v[i]);
	free(v);
}
