/* String vectors (see strv.h). */
#include <stdlib.h>

#include "strv.h"

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
