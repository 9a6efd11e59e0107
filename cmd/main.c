/*
 * owners: Kubernetes ownership inspection and client-side cascading
 * deletion. This file holds the command table and dispatch; each command
 * lives in its own file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "output.h"

const struct opt no_opts[] = { { NULL, 0, 0, 0, NULL, NULL, NULL, 0, 0, 0, 0 } };

const struct command owners_commands[] = {
	{ "tree", cmd_tree, tree_opts, "owners tree TYPE[/NAME]... [flags]",
	  "show the dependents (or, with --up, the owners) of objects as a tree",
	  "Lists every deletable type through discovery (metadata only), builds the owner\n"
	  "graph and prints the dependents of each named object, recursively: what a\n"
	  "cascading delete of it would reach. A type alone means every object of it in\n"
	  "the namespace (with -A, everywhere), as in kubectl get. With --up it prints the owners instead,\n"
	  "all of them, up to the roots. Objects in deletion show their finalizers;\n"
	  "dangling owner references and cycles are marked. Types that could not be\n"
	  "listed are named in a warning and what depends on them shows as unknown.",
	  "  owners tree deployment/web\n"
	  "  owners tree deploy web -n shop -o wide\n"
	  "  owners tree pod/web-7d9c-x2x --up\n"
	  "  owners tree deployments -l app=web -o json\n"
	  "  owners tree deployments -A -o yaml\n"
	  "  kubectl owners tree deployment/web",
	  1, "list on every type it scans (in the namespace, and cluster-scoped types); get on the objects it prints", 0 },
	{ "graph", cmd_graph, graph_opts, "owners graph [flags]",
	  "summarise (or print) the whole owner graph of a namespace or cluster",
	  "Scans the namespace (or every namespace with -A) and prints a summary of the\n"
	  "owner graph: objects, ownerReferences, roots, dangling references, cycles and\n"
	  "objects stuck in deletion. -o json (or -o yaml, the same document) prints every\n"
	  "object with its references; -o dot prints a Graphviz graph.",
	  "  owners graph\n"
	  "  owners graph -A\n"
	  "  owners graph -n shop -o dot | dot -Tsvg > shop.svg",
	  1, "list on every type it scans", 0 },
	{ "dangling", cmd_dangling, dangling_opts, "owners dangling [TYPE[/NAME]...] [flags]",
	  "find ownerReferences that do not resolve, say what the GC will do, fix them safely",
	  "Reports every ownerReference that does not resolve, one finding per reference,\n"
	  "decided as the cluster's garbage collector decides: the owner is looked up by\n"
	  "the reference's exact apiVersion and kind, by name in the dependent's namespace\n"
	  "when the owner's kind is namespaced, and compared by UID. The CLASS is:\n"
	  "  absent             no object with that UID where the owner must be\n"
	  "  uid-mismatch       that kind and name exist with another UID (owner re-created,\n"
	  "                     or the dependent restored from a backup)\n"
	  "  invalid-namespace  the owner exists only in another namespace, or a cluster-\n"
	  "                     scoped object names a namespaced kind. One namespace\n"
	  "                     scanned, owners that read absent are looked for in every\n"
	  "                     namespace (one list per type they have); if that list is\n"
	  "                     forbidden they stay absent, with a warning\n"
	  "  unresolvable       apiVersion/kind not served (CRD removed, version dropped)\n"
	  "  unknown            the owner's type could not be listed: no verdict\n"
	  "\n"
	  "GC WILL says what the garbage collector will do, decided per object:\n"
	  "  delete the object      no owner of the object resolves\n"
	  "  remove the reference   the object has a live owner\n"
	  "  nothing, ever          the object has an unresolvable reference, or is\n"
	  "                         cluster-scoped with a namespaced owner: the GC never\n"
	  "                         decides about any of its references\n"
	  "  nothing (in deletion)  the object is already being deleted\n"
	  "  cannot tell            it depends on an owner that could not be checked\n"
	  "\n"
	  "Without arguments the namespace's objects are checked (-A: every object,\n"
	  "cluster-scoped ones too); TYPE checks every object of a type, TYPE/NAME one.\n"
	  "\n"
	  "--fix reads each object again and removes only references that were reported\n"
	  "and that the server confirms dangling, with a merge patch conditional on the\n"
	  "resourceVersion read: if the object changed meanwhile (409 Conflict) it is read\n"
	  "again, decided again and patched again, up to 5 times. It never deletes an\n"
	  "object and never touches a reference that resolves or is unknown. A reference\n"
	  "whose apiVersion is no longer served, while the same UID is alive under a\n"
	  "served version of its group and kind, is repaired (its apiVersion made the\n"
	  "served one) rather than removed. It never turns an object the GC keeps into one\n"
	  "it deletes: when removing a reference the GC gives up on (unresolvable) would\n"
	  "leave only dangling or unknown owners, that reference is kept, and says why.\n"
	  "It reads each patched object again and reports the real end state in the FIX\n"
	  "column (removed, repaired, kept, nothing to do, FAILED). --dry-run sends the\n"
	  "same patches with dryRun=All, so the server checks them and stores nothing.\n"
	  "\n"
	  "-o json prints {\"kind\": \"OwnersDangling\", \"apiVersion\": \"owners.dev/v1\",\n"
	  "\"dryRun\": BOOL, \"items\": [FINDING...], \"warnings\": [STRING...]}, a FINDING being\n"
	  "  {\"object\": {\"apiVersion\", \"kind\", \"namespace\" (\"\" when cluster-scoped),\n"
	  "              \"name\", \"uid\"},\n"
	  "   \"ownerReference\": {\"apiVersion\", \"kind\", \"name\", \"uid\", \"controller\",\n"
	  "                      \"blockOwnerDeletion\"},\n"
	  "   \"class\": \"absent\" | \"uid-mismatch\" | \"invalid-namespace\" | \"unresolvable\"\n"
	  "            | \"unknown\",\n"
	  "   \"gc\": {\"action\": \"delete-object\" | \"remove-reference\" | \"none\" | \"unknown\",\n"
	  "          \"reason\": STRING},\n"
	  "   \"fix\": {\"result\": \"removed\" | \"would-remove\" | \"repaired\" | \"would-repair\"\n"
	  "                    | \"kept\" | \"gone\" | \"failed\",\n"
	  "           \"message\": STRING (when there is one), \"attempts\": patches sent}}\n"
	  "\"fix\" is there with --fix or --dry-run only. Fields are only ever added.\n"
	  "\n"
	  "Exit status: 0 done; 1 an error, or with --exit-code anything reported (with\n"
	  "--fix: anything left); 2 a usage error; 4 a fix could not be completed\n"
	  "(forbidden, conflicts kept coming): each such reference is named on stderr.",
	  "  owners dangling\n"
	  "  owners dangling -A --exit-code\n"
	  "  owners dangling -A -o json | jq '.items[] | select(.class == \"uid-mismatch\")'\n"
	  "  owners dangling pods,replicasets -l app=web\n"
	  "  owners dangling -n shop --dry-run\n"
	  "  owners dangling deployment/web --fix",
	  1, "list on every type it scans; with --fix, get and patch on the objects it fixes", 0 },
	{ "finalizers", cmd_finalizers, finalizers_opts,
	  "owners finalizers [TYPE[/NAME]...] [flags]\n  owners finalizers remove TYPE/NAME... [--finalizer F]... [--all] [flags]",
	  "find objects stuck in deletion, say why, remove finalizers safely",
	  "Lists every object with a deletionTimestamp and finalizers left: how long it\n"
	  "has been stuck, which finalizers, and why, from the owner graph and the object:\n"
	  "  foregroundDeletion  the dependents whose reference blocks owner deletion\n"
	  "                      (blockOwnerDeletion), each explained in turn when stuck\n"
	  "  orphan              the dependents the garbage collector must release\n"
	  "  kubernetes          a namespace's spec.finalizers entry: the content still in\n"
	  "                      the namespace by type (scanned there, whatever -n says),\n"
	  "                      the stuck content explained, and the True conditions the\n"
	  "                      namespace controller reported\n"
	  "  kubernetes.io/pvc-protection  the pods that mount the claim (pods are read in\n"
	  "                      full, in that namespace only); unscheduled pods do not hold it\n"
	  "  kubernetes.io/pv-protection   the claim the volume is bound to\n"
	  "  anything else       its controller must remove it (with the command to do it\n"
	  "                      if that controller is gone)\n"
	  "\n"
	  "Without arguments: the namespace's objects and the namespace itself (-A: every\n"
	  "object); TYPE: every object of a type; TYPE/NAME: that object.\n"
	  "\n"
	  "'remove' reads each object and takes exactly the finalizers named with\n"
	  "--finalizer (or --all) off with a JSON merge patch carrying the resourceVersion\n"
	  "read and the finalizers that stay: if the object changed meanwhile (409\n"
	  "Conflict) it is read again and patched again, up to 5 times, so a concurrent\n"
	  "change is never lost; never a blind PUT. A namespace's spec.finalizers go\n"
	  "through PUT .../namespaces/NAME/finalize with the namespace as read (its\n"
	  "resourceVersion included: conflicts are retried the same way). It refuses an\n"
	  "object that is not being deleted, a finalizer the object does not have (then\n"
	  "nothing is changed on it), and a namespace's 'kubernetes' while objects are\n"
	  "still in the namespace (they would stay in storage), unless --force (the\n"
	  "unknown finalizer is always refused). --dry-run sends the same writes with\n"
	  "dryRun=All. Afterwards each object is read again and its real end state\n"
	  "reported: gone, or still there and waiting for which finalizers.\n"
	  "\n"
	  "'orphan' on an object in deletion goes only after its dependents are released,\n"
	  "as the garbage collector does (taken off first, the object goes and the GC\n"
	  "deletes the dependents that still reference it): the namespace and the\n"
	  "cluster-scoped types are scanned (every namespace for a cluster-scoped object),\n"
	  "each dependent loses the references carrying the object's UID (a merge patch\n"
	  "conditional on its resourceVersion), then 'orphan' is removed. A type that\n"
	  "could not be listed refuses it (nothing changed) unless --force, which releases\n"
	  "the dependents found; a dependent that cannot be released keeps 'orphan' on.\n"
	  "\n"
	  "Exit codes of remove: 0 every object is gone or no longer holds the finalizers\n"
	  "asked for (or, --dry-run, the server accepted the change); 1 an object could not\n"
	  "be acted on (not found, not being deleted, finalizer not on it, content left,\n"
	  "cannot be read, dependents not released); 2 usage (no --finalizer nor --all, both, -A, a TYPE without\n"
	  "NAME, an unknown type); 4 incomplete: a write was tried and failed (forbidden,\n"
	  "too many conflicts) or a finalizer came back. 1 wins over 4.\n"
	  "\n"
	  "-o json prints {\"kind\": \"OwnersFinalizers\", \"apiVersion\": \"owners.dev/v1\",\n"
	  "\"namespace\" (absent with -A), \"items\": [OBJECT...], \"warnings\": [STRING...]}:\n"
	  "  OBJECT    {\"kind\", \"apiVersion\", \"namespace\" (absent when cluster-scoped),\n"
	  "             \"name\", \"uid\", \"deletionTimestamp\", \"stuckSeconds\",\n"
	  "             \"state\": \"stuck\" | \"deleting\" | \"live\", \"error\" (optional),\n"
	  "             \"finalizers\": [FINALIZER...] (stuck ones), \"cycle\": true (optional)}\n"
	  "  FINALIZER {\"name\", \"field\": \"metadata.finalizers\" | \"spec.finalizers\",\n"
	  "             \"reason\": blocking-dependents | dependents-to-release |\n"
	  "               garbage-collector | namespace-content | namespace-controller |\n"
	  "               in-use | bound | released | controller | unknown,\n"
	  "             \"message\", \"objects\": [OBJECT...] (dependents, stuck content),\n"
	  "             \"content\": [{\"resource\", \"group\", \"kind\", \"count\", \"stuck\"}],\n"
	  "             \"contentObjects\", \"contentTypesNotListed\",\n"
	  "             \"conditions\": [{\"type\", \"status\", \"reason\", \"message\"}],\n"
	  "             \"pods\": [{\"name\", \"nodeName\", \"phase\", \"holds\"}],\n"
	  "             \"claim\": {\"namespace\", \"name\"}}  (each only where it applies)\n"
	  "\n"
	  "remove -o json prints {\"kind\": \"OwnersFinalizerRemoval\", \"apiVersion\":\n"
	  "\"owners.dev/v1\", \"dryRun\", \"items\": [{\"kind\", \"apiVersion\", \"namespace\",\n"
	  "\"name\", \"uid\", \"result\": gone | freed | dry-run | nothing | not-found | refused |\n"
	  "failed | left, \"message\", \"removed\": [{\"name\", \"field\"}], \"finalizersLeft\":\n"
	  "[{\"name\", \"field\"}], \"deleting\", \"writes\", \"releasedDependents\":\n"
	  "[{\"kind\", \"apiVersion\", \"namespace\", \"name\", \"uid\", \"result\": released |\n"
	  "dry-run | gone | not-referencing | failed, \"message\", \"writes\"}]}]}. Fields are\n"
	  "only ever added.",
	  "  owners finalizers\n"
	  "  owners finalizers -A -o json\n"
	  "  owners finalizers namespace/old\n"
	  "  owners finalizers pvc -n shop\n"
	  "  owners finalizers remove namespace/old --all\n"
	  "  owners finalizers remove pod/web-1 --finalizer example.com/hold --dry-run",
	  1, "list on every type it scans; get on namespaces and persistentvolumes in deletion, list on pods where a claim is held; with remove, get and patch on the objects (update on namespaces/finalize for a namespace; to remove orphan, list on every type and patch on its dependents)", 0 },
	{ "delete", cmd_delete, delete_opts, "owners delete TYPE/NAME... | TYPE (-l SELECTOR | --all) [--cascade=background|foreground|orphan] [flags]",
	  "delete objects with a client-side cascade, as the garbage collector would",
	  "Deletes the objects and cascades to their dependents from the client, the way\n"
	  "the cluster's garbage collector does, so it works when the GC is off, stalled\n"
	  "or slow, and cooperates with it when it runs.\n"
	  "\n"
	  "background: the owner goes first, then every dependent whose owners are all\n"
	  "gone, level by level. foreground: the owner enters deletion first and stays\n"
	  "visible (its controller stops), dependents go bottom-up, the owner last;\n"
	  "dependents with blockOwnerDeletion hold it. orphan: the owner's reference is\n"
	  "removed from every dependent, then the owner goes.\n"
	  "\n"
	  "It never deletes or patches an object that the garbage collector, in the same\n"
	  "situation, would not, nor earlier than it would. A dependent with another live\n"
	  "owner is never deleted: its reference is removed once the deleted owner is in\n"
	  "deletion or gone, so a refused DELETE leaves every reference as it was. An\n"
	  "object with a reference by an apiVersion the server does not serve is left\n"
	  "alone, as the GC leaves it; owners whose type could not be listed count as\n"
	  "alive. Below the roots an object's own orphan or foregroundDeletion finalizer\n"
	  "decides its policy, as in the GC; --grace-period and --force apply to the\n"
	  "objects named only. Every DELETE carries the UID and resourceVersion read as\n"
	  "preconditions (on a conflict it is read again and deleted only if its\n"
	  "ownerReferences are unchanged), every patch the resourceVersion it read, so\n"
	  "objects re-created or changed meanwhile are never overwritten. Before its first change it asks the server (SelfSubjectAccessReview,\n"
	  "as kubectl auth can-i) for every permission the whole cascade needs: a missing one\n"
	  "stops it with nothing changed, exit 4. The cascade's progress lives in the cluster:\n"
	  "run the same command again after an interruption and it resumes.",
	  "  owners delete deployment/web\n"
	  "  owners delete deployment/web --cascade=foreground --timeout=2m\n"
	  "  owners delete replicaset/web-7d9c --cascade=orphan\n"
	  "  owners delete deployment/web --dry-run=client\n"
	  "  owners delete deployments -l app=web -o name\n"
	  "  owners delete jobs --all -n ci",
	  1, "list on every type it scans; delete on the objects of the cascade; patch on the objects whose finalizers or references it changes; create on selfsubjectaccessreviews (every authenticated user has it)", 0 },
	{ "version", cmd_version, no_opts, "owners version",
	  "print the version, the git commit and the library versions", "", "  owners version", 0,
	  NULL, 0 },
	{ "completion", cmd_completion, no_opts, "owners completion bash|zsh|fish",
	  "print a shell completion script",
	  "Prints the completion script for the shell. Commands, flags and flag values are\n"
	  "completed from the script itself; contexts, namespaces and resource types are\n"
	  "asked from owners (contexts from the kubeconfig, types from the discovery cache).",
	  "  source <(owners completion bash)\n"
	  "  owners completion zsh > \"${fpath[1]}/_owners\"\n"
	  "  owners completion fish > ~/.config/fish/completions/owners.fish", 0, NULL, 0 },
	{ "help", cmd_help, no_opts, "owners help [COMMAND]", "show help for a command", "",
	  "  owners help tree", 0, NULL, 0 },
	{ "__complete", cmd_complete, no_opts, "owners __complete contexts|namespaces|types",
	  "candidates for shell completion", "", "", 0, NULL, 1 },
	{ "__man", cmd_man, no_opts, "owners __man DIR", "write the man pages into DIR", "", "", 0,
	  NULL, 1 },
	{ NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL, 0 },
};

const struct command *owners_command_find(const char *name)
{
	const struct command *c;

	for (c = owners_commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

static void main_help(void)
{
	const struct command *c;

	printf("owners: inspect Kubernetes ownership and delete with client-side cascading\n\n");
	printf("Usage:\n  owners COMMAND [ARGS] [flags]\n\nCommands:\n");
	for (c = owners_commands; c->name; c++)
		if (!c->hidden)
			printf("  %-10s %s\n", c->name, c->summary);
	printf("\nGlobal flags:\n");
	owners_print_opts(owners_global_opts);
	printf("\nExit codes: 0 success, 1 error, 2 usage error, 3 timed out, 4 incomplete.\n");
	printf("Run 'owners help COMMAND' or 'owners COMMAND --help' for more.\n");
}

void owners_command_help(const struct command *c)
{
	printf("%s: %s\n\nUsage:\n  %s\n", c->name, c->summary, c->usage);
	if (c->description && *c->description)
		printf("\n%s\n", c->description);
	if (c->opts && c->opts->long_name) {
		printf("\nFlags:\n");
		owners_print_opts(c->opts);
	}
	if (c->examples && *c->examples)
		printf("\nExamples:\n%s\n", c->examples);
	printf("\nGlobal flags:\n");
	owners_print_opts(owners_global_opts);
}

int cmd_help(struct owners_cli *cli, struct string_list *args)
{
	const struct command *c;

	if (!args->count) {
		main_help();
		return EXIT_OK;
	}
	c = owners_command_find(args->items[0]);
	if (!c) {
		error_msg("unknown command '%s'", args->items[0]);
		return EXIT_USAGE;
	}
	owners_command_help(c);
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	const struct command *c = NULL;
	struct owners_cli cli;
	struct string_list args = { NULL, 0 };
	int i, rc, cmd_at = -1;

	owners_cli_defaults(&cli);
	/* The command is the first word that is not a flag or a flag's value. */
	for (i = 1; i < argc; i++) {
		if (argv[i][0] != '-') {
			cmd_at = i;
			break;
		}
		if (!strcmp(argv[i], "--"))
			break;
		/* global flags taking a separate value: skip it */
		if (argv[i][1] != '-' && argv[i][1] && !argv[i][2] && strchr("nsv", argv[i][1]))
			i++;
		else if (argv[i][1] == '-' && !strchr(argv[i], '=')) {
			const struct opt *o;

			for (o = owners_global_opts; o->long_name; o++)
				if (!strcmp(argv[i] + 2, o->long_name) && o->type != OPT_BOOL)
					i++;
		}
	}
	if (cmd_at < 0) {
		rc = owners_cli_parse(&cli, no_opts, argc - 1, argv + 1, &args);
		if (!rc)
			main_help();
		owners_cli_release(&cli, &args);
		return rc ? rc : (argc > 1 && !cli.help ? EXIT_USAGE : EXIT_OK);
	}
	c = owners_command_find(argv[cmd_at]);
	if (!c) {
		error_msg("unknown command '%s' (see 'owners --help')", argv[cmd_at]);
		return EXIT_USAGE;
	}
	/* Parse everything but the command word itself. */
	for (i = cmd_at; i + 1 < argc; i++)
		argv[i] = argv[i + 1];
	rc = owners_cli_parse(&cli, c->opts, argc - 2, argv + 1, &args);
	if (rc) {
		owners_cli_release(&cli, &args);
		return rc;
	}
	output_set_color(cli.color);
	if (cli.help)
		owners_command_help(c);
	else
		rc = c->fn(&cli, &args);
	owners_cli_release(&cli, &args);
	return rc;
}
