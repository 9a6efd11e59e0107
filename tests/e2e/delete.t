#!/usr/bin/env bash
# owners delete against a real control plane, in the three garbage-collector
# modes (--gc=off, --gc=stalled, --gc=on), with the workload controllers
# running. One cluster per mode (one at a time), one namespace per scenario.
# The kill -9 / resume tests are in delete-kill.t. DELETE_SCENARIOS="NAME..."
# runs only those scenario functions (and GC_MODES="off stalled on" only
# those modes) while one is being worked on.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/delete-lib.sh"

# owners_bg LOG ARGS...: owners in the background, stdout+stderr in LOG.out
# and LOG.err, its pid in $bgpid.
owners_bg() {
  local log=$1; shift
  "$OWNERS" "$@" >"$log.out" 2>"$log.err" &
  bgpid=$!
}

# owners_wait LOG: waits for the background owners, like `run` for it.
owners_wait() {
  wait "$bgpid"; rc=$?
  out=$(cat "$1.out"); err=$(cat "$1.err")
  san_check "owners in the background ($1)"
}

crd() { # crd: the Widget CRD (example.com/v1, namespaced)
  kubectl apply -f - >/dev/null <<'YAML'
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
YAML
  wait_for "widgets served" 30 kubectl get widgets -A
}

# ---- 1, 2, 9, 12: a Deployment with replicas, in each cascade mode ----------
# The namespace: Deployment web (2 replicas, real controllers), a bystander
# ConfigMap `other`, a live ConfigMap `keeper`, and two objects with several
# owners: `multi` (keeper as controller + web) and `multi-pod` (one of the
# pods + keeper): the cascade must only remove their references into it.
deployment_ns() { # deployment_ns NS
  local ns=$1 kp wu pod pu
  kubectl create ns "$ns" >/dev/null
  kubectl -n "$ns" create deployment web --image=nginx --replicas=2 >/dev/null
  kubectl -n "$ns" create configmap other >/dev/null
  kubectl -n "$ns" create configmap keeper >/dev/null
  wait_for "2 pods of web in $ns" 60 bash -c "[[ \$(kubectl -n $ns get pods -l app=web -o name | wc -l) == 2 ]]"
  kp=$(uid -n "$ns" cm keeper); wu=$(uid -n "$ns" deployment web)
  pod=$(kubectl -n "$ns" get pods -l app=web -o jsonpath='{.items[0].metadata.name}')
  pu=$(uid -n "$ns" pod "$pod")
  mk "$ns" <<YAML
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: multi
  ownerReferences: [$(ref v1 ConfigMap keeper "$kp" "controller: true, blockOwnerDeletion: true"), $(ref apps/v1 Deployment web "$wu" "blockOwnerDeletion: true")]
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: multi-pod
  ownerReferences: [$(ref v1 Pod "$pod" "$pu" "blockOwnerDeletion: false"), $(ref v1 ConfigMap keeper "$kp" "controller: false")]
YAML
}

# inv_lines FILE KIND-REGEX PREFIX: "PREFIX KEY" for every key of an inventory
# matching the regex.
inv_lines() {
  python3 -c '
import json, re, sys
for k in sorted(json.load(open(sys.argv[1]))):
    if re.match(sys.argv[2], k): print(sys.argv[3], k)' "$@"
}

