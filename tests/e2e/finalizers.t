#!/usr/bin/env bash
# owners finalizers against a real control plane: objects stuck in deletion
# explained (a custom finalizer, a foreground deletion the stalled garbage
# collector never finishes, a namespace held by its content, a claim held
# by pvc-protection), then freed with `remove`: conditional patches that
# never lose a concurrent change, the namespace finalize subresource,
# refusals, dry runs, the real end state, and every error path's message
# and exit code.
. "$(dirname "$0")/lib.sh"

# reason of finalizer F of the item named N in an OwnersFinalizers document
json_reason() {
  python3 -c '
import json, sys
d = json.load(sys.stdin)
for i in d["items"]:
    if i["metadata"]["name"] == sys.argv[1]:
        for f in i["owners"]["finalizers"]:
            if f["name"] == sys.argv[2]:
                print(f["reason"])
' "$1" "$2"
}
finalizers_of() { kubectl get "$@" -o jsonpath='{.metadata.finalizers}'; }
one_line() { [[ $(printf '%s\n' "$err" | grep -vc '^warning: ') == 1 ]]; }

start_cluster C --gc=stalled --controllers
. "$C/env"

# ---- a pod with a custom finalizer ---------------------------------------------
kubectl apply -f - >/dev/null <<'YAML'
apiVersion: v1
kind: Pod
metadata: {name: held, finalizers: [example.com/hold]}
spec: {containers: [{name: c, image: busybox}]}
YAML
kubectl delete pod held --wait=false >/dev/null

run owners finalizers
ok $rc "finalizers exits 0"
like "$out" $'Pod/held: deleting for [0-9]+s\n  example.com/hold: its controller must remove it' \
  "the stuck pod, how long, its finalizer and why"
like "$out" "if so: owners finalizers remove pod/held -n default --finalizer example.com/hold" \
  "with the command that frees it"
unlike "$out" "Namespace/" "no namespace outside the run's scope"
is "$err" "" "nothing on stderr"

run owners finalizers --exit-code
is "$rc" 1 "--exit-code: exit 1 when something stuck is reported (issue #38)"
like "$out" "Pod/held" "  and it is still printed"

run owners finalizers -o json
ok $rc "-o json exits 0"
printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert list(d) == ["apiVersion", "kind", "metadata", "items", "warnings"], list(d)
assert d["kind"] == "OwnersFinalizers" and d["apiVersion"] == "owners.dev/v1", d
assert d["metadata"]["namespace"] == "default" and d["warnings"] == []
[p] = [i for i in d["items"] if i["metadata"]["name"] == "held"]
assert list(p) == ["apiVersion", "kind", "metadata", "owners"], list(p)
assert p["kind"] == "Pod" and p["apiVersion"] == "v1" and p["metadata"]["namespace"] == "default"
m = p["metadata"]
assert m["deletionTimestamp"].endswith("Z") and m["finalizers"] == ["example.com/hold"] and m["uid"]
assert p["owners"]["state"] == "stuck" and p["owners"]["stuckSeconds"] >= 0
[f] = p["owners"]["finalizers"]
assert f == {"name": "example.com/hold", "field": "metadata.finalizers", "reason": "controller",
             "message": f["message"]}, f
'
ok $? "-o json: the documented schema"
run owners finalizers -o jsonpath='{.items[*].metadata.name}'
like "$rc:$out" "^0:(.* )?held( |$)" "-o jsonpath over .metadata.name, as kubectl get users script it"
run owners finalizers -o jsonpath='{.items[*].nope}' --allow-missing-template-keys=false
like "$rc:$err" "^1:error: error executing jsonpath .*: nope is not found" "a field no item has, --allow-missing-template-keys=false: exit 1"
run owners finalizers -o custom-columns=
is "$rc:$out" "2:" "-o custom-columns= (empty): a usage error"
run owners finalizers -o name
ok $rc "-o name exits 0"
like "$out" "(^|"$'\n'")pod/held($|"$'\n'")" "-o name: pod/held, as kubectl delete takes it"
is "$(printf '%s\n' "$out" | xargs kubectl get -o name | sort)" "$(printf '%s\n' "$out" | sort)" \
  "-o name | xargs kubectl get: every line names an object"

run owners finalizers remove pod/held --finalizer example.com/hold --dry-run=server
ok $rc "--dry-run exits 0"
like "$out" "^pod/held: would remove example.com/hold; with no finalizers left it would then be deleted \\(dry run: nothing was changed\\)$" \
  "--dry-run says what would change"
is "$(finalizers_of pod held)" '["example.com/hold"]' "--dry-run changed nothing"

run owners finalizers remove pod/held --finalizer example.com/hold
ok $rc "remove exits 0"
is "$out" "pod/held: removed example.com/hold; gone" "remove reports the real end state: gone"
kubectl get pod held >/dev/null 2>&1
ok $((! $?)) "the pod is gone"

