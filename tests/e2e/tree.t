#!/usr/bin/env bash
# owners tree / owners graph against a real control plane with the
# workload controllers (so a Deployment really makes ReplicaSets and Pods).
. "$(dirname "$0")/lib.sh"
require dot:graphviz man:man-db python3:python3

start_cluster C --gc=stalled --controllers
. "$C/env"

uid() { kubectl get "$@" -o jsonpath='{.metadata.uid}'; }

# ---- a Deployment made by the real controllers ----------------------------
kubectl create deployment web --image=nginx --replicas=2 >/dev/null
wait_for "2 pods of web" 60 bash -c '[[ $(kubectl get pods -l app=web -o name | wc -l) == 2 ]]'
rs=$(kubectl get rs -l app=web -o jsonpath='{.items[0].metadata.name}')
pods=$(kubectl get pods -l app=web -o jsonpath='{.items[*].metadata.name}')

run owners tree deployment/web
ok $rc "tree deployment/web exits 0"
like "$out" "^NAMESPACE +NAME +READY +STATUS +AGE" "header has the kubectl-tree columns"
like "$out" "default +Deployment/web +0/2 " "deployment row with READY 0/2"
like "$out" "└── ReplicaSet/$rs" "replicaset is the deployment's child"
for p in $pods; do
  like "$out" "    [├└]── Pod/$p +0/1 +Pending" "pod $p under the replicaset, Pending"
done
is "$(printf '%s\n' "$out" | wc -l)" 5 "exactly header + deployment + replicaset + 2 pods"
is "$err" "" "nothing on stderr for a complete scan"

# A type alone means every object of it, as in kubectl get.
kubectl create namespace many >/dev/null
kubectl -n many create deployment api --image=nginx --replicas=0 >/dev/null
kubectl -n many create deployment web --image=nginx --replicas=0 >/dev/null
wait_for "api's ReplicaSet" 60 bash -c '[[ -n $(kubectl -n many get rs -l app=api -o name) ]]'
run owners -n many tree deployments
ok $rc "tree deployments (a type alone) exits 0"
like "$out" "many +Deployment/api .*"$'\n'"many +└── ReplicaSet/api-" "every Deployment is a root, with its tree: api"
like "$out" "many +Deployment/web " "and web"
run owners tree deployments -A
like "$out" "default +Deployment/web .*"$'\n'".*many +Deployment/api .*"$'\n'".*many +Deployment/web " \
  "-A: every Deployment everywhere, in kubectl's order"
run owners -n many tree statefulsets
is "$rc" 0 "a type with no objects: exit 0, as kubectl get"
is "$err" "No resources found in many namespace." "and kubectl's words on stderr"
run owners -n many tree deployments -l app=nomatch
is "$rc:$out:$err" "0::No resources found in many namespace." "a selector that matches nothing: the same, as kubectl get -l"
for fmt in json yaml; do
  run owners -n many tree statefulsets -o $fmt
  is "$rc:$err" "0:" "nothing found, -o $fmt: exit 0, nothing on stderr"
  printf '%s' "$out" | python3 -c '
import json, sys, yaml
d = (json.load if sys.argv[1] == "json" else yaml.safe_load)(sys.stdin)
assert d["kind"] == "OwnersTree" and d["items"] == [] and d["warnings"] == [], d
' $fmt
  ok $? "  and an empty document: items [], warnings []"
done
# A category, as kubectl reads one: all is every type discovery puts in it.
kubectl -n many create service clusterip api --tcp=80 >/dev/null
run owners -n many tree all
is "$rc" 0 "tree all (kubectl's category) exits 0"
like "$out" "many +Deployment/api .*"$'\n'"many +└── ReplicaSet/api-" "  its Deployments, with their trees"
like "$out" "many +Deployment/web " "  every one"
like "$out" "many +Service/api " "  its Services"
unlike "$out" "ConfigMap/" "  not what is in no category (ConfigMaps)"
run owners -n many tree all/api
is "$rc" 2 "a category with a name (all/api): a usage error, exit 2"
is "$err" "error: cannot name 'all/api': 'all' is a category of types, not a type" "  in one line"
# #43: every row is an item of its own (no more nesting under owners.dependents)
run owners tree deployment/web -o jsonpath='{range .items[*]}{.kind}/{.metadata.name}:{range .metadata.ownerReferences[*]}{.kind}{end}{"\n"}{end}'
like "$rc:$out" "^0:Deployment/web:"$'\n'"ReplicaSet/$rs:Deployment"$'\n'"Pod/.*:ReplicaSet" \
  "-o jsonpath=, as kubectl get users write it (range, literals, nested)"
run owners tree deployment/web -o jsonpath='{.items[*].metadata.name}'
is "$rc:$(tr ' ' '\n' <<<"$out" | sort | tr '\n' ' ')" "0:$(tr ' ' '\n' <<<"web $rs $pods" | sort | tr '\n' ' ')" \
  "-o jsonpath: .metadata.name of every object of the tree, as kubectl get users script it"
run owners tree deployment/web -o jsonpath='{.items[*].name}' --allow-missing-template-keys=false
like "$rc:$err" "^1:error: error executing jsonpath '\{\.items\[\*\]\.name\}': name is not found" \
  "-o jsonpath on a field no item has, --allow-missing-template-keys=false: exit 1, as kubectl"
run owners tree deployment/web -o custom-columns=
is "$rc:$out" "2:" "-o custom-columns= (empty): a usage error, no blank lines"
run owners tree deployment/web -o custom-columns=KIND:.kind,NAME:.metadata.name
like "$out" $'^KIND +NAME\nDeployment +web\nReplicaSet +web-' "-o custom-columns=: a row per object of the tree, depth first"
run owners tree deployment/web -o custom-columns=KIND:.kind,DEPTH:.owners.depth --no-headers
like "$out" $'^Deployment +0\nReplicaSet +1\nPod +2' "  owners' facts under .owners"
unlike "$out" "KIND" "  --no-headers"
run owners tree deployment/web -o 'jsonpath={.items[0'
like "$rc:$err" "^2:error: error parsing jsonpath \\{.items\\[0: unclosed" "a template that does not parse: a usage error naming it"
run owners tree deployment/web -o json
printf '%s' "$out" | python3 -c 'import json, sys; assert json.load(sys.stdin)["warnings"] == []'
ok $? "tree -o json has a warnings key"
run owners graph -o json
printf '%s' "$out" | python3 -c 'import json, sys; assert json.load(sys.stdin)["warnings"] == []'
ok $? "graph -o json has a warnings key"

