#!/usr/bin/env bash
# owners dangling against a real control plane: one object of every class,
# the exact findings and what the GC will do, --dry-run, --fix (references
# gone, objects kept, resolving references untouched), a change made between
# reading and patching that must not be overwritten, the viewer identity,
# and, with the real garbage collector running, that its predictions come
# true.
. "$(dirname "$0")/lib.sh"

uid() { kubectl get "$@" -o jsonpath='{.metadata.uid}'; }
rv() { kubectl get "$@" -o jsonpath='{.metadata.resourceVersion}'; }
refs() { kubectl get "$@" -o jsonpath='{.metadata.ownerReferences}'; }
ref() { echo "{apiVersion: $1, kind: $2, name: $3, uid: $4}"; }
# "namespace/Kind/name -> Kind/name class gc-action" per finding, sorted
findings() {
  python3 -c '
import json, sys
for i in json.load(sys.stdin)["items"]:
    o, f = i["metadata"], i["owners"]
    r = f["reference"]
    print("%s/%s/%s -> %s/%s %s %s" % (o.get("namespace", "-"), i["kind"], o["name"],
          r["kind"], r["name"], f["class"], f["gc"]["action"]))
' | sort
}
fixes() { # "Kind/name -> Kind/name result attempts"
  python3 -c '
import json, sys
for i in json.load(sys.stdin)["items"]:
    f = i["owners"]
    r = f["reference"]
    print("%s/%s -> %s/%s %s %d" % (i["kind"], i["metadata"]["name"], r["kind"], r["name"],
          f["fix"]["result"], f["fix"]["attempts"]))
' | sort
}
# one made-up UID per made-up owner: the GC keys its graph by UID
GONE_CM=00000000-0000-0000-0000-0000000000c1
GONE_WIDGET=00000000-0000-0000-0000-0000000000d2
GONE_ROLE=00000000-0000-0000-0000-0000000000e3

start_cluster C --gc=stalled
. "$C/env"

# ---- one object of every class (the GC is stalled: nothing moves) -----------
kubectl create namespace other >/dev/null
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
kubectl wait --for=condition=Established crd/widgets.example.com >/dev/null
wait_for "widgets served" 30 kubectl get widgets
kubectl apply -f - >/dev/null <<'YAML'
apiVersion: example.com/v1
kind: Widget
metadata: {name: w1}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: live}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: recreated}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: elsewhere, namespace: other}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: owner-role}
---
apiVersion: v1
kind: Secret
metadata: {name: s1}
YAML
live=$(uid cm live); old=$(uid cm recreated); else_uid=$(uid cm elsewhere -n other)
role=$(uid clusterrole owner-role); w1=$(uid widget w1); s1=$(uid secret s1)
livefull="{apiVersion: v1, kind: ConfigMap, name: live, uid: $live, controller: true, blockOwnerDeletion: true}"
kubectl apply -f - >/dev/null <<YAML
apiVersion: v1
kind: ConfigMap
metadata: {name: dep-absent, labels: {set: a}, ownerReferences: [$(ref v1 ConfigMap never $GONE_CM)]}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: dep-mismatch, labels: {set: a}, ownerReferences: [$(ref v1 ConfigMap recreated $old)]}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: dep-elsewhere, ownerReferences: [$(ref v1 ConfigMap elsewhere $else_uid)]}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: dep-widget, ownerReferences: [$(ref example.com/v1 Widget w1 $w1)]}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: dep-mixed, ownerReferences: [$(ref v1 ConfigMap never $GONE_CM), $livefull]}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: dep-role, ownerReferences: [$(ref rbac.authorization.k8s.io/v1 ClusterRole owner-role $role)]}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: dep-secret, ownerReferences: [$(ref v1 Secret s1 $s1), $(ref v1 ConfigMap never $GONE_CM)]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: cr-namespaced-owner, ownerReferences: [$(ref v1 ConfigMap live $live)]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: cr-orphan, ownerReferences: [$(ref rbac.authorization.k8s.io/v1 ClusterRole gone-role $GONE_ROLE)]}
YAML
# an owner deleted and re-created under the same name: another UID
kubectl delete cm recreated >/dev/null
kubectl create cm recreated >/dev/null
isnt_uid=$(uid cm recreated); [[ $isnt_uid != "$old" ]]; ok $? "the owner was re-created with a new UID"

run owners dangling -A
ok $rc "a clean scan before the CRD goes (fills the discovery cache with widgets)"
unlike "$out" "dep-widget" "the widget reference still resolves"

# The CRD goes: its objects go with it, and the reference to w1 becomes
# unresolvable (the discovery cache still lists widgets: owners must notice).
kubectl delete crd widgets.example.com >/dev/null
wait_for "widgets no longer served" 60 bash -c '! kubectl get --raw /apis/example.com/v1 >/dev/null 2>&1'

