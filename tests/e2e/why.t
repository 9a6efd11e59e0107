#!/usr/bin/env bash
# owners why TYPE/NAME (issue #28): every verdict class on a real control
# plane with the GC off and stalled (nothing acts: the verdict is read from
# the state built), then with the GC on, where each prediction is checked
# against the real garbage collector: the controller-manager (this suite's
# own, started by start_cluster) is paused with SIGSTOP while the objects
# are made and asked about, then resumed: what was said to be collected is
# gone within 60 s, what was said to be kept or never collected is still
# there, what was said to wait still waits.
#
# Classes: kept (a live owner; no owner), collected (absent owner; owner
# only in another namespace), never-collected (unserved kind; a
# cluster-scoped object with a namespaced owner), waiting (a foreign
# finalizer; pvc-protection with a pod using the claim; foregroundDeletion
# with a blocking dependent; orphan), blind (an owner in a group whose
# discovery fails; an owner this user may not list).
# GC_MODES="off stalled on" narrows a run.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/delete-lib.sh"
require kubectl:kubectl python3:python3

# jf JSON EXPR: a Python expression over the document d.
# jf DOCUMENT EXPR: EXPR over d, the facts of the document's one item (.items[0].owners)
jf() { python3 -c 'import json,sys; d=json.loads(sys.argv[1])["items"][0]["owners"]; print(eval(sys.argv[2]))' "$1" "$2" 2>/dev/null; }
# verdict ARGS...: owners why ARGS -o json, the document in $out.
why_json() { run owners why "$@" -o json; }
cms() { local ns=$1 n; shift; for n in "$@"; do kubectl -n "$ns" create configmap "$n" >/dev/null; done; }
# owned NS NAME REFS: a ConfigMap with these ownerReferences (flow YAML list).
owned() {
  mk "$1" <<YAML
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: $2, ownerReferences: $3}}
YAML
}
kcm_pid() { cat "$C/kube-controller-manager.pid"; }

build_objects() {
  N=why-$MODE N2=why2-$MODE
  kubectl create ns "$N" >/dev/null; kubectl create ns "$N2" >/dev/null
  cms "$N" parent
  kubectl -n "$N" create secret generic sec >/dev/null
  P=$(uid -n "$N" cm parent); S=$(uid -n "$N" secret sec)
  owned "$N" kept "[$(ref v1 ConfigMap parent "$P" "controller: true, blockOwnerDeletion: true")]"
  owned "$N" lost "[$(ref v1 ConfigMap ghost 00000000-0000-4000-8000-00000000dead)]"
  owned "$N" never "[$(ref example.com/v1 Nope x 00000000-0000-4000-8000-00000000beef)]"
  owned "$N2" cross "[$(ref v1 ConfigMap parent "$P")]"
  owned "$N" blind "[$(ref metrics.k8s.io/v1beta1 PodMetrics p 00000000-0000-4000-8000-0000000000b1)]"
  owned "$N" by-secret "[$(ref v1 Secret sec "$S")]"
  # references as the GC's mapper reads them: "/v1" and a lowercase kind
  # resolve, an uppercase kind does not
  owned "$N" slash "[$(ref /v1 ConfigMap parent "$P")]"
  owned "$N" lower "[$(ref v1 configmap parent "$P")]"
  owned "$N" upper "[$(ref v1 CONFIGMAP parent "$P")]"
  # an owner of a type the GC does not track (an events.k8s.io Event): looked up all the same
  mk "$N" <<YAML
---
{apiVersion: events.k8s.io/v1, kind: Event, metadata: {name: ev-owner}, eventTime: "2026-01-01T00:00:00.000000Z", reportingController: example.com/test, reportingInstance: i, action: Test, reason: Test, type: Normal, regarding: {kind: ConfigMap, name: x, namespace: $N}}
YAML
  owned "$N" by-event "[$(ref events.k8s.io/v1 Event ev-owner "$(kubectl -n "$N" get events.v1.events.k8s.io ev-owner -o jsonpath='{.metadata.uid}')")]"
  # what deleting an owner would do, checked with the GC on
  cms "$N" bg-owner or-owner
  owned "$N" bg-child "[$(ref v1 ConfigMap bg-owner "$(uid -n "$N" cm bg-owner)")]"
  owned "$N" or-child "[$(ref v1 ConfigMap or-owner "$(uid -n "$N" cm or-owner)")]"
  # a chain: one dependent, whose two dependents go with it (deploy/web: its ReplicaSet, its pods)
  cms "$N" chain-root
  owned "$N" chain-mid "[$(ref v1 ConfigMap chain-root "$(uid -n "$N" cm chain-root)")]"
  owned "$N" chain-leaf1 "[$(ref v1 ConfigMap chain-mid "$(uid -n "$N" cm chain-mid)")]"
  owned "$N" chain-leaf2 "[$(ref v1 ConfigMap chain-mid "$(uid -n "$N" cm chain-mid)")]"
  kubectl apply -f - >/dev/null <<YAML
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: why-cr-$MODE, ownerReferences: [$(ref v1 ConfigMap parent "$P")]}
YAML
  # waiting: a finalizer no known controller removes
  mk "$N" <<YAML
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: held, finalizers: [example.com/hold]}}
YAML
  kubectl -n "$N" delete cm held --wait=false >/dev/null
  # waiting: a claim a scheduled pod uses
  kubectl -n "$N" apply -f - >/dev/null <<'YAML'
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
  automountServiceAccountToken: false
  containers: [{name: c, image: busybox}]
  volumes: [{name: d, persistentVolumeClaim: {claimName: data}}]