run owners finalizers
is "$out" "" "nothing stuck any more"
is "$err" "no objects stuck in deletion in namespace 'default'" "and it says so on stderr"
run owners finalizers --exit-code
is "$rc" 0 "--exit-code with nothing stuck: exit 0"

# ---- a foreground deletion the stalled garbage collector never finishes --------
kubectl create deployment web --image=nginx --replicas=2 >/dev/null
wait_for "2 pods of web" 60 bash -c '[[ $(kubectl get pods -l app=web -o name | wc -l) == 2 ]]'
rs=$(kubectl get rs -l app=web -o jsonpath='{.items[0].metadata.name}')
pods=$(kubectl get pods -l app=web -o jsonpath='{.items[*].metadata.name}')
kubectl delete deployment web --cascade=foreground --wait=false >/dev/null
kubectl delete rs "$rs" --cascade=foreground --wait=false >/dev/null

run owners finalizers deployment/web
ok $rc "finalizers deployment/web exits 0"
like "$out" $'^Deployment/web: deleting for [0-9]+s\n  foregroundDeletion: waiting for 1 dependent that blocks owner deletion' \
  "foregroundDeletion waits for the dependent that blocks owner deletion"
like "$out" $'\n    ReplicaSet/'"$rs"$': deleting for [0-9]+s\n      foregroundDeletion: waiting for 2 dependents that block owner deletion' \
  "the replicaset is named, and what it is stuck on, recursively"
for p in $pods; do
  like "$out" $'\n        Pod/'"$p"': not being deleted yet \(the garbage collector deletes it first\)' \
    "pod $p blocks it, not yet deleted"
done
printf '%s\n' "$out" > "$C/foreground.txt"

run owners finalizers deployment/web -o json
printf '%s' "$out" | python3 -c '
import json, sys
rs, pods = sys.argv[1], sys.argv[2].split()
d = json.load(sys.stdin)
[dep] = d["items"]
[f] = dep["owners"]["finalizers"]
assert f["reason"] == "blocking-dependents" and [o["metadata"]["name"] for o in f["objects"]] == [rs], f
[r] = f["objects"]
assert r["kind"] == "ReplicaSet" and r["owners"]["state"] == "stuck"
assert r["metadata"]["ownerReferences"][0]["name"] == "web"
[rf] = r["owners"]["finalizers"]
assert rf["name"] == "foregroundDeletion" and rf["reason"] == "blocking-dependents"
assert sorted(o["metadata"]["name"] for o in rf["objects"]) == sorted(pods)
assert all(o["owners"]["state"] == "live" and "finalizers" not in o["owners"] for o in rf["objects"])
' "$rs" "$pods"
ok $? "-o json: blocking dependents nested, with their own finalizers"

run owners finalizers
like "$out" "Deployment/web: deleting" "the namespace view lists the deployment"
like "$out" $'\n\nReplicaSet/'"$rs"': deleting' "and the replicaset on its own"

run owners finalizers remove rs/"$rs" --finalizer foregroundDeletion
ok $rc "removing foregroundDeletion from the replicaset exits 0"
is "$out" "replicaset.apps/$rs: removed foregroundDeletion; gone" "the replicaset is gone"
run owners finalizers deployment/web -o json
is "$(printf '%s' "$out" | json_reason web foregroundDeletion)" "garbage-collector" \
  "nothing blocks the deployment any more: up to the garbage collector"
run owners finalizers deployment/web
like "$out" "no dependent blocks owner deletion any more: the garbage collector removes this finalizer when it next processes the object \\(is it running\\?\\)" \
  "the text says so"
run owners finalizers remove deployment/web --all-finalizers
is "$out" "deployment.apps/web: removed foregroundDeletion; gone" "--all frees the deployment"
kubectl delete pods -l app=web --wait=false >/dev/null

# ---- a namespace held by its content ---------------------------------------------
kubectl create namespace stuck >/dev/null
kubectl apply -n stuck -f - >/dev/null <<'YAML'
apiVersion: v1
kind: ConfigMap
metadata: {name: held, finalizers: [example.com/hold]}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: plain}
YAML
kubectl delete namespace stuck --wait=false >/dev/null
wait_for "the namespace controller to report the finalizer left" 60 bash -c \
  "[[ \$(kubectl get ns stuck -o jsonpath='{.status.conditions[?(@.type==\"NamespaceFinalizersRemaining\")].status}') == True ]]"
ok $? "the namespace is stuck in Terminating"

run owners finalizers namespace/stuck
ok $rc "finalizers namespace/stuck exits 0 (from namespace default)"
like "$out" $'^Namespace/stuck: deleting for [0-9]+s\n  kubernetes \\(spec.finalizers\\): the namespace controller removes it once the namespace is empty: 1 object left, 1 of them stuck in deletion\n    content: configmaps 1 \\(1 stuck\\)\n    ConfigMap/held: deleting for [0-9]+s\n      example.com/hold: its controller must remove it' \
  "explained by its content, scanned in that namespace, with the stuck content explained"
