#!/usr/bin/env bash
# Issue #43, items 2, 3 and 9 (three of them): what owners prints is what
# happens, replayed as a new user met each finding.
#  2. `tree -o name` is the set a cascading delete removes (the rows it keeps
#     say why), the same set `delete --dry-run=client -o name` prints, and
#     the same set the delete then removes.
#  3. kubectl habits over documents: every row an item (depth, owner),
#     jsonpath's missing keys as kubectl, labels in metadata.
#  9. --until=ready names every pod not ready; `tree all` shows each object
#     once; --qps=-1 says the valid range.
# One cluster: the GC stalled (owners' own cascade deletes), the workload
# controllers on (a Deployment makes its ReplicaSet and Pods; no kubelet,
# so the Pods stay Pending).
. "$(dirname "$0")/lib.sh"
require python3:python3
plan 32

start_cluster C --gc=stalled --controllers
. "$C/env"

uid() { kubectl get "$@" -o jsonpath='{.metadata.uid}'; }
# the names a template prints, one a line, sorted
sorted() { tr ' ' '\n' | sed '/^$/d' | sort; }

# ---- 2. the tree's rows that a cascade keeps --------------------------------
kubectl create namespace keep >/dev/null
kubectl -n keep create configmap live-owner >/dev/null
kubectl -n keep create configmap keeper >/dev/null
U=$(uid -n keep cm/live-owner) K=$(uid -n keep cm/keeper)
kubectl -n keep apply -f - >/dev/null <<YAML
apiVersion: v1
kind: ConfigMap
metadata: {name: dep, ownerReferences: [{apiVersion: v1, kind: ConfigMap, name: live-owner, uid: $U}]}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: shared, ownerReferences: [{apiVersion: v1, kind: ConfigMap, name: live-owner, uid: $U}, {apiVersion: v1, kind: ConfigMap, name: keeper, uid: $K}]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: promises-cluster-dep, ownerReferences: [{apiVersion: v1, kind: ConfigMap, name: live-owner, uid: $U}]}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: v9dep, ownerReferences: [{apiVersion: v1, kind: ConfigMap, name: live-owner, uid: $U}, {apiVersion: example.com/v9, kind: Thing, name: t, uid: 00000000-0000-0000-0000-000000000009}]}
YAML
S=$(uid -n keep cm/shared) D=$(uid -n keep cm/dep)
kubectl -n keep apply -f - >/dev/null <<YAML
apiVersion: v1
kind: ConfigMap
metadata: {name: under-shared, ownerReferences: [{apiVersion: v1, kind: ConfigMap, name: shared, uid: $S}]}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: diamond, ownerReferences: [{apiVersion: v1, kind: ConfigMap, name: live-owner, uid: $U}, {apiVersion: v1, kind: ConfigMap, name: dep, uid: $D}]}
YAML

run owners -n keep tree cm/live-owner
is "$rc" 0 "tree cm/live-owner exits 0"
like "$out" "ConfigMap/shared +.*kept: another owner keeps it \(ConfigMap/keeper\)" \
  "  a row another live owner keeps says so, naming that owner"
like "$out" "ClusterRole/promises-cluster-dep .*kept: the garbage collector never acts on it \(owner ConfigMap/live-owner: namespaced, of a cluster-scoped object\)" \
  "  a cluster-scoped object naming a namespaced owner: kept, the GC never resolves it"
like "$out" "ConfigMap/v9dep .*kept: the garbage collector never acts on it \(owner Thing/t: a kind the server does not serve\)" \
  "  an owner of an unserved apiVersion: kept, the GC never resolves it"
like "$out" "ConfigMap/under-shared +.*kept: its owner ConfigMap/shared is kept" "  below a kept row: kept with it"
deleted_rows=$(grep -E '^keep +[│├└─ ]*ConfigMap/(dep|diamond|live-owner) ' <<<"$out")
is "$(wc -l <<<"$deleted_rows")" 4 "  the rows the cascade deletes (diamond twice)"
unlike "$deleted_rows" "kept" "  say nothing of the kind"

