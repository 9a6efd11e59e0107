/*
 * The interface described from the tables: the man pages (owners __man
 * DIR; the shell completion scripts are completion.c's). Nothing here is
 * written by hand per flag, so the docs cannot drift from what the parser
 * accepts; tests/docs-in-sync checks the committed copies.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "commands.h"
#include "api_path.h"
#include "discovery.h"
#include "kubeconfig.h"
#include "strv.h"
#include "list_parser.h"
#include "output.h"
#include "sink.h"

/* ---- man pages ------------------------------------------------------ */

/* roff needs '-' as '\-' (so copy-paste gives a real minus) and '\' as
 * '\e'; a line starting with '.' or '\'' would be a request. A character
 * beyond ASCII (the tree's box drawing in sample output) is written as
 * \[uXXXX], which every troff reads without a preprocessor. */
static void roff_n(FILE *f, const char *s, size_t n)
{
	int bol = 1;

	for (; n && *s; s++, n--) {
		unsigned char c = (unsigned char)*s;

		if (bol && (*s == '.' || *s == '\''))
			fputs("\\&", f);
		if (c >= 0xc0 && c < 0xf8) {
			/* a UTF-8 sequence: 2, 3 or 4 bytes (the rows' text is ours, valid) */
			size_t len = c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4, i;
			unsigned long cp = c & (0x3f >> (len - 1));

			for (i = 1; i < len && i < n && ((unsigned char)s[i] & 0xc0) == 0x80; i++)
				cp = cp << 6 | ((unsigned char)s[i] & 0x3f);
			fprintf(f, "\\[u%04lX]", cp);
			s += i - 1;
			n -= i - 1;
			bol = 0;
			continue;
		}
		if (*s == '-')
			fputs("\\-", f);
		else if (*s == '\\')
			fputs("\\e", f);
		else
			fputc(*s, f);
		bol = *s == '\n';
	}
}

static void roff(FILE *f, const char *s)
{
	roff_n(f, s, strlen(s));
}

/* A row's text (description, man_sections; see struct man_section) as
 * roff: a blank line starts a paragraph, lines indented two spaces are
 * shown as written, indented, and a paragraph that opens with "- " is an
 * item of a list. */
static void man_text(FILE *f, const char *s)
{
	int verbatim = 0, paragraph = 1;

	while (*s) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);

		if (!n) {
			paragraph = 1;
		} else if (n >= 2 && s[0] == ' ' && s[1] == ' ') {
			if (!verbatim) {
				fputs(paragraph ? ".PP\n.RS 2\n.nf\n" : ".RS 2\n.nf\n", f);
				verbatim = 1;
			}
			paragraph = 0;
			roff_n(f, s + 2, n - 2);
			fputc('\n', f);
		} else {
			if (verbatim) {
				fputs(".fi\n.RE\n", f);
				verbatim = 0;
			}
			if (paragraph && n >= 2 && s[0] == '-' && s[1] == ' ') {
				fputs(".IP \\(bu 2\n", f);
				s += 2;
				n -= 2;
			} else if (paragraph) {
				fputs(".PP\n", f);
			}
			paragraph = 0;
			roff_n(f, s, n);
			fputc('\n', f);
		}
		s += n;
		if (*s == '\n')
			s++;
	}
	if (verbatim)
		fputs(".fi\n.RE\n", f);
}

static void man_sections(FILE *f, const struct man_section *sec)
{
	for (; sec && sec->title; sec++) {
		fputs(".SH ", f);
		roff(f, sec->title);
		fputc('\n', f);
		man_text(f, sec->text);
	}
}

/* The rows of opts; outputs: -o's formats (the command's row's). */
static void man_opts(FILE *f, const struct opt *opts, const char *const *outputs)
{
	char range[64];
	const struct opt *o;

	for (o = opts; o->long_name; o++) {
		const char *const *v, *const *values = owners_opt_values(o, outputs);

		if (o->hidden)
			continue;
		fputs(".TP\n.B ", f);
		if (o->short_name)
			fprintf(f, "\\-%c, ", o->short_name);
		fputs("\\-\\-", f);
		roff(f, o->long_name);
		if (o->arg_name) {
			/* an optional value is written --dry-run[=MODE] */
			fputs(o->value_optional ? "\\fI" : " \\fI", f);
			roff(f, o->arg_name);
			fputs("\\fR", f);
		}
		fputc('\n', f);
		roff(f, o->help);
		if (values) {
			fputs(" (one of:", f);
			for (v = values; *v; v++) {
				fputc(' ', f);
				roff(f, *v);
			}
			fputc(')', f);
		}
		if (*owners_opt_range(o, range, sizeof(range))) {
			fputs(" (", f);
			roff(f, range);
			fputc(')', f);
		}
		fputc('\n', f);
	}
}

