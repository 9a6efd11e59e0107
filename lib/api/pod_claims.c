#include "pod_claims.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "grow.h"
#include "json.h"

/* The keys the parser cares about; every other key is K_OTHER. A
 * container is pushed with the key it sits under (K_ELEM in an array). */
enum key {
	K_OTHER,
	K_ROOT,
	K_ELEM,
	K_ITEMS,
	K_METADATA,
	K_SPEC,
	K_STATUS,
	K_VOLUMES,
	K_PVC,
	K_EPHEMERAL,
	K_NAME,
	K_CONTINUE,
	K_DELETION_TIMESTAMP,
	K_GRACE,
	K_NODE_NAME,
	K_PHASE,
	K_CLAIM_NAME,
};

static const struct {
	const char *name;
	enum key key;
} keys[] = {
	{ "items", K_ITEMS },
	{ "metadata", K_METADATA },
	{ "spec", K_SPEC },
	{ "status", K_STATUS },
	{ "volumes", K_VOLUMES },
	{ "persistentVolumeClaim", K_PVC },
	{ "ephemeral", K_EPHEMERAL },
	{ "name", K_NAME },
	{ "continue", K_CONTINUE },
	{ "deletionTimestamp", K_DELETION_TIMESTAMP },
	{ "deletionGracePeriodSeconds", K_GRACE },
	{ "nodeName", K_NODE_NAME },
	{ "phase", K_PHASE },
	{ "claimName", K_CLAIM_NAME },
};

struct volume {
	struct owners_buf name;
	struct owners_buf claim;
	int ephemeral;
};

struct owners_pod_claims_parser {
	struct owners_json_parser *json;
	struct owners_pod_claims *into;
	size_t page_start;          /* into->count when the page began */
	unsigned char *stack;       /* enum key per open container */
	size_t depth;
	size_t cap_stack;
	enum key key;               /* the current key in the innermost map */
	int saw_items;
	int failed;                 /* out of memory in a callback */
	struct owners_buf continue_token;
	/* the pod being read */
	struct owners_buf pod, node_name, phase;
	int deleting, grace_zero;
	struct volume *volumes;
	size_t n_volumes;
	size_t cap_volumes;
};

/* ---- results ------------------------------------------------------------ */

static void use_clear(struct owners_pod_claim_use *u)
{
	size_t i;

	free(u->pod);
	free(u->node_name);
	free(u->phase);
	for (i = 0; i < u->n_claims; i++)
		free(u->claims[i]);
	free(u->claims);
	free(u->ephemeral);
	memset(u, 0, sizeof(*u));
}

static void truncate_pods(struct owners_pod_claims *c, size_t count)
{
	while (c->count > count)
		use_clear(&c->pods[--c->count]);
}

void owners_pod_claims_clear(struct owners_pod_claims *c)
{
	if (!c)
		return;
	truncate_pods(c, 0);
	free(c->pods);
	memset(c, 0, sizeof(*c));
}

int owners_pod_references_claim(const struct owners_pod_claim_use *p, const char *claim)
{
	size_t i;

	for (i = 0; i < p->n_claims; i++)
		if (!strcmp(p->claims[i], claim))
			return 1;
	return 0;
}

int owners_pod_holds_claim(const struct owners_pod_claim_use *p, const char *claim)
{
	size_t i;

	/* An unscheduled pod never ran: the kubelet refuses to start one whose
	 * claim is being deleted, so the controller does not count it. */
	if (!*p->node_name)
		return 0;
	for (i = 0; i < p->n_claims; i++)
		if (!strcmp(p->claims[i], claim) && (!p->ephemeral[i] || !p->shut_down))
			return 1;
	return 0;
}

/* ---- the pod being read ------------------------------------------------- */

static void pod_reset(struct owners_pod_claims_parser *p)
{
	size_t i;

	owners_buf_reset(&p->pod);
	owners_buf_reset(&p->node_name);
	owners_buf_reset(&p->phase);
	p->deleting = 0;
	p->grace_zero = 0;
	for (i = 0; i < p->n_volumes; i++) {
		owners_buf_reset(&p->volumes[i].name);
		owners_buf_reset(&p->volumes[i].claim);
		p->volumes[i].ephemeral = 0;
	}
	p->n_volumes = 0;
}

static int volume_begin(struct owners_pod_claims_parser *p)
{
	size_t i = p->cap_volumes;

	if (OWNERS_GROW(p->volumes, p->cap_volumes, p->n_volumes + 1))
		return OWNERS_ENOMEM;
	/* Volumes are reused from pod to pod: each one's buffers are made
	 * once, when the room for it is, and released with the parser. */
	for (; i < p->cap_volumes; i++) {
		owners_buf_init(&p->volumes[i].name);
		owners_buf_init(&p->volumes[i].claim);
		p->volumes[i].ephemeral = 0;
	}
	p->n_volumes++;
	return 0;
}