for spelled in "deploy web" "Deployment/web" "deployments.apps/web" "deployment.v1.apps/web" "DEPLOY/web"; do
  run owners tree $spelled
  like "$out" "ReplicaSet/$rs" "type spelled '$spelled' resolves"
done

run owners tree deployment/web -d 1
unlike "$out" "Pod/" "--depth 1 stops above the pods"
like "$out" "more below --depth" "--depth says what it cut"
# -o name is the delete's set, piped to act on: never a part of it (#51)
run owners tree deployment/web -o name --depth 1
is "$rc" 2 "-o name with --depth: a usage error (-o name is the whole delete set)"
like "$err" "^error: -o name lists everything a cascading delete of the roots deletes; --depth cannot cut it short" "... saying why"
run owners tree deployment/web -o name --up --depth 1
is "$rc" 0 "--up -o name --depth: the owners, as deep as asked"

run owners tree deployments -l app=web
like "$out" "Deployment/web" "-l selects the roots through the API server"

run owners tree pod/${pods%% *} --up
ok $rc "--up exits 0"
like "$out" "Pod/${pods%% *}" "--up starts at the pod"
like "$out" "└── ReplicaSet/$rs" "its owner"
like "$out" "        └── Deployment/web" "and the owner's owner"
# --up lists what is on the way up: the pod's type, then the type its
# reference names, then the one that names (#54), not every type served
run owners tree pod/${pods%% *} --up -v=6
is "$(grep -E '^GET .*[?&]limit=' <<<"$err" | awk '{print $2}' | sed -E 's#^https://[^/]+##; s#[?].*##' | sort | tr '\n' ' ')" \
  "/api/v1/namespaces/default/pods /apis/apps/v1/namespaces/default/deployments /apis/apps/v1/namespaces/default/replicasets " \
  "--up lists the pod's type, its owner's, and that one's owner's: no other type"

# ---- every output format --------------------------------------------------
run owners tree deployment/web -o json
ok $rc "-o json exits 0"
printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
root = d["items"][0]
assert list(d) == ["apiVersion", "kind", "metadata", "items", "warnings"], list(d)
assert d["kind"] == "OwnersTree" and d["metadata"]["direction"] == "dependents"
assert list(root) == ["apiVersion", "kind", "metadata", "owners"], list(root)
assert root["apiVersion"] == "apps/v1" and root["kind"] == "Deployment"
assert root["metadata"]["name"] == "web" and root["metadata"]["namespace"] == "default"
assert root["metadata"]["uid"] and root["metadata"]["creationTimestamp"] and root["owners"]["depth"] == 0
rs = d["items"][1]
assert len(d["items"]) == 4, len(d["items"])
assert "owner" not in root["owners"]
assert rs["kind"] == "ReplicaSet" and rs["owners"]["reference"]["controller"] is True
assert rs["owners"]["reference"]["blockOwnerDeletion"] is True and rs["owners"]["reference"]["class"] == "resolved"
assert rs["metadata"]["ownerReferences"][0]["uid"] == root["metadata"]["uid"]
assert rs["metadata"]["ownerReferences"][0]["controller"] is True
assert rs["owners"]["owner"]["uid"] == root["metadata"]["uid"] and rs["owners"]["depth"] == 1
pods = d["items"][2:]
assert sorted(p["kind"] for p in pods) == ["Pod", "Pod"]
assert all(p["owners"]["status"] == "Pending" and p["owners"]["depth"] == 2 for p in pods)
assert all(p["owners"]["owner"]["name"] == rs["metadata"]["name"] for p in pods)
assert all(i["owners"]["cascade"] == {"deletes": True} for i in d["items"])
'
ok $? "-o json parses: deployment > replicaset > 2 pods, an item each, with its depth and owner"
like "$(owners tree deployment/web -o json)" '"warnings": \[\]' "an empty list is [] on one line, as kubectl writes it"
unlike "$(owners tree deployment/web -o json)" $'\\[\n *\n' "no empty list over several lines"

run owners tree deployment/web -o yaml
printf '%s' "$out" > "$C/tree.yaml"
owners tree deployment/web -o json > "$C/tree.json"
python3 -c '
import json, sys, yaml
y = yaml.safe_load(open(sys.argv[1])); j = json.load(open(sys.argv[2]))
for d in (y, j):
  for p in d["items"]:
    if p["kind"] == "Pod": p["owners"].pop("status"); p["owners"].pop("ready")
assert y == j, "yaml and json differ"
' "$C/tree.yaml" "$C/tree.json"
ok $? "-o yaml loads to the same document as -o json"
like "$(cat "$C/tree.yaml")" $'^apiVersion: owners.dev/v1\nkind: OwnersTree\n' "-o yaml reads like kubectl's: plain keys and values"
like "$(cat "$C/tree.yaml")" $'\nitems:\n- apiVersion: apps/v1\n  kind: Deployment\n  ' "- apiVersion: apps/v1, at its parent's indent"
unlike "$(cat "$C/tree.yaml")" '"kind":|^ *-$' "no JSON-quoted keys, no dash alone on its line"

# Names, label values and finalizers are user data: strings that YAML would
# read as something else must come back as the same strings.
kubectl create namespace awkward >/dev/null
kubectl -n awkward create configmap awk-root >/dev/null
awk_uid=$(kubectl -n awkward get cm awk-root -o jsonpath='{.metadata.uid}')
for name in true 0 null 2026-01-01 1e3 y 0x1f 1-2 on; do
  printf -- '---\n{apiVersion: v1, kind: ConfigMap, metadata: {name: "%s", finalizers: ["example.com/%s"], ownerReferences: [{apiVersion: v1, kind: ConfigMap, name: awk-root, uid: %s}, {apiVersion: v1, kind: ConfigMap, name: "%s", uid: 00000000-0000-0000-0000-00000000dead}]}}\n' \
    "$name" "$name" "$awk_uid" "$name" | kubectl -n awkward create -f - >/dev/null
done
kubectl -n awkward delete cm 0 true --wait=false >/dev/null
# every command that offers -o json offers -o yaml with the same document
for cmd in "tree cm/awk-root" "graph" "dangling" "finalizers"; do
  owners -n awkward $cmd -o yaml > "$C/awk.yaml"; y=$?
  owners -n awkward $cmd -o json > "$C/awk.json"; j=$?
  python3 -c '