static void man_common_tail(FILE *f)
{
	fputs(".SH EXIT STATUS\n"
	      ".TP\n.B 0\nsuccess, also when nothing was found (said on stderr, or an empty "
	      "document)\n"
	      ".TP\n.B 1\nan error (the message says what failed); with \\fB\\-\\-exit\\-code\\fR, "
	      "findings exist\n"
	      ".TP\n.B 2\na usage error: unknown flag, bad value, unknown or ambiguous type\n"
	      ".TP\n.B 3\ntimed out waiting\n"
	      ".TP\n.B 4\nfinished but incomplete: some objects were forbidden or left\n"
	      ".TP\n.B 5\nrefused because in use: \\fBdelete \\-\\-if\\-unused\\fR found live "
	      "objects outside the "
	      "cascade that use what it deletes (or could not see them all); nothing was changed\n"
	      ".SH ENVIRONMENT\n"
	      ".TP\n.B KUBECONFIG\nA colon\\-separated list of kubeconfig files, merged as kubectl "
	      "merges them "
	      "(the first file to set a value wins). Ignored when \\fB\\-\\-kubeconfig\\fR is "
	      "given.\n"
	      ".TP\n.B NO_COLOR\nWhen set and not empty, no colour is used unless "
	      "\\fB\\-\\-color=always\\fR.\n"
	      ".TP\n.B XDG_CACHE_HOME\nWhere the discovery cache lives (default "
	      "\\fI~/.cache\\fR).\n"
	      ".TP\n.B OWNERS_LIST_FORMAT\nSet to \\fBjson\\fR to have lists sent in JSON only; by "
	      "default they are asked for in\n"
	      "Kubernetes' protobuf encoding (JSON from a server that cannot), which is several "
	      "times\n"
	      "smaller and faster. The same holds for the lists READY and STATUS are read from, "
	      "for the\n"
	      "built\\-in kinds that have them (other kinds' come in JSON). \\fB\\-v=6\\fR shows "
	      "which one each answer came in.\n"
	      ".TP\n.B KUBERNETES_SERVICE_HOST, KUBERNETES_SERVICE_PORT\nIn a pod without a "
	      "kubeconfig, "
	      "the in\\-cluster service account is used.\n"
	      ".SH FILES\n"
	      ".TP\n.I ~/.kube/config\nThe kubeconfig used when neither \\fB\\-\\-kubeconfig\\fR "
	      "nor "
	      "\\fBKUBECONFIG\\fR is set.\n"
	      ".TP\n.I ~/.cache/owners/discovery/HOST_PORT/resources.json\nThe discovery cache "
	      "(private: mode 0600 in a 0700 directory), trusted for 6 hours by the read commands "
	      "and "
	      "refreshed at once when a type does not resolve or a list answers 404; "
	      "\\fBdelete\\fR, "
	      "\\fBdangling\\fR, \\fBwhy\\fR, \\fBgc\\fR and \\fBfinalizers remove\\fR always "
	      "fetch it anew.\n",
	      f);
}

/*
 * owners(1) beyond the commands and flags: what holds for every command.
 * A command's own detail is in its row (cmd/<command>.c).
 */
