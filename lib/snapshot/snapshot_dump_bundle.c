/*
 * A Troubleshoot support bundle (replicatedhq/troubleshoot), unpacked
 * (`tar xzf support-bundle-....tar.gz`; the archive itself is not read),
 * as its clusterResources collector writes it (pkg/collect/
 * cluster_resources.go, pkg/constants):
 *
 *	cluster-resources/<resource>.json        a cluster-scoped type's List
 *	                                         (nodes.json, pvs.json, ...)
 *	cluster-resources/<resource>/<ns>.json   a namespaced type's List, per namespace
 *	cluster-resources/custom-resources/<plural.group>.json        a bare array: all
 *	cluster-resources/custom-resources/<plural.group>/<ns>.json   a bare array, per
 *	        namespace that has any (older bundles: .yaml; newer ones keep a
 *	        .yaml link to the .json: read once)
 *	cluster-resources/<resource>-errors.json the lists that failed: not read
 *	cluster-info/cluster_version.json        the server's version
 *
 * Its directories are not all named after their resource ("pvs",
 * "network-policy", ...): the table below says which type each is, and
 * older bundles wrote items without kind or apiVersion, which the table
 * supplies. A directory the table does not know is read all the same, its
 * objects saying what they are. The bundle has no time of its own (its
 * name's is local time without a zone): the files' modification time
 * stands for it.
 */

#include "snapshot_dump_bundle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "snapshot_dump_dir.h"
#include "strv.h"

#define VERSION_MAX 65536

struct builtin {
	const char *name; /* the file's stem or the directory's name */
	const char *api_version;
	const char *kind;
	const char *plural;
};

static const struct builtin builtins[] = {
	{ "namespaces", "v1", "Namespace", "namespaces" },
	{ "pods", "v1", "Pod", "pods" },
	{ "pod-disruption-budgets", "policy/v1", "PodDisruptionBudget", "poddisruptionbudgets" },
	{ "services", "v1", "Service", "services" },
	{ "deployments", "apps/v1", "Deployment", "deployments" },
	{ "replicasets", "apps/v1", "ReplicaSet", "replicasets" },
	{ "statefulsets", "apps/v1", "StatefulSet", "statefulsets" },
	{ "daemonsets", "apps/v1", "DaemonSet", "daemonsets" },
	{ "jobs", "batch/v1", "Job", "jobs" },
	{ "cronjobs", "batch/v1", "CronJob", "cronjobs" },
	{ "ingress", "networking.k8s.io/v1", "Ingress", "ingresses" },
	{ "network-policy", "networking.k8s.io/v1", "NetworkPolicy", "networkpolicies" },
	{ "resource-quota", "v1", "ResourceQuota", "resourcequotas" },
	{ "storage-classes", "storage.k8s.io/v1", "StorageClass", "storageclasses" },
	{ "custom-resource-definitions", "apiextensions.k8s.io/v1", "CustomResourceDefinition",
	  "customresourcedefinitions" },
	{ "nodes", "v1", "Node", "nodes" },
	{ "limitranges", "v1", "LimitRange", "limitranges" },
	{ "events", "v1", "Event", "events" },
	{ "pvs", "v1", "PersistentVolume", "persistentvolumes" },
	{ "pvcs", "v1", "PersistentVolumeClaim", "persistentvolumeclaims" },
	{ "roles", "rbac.authorization.k8s.io/v1", "Role", "roles" },
	{ "rolebindings", "rbac.authorization.k8s.io/v1", "RoleBinding", "rolebindings" },
	{ "clusterroles", "rbac.authorization.k8s.io/v1", "ClusterRole", "clusterroles" },
	{ "clusterrolebindings", "rbac.authorization.k8s.io/v1", "ClusterRoleBinding",
	  "clusterrolebindings" },
	{ "priorityclasses", "scheduling.k8s.io/v1", "PriorityClass", "priorityclasses" },
	{ "endpoints", "v1", "Endpoints", "endpoints" },
	{ "endpointslices", "discovery.k8s.io/v1", "EndpointSlice", "endpointslices" },
	{ "serviceaccounts", "v1", "ServiceAccount", "serviceaccounts" },
	{ "leases", "coordination.k8s.io/v1", "Lease", "leases" },
	{ "volumeattachments", "storage.k8s.io/v1", "VolumeAttachment", "volumeattachments" },
	{ "configmaps", "v1", "ConfigMap", "configmaps" },
	{ "certificatesigningrequests", "certificates.k8s.io/v1", "CertificateSigningRequest",
	  "certificatesigningrequests" },
	{ "ingress-classes", "networking.k8s.io/v1", "IngressClass", "ingressclasses" },
	{ "validating-webhook-configurations", "admissionregistration.k8s.io/v1",
	  "ValidatingWebhookConfiguration", "validatingwebhookconfigurations" },
	{ "mutating-webhook-configurations", "admissionregistration.k8s.io/v1",
	  "MutatingWebhookConfiguration", "mutatingwebhookconfigurations" },
};

