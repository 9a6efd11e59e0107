#!/usr/bin/env bash
# owners diff against a real control plane (the GC off, the workload
# controllers on): two snapshots around scripted changes, one check per kind
# of change as a user meets it (a rollout, an owner deleted with the GC off,
# a finalizer added and the object deleted, an adoption by a ReplicaSet), a
# snapshot against itself (nothing, exit 0 with --exit-code), against the
# live cluster, the filters (-n, -l, TYPE, --live), what one side could not
# see (counted, never called new), and the usage mistakes.
. "$(dirname "$0")/lib.sh"
require python3:python3 jq:jq

plan 33

# "Kind/name change[ owner=Kind/name][ before>after][ finalizer=F]", one line
# per change of an -o json document, in its order
changes() {
  python3 -c '
import json, sys
for i in json.load(sys.stdin)["items"]:
    for c in i["owners"]["changes"]:
        s = "%s/%s %s" % (i["kind"], i["metadata"]["name"], c["change"])
        if "owner" in c:
            s += " owner=%s/%s" % (c["owner"]["kind"], c["owner"]["name"])
        if "before" in c or "after" in c:
            s += " %s>%s" % (c.get("before", "-"), c.get("after", "-"))
        if "finalizer" in c:
            s += " finalizer=" + c["finalizer"]
        print(s)
'
}
# has LINES REGEX DESCRIPTION: one of the lines is REGEX, whole
has() {
  local st
  printf '%s\n' "$1" | grep -qxE "$2"; st=$?
  ok "$st" "$3"
  (( st )) && printf '%s\n' "$1" | sed 's/^/#   line: /'
  return 0
}
jf() { python3 -c "import json, sys; d = json.loads(sys.argv[1]); print($2)" "$1"; }

start_cluster C --gc=off --controllers
. "$C/env"
T=$(mktemp -d "${TMPDIR:-/tmp}/owners-diff.XXXXXX")
trap 'rm -rf "$T"; cleanup_clusters' EXIT

# ---- before: a Deployment, an owner and its dependent, a ConfigMap to hold,
# a pod no one owns yet, and objects elsewhere --------------------------------
kubectl create namespace shop >/dev/null
kubectl create namespace other >/dev/null
kubectl -n other create configmap elsewhere >/dev/null
kubectl -n shop create deployment web --image=nginx:1 --replicas=2 >/dev/null
kubectl -n shop create configmap owner-cm >/dev/null
kubectl -n shop apply -f - >/dev/null <<YAML
apiVersion: v1
kind: ConfigMap
metadata:
  name: dep-cm
  ownerReferences: [{apiVersion: v1, kind: ConfigMap, name: owner-cm, uid: $(kubectl -n shop get cm owner-cm -o jsonpath='{.metadata.uid}')}]
---
apiVersion: v1
kind: ConfigMap
metadata: {name: holdme}
---
apiVersion: v1
kind: Pod
metadata: {name: adoptee, labels: {app: adopt}}
spec: {automountServiceAccountToken: false, containers: [{name: c, image: nginx}]}
YAML
# an object that will name an owner living in another namespace
# (invalid-namespace to the GC, which sees every namespace)
kubectl create namespace far >/dev/null
kubectl create namespace cross >/dev/null
kubectl -n far create configmap far-owner >/dev/null
kubectl -n cross create configmap dep-x >/dev/null
wait_for "web's first ReplicaSet and its pods" 30 \
  bash -c '[[ $(kubectl -n shop get pods -l app=web -o name | wc -l) == 2 ]]'
old_rs=$(kubectl -n shop get rs -l app=web -o jsonpath='{.items[0].metadata.name}')

run owners snapshot -A -f "$T/before.snap.gz"
run owners snapshot -n shop -f "$T/before-shop.json"
ok "$rc" "owners snapshot -A and -n shop: the state before"