deployment_cascades() { # deployment_cascades GC
  local gc=$1 X ns want plan rs pods
  for X in background foreground orphan; do
    ns=dep-$X
    deployment_ns "$ns"
    inventory "$ns" "$C/$ns.before"
    rs=$(kubectl -n "$ns" get rs -o jsonpath='{.items[0].metadata.name}')
    pods=$(kubectl -n "$ns" get pods -o jsonpath='{.items[*].metadata.name}')

    # 9: the plans change nothing and list every object.
    run owners -n "$ns" delete deployment/web --cascade=$X --dry-run=client
    ok $rc "[$gc/$X] --dry-run=client exits 0"
    asan_clean "[$gc/$X] --dry-run=client"
    plan=$(printf '%s\n' "$out" | sed 1d | awk '{print $1, $2}' | sort)
    if [[ $X == orphan ]]; then
      want=$(printf '%s\n' "$ns/deployment.apps/web delete" "$ns/configmap/multi release" "$ns/replicaset.apps/$rs release" | sort)
    else
      want=$( { printf '%s\n' "$ns/deployment.apps/web delete" "$ns/replicaset.apps/$rs delete" \
        "$ns/configmap/multi release" "$ns/configmap/multi-pod release"
        for p in $pods; do echo "$ns/pod/$p delete"; done; } | sort)
    fi
    same_text "$plan" "$want" "[$gc/$X] the client plan lists every object deleted or released"
    run owners -n "$ns" delete deployment/web --cascade=$X --dry-run=server
    ok $rc "[$gc/$X] --dry-run=server exits 0"
    like "$out" "deployment.apps \"web\" deleted \\(server dry run\\)" "[$gc/$X] --dry-run=server says what it sent"
    # the dependents, each checked by the server, are said like the root
    got=$( { grep -o '^[a-z.]*/[^ ]* [a-z]*' <<<"$(sed -E 's/^([a-z.]+) "([^"]+)" (deleted|released) .*/\1\/\2 \3/' <<<"$out")" |
             sed -E "s#^#$ns/#; s/ deleted$/ delete/; s/ released$/ release/"; } | sort)
    same_text "$got" "$want" "[$gc/$X] --dry-run=server checks every object of the plan with the server"
    like "$err" "server dry run: the root and $(( $(wc -l <<<"$want") - 1 )) dependents checked, 0 refused; nothing was changed" \
      "[$gc/$X] --dry-run=server says which dependents it checked"
    asan_clean "[$gc/$X] --dry-run=server"
    if [[ $X == foreground ]]; then
      run owners -n "$ns" delete deployment/web --cascade=$X --dry-run=server -o name
      is "$(head -1 <<<"$out")" "deployment.apps/web" "[$gc/$X] --dry-run=server -o name prints the names, the root first"
    fi

    # 12: the viewer may list but not delete: exit 4, nothing changed.
    if [[ $X == background ]]; then
      run timeout 60 "$OWNERS" --context viewer -n "$ns" delete deployment/web --cascade=$X
      is "$rc" 4 "[$gc] viewer (forbidden to delete): exit 4, incomplete, at once"
      like "$err" "cannot delete deployment.apps/web: .*forbidden" "[$gc] viewer: the forbidden delete is named"
      like "$err" "no delete permission on deployments.apps in namespace '$ns' \\(asked before any change\\)" \
        "[$gc] viewer: the missing permission is named, found before any change"
      like "$err" "nothing was deleted or changed" "[$gc] viewer: says nothing was done"
      asan_clean "[$gc] viewer"
    fi
    inventory "$ns" "$C/$ns.dry"
    same_text "$(inv_diff "$C/$ns.before" "$C/$ns.dry")" "" "[$gc/$X] dry runs (and the viewer) changed nothing"

    # 1, 2: the real thing.
    if [[ $X == background ]]; then
      run owners -n "$ns" delete deployment/web --cascade=$X -o name
      same_text "$(printf '%s\n' "$out" | sort)" "$( (echo deployment.apps/web; echo "replicaset.apps/$rs"
        for p in $pods; do echo "pod/$p"; done) | sort)" "[$gc] -o name prints deployment.apps/web and every deleted object as TYPE/NAME"
    else
      run owners -n "$ns" delete deployment/web --cascade=$X
    fi
    ok $rc "[$gc/$X] delete deployment/web exits 0"
    if [[ $X == foreground ]]; then
      # whoever removed them (the real GC, with gc=on, takes them all
      # between two looks), they are said in the order the cascade goes
      order=$(grep -oE '^(pod|replicaset\.apps|deployment\.apps) ' <<<"$out" | uniq | tr -d ' ' | tr '\n' ' ')
      is "$order" "pod replicaset.apps deployment.apps " \
        "[$gc/foreground] reported dependents first: the pods, the ReplicaSet, then the Deployment"
    fi
    asan_clean "[$gc/$X] delete"
    inventory "$ns" "$C/$ns.after"
    if [[ $X == orphan ]]; then
      want=$(printf '%s\n' "gone Deployment.apps $ns/web" "released ReplicaSet.apps $ns/$rs" "released ConfigMap $ns/multi" | sort)
    else
      want=$( { inv_lines "$C/$ns.before" '^(Deployment|ReplicaSet|Pod)' gone
                printf '%s\n' "released ConfigMap $ns/multi" "released ConfigMap $ns/multi-pod"; } | sort)
    fi
    same_text "$(inv_diff "$C/$ns.before" "$C/$ns.after")" "$want" \
      "[$gc/$X] exactly the cascade changed; several-owner objects keep their other references byte for byte; no GC finalizer left"
    is "$(inv_get "$C/$ns.after" "ConfigMap $ns/multi" ownerReferences)" \
      "[{\"apiVersion\": \"v1\", \"blockOwnerDeletion\": true, \"controller\": true, \"kind\": \"ConfigMap\", \"name\": \"keeper\", \"uid\": \"$(uid -n "$ns" cm keeper)\"}]" \
      "[$gc/$X] multi keeps exactly its reference to keeper (controller, blockOwnerDeletion)"
    if [[ $X == orphan ]]; then
      is "$(inv_get "$C/$ns.after" "ReplicaSet.apps $ns/$rs" ownerReferences)" "[]" "[$gc/orphan] the ReplicaSet has no reference left"
      is "$(kubectl -n "$ns" get pods -o jsonpath='{range .items[*]}{.metadata.ownerReferences[*].name}{" "}{end}')" "$rs $rs " \
        "[$gc/orphan] both pods are kept, still owned by the ReplicaSet"
    fi
  done
}

# ---- 3, 10: blockOwnerDeletion, timeouts -------------------------------------
block_owner_deletion() { # block_owner_deletion GC
  local gc=$1 ns=blk u
  kubectl create ns $ns >/dev/null
  kubectl -n $ns create cm nb-root >/dev/null; kubectl -n $ns create cm b-root >/dev/null
  kubectl -n $ns create cm hold-root >/dev/null
  mk $ns <<YAML
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: nb-dep, finalizers: [example.com/hold], ownerReferences: [$(ref v1 ConfigMap nb-root "$(uid -n $ns cm nb-root)" "blockOwnerDeletion: false")]}}
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: b-dep, finalizers: [example.com/hold], ownerReferences: [$(ref v1 ConfigMap b-root "$(uid -n $ns cm b-root)" "blockOwnerDeletion: true")]}}
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: held, finalizers: [example.com/hold]}}
YAML

  run owners -n $ns delete cm/nb-root --cascade=foreground --timeout=2s
  is "$rc" 3 "[$gc] foreground, non-blocking dependent held by a finalizer: exit 3 (it is still there)"
  gone $ns cm nb-root; ok $? "[$gc] ... but the owner is gone: a non-blocking dependent does not hold it"
  is "$(meta $ns cm nb-dep '{.metadata.finalizers} {.metadata.deletionTimestamp}' | cut -c1-22)" '["example.com/hold"] 2' \
    "[$gc] ... and the dependent is in deletion, held by its finalizer"
  like "$err" "nb-dep: .*finalizers: example.com/hold" "[$gc] ... stderr names the dependent and its finalizer"
  asan_clean "[$gc] non-blocking"

  run owners -n $ns delete cm/b-root --cascade=foreground --timeout=2s
  is "$rc" 3 "[$gc] foreground, blocking dependent held by a finalizer: exit 3 (timed out)"
  like "$err" "timed out" "[$gc] ... says it timed out"
  like "$err" "$ns/configmap/b-root: waiting for dependents that block its deletion" "[$gc] ... names the owner and what it waits on"
  like "$err" "$ns/configmap/b-dep: .*finalizers: example.com/hold" "[$gc] ... and the blocking dependent with its finalizer"
  is "$(meta $ns cm b-root '{.metadata.finalizers}')" '["foregroundDeletion"]' "[$gc] ... the owner stays, in foreground deletion"
  asan_clean "[$gc] blocking"
  unhold $ns cm b-dep
  run owners -n $ns delete cm/b-root --cascade=foreground --ignore-not-found --timeout=60s
  ok $rc "[$gc] once the finalizer is gone, the same command finishes (exit 0)"
  gone $ns cm b-root && gone $ns cm b-dep; ok $? "[$gc] ... owner and dependent gone"
  asan_clean "[$gc] blocking, resumed"

  # 10: a timeout in background mode names the object and its finalizer.
  mk $ns <<YAML
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: hold-dep, ownerReferences: [$(ref v1 ConfigMap hold-root "$(uid -n $ns cm hold-root)")], finalizers: [example.com/hold]}}
YAML
  run owners -n $ns delete cm/hold-root --timeout=2s
  is "$rc" 3 "[$gc] background, dependent held by a finalizer: exit 3"
  like "$err" "$ns/configmap/hold-dep: .*finalizers: example.com/hold" "[$gc] ... stderr names the object and its finalizer"
  asan_clean "[$gc] background timeout"
  unhold $ns cm hold-dep; unhold $ns cm nb-dep; unhold $ns cm held
}