static const struct man_section main_sections[] = {
	{"ARGUMENTS",
		"Objects are named as in kubectl: TYPE/NAME (several at once), TYPE NAME NAME...,\n"
		"or a TYPE alone for every object of it in the namespace (-A: everywhere; -l\n"
		"narrows it by label). TYPE is anything kubectl accepts: plural, singular, kind\n"
		"or short name, any case, with an optional .group or .version.group (deploy,\n"
		"deployments.apps, deployment.v1.apps, CRDs too). A name that matches types in\n"
		"several groups is an error listing them; the core group wins over others, as in\n"
		"kubectl.\n"
		"\n"
		"A named object is in the namespace, -A or not. tree, delete and finalizers\n"
		"answer about it and what hangs from it: there -A seeks its dependents in every\n"
		"namespace, as the garbage collector's cluster-wide graph does, where without it\n"
		"they are sought in its namespace and among cluster-scoped objects (as\n"
		"kubectl-tree's -A). An object in another namespace naming a namespaced owner is\n"
		"an error to the GC (event OwnerRefInvalidNamespace), but the GC still releases it\n"
		"when that owner is deleted with --cascade=orphan, and a foreground owner waits\n"
		"for it when it blocks: 'owners delete -A' does the same. Other commands refuse a\n"
		"name with -A, as kubectl does."},
	{"CONNECTING",
		"Like kubectl: --kubeconfig, else KUBECONFIG (a colon-separated list merged as\n"
		"kubectl merges it: the first file to set a value wins), else ~/.kube/config,\n"
		"else the in-cluster service account. --context, --cluster, --user, -n (default:\n"
		"the context's namespace), --server, --token, --certificate-authority,\n"
		"--insecure-skip-tls-verify, --tls-server-name, --as, --as-group. A numeric\n"
		"flag's accepted range is part of its row in the option table (--v 0 to 10,\n"
		"--burst and --chunk-size 1 or more, --depth 0 or more, --grace-period -1 or\n"
		"more): --help and the man pages show it, and a value outside it is a usage\n"
		"error (exit 2) before anything connects.\n"
		"\n"
		"Authentication: bearer token and token file, client certificates (inline or\n"
		"files), exec credential plugins (client.authentication.k8s.io/v1 and v1beta1,\n"
		"cached until they expire, run again on a 401). TLS is always verified unless\n"
		"the kubeconfig or a flag says otherwise. Clusters use their kubeconfig's CA;\n"
		"the system's CA bundle, for proxies and for servers with public certificates,\n"
		"is found without configuration (SSL_CERT_FILE, else the usual paths of\n"
		"Debian/Ubuntu, RHEL/Fedora, SUSE and Alpine), the static release binary too.\n"
		"\n"
		"Lists are paged as kubectl pages them, 500 objects to a page, except that\n"
		"without --chunk-size a long list's later pages grow fourfold up to 5,000 (500,\n"
		"2,000, 5,000, ...): 60,000 pods take 14 round trips instead of 120, which is\n"
		"what a remote cluster charges for; --chunk-size N makes every page N. A protobuf\n"
		"page names the next one in its first bytes, so the next is asked for at once\n"
		"and the server makes it while this one is still arriving.\n"
		"\n"
		"Requests share connections (HTTP/2 with kube-apiserver); up to 100 are in flight\n"
		"at once (the streams kube-apiserver allows one HTTP/2 connection by default, so\n"
		"one connection carries them all; over HTTP/1.1 at most 32 connections). A\n"
		"client-side rate limit (--qps, --burst) applies when given, and by default 50\n"
		"QPS, burst 100 only until the server shows API Priority and Fairness (every\n"
		"supported Kubernetes: it then queues and sheds load itself, as\n"
		"controller-runtime and Flux rely on). Connection errors, 5xx and 429 are\n"
		"retried with backoff (429 honours Retry-After), and --request-timeout bounds\n"
		"each request's whole wait, its retries included (without it a server that\n"
		"never answers is given up after 45 s; kubectl's own wait is about a minute); a\n"
		"retry after a server left a connection unanswered is said once at default\n"
		"verbosity (warning: cannot reach ...: connection timed out; retrying for up to\n"
		"45 s). Without --request-timeout, an attempt that has had nothing from the\n"
		"server for 30 s, or whose answer stopped (5 s into its body, 2 s after headers\n"
		"without one), is sent again on a new connection: a request can stall on a\n"
		"connection that is otherwise alive (libcurl 7.88 can leave an HTTP/2 answer\n"
		"unread), and kube-apiserver closes an idle connection only after 90 s. It is\n"
		"said (warning: GET ... got no answer in 30 s; retrying for up to 45 s), and\n"
		"the list it belongs to says when it ends how long it waited and took\n"
		"(warning: listing 'pods' waited out a timeout: 1 request went unanswered for\n"
		"30.0 s and was sent again; the list took 30.4 s); a snapshot keeps that in the\n"
		"file. -v=6 logs each request, -v=8 adds bodies, -v=9 libcurl's trace;\n"
		"credentials are always redacted.\n"
		"\n"
		"When nothing can be listed the error says why rather than naming the first\n"
		"type: rejected credentials (the server at https://... rejected the credentials\n"
		"of user 'ci' (context 'prod') (Unauthorized): wrong or expired; log in again or\n"
		"fix the kubeconfig), with or without a discovery cache; a TLS failure naming the\n"
		"server and context; or a user who may list nothing, in the server's words (...\n"
		"may list none of the 57 types owners scans: configmaps is forbidden: User \"x\"\n"
		"cannot list resource \"configmaps\" ...)."},
	{"READING A FILE (--from)",
		"--from FILE|DIR answers from a file instead of the cluster; every read command\n"
		"takes it, and the commands that change the cluster refuse it (exit 2). It reads:\n"
		"  - owners snapshot's own files (owners-snapshot(1), FORMAT), plain or .gz;\n"
		"  - kubectl get ... -o json|yaml: a List, several documents, or a directory of\n"
		"    them (- for standard input);\n"
		"  - kubectl cluster-info dump, its output or its --output-directory;\n"
		"  - an OpenShift must-gather directory (oc adm must-gather, oc adm inspect);\n"
		"  - a Troubleshoot support bundle's directory (its cluster-resources);\n"
		"  - any of these dumps as a .tar, .tar.gz or .tgz archive (a bundle or a\n"
		"    must-gather as it arrives), read in place: nothing is unpacked to disk, its\n"
		"    JSON and YAML are held in memory while read. Another archive (zip, xz,\n"
		"    7z...) is one error line saying what it is.\n"
		"Under -A, a dump's lists of one namespace each (a must-gather, a bundle, an -n\n"
		"snapshot) make a type whole in those namespaces, so -A answers there as -n does;\n"
		"the warning says for how many of the namespaces it holds the type is held.\n"
		"A dump that takes more than a second to read says how far it is on stderr: a\n"
		"line redrawn on a terminal (reading FILE (32.1 MB): 45%), and in a log, after\n"
		"2 s, a line at each tenth.\n"
		"A dump has no discovery: its types are its objects' (with kubectl's short names\n"
		"and categories of the built-in types), a reference to a kind it does not hold is\n"
		"unknown, never unresolvable, and a list it does not hold whole is named as not\n"
		"seen, as a 403 is live. Its answers are as of the time it says (a must-gather's\n"
		"start, else its files' newest modification time), said on stderr with where that\n"
		"came from; --from-time=TIME (RFC 3339) sets another. A damaged or cut-short file\n"
		"is one error line naming the file and the place (exit 1). A directory that\n"
		"holds two kinds of dump (a must-gather beside a support bundle) is refused with\n"
		"both named: give --from the directory of one of them.\n"},
	{"LISTS AND DISCOVERY",
		"Every command scans the same way: every deletable type found through discovery\n"
		"is listed, metadata only, and the owner graph is built in memory. Lists ask for\n"
		"Kubernetes' protobuf encoding of PartialObjectMetadataList first, JSON second\n"
		"(aggregated API servers that speak only JSON), and each page is read by the\n"
		"Content-Type it comes in: protobuf is about a quarter of the bytes and several\n"
		"times faster for the server to write. Both are read as they arrive, each object\n"
		"handed on when its last byte is in, so a page of 5,000 objects is never held\n"
		"whole. -v=6 shows each answer's type; OWNERS_LIST_FORMAT=json asks for JSON only.\n"
		"\n"
		"Discovery uses aggregated discovery (two requests) when the server offers it,\n"
		"the per-group walk otherwise, and is cached in ~/.cache/owners/discovery/\n"
		"(private permissions) for 6 hours, 1 minute when a group failed; a type that\n"
		"does not resolve, or a list that answers 404, refreshes it at once. delete,\n"
		"dangling, why, gc and finalizers remove never trust the cache: what deletes,\n"
		"patches or predicts the GC must see the types the GC sees now."},
	{"WHAT IT CANNOT SEE",
		"Every command words what it could not see the same way on stderr: a failed\n"
		"discovery group per line, the forbidden types together on one line, any other\n"
		"failed list on its own line. A type that may not be\n"
		"listed is reported and what depends on it shown as unknown, never assumed\n"
		"empty. Forbidden types are split by whether they can hold part of the answer:\n"
		"when the answer's objects are namespaced (a namespace's view, the dependents of\n"
		"namespaced roots), a cluster-scoped type can hold part of it only if an object\n"
		"names an owner of that type (a ClusterRole that owns a ConfigMap, say); the\n"
		"others (nodes, webhooks, CSIDrivers... for a read-only user) are counted on a\n"
		"line of their own. At most eight types are named on a line; -v=1 names every\n"
		"one:\n"
		"  warning: cannot list 7 types that can hold part of the answer (ownership through them is unknown): forbidden: clusterroles.rbac.authorization.k8s.io, csistoragecapacities.storage.k8s.io, leases.coordination.k8s.io, podtemplates, rolebindings.rbac.authorization.k8s.io, roles.rbac.authorization.k8s.io, secrets\n"
		"  warning: 26 more types forbidden to you cannot hold part of the answer (-v=1 names them)\n"
		"A document (-o json, -o yaml) names every one whatever the verbosity (a script\n"
		"cannot pass -v=1 to a document), each on its own, structured:\n"
		"  \"warnings\": [{\"reason\": \"Forbidden\", \"group\": \"\", \"version\": \"v1\",\n"
		"    \"resource\": \"secrets\", \"canHoldAnswer\": true, \"message\": \"cannot list\n"
		"    'secrets' in namespace 'default': forbidden\"}, ...]\n"
		"the reason Forbidden, ListFailed (a list that failed otherwise), DiscoveryFailed\n"
		"(a group/version whose types are unknown: group and version only) or Note.\n"
		"\n"
		"A command that finds nothing says so on stderr in kubectl's words and exits 0\n"
		"(No resources found in shop namespace., no objects stuck in deletion); with -o\n"
		"json or -o yaml it prints its document with items: [] and nothing on stderr."},
	{"OUTPUT FORMATS",
		"-o json is kubectl's layout (four-space indent, \"key\": value, [] and {} on one\n"
		"line) with yajl's escaping where the two differ: <, > and & are written as they\n"
		"are (kubectl writes \\u003c...), other control characters as \\u001F with\n"
		"capitals, and a string's UTF-8 is checked for its structure only (an overlong\n"
		"form passes; the apiserver never writes one). Each document's schema is in its\n"
		"command's page, OUTPUT; fields are only ever added.\n"
		"\n"
		"Every command with -o json has -o yaml: the same document, written the way\n"
		"kubectl writes YAML: plain keys and values, strings quoted only where YAML would\n"
		"read them as something else (\"true\", \"0\", \"null\", timestamps), - apiVersion: ...\n"
		"sequences at their parent's indent, control characters escaped.\n"
		"\n"
		"Every document has one shape, the one kubectl get -o json users script:\n"
		"  {\"apiVersion\": \"owners.dev/v1\", \"kind\": \"OwnersTree\" (or OwnersGraph,\n"
		"   OwnersDangling, OwnersFinalizers, OwnersWhy, OwnersGCBacklog,\n"
		"   OwnersFinalizerRemoval), \"metadata\": {the command's own facts: direction,\n"
		"   dryRun, namespace, summary}, \"items\": [...], \"warnings\": [...]}\n"
		"each item {\"apiVersion\", \"kind\", \"metadata\": {\"name\", \"namespace\", \"uid\",\n"
		"\"creationTimestamp\", \"deletionTimestamp\", \"finalizers\", \"ownerReferences\",\n"
		"\"labels\"} as the server has them, \"owners\": {what owners found}}. Other objects\n"
		"an item mentions (the owner a step hinges on, an object waited for) are\n"
		"references {apiVersion, kind, namespace, name, uid}. Each command's page (OUTPUT)\n"
		"has its schema. This shape replaced an earlier one of owners' own before any\n"
		"release.\n"
		"\n"
		"Where a command prints objects (tree, graph, dangling, finalizers, why, gc), -o\n"
		"jsonpath=TEMPLATE and -o custom-columns=SPEC work as in kubectl get, over the\n"
		"command's -o json document (a tree's rows each an item, depth first;\n"
		"--no-headers applies):\n"
		"  owners tree deploy/web -o jsonpath='{range .items[*]}{.metadata.name}{\"\\n\"}{end}'\n"
		"  owners dangling -A -o custom-columns=OBJECT:.metadata.name,CLASS:.owners.class\n"
		"The jsonpath subset is kubectl's everyday one: fields, [n], [-1], [a:b], [*],\n"
		"..name, .*, filters [?(@.kind==\"Pod\")], range/end, $, @ and quoted literals. As\n"
		"with kubectl's -o jsonpath, a field an item lacks prints nothing for it\n"
		"(--allow-missing-template-keys, default true); with\n"
		"--allow-missing-template-keys=false a field that none of the values it is looked\n"
		"up in has is an error (error: error executing jsonpath '{.items[*].name}': name\n"
		"is not found, exit 1); custom-columns prints <none> for it; an empty template or\n"
		"-o custom-columns= with no columns is a usage error (exit 2). -o name (tree,\n"
		"dangling, finalizers, why, gc) prints kind.group/name lines as kubectl does, the\n"
		"way owners delete and kubectl delete take them."

		"\n"
		"Tables are coloured as kubectl-tree colours them on a terminal (green ready,\n"
		"yellow on its way, red failed); never with NO_COLOR or when piped.\n"
		"\n"
		"Every flag value outside its list is a usage error that names the valid ones:\n"
		"  error: invalid value 'sideways' for --cascade: want background, foreground or orphan\n"
		"Every command owners prints for you to run names the program as it was run:\n"
		"kubectl owners ... when run as the kubectl plugin. That holds for a message's\n"
		"hint, a remedy in a text output (the finalizers remove that ends a wait), the\n"
		"command that finishes a cascade, and --help's usage and examples; a document\n"
		"(-o json, yaml) says owners, as its schema does, and --help's prose names the\n"
		"tool owners.\n"
		"\n"
		"A write to standard output that fails (a full disk, a closed pipe) is said at\n"
		"once, with its reason (error: write error on standard output: REASON), and the\n"
		"run exits 1."},
	{"THE GARBAGE COLLECTOR'S RULE",
		"owners never deletes or patches an object that the real garbage collector, in\n"
		"the same situation, would not; never in an earlier order than the GC would; and\n"
		"dangling --fix and finalizers remove never turn an object the GC keeps into one\n"
		"it deletes. Where the two could differ, owners does less. What that means for\n"
		"each command that changes objects is in owners-delete(1), owners-gc(1),\n"
		"owners-dangling(1) and owners-finalizers(1); the end-to-end tests check each\n"
		"against the real GC."},
	{"ORDER",
		"Every answer is a function of the cluster's state alone: the same objects give\n"
		"the same bytes, whatever order the lists arrive in (they run at once), live or\n"
		"from a snapshot or a dump. Every order is total: objects sort by namespace,\n"
		"kind and name (a tree's siblings and dangling's rows by kind first; dangling's\n"
		"rows by apiVersion within a kind), then by apiVersion and UID, so no two ever\n"
		"tie. An owner's dependents, a deadlock's members and the objects it names, the\n"
		"oldest pending action among several due in one second: each the first in that\n"
		"order. Where several references tell one fact, the rule says which wins:\n"
		"  - an owner nobody has seen, named by several dependents, takes its apiVersion,\n"
		"    kind and name from the first reference to it of the dependent that comes\n"
		"    first, a namespaced dependent before a cluster-scoped one (only a namespaced\n"
		"    one can say where a namespaced owner would be), then by kind, namespace,\n"
		"    name and UID; its namespace is that dependent's when its kind is namespaced;\n"
		"  - an object two API groups serve is shown as the group first by name serves it\n"
		"    (the core group first), then by version and resource;\n"
		"  - of several failed lists of one type, the one for a single namespace is named\n"
		"    before the one for all, then the first by its message.\n"
		"The end-to-end suites run every read command a second time with the scan's\n"
		"objects handed on in a shuffled order (the test hook OWNERS_TEST_SHUFFLE=SEED)\n"
		"and require the same bytes.\n"},
	{"KUBECTL PLUGIN",
		"owners is installed with a link to it named kubectl-owners, so kubectl owners\n"
		"tree deployment/web works, and a second link, kubectl_complete-owners, through\n"
		"which kubectl owners <TAB> completes (kubectl 1.26 and later): see\n"
		"owners-completion(1). krew installs only the plugin link; make the completion\n"
		"link beside it yourself:\n"
		"  ln -s kubectl-owners \"$(dirname \"$(command -v kubectl-owners)\")/kubectl_complete-owners\""},
	{NULL, NULL},
};