import json, re, sys, yaml
y = yaml.safe_load(open(sys.argv[1])); j = json.load(open(sys.argv[2]))
def strip(d):   # ages move between the two runs (a note says "deleting 3s")
  if isinstance(d, dict): return {k: strip(v) for k, v in d.items() if k not in ("age", "deletingFor", "stuckSeconds")}
  if isinstance(d, list): return [strip(v) for v in d]
  if isinstance(d, str): return re.sub(r"deleting [0-9][0-9a-z]*", "deleting AGE", d)
  return d
assert strip(y) == strip(j), "yaml and json differ"
names = json.dumps(j)
want = ("true", "0") if sys.argv[3] == "finalizers" else ("true", "0", "null", "2026-01-01", "1e3", "y", "0x1f", "on")
for n in want: assert "\"%s\"" % n in names, n
' "$C/awk.yaml" "$C/awk.json" "$cmd"
  ok $((y || j || $?)) "$cmd: -o yaml with names YAML would misread (true, 0, null, 2026-01-01, 1e3, y, 0x1f, on) loads to -o json's document"
done
like "$(owners -n awkward tree cm/awk-root -o yaml)" $'name: "true"\n' "such a name is double-quoted, as kubectl quotes it"
kubectl -n awkward patch cm 0 true --type=merge -p '{"metadata":{"finalizers":null}}' >/dev/null

run owners tree deployment/web -o name
is "$(printf '%s\n' "$out" | head -2 | tr '\n' ' ')" "deployment.apps/web replicaset.apps/$rs " "-o name like kubectl"
is "$(printf '%s\n' "$out" | grep -c '^pod/')" 2 "-o name lists both pods"

run owners tree deployment/web -o dot
like "$out" "^digraph owners" "-o dot is a digraph"
printf '%s' "$out" | dot -Tsvg >/dev/null
ok $? "graphviz accepts the dot output"

run owners tree deployment/web -o wide
ok $rc "-o wide exits 0"
like "$out" "AGE +REFERENCE +UID" "-o wide adds the reference and UID columns"
like "$out" "ReplicaSet.apps/$rs .* controller,block +$(uid rs "$rs")" "-o wide shows the group, the controller reference and the UID"

run owners tree deployment/web -o xml
is "$rc" 2 "unknown -o is a usage error"

# ---- custom resources, cluster-scoped owners, several owners, cycles -------
kubectl apply -f - >/dev/null <<'YAML'
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, shortNames: [wd]}
  versions:
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
YAML
wait_for "widgets served" 30 kubectl get widgets
kubectl apply -f - >/dev/null <<'YAML'
apiVersion: example.com/v1
kind: Widget
metadata: {name: w1}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cm-owner}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: owner-role}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cm-a}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cm-b}
YAML
w1=$(uid widget w1); cmo=$(uid cm cm-owner); cr=$(uid clusterrole owner-role)
a=$(uid cm cm-a); b=$(uid cm cm-b)
ref() { echo "{apiVersion: $1, kind: $2, name: $3, uid: $4}"; }
kubectl apply -f - >/dev/null <<YAML
apiVersion: v1
kind: ConfigMap
metadata: {name: cm-w, ownerReferences: [$(ref example.com/v1 Widget w1 $w1)]}
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: w2, ownerReferences: [$(ref v1 ConfigMap cm-owner $cmo)]}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cm-cr, ownerReferences: [$(ref rbac.authorization.k8s.io/v1 ClusterRole owner-role $cr)]}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: shared, ownerReferences: [$(ref v1 ConfigMap cm-a $a), $(ref v1 ConfigMap cm-b $b)]}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: orphaned, ownerReferences: [$(ref v1 ConfigMap long-gone 00000000-0000-0000-0000-000000000001)]}
YAML
kubectl patch cm cm-a --type=merge -p "{\"metadata\":{\"ownerReferences\":[$(kubectl get cm shared -o json | python3 -c 'import json,sys; d=json.load(sys.stdin); print(json.dumps({"apiVersion":"v1","kind":"ConfigMap","name":"shared","uid":d["metadata"]["uid"]}))')]}}" >/dev/null

run owners tree widget/w1
like "$out" "Widget/w1" "a custom resource as root"
like "$out" "└── ConfigMap/cm-w" "the custom resource owns a ConfigMap"
run owners tree wd w1
like "$out" "ConfigMap/cm-w" "CRD short name resolves"
run owners tree cm/cm-owner
like "$out" "└── Widget/w2" "a ConfigMap owns a custom resource"

run owners tree clusterrole/owner-role
ok $rc "cluster-scoped root exits 0"
like "$out" $'\n +ClusterRole/owner-role' "cluster-scoped root has no namespace"
like "$out" "default +└── ConfigMap/cm-cr" "its namespaced dependent is found"
run owners tree cm/cm-cr --up
like "$out" "└── ClusterRole/owner-role" "--up reads a cluster-scoped owner's type where a reference names it"

run owners tree cm/cm-b
like "$out" "└── ConfigMap/shared" "shared has owner cm-b"
run owners tree configmap/shared --up
like "$out" "├── ConfigMap/cm-a" "--up shows the first owner"
like "$out" "└── ConfigMap/cm-b" "--up shows the second owner"

run owners tree cm/cm-a
ok $rc "a cycle does not hang"
like "$out" "ConfigMap/cm-a.*cycle" "the cycle is marked where it closes"

run owners tree cm/orphaned --up
like "$out" "ConfigMap/long-gone +owner missing \\(absent\\)" "--up marks a dangling owner as absent"
run owners tree cm/orphaned
like "$out" "dangling owner ConfigMap/long-gone \\(absent\\)" "down tree marks the dangling reference"

# an object stuck in deletion shows it
kubectl apply -f - >/dev/null <<'YAML'
apiVersion: v1
kind: ConfigMap
metadata: {name: held, finalizers: [example.com/hold]}
YAML
kubectl delete cm held --wait=false >/dev/null
run owners tree cm/held
like "$out" "deleting [0-9]+s, finalizers: example.com/hold" "deletion and finalizers are shown"