# ---- 4: a dependency cycle ------------------------------------------------------
cycles() { # cycles GC
  local gc=$1 ns=cyc X a
  kubectl create ns $ns >/dev/null
  for X in foreground background; do
    kubectl -n $ns create cm $X-a >/dev/null
    mk $ns <<YAML
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: $X-b, ownerReferences: [$(ref v1 ConfigMap $X-a "$(uid -n $ns cm $X-a)" "blockOwnerDeletion: true")]}}
YAML
    kubectl -n $ns patch cm $X-a --type=merge -p "{\"metadata\":{\"ownerReferences\":[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"name\":\"$X-b\",\"uid\":\"$(uid -n $ns cm $X-b)\",\"blockOwnerDeletion\":true}]}}" >/dev/null
    run owners -n $ns delete cm/$X-a --cascade=$X --timeout=60s
    ok $rc "[$gc] $X: A owns B, B owns A (blockOwnerDeletion): the cascade does not hang"
    gone $ns cm $X-a && gone $ns cm $X-b; ok $? "[$gc] $X: both of the cycle are gone"
    asan_clean "[$gc] $X cycle"
  done
}

# ---- 5: custom resources owning core objects and the reverse --------------------
custom_resources() { # custom_resources GC
  local gc=$1 ns=crd
  kubectl create ns $ns >/dev/null
  mk $ns <<'YAML'
---
{apiVersion: example.com/v1, kind: Widget, metadata: {name: w1}}
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: cm-owner}}
YAML
  mk $ns <<YAML
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: cm-w, ownerReferences: [$(ref example.com/v1 Widget w1 "$(uid -n $ns widget w1)")]}}
---
{apiVersion: example.com/v1, kind: Widget, metadata: {name: w2, ownerReferences: [$(ref v1 ConfigMap cm-owner "$(uid -n $ns cm cm-owner)" "blockOwnerDeletion: true")]}}
YAML
  mk $ns <<YAML
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: cm-w2, ownerReferences: [$(ref example.com/v1 Widget w2 "$(uid -n $ns widget w2)" "blockOwnerDeletion: true")]}}
YAML
  run owners -n $ns delete widget/w1
  ok $rc "[$gc] delete widget/w1 (a custom resource owning a ConfigMap) exits 0"
  gone $ns widget w1 && gone $ns cm cm-w; ok $? "[$gc] the widget and its ConfigMap are gone"
  asan_clean "[$gc] custom resource root"
  run owners -n $ns delete cm/cm-owner --cascade=foreground --timeout=60s
  ok $rc "[$gc] delete cm/cm-owner (a ConfigMap owning a widget owning a ConfigMap), foreground, exits 0"
  gone $ns cm cm-owner && gone $ns widget w2 && gone $ns cm cm-w2; ok $? "[$gc] ConfigMap > Widget > ConfigMap all gone"
  asan_clean "[$gc] core root owning a custom resource"
}

# ---- 6: a cluster-scoped owner with dependents in two namespaces -----------------
cluster_scoped() { # cluster_scoped GC
  local gc=$1 ns cr
  kubectl create clusterrole owner-role --verb=get --resource=pods >/dev/null
  cr=$(uid clusterrole owner-role)
  for ns in cs1 cs2; do
    kubectl create ns $ns >/dev/null
    kubectl -n $ns create cm other >/dev/null
    mk $ns <<YAML
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: cr-dep, ownerReferences: [$(ref rbac.authorization.k8s.io/v1 ClusterRole owner-role "$cr" "blockOwnerDeletion: true")]}}
YAML
  done
  inventory cs1 "$C/cs1.before"
  run owners delete clusterrole/owner-role --cascade=foreground --timeout=60s
  ok $rc "[$gc] delete clusterrole/owner-role exits 0"
  like "$out" "configmap \"cr-dep\" deleted in namespace cs1" "[$gc] reports the dependent in cs1"
  like "$out" "configmap \"cr-dep\" deleted in namespace cs2" "[$gc] reports the dependent in cs2"
  asan_clean "[$gc] cluster-scoped root"
  inventory cs1 "$C/cs1.after"
  same_text "$(inv_diff "$C/cs1.before" "$C/cs1.after")" "$(printf '%s\n' "gone ClusterRole.rbac.authorization.k8s.io /owner-role" "gone ConfigMap cs1/cr-dep")" \
    "[$gc] the ClusterRole and its dependent go, nothing else (cs1 and cluster-scoped objects)"
  gone cs2 cm cr-dep && ! gone cs2 cm other; ok $? "[$gc] cs2: the dependent is gone, the bystander kept"
}