run owners dangling -A -o json
ok $rc "dangling -A -o json exits 0"
is "$err" "" "nothing on stderr for a complete scan (the stale cached widgets type was re-discovered)"
got=$(printf '%s' "$out" | findings)
want=$(sort <<'EOF'
-/ClusterRole/cr-namespaced-owner -> ConfigMap/live invalid-namespace none
-/ClusterRole/cr-orphan -> ClusterRole/gone-role absent delete-object
default/ConfigMap/dep-absent -> ConfigMap/never absent delete-object
default/ConfigMap/dep-elsewhere -> ConfigMap/elsewhere invalid-namespace delete-object
default/ConfigMap/dep-mismatch -> ConfigMap/recreated uid-mismatch delete-object
default/ConfigMap/dep-mixed -> ConfigMap/never absent remove-reference
default/ConfigMap/dep-secret -> ConfigMap/never absent remove-reference
default/ConfigMap/dep-widget -> Widget/w1 unresolvable none
EOF
)
is "$got" "$want" "exactly one finding per dangling reference, each class, each GC action"
printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert list(d) == ["apiVersion", "kind", "metadata", "items", "warnings"], list(d)
assert d["kind"] == "OwnersDangling" and d["apiVersion"] == "owners.dev/v1" and d["metadata"]["dryRun"] is False
assert d["warnings"] == []
for i in d["items"]:
    # Kubernetes-shaped: the object as the server has it, owners facts apart
    assert list(i) == ["apiVersion", "kind", "metadata", "owners"], list(i)
    md = i["metadata"]
    assert {"name", "uid", "creationTimestamp", "ownerReferences"} <= set(md), md
    f = i["owners"]
    assert set(f) == {"reference", "class", "gc"}, f.keys()
    assert set(f["reference"]) == {"apiVersion", "kind", "name", "uid", "controller", "blockOwnerDeletion"}
    assert f["reference"]["uid"] in [r["uid"] for r in md["ownerReferences"]]
    assert set(f["gc"]) == {"action", "reason"} and f["gc"]["reason"]
w = [i for i in d["items"] if i["owners"]["class"] == "unresolvable"][0]
assert w["owners"]["reference"]["apiVersion"] == "example.com/v1"
assert "retries the object forever" in w["owners"]["gc"]["reason"], w["owners"]["gc"]["reason"]
m = [i for i in d["items"] if i["metadata"]["name"] == "dep-mixed"][0]
assert m["owners"]["gc"]["reason"] == "owner ConfigMap/live is alive", m["owners"]["gc"]["reason"]
c = [i for i in d["items"] if i["metadata"]["name"] == "cr-namespaced-owner"][0]
assert "namespace" not in c["metadata"] and "gives up" in c["owners"]["gc"]["reason"]
assert c["apiVersion"] == "rbac.authorization.k8s.io/v1" and c["kind"] == "ClusterRole"
assert m["metadata"]["namespace"] == "default" and m["apiVersion"] == "v1"
# ownerReferences as the server has them: a field not set is not written
assert all(set(r) <= {"apiVersion", "kind", "name", "uid", "controller", "blockOwnerDeletion"}
           for r in m["metadata"]["ownerReferences"])
'
ok $? "-o json: the documented schema, with reasons"

# kubectl habits: the object's name is .metadata.name, its type kind.group
run owners dangling -A -o jsonpath='{.items[*].metadata.name}'
ok $rc "-o jsonpath over .items[*].metadata.name: exit 0"
is "$(printf '%s' "$out" | tr ' ' '\n' | sort -u | tr '\n' ' ')" \
  "cr-namespaced-owner cr-orphan dep-absent dep-elsewhere dep-mismatch dep-mixed dep-secret dep-widget " \
  "  prints the objects' names, as kubectl get users script it"
run owners dangling -A -o jsonpath='{.items[*].name}' --allow-missing-template-keys=false
is "$rc" 1 "-o jsonpath on a field no item has, --allow-missing-template-keys=false: exit 1, as kubectl"
like "$err" "^error: error executing jsonpath '\{\.items\[\*\]\.name\}': name is not found$" "  and says it is not found"
is "$out" "" "  nothing on stdout"
run owners dangling -A -o custom-columns=
is "$rc" 2 "-o custom-columns= (empty): a usage error"
like "$err" "^error: custom-columns format specified but no custom columns given" "  in kubectl's words"
is "$out" "" "  no blank lines"
run owners dangling -A -o custom-columns=NAME:.metadata.name,NOPE:.owners.nope
ok $rc "custom-columns on a missing field: exit 0"
like "$out" "dep-absent +<none>" "  <none> in its cells, as kubectl"
run owners dangling -A -o name
ok $rc "-o name: exit 0"
is "$(printf '%s\n' "$out" | sort)" "$(printf '%s\n' clusterrole.rbac.authorization.k8s.io/cr-namespaced-owner \
  clusterrole.rbac.authorization.k8s.io/cr-orphan configmap/dep-absent configmap/dep-elsewhere \
  configmap/dep-mismatch configmap/dep-mixed configmap/dep-secret configmap/dep-widget)" \
  "-o name: each object once, kind.group/name as kubectl delete takes it"
run owners dangling -o name
is "$(printf '%s\n' "$out" | xargs kubectl get -o name | sort)" "$(printf '%s\n' "$out" | sort)" \
  "-o name | xargs kubectl get: every line is an object kubectl finds"

run owners dangling
ok $rc "default namespace: exit 0"
like "$out" "^NAMESPACE +OBJECT +OWNER +CLASS +GC WILL"$'\n' "table header"
like "$out" "default +ConfigMap/dep-absent +ConfigMap/never +absent +delete the object" "absent row"
like "$out" "ConfigMap/dep-mismatch +ConfigMap/recreated +uid-mismatch +delete the object" "uid-mismatch row"
like "$out" "ConfigMap/dep-mixed +ConfigMap/never +absent +remove the reference" "live owner: the GC removes the reference"
like "$out" "ConfigMap/dep-widget +Widget/w1 +unresolvable +nothing, ever" "unresolvable: nothing, ever"
like "$out" "ConfigMap/dep-elsewhere +ConfigMap/elsewhere +invalid-namespace +delete the object" \
  "one namespace scanned: an owner living in another namespace is invalid-namespace, as with -A (and as the GC says)"