/* What the collector writes beside the objects: RBAC reviews, pull
 * secrets' summaries, discovery's groups and resources, a license. */
static const char *const not_objects[] = {
	"auth-cani-list", "image-pull-secrets", "groups", "resources",
	"license",        "custom-resources",   NULL
};

struct walk {
	struct owners_snapshot_dump_layout *l;
	struct owners_error *err;
	struct owners_buf group; /* scratch for a source's group */
};

static const struct builtin *builtin_named(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++)
		if (!strcmp(builtins[i].name, name))
			return &builtins[i];
	return NULL;
}

static int skipped_name(const char *stem)
{
	size_t i, n = strlen(stem);

	for (i = 0; not_objects[i]; i++)
		if (!strcmp(stem, not_objects[i]))
			return 1;
	return n > 7 && !strcmp(stem + n - 7, "-errors");
}

/* The source's type from the table: the hint and the kind for items
 * written without one. */
static int from_builtin(struct walk *w, struct owners_snapshot_dump_layout_source *s,
			const struct builtin *b)
{
	const char *slash;

	if (!b)
		return 0;
	slash = strchr(b->api_version, '/');
	owners_buf_reset(&w->group);
	if (slash && owners_buf_add(&w->group, b->api_version, (size_t)(slash - b->api_version)))
		return OWNERS_ENOMEM;
	s->group = w->group.ptr;
	s->plural = (char *)b->plural;
	s->api_version = b->api_version;
	s->kind = b->kind;
	return 0;
}

/* "widgets.example.com" -> group "example.com", plural "widgets". */
static int from_crd_name(struct walk *w, struct owners_snapshot_dump_layout_source *s,
			 struct owners_buf *plural, const char *name)
{
	const char *dot = strchr(name, '.');

	owners_buf_reset(&w->group);
	owners_buf_reset(plural);
	if (!dot)
		return 0;
	if (owners_buf_adds(&w->group, dot + 1) ||
	    owners_buf_add(plural, name, (size_t)(dot - name)))
		return OWNERS_ENOMEM;
	s->group = w->group.ptr;
	s->plural = plural->ptr;
	return 0;
}

/* Whether names (sorted) holds stem.json beside stem.yaml. */
static int json_twin(char **names, size_t n, const char *name)
{
	struct owners_buf twin = OWNERS_BUF_INIT;
	size_t i;
	int yes = 0;

	if (owners_snapshot_dump_dir_ext(name) != OWNERS_SNAPSHOT_DUMP_EXT_YAML ||
	    owners_snapshot_dump_dir_stem(&twin, name) || owners_buf_adds(&twin, ".json")) {
		owners_buf_clear(&twin);
		return 0;
	}
	for (i = 0; i < n && !yes; i++)
		yes = !strcmp(names[i], twin.ptr);
	owners_buf_clear(&twin);
	return yes;
}