# ---- 7: objects re-created during the cascade are never touched -----------------
recreated() { # recreated GC
  local gc=$1 ns=re old new
  kubectl create ns $ns >/dev/null
  kubectl -n $ns create cm re-root >/dev/null
  mk $ns <<YAML
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: re-dep, finalizers: [example.com/hold], ownerReferences: [$(ref v1 ConfigMap re-root "$(uid -n $ns cm re-root)" "blockOwnerDeletion: true")]}}
YAML
  old=$(uid -n $ns cm re-dep)
  owners_bg "$C/re" -n $ns delete cm/re-root --cascade=foreground --timeout=60s
  wait_for "re-dep in deletion" 30 bash -c "[[ -n \$(kubectl -n $ns get cm re-dep -o jsonpath='{.metadata.deletionTimestamp}') ]]"
  ok $? "[$gc] the foreground cascade deletes the dependent and waits on its finalizer"
  unhold $ns cm re-dep
  wait_for "re-dep gone" 10 gone $ns cm re-dep
  kubectl -n $ns create cm re-dep >/dev/null
  new=$(uid -n $ns cm re-dep)
  owners_wait "$C/re"
  ok $rc "[$gc] the cascade finishes once the dependent is gone"
  gone $ns cm re-root; ok $? "[$gc] the root is gone"
  is "$(meta $ns cm re-dep '{.metadata.uid} {.metadata.deletionTimestamp}')" "$new " \
    "[$gc] the dependent re-created under the same name (new UID, no owner) is untouched"
  [[ $new != "$old" ]]; ok $? "[$gc] (it is another object: new UID)"
  asan_clean "[$gc] re-created dependent"

  # The UID precondition, made deterministic: --qps 40 --burst 1 spreads the
  # first scan over ~1.5 s with configmaps listed first, and the run is
  # stopped (SIGSTOP) as soon as that list is read; the root is deleted and
  # re-created meanwhile, then the run continues with its stale UID.
  kubectl -n $ns create cm uc-root >/dev/null
  old=$(uid -n $ns cm uc-root)
  owners_bg "$C/uc" -n $ns delete cm/uc-root -v=6 --qps 40 --burst 1 --timeout=60s
  wait_log "$C/uc.err" "^GET .*/namespaces/$ns/configmaps\\?" 30
  kill -STOP $bgpid
  ! grep -q '^DELETE' "$C/uc.err"; ok $? "[$gc] (stopped between the scan of configmaps and the delete)"
  kubectl -n $ns delete cm uc-root >/dev/null
  kubectl -n $ns create cm uc-root >/dev/null
  new=$(uid -n $ns cm uc-root)
  kill -CONT $bgpid
  owners_wait "$C/uc"
  ok $rc "[$gc] a root re-created between scan and delete: the run ends (exit 0: what was named is gone)"
  like "$err" "DELETE .*/configmaps/uc-root 409" "[$gc] ... its DELETE carried the old UID as a precondition (409)"
  is "$(meta $ns cm uc-root '{.metadata.uid} {.metadata.deletionTimestamp}')" "$new " "[$gc] ... and the re-created root is untouched"
  asan_clean "[$gc] re-created root"

  # The same for a dependent, deleted in the first round: its owner is already
  # in foreground deletion (held by foregroundDeletion, as an interrupted run
  # leaves it). Not with --gc=on: the real GC would delete it first.
  [[ $gc == on ]] && return
  printf -- '---\n{apiVersion: v1, kind: ConfigMap, metadata: {name: ud-root, finalizers: [foregroundDeletion]}}\n' | mk $ns
  mk $ns <<YAML
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: ud-dep, ownerReferences: [$(ref v1 ConfigMap ud-root "$(uid -n $ns cm ud-root)" "blockOwnerDeletion: true")]}}
YAML
  kubectl -n $ns delete cm ud-root --wait=false >/dev/null
  owners_bg "$C/ud" -n $ns delete cm/ud-root --cascade=foreground -v=6 --qps 40 --burst 1 --timeout=60s
  wait_log "$C/ud.err" "^GET .*/namespaces/$ns/configmaps\\?" 30
  kill -STOP $bgpid
  ! grep -q '^DELETE' "$C/ud.err"; ok $? "[$gc] (stopped between the scan of configmaps and the delete)"
  kubectl -n $ns delete cm ud-dep >/dev/null
  kubectl -n $ns create cm ud-dep >/dev/null
  new=$(uid -n $ns cm ud-dep)
  kill -CONT $bgpid
  owners_wait "$C/ud"
  ok $rc "[$gc] a dependent re-created between scan and delete: the cascade ends (exit 0)"
  like "$err" "DELETE .*/configmaps/ud-dep 409" "[$gc] ... its DELETE carried the old UID (409)"
  is "$(meta $ns cm ud-dep '{.metadata.uid} {.metadata.deletionTimestamp}')" "$new " "[$gc] ... the re-created dependent is untouched"
  gone $ns cm ud-root; ok $? "[$gc] ... and the root is gone"
  asan_clean "[$gc] re-created dependent (precondition)"
}


# ---- the GC's own rules at their edges (issue 14) ------------------------------
# An object is never deleted or patched where the real GC would not act, and
# never earlier than the GC would.

# A reference by an apiVersion the server no longer serves, carrying the live
# root's UID: the GC gives up on that object (classifyReferences errors), so
# it is neither deleted nor patched. The same for a cluster-scoped object's
# reference to a namespaced owner. In orphan mode the GC's orphanDependents
# releases both, by UID, and the cascade finishes.
unserved_refs() { # unserved_refs GC
  local gc=$1 ns=unsrv X u rv_old rv_cr
  kubectl create ns $ns >/dev/null
  for X in background foreground orphan; do
    kubectl -n $ns create deployment "web-$X" --image=nginx --replicas=0 >/dev/null
    u=$(uid -n $ns deployment "web-$X")
    mk $ns <<YAML
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: old-$X, ownerReferences: [$(ref apps/v1beta1 Deployment "web-$X" "$u" "blockOwnerDeletion: false")]}}
YAML
    kubectl create -f - >/dev/null <<YAML
---
{apiVersion: rbac.authorization.k8s.io/v1, kind: ClusterRole, metadata: {name: unsrv-$gc-$X, ownerReferences: [$(ref apps/v1 Deployment "web-$X" "$u")]}}
YAML
    like "$(kubectl get clusterrole "unsrv-$gc-$X" -o jsonpath='{.metadata.ownerReferences[*].uid}')" "^$u\$" \
      "[$gc/$X] (a ClusterRole refers to the namespaced root)"
    rv_old=$(meta $ns cm "old-$X" '{.metadata.resourceVersion}')
    rv_cr=$(kubectl get clusterrole "unsrv-$gc-$X" -o jsonpath='{.metadata.resourceVersion}')
    run owners -n $ns delete "deployment/web-$X" --cascade=$X --timeout=60s
    ok $rc "[$gc/$X] a root referred to by an unserved apiVersion and by a cluster-scoped object: exit 0"
    gone $ns deployment "web-$X"; ok $? "[$gc/$X] ... the root is gone"
    ! gone $ns cm "old-$X"; ok $? "[$gc/$X] ... the object with the unserved reference is kept"
    asan_clean "[$gc/$X] unserved references"
    if [[ $X == orphan ]]; then
      is "$(meta $ns cm "old-$X" '{.metadata.ownerReferences}')" "" "[$gc/orphan] ... and released by UID, as the GC's orphanDependents"
      is "$(kubectl get clusterrole "unsrv-$gc-$X" -o jsonpath='{.metadata.ownerReferences}')" "" \
        "[$gc/orphan] ... the cluster-scoped dependent is released too (the cascade finishes)"
    else
      is "$(meta $ns cm "old-$X" '{.metadata.resourceVersion}')" "$rv_old" "[$gc/$X] ... and not patched (same resourceVersion)"
      is "$(kubectl get clusterrole "unsrv-$gc-$X" -o jsonpath='{.metadata.resourceVersion}')" "$rv_cr" \
        "[$gc/$X] ... the cluster-scoped object with a namespaced owner is neither deleted nor patched"
    fi
    kubectl delete clusterrole "unsrv-$gc-$X" >/dev/null
  done
}