unlike "$out" "ClusterRole/" "cluster-scoped objects belong to -A (or a TYPE)"
unlike "$out" "dep-role" "a cluster-scoped owner that resolves is no finding"
is "$(printf '%s\n' "$out" | wc -l)" 7 "header + 6 findings in namespace default"
run owners dangling -v=6
like "$err" "GET [^ ]*/api/v1/configmaps\\?[^ ]* 200" "  found by one list of configmaps across namespaces"
unlike "$err" "GET [^ ]*/api/v1/secrets\\?" "  and only for the types of owners that read absent"
# A user who may look only in default: the owner elsewhere cannot be looked for.
kubectl create rolebinding only-default-view --clusterrole=view --user=only-default >/dev/null
run owners --as only-default dangling
ok $rc "a user confined to one namespace: exit 0"
like "$out" "ConfigMap/dep-elsewhere +ConfigMap/elsewhere +absent +delete the object" \
  "  the owner elsewhere cannot be seen: absent"
like "$err" "warning: cannot list 'configmaps': forbidden: owners of that type in other namespaces could not be looked for, so references to them read absent \\(the garbage collector may call them invalid-namespace\\)" \
  "  with a note saying why it may be invalid-namespace"
kubectl delete rolebinding only-default-view >/dev/null

run owners dangling clusterroles -o wide
like "$out" "ClusterRole.rbac.authorization.k8s.io/cr-namespaced-owner +ConfigMap/live +v1 +$live +invalid-namespace +nothing, ever +a cluster-scoped object cannot have a namespaced owner" \
  "cluster-scoped dependent of a namespaced owner, wide (the object with its group)"
like "$out" "ClusterRole.rbac.authorization.k8s.io/cr-orphan +ClusterRole/gone-role .* +absent +delete the object +no owner of the object resolves" \
  "cluster-scoped dependent of an absent cluster-scoped owner"
is "$(printf '%s\n' "$out" | wc -l)" 3 "TYPE: only clusterroles"

run owners dangling cm/dep-mixed cm/dep-widget
is "$(printf '%s\n' "$out" | tail -n +2 | awk '{print $2}' | tr '\n' ' ')" "ConfigMap/dep-mixed ConfigMap/dep-widget " \
  "TYPE/NAME selects objects"
run owners dangling configmap dep-widget dep-mixed
is "$(printf '%s\n' "$out" | tail -n +2 | awk '{print $2}' | tr '\n' ' ')" "ConfigMap/dep-mixed ConfigMap/dep-widget " \
  "TYPE NAME... too (findings in a stable order)"
run owners dangling cm -l set=a
is "$(printf '%s\n' "$out" | tail -n +2 | awk '{print $2}' | tr '\n' ' ')" "ConfigMap/dep-absent ConfigMap/dep-mismatch " \
  "-l selects by label"
run owners dangling -l set=a
is "$rc" 2 "-l without a TYPE: usage error"
run owners dangling cm/live
is "$rc$out" 0 "an object without findings: exit 0, empty table"
like "$err" "no dangling ownerReferences on the given objects" "and says so on stderr"
run owners dangling cm/live --exit-code
is "$rc" 0 "--exit-code with nothing found: 0"
run owners dangling --exit-code
is "$rc" 1 "--exit-code with findings: 1"
run owners dangling -o xml
is "$rc" 2 "unknown -o: usage error"

# ---- the viewer cannot list Secrets: no verdict, and --fix leaves them -----
kubectl apply -f - >/dev/null <<YAML
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: patch-dep-secret}
rules: [{apiGroups: [""], resources: [configmaps], resourceNames: [dep-secret], verbs: [patch]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: viewer-patch-dep-secret}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: patch-dep-secret}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: viewer}]
YAML
run owners --context viewer dangling
ok $rc "viewer: exit 0"
like "$out" "ConfigMap/dep-secret +Secret/s1 +unknown +cannot tell" "viewer: the reference into Secrets is unknown"
like "$out" "ConfigMap/dep-secret +ConfigMap/never +absent +cannot tell" \
  "viewer: with an owner it cannot check, what the GC does to the object cannot be told"
like "$out" "ConfigMap/dep-role +ClusterRole/owner-role +unknown +cannot tell" \
  "viewer: clusterroles cannot be listed either"
like "$err" "warning: cannot list [0-9]+ types that can hold part of the answer \\(ownership through them is unknown\\): forbidden: (.*, )?secrets(,| |$|[[:space:]])" \
  "viewer: the warning names the type behind the unknown verdict"
like "$err" "warning: cannot list [0-9]+ types that can hold part of the answer [^:]*: forbidden: (.*, )?clusterroles.rbac.authorization.k8s.io(,| |$|[[:space:]])" \
  "viewer: and the cluster-scoped type an owner reference names"
like "$err" "warning: [0-9]+ more types forbidden to you cannot hold part of the answer \\(-v=1 names them\\)" \
  "viewer: the cluster-scoped types nothing names are counted"
unlike "$err" "nodes|csidrivers" "viewer: and not named"
is "$(printf '%s\n' "$err" | grep -c '^warning: cannot list')" 1 "viewer: the forbidden types on one line, as every command says it"
dangling_warning=$(printf '%s\n' "$err" | grep '^warning: cannot list')
for cmd in graph finalizers "delete cm/dep-secret --dry-run=client"; do
  run owners --context viewer $cmd
  is "$(printf '%s\n' "$err" | grep '^warning: cannot list')" "$dangling_warning" "viewer: $cmd warns in the same words"
done
run owners --context viewer dangling -v=1
like "$err" "warning: cannot list [0-9]+ more types that cannot hold part of the answer: forbidden: (.*, )?nodes(,| |$|[[:space:]])" \
  "viewer, -v=1: those are named too"
run owners --context viewer dangling -o json
printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
w = d["warnings"]
forbidden = [x for x in w if x["reason"] == "Forbidden"]
assert any(x["resource"] == "secrets" and x["group"] == "" and x["version"] == "v1" and x["canHoldAnswer"]
           for x in forbidden), w