run owners diff "$T/before.snap.gz" "$T/before.snap.gz" -A --exit-code
is "$rc|$out|$err" "0||no changes in ownership in any namespace between $T/before.snap.gz and $T/before.snap.gz" \
  "a snapshot against itself: nothing, exit 0 with --exit-code, and said on stderr, with where it looked"
run owners diff "$T/before.snap.gz" "$T/before.snap.gz" -n shop
is "$rc|$err" "0|no changes in ownership in namespace 'shop' between $T/before.snap.gz and $T/before.snap.gz" \
  "a narrower scope is said in the answer, 'no changes' too (#52)"
run owners snapshot -A -f "$T/before-again.json"
run owners diff "$T/before.snap.gz" "$T/before-again.json" -A --exit-code
is "$rc|$out" "0|" "the same cluster in the two formats (binary, JSON): no change"
# a dump that holds fewer types (#52): what it does not hold was not seen
# there, never gone or new
kubectl get configmaps,pods -A -o json >"$T/before-kget.json"
run owners diff "$T/before.snap.gz" "$T/before-kget.json" -A -o json
is "$rc|$(jf "$out" 'len(d["items"]), d["metadata"]["notSeenAfter"] > 0, d["metadata"]["notSeenBefore"]')" "0|0 True 0" \
  "a snapshot against a dump of two of its types: no change, the other types' objects not seen after (counted)"
run owners diff "$T/before-kget.json" "$T/before.snap.gz" -A -o json
is "$rc|$(jf "$out" 'len(d["items"]), d["metadata"]["notSeenBefore"] > 0, d["metadata"]["notSeenAfter"]')" "0|0 True 0" \
  "... and the other way round: not seen before, never 'appeared'"

# ---- the changes ---------------------------------------------------------------
# a rollout: the deployment controller makes a second ReplicaSet
kubectl -n shop set image deployment/web nginx=nginx:2 >/dev/null
wait_for "the rollout's ReplicaSet" 30 bash -c '[[ $(kubectl -n shop get rs -l app=web -o name | wc -l) == 2 ]]'
new_rs=$(kubectl -n shop get rs -l app=web -o jsonpath='{.items[*].metadata.name}' | tr ' ' '\n' | grep -vx "$old_rs")
wait_for "the new ReplicaSet's pod" 30 bash -c "kubectl -n shop get pods -o name | grep -q '/$new_rs-'"
# an owner deleted with the GC off: its dependent stays, its reference dangles
kubectl -n shop delete configmap owner-cm >/dev/null
# a finalizer added, then the object deleted: held
kubectl -n shop patch configmap holdme --type=merge -p '{"metadata":{"finalizers":["example.com/hold"]}}' >/dev/null
kubectl -n shop delete configmap holdme --wait=false >/dev/null
# an adoption: a ReplicaSet whose selector matches the pod takes it
kubectl -n shop apply -f - >/dev/null <<'YAML'
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: adopter}
spec:
  replicas: 1
  selector: {matchLabels: {app: adopt}}
  template:
    metadata: {labels: {app: adopt}}
    spec: {automountServiceAccountToken: false, containers: [{name: c, image: nginx}]}
YAML
wait_for "the pod adopted" 30 bash -c \
  '[[ $(kubectl -n shop get pod adoptee -o jsonpath="{.metadata.ownerReferences[0].name}") == adopter ]]'
kubectl -n other create configmap new-elsewhere >/dev/null
kubectl -n cross patch configmap dep-x --type=merge -p "{\"metadata\":{\"ownerReferences\":[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"name\":\"far-owner\",\"uid\":\"$(kubectl -n far get cm far-owner -o jsonpath='{.metadata.uid}')\"}]}}" >/dev/null

run owners snapshot -A -f "$T/after.json.gz"
ok "$rc" "owners snapshot -A: the state after"

run owners diff "$T/before.snap.gz" "$T/after.json.gz" -n shop --exit-code
ok "$((rc != 1))" "changes, --exit-code: exit 1 (as git diff and kubectl diff)"

