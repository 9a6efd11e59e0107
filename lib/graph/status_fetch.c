#include "status_fetch.h"

#include <stdlib.h>
#include <string.h>

#include "api_path.h"
#include "grow.h"
#include "json.h"
#include "list_items.h"
#include "list_page.h"
#include "list_proto.h"
#include "object_status_proto.h"
#include "scan.h"

/* Kinds read from protobuf when the server sends it (every built-in one
 * does): their whole objects cost the server and owners several times
 * less than their JSON. */
#define PROTOBUF_OR_JSON OWNERS_PROTOBUF_TYPE ", application/json"

/* The printed objects of one type in one namespace. */
struct group {
	const struct owners_resource *resource;
	const char *namespace_;
	size_t count;
};

struct run {
	struct owners_object_status *out;
	struct owners_graph *g;
	struct owners_http_client *client;
	const unsigned char *wanted;
	long chunk_size; /* 0: pages grow as the scan's do */
};

struct fetch {
	struct owners_http_request req;
	struct run *run;
	uint32_t node;                   /* a GET: the object */
	const struct group *group;       /* a list: what it lists */
	struct owners_list_items *items;
	/* A list of a kind with a protobuf schema: its pages in protobuf,
	 * when the server sends that (proto_page: this page's is). */
	const struct owners_proto_schema *schema;
	struct owners_list_proto *proto;
	int proto_page, page_seen;
	int restarts;                    /* a list: 410 Gone restarts */
	size_t pages;                    /* a list: pages asked for so far */
};


static void got_object(struct run *run, uint32_t node,
		       const struct owners_json_value *object)
{
	owners_object_status_read(&run->out[node], run->g->nodes[node].place->kind, object);
}

static void get_done(void *ctx, struct owners_http_request *req)
{
	struct fetch *f = ctx;
	struct owners_json_value *v = NULL;

	if (req->err.code || owners_json_parse(&v, req->response.ptr, req->response.len, NULL))
		return;
	got_object(f->run, f->node, v);
	owners_json_value_free(v);
	/* The body is not needed any more; free it early on big trees. */
	owners_buf_clear(&req->response);
}

/* A listed item, read (v, freed here; NULL: it did not read, and only
 * loses its own columns): the status of its node, if printed. */
static int got_item(struct fetch *f, struct owners_json_value *v)
{
	const char *uid = owners_json_string(owners_json_path(v, "metadata", "uid", NULL));
	uint32_t node = uid ? owners_graph_find_uid(f->run->g, uid) : OWNERS_NO_NODE;

	if (node != OWNERS_NO_NODE && f->run->wanted[node])
		got_object(f->run, node, v);
	owners_json_value_free(v);
	return 0;
}

static int on_list_item(void *ctx, const char *item, size_t len, struct owners_error *err)
{
	struct owners_json_value *v = NULL;

	(void)err;
	return got_item(ctx, owners_json_parse(&v, item, len, NULL) ? NULL : v);
}

/* An item of a protobuf list: read as its JSON would be. */
static int on_proto_item(void *ctx, const char *item, size_t len, struct owners_error *err)
{
	struct fetch *f = ctx;
	struct owners_json_value *v = NULL;

	(void)err;
	return got_item(f, owners_proto_tree(&v, f->schema, item, len) ? NULL : v);
}

static int on_list_data(void *ctx, const char *data, size_t len)
{
	struct fetch *f = ctx;
	const struct owners_buf *type = &f->req.response_type;

	if (!f->page_seen) {
		f->page_seen = 1;
		f->proto_page = f->schema && type->len >= strlen(OWNERS_PROTOBUF_TYPE) &&
				!strncmp(type->ptr, OWNERS_PROTOBUF_TYPE, strlen(OWNERS_PROTOBUF_TYPE));
		if (f->proto_page && !f->proto) {
			if (owners_list_proto_new(&f->proto, NULL, NULL))
				return 1;
			owners_list_proto_raw_items(f->proto, on_proto_item, f);
		}
	}
	if (f->proto_page)
		return owners_list_proto_feed(f->proto, data, len, NULL) ? 1 : 0;
	return owners_list_items_feed(f->items, data, len, NULL);
}

static void page_reset(struct fetch *f)
{
	owners_list_items_reset(f->items);
	if (f->proto)
		owners_list_proto_reset(f->proto);
	f->page_seen = f->proto_page = 0;
}

static void on_list_attempt(void *ctx)
{
	page_reset(ctx);
}

static int list_page(struct fetch *f, const char *cont)
{
	struct owners_http_request *r = &f->req;
	int rc;

	owners_buf_reset(&r->path);
	rc = owners_list_page_path(&r->path,
				   &(const struct owners_list_page){
					   f->group->resource, f->group->namespace_,
					   owners_list_page_limit((size_t)f->run->chunk_size,
								  cont && *cont ? f->pages : 0),
					   NULL, cont });
	f->pages = cont && *cont ? f->pages + 1 : 1;
	page_reset(f);
	r->accept = f->schema ? PROTOBUF_OR_JSON : NULL;
	return rc ? rc : owners_http_submit(f->run->client, r);
}

