#!/usr/bin/env bash
# Least privilege: the ClusterRoles in tests/e2e/rbac/ are exactly what each
# command needs. A user holding only owners-read, owners-fix or
# owners-delete (impersonated from the admin context with --as) runs its
# commands with exactly the result the admin gets; the same role minus one
# needed permission makes the command fail clearly, or report what it
# cannot see as unknown, and never do anything it did not promise (the
# full inventory of the cluster before and after, as in faults.t).
. "$(dirname "$0")/lib.sh"

plan 93   # (the same checks run every time: another count means checks lost or doubled)
start_cluster C --gc=stalled
. "$C/env"
. "$(dirname "$0")/fixtures.sh"
RBAC=$E2E_ROOT/tests/e2e/rbac

run kubectl apply -f "$RBAC"
ok $rc "the four ClusterRoles apply (owners-read, owners-fix, owners-delete, owners-gc)"

# role NAME: a ClusterRole named NAME, from JSON rules on stdin; bound to
# the user NAME and nothing else.
role() {
  python3 -c '
import json, sys
print(json.dumps({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
                  "metadata": {"name": sys.argv[1]}, "rules": json.load(sys.stdin)}))' "$1" |
    kubectl apply -f - >/dev/null &&
  kubectl create clusterrolebinding "$1" --clusterrole="$1" --user="$1" >/dev/null
}
rules_of() { kubectl get clusterrole "$1" -o json | python3 -c 'import json, sys; print(json.dumps(json.load(sys.stdin)["rules"]))'; }
# without ROLE VERB [RESOURCE]: ROLE's rules without VERB (on every resource,
# or only on RESOURCE, e.g. namespaces/finalize)
without() {
  rules_of "$1" | python3 -c '
import json, sys
verb, res = sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None
out = []
for r in json.load(sys.stdin):
    if res is None or res in r["resources"]:
        r["verbs"] = [v for v in r["verbs"] if v != verb]
    if r["verbs"]:
        out.append(r)
print(json.dumps(out))' "${@:2}"
}
# every resource of owners-read but Secrets: RBAC has no "all but", so the
# core group is spelled out and every other group kept whole
read_without_secrets() {
  python3 - "$(kubectl api-resources --api-group= -o name | grep -vx secrets | paste -sd,)" \
    "$(kubectl api-versions | grep / | cut -d/ -f1 | sort -u | paste -sd,)" <<'EOF'
import json, sys
core, groups = sys.argv[1].split(","), sys.argv[2].split(",")
print(json.dumps([{"apiGroups": [""], "resources": core, "verbs": ["get", "list"]},
                  {"apiGroups": groups, "resources": ["*"], "verbs": ["get", "list"]}]))
EOF
}
for r in read fix delete; do
  kubectl create clusterrolebinding "owners-$r" --clusterrole="owners-$r" --user="owners-$r" >/dev/null