# ---- owners graph -----------------------------------------------------------
run owners graph
ok $rc "graph exits 0"
like "$out" "objects: +[0-9]+" "summary counts objects"
like "$out" "dangling references: +1" "summary counts the one dangling reference"
like "$out" "cycles: +1" "summary counts the cycle"
like "$out" "stuck in deletion: +1" "summary counts the object stuck in deletion"
run owners graph -o json
printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
names = {(o["kind"], o["metadata"]["name"]) for o in d["items"] if o["owners"]["found"]}
assert ("Deployment", "web") in names and ("ConfigMap", "shared") in names
bad = [r for o in d["items"] for r, c in zip(o["metadata"].get("ownerReferences", []), o["owners"]["references"])
       if c["class"] != "resolved" and c["uid"] == r["uid"]]
assert [r["name"] for r in bad] == ["long-gone"], bad
assert d["metadata"]["summary"]["cycles"] == 1
'
ok $? "graph -o json lists objects and classifies every reference"
run owners graph -o dot
like "$out" "^digraph owners" "graph -o dot"
unlike "$out" 'u000a' "dot labels use DOT escapes, not JSON ones"
like "$out" 'label="ConfigMap\\ndefault/shared"' "a label is kind, newline, namespace/name"
printf '%s' "$out" | dot -Tsvg >/dev/null
ok $? "graphviz accepts graph -o dot"
run owners graph -A
like "$out" "objects: +[0-9]+" "graph -A"

# ---- pagination, logging, colour ------------------------------------------
for i in $(seq 1 23); do echo "---"; echo "{apiVersion: v1, kind: ConfigMap, metadata: {name: page-$i}}"; done | kubectl apply -f - >/dev/null
objects=$(owners graph -o json | python3 -c 'import json,sys; print(json.load(sys.stdin)["metadata"]["summary"]["objects"])')
run owners graph --chunk-size 4 -v=6 -o json
is "$(printf '%s' "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["metadata"]["summary"]["objects"])')" "$objects" \
  "--chunk-size 4: the same objects, read over many pages"
like "$err" "configmaps\?limit=4&continue=" "--chunk-size 4: the continue token is followed"
run owners --chunk-size 0 graph
is "$rc" 2 "--chunk-size 0 is a usage error"
is "$err" "error: invalid value '0' for --chunk-size: want 1 or more" "  the range comes from the option's row"
run owners tree deployment/web --depth=-1 --server=https://127.0.0.1:1
is "$rc:$err" "2:error: invalid value '-1' for --depth: want 0 or more" "a value out of range is refused before any connection"
like "$(owners help tree)" "--depth N +stop N levels below the roots \\(default: no limit; not with -o name, the whole delete set, unless --up\\) \\(0 or more\\)" "--help shows the range"
for c in dangling finalizers; do
  help=$(owners $c --help)
  flags_at=$(grep -n '^Flags:' <<<"$help" | cut -d: -f1)
  fix_at=$(grep -n -- '^--fix does what the garbage collector would\|^.remove. reads each object' <<<"$help" | head -1 | cut -d: -f1)
  (( flags_at > 0 && flags_at < ${fix_at:-0} )); ok $? "$c --help: the flags come before the details ($flags_at < ${fix_at:-none})"
  unlike "$help" '"stuckSeconds"|"blockOwnerDeletion"},' "$c --help: no JSON schema"
  like "$help" "described in 'man owners-$c' \\(OUTPUT\\)" "$c --help: names the man page for it"
  like "$(MANWIDTH=200 man -l "$E2E_ROOT/man/owners-$c.1" 2>/dev/null)" "OUTPUT"$'\n'" +-o json prints" "$c: the man page's OUTPUT section has the schema"
done
like "$(owners help tree)" "-v, --v N +.* \\(0 to 10\\)" "  and the global flags' ranges"

# Lists come in protobuf (JSON only where the server cannot), and read the same.
if [[ ${OWNERS_LIST_FORMAT:-} != json ]]; then
  run owners graph -A -v=6 -o json
  like "$err" "configmaps\?limit=500 200 OK in [0-9]+ ms \(application/vnd.kubernetes.protobuf\)" \
    "-v=6 shows the lists answered in protobuf"
  printf '%s' "$out" > "$C/graph-protobuf.json"
  run env OWNERS_LIST_FORMAT=json "$OWNERS" graph -A -v=6 -o json
  like "$err" "configmaps\?limit=500 200 OK in [0-9]+ ms \(application/json\)" "OWNERS_LIST_FORMAT=json asks for JSON"
  same=$(diff <(cat "$C/graph-protobuf.json") <(printf '%s' "$out") >/dev/null && echo same)
  is "$same" "same" "graph -A -o json: the same document from protobuf and from JSON lists"
  run owners graph --chunk-size 4 -v=6 -o json
  like "$err" "configmaps\?limit=4&continue=.*\(application/vnd.kubernetes.protobuf\)" \
    "protobuf pages follow the continue token"
fi

run owners tree deployment/web -v=9
all_logs=$out$err
unlike "$all_logs" "$ADMIN_TOKEN" "-v=9 never shows the bearer token"
like "$err" "Authorization: Bearer <redacted>" "-v=9 shows the header redacted"
run owners --context cert tree deployment/web -v=9
unlike "$out$err" "PRIVATE KEY" "-v=9 never shows the client key"

run owners tree cm/held --color=always
like "$out" $'\033\\[33m' "--color=always colours what needs attention"
run owners tree cm/held
unlike "$out" $'\033' "no colour when stdout is not a terminal"
run env NO_COLOR=1 "$OWNERS" tree cm/held --color=auto
unlike "$out" $'\033' "NO_COLOR: no colour"

# READY/STATUS of Jobs and CronJobs, in health colours (no kubelet here:
# the Job's pod never runs, so it stays Running, 0/1).
kubectl create job once --image=busybox >/dev/null
kubectl create cronjob nightly --image=busybox --schedule='0 3 * * *' >/dev/null
kubectl patch cronjob nightly -p '{"spec":{"suspend":true}}' >/dev/null
wait_for "the Job's pod" 60 bash -c '[[ -n $(kubectl get pods -l job-name=once -o name) ]]'
run owners tree job/once
like "$out" "Job/once +0/1 +Running " "a Job: completions and Running, as kubectl get jobs"
run owners tree cronjob/nightly
like "$out" "CronJob/nightly +0 active +Suspended " "a suspended CronJob says so"
run owners tree job/once --color=always
like "$out" $'\033\\[33m0/1\033\\[0m' "--color=always: a running Job's READY in yellow (on its way)"
like "$out" $'\033\\[33mPending\033\\[0m' "  and its pending pod's STATUS too"
run owners tree deployment/web --color=always
unlike "$out" $'\033\\[31m' "  nothing red where nothing failed"
kubectl delete job once --wait=false >/dev/null 2>&1; kubectl delete cronjob nightly --wait=false >/dev/null 2>&1