# -o dot marks the same rows (#51): a double border, the note under the name
run owners -n keep tree cm/live-owner -o dot
like "$out" '"ConfigMap\\nkeep/shared\\nkept: another owner keeps it \(ConfigMap/keeper\)", peripheries=2' \
  "  -o dot: a kept object drawn apart, with why"
is "$(grep -c 'peripheries=2' <<<"$out")" "$(grep -c 'kept: ' <<<"$(owners -n keep tree cm/live-owner)")" \
  "  -o dot: exactly the rows the text tree calls kept"

run owners -n keep tree cm/live-owner -o name
tree_names=$out
is "$rc:$(sorted <<<"$out" | tr '\n' ' ')" "0:configmap/dep configmap/diamond configmap/live-owner " \
  "tree -o name: exactly what a cascade deletes (kept rows left out), each once (diamond hangs twice)"
run owners -n keep delete cm/live-owner --dry-run=client -o name
is "$rc:$out" "0:$tree_names" "delete --dry-run=client -o name: the same set, nothing else on stdout"

run owners -n keep tree cm/live-owner -o json
printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
got = {}
for i in d["items"]:
    c = i["owners"]["cascade"]
    got[i["metadata"]["name"]] = c["reason"] if not c["deletes"] else "deleted"
    assert c["deletes"] == ("reason" not in c) == ("message" not in c), c
want = {"live-owner": "deleted", "dep": "deleted", "diamond": "deleted", "shared": "AnotherOwner",
        "under-shared": "OwnerKept", "promises-cluster-dep": "UnresolvableReference",
        "v9dep": "UnresolvableReference"}
assert got == want, got
'
ok $? "-o json: each item's owners.cascade says deletes, or why it is kept"

before=$(kubectl get cm -n keep -o name; kubectl get clusterrole promises-cluster-dep -o name)
run owners -n keep delete cm/live-owner --timeout=60s
is "$rc" 0 "the delete itself (owners' cascade, the GC stalled) exits 0"
after=$(kubectl get cm -n keep -o name; kubectl get clusterrole promises-cluster-dep -o name)
gone=$(comm -23 <(sort <<<"$before") <(sort <<<"$after") | tr '\n' ' ')
is "$gone" "$(sorted <<<"$tree_names" | tr '\n' ' ')" "what the delete removed is exactly what tree -o name printed"

# ... and the set piped where it says: into kubectl delete, as a person would
kubectl create namespace pipe >/dev/null
kubectl -n pipe create configmap live-owner >/dev/null
kubectl -n pipe create configmap keeper >/dev/null
U=$(uid -n pipe cm/live-owner) K=$(uid -n pipe cm/keeper)
kubectl -n pipe apply -f - >/dev/null <<YAML
apiVersion: v1
kind: ConfigMap
metadata: {name: dep, ownerReferences: [{apiVersion: v1, kind: ConfigMap, name: live-owner, uid: $U}]}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: shared, ownerReferences: [{apiVersion: v1, kind: ConfigMap, name: live-owner, uid: $U}, {apiVersion: v1, kind: ConfigMap, name: keeper, uid: $K}]}
YAML
before=$(kubectl get cm -n pipe -o name | sort)
"$OWNERS" -n pipe delete cm/live-owner --dry-run=client -o name | xargs kubectl -n pipe delete >/dev/null
ok $? "delete --dry-run=client -o name | xargs kubectl delete: kubectl takes every name"
after=$(kubectl get cm -n pipe -o name | sort)
is "$(comm -23 <(echo "$before") <(echo "$after") | tr '\n' ' ')" "configmap/dep configmap/live-owner " \
  "  it removes the cascade's objects only: the ConfigMap another owner keeps is still there"