done
# (every pipeline's status counts, not only the last one's)
bad_roles=()
without owners-read list | role read-no-list || bad_roles+=(read-no-list)
without owners-read get | role read-no-get || bad_roles+=(read-no-get)
read_without_secrets | role read-no-secrets || bad_roles+=(read-no-secrets)
without owners-fix patch | role fix-no-patch || bad_roles+=(fix-no-patch)
without owners-fix get | role fix-no-get || bad_roles+=(fix-no-get)
without owners-fix update namespaces/finalize | role fix-no-finalize || bad_roles+=(fix-no-finalize)
without owners-delete delete | role delete-no-delete || bad_roles+=(delete-no-delete)
without owners-delete patch | role delete-no-patch || bad_roles+=(delete-no-patch)
ok ${#bad_roles[@]} "the roles minus one permission, each bound to its own user${bad_roles[*]:+ (failed: ${bad_roles[*]})}"
USERS=(owners-read owners-fix owners-delete read-no-list read-no-get read-no-secrets fix-no-patch
       fix-no-get fix-no-finalize delete-no-delete delete-no-patch)
make_fixtures "${USERS[@]}"
ok $? "fixtures: one namespace per user"
# a ConfigMap owned by a Secret: what read-no-secrets cannot decide
for ns in "${USERS[@]}"; do
  kubectl create secret generic s1 -n "$ns" >/dev/null
  kubectl apply -n "$ns" -f - >/dev/null <<YAML
apiVersion: v1
kind: ConfigMap
metadata:
  name: sec-dep
  ownerReferences: [{apiVersion: v1, kind: Secret, name: s1, uid: $(kubectl get secret s1 -n "$ns" -o jsonpath='{.metadata.uid}')}]
YAML
done
# a namespace stuck in Terminating (no namespace controller runs here)
for u in owners-read owners-fix fix-no-finalize; do
  kubectl create namespace "term-$u" >/dev/null && kubectl delete namespace "term-$u" --wait=false >/dev/null
done

as() { owners --as "$user" -n "$user" --request-timeout 10s "$@"; }
admin() { owners -n "$user" --request-timeout 10s "$@"; }
FIN_NS="finalizers remove namespace/term-USER --finalizer kubernetes"

# judge ACT: run ACT as $user and compare the inventories; sets $rc/$out/$err,
# $args (what ran) and complete/partial/unchanged (see inventory.py)
judge() {
  local a=$1 p
  if [[ $a == finns ]]; then
    args=${FIN_NS//USER/$user} p="gone=-/Namespace/term-$user"
  else
    args=$(act_args "$a") p=$(promise "$a" "$user")
  fi
  snap "$C/inv.0"
  run as $args
  snap "$C/inv.1"
  local r=$rc o=$out e=$err
  complete=0 partial=0 unchanged=0
  python3 "$INV" check "$C/inv.0" "$C/inv.1" complete $p >/dev/null && complete=1
  python3 "$INV" check "$C/inv.0" "$C/inv.1" partial $p >"$C/partial.log" && partial=1
  python3 "$INV" check "$C/inv.0" "$C/inv.1" complete >/dev/null && unchanged=1
  rc=$r out=$o err=$e
}

# ---- each role, exactly: the commands it is for ---------------------------------------
user=owners-read
for r in "${READS[@]}"; do
  want=$(admin $r | normalize)
  run as $r
  is "$rc:$(normalize <<<"$out")" "0:$want" "[$user] $r: exit 0, the same answer as the admin's"
  is "$err" "" "[$user] $r: no warning"
done
for a in "${ACTS[@]}" finns; do
  judge "$a"
  (( rc != 0 && unchanged ))
  ok $? "[$user] $args: refused (exit $rc), nothing changed"
done

user=owners-fix
for a in fix fin1 fin2 finns; do
  judge "$a"
  (( rc == 0 && complete ))
  ok $? "[$user] $args: exit $rc, exactly what it promised"
done

user=owners-delete
for a in bg fg or; do
  judge "$a"
  (( rc == 0 && complete ))
  ok $? "[$user] $(act_args "$a"): exit $rc, exactly what it promised"
done

# ---- each role minus one permission ---------------------------------------------------
one_clear_line() { [[ $(grep -c '^error: ' <<<"$err") -ge 1 ]] && ! grep -qvE '^(error|warning|fixed): ' <<<"$err"; }

user=read-no-list
for r in "${READS[@]}"; do
  run as $r
  is "$rc" 1 "[$user] $r: exit 1"
  like "$err" "^error: the credentials of user '[^']+' \\(context '[^']+'\\) acting as '$user' may list none of the [0-9]+ types owners scans: [a-z0-9.]+ is forbidden: User \"$user\" cannot list resource \"[a-z0-9.]+\" in API group \"[a-z0-9.]*\"( in the namespace \"$user\"| at the cluster scope)?$" \
    "[$user] $r: one line: a user who may list nothing, in the server's words"
done

user=read-no-get
kubectl create deployment web --image=nginx -n "$user" >/dev/null
run as tree deploy/web
ok $rc "[$user] tree: works (get only fetches what READY/STATUS show)"
like "$out" "Deployment/web +- +- " "[$user] tree: READY and STATUS left as '-'"
run admin tree deploy/web
like "$out" "Deployment/web +0/1 " "[admin] tree: READY 0/1, for comparison"
for r in "${READS[@]:1}"; do
  run as $r
  is "$rc:$(normalize <<<"$out")" "0:$(admin $r | normalize)" "[$user] $r: the same answer as the admin's"
done

user=read-no-secrets
run as tree cm/app
ok $rc "[$user] tree: exit 0"
like "$err" "^warning: cannot list 'secrets' in namespace '$user': forbidden" "[$user] tree: warns that Secrets cannot be listed"
unlike "$out" "Secret/app-c2" "[$user] tree: the Secret it cannot see is not shown"
run as dangling -o json
ok $rc "[$user] dangling: exit 0"
printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
f = {(i["metadata"]["name"], i["owners"]["class"]) for i in d["items"]}
assert ("sec-dep", "unknown") in f, f
w = [x for x in d["warnings"] if x["reason"] == "Forbidden"]
assert [(x["group"], x["version"], x["resource"]) for x in w] == [("", "v1", "secrets")], d["warnings"]'
ok $? "[$user] dangling: the reference to a Secret is reported unknown, the Secrets named Forbidden in warnings"

user=fix-no-patch
for a in fix fin1; do
  judge "$a"
  (( rc != 0 && unchanged )) && one_clear_line && [[ $err == *forbidden* ]]
  ok $? "[$user] ${args}: exit $rc, says forbidden, nothing changed"
done
user=fix-no-get
for a in fix fin1; do
  judge "$a"
  (( rc != 0 && unchanged )) && one_clear_line && [[ $err == *forbidden* ]]
  ok $? "[$user] ${args}: exit $rc, says forbidden, nothing changed"
done
user=fix-no-finalize
judge finns
(( rc != 0 && unchanged )) && one_clear_line
ok $? "[$user] $args: exit $rc, nothing changed"
like "$err" "^error: cannot finalize namespaces 'term-$user': .*forbidden" "[$user] names the finalize subresource as forbidden"
judge fin1
(( rc == 0 && complete ))
ok $? "[$user] finalizers remove on an object still works (patch)"

# owners delete asks for every permission the cascade needs before its first
# change (SelfSubjectAccessReview): a missing one stops it with nothing done.
for user in delete-no-delete delete-no-patch; do
  verb=${user#delete-no-}
  for a in bg fg or; do
    judge "$a"
    (( rc == 4 && unchanged )) && one_clear_line
    ok $? "[$user] $(act_args "$a"): exit $rc, nothing changed"
    (( unchanged )) || python3 "$INV" diff "$C/inv.0" "$C/inv.1" | sed 's/^/#   done before it failed: /'
    like "$err" "no $verb permission on [a-z.]+ in namespace '$user' \\(asked before any change\\)" \
      "[$user] $(act_args "$a"): names the missing $verb permission"
    like "$err" "nothing was deleted or changed" "[$user] $(act_args "$a"): says nothing was done"
    run owners -n "$user" $(act_args "$a") --ignore-not-found
    snap "$C/inv.2"
    run python3 "$INV" check "$C/inv.0" "$C/inv.2" complete $(promise "$a" "$user")
    ok $rc "[$user] $(act_args "$a"): a user with the full role then does it"
  done
done

# owners gc: with owners-gc, the garbage collector's work done; without
# delete or patch, nothing changed and the missing permission named.
without owners-gc delete | role gc-no-delete
without owners-gc patch | role gc-no-patch
kubectl create clusterrolebinding owners-gc --clusterrole=owners-gc --user=owners-gc >/dev/null
for user in owners-gc gc-no-delete gc-no-patch; do
  kubectl create namespace "$user" >/dev/null
  kubectl -n "$user" create configmap owner >/dev/null
  kubectl -n "$user" create configmap keeper >/dev/null
  o=$(kubectl -n "$user" get cm owner -o jsonpath='{.metadata.uid}')
  k=$(kubectl -n "$user" get cm keeper -o jsonpath='{.metadata.uid}')
  kubectl -n "$user" create -f - >/dev/null <<YAML
apiVersion: v1
kind: ConfigMap
metadata:
  name: orphan
  ownerReferences: [{apiVersion: v1, kind: ConfigMap, name: owner, uid: $o}]
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: shared
  ownerReferences: [{apiVersion: v1, kind: ConfigMap, name: owner, uid: $o}, {apiVersion: v1, kind: ConfigMap, name: keeper, uid: $k}]
YAML
  kubectl -n "$user" delete configmap owner >/dev/null
done
for user in gc-no-delete gc-no-patch; do
  run as gc
  is "$rc" 4 "[$user] gc: exit 4"
  like "$err" "no ${user#gc-no-} permission on configmaps in namespace '$user' \\(asked before any change\\)" \
    "[$user] gc: names the missing permission"
  like "$err" "nothing was deleted or changed" "[$user] gc: says nothing was done"
  is "$(kubectl -n "$user" get cm -o name | sort | tr '\n' ' ')" \
    "configmap/keeper configmap/orphan configmap/shared " "[$user] gc: nothing changed"
  run as gc --dry-run
  is "$rc" 0 "[$user] gc --dry-run: the backlog, with read rights only"
done
user=owners-gc
run as gc
is "$rc" 0 "[owners-gc] gc: done"
is "$(kubectl -n "$user" get cm -o name | sort | tr '\n' ' ')" \
  "configmap/keeper configmap/shared " "[owners-gc] gc: the garbage collected"
is "$(kubectl -n "$user" get cm shared -o jsonpath='{.metadata.ownerReferences[*].name}')" keeper \
  "[owners-gc] gc: the dangling reference of an object with a live owner removed"

done_testing