# ---- requests grow with types and pages, never with objects --------------
# A wide tree: one ConfigMap owning 300 (no status: nothing to fetch), and a
# Deployment of 40 pods (more than a few: their statuses come from one list).
kubectl create namespace wide >/dev/null
kubectl -n wide create configmap wide-root >/dev/null
wide_uid=$(kubectl -n wide get cm wide-root -o jsonpath='{.metadata.uid}')
for i in $(seq 1 300); do
  printf -- '---\n{apiVersion: v1, kind: ConfigMap, metadata: {name: leaf-%s, ownerReferences: [{apiVersion: v1, kind: ConfigMap, name: wide-root, uid: %s}]}}\n' "$i" "$wide_uid"
done | kubectl -n wide create -f - >/dev/null
kubectl -n wide create deployment many --image=nginx --replicas=40 >/dev/null
wait_for "40 pods of many" 90 bash -c '[[ $(kubectl -n wide get pods -o name | wc -l) == 40 ]]'
requests() { # requests LOG: "total lists object-GETs" from a -v=6 log
  local total lists
  total=$(grep -cE '^(GET|POST|PUT|PATCH|DELETE) https' <<<"$1")
  lists=$(grep -cE '^GET https[^ ]*\?limit=' <<<"$1")
  echo "$total $lists $((total - lists))"
}
for root in cm/wide-root deployment/many; do
  run owners -n wide tree $root -v=6
  read -r total lists others <<<"$(requests "$err")"
  ok $(( total <= 2 * lists ? 0 : 1 )) "tree $root: $total requests for $lists list pages (at most twice the pages)"
  ok $(( others <= 2 ? 0 : 1 )) "tree $root: $others requests besides lists (discovery and the root's status, not one per object)"
done
unlike "$(owners -n wide tree cm/wide-root -v=6 2>&1 >/dev/null)" 'configmaps/leaf-' "no ConfigMap is fetched one by one (they have no status)"
run owners -n wide tree deployment/many -v=6
unlike "$err" 'GET [^ ]*/pods/many-' "no pod is fetched one by one"
like "$err" 'GET [^ ]*/namespaces/wide/pods\?limit=' "the pods' statuses come from a list of the namespace's pods"
is "$(grep -c ' Pending ' <<<"$out")" 40 "and every pod shows its status"
# (both at one fixed time: the AGE column of two runs a second apart differs)
same_now=$(date +%s)
run env OWNERS_LIST_FORMAT=json OWNERS_TEST_NOW=$same_now "$OWNERS" -n wide tree deployment/many
json_out=$out
OWNERS_TEST_NOW=$same_now run owners -n wide tree deployment/many -v=6
# (this suite also runs whole with OWNERS_LIST_FORMAT=json: then JSON)
[[ ${OWNERS_LIST_FORMAT:-} == json ]] && wire=json || wire=vnd.kubernetes.protobuf
like "$err" "namespaces/wide/pods\\?limit=[0-9]+ 200 OK in [0-9]+ ms \\(application/$wire\\)" \
  "the pods' statuses are listed in ${wire#vnd.kubernetes.}"
is "$out" "$json_out" "... and read as their JSON reads (OWNERS_LIST_FORMAT=json: the same tree)"

# READY/STATUS of every built-in kind that has one, read from protobuf,
# must be what their JSON gives: a snapshot reads every object's status from
# lists; taken twice (protobuf lists, then JSON only) its Status records
# must be the same, and say what the objects' states are.
# (it sets the list format of each snapshot itself: once, not again in
# the suite's JSON-lists run)
if [[ ${OWNERS_LIST_FORMAT:-} != json ]]; then
K=kinds
KT=$(mktemp -d "${TMPDIR:-/tmp}/owners-kinds.XXXXXX")
_clusters+=("$KT")
kubectl create namespace $K >/dev/null
kubectl -n $K create deployment d --image=nginx --replicas=2 >/dev/null
kubectl -n $K create job j --image=busybox >/dev/null
kubectl -n $K create cronjob cj --image=busybox --schedule='0 3 * * *' >/dev/null
kubectl -n $K patch cronjob cj -p '{"spec":{"suspend":true}}' >/dev/null
kubectl -n $K create service loadbalancer lb --tcp=80:80 >/dev/null
kubectl -n $K patch service lb --subresource=status --type=merge \
  -p '{"status":{"loadBalancer":{"ingress":[{"ip":"10.9.8.7"}]}}}' >/dev/null
kubectl -n $K apply -f - >/dev/null <<'YAML'
{"apiVersion": "v1", "kind": "List", "items": [
 {"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "s"}, "spec": {"replicas": 1, "serviceName": "s",
  "selector": {"matchLabels": {"app": "s"}}, "template": {"metadata": {"labels": {"app": "s"}}, "spec": {"containers": [{"name": "c", "image": "nginx"}]}}}},
 {"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": {"name": "ds"}, "spec": {
  "selector": {"matchLabels": {"app": "ds"}}, "template": {"metadata": {"labels": {"app": "ds"}}, "spec": {"containers": [{"name": "c", "image": "nginx"}]}}}},
 {"apiVersion": "v1", "kind": "ReplicationController", "metadata": {"name": "rc"}, "spec": {"replicas": 1,
  "selector": {"app": "rc"}, "template": {"metadata": {"labels": {"app": "rc"}}, "spec": {"containers": [{"name": "c", "image": "nginx"}]}}}},
 {"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": "claim"}, "spec": {"accessModes": ["ReadWriteOnce"],
  "resources": {"requests": {"storage": "1Gi"}}}},
 {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "crashing"}, "spec": {"containers": [{"name": "a", "image": "busybox"}, {"name": "b", "image": "busybox"}]}}
]}
YAML
kubectl -n $K patch pod crashing --subresource=status --type=merge -p '{"status":{"phase":"Running",
  "conditions":[{"type":"Ready","status":"False","reason":"ContainersNotReady"}],
  "containerStatuses":[{"name":"a","ready":false,"restartCount":4,"image":"busybox","imageID":"","state":{"waiting":{"reason":"CrashLoopBackOff"}}},
                       {"name":"b","ready":true,"restartCount":0,"image":"busybox","imageID":"","state":{"running":{}}}]}}' >/dev/null