# A DELETE refused by admission (a ValidatingAdmissionPolicy) leaves every
# reference and finalizer as it was: shared, owned by a and b, keeps both
# references; a gets no finalizer (with the apiserver's GC off, the one put on
# before the DELETE is taken off again).
admission_denied() { # admission_denied GC
  local gc=$1 ns=adm X before
  kubectl create ns $ns >/dev/null
  kubectl apply -f - >/dev/null <<YAML
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: keep-a}
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [DELETE], resources: [configmaps], resourceNames: [a]}
  validations:
  - {expression: "false", message: "configmap a is protected"}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: keep-a}
spec: {policyName: keep-a, validationActions: [Deny]}
YAML
  kubectl -n $ns create cm a >/dev/null; kubectl -n $ns create cm b >/dev/null
  mk $ns <<YAML
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: shared, ownerReferences: [$(ref v1 ConfigMap a "$(uid -n $ns cm a)" "blockOwnerDeletion: true"), $(ref v1 ConfigMap b "$(uid -n $ns cm b)")]}}
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: only-a, ownerReferences: [$(ref v1 ConfigMap a "$(uid -n $ns cm a)")]}}
YAML
  wait_for "the policy denies" 30 bash -c "! kubectl -n $ns delete cm a --dry-run=server >/dev/null 2>&1"
  before=$(kubectl -n $ns get cm -o jsonpath='{range .items[*]}{.metadata.name} {.metadata.ownerReferences[*].name} {.metadata.finalizers}{"\n"}{end}')
  for X in background foreground orphan; do
    run owners -n $ns delete cm/a --cascade=$X --timeout=30s
    [[ $rc != 0 ]]; ok $? "[$gc/$X] a DELETE refused by admission: non-zero exit"
    like "$err" "configmap a is protected" "[$gc/$X] ... the policy's message is shown"
    is "$(kubectl -n $ns get cm -o jsonpath='{range .items[*]}{.metadata.name} {.metadata.ownerReferences[*].name} {.metadata.finalizers}{"\n"}{end}')" \
      "$before" "[$gc/$X] ... every reference and finalizer as before: shared still owned by a and b, a without a GC finalizer"
    asan_clean "[$gc/$X] admission denial"
  done
  kubectl delete validatingadmissionpolicybinding keep-a >/dev/null
  kubectl delete validatingadmissionpolicy keep-a >/dev/null
}

# root <- mid (created with the orphan finalizer) <- leaf: the GC deletes mid
# with policy Orphan (it honours the finalizer), so leaf stays, released; in
# a foreground cascade mid has dependents and an owner waiting for them, and
# the GC deletes it with Foreground: leaf goes.
progress() { # progress GC: what a person at a terminal sees, and --wait=false's word
  local gc=$1 ns=progress c screen
  [[ $gc == stalled ]] || return 0
  kubectl create ns $ns >/dev/null
  kubectl -n $ns create cm root >/dev/null
  for c in a b; do
    mk $ns <<YAML
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: child-$c, finalizers: [example.com/hold], ownerReferences: [$(ref v1 ConfigMap root "$(uid -n $ns cm root)" "blockOwnerDeletion: true")]}}
YAML
  done
  # A pseudo-terminal 200 columns wide (script(1)): the progress line is
  # drawn. (The line is waited for as it comes; the timeout only has to
  # outlast its first drawing on a loaded machine, then ends the run.)
  local pty=$C/progress.pty
  script -qc "stty cols 200; '$OWNERS' -n $ns delete cm/root --cascade=foreground --timeout 8s" /dev/null >"$pty" &
  local spid=$!
  wait_for "the progress line" 30 grep -qE "foreground cascade [0-9]+s: 0 deleted, 3 left; waiting on ConfigMap/child-a \\(finalizers: example.com/hold\\) and 2 more" "$pty"
  ok $? "[$gc] on a terminal the progress line names what it waits on, its finalizer, and the time spent"
  wait $spid
  screen=$(tr '\r' '\n' <"$pty")
  like "$screen" "error: timed out after 8s waiting for the cascade" "[$gc]   then the timeout, on a line of its own"
  like "$screen" "example.com/hold is removed by its own controller; if that is gone: owners finalizers remove configmap/child-a -n $ns --finalizer example.com/hold" \
    "[$gc]   a wait on a finalizer nothing in the cascade removes names the command that removes it"
  script -qc "stty cols 60; '$OWNERS' -n $ns delete cm/root --cascade=foreground --timeout 6s" /dev/null >"$pty" &
  spid=$!
  wait_for "the progress line" 30 grep -q 'cascade [0-9]*s:' "$pty"
  wait $spid
  local lines
  lines=$(tr '\r' '\n' <"$pty" | grep 'cascade [0-9]*s:')
  # (at least one line drawn: no line at all is no proof of the cut)
  [[ -n $lines && -z $(awk 'length($0) > 64' <<<"$lines") ]]
  ok $? "[$gc]   cut to a 60-column terminal, never wrapped ($(grep -c . <<<"$lines") progress lines drawn, the widest $(awk '{ if (length($0) > w) w = length($0) } END { print w + 0 }' <<<"$lines"))"
  # root is in foreground deletion now, its dependents held by a finalizer:
  # the client plan says what really happens, whatever mode is asked
  run owners -n $ns delete cm/root --dry-run=client
  like "$out" "$ns/configmap/root  root, in foreground deletion already: goes last, after its blocking dependents" \
    "[$gc] a root already in foreground deletion: the plan says it goes last, even for a background request"
  like "$out" "  $ns/configmap/child-a  in deletion already: goes when these finalizers are removed: example.com/hold" \
    "[$gc]   and a dependent in deletion waits for its finalizer"
  kubectl -n $ns delete cm root --wait=false >/dev/null 2>&1
  kubectl -n $ns create cm root2 >/dev/null
  mk $ns <<YAML
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: child-c, finalizers: [example.com/hold], ownerReferences: [$(ref v1 ConfigMap root2 "$(uid -n $ns cm root2)" "blockOwnerDeletion: true")]}}
YAML
  run owners -n $ns delete cm/root2 --cascade=foreground --wait=false
  is "$rc" 0 "[$gc] --wait=false: exit 0 once the round is sent"
  like "$err" "^not waiting \\(--wait=false\\): 1 change sent; 1 other object of the cascade is still there \\('owners -n $ns delete cm/root2 --cascade=foreground --wait=false --resume=[0-9a-f-]+' goes on, or 'owners tree' to see where it stands\\)$" \
    "[$gc] --wait=false says what it left"
  for c in a b c; do kubectl -n $ns patch cm child-$c --type=merge -p '{"metadata":{"finalizers":null}}' >/dev/null 2>&1; done
}

