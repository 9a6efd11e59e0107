/*
 * kubectl cluster-info dump --output-directory=DIR, as kubectl writes it
 * (k8s.io/kubectl pkg/cmd/clusterinfo/clusterinfo_dump.go):
 *
 *	DIR/nodes.json                    the NodeList
 *	DIR/NS/events.json                the namespace's EventList, then
 *	DIR/NS/replication-controllers.json, services.json, daemonsets.json,
 *	DIR/NS/deployments.json, replicasets.json, pods.json
 *	DIR/NS/POD/logs.txt               each pod's logs: not read
 *
 * (.yaml with -o yaml), for kube-system and the current namespace, the
 * --namespaces given, or every namespace with -A. Each file is a typed
 * List, whole: its items carry no kind (the List's names it), and its
 * type is the file's (replication-controllers is replicationcontrollers).
 * No time of its own: the files' modification time stands for it.
 */

#include "snapshot_dump_clusterinfo.h"

#include <string.h>

#include "snapshot_dump_dir.h"
#include "strv.h"

struct listed_type {
	const char *file; /* the file's stem */
	const char *group;
	const char *plural;
	const char *api_version;
	const char *kind;
};

static const struct listed_type per_namespace[] = {
	{ "events", "", "events", "v1", "Event" },
	{ "replication-controllers", "", "replicationcontrollers", "v1", "ReplicationController" },
	{ "services", "", "services", "v1", "Service" },
	{ "daemonsets", "apps", "daemonsets", "apps/v1", "DaemonSet" },
	{ "deployments", "apps", "deployments", "apps/v1", "Deployment" },
	{ "replicasets", "apps", "replicasets", "apps/v1", "ReplicaSet" },
	{ "pods", "", "pods", "v1", "Pod" },
};

static const struct listed_type nodes = { "nodes", "", "nodes", "v1", "Node" };

static const char *const exts[] = { ".json", ".yaml" };

/* dir/stem.json or dir/stem.yaml into path: 1 found (which in *yaml), 0
 * none, or OWNERS_ENOMEM. */
static int find_file(struct owners_buf *path, int *yaml, const char *dir,
		     const struct listed_type *t)
{
	struct owners_buf name = OWNERS_BUF_INIT;
	size_t i;
	int rc = 0;

	for (i = 0; !rc && i < 2; i++) {
		owners_buf_reset(&name);
		if (owners_buf_adds(&name, t->file) || owners_buf_adds(&name, exts[i]) ||
		    owners_snapshot_dump_dir_join(path, dir, name.ptr))
			rc = OWNERS_ENOMEM;
		else if (owners_snapshot_dump_dir_entry(path->ptr) == OWNERS_SNAPSHOT_DUMP_FILE)
			rc = 1;
		*yaml = i == 1;
	}
	owners_buf_clear(&name);
	return rc;
}

/* dir's file of t, when it has one, added as the List of t in ns (NULL:
 * cluster-scoped); *added 1 when it had one. */
static int add_file(struct owners_snapshot_dump_layout *l, int *added, const char *dir,
		    const struct listed_type *t, const char *ns, struct owners_error *err)
{
	struct owners_snapshot_dump_layout_source s;
	struct owners_buf path = OWNERS_BUF_INIT;
	int rc;

	memset(&s, 0, sizeof(s));
	*added = 0;
	rc = find_file(&path, &s.yaml, dir, t);
	if (rc == 1) {
		*added = 1;
		s.path = path.ptr;
		s.claim = OWNERS_SNAPSHOT_DUMP_CLAIM_FILE;
		s.namespace_ = (char *)ns;
		s.group = (char *)t->group;
		s.plural = (char *)t->plural;
		s.api_version = t->api_version;
		s.kind = t->kind;
		rc = owners_snapshot_dump_layout_add(l, &s);
	}
	owners_buf_clear(&path);
	return rc ? owners_error_oom(err) : 0;
}

/* DIR/NS/: a namespace's files, when it has replication-controllers.*,
 * the name no other tool writes. */
static int add_namespace(struct owners_snapshot_dump_layout *l, int *found, const char *dir,
			 const char *ns, struct owners_error *err)
{
	struct owners_buf path = OWNERS_BUF_INIT;
	size_t i;
	int added = 0, yaml, rc = find_file(&path, &yaml, dir, &per_namespace[1]);

	owners_buf_clear(&path);
	if (rc <= 0)
		return rc ? owners_error_oom(err) : 0;
	*found = 1;
	rc = 0;
	for (i = 0; !rc && i < sizeof(per_namespace) / sizeof(per_namespace[0]); i++)
		rc = add_file(l, &added, dir, &per_namespace[i], ns, err);
	return rc;
}

int owners_snapshot_dump_clusterinfo_find(struct owners_snapshot_dump_layout *l, int *found,
					  const char *dir, struct owners_error *err)
{
	struct owners_buf path = OWNERS_BUF_INIT;
	char **names = NULL;
	size_t n = 0, i, before = l->count;
	int added = 0, rc;

	*found = 0;
	/* Nodes first, as kubectl writes them. */
	rc = add_file(l, &added, dir, &nodes, NULL, err);
	if (rc || !added || (rc = owners_snapshot_dump_dir_list(&names, &n, dir, err)))
		return rc;
	for (i = 0; !rc && i < n; i++) {
		if (owners_snapshot_dump_dir_join(&path, dir, names[i]))
			rc = owners_error_oom(err);
		else if (owners_snapshot_dump_dir_entry(path.ptr) == OWNERS_SNAPSHOT_DUMP_DIR)
			rc = add_namespace(l, found, path.ptr, names[i], err);
	}
	if (*found)
		l->format = "kubectl cluster-info dump";
	else
		owners_snapshot_dump_layout_truncate(l, before);
	owners_buf_clear(&path);
	owners_strv_free(names, n);
	return rc;
}