static const char permissions_text[] =
	"Every command needs list on the types it scans (namespaced types in the\n"
	"namespace, cluster-scoped types). tree also needs get on the objects it prints\n"
	"(and watch on the types it watches with --watch or --until; without it, each\n"
	"such type is listed every 10 s instead, with one warning); why list on events;\n"
	"delete needs delete on the objects of the cascade and patch on those whose\n"
	"finalizers or references it changes; dangling --fix and finalizers remove need\n"
	"get and patch on the objects they change (dangling --fix also delete on an\n"
	"object it collects, finalizers remove also update on namespaces/finalize to\n"
	"free a namespace); gc needs what delete needs. A type that may not be listed is reported and shown as\n"
	"unknown, never assumed empty: the built-in view role (which cannot read Secrets)\n"
	"is enough to see complete workload trees. Each command's page says what it\n"
	"needs, under PERMISSIONS.\n"
	"\n"
	"Four ClusterRoles grant exactly that (in the source: tests/e2e/rbac/*.yaml).\n"
	"tests/e2e/rbac.t binds each to a user of its own and checks that the user gets\n"
	"the admin's answers, and that the same role minus any one of its permissions\n"
	"makes the command stop with a clear forbidden error, report what it cannot see\n"
	"as unknown, and never change more than it promised. Narrow apiGroups and\n"
	"resources to the types you care about: the commands then warn about the rest.";