# ---- issue #38: interrupted work says what it did and what finishes it -----------
# root <- mid <- leaf (example.com/hold): in the background, root goes, mid
# waits in foreground deletion for leaf, which its finalizer holds. Ctrl-C
# then says what went, what is left, where the root stands and the command
# that finishes it; tree and why on the gone root say objects still name it;
# that command, run again once leaf's finalizer is off, finishes the job.
# SIGTERM on a foreground cascade: exit 143, the root waiting for its dependent.
interrupted() { # interrupted GC
  local gc=$1 ns=intr
  [[ $gc == off ]] || return 0   # with a GC the GC would finish what is left
  kubectl create ns $ns >/dev/null
  kubectl -n $ns create cm root >/dev/null
  mk $ns <<YAML
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: mid, ownerReferences: [$(ref v1 ConfigMap root "$(uid -n $ns cm root)" "blockOwnerDeletion: true")]}}
YAML
  mk $ns <<YAML
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: leaf, finalizers: [example.com/hold], ownerReferences: [$(ref v1 ConfigMap mid "$(uid -n $ns cm mid)" "blockOwnerDeletion: true")]}}
YAML
  owners_bg "$C/intr" -n $ns delete cm/root --timeout=120s
  wait_for "root gone and leaf in deletion" 60 bash -c "! kubectl -n $ns get cm root && [[ -n \$(kubectl -n $ns get cm leaf -o jsonpath='{.metadata.deletionTimestamp}') ]]"
  sleep 1
  kill -INT $bgpid
  owners_wait "$C/intr"
  is "$rc" 130 "[$gc] Ctrl-C during delete: exit 130"
  like "$err" "interrupted: 1 object deleted and 0 released so far; 2 objects of the cascade are left:" \
    "[$gc]   says what was done and how much is left"
  like "$err" "  $ns/configmap/leaf: .*\\(finalizers: example.com/hold\\)" "[$gc]   names what is left and what it waits on"
  like "$err" "example.com/hold is removed by its own controller; if that is gone: owners finalizers remove configmap/leaf -n $ns --finalizer example.com/hold" \
    "[$gc]   a foreign finalizer comes with the command that removes it"
  like "$err" "configmap/root is gone; 1 object still names it as owner" "[$gc]   where the root stands"
  like "$err" $'run this to finish it:\n  owners -n intr delete cm/root --timeout=120s --resume=[0-9a-f-]+' \
    "[$gc]   and the exact command that finishes it (the same, with the roots' UIDs: #43)"
  asan_clean "[$gc] interrupted"
  run owners -n $ns tree cm/root
  is "$rc" 1 "[$gc] tree on the gone root: exit 1"
  like "$err" "configmaps 'root' not found in namespace '$ns'; 1 object still names it as owner .*'owners delete configmaps/root -n $ns --resume=[0-9a-f-]+' finishes it" \
    "[$gc]   not only 'not found': objects still name it, and what finishes it"
  run owners -n $ns why cm/root
  like "$err" "1 object still names it as owner" "[$gc]   why says so too"
  unhold $ns cm leaf
  run owners -n $ns delete configmaps/root --timeout=60s
  is "$rc" 0 "[$gc]   that command finishes it (exit 0)"
  gone $ns cm mid && gone $ns cm leaf; ok $? "[$gc]   mid and leaf are gone"

  kubectl -n $ns create cm froot >/dev/null
  mk $ns <<YAML
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: fchild, finalizers: [example.com/hold], ownerReferences: [$(ref v1 ConfigMap froot "$(uid -n $ns cm froot)" "blockOwnerDeletion: true")]}}
YAML
  owners_bg "$C/term" -n $ns delete cm/froot --cascade=foreground --timeout=120s
  wait_for "fchild in deletion" 60 bash -c "[[ -n \$(kubectl -n $ns get cm fchild -o jsonpath='{.metadata.deletionTimestamp}') ]]"
  sleep 1
  kill -TERM $bgpid
  owners_wait "$C/term"
  is "$rc" 143 "[$gc] SIGTERM during delete: exit 143"
  like "$err" "configmap/froot is in foreground deletion, waiting for 1 dependent" "[$gc]   the root waits in foreground deletion, said"
  unhold $ns cm fchild
  run owners -n $ns delete cm/froot --cascade=foreground --timeout=60s
  is "$rc" 0 "[$gc]   run again, it finishes"
  gone $ns cm froot; ok $? "[$gc]   the root is gone"

  # the plan says who will wait on what: a claim used by a (scheduled) pod
  # of the cascade waits on pvc-protection until that pod is gone
  kubectl -n $ns create cm vroot >/dev/null
  mk $ns <<YAML
---
{apiVersion: v1, kind: PersistentVolumeClaim, metadata: {name: data, ownerReferences: [$(ref v1 ConfigMap vroot "$(uid -n $ns cm vroot)")]}, spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}}
---
{apiVersion: v1, kind: Pod, metadata: {name: user, ownerReferences: [$(ref v1 ConfigMap vroot "$(uid -n $ns cm vroot)")]}, spec: {nodeName: node-x, containers: [{name: c, image: nginx}], volumes: [{name: d, persistentVolumeClaim: {claimName: data}}]}}
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: vheld, finalizers: [example.com/hold], ownerReferences: [$(ref v1 ConfigMap vroot "$(uid -n $ns cm vroot)")]}}
YAML
  run owners -n $ns delete cm/vroot --dry-run=client
  ok $rc "[$gc] a plan with waits: exit 0"
  like "$out" "  $ns/persistentvolumeclaim/data  delete \\(every owner is deleted\\); then waits on kubernetes.io/pvc-protection until $ns/pod/user is gone \\(in this cascade\\)" \
    "[$gc]   the claim waits on pvc-protection until the pod using it is gone"
  like "$out" "  $ns/configmap/vheld  delete \\(every owner is deleted\\); then waits on example.com/hold" \
    "[$gc]   an object holding a finalizer will wait on it"
  asan_clean "[$gc] plan waits"
  unhold $ns cm vheld
}