# every type named, those that cannot hold the answer too: no count, no -v=1
assert any(x["resource"] == "nodes" and not x["canHoldAnswer"] for x in forbidden), w
assert not any("more" in x["message"] and "-v=1" in x["message"] for x in w), w
assert all(set(x) == {"reason", "group", "version", "resource", "canHoldAnswer", "message"} for x in forbidden), w
names = ["%s.%s" % (x["resource"], x["group"]) if x["group"] else x["resource"] for x in forbidden]
assert len(names) == len(set(names)), names
print("\n".join(sorted(names)))
assert sorted(i["owners"]["reference"]["name"] for i in d["items"] if i["owners"]["class"] == "unknown") == ["owner-role", "s1"]
' >"$C/forbidden.names"
ok $? "viewer -o json: unknown finding and warnings, every forbidden type named with its reason"
run owners --context viewer dangling -v=1
is "$(printf '%s\n' "$err" | python3 -c '
import re, sys
names = []
for line in sys.stdin:
    m = re.search(r"cannot list \d+ (more )?types.*?: forbidden: (.*)$", line)
    if m:
        names += m.group(2).split(", ")
    m = re.search(r"cannot list \x27([^\x27]+)\x27( in namespace \x27[^\x27]*\x27)?: forbidden \(ownership", line)
    if m:
        names.append(m.group(1))
print("\n".join(sorted(names)))')" "$(cat "$C/forbidden.names")" \
  "viewer: the document names every forbidden type -v=1 names on stderr, and no other"
run owners --context viewer dangling secrets
is "$rc" 1 "viewer: a TYPE it cannot list is an error, not an empty report"
like "$err" "^error: cannot list 'secrets' in namespace 'default': forbidden$" "  and says why"
run owners dangling events
is "$rc" 1 "a TYPE the GC does not track is an error"
like "$err" "^error: 'events' objects are not checked" "  and says why"
run owners --context viewer dangling cm/dep-secret --fix -o json
is "$rc" 4 "viewer --fix on an object it may patch: exit 4, incomplete (#51): Secrets could not be listed"
like "$err" "error: the fix is incomplete: [0-9]+ types? that can hold part of it could not be listed \\([^)]*secrets" "... and the error names them"
is "$(printf '%s' "$out" | fixes)" "$(printf '%s\n' 'ConfigMap/dep-secret -> ConfigMap/never removed 1' 'ConfigMap/dep-secret -> Secret/s1 kept 1')" \
  "viewer --fix: the absent reference removed, the unknown one kept"
is "$(refs cm dep-secret)" "[{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"name\":\"s1\",\"uid\":\"$s1\"}]" \
  "the reference into Secrets is still there, verbatim"
kubectl create configmap plain-fix >/dev/null
run owners --context viewer dangling cm/plain-fix --fix
is "$rc" 4 "viewer --fix where nothing dangles among what it could read: exit 4, incomplete"
is "$(grep -v '^warning: ' <<<"$err")" "$(grep '^error: the fix is incomplete: ' <<<"$err")" \
  "  its error line is all it says besides the warnings: no 'no dangling ownerReferences' of what it could not see"
run owners --context viewer dangling cm/dep-absent --fix
is "$rc" 4 "viewer --fix where it may not delete: exit 4 (incomplete)"
like "$err" "error: cannot delete configmap/dep-absent: forbidden: no delete permission on configmaps in namespace 'default' \\(asked before any change\\)" \
  "an object with no owner left is collected, not stripped: the DELETE it needs is asked for first and named (#43: before any change)"
run owners --context viewer dangling cm/dep-absent --fix=keep
is "$rc" 4 "viewer --fix=keep where it may not patch: exit 4 (incomplete)"
unlike "$err" "after the fix" "  nothing patched: no verdict after the fix"
like "$err" "error: cannot patch configmap/dep-absent: forbidden: no patch permission on configmaps in namespace 'default' \\(asked before any change\\)" \
  "and says which object and why, before any change (#43)"
like "$out" "ConfigMap/dep-absent +ConfigMap/never +absent +delete the object$" "the table shows the findings, with no FIX column: nothing was tried"

# ---- --dry-run changes nothing -----------------------------------------------
snapshot() { kubectl get cm,clusterrole -A -o jsonpath='{range .items[*]}{.metadata.name} {.metadata.resourceVersion}{"\n"}{end}' | sort; }
s0=$(snapshot)
run owners dangling -A --dry-run=server --fix-unresolvable
ok $rc "--dry-run exits 0"
like "$out" "FIX"$'\n' "--dry-run adds the FIX column"
is "$(printf '%s\n' "$out" | grep -c 'would remove$')" 3 "3 references would be removed"
is "$(printf '%s\n' "$out" | grep -c 'would delete the object (no owner is left')" 4 "4 objects with no owner left would be collected"
like "$err" "dry run: 3 references would be removed and 0 would be repaired \\(apiVersion\\) on 3 objects; 4 findings on objects that would be collected; 0 kept, 0 with nothing to do, 0 failed; nothing was changed" \
  "--dry-run summary"
is "$(snapshot)" "$s0" "--dry-run changed no object (every resourceVersion the same)"
run owners dangling -A --dry-run=server
is "$(printf '%s\n' "$out" | grep -c 'would remove$')" 1 "without --fix-unresolvable (#43): only the reference the GC removes would be removed"
is "$(printf '%s\n' "$out" | grep -c 'kept (left as it is: the garbage collector never acts on this object)')" 2 \
  "  the 2 on objects the GC never acts on are kept, and say why"