/* The ClusterRoles of tests/e2e/rbac/, as tested (see CMakeLists.txt). */
static const struct {
	const char *name, *yaml;
} rbac_roles[] = {
#include "rbac_roles.inc"
};

static const struct {
	const char *name, *used_by;
} rbac_role_use[] = {
	{"owners-read", "owners tree, owners graph, owners dangling, owners finalizers, owners why "
		"(its events list too)"},
	{"owners-fix", "owners dangling --fix, owners finalizers remove"},
	{"owners-gc", "owners gc (owners gc --dry-run=client needs only owners-read)"},
	{"owners-delete", "owners delete"},
};

static const struct man_section main_sections_end[] = {
	{"COMPATIBILITY",
		"Tested on Kubernetes v1.29.15, v1.32.2 and v1.36.3 (the oldest the Go module\n"
		"proxy serves buildable, one in between and the newest), each time against a\n"
		"real control plane built from that release's Go modules. The compatibility suite\n"
		"runs a cut of the end-to-end suites there: discovery through whatever the server\n"
		"offers (aggregated discovery apidiscovery.k8s.io/v2, v2beta1 on v1.29, and the\n"
		"per-group walk, forced on v1.29 with AggregatedDiscoveryEndpoint=false),\n"
		"protobuf and JSON lists, tree of real workload controllers' objects and of a\n"
		"custom resource as an exec-credential user, dangling --fix, finalizers remove,\n"
		"and delete in each cascade mode with the apiserver's GC off, stalled and on. CI\n"
		"runs it on the oldest release (v1.29.15); every other end-to-end suite runs on\n"
		"v1.36.3. v1.29.6, the oldest v1.29 on the proxy, cannot be built from it (some\n"
		"of its staging modules are missing there), so v1.29.15 stands for v1.29. How to\n"
		"run it: tests/README.md in the source."},
	{"COMPARED WITH",
		"- kubectl-tree (ahmetb): shows the dependents tree of one object, listing every\n"
		"type in full objects. owners lists metadata only, streamed and in parallel,\n"
		"scoped to the namespace that can matter, and also walks owners (--up), marks\n"
		"dangling references, cycles and objects stuck in deletion, and has\n"
		"json/yaml/dot/name output. Measured side by side in tests/bench/REPORT.md of\n"
		"the source.\n"
		"\n"
		"- kube-lineage (tohjustin): relationships beyond ownerReferences (services,\n"
		"volumes, events...). owners stays with ownership, which is what cascading\n"
		"deletion follows, and acts on it.\n"
		"\n"
		"- kubectl-check-ownerreferences (kubernetes-sigs): reports invalid references\n"
		"(namespace and kind mismatches). owners dangling classifies every reference the\n"
		"way the GC decides, says what the GC will do, and fixes them with conditional\n"
		"patches.\n"
		"\n"
		"- kubectl delete --cascade: asks the cluster's garbage collector to cascade, so\n"
		"with the GC off or stuck nothing happens (foreground deletions hang on their\n"
		"finalizer). owners delete runs the same cascade from the client, resumable\n"
		"after an interruption, and cooperates with the GC when it runs.\n"
		"\n"
		"- knsk, kubectl-terminate and similar scripts: PUT objects without their\n"
		"finalizers, blindly. owners finalizers remove removes exactly the named\n"
		"finalizers with conditional patches, frees namespaces through finalize only\n"
		"when they are empty (or with --force), and says why an object is stuck first."},
	{NULL, NULL},
};

