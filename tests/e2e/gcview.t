#!/usr/bin/env bash
# The garbage collector's view of types and references (issue #24), on a real
# control plane in each GC mode. With --gc=off and --gc=stalled, owners does
# the work and each case asserts that the end state is the one the GC
# reaches; with --gc=on the same case is driven by kubectl and the cluster's
# own GC, to show that the rule asserted is the GC's and not owners'.
#
# Cases: a kind served only in a non-preferred version; apiVersion "/v1";
# a kind in lowercase and "<Kind>List"; a dependent in deletion; an owner
# in an unavailable aggregated API; a reference carrying the root's UID
# under another name; a type installed after the discovery cache was
# written and one removed since; owners' own foregroundDeletion in a
# background cascade; an object that blocks its own deletion; a cycle the
# GC unblocks; Events as roots and as owners.
# GC_MODES="off stalled on" and CASES="NAME..." narrow a run.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/delete-lib.sh"
require kubectl:kubectl python3:python3

G=gcview.example.com
T=6   # seconds an owners run waits where the GC waits forever

crds() {
  local plural kind version
  for spec in widgets:Widget:v1 gadgets:Gadget:v1beta1; do
    IFS=: read -r plural kind version <<<"$spec"
    kubectl apply -f - >/dev/null <<YAML
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: $plural.$G}
spec:
  group: $G
  scope: Namespaced
  names: {plural: $plural, singular: ${plural%s}, kind: $kind}
  versions:
  - name: $version
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
YAML
  done
  wait_for "gadgets served" 30 kubectl get gadgets -A
  wait_for "widgets served" 30 kubectl get widgets -A
  [[ $MODE == on ]] && gc_watches_gadgets
  return 0
}

# gc_watches_gadgets: the GC re-reads its resource list every 30 s; until
# it has, it does not know the new types' objects. A probe Gadget owned by
# a deleted ConfigMap goes once it does.
gc_watches_gadgets() {
  local u
  kubectl create ns gc-probe >/dev/null
  kubectl -n gc-probe create configmap probe >/dev/null
  u=$(uid -n gc-probe cm probe)
  mk gc-probe <<YAML
---
{apiVersion: $G/v1beta1, kind: Gadget, metadata: {name: probe, ownerReferences: [$(ref v1 ConfigMap probe "$u")]}}
YAML
  kubectl -n gc-probe delete configmap probe >/dev/null
  wait_for "the GC to watch the new types" 120 gone gc-probe gadget probe ||
    { echo "Bail out! the garbage collector never picked up the new CRDs"; exit 1; }
}

# cms NS NAME...: plain ConfigMaps.
cms() { local ns=$1 n; shift; for n in "$@"; do kubectl -n "$ns" create configmap "$n" >/dev/null; done; }
# refs NS KIND NAME REFS-YAML: sets an object's ownerReferences (a flow list).
refs() {
  kubectl -n "$1" patch "$2" "$3" --type=merge \
    -p "{\"metadata\":{\"ownerReferences\":$(python3 -c 'import json,sys,yaml; print(json.dumps(yaml.safe_load(sys.argv[1])))' "$4")}}" >/dev/null
}
n_refs() { meta "$1" "$2" "$3" '{.metadata.ownerReferences[*].uid}' | wc -w; }
# settle: with the GC on, give it the time it takes (it is quick here).
settle() { [[ $MODE == on ]] && sleep "${1:-4}"; return 0; }
# del NS ARGS...: deletes as the mode's actor does: owners with the GC off or
# stalled, kubectl with the GC on (no wait: the GC may wait forever).
del() {
  local ns=$1; shift
  if [[ $MODE == on ]]; then
    run kubectl -n "$ns" delete "$@" --wait=false
  else
    run owners -n "$ns" delete "$@" --timeout="${T}s"
  fi
}