member_finalizers() { # member_finalizers GC
  local gc=$1 ns=memfin X
  kubectl create ns $ns >/dev/null
  for X in background foreground; do
    kubectl -n $ns create cm "root-$X" >/dev/null
    mk $ns <<YAML
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: mid-$X, finalizers: [orphan], ownerReferences: [$(ref v1 ConfigMap "root-$X" "$(uid -n $ns cm "root-$X")" "blockOwnerDeletion: true")]}}
YAML
    mk $ns <<YAML
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: leaf-$X, ownerReferences: [$(ref v1 ConfigMap "mid-$X" "$(uid -n $ns cm "mid-$X")" "blockOwnerDeletion: true")]}}
YAML
    run owners -n $ns delete "cm/root-$X" --cascade=$X --timeout=60s
    ok $rc "[$gc/$X] root <- mid (orphan finalizer) <- leaf: exit 0"
    gone $ns cm "root-$X" && gone $ns cm "mid-$X"; ok $? "[$gc/$X] ... root and mid are gone"
    if [[ $X == background ]]; then
      ! gone $ns cm "leaf-$X"; ok $? "[$gc/$X] ... leaf is kept: mid was deleted with policy Orphan, as the GC does"
      is "$(meta $ns cm "leaf-$X" '{.metadata.ownerReferences}')" "" "[$gc/$X] ... and released (no reference to mid left)"
      like "$out" "configmap \"leaf-$X\" orphaned" "[$gc/$X] ... and says so"
    else
      gone $ns cm "leaf-$X"; ok $? "[$gc/$X] ... leaf is gone: the GC deletes mid with Foreground here"
    fi
    asan_clean "[$gc/$X] a member's own finalizer"
  done
}

# --grace-period and --force shape the named objects only; the DELETE
# preconditions carry the resourceVersion read.
delete_bodies() { # delete_bodies GC
  local gc=$1 ns=bodies
  kubectl create ns $ns >/dev/null
  kubectl -n $ns create cm g-root >/dev/null
  mk $ns <<YAML
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: g-dep, ownerReferences: [$(ref v1 ConfigMap g-root "$(uid -n $ns cm g-root)")]}}
YAML
  run owners -n $ns delete cm/g-root --grace-period=7 -v=8 --timeout=60s
  ok $rc "[$gc] --grace-period=7: exit 0"
  like "$err" "\"gracePeriodSeconds\":7,\"preconditions\":\\{\"uid\":\"[^\"]+\",\"resourceVersion\":\"[0-9]+\"\\}" \
    "[$gc] ... the root's DELETE carries the grace period and UID + resourceVersion preconditions"
  is "$(grep -c '"gracePeriodSeconds"' <<<"$err")" 1 "[$gc] ... and only the root's: the dependent gets its own default"
  gone $ns cm g-dep; ok $? "[$gc] ... the dependent is gone all the same"
}

# A dependent that changed between the scan and its DELETE (the race of
# kubernetes#114603): read again; with the same ownerReferences it is deleted
# (only, say, a label changed), with a new live owner it is kept.
changed_before_delete() { # changed_before_delete GC
  local gc=$1 ns=race X
  [[ $gc == on ]] && return   # the real GC would delete them first
  kubectl create ns $ns >/dev/null
  kubectl -n $ns create cm keeper >/dev/null
  for X in label owner; do
    printf -- '---\n{apiVersion: v1, kind: ConfigMap, metadata: {name: %s-root, finalizers: [foregroundDeletion]}}\n' "$X" | mk $ns
    mk $ns <<YAML
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: $X-dep, ownerReferences: [$(ref v1 ConfigMap "$X-root" "$(uid -n $ns cm "$X-root")" "blockOwnerDeletion: true")]}}
YAML
    kubectl -n $ns delete cm "$X-root" --wait=false >/dev/null
    owners_bg "$C/race-$X" -n $ns delete "cm/$X-root" --cascade=foreground -v=6 --qps 40 --burst 1 --timeout=60s
    wait_log "$C/race-$X.err" "^GET .*/namespaces/$ns/configmaps\\?" 30
    kill -STOP $bgpid
    if [[ $X == label ]]; then
      kubectl -n $ns label cm "$X-dep" touched=yes >/dev/null
    else
      kubectl -n $ns patch cm "$X-dep" --type=json -p "[{\"op\":\"add\",\"path\":\"/metadata/ownerReferences/-\",\"value\":{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"name\":\"keeper\",\"uid\":\"$(uid -n $ns cm keeper)\"}}]" >/dev/null
    fi
    kill -CONT $bgpid
    owners_wait "$C/race-$X"
    ok $rc "[$gc/$X] a dependent changed between scan and DELETE: the cascade ends (exit 0)"
    like "$err" "DELETE .*/configmaps/$X-dep 409" "[$gc/$X] ... its DELETE carried the resourceVersion read (409)"
    like "$err" "GET .*/configmaps/$X-dep 200" "[$gc/$X] ... and it was read again"
    if [[ $X == label ]]; then
      gone $ns cm "$X-dep"; ok $? "[$gc/label] ... only a label changed: deleted all the same"
    else
      is "$(meta $ns cm "$X-dep" '{.metadata.ownerReferences[*].name} {.metadata.deletionTimestamp}')" "keeper " \
        "[$gc/owner] ... it gained a live owner: kept, only its reference to the root removed"
    fi
    gone $ns cm "$X-root"; ok $? "[$gc/$X] ... and the root is gone"
    asan_clean "[$gc/$X] changed before delete"
  done
}