run owners diff "$T/before.snap.gz" "$T/after.json.gz" -n shop -o json
doc=$out
lines=$(printf '%s' "$doc" | changes)
has "$lines" "ReplicaSet/$new_rs appeared" "a rollout: the new ReplicaSet appeared"
has "$lines" "Pod/$new_rs-[a-z0-9]+ appeared" "a rollout: its pod appeared"
has "$lines" "ConfigMap/dep-cm went-dangling owner=ConfigMap/owner-cm resolved>absent" \
  "an owner deleted with the GC off: its dependent's reference went dangling (resolved, now absent)"
has "$lines" "ConfigMap/owner-cm went" "... and the owner went"
has "$lines" "ConfigMap/holdme finalizer-added finalizer=example.com/hold" "a finalizer added"
is "$(jf "$doc" '[(c["sinceExact"], c["ageSeconds"] == int(__import__("calendar").timegm(__import__("time").strptime(d["metadata"]["after"]["time"], "%Y-%m-%dT%H:%M:%SZ"))) - int(__import__("calendar").timegm(__import__("time").strptime(i["metadata"]["deletionTimestamp"], "%Y-%m-%dT%H:%M:%SZ")))) for i in d["items"] for c in i["owners"]["changes"] if c["change"] == "deletion-started"]')" \
  "[(True, True)]" "an object that entered deletion: one, since its deletionTimestamp, aged to the second snapshot's time"
has "$lines" "Pod/adoptee adopted owner=ReplicaSet/adopter ->resolved" \
  "an adoption: the pod adopted by the ReplicaSet that matches it"
is "$(printf '%s\n' "$lines" | grep -c .)" 8 \
  "and nothing else: 8 changes (2 of the rollout, 2 of the owner, 2 of holdme, the adopter appeared, the adoption)"

run owners diff "$T/before.snap.gz" "$T/after.json.gz" -n shop
like "$out" "configmap in namespace shop:"$'\n'"  ~ dep-cm +owner ConfigMap/owner-cm dangling: absent \(in the last [0-9]+s\)" \
  "text: a heading per kind and namespace, a line per change, the window it happened in"

run owners diff "$T/before.snap.gz" -n shop -o json
is "$(jf "$out" 'd["metadata"]["after"]["live"]')|$(printf '%s' "$out" | changes)" "True|$lines" \
  "BEFORE alone: against the live cluster, the same changes"
# the example --help shows, piped as printed
out=$(cd "$T" && owners diff before.snap.gz -A -o json | jq '.items[].owners.changes[].change')
[[ $out == *'"went-dangling"'* && $out == *'"appeared"'* ]] && ! grep -qvE '^"[a-z-]+"$' <<<"$out"
ok $? "owners diff before.snap.gz -A -o json | jq '.items[].owners.changes[].change': the changes' names, one a line"

run owners diff "$T/before.snap.gz" "$T/after.json.gz" -n shop -l app=adopt -o json
is "$(printf '%s' "$out" | changes)" "Pod/adoptee adopted owner=ReplicaSet/adopter ->resolved" \
  "-l: only the objects with those labels"

run owners diff "$T/before.snap.gz" "$T/after.json.gz" -n shop replicasets -o json
is "$(printf '%s' "$out" | changes | sort)" "$(printf 'ReplicaSet/%s appeared\n' adopter "$new_rs" | sort)" \
  "TYPE arguments: only those types"

# a category, as kubectl takes it (#51): `all` holds pods and replicasets,
# not configmaps
run owners diff "$T/before.snap.gz" "$T/after.json.gz" -n shop all -o json
is "$rc|$(printf '%s' "$out" | changes | sort)" "0|$(printf '%s\n' "$lines" | grep -E '^(ReplicaSet|Pod)/' | sort)" \
  "a category (all): the changes of its types, no ConfigMap's"

run owners diff "$T/before.snap.gz" --live -n shop configmaps -o json
is "$(jf "$out" 'd["metadata"]["after"]["live"]')|$(printf '%s' "$out" | changes | sort)" \
  "True|$(printf '%s\n' "$lines" | grep '^ConfigMap/' | sort)" "--live with TYPE arguments: the cluster, configmaps only"