/* One file of a bundle's: a List, claimed, for namespace ns (NULL: the
 * whole type). */
static int add_list(struct walk *w, struct owners_snapshot_dump_layout_source *s, const char *path,
		    const char *name, const char *ns)
{
	s->path = (char *)path;
	s->claim = OWNERS_SNAPSHOT_DUMP_CLAIM_FILE;
	s->namespace_ = (char *)ns;
	s->yaml = owners_snapshot_dump_dir_ext(name) == OWNERS_SNAPSHOT_DUMP_EXT_YAML;
	return owners_snapshot_dump_layout_add(w->l, s) ? owners_error_oom(w->err) : 0;
}

/* dir/<ns>.json: each a List of s's type in namespace <ns>. */
static int add_per_namespace(struct walk *w, const char *dir,
			     struct owners_snapshot_dump_layout_source *s)
{
	struct owners_buf path = OWNERS_BUF_INIT, ns = OWNERS_BUF_INIT;
	char **names;
	size_t n, i;
	int rc = owners_snapshot_dump_dir_list(&names, &n, dir, w->err);

	for (i = 0; !rc && i < n; i++) {
		if (!owners_snapshot_dump_dir_ext(names[i]) || json_twin(names, n, names[i]))
			continue;
		owners_buf_reset(&ns);
		if (owners_snapshot_dump_dir_join(&path, dir, names[i]) ||
		    owners_snapshot_dump_dir_stem(&ns, names[i]))
			rc = owners_error_oom(w->err);
		else if (owners_snapshot_dump_dir_entry(path.ptr) == OWNERS_SNAPSHOT_DUMP_FILE)
			rc = add_list(w, s, path.ptr, names[i], ns.ptr);
	}
	owners_buf_clear(&path);
	owners_buf_clear(&ns);
	owners_strv_free(names, n);
	return rc;
}

/* One entry of cluster-resources/ or of custom-resources/ (crs). */
static int add_entry(struct walk *w, const char *path, const char *name, int crs, char **names,
		     size_t n)
{
	struct owners_snapshot_dump_layout_source s;
	struct owners_buf stem = OWNERS_BUF_INIT, plural = OWNERS_BUF_INIT;
	enum owners_snapshot_dump_dir_entry_kind e = owners_snapshot_dump_dir_entry(path);
	int rc = 0;

	memset(&s, 0, sizeof(s));
	s.array_is_list = crs;
	if (owners_snapshot_dump_dir_stem(&stem, name))
		rc = OWNERS_ENOMEM;
	else if (e != OWNERS_SNAPSHOT_DUMP_DIR &&
		 (!owners_snapshot_dump_dir_ext(name) || json_twin(names, n, name)))
		e = OWNERS_SNAPSHOT_DUMP_MISSING; /* not a file of objects */
	else if (skipped_name(e == OWNERS_SNAPSHOT_DUMP_DIR ? name : stem.ptr))
		e = OWNERS_SNAPSHOT_DUMP_MISSING;
	else
		rc = crs ? from_crd_name(w, &s, &plural,
					 e == OWNERS_SNAPSHOT_DUMP_DIR ? name : stem.ptr)
			 : from_builtin(
				   w, &s,
				   builtin_named(e == OWNERS_SNAPSHOT_DUMP_DIR ? name : stem.ptr));
	if (rc)
		rc = owners_error_oom(w->err);
	else if (e == OWNERS_SNAPSHOT_DUMP_DIR)
		rc = add_per_namespace(w, path, &s);
	else if (e == OWNERS_SNAPSHOT_DUMP_FILE)
		rc = add_list(w, &s, path, name, NULL);
	owners_buf_clear(&stem);
	owners_buf_clear(&plural);
	return rc;
}