like "$out" $'\n    the namespace controller last reported:\n      NamespaceContentRemaining: Some resources are remaining: configmaps' \
  "with the namespace controller's conditions"
like "$out" "NamespaceFinalizersRemaining: Some content in the namespace has finalizers remaining: example.com/hold" \
  "including the finalizers remaining"
printf '%s\n' "$out" > "$C/namespace.txt"
run owners finalizers namespace/stuck -o json
printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
[ns] = d["items"]
assert ns["kind"] == "Namespace" and "namespace" not in ns["metadata"]
[f] = ns["owners"]["finalizers"]
assert f["name"] == "kubernetes" and f["field"] == "spec.finalizers" and f["reason"] == "namespace-content"
assert f["content"] == [{"resource": "configmaps", "group": "", "kind": "ConfigMap", "count": 1, "stuck": 1}], f["content"]
assert f["contentObjects"] == 1 and f["contentTypesNotListed"] == 0
assert [o["metadata"]["name"] for o in f["objects"]] == ["held"]
assert f["objects"][0]["owners"]["finalizers"][0]["reason"] == "controller"
types = {c["type"] for c in f["conditions"]}
assert {"NamespaceContentRemaining", "NamespaceFinalizersRemaining"} <= types, types
assert all(c["status"] == "True" for c in f["conditions"])
'
ok $? "-o json: content by type, stuck content, True conditions"
run owners finalizers namespaces
like "$out" "^Namespace/stuck: deleting" "a bare TYPE lists every stuck object of the type"
run owners finalizers -n stuck
like "$out" "^Namespace/stuck: deleting" "-n stuck: the namespace itself"
like "$out" $'\n\nConfigMap/held: deleting' "and its stuck content"
run owners finalizers -A
like "$out" "Namespace/stuck: deleting" "-A lists the namespace too"
like "$out" $'\n\nConfigMap/held in namespace stuck: deleting' "and names the namespace of what is elsewhere"

run owners finalizers remove namespace/stuck --finalizer kubernetes
is "$rc" 1 "removing 'kubernetes' while content is left is refused: exit 1"
like "$err" "^error: namespaces 'stuck' still has 1 object in it \\(configmaps 1\\): without its 'kubernetes' finalizer the namespace goes at once and leaves it in storage" \
  "refused, saying what is left and why"
is "$out" "" "nothing reported as done"
kubectl get ns stuck >/dev/null 2>&1
ok $? "the namespace is still there"
run owners finalizers remove namespace/stuck --finalizer kubernetes --force --dry-run=server
ok $rc "--force --dry-run exits 0"
like "$out" "^namespace/stuck: would remove kubernetes \\(spec.finalizers, through finalize\\); with no finalizers left it would then be deleted \\(dry run: nothing was changed\\)$" \
  "the dry run goes through the finalize subresource"
kubectl get ns stuck >/dev/null 2>&1
ok $? "and changes nothing"

run owners finalizers remove -n stuck configmap/held --all-finalizers
ok $rc "freeing the content exits 0"
is "$out" "configmap/held: removed example.com/hold; gone" "the content is gone"
wait_for "the namespace controller to finish" 90 bash -c '! kubectl get ns stuck'
ok $? "then the namespace controller removes the namespace"

# ---- a claim held by pvc-protection -------------------------------------------------
kubectl apply -f - >/dev/null <<'YAML'
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
---
apiVersion: v1
kind: Pod
metadata: {name: user}
spec:
  nodeName: node-1
  containers: [{name: c, image: busybox}]
  volumes: [{name: d, persistentVolumeClaim: {claimName: data}}]
---
apiVersion: v1
kind: Pod
metadata: {name: waiting}
spec:
  containers: [{name: c, image: busybox}]
  volumes: [{name: d, persistentVolumeClaim: {claimName: data}}]
YAML
is "$(finalizers_of pvc data)" '["kubernetes.io/pvc-protection"]' "the admission plugin put pvc-protection on the claim"
kubectl delete pvc data --wait=false >/dev/null
run owners finalizers pvc/data
ok $rc "finalizers pvc/data exits 0"
like "$out" $'^PersistentVolumeClaim/data: deleting for [0-9]+s\n  kubernetes.io/pvc-protection: in use by 1 pod: the pvc-protection controller removes it once no scheduled pod mounts the claim' \
  "held by pvc-protection while a pod uses it"
like "$out" $'\n    Pod/user \\(on node node-1, Pending\\): mounts the claim' "the pod using it is named"
like "$out" $'\n    Pod/waiting \\(not scheduled\\): references the claim, does not hold it' \
  "an unscheduled pod is told apart"
