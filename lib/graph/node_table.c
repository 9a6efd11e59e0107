#include "node_table.h"

#include <stdlib.h>

#include "owners_error.h"

int owners_node_table_reset(struct owners_node_table *t, size_t cap)
{
	uint32_t *slots;
	uint64_t mask = 1;

	/* the first slot is scaled from 32 bits of the hash */
	if (cap > UINT32_MAX || !(slots = calloc(cap, sizeof(*slots))))
		return OWNERS_ENOMEM;
	free(t->slots);
	t->slots = slots;
	t->cap = cap;
	/* at most three slots in four hold a node: index + 1 < cap */
	while (mask < cap)
		mask <<= 1;
	t->index_mask = (uint32_t)(mask - 1);
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
	size_t cap = count + count / 3 + 2;

	return cap < 1024 ? 1024 : cap;
}

size_t owners_node_table_grown_cap(const struct owners_node_table *t)
{
	/* by half: the table is between half and three quarters full */
	return t->cap ? t->cap + t->cap / 2 : 1024;
}