# (d's two, j's, s's, and crashing; no controller runs ReplicationControllers here)
wait_for "the workloads' pods" 90 bash -c "[[ \$(kubectl -n $K get pods -o name | wc -l) -ge 5 ]]"
run env -u OWNERS_LIST_FORMAT "$OWNERS" snapshot -A --format json -f "$KT/pb.json" -v=6
is "$(grep -cE 'apps/v1/deployments\?limit=[0-9]+ 200 OK in [0-9]+ ms \(application/vnd.kubernetes.protobuf\)' <<<"$err")" 2 \
  "a snapshot lists deployments twice in protobuf: their metadata, and whole for their status"
run env OWNERS_LIST_FORMAT=json "$OWNERS" snapshot -A --format json -f "$KT/json.json" -v=6
unlike "$err" 'application/vnd.kubernetes.protobuf\)' "OWNERS_LIST_FORMAT=json: every list (status lists too) in JSON"
statuses() { grep '"kind":"Status"' "$1" | sort; }
pb_st=$(statuses "$KT/pb.json"); json_st=$(statuses "$KT/json.json")
ok $(( $(grep -c . <<<"$pb_st") >= 15 ? 0 : 1 )) "the snapshot holds a status for every object that has one ($(grep -c . <<<"$pb_st"))"
if [[ $pb_st == "$json_st" ]]; then ok 0 "every status read from protobuf is the one read from JSON"; else
  ok 1 "every status read from protobuf is the one read from JSON"; diff <(echo "$json_st") <(echo "$pb_st") | head -10 | sed 's/^/#   /'; fi
uid_of() { kubectl -n $K get "$1" -o jsonpath='{.metadata.uid}'; }
for want in "service/lb|-|LoadBalancer 10.9.8.7" "pod/crashing|1/2|CrashLoopBackOff" "cronjob/cj|0 active|Suspended" \
            "job/j|0/1|Running" "persistentvolumeclaim/claim|-|Pending" "daemonset/ds|0/0|Ready"; do
  IFS='|' read -r obj ready status <<<"$want"
  like "$pb_st" "\"uid\":\"$(uid_of "$obj")\",\"ready\":\"$ready\",\"status\":\"$status\"" "$obj: READY $ready, STATUS $status"
done
fi

# Long lists: pages grow (500, then 2000, up to 5000) unless --chunk-size
# is given, and read the same objects either way.
for i in $(seq 301 900); do
  printf -- '---\n{apiVersion: v1, kind: ConfigMap, metadata: {name: leaf-%s}}\n' "$i"
done | kubectl -n wide create -f - >/dev/null
run owners -n wide graph -v=6 -o json
grown=$(printf '%s' "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["metadata"]["summary"]["objects"])')
like "$err" "namespaces/wide/configmaps\?limit=500 " "a long list's first page asks for 500, as kubectl"
like "$err" "namespaces/wide/configmaps\?limit=2000&continue=" "  its next page for four times more"
run owners -n wide graph -v=6 -o json --chunk-size 500
like "$err" "namespaces/wide/configmaps\?limit=500&continue=" "--chunk-size 500: every page asks for 500"
is "$(printf '%s' "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["metadata"]["summary"]["objects"])')" "$grown" \
  "  and reads the same objects as growing pages ($grown)"

# ---- identities -------------------------------------------------------------
run owners --context viewer tree deployment/web
ok $rc "viewer: tree still prints (exit 0)"
like "$out" "ReplicaSet/$rs" "viewer: the tree is complete"
like "$err" "warning: cannot list [0-9]+ types that can hold part of the answer [^:]*: forbidden: (.*, )?secrets(,|$| |[[:space:]])" \
  "viewer: secrets, which can hold a dependent, reported as forbidden"
is "$(printf '%s\n' "$err" | grep -c '^warning: cannot list')" 1 "viewer: the forbidden types that matter are named on one line"
like "$err" "warning: [0-9]+ more types forbidden to you cannot hold part of the answer \\(-v=1 names them\\)" \
  "viewer: the cluster-scoped ones a namespaced tree cannot reach are counted"
unlike "$err" "nodes|csidrivers|validatingwebhookconfigurations" "viewer: and not named"
is "$(printf '%s\n' "$err" | awk 'length($0) > 400' | wc -l)" 0 \
  "viewer: no warning line longer than 400 characters"
run owners --context viewer tree deployment/web -v=1
like "$err" "warning: cannot list [0-9]+ more types that cannot hold part of the answer: forbidden: (.*, )?nodes(,|$| |[[:space:]])" \
  "viewer, -v=1: those are named too"
run owners --context viewer tree deployment/web -o json
printf '%s' "$out" | python3 -c '
import json, sys
import re
w = json.load(sys.stdin)["warnings"]
f = [x for x in w if x["reason"] == "Forbidden"]
assert len(f) == len(w) > 2, w
# as many as stderr names and counts: "cannot list N types ...", "M more types ..."
assert len(f) == sum(int(n) for n in re.findall(r"(?:cannot list|warning:) ([0-9]+) ", sys.argv[1])), (len(f), sys.argv[1])
assert any(x["resource"] == "secrets" and x["canHoldAnswer"] and x["message"] for x in f), w
assert [x["canHoldAnswer"] for x in f] == sorted((x["canHoldAnswer"] for x in f), reverse=True), w
assert any(x["resource"] == "nodes" and not x["canHoldAnswer"] for x in f), w
assert not any("more" in x["message"] for x in w), w
' "$err"
ok $? "viewer -o json: every forbidden type named, structured, none counted"
run owners --context viewer graph -A
like "$err" "warning: cannot list [0-9]+ types \\(ownership through them is unknown\\): forbidden: [^ ]+(, [^ ]+){7} and [0-9]+ more \\(-v=1 names them all\\)" \
  "viewer, graph -A: every type matters; eight named, the rest counted"

run owners --context cert tree deployment/web
ok $rc "client-certificate user: tree works"
like "$out" "ReplicaSet/$rs" "cert: the tree is complete"

# In a subdirectory: kubectl stores the path relative to the kubeconfig,
# and a command without a slash would be looked up on PATH (as client-go does).
mkdir -p "$C/bin"
plugin=$C/bin/plugin.sh
cat > "$plugin" <<SH
#!/bin/sh
echo run >> "$C/plugin.runs"
printf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"%s"}}' "$ADMIN_TOKEN"
SH
chmod +x "$plugin"
kubectl config set-credentials exec-user --exec-api-version=client.authentication.k8s.io/v1 \
  --exec-command="$plugin" --exec-interactive-mode=Never >/dev/null