/* The pod is complete: keep it when it mounts any claim. */
static int pod_commit(struct owners_pod_claims_parser *p)
{
	struct owners_pod_claims *c = p->into;
	struct owners_pod_claim_use *u;
	size_t i, n = 0;

	for (i = 0; i < p->n_volumes; i++)
		if (p->volumes[i].claim.len || p->volumes[i].ephemeral)
			n++;
	if (!n)
		return 0;
	if (OWNERS_GROW(c->pods, c->cap, c->count + 1))
		return OWNERS_ENOMEM;
	u = &c->pods[c->count];
	memset(u, 0, sizeof(*u));
	u->pod = owners_strdup(p->pod.ptr);
	u->node_name = owners_strdup(p->node_name.ptr);
	u->phase = owners_strdup(p->phase.ptr);
	u->shut_down = p->deleting && p->grace_zero;
	u->claims = calloc(n, sizeof(*u->claims));
	u->ephemeral = calloc(n, 1);
	if (!u->pod || !u->node_name || !u->phase || !u->claims || !u->ephemeral)
		goto oom;
	for (i = 0; i < p->n_volumes; i++) {
		const struct volume *v = &p->volumes[i];
		struct owners_buf name = OWNERS_BUF_INIT;

		if (v->ephemeral) {
			/* ephemeral.VolumeClaimName(): the pod's name, a dash, the volume's */
			if (owners_buf_addf(&name, "%s-%s", p->pod.ptr, v->name.ptr))
				goto oom;
			u->ephemeral[u->n_claims] = 1;
		} else if (v->claim.len) {
			if (owners_buf_add(&name, v->claim.ptr, v->claim.len))
				goto oom;
		} else {
			continue;
		}
		if (!(u->claims[u->n_claims] = owners_buf_detach(&name)))
			goto oom;
		u->n_claims++;
	}
	c->count++;
	return 0;
oom:
	use_clear(u);
	return OWNERS_ENOMEM;
}

/* ---- paths -------------------------------------------------------------- */

/* Each open container is its key (enum key) with ARRAY set for arrays. */
#define ARRAY 0x80

/* Whether the open containers are exactly the given keys, root first. */
static int at(const struct owners_pod_claims_parser *p, size_t n, const enum key *path)
{
	size_t i;

	if (p->depth != n)
		return 0;
	for (i = 0; i < n; i++)
		if ((p->stack[i] & ~ARRAY) != path[i])
			return 0;
	return 1;
}

static const enum key P_LIST_META[] = { K_ROOT, K_METADATA };
static const enum key P_ITEM[] = { K_ROOT, K_ITEMS, K_ELEM };
static const enum key P_ITEM_META[] = { K_ROOT, K_ITEMS, K_ELEM, K_METADATA };
static const enum key P_ITEM_SPEC[] = { K_ROOT, K_ITEMS, K_ELEM, K_SPEC };
static const enum key P_ITEM_STATUS[] = { K_ROOT, K_ITEMS, K_ELEM, K_STATUS };
static const enum key P_VOLUME[] = { K_ROOT, K_ITEMS, K_ELEM, K_SPEC, K_VOLUMES, K_ELEM };
static const enum key P_VOLUME_PVC[] = { K_ROOT, K_ITEMS, K_ELEM, K_SPEC, K_VOLUMES, K_ELEM, K_PVC };

#define AT(p, path) at((p), sizeof(path) / sizeof(path[0]), (path))

/* ---- callbacks ---------------------------------------------------------- */

static int fail(struct owners_pod_claims_parser *p, int rc)
{
	p->failed = rc;
	return 1;
}

static int on_string(void *ctx, const char *s, size_t len)
{
	struct owners_pod_claims_parser *p = ctx;
	struct owners_buf *to = NULL;

	if (p->key == K_CONTINUE && AT(p, P_LIST_META))
		to = &p->continue_token;
	else if (p->key == K_NAME && AT(p, P_ITEM_META))
		to = &p->pod;
	else if (p->key == K_DELETION_TIMESTAMP && AT(p, P_ITEM_META))
		p->deleting = len > 0;
	else if (p->key == K_NODE_NAME && AT(p, P_ITEM_SPEC))
		to = &p->node_name;
	else if (p->key == K_PHASE && AT(p, P_ITEM_STATUS))
		to = &p->phase;
	else if (p->key == K_NAME && AT(p, P_VOLUME))
		to = &p->volumes[p->n_volumes - 1].name;
	else if (p->key == K_CLAIM_NAME && AT(p, P_VOLUME_PVC))
		to = &p->volumes[p->n_volumes - 1].claim;
	if (to) {
		owners_buf_reset(to);
		if (owners_buf_add(to, s, len))
			return fail(p, OWNERS_ENOMEM);
	}
	return 0;
}

static int on_number(void *ctx, const char *s, size_t len)
{
	struct owners_pod_claims_parser *p = ctx;

	if (p->key == K_GRACE && AT(p, P_ITEM_META))
		p->grace_zero = len == 1 && s[0] == '0';
	return 0;
}

static int on_key(void *ctx, const char *s, size_t len)
{
	struct owners_pod_claims_parser *p = ctx;
	size_t i;

	p->key = K_OTHER;
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strlen(keys[i].name) == len && !memcmp(keys[i].name, s, len)) {
			p->key = keys[i].key;
			break;
		}
	return 0;
}