YAML
  kubectl -n "$N" delete pvc data --wait=false >/dev/null
  # waiting: a namespace with content left (no namespace controller runs
  # with the GC off or stalled)
  if [[ $MODE != on ]]; then
    kubectl create ns "gone-$MODE" >/dev/null
    cms "gone-$MODE" left
    kubectl delete ns "gone-$MODE" --wait=false >/dev/null
  fi
  # waiting: foreground deletion held by a blocking dependent, and orphaning
  # (the apiserver adds the GC's finalizers unless the GC is off)
  if [[ $MODE != off ]]; then
    cms "$N" fg-root or-root
    owned "$N" fg-dep "[$(ref v1 ConfigMap fg-root "$(uid -n "$N" cm fg-root)" "blockOwnerDeletion: true")]"
    kubectl -n "$N" patch cm fg-dep --type=merge -p '{"metadata":{"finalizers":["example.com/hold"]}}' >/dev/null
    owned "$N" or-dep "[$(ref v1 ConfigMap or-root "$(uid -n "$N" cm or-root)")]"
    kubectl -n "$N" delete cm fg-root --cascade=foreground --wait=false >/dev/null
    kubectl -n "$N" delete cm or-root --cascade=orphan --wait=false >/dev/null
  fi
}

check_verdicts() {
  why_json -n "$N" cm/kept
  is "$rc/$(jf "$out" 'd["verdict"]')" 0/kept "$MODE: a live owner: kept (exit 0)"
  is "$(jf "$out" 'd["because"]["name"], d["because"]["state"], d["because"]["blocks"]')" "('parent', 'live', True)" \
    "$MODE: ... because its owner, live, which it blocks"
  is "$(jf "$out" '[(c["background"], c["foreground"], c["orphan"]) for c in d["ifDeleted"] if "owner" in c]')" \
    "[('collected', 'collected', 'released')]" "$MODE: ... deleting the owner: collected, collected, released (the planner's answer)"
  run owners why -n "$N" cm/kept
  like "$out" "^kept: ConfigMap/kept in namespace $N: its owner ConfigMap/parent is live and solid" "$MODE: text: the verdict on the first line"
  run owners why -n "$N" cm/kept -o jsonpath='{.items[0].owners.verdict}'
  is "$rc:$out" "0:kept" "$MODE: -o jsonpath over the document, as every command offers (issue #38)"
  run owners why -n "$N" cm/kept -o jsonpath='{.items[*].metadata.name} {.items[*].metadata.ownerReferences[*].name}'
  is "$rc:$out" "0:kept parent" "$MODE: -o jsonpath: the object's metadata as the server has it"
  run owners why -n "$N" cm/kept -o jsonpath='{.verdict}'
  is "$rc:$out" "0:" "$MODE: a template naming a field the document has not: nothing printed, exit 0 (kubectl's --allow-missing-template-keys=true)"
  run owners why -n "$N" cm/kept -o jsonpath='{.verdict}' --allow-missing-template-keys=false
  like "$rc:$err" "^1:error: error executing jsonpath '\{\.verdict\}': verdict is not found" \
    "$MODE: a template naming a field the document has not, --allow-missing-template-keys=false: exit 1, as kubectl"
  run owners why -n "$N" cm/kept -o custom-columns=
  is "$rc:$out" "2:" "$MODE: -o custom-columns= (empty): a usage error"
  run owners why -n "$N" cm/kept -o name
  is "$rc:$out" "0:configmap/kept" "$MODE: -o name: the object as kubectl delete takes it"
  run owners why -n "$N" cm/kept -o json
  python3 -c '
import json, sys
d = json.loads(sys.argv[1])
assert list(d) == ["apiVersion", "kind", "metadata", "items", "warnings"] and d["kind"] == "OwnersWhy", list(d)
[i] = d["items"]
assert list(i) == ["apiVersion", "kind", "metadata", "owners"] and i["apiVersion"] == "v1" and i["kind"] == "ConfigMap"
assert i["metadata"]["name"] == "kept" and i["metadata"]["ownerReferences"][0]["name"] == "parent"
' "$out"
  ok $? "$MODE: -o json: one item, the object, Kubernetes-shaped"

  why_json -n "$N" cm/parent
  is "$(jf "$out" 'd["verdict"], d["because"]')" "('kept', None)" "$MODE: no owners: kept"
  is "$(jf "$out" 'd["dependents"]["count"], [b["name"] for b in d["dependents"]["blocking"]]')" "(5, ['kept'])" \
    "$MODE: ... its dependents counted (kept, slash, lower, upper, the ClusterRole), the blocking one named"
  is "$(jf "$out" '[(c["background"]["collected"], c["background"]["kept"], c["orphan"]["released"]) for c in d["ifDeleted"] if c.get("self")]')" \
    "[(3, 2, 5)]" "$MODE: ... deleting it: kept, slash, lower collected; upper and the ClusterRole (never collected) kept; all released with orphan"

  run owners why -n "$N" cm/chain-root
  like "$out" $'\n  the object itself: 4 \\| 4 \\| 1 objects deleted in all\n  its 1 dependent: 1 collected \\| 1 collected \\| 1 released\n' \
    "$MODE: text: one dependent, but the delete removes 4 objects in all (the dependent's own too): said"

  why_json -n "$N" cm/lost
  is "$(jf "$out" 'd["verdict"], d["owners"][0]["state"]')" "('collected', 'absent')" "$MODE: an absent owner: collected"
  why_json -n "$N2" cm/cross
  is "$(jf "$out" 'd["verdict"], d["owners"][0]["state"]')" "('collected', 'invalid-namespace')" \
    "$MODE: an owner only in another namespace: collected, invalid-namespace"
  why_json -n "$N" cm/never
  is "$(jf "$out" 'd["verdict"], d["because"]["state"]')" "('never-collected', 'unresolvable')" "$MODE: an unserved kind: never collected"
  why_json clusterrole/why-cr-$MODE
  is "$(jf "$out" 'd["verdict"], d["because"]["state"]')" "('never-collected', 'invalid-namespace')" \
    "$MODE: a cluster-scoped object with a namespaced owner: never collected"
  why_json -n "$N" cm/blind
  is "$(jf "$out" 'd["verdict"], d["because"]["gcBlind"]')" "('blind', True)" "$MODE: an owner in a group whose discovery fails: blind, the GC too"
  like "$err" "metrics.k8s.io" "$MODE: ... the failed group is named in a warning"
  why_json -n "$N" cm/by-secret
  is "$(jf "$out" 'd["verdict"]')" kept "$MODE: an owner the admin can list: kept"
  why_json -n "$N" cm/by-secret --context viewer
  is "$rc/$(jf "$out" 'd["verdict"], d["because"]["state"], d["because"]["gcBlind"]')" "0/('blind', 'unknown', False)" \
    "$MODE: ... an owner this user may not list: blind (the GC sees it: not guessed)"

  why_json -n "$N" cm/slash
  is "$(jf "$out" 'd["verdict"]')" kept "$MODE: an owner referenced as \"/v1\": resolved, kept"
  why_json -n "$N" cm/lower
  is "$(jf "$out" 'd["verdict"]')" kept "$MODE: ... as a lowercase kind: resolved, kept"
  why_json -n "$N" cm/upper
  is "$(jf "$out" 'd["verdict"], d["because"]["state"]')" "('never-collected', 'unresolvable')" \
    "$MODE: ... as an uppercase kind: unresolvable, never collected"
  why_json -n "$N" cm/by-event
  is "$(jf "$out" 'd["verdict"], d["because"]["kind"]')" "('kept', 'Event')" \
    "$MODE: an owner of a type the GC does not track (events.k8s.io Event): looked up, kept"
  why_json -n "$N" cm/bg-child
  is "$(jf "$out" '[c["background"] for c in d["ifDeleted"] if "owner" in c]')" "['collected']" \
    "$MODE: deleting its owner in the background: collected"
  why_json -n "$N" cm/or-child
  is "$(jf "$out" '[c["orphan"] for c in d["ifDeleted"] if "owner" in c]')" "['released']" \
    "$MODE: deleting its owner with orphan: released"

  why_json -n "$N" cm/held
  is "$(jf "$out" 'd["verdict"], d["finalizers"][0]["remover"]')" "('waiting', None)" "$MODE: a foreign finalizer: waiting, no controller known"
  like "$(jf "$out" 'd["finalizers"][0]["remove"]')" "^owners finalizers remove ConfigMap/held -n $N --finalizer example.com/hold --uid=$(uid -n "$N" cm held)$" \
    "$MODE: ... with the command that removes it (that object's, by UID)"
  run owners why -n "$N" cm/held
  like "$out" "risk: " "$MODE: ... and its risk"
  why_json -n "$N" pvc/data
  is "$(jf "$out" 'd["verdict"], d["finalizers"][0]["name"], d["finalizers"][0]["reason"], [(p["name"], p["holds"]) for p in d["finalizers"][0]["pods"]]')" \
    "('waiting', 'kubernetes.io/pvc-protection', 'in-use', [('user', True)])" "$MODE: a claim a pod uses: waiting on pvc-protection, the pod named"
  if [[ $MODE != on ]]; then
    why_json namespace/gone-$MODE
    is "$(jf "$out" 'd["verdict"], d["finalizers"][0]["field"], d["finalizers"][0]["remover"], d["finalizers"][0]["content"]')" \
      "('waiting', 'spec.finalizers', 'the namespace controller', [{'resource': 'configmaps', 'group': '', 'count': 1}])" \
      "$MODE: a namespace in deletion: waiting on its kubernetes finalizer, the content left by type"
  fi
  if [[ $MODE != off ]]; then
    why_json -n "$N" cm/fg-root
    is "$(jf "$out" 'd["verdict"], d["finalizers"][0]["name"], [o["name"] for o in d["finalizers"][0]["objects"]]')" \
      "('waiting', 'foregroundDeletion', ['fg-dep'])" "$MODE: foreground deletion: waiting for the blocking dependent, named"
    run owners why -n "$N" cm/fg-root
    like "$out" "^waiting: ConfigMap/fg-root in namespace $N: in foreground deletion until 1 blocking dependent is gone" "$MODE: ... said first"
    like "$out" $'\nIf deleted now: no change, its foreground deletion is under way\n' "$MODE: ... no 'if deleted now' predictions: the deletion under way instead"
    unlike "$out" 'If deleted now \(--cascade' "$MODE: ... none of --cascade's"
  fi
  if [[ $MODE == stalled ]]; then
    run owners why -n "$N" cm/or-root
    like "$out" "^waiting: ConfigMap/or-root in namespace $N: orphaning until 1 dependent is released" "$MODE: orphaning: waiting for the dependent to be released"
  fi
}