static void list_done(void *ctx, struct owners_http_request *req)
{
	struct fetch *f = ctx;
	char *cont;

	if (req->err.code) {
		/* The continue token expired: start the list again, once. */
		if (req->status == 410 && !f->restarts++)
			list_page(f, NULL);
		return;
	}
	if (f->proto_page) {
		if (owners_list_proto_finish(f->proto, &cont, NULL))
			return;
	} else {
		if (owners_list_items_finish(f->items, NULL))
			return;
		cont = owners_strdup(owners_list_items_continue(f->items));
	}
	if (cont && *cont)
		list_page(f, cont);
	free(cont);
}

/* The group of node's type and namespace, added when new. */
static struct group *group_of(struct group **groups, size_t *n, size_t *cap, const struct owners_node *node,
			      int all_namespaces)
{
	const char *ns = all_namespaces ? NULL : node->place->namespace_;
	size_t i;

	for (i = 0; i < *n; i++)
		if ((*groups)[i].resource == node->place->resource && (*groups)[i].namespace_ == ns)
			return &(*groups)[i];
	if (OWNERS_GROW(*groups, *cap, *n + 1))
		return NULL;
	(*groups)[*n].resource = node->place->resource;
	(*groups)[*n].namespace_ = ns;
	(*groups)[*n].count = 0;
	return &(*groups)[(*n)++];
}

int owners_status_fetch(struct owners_object_status *out, struct owners_graph *g,
			const struct owners_node_list *list, struct owners_http_client *c,
			const struct owners_status_fetch_options *o, struct owners_error *err)
{
	const uint32_t *nodes = list->nodes;
	size_t n = list->n;
	struct run run = { out, g, c, NULL, o && o->chunk_size > 0 ? o->chunk_size : 0 };
	size_t get_max = o && o->get_max ? o->get_max : OWNERS_STATUS_GET_MAX;
	int all = o && o->all_namespaces;
	unsigned char *wanted = calloc(g->count ? g->count : 1, 1);
	struct group *groups = NULL;
	struct fetch *fetches = NULL;
	size_t i, n_groups = 0, cap_groups = 0, used = 0;
	int rc = 0;

	run.wanted = wanted;
	fetches = calloc(n + 1, sizeof(*fetches));
	if (!wanted || !fetches)
		goto oom;
	/* Namespaces are interned: one pointer per namespace, so pointers
	 * compare as names do. */
	for (i = 0; i < n; i++) {
		const struct owners_node *node = &g->nodes[nodes[i]];
		struct group *grp;

		/* A node can appear on several rows (several owners, cycles). */
		if (node->virtual_ || !node->place->resource || !node->place->resource->has_status || wanted[nodes[i]])
			continue;
		wanted[nodes[i]] = 1;
		if (!(grp = group_of(&groups, &n_groups, &cap_groups, node, all)))
			goto oom;
		grp->count++;
	}
	for (i = 0; !rc && i < n_groups; i++) {
		struct fetch *f;

		if (groups[i].count <= get_max)
			continue;
		f = &fetches[used++];
		owners_http_request_init(&f->req);
		f->run = &run;
		f->group = &groups[i];
		f->req.on_done = list_done;
		f->req.on_data = on_list_data;
		f->req.on_attempt = on_list_attempt;
		f->req.ctx = f;
		if (!o || !o->json_only)
			f->schema = owners_object_status_proto_schema(groups[i].resource->group,
								      groups[i].resource->kind);
		rc = owners_list_items_new(&f->items, on_list_item, f);
		if (!rc)
			rc = list_page(f, NULL);
	}
	for (i = 0; !rc && i < n; i++) {
		const struct owners_node *node = &g->nodes[nodes[i]];
		struct fetch *f;

		if (!wanted[nodes[i]] || group_of(&groups, &n_groups, &cap_groups, node, all)->count > get_max ||
		    wanted[nodes[i]] == 2)
			continue;
		wanted[nodes[i]] = 2; /* one GET, however many rows show it */
		f = &fetches[used++];
		owners_http_request_init(&f->req);
		f->run = &run;
		f->node = nodes[i];
		f->req.on_done = get_done;
		f->req.ctx = f;
		rc = owners_api_path_object(&f->req.path, node->place->resource, node->place->namespace_, node->name, NULL);
		if (!rc)
			rc = owners_http_submit(c, &f->req);
	}
	if (!rc)
		rc = owners_http_run(c, err);
	else
		owners_error_oom(err);
	for (i = 0; i < used; i++) {
		owners_http_request_clear(&fetches[i].req);
		owners_list_items_free(fetches[i].items);
		owners_list_proto_free(fetches[i].proto);
	}
	free(fetches);
	free(groups);
	free(wanted);
	return rc;
oom:
	free(fetches);
	free(groups);
	free(wanted);
	return owners_error_oom(err);
}