run owners finalizers pvc/data -o json
printf '%s' "$out" | python3 -c '
import json, sys
[c] = json.load(sys.stdin)["items"]
[f] = c["owners"]["finalizers"]
assert f["reason"] == "in-use", f
pods = {p["name"]: p for p in f["pods"]}
assert pods["user"]["holds"] is True and pods["user"]["nodeName"] == "node-1"
assert pods["waiting"]["holds"] is False and pods["waiting"]["nodeName"] == ""
'
ok $? "-o json: the pods, and which hold the claim"
kubectl delete pod user waiting --grace-period=0 --force >/dev/null 2>&1
run owners finalizers pvc/data -o json
is "$(printf '%s' "$out" | json_reason data kubernetes.io/pvc-protection)" "released" \
  "no pod left: up to the pvc-protection controller"
run owners finalizers remove pvc/data --finalizer kubernetes.io/pvc-protection
is "$out" "persistentvolumeclaim/data: removed kubernetes.io/pvc-protection; gone" "the claim is freed"

# ---- a volume held by pv-protection ---------------------------------------------------
# No volume controller runs: the test plays it, setting the phase itself.
kubectl apply -f - >/dev/null <<'YAML'
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv-1}
spec:
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteOnce]
  hostPath: {path: /tmp/owners-e2e-pv-1}
  claimRef: {namespace: default, name: data}
YAML
kubectl patch pv pv-1 --subresource=status --type=merge -p '{"status":{"phase":"Bound"}}' >/dev/null
kubectl delete pv pv-1 --wait=false >/dev/null
run owners finalizers pv/pv-1
like "$out" $'^PersistentVolume/pv-1: deleting for [0-9]+s\n  kubernetes.io/pv-protection: bound to a claim: the pv-protection controller removes it once the volume is released\n    bound to PersistentVolumeClaim/data in namespace default' \
  "held by pv-protection: bound to its claim"
run owners finalizers pv/pv-1 -o json
printf '%s' "$out" | python3 -c '
import json, sys
[v] = json.load(sys.stdin)["items"]
[f] = v["owners"]["finalizers"]
assert f["reason"] == "bound" and f["claim"] == {"namespace": "default", "name": "data"}, f
'
ok $? "-o json: the claim"
kubectl patch pv pv-1 --subresource=status --type=merge -p '{"status":{"phase":"Released"}}' >/dev/null
run owners finalizers pv/pv-1 -o json
is "$(printf '%s' "$out" | json_reason pv-1 kubernetes.io/pv-protection)" "released" "released: up to the pv-protection controller"
run owners finalizers remove pv/pv-1 --finalizer kubernetes.io/pv-protection
is "$out" "persistentvolume/pv-1: removed kubernetes.io/pv-protection; gone" "the volume is freed"

# ---- no lost update: the object changes between the read and the patch ----------------
# A live object (--force): another client adds a finalizer and a label
# meanwhile; the apiserver refuses new finalizers on an object in deletion.
kubectl apply -f - >/dev/null <<'YAML'
apiVersion: v1
kind: ConfigMap
metadata: {name: race, finalizers: [example.com/a]}
YAML
OWNERS_TEST_PAUSE_BEFORE_PATCH=4 "$OWNERS" finalizers remove cm/race --finalizer example.com/a --force -v=6 \
  >"$C/race.out" 2>"$C/race.err" &
pid=$!
wait_for "remove to read race and pause" 30 grep -q "test hook: pausing 4s before patching ConfigMap default/race" "$C/race.err"
ok $? "remove paused between reading and patching"
while_paused $pid kubectl patch cm race --type=json -p '[{"op":"add","path":"/metadata/labels","value":{"changed":"yes"}},{"op":"add","path":"/metadata/finalizers/-","value":"example.com/other"}]' >/dev/null
wait $pid; rc=$?
err=$(cat "$C/race.err"); san_check "finalizers remove (paused)"
is "$rc" 0 "remove finished (exit 0)"
like "$(cat "$C/race.err")" "PATCH [^ ]*/configmaps/race 409 Conflict" "the first patch met the change (409)"
like "$(cat "$C/race.err")" "PATCH [^ ]*/configmaps/race 200 OK" "the second, from a fresh read, went through"
is "$(finalizers_of cm race)" '["example.com/other"]' "the other client's finalizer survived; ours is gone"
is "$(kubectl get cm race -o jsonpath='{.metadata.labels.changed}')" "yes" "the other client's label survived"
is "$(cat "$C/race.out")" "configmap/race: removed example.com/a; still there, not being deleted, finalizers: example.com/other" \
  "the end state as read back"

# An object in deletion with two finalizers: a label changes meanwhile.
kubectl apply -f - >/dev/null <<'YAML'
apiVersion: v1
kind: ConfigMap
metadata: {name: race2, finalizers: [example.com/a, example.com/b]}
YAML
kubectl delete cm race2 --wait=false >/dev/null
OWNERS_TEST_PAUSE_BEFORE_PATCH=4 "$OWNERS" finalizers remove cm/race2 --finalizer example.com/a -o json \
  >"$C/race2.out" 2>"$C/race2.err" &