check_requests() {
  local why_lists tree_lists
  run owners why -n "$N" cm/kept -v=6
  why_lists=$(grep -c '^GET .*limit=' <<<"$err")
  is "$(grep -c '/events?.*fieldSelector=involvedObject.uid%3D' <<<"$err")" 1 "$MODE: requests: one events list, by UID"
  is "$(grep -c '/leases/kube-controller-manager' <<<"$err")" 1 "$MODE: requests: the controller-manager's lease, once (is the GC running?)"
  # besides lists and discovery: the lease, and the APIService of the group
  # whose discovery failed (the server's reason for it): one each
  # (one per discovery: from the cache, then refreshed when a type is new)
  (( $(grep -c '/apiservices/v1beta1.metrics.k8s.io' <<<"$err") <= $(grep -cE '^GET https://[^/]+/apis ' <<<"$err") + 1 ))
  ok $? "$MODE: requests: the failed group's APIService, once per discovery"
  is "$(grep '^GET ' <<<"$err" | awk '{print $2}' | grep -v 'limit=' | grep -v '/leases/kube-controller-manager$' |
        grep -v '/apiservices/v1beta1.metrics.k8s.io$' |
        grep -cEv '^https://[^/]+/(api|apis|api/v1|apis/[^/]+/[^/]+)$')" 0 \
    "$MODE: ... no request per object (lists and discovery only)"
  # (#54: why names the object's users, so it reads whole the types that
  # may use it, as tree --up --related does: one list each, the lists read
  # whole coming back as JSON where the scan's are protobuf)
  local why_whole tree_whole
  why_whole=$(grep '^GET .*limit=.*(application/json)$' <<<"$err" | grep -v '/events?' | awk '{print $2}' | sort)
  run owners tree -n "$N" cm/kept --up --related -v=6
  tree_whole=$(grep '^GET .*limit=.*(application/json)$' <<<"$err" | awk '{print $2}' | sort)
  tree_lists=$(grep -c '^GET .*limit=' <<<"$err")
  (( $(wc -l <<<"$tree_whole") >= 10 )); ok $? "$MODE: ... tree --up --related reads whole the types that may use a ConfigMap ($(wc -l <<<"$tree_whole"))"
  is "$why_whole" "$tree_whole" "$MODE: ... why reads whole the same types, each once"
  # tree --up reads only the types on the way up: the roots', their
  # possible users', and the owner types these name, not every type
  (( tree_lists < why_lists )); ok $? "$MODE: ... tree --up --related lists fewer types than why's whole scan ($tree_lists < $why_lists)"
  run owners tree -n "$N" cm/kept --up -v=6
  (( $(grep -c '^GET .*limit=' <<<"$err") < tree_lists ))
  ok $? "$MODE: ... and tree --up without --related reads none of them whole"
  run owners why -n "$N" cm/nope
  is "$rc" 1 "$MODE: a missing object: exit 1"
  run owners why
  is "$rc" 2 "$MODE: no object: exit 2"
  run owners why -n "$N" cm
  is "$rc:$err" "2:error: you must specify a name for type 'cm'" \
    "$MODE: a type alone: a usage error that suggests no -l (why takes none)"
  asan_clean "$MODE: the runs"
}