static void man_permissions(FILE *f)
{
	fputs(".SH PERMISSIONS\n", f);
	man_text(f, permissions_text);
	for (size_t i = 0; i < sizeof(rbac_roles) / sizeof(rbac_roles[0]); i++) {
		const char *used_by = "";

		for (size_t j = 0; j < sizeof(rbac_role_use) / sizeof(rbac_role_use[0]); j++)
			if (!strcmp(rbac_role_use[j].name, rbac_roles[i].name))
				used_by = rbac_role_use[j].used_by;
		fputs(".PP\n.B ", f);
		roff(f, rbac_roles[i].name);
		fputs("\n", f);
		if (*used_by) {
			fputs("\\- ", f);
			roff(f, used_by);
			fputc('\n', f);
		}
		fputs(".RS 2\n.nf\n", f);
		roff(f, rbac_roles[i].yaml);
		fputs(".fi\n.RE\n", f);
	}
}

/* owners(1): the commands, the flags without one, the global flags. */
static void write_main_page(FILE *f)
{
	const struct command *k;

	fprintf(f, ".TH OWNERS 1 \"\" \"owners %s\" \"owners manual\"\n", OWNERS_VERSION);
	fputs(".SH NAME\nowners \\- inspect Kubernetes ownership and delete with client\\-side cascading\n"
	      ".SH SYNOPSIS\n.B owners\n\\fICOMMAND\\fR [\\fIARGS\\fR] [\\fIflags\\fR]\n.br\n"
	      ".B kubectl owners\n\\fICOMMAND\\fR [\\fIARGS\\fR] [\\fIflags\\fR]\n"
	      ".SH DESCRIPTION\n"
	      "owners lists every deletable resource through discovery (metadata only), builds the "
	      "owner graph in memory and shows, checks and acts on it: trees of dependents or owners, "
	      "dangling ownerReferences, stuck finalizers and client\\-side cascading deletion. It is "
	      "also installed as \\fBkubectl\\-owners\\fR, so it works as a kubectl plugin.\n"
	      ".PP\nThis page says what holds for every command: how objects are named, how it "
	      "connects and lists, what it says about what it cannot see, the output formats, the "
	      "rule it follows wherever it changes objects, the permissions it needs (with "
	      "ClusterRoles that grant exactly them), the Kubernetes versions it is tested on, and "
	      "its exit status. Each command's own page (\\fBowners\\-tree\\fR(1) and the others "
	      "below) has its detail and sample output; \\fBowners help\\fR \\fICOMMAND\\fR is "
	      "the short form.\n"
	      ".SH COMMANDS\n", f);
	for (size_t k_i = 0; (k = owners_command_at(k_i)); k_i++) {
		if (k->hidden)
			continue;
		fputs(".TP\n.B ", f);
		roff(f, k->name);
		fputc('\n', f);
		roff(f, k->summary);
		fputs(" (see \\fBowners\\-", f);
		roff(f, k->name);
		fputs("\\fR(1))\n", f);
	}
	fputs(".SH OPTIONS\nWithout a command:\n", f);
	man_opts(f, owners_root_opts, NULL);
	fputs(".SH GLOBAL OPTIONS\n", f);
	man_opts(f, owners_global_opts, NULL);
	man_sections(f, main_sections);
	man_permissions(f);
	man_sections(f, main_sections_end);
	man_common_tail(f);
	fputs(".SH SEE ALSO\n", f);
	for (size_t k_i = 0; (k = owners_command_at(k_i)); k_i++)
		if (!k->hidden)
			fprintf(f, "\\fBowners\\-%s\\fR(1), ", k->name);
	fputs("\\fBkubectl\\fR(1)\n", f);
}

