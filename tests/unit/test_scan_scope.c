/* Where a command's scan reads (lib/graph/scan_scope.c): one rule for
 * every command. */
#include <string.h>

#include "scan_scope.h"
#include "resource.h"
#include "tap.h"

static struct owners_resource pods = { .group = "", .resource = "pods", .namespaced = 1 };
static struct owners_resource nodes = { .group = "", .resource = "nodes", .namespaced = 0 };
static struct owners_resource namespaces = { .group = "", .resource = "namespaces", .namespaced = 0 };
static struct owners_resource crds = { .group = "apiextensions.k8s.io", .resource = "namespaces", .namespaced = 0 };

static struct owners_scan_scope decide(enum owners_scope_rule rule, int all, int up, int apart,
				       const struct owners_selection_arg *roots, size_t n)
{
	struct owners_scope_request req = { rule, all, up, apart, roots, n };
	struct owners_scan_scope s;

	memset(&s, 0xff, sizeof(s)); /* every field must be written */
	owners_scan_scope_decide(&s, &req);
	return s;
}

int main(void)
{
	const struct owners_selection_arg pod[] = { { &pods, "web" } };
	const struct owners_selection_arg node_and_pod[] = { { &pods, "web" }, { &nodes, "n1" } };
	const struct owners_selection_arg ns[] = { { &namespaces, "shop" } };
	const struct owners_selection_arg other_group[] = { { &crds, "x" } };
	struct owners_scan_scope s;

	s = decide(OWNERS_SCOPE_NAMESPACE, 0, 0, 0, NULL, 0);
	is_int(s.everywhere, 0, "namespace rule: one namespace without -A");
	is_int(s.answer_namespaced_only, 1, "and the answer is namespaced");
	s = decide(OWNERS_SCOPE_NAMESPACE, 1, 0, 0, NULL, 0);
	is_int(s.everywhere, 1, "namespace rule: -A reads everywhere");
	is_int(s.answer_namespaced_only, 0, "and the answer holds cluster-scoped objects");
	s = decide(OWNERS_SCOPE_NAMESPACE, 0, 0, 0, node_and_pod, 2);
	is_int(s.everywhere, 0, "namespace rule: a cluster-scoped argument does not widen the scan");
	is_int(s.answer_namespaced_only, 1, "nor the answer");

	s = decide(OWNERS_SCOPE_ROOTS, 0, 0, 0, pod, 1);
	is_int(s.everywhere, 0, "roots: a namespaced root reads its namespace");
	is_int(s.answer_namespaced_only, 1, "and what hangs from it is namespaced");
	s = decide(OWNERS_SCOPE_ROOTS, 1, 0, 0, pod, 1);
	is_int(s.everywhere, 1, "roots: -A reads everywhere");
	is_int(s.answer_namespaced_only, 1, "but namespaced roots still answer with namespaced objects");
	s = decide(OWNERS_SCOPE_ROOTS, 0, 0, 0, node_and_pod, 2);
	is_int(s.everywhere, 1, "roots: a cluster-scoped root's dependents may be anywhere");
	is_int(s.answer_namespaced_only, 0, "and the answer holds a cluster-scoped object");
	s = decide(OWNERS_SCOPE_ROOTS, 0, 1, 0, node_and_pod, 2);
	is_int(s.everywhere, 0, "roots --up: owners are named by references, no wider scan");
	is_int(s.answer_namespaced_only, 0, "the cluster-scoped root is in the answer");
	s = decide(OWNERS_SCOPE_ROOTS, 0, 0, 1, ns, 1);
	is_int(s.everywhere, 0, "a Namespace root whose content is read apart reaches no further");
	is_int(s.answer_namespaced_only, 1, "and answers with namespaced objects");
	s = decide(OWNERS_SCOPE_ROOTS, 0, 0, 0, ns, 1);
	is_int(s.everywhere, 1, "a Namespace root, content not read apart: everywhere");
	s = decide(OWNERS_SCOPE_ROOTS, 0, 0, 1, other_group, 1);
	is_int(s.everywhere, 1, "only the core group's namespaces are read apart");
	s = decide(OWNERS_SCOPE_ROOTS, 1, 0, 0, NULL, 0);
	is_int(s.everywhere, 1, "roots, none named, -A: everywhere");
	is_int(s.answer_namespaced_only, 0, "and the answer is everything");
	s = decide(OWNERS_SCOPE_ROOTS, 0, 0, 0, NULL, 0);
	is_int(s.answer_namespaced_only, 1, "roots, none named, no -A: the namespace's objects");
	return tap_done();
}