# gc=on: the predictions against the real garbage collector.
check_gc() {
  kill -CONT "$(kcm_pid)"
  wait_for "lost and cross collected" 60 bash -c "! kubectl -n $N get cm lost 2>/dev/null && ! kubectl -n $N2 get cm cross 2>/dev/null"
  ok $? "gc=on: said collected (an absent owner, an owner in another namespace): gone within 60 s"
  ok "$(! gone "$N" cm kept && ! gone "$N" cm never && ! gone "$N" cm blind && ! gone "$N" cm slash &&
        ! gone "$N" cm lower && ! gone "$N" cm upper && ! gone "$N" cm by-event && ! gone "$N" cm by-secret &&
        kubectl get clusterrole "why-cr-$MODE" >/dev/null 2>&1; echo $?)" \
    "gc=on: said kept, never collected or blind: still there"
  kubectl -n "$N" delete cm bg-owner --wait=false >/dev/null
  kubectl -n "$N" delete cm or-owner --cascade=orphan --wait=false >/dev/null
  wait_for "bg-child collected" 60 gone "$N" cm bg-child
  ok $? "gc=on: said collected if its owner were deleted in the background: it is, within 60 s"
  wait_for "or-child released" 60 bash -c "! kubectl -n $N get cm or-owner >/dev/null 2>&1 && [[ -z \$(kubectl -n $N get cm or-child -o jsonpath='{.metadata.ownerReferences}') ]]"
  ok $? "gc=on: said released if its owner were deleted with orphan: it is, and stays"
  ok "$(! gone "$N" cm or-child; echo $?)" "gc=on: ... still there"
  ok "$(! gone "$N" cm fg-root && ! gone "$N" pvc data && ! gone "$N" cm held; echo $?)" "gc=on: said waiting: still there"
  why_json -n "$N" cm/fg-root
  is "$(jf "$out" 'd["verdict"]')" waiting "gc=on: ... and still waiting"
  wait_for "the GC's OwnerRefInvalidNamespace event" 60 bash -c \
    "'$OWNERS' why clusterrole/why-cr-$MODE | grep -q 'Warning OwnerRefInvalidNamespace'"
  ok $? "gc=on: the GC's OwnerRefInvalidNamespace event on the cluster-scoped object is shown"
}

for MODE in ${GC_MODES:-off stalled on}; do
  start_cluster C --gc="$MODE" --broken-apiservice
  echo "# --gc=$MODE"
  [[ $MODE == on ]] && kcm_stop "$C"
  build_objects
  check_verdicts
  check_requests
  [[ $MODE == on ]] && check_gc
  stop_cluster "$C"
done
done_testing