like "$err" "would leave 2 references on 2 objects as they are: the garbage collector never acts on those objects \\(GC WILL: nothing, ever\\); --fix-unresolvable removes such references, and then, if their API comes back or their owner becomes resolvable, the object is never collected through them" \
  "  and a line names the choice and its consequence"
run owners dangling -A --dry-run=server --exit-code
is "$rc" 1 "--dry-run --exit-code: 1 (nothing was fixed)"

# ---- a change between reading and patching is not overwritten ----------------
kubectl create cm live2 >/dev/null; live2=$(uid cm live2)
kubectl apply -f - >/dev/null <<YAML
apiVersion: v1
kind: ConfigMap
metadata: {name: dep-race, ownerReferences: [$(ref v1 ConfigMap never $GONE_CM), $livefull]}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: dep-race2, ownerReferences: [$(ref v1 ConfigMap never $GONE_CM), $livefull]}
YAML
OWNERS_TEST_PAUSE_BEFORE_FIX=4 "$OWNERS" dangling cm/dep-race --fix -o json >"$C/race.out" 2>"$C/race.err" &
pid=$!
wait_for "the fix to read dep-race and pause" 30 grep -q "test hook: pausing 4s before patching ConfigMap default/dep-race" "$C/race.err"
ok $? "the fix paused between reading and patching"
# Someone adds an owner meanwhile; a blind patch of the list would drop it.
while_paused $pid kubectl patch cm dep-race --type=json -p "[{\"op\":\"add\",\"path\":\"/metadata/ownerReferences/-\",\"value\":{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"name\":\"live2\",\"uid\":\"$live2\"}}]" >/dev/null
wait $pid; rc=$?
err=$(cat "$C/race.err"); san_check "dangling --fix (paused)"
is "$rc" 0 "the fix finished (exit 0)"
is "$(fixes <"$C/race.out")" "ConfigMap/dep-race -> ConfigMap/never removed 2" \
  "the first patch met a conflict (409), the second, built from a fresh read, went through"
is "$(kubectl get cm dep-race -o jsonpath='{range .metadata.ownerReferences[*]}{.name}{" "}{end}')" "live live2 " \
  "the concurrently added owner survived; the dangling one is gone"
OWNERS_TEST_PAUSE_BEFORE_FIX=4 "$OWNERS" dangling cm/dep-race2 --fix -o json >"$C/race2.out" 2>"$C/race2.err" &
pid=$!
wait_for "the fix to pause on dep-race2" 30 grep -q "test hook: pausing" "$C/race2.err"
remove_first_ref() { kubectl patch cm dep-race2 --type=json -p '[{"op":"remove","path":"/metadata/ownerReferences/0"}]' >/dev/null && rv_after_other=$(rv cm dep-race2); }
while_paused $pid remove_first_ref
wait $pid; rc=$?
err=$(cat "$C/race2.err"); san_check "dangling --fix (paused, 2)"
is "$rc" 0 "someone else removed the reference meanwhile: exit 0"
like "$(cat "$C/race2.out")" '"result": "gone"' "the re-read finds nothing left to do"
is "$(rv cm dep-race2)" "$rv_after_other" "and nothing is patched"

# ---- --fix -------------------------------------------------------------------
resolving_before=$(kubectl get cm dep-mixed dep-role -o jsonpath='{range .items[*]}{.metadata.ownerReferences}{"\n"}{end}')
names_before=$(kubectl get cm,clusterrole -A -o name | sort)
run owners dangling -A --fix=keep --fix-unresolvable -o json
ok $rc "--fix=keep -A exits 0"
got=$(printf '%s' "$out" | fixes)
want=$(sort <<'EOF'
ClusterRole/cr-namespaced-owner -> ConfigMap/live removed 1
ClusterRole/cr-orphan -> ClusterRole/gone-role removed 1
ConfigMap/dep-absent -> ConfigMap/never removed 1
ConfigMap/dep-elsewhere -> ConfigMap/elsewhere removed 1
ConfigMap/dep-mismatch -> ConfigMap/recreated removed 1
ConfigMap/dep-mixed -> ConfigMap/never removed 1
ConfigMap/dep-widget -> Widget/w1 removed 1
EOF
)
is "$got" "$want" "every dangling reference removed (re-read after the patch)"
is "$(kubectl get cm,clusterrole -A -o name | sort)" "$names_before" "--fix=keep: every object is still there"
run owners dangling -A --fix=keep --fix-unresolvable
like "$err" "kept on purpose \\(--fix=keep\\)|no dangling" "--fix=keep says what it keeps forever (or, run again, that nothing is left)"
for o in "cm dep-absent" "cm dep-mismatch" "cm dep-elsewhere" "cm dep-widget" "clusterrole cr-namespaced-owner" "clusterrole cr-orphan"; do
  is "$(refs $o)" "" "$o has no ownerReferences left"
done
resolving_after=$(kubectl get cm dep-mixed dep-role -o jsonpath='{range .items[*]}{.metadata.ownerReferences}{"\n"}{end}')
is "$resolving_after" "$(printf '%s' "$resolving_before" | python3 -c '
import json, sys
lines = sys.stdin.read().split("\n")
mixed = [r for r in json.loads(lines[0]) if r["name"] != "never"]
print(json.dumps(mixed, separators=(",", ":")))
print(lines[1], end="")')" "resolving references untouched, every field (controller, blockOwnerDeletion) as it was"
run owners dangling -A --exit-code
is "$rc" 0 "afterwards: nothing dangling, --exit-code 0"
like "$err" "no dangling ownerReferences in any namespace" "and it says so"