/* owners-COMMAND(1), a subcommand's flags in a section of their own. */
static void write_command_page(FILE *f, const struct command *c)
{
	char upper[64];
	size_t i;

	for (i = 0; c->name[i] && i + 1 < sizeof(upper); i++)
		upper[i] = (char)(c->name[i] >= 'a' && c->name[i] <= 'z' ? c->name[i] - 32 : c->name[i]);
	upper[i] = '\0';
	fprintf(f, ".TH OWNERS-%s 1 \"\" \"owners %s\" \"owners manual\"\n", upper, OWNERS_VERSION);
	fputs(".SH NAME\nowners\\-", f);
	roff(f, c->name);
	fputs(" \\- ", f);
	roff(f, c->summary);
	fputs("\n.SH SYNOPSIS\n.nf\n", f);
	roff(f, c->usage);
	fputs("\n.fi\n", f);
	if (c->description && *c->description) {
		fputs(".SH DESCRIPTION\n", f);
		man_text(f, c->description);
	}
	if (c->opts && c->opts->long_name) {
		fputs(".SH OPTIONS\n", f);
		man_opts(f, c->opts, c->outputs);
	}
	for (const struct command *const *sub = c->subcommands; sub && *sub; sub++) {
		fputs(".SH ", f);
		for (const char *ch = (*sub)->name; *ch; ch++)
			fputc(toupper((unsigned char)*ch), f);
		fputs(" OPTIONS\n", f);
		fprintf(f, "Of \\fBowners %s %s\\fR: ", c->name, (*sub)->name);
		roff(f, (*sub)->summary);
		fputs(".\n.br\n.B ", f);
		roff(f, (*sub)->usage);
		fputc('\n', f);
		man_opts(f, (*sub)->opts, (*sub)->outputs);
	}
	man_sections(f, c->man_sections);
	if (c->json_schema) {
		fputs(".SH OUTPUT\n.nf\n", f);
		roff(f, c->json_schema);
		fputs("\n.fi\n", f);
	}
	fputs(".SH GLOBAL OPTIONS\nSee \\fBowners\\fR(1) for the flags every command takes "
	      "(\\-\\-kubeconfig, \\-\\-context, \\-n, \\-A, \\-\\-as, \\-v and the others).\n", f);
	if (c->rbac) {
		fputs(".SH PERMISSIONS\nThe Kubernetes RBAC permissions it needs: ", f);
		roff(f, c->rbac);
		fputs(". ClusterRoles that grant exactly this (owners\\-read, owners\\-fix, "
		      "owners\\-gc, owners\\-delete), tested as such, are in \\fBowners\\fR(1), "
		      "PERMISSIONS.\n", f);
	}
	man_common_tail(f);
	if (c->examples && *c->examples) {
		fputs(".SH EXAMPLES\n.nf\n", f);
		roff(f, c->examples);
		fputs("\n.fi\n", f);
	}
	fputs(".SH SEE ALSO\n\\fBowners\\fR(1), \\fBkubectl\\fR(1)\n", f);
}