# ---- 1: a kind served only in its group's non-preferred version ----------
case_nonpreferred() {
  local ns=np-$MODE r1 r2
  kubectl create ns "$ns" >/dev/null
  cms "$ns" own1 own2
  r1=$(uid -n "$ns" cm own1); r2=$(uid -n "$ns" cm own2)
  mk "$ns" <<YAML
---
{apiVersion: $G/v1beta1, kind: Gadget, metadata: {name: g1, ownerReferences: [$(ref v1 ConfigMap own1 "$r1")]}}
---
{apiVersion: $G/v1beta1, kind: Gadget, metadata: {name: g2, ownerReferences: [$(ref v1 ConfigMap own2 "$r2" "blockOwnerDeletion: true")]}}
---
{apiVersion: $G/v1beta1, kind: Gadget, metadata: {name: g3}}
YAML
  cms "$ns" under-g3
  refs "$ns" cm under-g3 "[$(ref $G/v1beta1 Gadget g3 "$(uid -n "$ns" gadget g3)")]"
  del "$ns" cm/own1 --cascade=orphan
  [[ $MODE == on ]] && wait_for "own1 gone" 30 gone "$ns" cm own1
  settle
  is "$(n_refs "$ns" gadget g1)" 0 "$MODE: orphan delete: the v1beta1-only Gadget is released (not left pointing at the deleted owner)"
  ok "$(gone "$ns" gadget g1 && echo 1 || echo 0)" "$MODE: ... and kept"
  del "$ns" cm/own2
  [[ $MODE == on ]] && wait_for "g2 collected" 30 gone "$ns" gadget g2
  ok "$(gone "$ns" gadget g2; echo $?)" "$MODE: background delete: the v1beta1-only Gadget is collected"
  if [[ $MODE != on ]]; then
    run owners -n "$ns" tree gadget/g3
    ok "$rc" "$MODE: owners tree gadget/g3 works"
    like "$out" "ConfigMap/under-g3" "$MODE: ... and shows its dependent"
    run owners -n "$ns" delete gadget/g3
    ok "$rc" "$MODE: owners delete gadget/g3 works"
    ok "$(gone "$ns" cm under-g3; echo $?)" "$MODE: ... and collects its dependent"
  fi
}

# ---- 2 and 7: references spelled the ways the GC's mapper accepts ----------
case_spellings() {
  local ns=sp-$MODE r
  kubectl create ns "$ns" >/dev/null
  cms "$ns" root slash lower listkind upper plural keeper
  r=$(uid -n "$ns" cm root)
  refs "$ns" cm slash "[$(ref /v1 ConfigMap root "$r")]"
  refs "$ns" cm lower "[$(ref v1 configmap root "$r")]"
  refs "$ns" cm listkind "[$(ref v1 ConfigMapList root "$r")]"
  refs "$ns" cm upper "[$(ref v1 CONFIGMAP root "$r")]"
  refs "$ns" cm plural "[$(ref v1 configmaps root "$r")]"
  if [[ $MODE != on ]]; then
    run owners -n "$ns" dangling -o json
    python3 - "$out" >/tmp/gcview.$$ <<'PY'
import json, sys
d = {f["metadata"]["name"]: f["owners"]["class"] for f in json.loads(sys.argv[1])["items"]}
print(" ".join("%s=%s" % kv for kv in sorted(d.items())))
PY
    is "$(cat /tmp/gcview.$$)" "listkind=absent plural=unresolvable upper=unresolvable" \
      "$MODE: dangling: \"/v1\" and a lowercase kind resolve; <Kind>List is absent (the mapper's guess 404s); uppercase and plural are unresolvable"
    rm -f /tmp/gcview.$$
    run owners -n "$ns" dangling --fix
    is "$(n_refs "$ns" cm slash)/$(n_refs "$ns" cm lower)" 1/1 "$MODE: dangling --fix leaves the references the GC honours"
    # --fix removed listkind's absent reference; give it back for the cascade.
    refs "$ns" cm listkind "[$(ref v1 ConfigMapList root "$r")]"
  fi
  del "$ns" cm/root
  if [[ $MODE == on ]]; then
    wait_for "the GC collects slash, lower and listkind" 30 \
      bash -c "! kubectl -n $ns get cm slash lower listkind 2>/dev/null | grep -q ."
  fi
  ok "$(gone "$ns" cm slash && gone "$ns" cm lower && gone "$ns" cm listkind; echo $?)" \
    "$MODE: deleting the owner collects the \"/v1\", lowercase and <Kind>List dependents"
  settle
  ok "$(! gone "$ns" cm upper && ! gone "$ns" cm plural; echo $?)" \
    "$MODE: ... and keeps the unresolvable ones (the GC never acts on them)"
}