pid=$!
wait_for "remove to pause on race2" 30 grep -q "test hook: pausing" "$C/race2.err"
while_paused $pid kubectl label cm race2 changed=yes >/dev/null
wait $pid; rc=$?
err=$(cat "$C/race2.err"); san_check "finalizers remove (paused, 2)"
is "$rc" 0 "remove finished (exit 0)"
python3 -c '
import json, sys
[i] = json.load(open(sys.argv[1]))["items"]
assert i["kind"] == "ConfigMap" and i["metadata"]["name"] == "race2", i
i = i["owners"]
assert i["result"] == "freed" and i["writes"] == 2, i
assert i["removed"] == [{"name": "example.com/a", "field": "metadata.finalizers"}], i
assert i["finalizersLeft"] == [{"name": "example.com/b", "field": "metadata.finalizers"}], i
assert i["deleting"] is True
' "$C/race2.out"
ok $? "-o json: freed after two writes (one conflict), b left, still being deleted"
is "$(finalizers_of cm race2)" '["example.com/b"]' "only the finalizer asked for is gone"
is "$(kubectl get cm race2 -o jsonpath='{.metadata.labels.changed}')" "yes" "the label set meanwhile survived"
run owners finalizers remove cm/race2 --finalizer example.com/b
is "$out" "configmap/race2: removed example.com/b; gone" "the last finalizer off: gone"

# ---- `orphan` off an object in deletion: its dependents are released first -----------------
# The GC takes `orphan` off only after orphanDependents removed every reference
# to the object; taken off first, the object goes, its dependents still point
# at it, and the GC deletes them: an orphan delete turned into a cascade.
uid_of() { kubectl get "$@" -o jsonpath='{.metadata.uid}'; }
refs_of() { kubectl get "$@" -o jsonpath='{range .metadata.ownerReferences[*]}{.name} {end}'; }
orphan_setup() { # orphan_setup: o (stuck with orphan) <- child1, child2 (also owned by other), cr-dep
  kubectl create cm o >/dev/null; kubectl create cm other >/dev/null
  local o_uid other_uid
  o_uid=$(uid_of cm o); other_uid=$(uid_of cm other)
  kubectl apply -f - >/dev/null <<YAML
apiVersion: v1
kind: ConfigMap
metadata:
  name: child1
  ownerReferences: [{apiVersion: v1, kind: ConfigMap, name: o, uid: $o_uid}]
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: child2
  ownerReferences:
  - {apiVersion: v1, kind: ConfigMap, name: other, uid: $other_uid, controller: true}
  - {apiVersion: v1, kind: ConfigMap, name: o, uid: $o_uid}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: cr-dep
  ownerReferences: [{apiVersion: v1, kind: ConfigMap, name: o, uid: $o_uid}]
rules: []
YAML
  kubectl delete cm o --cascade=orphan --wait=false >/dev/null
}
orphan_state() {
  printf '%s|%s|%s|%s\n' "$(finalizers_of cm o 2>&1)" "$(refs_of cm child1)" "$(refs_of cm child2)" \
    "$(refs_of clusterrole cr-dep)"
}
orphan_setup
is "$(orphan_state)" '["orphan"]|o |other o |o ' "o is stuck with orphan (the GC is stalled), three dependents reference it"
run owners finalizers cm/o
like "$out" "orphan: waiting for the garbage collector to release 3 dependents" "finalizers: orphan waits for the GC to release the dependents"
like "$out" $'\n    if the garbage collector is not running: owners finalizers remove configmap/o -n default --finalizer orphan' \
  "  and gives the remedy line custom finalizers get"

run owners --context viewer finalizers remove cm/o --all-finalizers
is "$rc" 1 "a user who cannot look for every dependent: refused (exit 1)"
like "$err" "^error: configmaps 'o' in namespace 'default' keeps its 'orphan' finalizer \\(without it the garbage collector would delete the dependents it was asked to keep\\): not every dependent could be looked for \\(cannot list '[^']*'[^)]*forbidden\\); nothing was changed \\(--force releases the ones found and removes it anyway\\)$" \
  "  says why, what it could not see, and what --force does"
is "$(orphan_state)" '["orphan"]|o |other o |o ' "  nothing was changed"

run owners finalizers remove cm/o --finalizer orphan --dry-run=server -v=6
ok $rc "--dry-run exits 0"
like "$(printf '%s\n' "$out" | head -1)" "^configmap/o: would release its dependents first \\(dry run\\): " \
  "  says which dependents it would release"
for d in configmap/child1 configmap/child2 clusterrole.rbac.authorization.k8s.io/cr-dep; do
  like "$(printf '%s\n' "$out" | head -1)" "$d" "  ... $d among them"
done
like "$out" $'\nconfigmap/o: would remove orphan; with no finalizers left it would then be deleted \\(dry run: nothing was changed\\)$' \
  "  then that it would remove orphan"
like "$err" "PATCH [^ ]*/configmaps/child1\\?dryRun=All 200" "  each release was checked by the server (dryRun=All)"
is "$(orphan_state)" '["orphan"]|o |other o |o ' "  nothing was changed"