# ---- --fix collects what the GC collects ------------------------------------
kubectl create namespace collect >/dev/null
kubectl -n collect create cm alive >/dev/null
kubectl -n collect apply -f - >/dev/null <<YAML
apiVersion: v1
kind: ConfigMap
metadata: {name: garbage, ownerReferences: [$(ref v1 ConfigMap never $GONE_CM)]}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: kept, ownerReferences: [$(ref v1 ConfigMap never $GONE_CM), $(ref v1 ConfigMap alive "$(uid -n collect cm alive)")]}
YAML
g=$(uid -n collect cm garbage)
kubectl -n collect apply -f - >/dev/null <<YAML
apiVersion: v1
kind: ConfigMap
metadata: {name: under-garbage, ownerReferences: [$(ref v1 ConfigMap garbage "$g")]}
YAML
run owners -n collect dangling
like "$out" "ConfigMap/garbage +ConfigMap/never +absent +delete the object" "no owner left: the GC deletes it"
run owners -n collect dangling cm/under-garbage -o json
is "$(printf '%s' "$out" | findings)" "" "a live owner: nothing dangles on under-garbage yet"
run owners -n collect why cm/under-garbage
like "$out" "^will be collected: ConfigMap/under-garbage in namespace collect: collected after ConfigMap/garbage" \
  "why: its live owner is garbage itself, so it goes after it"
run owners -n collect dangling --fix -o json
ok $rc "--fix: exit 0"
is "$(printf '%s' "$out" | fixes)" "$(printf '%s\n' 'ConfigMap/garbage -> ConfigMap/never deleted 0' 'ConfigMap/kept -> ConfigMap/never removed 1')" \
  "--fix: the object with no owner left collected, the dangling reference of the one with a live owner removed"
ok "$(kubectl -n collect get cm garbage >/dev/null 2>&1 && echo 1 || echo 0)" "--fix: the garbage is gone"
is "$(kubectl -n collect get cm kept -o jsonpath='{.metadata.ownerReferences[*].name}')" alive "--fix: the kept object keeps its live owner"

# ---- --fix leaves an object in deletion as the GC does (#51) ------------------
# attemptToDeleteItem returns at once for an object being deleted: the GC
# never strips its references, whether it waits on a finalizer of its own
# or on its dependents (foreground).
kubectl create namespace deleting >/dev/null
kubectl -n deleting create cm alive >/dev/null
kubectl -n deleting apply -f - >/dev/null <<YAML
apiVersion: v1
kind: ConfigMap
metadata: {name: held, finalizers: [example.com/hold], ownerReferences: [$(ref v1 ConfigMap never $GONE_CM), $(ref v1 ConfigMap alive "$(uid -n deleting cm alive)")]}
YAML
kubectl -n deleting delete cm held --wait=false >/dev/null
rv_held=$(rv -n deleting cm held)
run owners -n deleting dangling
like "$out" "ConfigMap/held +ConfigMap/never +absent +nothing \\(object in deletion\\)" "in deletion: the GC does nothing"
run owners -n deleting dangling --fix -o json
ok $rc "--fix beside an object in deletion: exit 0 (nothing it may do is left)"
is "$(printf '%s' "$out" | fixes)" "ConfigMap/held -> ConfigMap/never kept 0" "--fix: the reference of the object in deletion kept"
like "$out" "in deletion, and the garbage collector never changes the references" "... and FIX says why"
is "$(rv -n deleting cm held)" "$rv_held" "... the object is not patched"
kubectl -n deleting patch cm held --type=merge -p '{"metadata":{"finalizers":null}}' >/dev/null

# ---- --fix never turns an object the GC keeps into one it deletes ------------
# In namespace "guard": the GC gives up on an object whose references are
# [unresolvable, a Secret the viewer cannot list]. Removing the
# unresolvable one would leave only the unknown one: were that Secret gone,
# the GC would delete the object. --fix keeps it, says why, and the object is
# not patched. An apiVersion no longer served whose UID is a live object of
# a served version is repaired, not removed.
kubectl create namespace guard >/dev/null
kubectl -n guard create secret generic s2 >/dev/null
kubectl -n guard create deployment web2 --image=nginx --replicas=0 >/dev/null
web2=$(uid -n guard deployment web2)
kubectl -n guard apply -f - >/dev/null <<YAML
apiVersion: v1
kind: ConfigMap
metadata: {name: guarded, ownerReferences: [$(ref example.com/v1 Widget w1 $GONE_WIDGET), $(ref v1 Secret s2 "$(uid -n guard secret s2)")]}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: old-api, ownerReferences: [{apiVersion: apps/v1beta1, kind: Deployment, name: web2, uid: $web2, controller: true, blockOwnerDeletion: false}]}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: old-api-gone, ownerReferences: [$(ref apps/v1beta1 Deployment never 0e0e0e0e-0000-4000-8000-000000000000)]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: patch-guarded}
rules: [{apiGroups: [""], resources: [configmaps], resourceNames: [guarded], verbs: [patch]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: viewer-patch-guarded}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: patch-guarded}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: viewer}]
YAML
rv_guarded=$(rv -n guard cm guarded)
run owners --context viewer -n guard dangling cm/guarded --fix --fix-unresolvable -o json
is "$rc" 4 "viewer --fix on [unresolvable, unknown]: exit 4 (the Secrets it could not list hold part of the job)"
is "$(printf '%s' "$out" | fixes)" "$(printf '%s\n' "ConfigMap/guarded -> Secret/s2 kept 0" "ConfigMap/guarded -> Widget/w1 kept 0")" \
  "the unresolvable reference is kept: without it the GC could delete the object (the unknown one is never removed)"