# ---- 3: a dependent already in deletion ----------------------------------
case_in_deletion() {
  local ns=indel-$MODE r l
  kubectl create ns "$ns" >/dev/null
  cms "$ns" root live dying
  r=$(uid -n "$ns" cm root); l=$(uid -n "$ns" cm live)
  refs "$ns" cm dying "[$(ref v1 ConfigMap root "$r" "blockOwnerDeletion: true"), $(ref v1 ConfigMap live "$l")]"
  kubectl -n "$ns" patch cm dying --type=merge -p '{"metadata":{"finalizers":["example.com/hold"]}}' >/dev/null
  kubectl -n "$ns" delete cm dying --wait=false >/dev/null
  del "$ns" cm/root --cascade=foreground
  [[ $MODE != on ]] && is "$rc" 3 "$MODE: foreground: owners waits for the dependent in deletion and times out (exit 3)"
  settle
  is "$(n_refs "$ns" cm dying)" 2 "$MODE: the dependent in deletion is not patched"
  ok "$(! gone "$ns" cm root; echo $?)" "$MODE: the root stays while the dependent in deletion blocks it"
  unhold "$ns" cm dying
  wait_for "dying gone" 20 gone "$ns" cm dying
  if [[ $MODE == on ]]; then
    wait_for "the root goes" 30 gone "$ns" cm root
  else
    run owners -n "$ns" delete cm/root --cascade=foreground --timeout=30s
  fi
  ok "$(gone "$ns" cm root; echo $?)" "$MODE: once it is gone, the root goes"
}

# ---- 4: an owner in an unavailable aggregated API --------------------------
case_blind() {
  local ns=blind-$MODE mode r
  kubectl create ns "$ns" >/dev/null
  for mode in foreground background; do
    cms "$ns" "root-$mode" "dep-$mode"
    r=$(uid -n "$ns" cm "root-$mode")
    refs "$ns" cm "dep-$mode" "[$(ref v1 ConfigMap "root-$mode" "$r" "blockOwnerDeletion: true"), $(ref metrics.k8s.io/v1beta1 PodMetrics p 5a8e2a4c-0000-4000-8000-000000000001)]"
    del "$ns" "cm/root-$mode" --cascade=$mode
    if [[ $MODE != on && $mode == foreground ]]; then
      is "$rc" 3 "$MODE: foreground: the root waits for a dependent whose other owner cannot be looked up"
      like "$err" "metrics.k8s.io" "$MODE: ... and the blind group is named"
    fi
    settle
    is "$(n_refs "$ns" cm "dep-$mode")" 2 "$MODE: $mode: the dependent is neither released nor deleted"
  done
  ok "$(! gone "$ns" cm root-foreground; echo $?)" "$MODE: foreground: the root waits"
  [[ $MODE == on ]] && wait_for "root-background gone" 20 gone "$ns" cm root-background
  ok "$(gone "$ns" cm root-background; echo $?)" "$MODE: background: the root itself goes"
}

# ---- 5: the root's UID under another name ---------------------------------
case_misnamed() {
  local ns=misn-$MODE r
  kubectl create ns "$ns" >/dev/null
  cms "$ns" root dep
  r=$(uid -n "$ns" cm root)
  refs "$ns" cm dep "[$(ref v1 ConfigMap not-root "$r" "blockOwnerDeletion: true")]"
  del "$ns" cm/root --cascade=foreground
  [[ $MODE != on ]] && is "$rc" 0 "$MODE: foreground: the cascade finishes (exit 0)"
  [[ $MODE == on ]] && wait_for "both gone" 30 bash -c "! kubectl -n $ns get cm root dep 2>/dev/null | grep -q ."
  ok "$(gone "$ns" cm dep && gone "$ns" cm root; echo $?)" \
    "$MODE: a blocking dependent whose reference names another object is collected, then the root goes"
}