# ---- 3. documents as kubectl users script them --------------------------------
kubectl create namespace docs >/dev/null
kubectl -n docs create deployment web --image=nginx --replicas=4 >/dev/null
wait_for "4 pods of web" 60 bash -c '[[ $(kubectl -n docs get pods -l app=web -o name | wc -l) == 4 ]]'
rs=$(kubectl -n docs get rs -l app=web -o jsonpath='{.items[0].metadata.name}')
pods=$(kubectl -n docs get pods -l app=web -o jsonpath='{.items[*].metadata.name}')

run owners -n docs tree deploy/web -o jsonpath='{.items[*].metadata.name}'
is "$rc:$(sorted <<<"$out" | tr '\n' ' ')" "0:$(sorted <<<"web $rs $pods" | tr '\n' ' ')" \
  "jsonpath {.items[*].metadata.name}: every object of the tree (6), not the root alone"
run owners -n docs tree deploy/web -o jsonpath='{range .items[*]}{.metadata.name}={.metadata.ownerReferences[0].kind};{end}'
like "$rc:$out" "^0:web=;$rs=Deployment;" "a key one item lacks (the root's ownerReferences) prints nothing for it, exit 0, as kubectl"
run owners -n docs tree deploy/web -o jsonpath='{range .items[*]}{.metadata.ownerReferences}{end}' --allow-missing-template-keys=false
like "$rc:$err" "^1:error: error executing jsonpath .*ownerReferences is not found" \
  "--allow-missing-template-keys=false: the missing key is an error, exit 1"
run owners -n docs dangling -o jsonpath='{.nope}' --allow-missing-template-keys=true
is "$rc:$out" "0:" "--allow-missing-template-keys is a printing flag on the other commands (dangling)"
run owners -n docs tree deploy/web -o custom-columns=NAME:.metadata.name,DEPTH:.owners.depth,OWNER:.owners.owner.name --no-headers
like "$out" "^web +0 +<none>"$'\n'"$rs +1 +web"$'\n'"web-[a-z0-9-]+ +2 +$rs" \
  "each item has its depth and the row it hangs from under owners"
run owners -n docs tree deploy/web -o json
printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
root, rs = d["items"][0], d["items"][1]
assert root["metadata"]["labels"] == {"app": "web"}, root["metadata"]
assert rs["metadata"]["labels"]["app"] == "web" and "pod-template-hash" in rs["metadata"]["labels"], rs["metadata"]
'
ok $? "labels are in documents' metadata as the server has them, without --show-labels"

# ---- 9. three small ones -------------------------------------------------------
run owners -n docs tree deploy/web --until=ready --timeout=5s
is "$rc" 3 "--until=ready --timeout=5s with 4 pods Pending: exit 3"
like "$err" "waiting for the tree to be ready: 4 objects are not ready" "  the count of what holds it up"
n=0
for p in $pods; do [[ $err == *"(pod/$p is not ready: Pending"* ]] && n=$((n + 1)); done
is "$n" 4 "  each of the 4 pods named, with why"
unlike "$err" "(deployment.apps/web|replicaset.apps/$rs) is not ready" "  not the owners that only wait for them"

run owners -n docs tree all
is "$rc" 0 "tree all exits 0"
n=0
for p in $pods; do (( $(grep -c "Pod/$p " <<<"$out") == 1 )) && n=$((n + 1)); done
is "$n" 4 "  each pod once, not alone, under its ReplicaSet and under its Deployment"
like "$out" "docs +Deployment/web .*"$'\n'"docs +└── ReplicaSet/$rs .*"$'\n'"docs +    [├└]── Pod/" \
  "  shown under their owners, the Deployment the root"
run owners -n docs tree pods
is "$(grep -c '^docs  *Pod/' <<<"$out")" 4 "tree pods (no owner selected): each pod is a root, as before"

run owners --qps=-1 -n docs tree pods
is "$rc" 2 "--qps=-1: a usage error"
is "$err" "error: invalid value '-1' for --qps: want a number from 0 to 1e9 (e.g. 50 or 2.5)" \
  "  one line with the valid range"

done_testing