static int add_dir(struct walk *w, const char *dir, int crs)
{
	struct owners_buf path = OWNERS_BUF_INIT;
	char **names;
	size_t n, i;
	int rc = owners_snapshot_dump_dir_list(&names, &n, dir, w->err);

	for (i = 0; !rc && i < n; i++) {
		if (owners_snapshot_dump_dir_join(&path, dir, names[i]))
			rc = owners_error_oom(w->err);
		else
			rc = add_entry(w, path.ptr, names[i], crs, names, n);
	}
	owners_buf_clear(&path);
	owners_strv_free(names, n);
	return rc;
}

/* cluster-info/cluster_version.json: {"info": {"gitVersion": ...}, "string": ...}. */
static int read_version(struct owners_snapshot_dump_layout *l, const char *bundle)
{
	struct owners_buf path = OWNERS_BUF_INIT;
	struct owners_json_value *v = NULL;
	char *text = malloc(VERSION_MAX);
	const char *s = NULL;
	size_t n = 0;
	FILE *f = NULL;
	int64_t mtime;
	int rc = 0;

	if (text &&
	    !owners_snapshot_dump_dir_join(&path, bundle, "cluster-info/cluster_version.json"))
		f = owners_snapshot_dump_dir_open(path.ptr, &mtime);
	if (f) {
		n = fread(text, 1, VERSION_MAX, f);
		fclose(f);
	}
	if (n && !owners_json_parse(&v, text, n, NULL)) {
		s = owners_json_string(owners_json_get(v, "string"));
		if (!s)
			s = owners_json_string(owners_json_path(v, "info", "gitVersion", NULL));
	}
	if (s && !*l->server_version) {
		free(l->server_version);
		if (!(l->server_version = owners_strdup(s)))
			rc = OWNERS_ENOMEM;
	}
	owners_json_value_free(v);
	owners_buf_clear(&path);
	free(text);
	return rc;
}

static int add_bundle(struct walk *w, const char *bundle)
{
	struct owners_buf dir = OWNERS_BUF_INIT;
	int rc = 0;

	if (owners_snapshot_dump_dir_join(&dir, bundle, "cluster-resources") ||
	    read_version(w->l, bundle))
		rc = owners_error_oom(w->err);
	if (!rc)
		rc = add_dir(w, dir.ptr, 0);
	if (!rc &&
	    !owners_snapshot_dump_dir_join(&dir, bundle, "cluster-resources/custom-resources") &&
	    owners_snapshot_dump_dir_is_dir(dir.ptr))
		rc = add_dir(w, dir.ptr, 1);
	owners_buf_clear(&dir);
	return rc;
}

int owners_snapshot_dump_bundle_find(struct owners_snapshot_dump_layout *l, int *found,
				     const char *dir, struct owners_error *err)
{
	struct walk w = { l, err, OWNERS_BUF_INIT };
	struct owners_buf path = OWNERS_BUF_INIT;
	char **names = NULL;
	size_t n = 0, i;
	int rc = 0;

	*found = 0;
	if (owners_snapshot_dump_dir_has_dir(dir, "cluster-resources")) {
		*found = 1;
		rc = add_bundle(&w, dir);
	} else if (!(rc = owners_snapshot_dump_dir_list(&names, &n, dir, err))) {
		/* The directory the archive unpacks into, or several. */
		for (i = 0; !rc && i < n; i++) {
			if (owners_snapshot_dump_dir_join(&path, dir, names[i]))
				rc = owners_error_oom(err);
			else if (owners_snapshot_dump_dir_entry(path.ptr) ==
					 OWNERS_SNAPSHOT_DUMP_DIR &&
				 owners_snapshot_dump_dir_has_dir(path.ptr, "cluster-resources")) {
				*found = 1;
				rc = add_bundle(&w, path.ptr);
			}
		}
	}
	if (*found)
		l->format = "support bundle";
	owners_buf_clear(&path);
	owners_buf_clear(&w.group);
	owners_strv_free(names, n);
	return rc;
}
