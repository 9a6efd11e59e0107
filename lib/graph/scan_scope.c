/*
 * The scan's scope (see scan_scope.h).
 */
#include <string.h>

#include "resource.h"
#include "scan_scope.h"

/* A root whose dependents may be anywhere: cluster-scoped, except a
 * Namespace whose content the command reads apart. */
static int reaches_across(const struct owners_scope_request *req, const struct owners_resource *r)
{
	if (r->namespaced)
		return 0;
	return !(req->namespaces_apart && !*r->group && !strcmp(r->resource, "namespaces"));
}

void owners_scan_scope_decide(struct owners_scan_scope *out, const struct owners_scope_request *req)
{
	int any_cluster = 0;
	size_t i;

	out->everywhere = req->all_namespaces;
	if (req->rule == OWNERS_SCOPE_ROOTS)
		for (i = 0; i < req->n_roots; i++)
			any_cluster |= reaches_across(req, req->roots[i].type);
	out->everywhere |= any_cluster && !req->upward;
	/* Named roots, all namespaced: what hangs from them is namespaced
	 * too, wherever the scan reads. Nothing named: the answer is what
	 * the scan reads, cluster-scoped objects too when it reads them all. */
	out->answer_namespaced_only =
		!any_cluster && (req->rule == OWNERS_SCOPE_ROOTS && req->n_roots ? 1 : !req->all_namespaces);
}