# ---- 12: error paths ----------------------------------------------------------------
error_paths() {
  kubectl create ns err >/dev/null
  kubectl -n err create cm keep >/dev/null
  run owners -n err delete frobnicator/x
  is "$rc" 2 "unknown type: exit 2"
  like "$err" "doesn't have a resource type 'frobnicator'" "unknown type: says so"
  run owners -n err delete deployment/nope
  is "$rc" 1 "not found: exit 1"
  like "$err" "^error: deployments.apps 'nope' not found in namespace 'err'$" "not found: says what and where"
  run owners -n err delete deployment/nope --ignore-not-found
  is "$rc" 0 "--ignore-not-found: exit 0"
  is "$out$err" "" "--ignore-not-found: silent"
  run owners -n err delete cm/keep --cascade=sideways
  is "$rc" 2 "bad --cascade value: exit 2"
  like "$err" "sideways" "bad --cascade value: named"
  run owners -n err delete cm/keep --dry-run=maybe
  is "$rc" 2 "bad --dry-run value: exit 2"
  run owners -n err delete
  is "$rc" 2 "no arguments: exit 2"
  run owners -n err delete configmaps
  is "$rc" 2 "a type alone without -l or --all: exit 2 (nothing deleted by accident)"
  run owners -n err delete --all
  is "$rc" 2 "--all without a type: exit 2"
  like "$err" "--all needs a type" "--all without a type: says so"
  run owners -n err delete cm/keep --all
  is "$rc" 2 "--all with a name: exit 2"
  run owners -n err delete configmaps --all -l app=x
  is "$rc" 2 "--all with -l: exit 2"
  ! gone err cm keep; ok $? "nothing was deleted by the failed commands"
  asan_clean "error paths"

  # --all: every object of the type in the namespace is a root.
  kubectl create ns all-of >/dev/null
  kubectl -n all-of create cm a >/dev/null; kubectl -n all-of create cm b >/dev/null
  kubectl -n all-of create secret generic s >/dev/null
  mk all-of <<YAML
---
{apiVersion: v1, kind: Secret, metadata: {name: owned-by-a, ownerReferences: [$(ref v1 ConfigMap a "$(uid -n all-of cm a)")]}}
YAML
  run owners -n all-of delete configmaps --all
  ok $rc "delete configmaps --all: exit 0"
  like "$out" 'configmap "a" deleted' "--all: a is deleted"
  like "$out" 'configmap "b" deleted' "--all: b is deleted"
  gone all-of secret owned-by-a && ! gone all-of secret s && ! gone err cm keep
  ok $? "--all: a's dependent goes too; the other Secret and other namespaces are kept"
  run owners -n all-of delete statefulsets --all
  is "$rc:$err" "0:No resources found" "--all with nothing of the type: exit 0, as kubectl"
  asan_clean "--all"
}

# ---- 11: parity with the real GC ------------------------------------------------------
# The same graph in a namespace: Deployment web (2 replicas), ConfigMap web-cm
# owned by it, Pod two owned by web and by the live ConfigMap keeper.
parity_ns() { # parity_ns NS
  local ns=$1
  kubectl create ns "$ns" >/dev/null
  kubectl -n "$ns" create deployment web --image=nginx --replicas=2 >/dev/null
  kubectl -n "$ns" create configmap keeper >/dev/null
  wait_for "2 pods of web in $ns" 60 bash -c "[[ \$(kubectl -n $ns get pods -l app=web -o name | wc -l) == 2 ]]"
  mk "$ns" <<YAML
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: web-cm, ownerReferences: [$(ref apps/v1 Deployment web "$(uid -n "$ns" deployment web)" "blockOwnerDeletion: true")]}}
---
apiVersion: v1
kind: Pod
metadata:
  name: two
  ownerReferences: [$(ref apps/v1 Deployment web "$(uid -n "$ns" deployment web)" "blockOwnerDeletion: true"), $(ref v1 ConfigMap keeper "$(uid -n "$ns" cm keeper)" "controller: true")]
spec: {containers: [{name: c, image: nginx}]}
YAML
}

# wanted NAME: DELETE_SCENARIOS="NAME..." is unset or names it.
wanted() { [[ -z ${DELETE_SCENARIOS:-} || " $DELETE_SCENARIOS " == *" $1 "* ]]; }

timed() { # timed FUNCTION ARGS...: runs it, says how long it took
  local t0=$SECONDS
  wanted "$1" || return 0
  "$@"
  echo "# $* took $((SECONDS - t0))s"
}

suite() { # suite GC
  local gc=$1 X
  start_cluster C --gc="$gc" --controllers
  . "$C/env"
  crd
  timed deployment_cascades "$gc"
  timed block_owner_deletion "$gc"
  timed cycles "$gc"
  timed custom_resources "$gc"
  timed cluster_scoped "$gc"
  timed recreated "$gc"
  timed unserved_refs "$gc"
  timed admission_denied "$gc"
  timed member_finalizers "$gc"
  timed interrupted "$gc"
  timed progress "$gc"
  timed delete_bodies "$gc"
  timed changed_before_delete "$gc"
  if [[ $gc == off ]] && wanted parity; then
    error_paths
    for X in background foreground orphan; do
      parity_ns "par-$X"
      run owners -n "par-$X" delete deployment/web --cascade=$X --timeout=60s
      ok $rc "[parity] owners, gc off, $X: exit 0"
      norm_state "par-$X" > "$PARITY/$X"
      if [[ $X == orphan ]]; then
        like "$(cat "$PARITY/$X")" $'ConfigMap web-cm <- \\[\\].*\nPod two <- \\[ConfigMap/keeper\\+controller\\].*\nPod web-RS-POD <- \\[ReplicaSet/web-RS\\+controller\\+block\\].*\nPod web-RS-POD <- \\[ReplicaSet/web-RS\\+controller\\+block\\].*\nReplicaSet web-RS <- \\[\\]' \
          "[parity] owners orphan: ReplicaSet, pods, web-cm and pod two kept, released"
      else
        like "$(cat "$PARITY/$X")" $'^ConfigMap keeper <- \\[\\] fin=\nPod two <- \\[ConfigMap/keeper\\+controller\\] fin=\nServiceAccount default <- \\[\\] fin=$' \
          "[parity] owners $X: only keeper and pod two (released) are left"
      fi
    done
  fi
  if [[ $gc == on ]] && wanted parity; then
    for X in background foreground orphan; do
      parity_ns "par-$X"
      kubectl -n "par-$X" delete deployment/web --cascade=$X --wait=true --timeout=60s >/dev/null
      # background: the GC goes on after the Deployment is gone; let it settle
      for _ in $(seq 60); do [[ $(norm_state "par-$X") == "$(cat "$PARITY/$X")" ]] && break; sleep 0.5; done
      same_text "$(norm_state "par-$X")" "$(cat "$PARITY/$X")" \
        "[parity] $X: owners with the GC off ends where the real GC ends (kubectl delete --cascade=$X)"
    done
  fi
  stop_cluster "$C"
}

PARITY=$(mktemp -d "${TMPDIR:-/tmp}/owners-parity.XXXXXX")
_clusters+=("$PARITY")
SECONDS=0
for mode in ${GC_MODES:-off stalled on}; do suite "$mode"; done
echo "# delete.t ran in ${SECONDS}s"
done_testing