# -n looks an owner up in every namespace, as dangling does (#51): a
# reference to an owner elsewhere is the same change seen from its
# dependent's namespace as from all of them
run owners diff "$T/before.snap.gz" "$T/after.json.gz" -A -o json
all_x=$(printf '%s' "$out" | changes | grep '^ConfigMap/dep-x ')
run owners diff "$T/before.snap.gz" "$T/after.json.gz" -n cross -o json
is "$(printf '%s' "$out" | changes)|$all_x" "$all_x|ConfigMap/dep-x reference-added owner=ConfigMap/far-owner ->invalid-namespace" \
  "-n: an owner in another namespace looked up there: the change -A shows (a reference to it, invalid-namespace)"

run owners diff "$T/before.snap.gz" "$T/after.json.gz" -n other -o json
is "$(printf '%s' "$out" | changes)" "ConfigMap/new-elsewhere appeared" "-n: another namespace's changes alone"

run owners diff "$T/before-shop.json" "$T/after.json.gz" -A -o json
is "$(jf "$out" 'd["metadata"]["notSeenBefore"] > 0, [i["metadata"]["name"] for i in d["items"] if i["metadata"].get("namespace") != "shop"]')" \
  "True []" "a snapshot of one namespace: the others' objects not compared (counted), never 'appeared'"
run owners diff "$T/before-shop.json" "$T/after.json.gz" -A
like "$err" "warning: [0-9]+ objects of $T/after.json.gz not compared: $T/before-shop.json did not list their type" \
  "... and a warning says how many"

# two -A snapshots, neither -n nor -A: compared in every namespace, the
# snapshots' scope, not only the context's (#52)
run owners diff "$T/before.snap.gz" "$T/after.json.gz" -o json
is "$rc|$(printf '%s' "$out" | changes | grep -c .)" "0|$(owners diff "$T/before.snap.gz" "$T/after.json.gz" -A -o json | changes | grep -c .)" \
  "two -A snapshots: every namespace's changes by default, as with -A"
# README's example, run as printed
kubectl -n default create deployment web --image=nginx:1 >/dev/null
wait_for "default/web's ReplicaSet" 30 bash -c '[[ $(kubectl -n default get rs -l app=web -o name | wc -l) == 1 ]]'
mkdir -p "$T/readme"
(
  cd "$T/readme" && owners snapshot -A -f before.snap.gz 2>/dev/null &&
    kubectl rollout restart deployment/web >/dev/null &&
    wait_for "the restart's ReplicaSet" 30 bash -c '[[ $(kubectl get rs -l app=web -o name | wc -l) == 2 ]]' &&
    owners diff before.snap.gz --exit-code >"$T/readme.out" 2>"$T/readme.err"
  echo $? >"$T/readme.rc"
)
out=$(cat "$T/readme.out") err=$(cat "$T/readme.err") rc=$(cat "$T/readme.rc")
is "$rc" 1 "README: owners diff before.snap.gz --exit-code after a rollout restart: exit 1"
like "$out" "replicaset.apps in namespace default:"$'\n'"  \\+ web-[a-z0-9]+ +appeared" "... and the restart's new ReplicaSet"

run owners diff
is "$rc" 2 "no snapshot: a usage error (exit 2)"
run owners diff --from "$T/before.snap.gz"
is "$rc|$err" "2|error: 'owners diff' takes the snapshots it compares as arguments, not --from: 'owners diff BEFORE AFTER', or 'owners diff BEFORE' against the cluster" \
  "--from: refused, the spelling said"
run owners diff "$T/before.snap.gz" -l 'app in (a'
is "$rc|$err" "2|error: invalid label selector 'app in (a': unable to parse requirement: found '', expected: ',' or ')'" \
  "a malformed -l: apimachinery's words, exit 2"

done_testing