run owners finalizers remove cm/o --all-finalizers -o json -v=6
ok $rc "remove orphan exits 0"
python3 -c '
import json, sys
[i] = json.loads(sys.argv[1])["items"]
assert i["metadata"]["name"] == "o", i
i = i["owners"]
assert i["result"] == "gone", i
assert i["removed"] == [{"name": "orphan", "field": "metadata.finalizers"}], i
got = sorted((d["kind"], d["name"], d["result"], "namespace" in d, d["writes"]) for d in i["releasedDependents"])
assert got == [("ClusterRole", "cr-dep", "released", False, 1), ("ConfigMap", "child1", "released", True, 1),
               ("ConfigMap", "child2", "released", True, 1)], got
' "$out"
ok $? "-o json: three dependents released, then orphan removed: o is gone"
release_line=$(printf '%s\n' "$err" | grep -n 'PATCH [^ ]*/configmaps/child1 ' | head -1 | cut -d: -f1)
remove_line=$(printf '%s\n' "$err" | grep -n 'PATCH [^ ]*/configmaps/o ' | head -1 | cut -d: -f1)
[[ -n $release_line && -n $remove_line && $release_line -lt $remove_line ]]
ok $? "  the dependents were patched before the finalizer was"
is "$(kubectl get cm child1 -o jsonpath='{.metadata.ownerReferences}')" "" "child1 is an orphan now (no references left)"
is "$(refs_of cm child2)" "other " "child2 keeps its other owner, only o's reference went"
is "$(refs_of clusterrole cr-dep)" "" "the cluster-scoped dependent was released too"
kubectl get cm o >/dev/null 2>&1
ok $((! $?)) "o is gone"

# A dependent that cannot be released (admission denies the patch): orphan stays.
kubectl delete cm child1 child2 other >/dev/null; kubectl delete clusterrole cr-dep >/dev/null
orphan_setup
kubectl apply -f - >/dev/null <<'YAML'
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: freeze-child2}
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [UPDATE], resources: [configmaps], resourceNames: [child2]}
  validations:
  - {expression: "false", message: "child2 is frozen"}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: freeze-child2}
spec: {policyName: freeze-child2, validationActions: [Deny]}
YAML
wait_for "the policy denies" 30 bash -c "! kubectl label cm child2 x=y --dry-run=server >/dev/null 2>&1"
run owners finalizers remove cm/o --all-finalizers
is "$rc" 1 "a dependent admission will not let go: refused (exit 1)"
like "$out" "configmap/o: could not release its dependents: configmap/child2 \\([^)]*child2 is frozen" \
  "  names the dependent and the policy's message"
like "$err" "keeps its 'orphan' finalizer \\(.*\\): 1 of its dependents could not be released \\(the others were; run again once they can be\\)" "  and why orphan stays"
is "$(finalizers_of cm o)" '["orphan"]' "  o keeps orphan"
is "$(refs_of cm child2)" "other o " "  child2 still references o"
kubectl delete validatingadmissionpolicybinding freeze-child2 >/dev/null
kubectl delete validatingadmissionpolicy freeze-child2 >/dev/null
wait_for "the policy is gone" 30 kubectl label cm child2 x=y --dry-run=server
run owners finalizers remove cm/o --all-finalizers
ok $rc "once admission allows it, the rerun finishes"
like "$out" "released its dependents first: configmap/child2" "  releasing what was left (child2)"
is "$(refs_of cm child2)" "other " "  child2 keeps only its other owner"
kubectl delete cm child1 child2 other >/dev/null; kubectl delete clusterrole cr-dep >/dev/null

# With --force, a user who cannot see everything releases what was found.
orphan_setup
kubectl create rolebinding viewer-edit --clusterrole=edit --user=viewer >/dev/null
kubectl create clusterrole patch-cr --verb=get,list,patch --resource=clusterroles >/dev/null
kubectl create clusterrolebinding viewer-patch-cr --clusterrole=patch-cr --user=viewer >/dev/null
run owners --context viewer finalizers remove cm/o --all-finalizers --force
ok $rc "--force: exit 0"
like "$err" "^warning: " "  the types it could not list are warned about"
like "$out" "released its dependents first: " "  the dependents found were released"
kubectl get cm o >/dev/null 2>&1
ok $((! $?)) "  o is gone"
is "$(refs_of cm child1)|$(refs_of cm child2)" "|other " "  and its namespaced dependents no longer reference it"
kubectl delete rolebinding viewer-edit >/dev/null; kubectl delete clusterrolebinding viewer-patch-cr >/dev/null
kubectl delete clusterrole patch-cr >/dev/null
kubectl delete cm child1 child2 other >/dev/null; kubectl delete clusterrole cr-dep >/dev/null