static int write_page(const char *dir, const struct command *c)
{
	char path[4096];
	FILE *f;

	if (c)
		snprintf(path, sizeof(path), "%s/owners-%s.1", dir, c->name);
	else
		snprintf(path, sizeof(path), "%s/owners.1", dir);
	f = fopen(path, "w");
	if (!f) {
		error_msg("cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	if (c)
		write_command_page(f, c);
	else
		write_main_page(f);
	if (fclose(f)) {
		error_msg("cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

enum exit_code cmd_man(struct cmd_run *run)
{
	const struct string_list *args = run->words;
	const struct command *c;

	if (args->count != 1) {
		error_msg("usage: owners __man DIR");
		return EXIT_USAGE;
	}
	mkdir(args->items[0], 0755);
	if (write_page(args->items[0], NULL))
		return EXIT_ERROR;
	for (size_t c_i = 0; (c = owners_command_at(c_i)); c_i++)
		if (!c->hidden && write_page(args->items[0], c))
			return EXIT_ERROR;
	return EXIT_OK;
}

/* The command: its usage, help, man page text and permissions. */
const struct command man_command = {
	.name = "__man",
	.fn = cmd_man,
	.opts = no_opts,
	.usage = "owners __man DIR",
	.summary = "write the man pages into DIR",
	.description = "",
	.examples = "",
	.hidden = 1,
};