static int push(struct owners_pod_claims_parser *p, int array)
{
	unsigned char k;

	if (!p->depth)
		k = K_ROOT;
	else if (p->stack[p->depth - 1] & ARRAY)
		k = K_ELEM;
	else
		k = (unsigned char)p->key;
	if (array && k == K_ITEMS && p->depth == 1)
		p->saw_items = 1;
	if (OWNERS_GROW(p->stack, p->cap_stack, p->depth + 1))
		return fail(p, OWNERS_ENOMEM);
	p->stack[p->depth++] = (unsigned char)(k | (array ? ARRAY : 0));
	p->key = K_OTHER;
	return 0;
}

static int on_start_map(void *ctx)
{
	struct owners_pod_claims_parser *p = ctx;
	int ephemeral = p->key == K_EPHEMERAL && AT(p, P_VOLUME);

	if (push(p, 0))
		return 1;
	if (AT(p, P_ITEM))
		pod_reset(p);
	else if (AT(p, P_VOLUME) && volume_begin(p))
		return fail(p, OWNERS_ENOMEM);
	else if (ephemeral)
		p->volumes[p->n_volumes - 1].ephemeral = 1;
	return 0;
}

static int on_start_array(void *ctx)
{
	return push(ctx, 1);
}

static int pop(struct owners_pod_claims_parser *p)
{
	int rc = 0;

	if (AT(p, P_ITEM))
		rc = pod_commit(p);
	if (p->depth)
		p->depth--;
	p->key = K_OTHER;
	return rc ? fail(p, rc) : 0;
}

static int on_end(void *ctx)
{
	return pop(ctx);
}

static int on_scalar_other(void *ctx)
{
	(void)ctx;
	return 0;
}

static int on_bool(void *ctx, int v)
{
	(void)v;
	return on_scalar_other(ctx);
}

static const struct owners_json_callbacks callbacks = {
	on_scalar_other, on_bool, on_number, on_string, on_start_map,
	on_key,          on_end,  on_start_array, on_end,
};

/* ---- the parser --------------------------------------------------------- */

static int start_document(struct owners_pod_claims_parser *p)
{
	int rc;

	owners_json_parser_free(p->json);
	rc = owners_json_parser_new(&p->json, &callbacks, p);
	p->depth = 0;
	p->key = K_OTHER;
	p->saw_items = 0;
	p->failed = 0;
	owners_buf_reset(&p->continue_token);
	pod_reset(p);
	p->page_start = p->into->count;
	return rc;
}

int owners_pod_claims_parser_new(struct owners_pod_claims_parser **out,
				 struct owners_pod_claims *into)
{
	struct owners_pod_claims_parser *p = calloc(1, sizeof(*p));

	*out = NULL;
	if (!p)
		return OWNERS_ENOMEM;
	p->into = into;
	owners_buf_init(&p->continue_token);
	owners_buf_init(&p->pod);
	owners_buf_init(&p->node_name);
	owners_buf_init(&p->phase);
	if (start_document(p)) {
		owners_pod_claims_parser_free(p);
		return OWNERS_ENOMEM;
	}
	*out = p;
	return 0;
}

void owners_pod_claims_parser_free(struct owners_pod_claims_parser *p)
{
	size_t i;

	if (!p)
		return;
	owners_json_parser_free(p->json);
	free(p->stack);
	owners_buf_clear(&p->continue_token);
	owners_buf_clear(&p->pod);
	owners_buf_clear(&p->node_name);
	owners_buf_clear(&p->phase);
	for (i = 0; i < p->cap_volumes; i++) {
		owners_buf_clear(&p->volumes[i].name);
		owners_buf_clear(&p->volumes[i].claim);
	}
	free(p->volumes);
	free(p);
}

int owners_pod_claims_parser_feed(struct owners_pod_claims_parser *p, const char *data, size_t len,
				  struct owners_error *err)
{
	int rc = owners_json_parser_feed(p->json, data, len, err);

	if (p->failed)
		return p->failed == OWNERS_ENOMEM ? owners_error_oom(err) : p->failed;
	return rc;
}

int owners_pod_claims_parser_finish(struct owners_pod_claims_parser *p, struct owners_error *err)
{
	int rc = owners_json_parser_finish(p->json, err);

	if (p->failed)
		return p->failed == OWNERS_ENOMEM ? owners_error_oom(err) : p->failed;
	if (!rc && !p->saw_items)
		rc = owners_error_set(err, OWNERS_EPROTO, "unexpected pod list response: no 'items'");
	return rc;
}

const char *owners_pod_claims_parser_continue_token(const struct owners_pod_claims_parser *p)
{
	return p->continue_token.ptr;
}

int owners_pod_claims_parser_next_page(struct owners_pod_claims_parser *p)
{
	return start_document(p);
}

int owners_pod_claims_parser_restart_page(struct owners_pod_claims_parser *p)
{
	truncate_pods(p->into, p->page_start);
	return start_document(p);
}