# ---- refusals and error paths --------------------------------------------------------------
kubectl apply -f - >/dev/null <<'YAML'
apiVersion: v1
kind: ConfigMap
metadata: {name: live, finalizers: [example.com/keep]}
YAML
run owners finalizers remove cm/live --finalizer example.com/keep
is "$rc" 1 "a live object without --force: exit 1"
is "$err" "error: configmaps 'live' in namespace 'default' is not being deleted: taking finalizers off a live object disables what they protect (use --force to do it anyway)" \
  "refused, saying why and how"
is "$(finalizers_of cm live)" '["example.com/keep"]' "the live object is untouched"

kubectl apply -f - >/dev/null <<'YAML'
apiVersion: v1
kind: ConfigMap
metadata: {name: typo, finalizers: [example.com/hold]}
YAML
kubectl delete cm typo --wait=false >/dev/null
run owners finalizers remove cm/typo --finalizer example.com/hodl
is "$rc" 1 "a finalizer the object does not have: exit 1"
is "$err" "error: configmaps 'typo' in namespace 'default' has no finalizer 'example.com/hodl' (it has: example.com/hold); nothing was changed" \
  "names the unknown finalizer and the ones it has"
run owners finalizers remove cm/typo --finalizer example.com/hold --finalizer example.com/hodl
is "$rc" 1 "one right, one wrong: exit 1"
is "$(finalizers_of cm typo)" '["example.com/hold"]' "and nothing is changed on it"

run owners finalizers remove cm/nope --all-finalizers
is "$rc" 1 "an object that does not exist: exit 1"
is "$err" "error: configmaps 'nope' in namespace 'default' not found" "not found, said once"
run owners finalizers remove cm/nope cm/typo configmap/typo --all-finalizers
is "$rc" 1 "several objects, one missing: exit 1"
is "$out" "configmap/typo: removed example.com/hold; gone" "the others are still freed, an object named twice once"

run owners finalizers remove cm/live --all-finalizers --force --dry-run=server
ok $rc "--force --dry-run on a live object exits 0"
like "$out" "would remove example.com/keep \\(dry run" "it says what it would do"
is "$(finalizers_of cm live)" '["example.com/keep"]' "and does nothing"

run owners --context viewer finalizers remove cm/live --all-finalizers --force
is "$rc" 4 "a patch the server forbids: exit 4 (incomplete)"
like "$err" "^error: cannot patch configmaps 'live' in namespace 'default': .*forbidden" "forbidden, said once"
run owners --context viewer finalizers -o json
ok $rc "the viewer can still list what is stuck"
like "$err" "warning: cannot list [0-9]+ types[^:]*: forbidden: (.*, )?secrets(,| |$|[[:space:]])" "with what it could not see, in the words every command uses"
printf '%s' "$out" | python3 -c '
import json, sys
w = json.load(sys.stdin)["warnings"]
assert any(x["reason"] == "Forbidden" and x["resource"] == "secrets" and x["message"].startswith("cannot list ")
           for x in w), w
'
ok $? "-o json: the forbidden types in warnings, each named with its reason"

usage() { # usage DESCRIPTION ARGS...: exit 2 with one error line
  local what=$1; shift
  run owners "$@"
  is "$rc" 2 "$what: exit 2"
  one_line; ok $? "$what: one line on stderr"
}
usage "remove without objects" finalizers remove --all-finalizers
usage "remove without --finalizer or --all-finalizers" finalizers remove cm/live
like "$err" "say which finalizers to remove: --finalizer NAME \\(repeatable\\) or --all-finalizers" "  says what is missing"
usage "--finalizer and --all-finalizers together" finalizers remove cm/live --all-finalizers --finalizer x
usage "remove -A" finalizers remove cm/live --all-finalizers -A
usage "remove -l" finalizers remove cm -l a=b --all-finalizers
usage "remove a bare TYPE" finalizers remove configmaps --all-finalizers
usage "remove an unknown TYPE" finalizers remove frobnicator/x --all-finalizers
usage "--all-finalizers without remove" finalizers --all-finalizers
usage "an unknown -o" finalizers -o xml
usage "-l without TYPE" finalizers -l a=b
run env OWNERS_TEST_PAUSE_BEFORE_PATCH=soon "$OWNERS" finalizers remove cm/live --all-finalizers
is "$rc" 2 "a bad test hook value: exit 2"

run owners finalizers remove cm/live --finalizer example.com/keep --force
ok $rc "--force frees a live object"
is "$out" "configmap/live: removed example.com/keep; still there, not being deleted" "and reports it still there, live"
run owners finalizers remove cm/live --all-finalizers --force
ok $rc "--all with no finalizers left: exit 0"
is "$out" "configmap/live: no finalizers to remove" "  nothing to do, and it says so"
run owners finalizers cm/live
is "$err" "configmaps 'live' in namespace 'default' is not being deleted" "a named object that is not stuck: said so"