# ---- 6: types installed or removed after discovery was cached --------------
case_fresh_discovery() {
  local ns=fresh-$MODE r made
  [[ $MODE == on ]] && return 0   # about owners' own cache
  kubectl create ns "$ns" >/dev/null
  cms "$ns" root
  run owners -n "$ns" tree cm/root   # writes the discovery cache
  kubectl apply -f - >/dev/null <<YAML
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: latecomers-$MODE.$G}
spec:
  group: $G
  scope: Namespaced
  names: {plural: latecomers-$MODE, singular: latecomer-$MODE, kind: Latecomer$MODE}
  versions:
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}
YAML
  wait_for "latecomers served" 30 kubectl get "latecomers-$MODE" -A
  r=$(uid -n "$ns" cm root)
  mk "$ns" <<YAML
---
{apiVersion: $G/v1, kind: Latecomer$MODE, metadata: {name: late, ownerReferences: [$(ref v1 ConfigMap root "$r" "blockOwnerDeletion: true")]}}
YAML
  made=$(kubectl -n "$ns" get "latecomers-$MODE" late -o name)
  is "$made" "latecomer$MODE.$G/late" "$MODE: an object of a type installed after the cache was written"
  # cm resolves from the cache, the new type refreshes it: both arguments
  # point into the refreshed discovery (under ASan a stale one fails here)
  run owners -n "$ns" tree cm/root "latecomers-$MODE/late"
  is "$rc" 0 "$MODE: tree TYPE/NAME of a cached type, then of a type the cache does not know"
  like "$out" "ConfigMap/root" "$MODE: ... shows the first"
  like "$out" "Latecomer$MODE/late" "$MODE: ... and the second"
  run owners -n "$ns" delete cm/root --cascade=foreground --timeout=30s
  is "$rc" 0 "$MODE: ... the cascade finishes"
  ok "$(gone "$ns" "latecomers-$MODE" late; echo $?)" "$MODE: ... and its object (created: $made) is collected, not left dangling"
  # The cache now knows the type (naming it refreshed the cache on a miss,
  # whatever the command), then the type goes.
  run owners -n "$ns" tree "latecomers-$MODE"
  kubectl delete crd "latecomers-$MODE.$G" >/dev/null
  wait_for "latecomers gone" 30 bash -c "! kubectl get --raw /apis/$G/v1 | grep -q latecomers-$MODE"
  cms "$ns" after
  run owners -n "$ns" tree cm/after
  ok "$rc" "$MODE: a type removed since the cache was written: tree works"
  unlike "$err" "not found" "$MODE: ... without 'cannot list ... not found'"
}

