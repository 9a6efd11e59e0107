#include "node_table.h"

#include <stdlib.h>

#include "owners_error.h"

int owners_node_table_reset(struct owners_node_table *t, size_t cap)
{
	uint32_t *slots = calloc(cap, sizeof(*slots));

	if (!slots)
		return OWNERS_ENOMEM;
	free(t->slots);
	t->slots = slots;
	t->cap = cap;
	/* at most three slots in four hold a node, so index + 1 < cap */
	t->index_mask = cap - 1 >= UINT32_MAX ? UINT32_MAX : (uint32_t)(cap - 1);
	return 0;
}

void owners_node_table_clear(struct owners_node_table *t)
{
	free(t->slots);
	t->slots = NULL;
	t->cap = 0;
	t->index_mask = 0;
}

size_t owners_node_table_cap_for(size_t count)
{
	size_t cap = 1024;

	while (cap * 3 < count * 4 + 4)
		cap *= 2;
	return cap;
}