like "$out" "could delete it" "and the finding says why"
is "$(rv -n guard cm guarded)" "$rv_guarded" "the object is not patched at all"
run owners -n guard dangling cm/old-api cm/old-api-gone -o json
like "$(printf '%s' "$out" | findings)" "guard/ConfigMap/old-api -> Deployment/web2 unresolvable none" \
  "a reference by an unserved apiVersion to a live Deployment is unresolvable (the GC never acts)"
run owners -n guard dangling cm/old-api cm/old-api-gone --fix --fix-unresolvable -o json
ok $rc "--fix on unserved apiVersions: exit 0"
is "$(printf '%s' "$out" | fixes)" "$(printf '%s\n' "ConfigMap/old-api -> Deployment/web2 repaired 1" "ConfigMap/old-api-gone -> Deployment/never removed 1")" \
  "repaired where the owner is alive under a served version, removed where it is not"
is "$(refs -n guard cm old-api)" "[{\"apiVersion\":\"apps/v1\",\"blockOwnerDeletion\":false,\"controller\":true,\"kind\":\"Deployment\",\"name\":\"web2\",\"uid\":\"$web2\"}]" \
  "the repaired reference: apiVersion apps/v1, every other field as it was"
run owners -n guard tree deployment/web2
like "$out" "└── ConfigMap/old-api" "and the Deployment's tree shows its dependent again"
run owners -n guard dangling cm/old-api
is "$out" "" "nothing dangling on it any more"

# A reference naming a ConfigMap that is not there, with the UID of another
# one in the same namespace: the owner is absent, not in another namespace.
kubectl -n guard create configmap other-name >/dev/null
kubectl -n guard apply -f - >/dev/null <<YAML
apiVersion: v1
kind: ConfigMap
metadata: {name: misnamed, ownerReferences: [$(ref v1 ConfigMap not-there "$(uid -n guard cm other-name)")]}
YAML
run owners -n guard dangling cm/misnamed -o json
is "$(printf '%s' "$out" | findings)" "guard/ConfigMap/misnamed -> ConfigMap/not-there absent delete-object" \
  "the same UID under another name in the same namespace: absent, not invalid-namespace"

# ---- with the real garbage collector: the predictions come true --------------
# Dependents are custom resources of CRDs created just now: the GC picks new
# types up at its next discovery resync (every 30 s), so owners can predict
# before the GC has seen them. Should the GC have been quicker than us, the
# round is repeated with fresh types.
start_cluster G --gc=on
. "$G/env"
kubectl create namespace other >/dev/null
kubectl apply -f - >/dev/null <<'YAML'
apiVersion: v1
kind: ConfigMap
metadata: {name: live}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: recreated}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: elsewhere, namespace: other}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: owner-role}
YAML
live=$(uid cm live); old=$(uid cm recreated); else_uid=$(uid cm elsewhere -n other); role=$(uid clusterrole owner-role)
kubectl delete cm recreated >/dev/null && kubectl create cm recreated >/dev/null

round() { # round N: CRDs in group gN.example.com and one dependent per case
  local g=g$1.example.com
  for scope in Namespaced:gadgets:Gadget Cluster:doohickeys:Doohickey; do
    IFS=: read -r sc plural kind <<<"$scope"
    kubectl apply -f - >/dev/null <<YAML
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: $plural.$g}
spec:
  group: $g
  scope: $sc
  names: {plural: $plural, singular: ${plural%s}, kind: $kind}
  versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}]
YAML
  done
  kubectl wait --for=condition=Established crd/gadgets.$g crd/doohickeys.$g >/dev/null
  wait_for "$g served" 30 kubectl get gadgets.$g
  wait_for "$g served" 30 kubectl get doohickeys.$g
  kubectl apply -f - >/dev/null <<YAML
apiVersion: $g/v1
kind: Gadget
metadata: {name: gd-absent, ownerReferences: [$(ref v1 ConfigMap never $GONE_CM)]}
---
apiVersion: $g/v1
kind: Gadget
metadata: {name: gd-mismatch, ownerReferences: [$(ref v1 ConfigMap recreated $old)]}
---
apiVersion: $g/v1
kind: Gadget
metadata: {name: gd-elsewhere, ownerReferences: [$(ref v1 ConfigMap elsewhere $else_uid)]}
---
apiVersion: $g/v1
kind: Gadget
metadata: {name: gd-mixed, ownerReferences: [$(ref v1 ConfigMap never $GONE_CM), $(ref v1 ConfigMap live $live)]}
---
apiVersion: $g/v1
kind: Gadget
metadata: {name: gd-unresolvable, ownerReferences: [$(ref example.com/v1 Widget w1 $GONE_WIDGET)]}
---
apiVersion: $g/v1
kind: Gadget
metadata: {name: gd-stuck, ownerReferences: [$(ref v1 ConfigMap never $GONE_CM), $(ref example.com/v1 Widget w1 $GONE_WIDGET)]}
---
apiVersion: $g/v1
kind: Gadget
metadata: {name: gd-stuck-live, ownerReferences: [$(ref example.com/v1 Widget w1 $GONE_WIDGET), $(ref v1 ConfigMap live $live)]}
---
apiVersion: $g/v1
kind: Doohickey
metadata: {name: dh-namespaced-owner, ownerReferences: [$(ref v1 ConfigMap live $live)]}
---
apiVersion: $g/v1
kind: Doohickey
metadata: {name: dh-absent, ownerReferences: [$(ref rbac.authorization.k8s.io/v1 ClusterRole gone-role $GONE_ROLE)]}
---
apiVersion: $g/v1
kind: Doohickey
metadata: {name: dh-live, ownerReferences: [$(ref rbac.authorization.k8s.io/v1 ClusterRole owner-role $role)]}
YAML
  gstate=$(kubectl get gadgets.$g,doohickeys.$g -A -o jsonpath='{range .items[*]}{.metadata.name} {.metadata.resourceVersion}{"\n"}{end}' | sort)
  run owners dangling gadgets.$g,doohickeys.$g -A -o json
  # The prediction counts only if the GC had not touched anything yet.
  [[ $(kubectl get gadgets.$g,doohickeys.$g -A -o jsonpath='{range .items[*]}{.metadata.name} {.metadata.resourceVersion}{"\n"}{end}' | sort) == "$gstate" ]]
}
predicted=1
for n in 1 2 3; do
  if round $n; then predicted=0; break; fi
  echo "# the GC acted before the prediction; another round"
