#include "snapshot_dump_podclaims.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"

void owners_snapshot_dump_podclaims_init(struct owners_snapshot_dump_podclaims *p)
{
	memset(p, 0, sizeof(*p));
	owners_strset_init(&p->index);
}

void owners_snapshot_dump_podclaims_clear(struct owners_snapshot_dump_podclaims *p)
{
	size_t i;

	for (i = 0; i < p->count; i++) {
		free(p->items[i].namespace_);
		owners_buf_clear(&p->items[i].pods);
	}
	free(p->items);
	owners_strset_clear(&p->index);
	owners_snapshot_dump_podclaims_init(p);
}

static int is_core(const struct owners_resource *type, const char *kind)
{
	return !*type->group && !strcmp(type->version, "v1") && !strcmp(type->kind, kind);
}

/* A volume the pvc-protection controller looks at. */
static int mounts_claim(const struct owners_json_value *pod)
{
	const struct owners_json_value *vols = owners_json_path(pod, "spec", "volumes", NULL);
	size_t i;

	for (i = 0; vols && vols->type == OWNERS_JSON_ARRAY && i < vols->count; i++)
		if (owners_json_get(vols->items[i], "persistentVolumeClaim") ||
		    owners_json_get(vols->items[i], "ephemeral"))
			return 1;
	return 0;
}

static struct owners_snapshot_dump_podclaims_ns *entry(struct owners_snapshot_dump_podclaims *p,
						       const char *ns)
{
	struct owners_strset_entry *e = owners_strset_get(&p->index, ns);
	struct owners_snapshot_dump_podclaims_ns *n;
	char at[32];

	if (e)
		return &p->items[strtoul(e->value, NULL, 10)];
	snprintf(at, sizeof(at), "%zu", p->count);
	if (OWNERS_GROW(p->items, p->cap, p->count + 1) || !owners_strset_add(&p->index, ns, at))
		return NULL;
	n = &p->items[p->count];
	memset(n, 0, sizeof(*n));
	owners_buf_init(&n->pods);
	if (!(n->namespace_ = owners_strdup(ns)))
		return NULL; /* the index names an entry not counted: never read */
	p->count++;
	return n;
}

static int add_pod(struct owners_buf *pods, const struct owners_json_value *pod)
{
	struct owners_json_gen *g;
	int rc;

	if (pods->len && owners_buf_addc(pods, ','))
		return OWNERS_ENOMEM;
	if (owners_json_gen_new(&g, pods, 0))
		return OWNERS_ENOMEM;
	owners_json_gen_value(g, pod);
	rc = owners_json_gen_error(g);
	owners_json_gen_free(g);
	/* A document ends with a newline: not inside the list. */
	if (!rc && pods->len && pods->ptr[pods->len - 1] == '\n')
		owners_buf_truncate(pods, pods->len - 1);
	return rc;
}

int owners_snapshot_dump_podclaims_note(struct owners_snapshot_dump_podclaims *p,
					const struct owners_resource *type,
					const struct owners_object_meta *m,
					const struct owners_json_value *object)
{
	struct owners_snapshot_dump_podclaims_ns *n;
	int claim = is_core(type, "PersistentVolumeClaim");

	if (!*m->namespace_ || (!claim && !(is_core(type, "Pod") && mounts_claim(object))))
		return 0;
	if (!(n = entry(p, m->namespace_)))
		return OWNERS_ENOMEM;
	if (claim) {
		n->has_claim = 1;
		return 0;
	}
	return add_pod(&n->pods, object);
}

/* The dump holds every pod of ns. */
static int pods_whole(const struct owners_snapshot_dump_claims *claims, const char *ns)
{
	size_t i;

	for (i = 0; i < claims->count; i++) {
		const struct owners_snapshot_dump_claim *c = &claims->items[i];

		if (is_core(c->type, "Pod") && (!c->namespace_ || !strcmp(c->namespace_, ns)))
			return 1;
	}
	return 0;
}

int owners_snapshot_dump_podclaims_hand(const struct owners_snapshot_dump_podclaims *p,
					const struct owners_snapshot_dump_claims *claims,
					const struct owners_snapshot_visitor *v)
{
	struct owners_buf json = OWNERS_BUF_INIT;
	struct owners_snapshot_fact f;
	size_t i;
	int rc = 0;

	for (i = 0; !rc && v->fact && i < p->count; i++) {
		const struct owners_snapshot_dump_podclaims_ns *n = &p->items[i];

		if (!n->has_claim || !pods_whole(claims, n->namespace_))
			continue;
		owners_buf_reset(&json);
		if (owners_buf_addf(&json,
				    "{\"kind\":\"PodList\",\"apiVersion\":\"v1\",\"metadata\":{},"
				    "\"items\":[%s]}",
				    n->pods.ptr)) {
			rc = OWNERS_ENOMEM;
			break;
		}
		memset(&f, 0, sizeof(f));
		f.kind = OWNERS_SNAPSHOT_FACT_POD_CLAIMS;
		f.path = n->namespace_;
		f.json = json.ptr;
		f.json_len = json.len;
		rc = v->fact(v->ctx, &f);
	}
	owners_buf_clear(&json);
	return rc;
}