kubectl config set-context exec --cluster="$(kubectl config view -o jsonpath='{.contexts[0].context.cluster}')" \
  --user=exec-user --namespace=default >/dev/null
# kubectl itself may run the plugin while editing the kubeconfig: count ours only.
: > "$C/plugin.runs"
# (run once: the shuffled rerun of lib.sh would run the plugin again)
E2E_SHUFFLE=0 run owners --context exec tree deployment/web
ok $rc "exec-plugin user: tree works"
like "$out" "ReplicaSet/$rs" "exec: the tree is complete"
is "$(wc -l < "$C/plugin.runs")" 1 "the plugin ran once for the whole run"

kubectl config set-credentials missing-plugin --exec-api-version=client.authentication.k8s.io/v1 \
  --exec-command=/nonexistent/kubelogin --exec-interactive-mode=Never >/dev/null
kubectl config set-context missing --cluster="$(kubectl config view -o jsonpath='{.contexts[0].context.cluster}')" --user=missing-plugin >/dev/null
run owners --context missing tree deployment/web
is "$rc" 1 "missing exec plugin: exit 1"
like "$err" "^error: .*kubelogin.*not found" "missing exec plugin: names the command"

# ---- bad input: one line, non-zero exit ------------------------------------
one_line() { [[ $(printf '%s\n' "$err" | wc -l) == 1 && -z $out ]]; }

run owners tree frobnicator/x
is "$rc" 2 "unknown type: exit 2"
like "$err" "^error: the server doesn't have a resource type 'frobnicator'$" "unknown type: kubectl's words"
one_line; ok $? "unknown type: one line"

gadget_crds
wait_for "gadgets served" 30 kubectl get gadgets.b.example.com
run owners tree gadget/x
is "$rc" 2 "ambiguous type: exit 2"
like "$err" "gadgets.a.example.com.*gadgets.b.example.com" "ambiguous type: lists the candidates"
one_line; ok $? "ambiguous type: one line"

run owners tree deployment/nope
is "$rc" 1 "object not found: exit 1"
like "$err" "^error: deployments.apps 'nope' not found in namespace 'default'$" "object not found: says what and where"
one_line; ok $? "not found: one line"
is "$out" "" "not found: nothing on stdout"

run owners tree deployment/nope deployment/web deployment/nope2
is "$rc" 1 "several roots, two missing: exit 1"
like "$out" "Deployment/web" "  the tree that exists is printed"
is "$err" "error: deployments.apps 'nope' not found in namespace 'default'
error: deployments.apps 'nope2' not found in namespace 'default'" "  then one error line per missing object"
run owners tree deployment/nope deployment/web -o json
printf '%s' "$out" | python3 -c 'import json, sys; d = json.load(sys.stdin); assert [i["metadata"]["name"] for i in d["items"] if not i["owners"]["depth"]] == ["web"], d'
ok $? "  -o json: the document of what exists (its one root; every row is an item)"

run owners tree
is "$rc" 2 "no arguments: exit 2"

printf 'apiVersion: v1\nclusters: [\n' > "$C/broken.yaml"
run owners --kubeconfig "$C/broken.yaml" tree deployment/web
is "$rc" 1 "malformed kubeconfig: exit 1"
like "$err" "^error: cannot parse kubeconfig" "malformed kubeconfig: says so"
one_line; ok $? "malformed kubeconfig: one line"

run owners --kubeconfig "$C/does-not-exist" tree deployment/web
is "$rc" 1 "missing kubeconfig: exit 1"
one_line; ok $? "missing kubeconfig: one line"

run owners --context nosuch tree deployment/web
is "$rc" 1 "unknown context: exit 1"
like "$err" "nosuch" "unknown context: names it"
one_line; ok $? "unknown context: one line"

run owners --server https://127.0.0.1:1 --request-timeout 5s tree deployment/web
is "$rc" 1 "unreachable server: exit 1"
like "$err" "^error: .*127.0.0.1:1" "unreachable server: names the address"
one_line; ok $? "unreachable server: one line"

openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj /CN=other-ca \
  -keyout "$C/other.key" -out "$C/other.crt" -days 1 2>/dev/null
run owners --certificate-authority "$C/other.crt" tree deployment/web
is "$rc" 1 "wrong CA: exit 1"
like "$err" "^error: TLS verification of https://127.0.0.1:$PORT failed: .* \\(context 'admin'\\)$" \
  "wrong CA: a TLS verification error naming the server and the context, not a type's list"
one_line; ok $? "wrong CA: one line"
run owners --certificate-authority "$C/other.crt" --cache-dir "$C/cold-tls" tree deployment/web
like "$rc:$err" "^1:error: TLS verification of https://127.0.0.1:$PORT failed: " "wrong CA, no discovery cache: the same error"

run owners --token not-a-valid-token tree deployment/web
is "$rc" 1 "bad token (401): exit 1"
like "$err" "^error: the server at https://127.0.0.1:$PORT rejected the token given with --token \\(context 'admin'\\) \\(Unauthorized\\): wrong or expired; log in again or fix the kubeconfig$" \
  "401: says the credentials were rejected, naming the server (not 'cannot list configmaps')"
one_line; ok $? "401: one line"
cp "$KUBECONFIG" "$C/expired.kubeconfig"
KUBECONFIG=$C/expired.kubeconfig kubectl config set-credentials expired --token=expired-token >/dev/null
KUBECONFIG=$C/expired.kubeconfig kubectl config set-context expired --cluster="$(kubectl config view -o jsonpath='{.contexts[0].context.cluster}')" --user=expired >/dev/null
for cache in warm cold; do
  [[ $cache == cold ]] && cache_flag=(--cache-dir "$C/cold-401") || cache_flag=()
  run env KUBECONFIG="$C/expired.kubeconfig" "$OWNERS" --context expired "${cache_flag[@]}" tree deployment/web
  like "$rc:$err" "^1:error: the server at https://127.0.0.1:$PORT rejected the credentials of user 'expired' \\(context 'expired'\\) \\(Unauthorized\\)" \
    "401 from the kubeconfig's user, $cache discovery cache: names the user and the context"
done

