#!/usr/bin/env python3
"""Other tools' dumps of the current cluster (KUBECONFIG), laid out as
those tools lay them out, for the e2e suites (snapshot.t, dumps.t).

  dumps.py must-gather DIR NOW   oc adm must-gather / inspect: one List
        file per type and namespace under DIR (the image's directory),
        namespaces/<ns>/<group or core>/<plural>.yaml and
        cluster-scoped-resources/<group or core>/<plural>.yaml, and the
        timestamp file beside DIR (gathering started at NOW, unix seconds,
        and ended ten minutes later: the dump is of its start)
  dumps.py bundle DIR            a Troubleshoot support bundle's
        clusterResources collector (pkg/collect/cluster_resources.go):
        cluster-resources/<dir>/<ns>.json for the namespaced built-in types
        it collects, cluster-resources/<dir>.json for the cluster-scoped
        ones, each a <Kind>List; only the types it collects

Every type kubectl can list and delete is read with kubectl get -A.
"""
import json
import os
import subprocess
import sys
import time

import yaml


def kubectl_json(*args):
    out = subprocess.run(["kubectl"] + list(args), capture_output=True, text=True).stdout
    return json.loads(out or '{"items": []}')


def listable_types():
    return subprocess.run(["kubectl", "api-resources", "--verbs=list,delete", "-o", "name"],
                          capture_output=True, text=True, check=True).stdout.split()


def must_gather(top, now):
    for name in listable_types():
        plural, _, group = name.partition(".")
        by_ns = {}
        for item in kubectl_json("get", name, "-A", "-o", "json")["items"]:
            by_ns.setdefault(item["metadata"].get("namespace", ""), []).append(item)
        for ns, items in by_ns.items():
            base = os.path.join(top, "namespaces", ns) if ns else os.path.join(top, "cluster-scoped-resources")
            path = os.path.join(base, group or "core", plural + ".yaml")
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                yaml.safe_dump({"apiVersion": "v1", "kind": "List", "items": items}, f)
    stamp = lambda t: time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(t)) + ".000000000 +0000 UTC m=+0.000000001"
    with open(os.path.join(os.path.dirname(top.rstrip("/")), "timestamp"), "w") as f:
        f.write(stamp(now) + "\n" + stamp(now + 600) + "\n")


# What the collector gathers: (directory, kubectl type, namespaced)
BUNDLE_TYPES = [
    ("namespaces", "namespaces", False),
    ("nodes", "nodes", False),
    ("pvs", "persistentvolumes", False),
    ("storage-classes", "storageclasses.storage.k8s.io", False),
    ("custom-resource-definitions", "customresourcedefinitions.apiextensions.k8s.io", False),
    ("pods", "pods", True),
    ("services", "services", True),
    ("deployments", "deployments.apps", True),
    ("replicasets", "replicasets.apps", True),
    ("statefulsets", "statefulsets.apps", True),
    ("daemonsets", "daemonsets.apps", True),
    ("jobs", "jobs.batch", True),
    ("cronjobs", "cronjobs.batch", True),
    ("pvcs", "persistentvolumeclaims", True),
    ("configmaps", "configmaps", True),
    ("events", "events", True),
]


def bundle(top):
    base = os.path.join(top, "cluster-resources")
    os.makedirs(base, exist_ok=True)
    os.makedirs(os.path.join(top, "cluster-info"), exist_ok=True)
    version = json.loads(subprocess.run(["kubectl", "version", "-o", "json"], capture_output=True,
                                        text=True).stdout)["serverVersion"]
    with open(os.path.join(top, "cluster-info", "cluster_version.json"), "w") as f:
        json.dump({"info": version, "string": version["gitVersion"]}, f)
    namespaces = [n["metadata"]["name"] for n in kubectl_json("get", "namespaces", "-o", "json")["items"]]
    for directory, kind, namespaced in BUNDLE_TYPES:
        doc = kubectl_json("get", kind, "-A", "-o", "json")
        items = doc["items"]
        list_kind = (items[0]["kind"] + "List") if items else "List"
        if not namespaced:
            with open(os.path.join(base, directory + ".json"), "w") as f:
                json.dump({"kind": list_kind, "apiVersion": "v1", "items": items}, f, indent=2)
            continue
        os.makedirs(os.path.join(base, directory), exist_ok=True)
        for ns in namespaces:
            mine = [i for i in items if i["metadata"].get("namespace") == ns]
            with open(os.path.join(base, directory, ns + ".json"), "w") as f:
                json.dump({"kind": list_kind, "apiVersion": "v1", "items": mine}, f, indent=2)


def main():
    if len(sys.argv) >= 4 and sys.argv[1] == "must-gather":
        must_gather(sys.argv[2], int(sys.argv[3]))
    elif len(sys.argv) >= 3 and sys.argv[1] == "bundle":
        bundle(sys.argv[2])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
