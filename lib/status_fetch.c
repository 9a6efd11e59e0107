#include "status_fetch.h"

#include <stdlib.h>
#include <string.h>

#include "api_path.h"
#include "json.h"

struct fetch {
	struct owners_http_request req;
	struct owners_object_status *slot;
	const char *kind;
};

static void on_done(void *ctx, struct owners_http_request *req)
{
	struct fetch *f = ctx;
	struct owners_json_value *v = NULL;

	if (req->err.code || owners_json_parse(&v, req->response.ptr, req->response.len, NULL))
		return;
	owners_object_status_read(f->slot, f->kind, v);
	owners_json_value_free(v);
	/* The body is not needed any more; free it early on big trees. */
	owners_buf_release(&req->response);
}

int owners_status_fetch(struct owners_object_status *out, struct owners_graph *g,
			const uint32_t *nodes, size_t n, struct owners_http_client *c,
			struct owners_error *err)
{
	struct fetch *fetches = calloc(n ? n : 1, sizeof(*fetches));
	unsigned char *wanted = calloc(g->count ? g->count : 1, 1);
	size_t i, used = 0;
	int rc = 0;

	if (!fetches || !wanted) {
		free(fetches);
		free(wanted);
		return owners_error_oom(err);
	}
	for (i = 0; !rc && i < n; i++) {
		const struct owners_node *node = &g->nodes[nodes[i]];
		struct fetch *f;

		/* A node can appear on several rows (several owners, cycles):
		 * one GET each. */
		if (node->virtual_ || !node->resource || out[nodes[i]].ready || wanted[nodes[i]])
			continue;
		wanted[nodes[i]] = 1;
		f = &fetches[used++];
		owners_http_request_init(&f->req);
		f->slot = &out[nodes[i]];
		f->kind = node->kind;
		f->req.on_done = on_done;
		f->req.ctx = f;
		rc = owners_api_path_object(&f->req.path, node->resource, node->namespace_, node->name, NULL);
		if (!rc)
			rc = owners_http_submit(c, &f->req);
	}
	if (!rc)
		rc = owners_http_run(c, err);
	else
		owners_error_oom(err);
	for (i = 0; i < used; i++)
		owners_http_request_release(&fetches[i].req);
	free(fetches);
	free(wanted);
	return rc;
}
