/*
 * owners unused: the objects that exist to be used (ConfigMaps, Secrets,
 * claims, volumes, ServiceAccounts, Services, roles, classes) and that
 * nothing uses, each with why (lib/ops/unused.c decides); unknown, never
 * unused, where their users could not all be read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "output.h"
#include "session_connect.h"
#include "session_relations.h"
#include "session_scan.h"
#include "session_select.h"
#include "unused.h"

static const char *const unused_outputs[] = {
	"table", "wide", "json", "yaml", "name", "jsonpath=", "custom-columns=", NULL
};

struct unused_options {
	int exit_code; /* --exit-code */
};

#define OPT_STRUCT struct unused_options
const struct opt unused_opts[] = {
	OPT_BOOL("exit-code", 0, exit_code, "exit 1 when anything is listed (unknown included)",
		 "exit 1 when anything is listed (unknown included)"),
	OPT_SELECTOR(NULL,
		     "look only at objects of the given TYPEs with these labels, e.g. app=web"),
	OPT_OUTPUT("table (default), wide",
		   "table (default), wide (Kind.group/name), json, yaml, name (the unused ones "
		   "alone, to pipe to owners delete --if-unused), jsonpath=TEMPLATE or "
		   "custom-columns=SPEC"),
	OPT_TEMPLATE_KEYS,
	OPT_TABLE_ROWS,
	OPT_END,
};
#undef OPT_STRUCT

OUTPUT_RENDERERS(renderers, struct owners_unused_render, owners_unused);

/* Every TYPE given is one that exists to be used. */
static enum exit_code check_types(const struct cmd_run *run)
{
	size_t i;

	for (i = 0; i < run->n_objs; i++) {
		const struct owners_resource *t = run->targets[i].type;

		if (!owners_unused_kind(t->group, t->kind))
			return usage_error(
				"%s are not a kind unused looks at: it looks at configmaps, "
				"secrets, persistentvolumeclaims, persistentvolumes, "
				"serviceaccounts, services, roles, clusterroles, "
				"storageclasses, priorityclasses and ingressclasses",
				t->resource);
	}
	return EXIT_OK;
}

static void say_none(const struct cmd_run *run)
{
	if (run->n_objs)
		fprintf(stderr, "nothing unused among the given objects\n");
	else if (run->cli->all_namespaces)
		fprintf(stderr, "nothing unused in any namespace\n");
	else
		fprintf(stderr, "nothing unused in namespace '%s'\n", session_namespace(run->s));
}

/* With no TYPE, the kinds unused looks at: without -A only the
 * namespaced ones (a cluster-scoped object's users are everywhere). */
static int looked_at(const struct cmd_run *run, const struct owners_node *n)
{
	char group[256];

	if (n->virtual_)
		return 0;
	owners_graph_node_group(n, group, sizeof(group));
	if (!owners_unused_kind(group, n->place->kind))
		return 0;
	return run->n_objs || run->cli->all_namespaces || *n->place->namespace_;
}

static enum exit_code cmd_unused(struct cmd_run *run)
{
	const struct session_selection how = { .everything_when_none = 1 };
	const struct unused_options *o = run->opts;
	struct owners_relations rel;
	struct owners_unused_report rep = { NULL, 0, 0 };
	struct owners_unused_render render;
	struct owners_graph *g;
	uint32_t *nodes = NULL;
	size_t n = 0, i;
	enum exit_code rc;
	int failed = 0;

	memset(&rel, 0, sizeof(rel));
	if ((rc = check_types(run)))
		return rc;
	session_set_related(run->s, 1);
	if ((rc = session_scan(run->s, run->scan_ns)) ||
	    (rc = session_select_nodes(run->s, run->targets, run->n_objs, &how, &nodes, &n)))
		goto out;
	if (session_read_relations(run->s, &rel)) {
		rc = session_fail(run->s);
		goto out;
	}
	g = session_graph(run->s);
	for (i = 0; !failed && i < n; i++)
		if (looked_at(run, &g->nodes[nodes[i]]))
			failed = owners_unused_check(&rep, &rel, g, nodes[i]);
	if (failed) {
		rc = error_oom();
		goto out;
	}
	owners_unused_report_sort(&rep, g);
	memset(&render, 0, sizeof(render));
	render.print = run->print;
	render.g = g;
	render.rep = &rep;
	if ((rc = output_emit(run, &renderers, &render)))
		goto out;
	if (!rep.count && !output_is_document(&run->cli->output))
		say_none(run);
	if (o->exit_code && rep.count)
		rc = EXIT_ERROR;
out:
	free(nodes);
	owners_unused_report_clear(&rep);
	owners_relations_clear(&rel);
	return rc;
}