# ---- a namespace freed through its finalize subresource ------------------------------------
# With a broken APIService the namespace controller can never finish.
start_cluster B --broken-apiservice --controllers
. "$B/env"
kubectl create namespace gone-ns >/dev/null
kubectl apply -n gone-ns -f - >/dev/null <<'YAML'
apiVersion: v1
kind: ConfigMap
metadata: {name: held, finalizers: [example.com/hold]}
YAML
kubectl delete namespace gone-ns --wait=false >/dev/null
wait_for "the namespace controller to report the discovery failure" 60 bash -c \
  "[[ \$(kubectl get ns gone-ns -o jsonpath='{.status.conditions[?(@.type==\"NamespaceDeletionDiscoveryFailure\")].status}') == True ]]"
ok $? "the namespace is stuck: discovery fails"
run owners finalizers namespace/gone-ns
ok $rc "finalizers namespace/gone-ns exits 0"
like "$out" "content: configmaps 1 \\(1 stuck\\)" "the content left"
like "$out" "NamespaceDeletionDiscoveryFailure: Discovery failed for some groups" "the discovery failure"
like "$err" "warning: discovery of 'metrics.k8s.io/v1beta1' failed" "the broken group is named"

run owners finalizers remove -n gone-ns cm/held --all-finalizers
is "$out" "configmap/held: removed example.com/hold; gone" "the content is freed"
run owners finalizers namespace/gone-ns -o json
is "$(printf '%s' "$out" | json_reason gone-ns kubernetes)" "namespace-controller" \
  "empty now, but the controller cannot finish"
run owners finalizers namespace/gone-ns
like "$out" "the namespace looks empty, but the namespace controller reports a failure" "the text says so"
like "$out" "if the controller cannot finish: owners finalizers remove namespace/gone-ns --finalizer kubernetes" \
  "with the command that finishes it"
sleep 3
kubectl get ns gone-ns >/dev/null 2>&1
ok $? "the controller does not finish it on its own"

run owners finalizers remove namespace/gone-ns --finalizer kubernetes -o json -v=6
ok $rc "remove namespace/gone-ns --finalizer kubernetes exits 0"
like "$err" "PUT [^ ]*/api/v1/namespaces/gone-ns/finalize 200 OK" "through PUT .../finalize"
python3 -c '
import json, sys
d = json.loads(sys.argv[1])
assert d["kind"] == "OwnersFinalizerRemoval" and d["metadata"]["dryRun"] is False
[i] = d["items"]
assert i["kind"] == "Namespace" and i["metadata"]["name"] == "gone-ns" and "namespace" not in i["metadata"]
i = i["owners"]
assert i["result"] == "gone" and i["removed"] == [{"name": "kubernetes", "field": "spec.finalizers"}], i
assert i["finalizersLeft"] == [] and i["writes"] == 1
' "$out"
ok $? "-o json: the spec finalizer removed, the namespace gone"
kubectl get ns gone-ns >/dev/null 2>&1
ok $((! $?)) "the namespace is gone"

# finalize under a concurrent change, and metadata and spec finalizers together
kubectl apply -f - >/dev/null <<'YAML'
apiVersion: v1
kind: Namespace
metadata: {name: two, finalizers: [example.com/meta]}
spec: {finalizers: [kubernetes, example.com/spec]}
YAML
kubectl delete namespace two --wait=false >/dev/null
wait_for "the namespace controller to empty namespace two" 60 bash -c \
  "[[ \$(kubectl get ns two -o jsonpath='{.status.conditions[?(@.type==\"NamespaceDeletionDiscoveryFailure\")].status}') == True ]]"
OWNERS_TEST_PAUSE_BEFORE_PATCH=4 "$OWNERS" finalizers remove namespace/two --finalizer kubernetes -v=6 \
  >"$B/two.out" 2>"$B/two.err" &
pid=$!
wait_for "remove to pause on namespace two" 30 grep -q "test hook: pausing" "$B/two.err"
while_paused $pid kubectl label ns two changed=yes >/dev/null
wait $pid; rc=$?
err=$(cat "$B/two.err"); san_check "finalizers remove namespace (paused)"
is "$rc" 0 "finalize after a concurrent change exits 0"
like "$(cat "$B/two.err")" "PUT [^ ]*/namespaces/two/finalize 409 Conflict" "the first finalize met the change (409)"
like "$(cat "$B/two.err")" "PUT [^ ]*/namespaces/two/finalize 200 OK" "the second went through"
is "$(kubectl get ns two -o jsonpath='{.spec.finalizers} {.metadata.labels.changed} {.metadata.finalizers}')" \
  '["example.com/spec"] yes ["example.com/meta"]' "the label and the other finalizers survived"
is "$(cat "$B/two.out")" "namespace/two: removed kubernetes (spec.finalizers, through finalize); still there, being deleted, waiting for example.com/meta, example.com/spec (spec.finalizers)" \
  "the end state names what it still waits for"
run owners finalizers remove namespace/two --all-finalizers
is "$out" "namespace/two: removed example.com/meta, example.com/spec (spec.finalizers, through finalize); gone" \
  "--all: metadata by patch, spec through finalize: gone"

done_testing
