#include "strset.h"

#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "buf.h"

void owners_strset_init(struct owners_strset *s)
{
	memset(s, 0, sizeof(*s));
}

void owners_strset_clear(struct owners_strset *s)
{
	size_t i;

	for (i = 0; i < s->cap; i++) {
		free(s->slots[i].key);
		free(s->slots[i].value);
	}
	free(s->slots);
	owners_strset_init(s);
}

static struct owners_strset_entry *find(const struct owners_strset_entry *slots, size_t cap,
					const char *key)
{
	size_t j = owners_arena_hash(key, strlen(key)) & (cap - 1);

	while (slots[j].key && strcmp(slots[j].key, key))
		j = (j + 1) & (cap - 1);
	return (struct owners_strset_entry *)&slots[j];
}

static int grow(struct owners_strset *s)
{
	size_t cap = s->cap ? s->cap * 2 : 64, i;
	struct owners_strset_entry *slots = calloc(cap, sizeof(*slots));

	if (!slots)
		return -1;
	for (i = 0; i < s->cap; i++)
		if (s->slots[i].key)
			*find(slots, cap, s->slots[i].key) = s->slots[i];
	free(s->slots);
	s->slots = slots;
	s->cap = cap;
	return 0;
}

struct owners_strset_entry *owners_strset_get(const struct owners_strset *s, const char *key)
{
	struct owners_strset_entry *e;

	if (!s->cap)
		return NULL;
	e = find(s->slots, s->cap, key);
	return e->key ? e : NULL;
}

struct owners_strset_entry *owners_strset_add(struct owners_strset *s, const char *key,
					      const char *value)
{
	struct owners_strset_entry *e;

	if ((s->count + 1) * 2 > s->cap && grow(s))
		return NULL;
	e = find(s->slots, s->cap, key);
	if (e->key)
		return e;
	e->key = owners_strdup(key);
	e->value = value ? owners_strdup(value) : NULL;
	if (!e->key || (value && !e->value)) {
		free(e->key);
		free(e->value);
		e->key = e->value = NULL;
		return NULL;
	}
	e->flag = 0;
	s->count++;
	return e;
}