/* The man page's detail beyond --help (see struct man_section). */
static const struct man_section unused_man_sections[] = {
	{ "WHAT COUNTS AS USED",
	  "An object is used when a live object uses it in a way a delete of it would\n"
	  "break (the relations of owners-tree(1), RELATIONS): a Pod or any pod template\n"
	  "(a Deployment at 0 replicas, a CronJob between runs, a ReplicaSet kept for a\n"
	  "rollback) that mounts it, reads it into its environment or pulls images with\n"
	  "it, runs as it, claims it or has it as its class; an Ingress or a route that\n"
	  "routes to it or serves TLS with it; a binding that binds it; a claim bound to a\n"
	  "volume. A binding's ServiceAccount subject, a PDB's or a NetworkPolicy's\n"
	  "selector and a volume's claimRef do not make a use. An object a live owner\n"
	  "keeps (its ownerReference resolves) is not listed, nor one being deleted.\n"
	  "\n"
	  "Per kind: a PersistentVolume is Released (its claim is gone) or Available (no\n"
	  "claim is bound to it); a Service is unused when it has no endpoints (none of\n"
	  "its EndpointSlices has one), its selector matches no Pod (or it has none) and\n"
	  "nothing routes to it or calls it; a service-account token Secret of a live\n"
	  "ServiceAccount is that account's; the default StorageClass, IngressClass and\n"
	  "the globalDefault PriorityClass are kept (new objects that name none get\n"
	  "them).\n"
	  "\n"
	  "The cluster's own are never listed: everything in kube-system, kube-public and\n"
	  "kube-node-lease, each namespace's kube-root-ca.crt ConfigMap and default\n"
	  "ServiceAccount, the kubernetes Service, roles named system:* or labelled\n"
	  "kubernetes.io/bootstrapping=rbac-defaults, ClusterRoles aggregated into others\n"
	  "(labelled rbac.authorization.k8s.io/aggregate-to-*), PriorityClasses named\n"
	  "system-*, and Helm's release records (labelled owner=helm)." },
	{ "UNKNOWN, NEVER UNUSED",
	  "Where a type that could use an object was not read (its list failed or was\n"
	  "forbidden, or it lies outside the scan: a namespaced run does not see the Pods\n"
	  "of other namespaces, so cluster-scoped objects are looked at with -A or when\n"
	  "named), the object is listed as unknown, with the types not read. -o name\n"
	  "prints the unused ones alone, so that\n"
	  "  owners unused configmaps -o name | xargs -r owners delete --if-unused\n"
	  "deletes only what is unused, and owners delete --if-unused checks again,\n"
	  "against the cluster as it is then, before it deletes anything." },
	{ NULL, NULL },
};

const struct command unused_command = {
	.name = "unused",
	.man_sections = unused_man_sections,
	.fn = cmd_unused,
	CMD_OPTIONS(unused_opts, struct unused_options, NULL),
	.outputs = unused_outputs,
	.output_default = "table",
	.usage = "owners unused [TYPE[/NAME]...] [-n NAMESPACE | -A] [flags]",
	.summary = "list the ConfigMaps, Secrets, claims, roles... that nothing uses",
	.description =
		"Lists the objects of the kinds that exist to be used (ConfigMaps, Secrets,\n"
		"PersistentVolumeClaims, PersistentVolumes, ServiceAccounts, Services, Roles,\n"
		"ClusterRoles, StorageClasses, PriorityClasses, IngressClasses) that no live\n"
		"object uses and no owner keeps, each with the reason; with no TYPE, every such\n"
		"kind (without -A, the namespaced ones). Where a type that could use an object\n"
		"could not be read, the object is unknown, never unused.\n"
		"\n"
		"Requests: discovery, the same scan as the other commands, and one paged list\n"
		"per type that holds relations, read whole (Pods, workloads, Services,\n"
		"EndpointSlices, Ingresses, bindings, claims and volumes...): they grow with\n"
		"types and pages, never with objects.\n"
		"\n"
		"Exit codes: 0, also when something is listed (--exit-code: 1 then); 1 error; 2\n"
		"usage (a TYPE that is not one of those kinds).",
	.examples = "  owners unused\n"
		    "  owners unused -A\n"
		    "  owners unused configmaps secrets -n shop\n"
		    "  owners unused pv\n"
		    "  owners unused configmaps -o name | xargs -r owners delete --if-unused",
	.args = CMD_ARGS_OBJECTS_OPTIONAL,
	.type_alone = CMD_TYPE_ALONE_YES,
	.discovery = CMD_DISCOVERY_CURRENT,
	.reads_snapshot = 1,
	.resolve = CMD_RESOLVE_TYPES,
	.scope = OWNERS_SCOPE_ROOTS,
	.rbac = "list on every type it scans, and on the types that hold relations (read whole: "
		"their objects' specs)",
	.json_schema =
		"-o json prints, Kubernetes-shaped as kubectl get -o json:\n"
		"{\"apiVersion\": \"owners.dev/v1\", \"kind\": \"OwnersUnused\", \"metadata\": "
		"{},\n"
		" \"items\": [ITEM...], \"warnings\": [WARNING...]}.\n" DOC_JSON_ITEM_WARNING_REF
		"An ITEM per object listed; FACTS {\"state\": unused | unknown, \"reason\"}.\n"
		"-o name prints the unused ones alone (kind.group/name), not the unknown.",
};