done
G_GROUP=g$n.example.com
(( rc == 0 && predicted == 0 ))
ok $? "gc=on: prediction made before the GC saw the objects (round $n; owners exit $rc)"
got=$(printf '%s' "$out" | findings | sed 's/^default\///; s/^-\///')
want=$(sort <<'EOF'
Doohickey/dh-absent -> ClusterRole/gone-role absent delete-object
Doohickey/dh-namespaced-owner -> ConfigMap/live invalid-namespace none
Gadget/gd-absent -> ConfigMap/never absent delete-object
Gadget/gd-elsewhere -> ConfigMap/elsewhere invalid-namespace delete-object
Gadget/gd-mismatch -> ConfigMap/recreated uid-mismatch delete-object
Gadget/gd-mixed -> ConfigMap/never absent remove-reference
Gadget/gd-stuck -> ConfigMap/never absent none
Gadget/gd-stuck -> Widget/w1 unresolvable none
Gadget/gd-stuck-live -> Widget/w1 unresolvable none
Gadget/gd-unresolvable -> Widget/w1 unresolvable none
EOF
)
is "$got" "$want" "gc=on: the predictions"
gd() { kubectl get "gadgets.$G_GROUP" "$@" 2>/dev/null; }
dh() { kubectl get "doohickeys.$G_GROUP" "$@" 2>/dev/null; }
state() { kubectl get "gadgets.$G_GROUP,doohickeys.$G_GROUP" -A -o jsonpath='{range .items[*]}{.metadata.name} {.metadata.resourceVersion}{"\n"}{end}' | grep -E '^(gd-unresolvable|gd-stuck|gd-stuck-live|dh-namespaced-owner|dh-live) ' | sort; }
kept_before=$(state)
wait_for "the GC to delete what it was predicted to delete" 120 bash -c \
  "! kubectl get gadgets.$G_GROUP gd-absent gd-mismatch gd-elsewhere -o name 2>/dev/null | grep -q . && ! kubectl get doohickeys.$G_GROUP dh-absent -o name 2>/dev/null | grep -q ."
ok $? "the real GC deleted every object reported 'delete-object' (absent, uid-mismatch, invalid-namespace, cluster-scoped absent owner)"
wait_for "the GC to remove gd-mixed's dangling reference" 60 bash -c \
  "[[ \$(kubectl get gadgets.$G_GROUP gd-mixed -o jsonpath='{range .metadata.ownerReferences[*]}{.name} {end}') == 'live ' ]]"
ok $? "the real GC removed just the reference reported 'remove-reference', the object stays"
# Several more GC resyncs (30 s each), then: untouched.
sleep 65
is "$(state)" "$kept_before" "after two more GC resyncs every object reported 'none' is untouched (same resourceVersion)"
is "$(gd gd-stuck -o jsonpath='{range .metadata.ownerReferences[*]}{.name} {end}')" "never w1 " \
  "gd-stuck keeps even its absent reference: the unresolvable one blocks the GC"
is "$(gd gd-stuck-live -o jsonpath='{range .metadata.ownerReferences[*]}{.name} {end}')" "w1 live " \
  "gd-stuck-live keeps its unresolvable reference despite a live owner"
is "$(dh dh-live -o name)" "doohickey.$G_GROUP/dh-live" "a cluster-scoped object with a live cluster-scoped owner stays"

# and owners agrees with the GC's end state
run owners dangling "gadgets.$G_GROUP,doohickeys.$G_GROUP" -A -o json
got=$(printf '%s' "$out" | findings | sed 's/^default\///; s/^-\///')
want=$(sort <<'EOF'
Doohickey/dh-namespaced-owner -> ConfigMap/live invalid-namespace none
Gadget/gd-stuck -> ConfigMap/never absent none
Gadget/gd-stuck -> Widget/w1 unresolvable none
Gadget/gd-stuck-live -> Widget/w1 unresolvable none
Gadget/gd-unresolvable -> Widget/w1 unresolvable none
EOF
)
is "$got" "$want" "gc=on: what is left is exactly what the GC never touches"
before_fix=$(state)
run owners dangling "gadgets.$G_GROUP,doohickeys.$G_GROUP" -A --fix
ok $rc "gc=on: --fix alone exits 0"
is "$(state)" "$before_fix" "gc=on: --fix alone touches nothing the GC never touches (#43: every resourceVersion the same)"
run owners dangling "gadgets.$G_GROUP,doohickeys.$G_GROUP" -A --fix --fix-unresolvable
ok $rc "gc=on: --fix --fix-unresolvable cleans up what the GC never will"
like "$err" $'\nafter the fix: no dangling ownerReferences left; the garbage collector keeps every object fixed$' \
  "gc=on: --fix says the verdict after the fix, from a look at the cluster"
run owners dangling "gadgets.$G_GROUP,doohickeys.$G_GROUP" -A --exit-code
is "$rc" 0 "gc=on: nothing left"
is "$(gd gd-stuck-live -o jsonpath='{range .metadata.ownerReferences[*]}{.name} {end}')" "live " \
  "gc=on: the live owner of gd-stuck-live is still there"

done_testing