# ---- 8: owners' own devices -----------------------------------------------
case_devices() {
  local ns=dev-$MODE r m s a b
  kubectl create ns "$ns" >/dev/null
  # background: a middle object held by a dependent the GC never touches
  cms "$ns" root mid leaf
  r=$(uid -n "$ns" cm root); m=$(uid -n "$ns" cm mid)
  refs "$ns" cm mid "[$(ref v1 ConfigMap root "$r" "blockOwnerDeletion: true")]"
  refs "$ns" cm leaf "[$(ref v1 ConfigMap mid "$m" "blockOwnerDeletion: true")]"
  kubectl apply -f - >/dev/null <<YAML
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: gcview-$MODE, ownerReferences: [$(ref v1 ConfigMap mid "$m" "blockOwnerDeletion: true")]}
YAML
  del "$ns" cm/root
  [[ $MODE != on ]] && is "$rc" 0 "$MODE: background: the cascade finishes (exit 0)"
  [[ $MODE == on ]] && wait_for "mid and leaf collected" 30 bash -c "! kubectl -n $ns get cm mid leaf 2>/dev/null | grep -q ."
  ok "$(gone "$ns" cm mid && gone "$ns" cm leaf; echo $?)" \
    "$MODE: background: a middle object blocked by a cluster-scoped object with a namespaced owner is collected"
  ok "$(kubectl get clusterrole "gcview-$MODE" >/dev/null 2>&1; echo $?)" "$MODE: ... and that object is left alone"
  kubectl delete clusterrole "gcview-$MODE" >/dev/null

  # an object that lists itself as a blocking owner
  cms "$ns" self
  s=$(uid -n "$ns" cm self)
  refs "$ns" cm self "[$(ref v1 ConfigMap self "$s" "blockOwnerDeletion: true")]"
  del "$ns" cm/self --cascade=foreground
  if [[ $MODE != on ]]; then
    is "$rc" 3 "$MODE: an object that blocks its own deletion: owners waits as the GC does (exit 3)"
    like "$err" "itself" "$MODE: ... and says it waits for itself"
  fi
  settle
  is "$(meta "$ns" cm self '{.metadata.finalizers[*]}')" foregroundDeletion "$MODE: ... it keeps foregroundDeletion"
  if [[ $MODE != on ]]; then
    run owners -n "$ns" delete cm/self --cascade=foreground --force --timeout=30s
    ok "$(gone "$ns" cm self; echo $?)" "$MODE: --force breaks the wait"
  else
    kubectl -n "$ns" patch cm self --type=merge -p '{"metadata":{"finalizers":null}}' >/dev/null
  fi

  # a cycle the GC breaks by unblocking one side
  cms "$ns" a b
  a=$(uid -n "$ns" cm a); b=$(uid -n "$ns" cm b)
  refs "$ns" cm a "[$(ref v1 ConfigMap b "$b" "blockOwnerDeletion: true")]"
  refs "$ns" cm b "[$(ref v1 ConfigMap a "$a" "blockOwnerDeletion: true")]"
  del "$ns" cm/a --cascade=foreground
  [[ $MODE != on ]] && is "$rc" 0 "$MODE: a two-object cycle, foreground: the cascade finishes"
  [[ $MODE == on ]] && wait_for "a and b gone" 30 bash -c "! kubectl -n $ns get cm a b 2>/dev/null | grep -q ."
  ok "$(gone "$ns" cm a && gone "$ns" cm b; echo $?)" "$MODE: ... both objects are gone (the GC's unblock rule)"
}

# ---- Events ----------------------------------------------------------------
case_events() {
  local ns=ev-$MODE e
  [[ $MODE == on ]] && return 0
  kubectl create ns "$ns" >/dev/null
  mk "$ns" <<YAML
---
{apiVersion: v1, kind: Event, metadata: {name: core-ev}, involvedObject: {kind: ConfigMap, name: x, namespace: $ns}, reason: Test, message: m, type: Normal}
---
{apiVersion: events.k8s.io/v1, kind: Event, metadata: {name: new-ev}, eventTime: "2026-01-01T00:00:00.000000Z", reportingController: example.com/test, reportingInstance: i, action: Test, reason: Test, type: Normal, regarding: {kind: ConfigMap, name: x, namespace: $ns}}
YAML
  e=$(kubectl -n "$ns" get events.v1.events.k8s.io new-ev -o jsonpath='{.metadata.uid}')
  cms "$ns" owned-by-event
  refs "$ns" cm owned-by-event "[$(ref events.k8s.io/v1 Event new-ev "$e")]"
  run owners -n "$ns" dangling cm/owned-by-event -o json
  is "$(python3 -c 'import json,sys; print(len(json.loads(sys.argv[1])["items"]))' "$out")" 0 \
    "$MODE: an events.k8s.io Event owner is looked up (resolved), not called unknown"
  run owners -n "$ns" tree cm/owned-by-event --up
  like "$out" "Event/new-ev" "$MODE: tree --up shows the Event as the owner"
  run owners -n "$ns" delete event/core-ev
  ok "$rc" "$MODE: owners delete event/NAME works"
  ok "$(gone "$ns" event core-ev; echo $?)" "$MODE: ... and the Event is gone"
}

all_cases="nonpreferred spellings in_deletion blind misnamed fresh_discovery devices events"
for MODE in ${GC_MODES:-off stalled on}; do
  start_cluster C --gc="$MODE" --broken-apiservice
  echo "# --gc=$MODE"
  crds
  for c in ${CASES:-$all_cases}; do "case_$c"; done
  stop_cluster "$C"
done
done_testing