run owners --as nobody-at-all tree deployment/web
is "$rc" 1 "user with no permissions (403): exit 1"
like "$err" "^error: the credentials of user 'admin' \\(context 'admin'\\) acting as 'nobody-at-all' may list none of the [0-9]+ types owners scans: [a-z.]+ is forbidden: User \"nobody-at-all\" cannot list resource " \
  "403 everywhere: said as a user who may list nothing, in the server's (kubectl's) words"
one_line; ok $? "403: one line"

# A server that takes the connection and never answers: the wait is bounded
# by --request-timeout as a whole, and a retry is said at default verbosity.
python3 -c 'import socket, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(64)
print(s.getsockname()[1], flush=True); time.sleep(120)' > "$C/mute.port" &
mute_pid=$!
wait_for "the mute server" 10 test -s "$C/mute.port"
mute=$(<"$C/mute.port")
t0=$SECONDS
run owners --server "https://127.0.0.1:$mute" --request-timeout 2s tree deployment/web
is "$rc" 1 "a server that never answers: exit 1"
(( SECONDS - t0 <= 4 )); ok $? "  --request-timeout 2s bounds the whole wait ($((SECONDS - t0)) s)"
like "$err" "^error: cannot reach https://127.0.0.1:$mute: connection timed out$" "  one line naming the server"
t0=$SECONDS
run owners --server "https://127.0.0.1:$mute" --request-timeout 12s tree deployment/web
(( SECONDS - t0 <= 15 )); ok $? "  --request-timeout 12s: given up within it ($((SECONDS - t0)) s)"
like "$err" "^warning: cannot reach https://127.0.0.1:$mute: connection timed out; retrying for up to 12 s"$'\n'"error: " \
  "  a retry after a connection timeout is said once at default verbosity, before the error"
kill $mute_pid 2>/dev/null; wait $mute_pid 2>/dev/null

# ---- install, kubectl plugin, completion -----------------------------------
prefix=$C/prefix
cmake --install "$(dirname "$OWNERS")" --prefix "$prefix" >/dev/null
ok $? "cmake --install into a prefix"
[[ -x $prefix/bin/owners && -L $prefix/bin/kubectl-owners ]]
ok $? "owners and the kubectl-owners link are installed"
run env PATH="$prefix/bin:$PATH" kubectl owners tree deployment/web
ok $rc "kubectl owners tree works through the plugin link"
like "$out" "ReplicaSet/$rs" "kubectl owners prints the tree"
run env PATH="$prefix/bin:$PATH" kubectl owners --help
like "$out" "Commands:" "kubectl owners --help shows owners' help"
run env MANPATH="$prefix/share/man" MANWIDTH=100 man owners-tree
like "$out" "owners-tree - show the dependents" "man owners-tree renders after install"
[[ -f $prefix/share/bash-completion/completions/owners && -f $prefix/share/zsh/vendor-completions/_owners &&
   -f $prefix/share/fish/vendor_completions.d/owners.fish ]]
ok $? "completions installed where the shells look"

complete_words() { # complete_words WORD... : what bash completion offers for the last word
  bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _owners; printf "%s\n" "${COMPREPLY[@]}"' \
    _ "$E2E_ROOT/completions/owners.bash" "$@"
}
OWNERS_BIN_DIR=$(dirname "$OWNERS")
is "$(PATH="$OWNERS_BIN_DIR:$PATH" complete_words owners tr | tr '\n' ' ')" "tree " "bash completes the command"
like "$(PATH="$OWNERS_BIN_DIR:$PATH" complete_words owners tree --u)" "--up" "bash completes a command's flag"
is "$(PATH="$OWNERS_BIN_DIR:$PATH" complete_words owners tree -o ya)" "yaml" "bash completes -o values"
like "$(PATH="$OWNERS_BIN_DIR:$PATH" complete_words owners tree deploy)" "deployments/" "bash completes resource types from the cluster"
like "$(PATH="$OWNERS_BIN_DIR:$PATH" complete_words owners tree deployments/w)" "deployments/web" "bash completes object names from the cluster"
like "$(PATH="$OWNERS_BIN_DIR:$PATH" complete_words owners --context v)" "viewer" "bash completes contexts from the kubeconfig"
like "$(PATH="$OWNERS_BIN_DIR:$PATH" complete_words owners -n kube-)" "kube-system" "bash completes namespaces from the cluster"

# ---- a broken aggregated API ------------------------------------------------
start_cluster B --broken-apiservice
kubectl create configmap lonely >/dev/null
run owners tree cm/lonely
ok $rc "broken APIService: tree still exits 0"
like "$out" "ConfigMap/lonely" "broken APIService: tree prints"
like "$err" "warning: discovery of 'metrics.k8s.io/v1beta1' failed" "broken APIService: warned about the group"
# The server's reason (the APIService's condition), once per command,
# whatever the command and its form (issue #38).
reason='ServiceNotFound: service/metrics-server in "kube-system" is not present'
once() { # once DESCRIPTION: the reason in exactly one line of $err, no bare "stale"
  is "$(grep -c "discovery of 'metrics.k8s.io/v1beta1' failed: APIService v1beta1.metrics.k8s.io is not available: $reason" <<<"$err")" 1 "$1: the server's reason, once"
  unlike "$err" "stale" "$1: not a cryptic word"
}
once "tree"
run owners tree cm/lonely -o json
once "tree -o json"
run owners tree cm/lonely --until=ready --timeout=20s
is "$rc" 0 "tree --until=ready: reached"
once "tree --until=ready"
out=$(timeout -s INT 5 "$OWNERS" tree cm/lonely -w 2>"$B/watch.err"); err=$(cat "$B/watch.err")
like "$out" "ConfigMap/lonely" "tree --watch prints"
once "tree --watch"
out=$(timeout -s INT 5 "$OWNERS" tree cm/lonely -w -o json 2>"$B/watch.err"); err=$(cat "$B/watch.err")
once "tree --watch -o json"
out=$(timeout -s INT 8 "$OWNERS" gc -n default --watch 2>"$B/watch.err"); err=$(cat "$B/watch.err")
once "gc --watch"
for c in "dangling" "finalizers" "why cm/lonely" "graph"; do
  run owners $c
  once "$c"
done
run owners tree podmetrics.metrics.k8s.io/x
is "$rc" 1 "a type of the failed group: an error"
is "$err" "error: cannot resolve 'podmetrics.metrics.k8s.io': discovery of metrics.k8s.io/v1beta1 failed: APIService v1beta1.metrics.k8s.io is not available: $reason" \
  "  with the server's reason, in one line"

done_testing
