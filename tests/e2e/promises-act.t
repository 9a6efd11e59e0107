#!/usr/bin/env bash
# Issue #43, where people act on what owners prints, replayed as a new user
# met it, on one cluster whose garbage collector runs (--gc=on: the real GC
# finishes what owners started, and judges what --fix may touch):
#  1. `dangling --fix` does what the GC would and nothing more: a reference
#     on an object the GC never acts on (GC WILL: nothing, ever: a
#     namespaced owner of a ClusterRole, an owner whose apiVersion is not
#     served) is kept unless --fix-unresolvable, which says its cost; a
#     read-only user's --fix asks for its permissions first: exit 4, no
#     PATCH sent, nothing changed;
#  4. the command an interrupted (Ctrl-C) or timed-out delete, and an
#     interrupted --scale-first, tells a person to run works once the GC
#     finished the job: exit 0, "already done"; a plain delete of a missing
#     object still fails as kubectl's does; a name re-created meanwhile is
#     left alone;
#     So do the rest it prints: the finalizers remove command (of delete's
#     timeout, finalizers, why: --uid=UID), --wait=false's and tree's
#     (--resume=UID): run after someone else finished the work, exit 0
#     "already done"; on a re-created name, nothing touched;
#  7. a wait that lasts says so in a log (stderr not a terminal): a line at
#     each change, at once, and at least every 30 s (OWNERS_TEST_PROGRESS_EVERY
#     shortens it here), never the terminal's \r line;
#  9. bare --dry-run is kubectl's deprecated spelling: warned, and no
#     example of owners' own uses it; --wait=false counts what is left
#     without the roots it just deleted.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/delete-lib.sh"
require kubectl:kubectl

plan 65

start_cluster C --gc=on

rv() { kubectl get "$@" -o jsonpath='{.metadata.resourceVersion}'; }
refs() { kubectl get "$@" -o jsonpath='{.metadata.ownerReferences}'; }

# ---- 1: dangling --fix does what the GC would, nothing more ----------------
kubectl create ns fixp >/dev/null
kubectl -n fixp create cm live >/dev/null
live=$(uid -n fixp cm live)
kubectl apply -f - >/dev/null <<YAML
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: promises-cr, ownerReferences: [$(ref v1 ConfigMap live "$live")]}
YAML
mk fixp <<YAML
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: dep-v9, ownerReferences: [$(ref example.com/v9 Widget w 0e0e0e0e-0000-4000-8000-000000000009)]}}
YAML
rv_cr=$(rv clusterrole promises-cr); rv_v9=$(rv -n fixp cm dep-v9)
run owners dangling -A --fix --dry-run=client
ok $rc "dangling -A --fix --dry-run=client: exit 0"
like "$out" "ClusterRole/promises-cr +ConfigMap/live +invalid-namespace +nothing, ever +kept \\(left as it is: the garbage collector never acts on this object\\)" \
  "a ClusterRole naming a namespaced owner (nothing, ever): kept, not 'would remove'"
like "$out" "ConfigMap/dep-v9 +Widget/w +unresolvable +nothing, ever +kept \\(left as it is" \
  "an owner whose apiVersion (example.com/v9) is not served (nothing, ever): kept"
like "$err" "would leave 2 references on 2 objects as they are: .*--fix-unresolvable removes such references, and then, if their API comes back or their owner becomes resolvable, the object is never collected through them" \
  "the choice that would remove them is named, with its consequence"
run owners dangling -A --fix
ok $rc "--fix: exit 0"
is "$(rv clusterrole promises-cr) $(rv -n fixp cm dep-v9)" "$rv_cr $rv_v9" "--fix changed neither object (resourceVersions the same)"
run owners -n fixp dangling --fix-unresolvable
is "$rc" 2 "--fix-unresolvable without --fix or --dry-run: usage error"
run owners dangling -A --dry-run=client --fix-unresolvable
is "$(printf '%s\n' "$out" | grep -cE '(promises-cr|dep-v9) .*would remove$')" 2 "--dry-run=client --fix-unresolvable: both would be removed"
# a read-only user (the view role) asks for the same
run owners --context viewer dangling -A --fix --fix-unresolvable -v=6
is "$rc" 4 "viewer --fix: exit 4 (incomplete), as delete and gc"
like "$err" "error: cannot patch configmap/dep-v9: forbidden: no patch permission on configmaps in namespace 'fixp' \\(asked before any change\\)" \
  "  says which permission is missing, asked before any change"
like "$err" "nothing was deleted or changed: the fix needs" "  and that nothing was changed"
is "$(grep -cE '^(PATCH|DELETE) ' <<<"$err")" 0 "  no PATCH or DELETE was sent (the request log, -v=6)"
like "$out" "ConfigMap/dep-v9 +Widget/w +unresolvable +nothing, ever$" "  the findings are still shown"
is "$(rv clusterrole promises-cr) $(rv -n fixp cm dep-v9)" "$rv_cr $rv_v9" "  nothing changed"
run owners dangling -A --fix --fix-unresolvable
ok $rc "--fix --fix-unresolvable: exit 0"
is "$(refs clusterrole promises-cr)|$(refs -n fixp cm dep-v9)" "|" "  both references removed, as asked by name"

# ---- 4: the command owners tells a person to run works ---------------------
# held NS ROOT CHILD: a root and a dependent that blocks its deletion,
# held by a finalizer nobody removes (until the test does: "someone else").
held() {
  kubectl -n "$1" create cm "$2" >/dev/null
  mk "$1" <<YAML
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: $3, finalizers: [example.com/hold], ownerReferences: [$(ref v1 ConfigMap "$2" "$(uid -n "$1" cm "$2")" "blockOwnerDeletion: true")]}}
YAML
}
in_deletion() { [[ -n $(meta "$1" cm "$2" '{.metadata.deletionTimestamp}') ]]; }
# the command printed after "run this to finish it:" (or "to finish:"), as $OWNERS
# ("false" when there is none: running nothing is no success)
printed() { local c; c=$(grep -A1 -E "run this to finish it:$" <<<"$1" | tail -1 | sed 's/^ *owners /"$OWNERS" /'); echo "${c:-false}"; }

kubectl create ns resume >/dev/null
held resume root1 child1
"$OWNERS" -n resume delete cm/root1 --cascade=foreground >"$C/int.out" 2>"$C/int.err" &
pid=$!
wait_for "root1 to enter foreground deletion" 30 in_deletion resume root1
sleep 1; kill -INT $pid; wait $pid; rc=$?; out=$(cat "$C/int.out"); err=$(cat "$C/int.err"); san_check "delete interrupted"
is "$rc" 130 "Ctrl-C during a foreground delete: exit 130"
cmd=$(printed "$err")
like "$cmd" "delete cm/root1 --cascade=foreground --resume=$(uid -n resume cm root1)$" "  the printed command names the root's UID"
unhold resume cm child1
wait_for "the GC to finish the cascade" 60 gone resume cm root1; ok $? "the cluster's GC finishes the cascade"
run eval "$cmd"
is "$rc" 0 "the printed command, run after the GC finished the job: exit 0"
like "$err" "^already done: nothing is left of the cascade this command was finishing" "  and says already done"
run owners -n resume delete cm/root1
is "$rc" 1 "a plain delete of the same (missing) object still fails, as kubectl's"
like "$err" "configmaps 'root1' not found in namespace 'resume'" "  not found"

held resume root2 child2
run owners -n resume delete cm/root2 --cascade=foreground --timeout=3s
is "$rc" 3 "a foreground delete held by a finalizer: timed out, exit 3"
cmd=$(printed "$err")
like "$cmd" "delete cm/root2 --cascade=foreground --timeout=3s --resume=$(uid -n resume cm root2)$" "  a timeout prints the command that finishes it too"
fin_cmd=$(grep -oE 'if that is gone: owners finalizers remove .*' <<<"$err" | sed 's/^if that is gone: owners /"$OWNERS" /'); fin_cmd=${fin_cmd:-false}
like "$fin_cmd" "finalizers remove configmap/child2 -n resume --finalizer example.com/hold --uid=$(uid -n resume cm child2)$" \
  "  and the finalizers remove command that ends the wait, with the held object's UID"
# the printed command run as printed while the hold is still there: it
# times out again and prints itself, --resume once (the option as parsed
# says it is there: not named twice)
run eval "$cmd"
is "$rc" 3 "the printed command, run while the finalizer still holds: timed out again, exit 3"
again=$(printed "$err")
is "$again" "$cmd" "  and it prints the same command, --resume named once"
unhold resume cm child2
wait_for "the GC to finish root2" 60 gone resume cm root2
kubectl -n resume create cm root2 >/dev/null   # the name re-created meanwhile
new_root2=$(uid -n resume cm root2)
run eval "$cmd"
is "$rc" 0 "the printed command after the GC finished, the name re-created meanwhile: exit 0"
like "$err" "configmap/root2 in namespace resume is not the object the cascade started from \\(UID $new_root2, not one of --resume\\): left alone" \
  "  the new object of that name is not the cascade's: said"
is "$(uid -n resume cm root2)" "$new_root2" "  and left alone"
run eval "$fin_cmd"
is "$rc" 0 "the timeout's finalizers remove command, run after the finalizer went and the GC finished: exit 0"
like "$out" "^configmap/child2: already done: configmaps 'child2' in namespace 'resume' is gone" "  and says already done"
run owners -n resume finalizers remove cm/child2 --finalizer example.com/hold
is "$rc" 1 "the same without --uid on the missing object still fails, as kubectl's"

# finalizers and why print the command; run after the controller (the
# test) removed the finalizer, then on a name re-created meanwhile
mk resume <<YAML
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: held3, finalizers: [example.com/hold]}}
YAML
kubectl -n resume delete cm held3 --wait=false >/dev/null
held3=$(uid -n resume cm held3)
run owners -n resume finalizers cm/held3
by_fin=$(grep -oE 'if so: owners finalizers remove .*' <<<"$out" | sed 's/^if so: owners /"$OWNERS" /'); by_fin=${by_fin:-false}
like "$by_fin" "finalizers remove configmap/held3 -n resume --finalizer example.com/hold --uid=$held3$" "owners finalizers prints the remove command with the object's UID"
run owners -n resume why cm/held3
by_why=$(grep -oE 'if its controller is gone: owners finalizers remove .*' <<<"$out" | sed 's/^if its controller is gone: owners /"$OWNERS" /'); by_why=${by_why:-false}
like "$by_why" "finalizers remove ConfigMap/held3 -n resume --finalizer example.com/hold --uid=$held3$" "owners why prints it too"
unhold resume cm held3
wait_for "held3 to go" 30 gone resume cm held3
run eval "$by_fin"
is "$rc" 0 "finalizers' command, run after someone else removed the finalizer: exit 0"
like "$out" "already done: .*held3.* is gone" "  already done"
mk resume <<YAML
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: held3, finalizers: [example.com/hold]}}
YAML
kubectl -n resume delete cm held3 --wait=false >/dev/null
run eval "$by_why"
is "$rc" 0 "why's command on the name re-created (another UID, held too): exit 0"
like "$out" "already done: the object this command was for is gone; .*held3.* is another one \\(UID $(uid -n resume cm held3), not one of --uid\\): left alone" "  says so"
is "$(meta resume cm held3 '{.metadata.finalizers}')" '["example.com/hold"]' "  and the new object keeps its finalizer"
unhold resume cm held3

# tree on a root gone while a dependent (held) still names it
kubectl -n resume create cm root4 >/dev/null
root4=$(uid -n resume cm root4)
mk resume <<YAML
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: child4, finalizers: [example.com/hold], ownerReferences: [$(ref v1 ConfigMap root4 "$root4")]}}
YAML
kubectl -n resume delete cm root4 >/dev/null
wait_for "the GC to put child4 in deletion" 30 in_deletion resume child4
run owners -n resume tree cm/root4
by_tree=$(grep -oE "'owners delete [^']*' finishes it" <<<"$err" | sed "s/^'owners /\"\$OWNERS\" /; s/' finishes it$//"); by_tree=${by_tree:-false}
like "$by_tree" "delete configmaps/root4 -n resume --resume=$root4$" "tree on a gone root still named: 'owners delete ... --resume=UID' finishes it"
unhold resume cm child4
wait_for "child4 to go" 30 gone resume cm child4
run eval "$by_tree"
is "$rc" 0 "that command, run after the GC finished: exit 0"
like "$err" "^already done" "  already done"

# --scale-first: a ReplicaSet whose pods never go (no controller runs here)
kubectl -n resume apply -f - >/dev/null <<'YAML'
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: rs1}
spec:
  replicas: 1
  selector: {matchLabels: {app: rs1}}
  template:
    metadata: {labels: {app: rs1}}
    spec: {containers: [{name: c, image: example.com/none}]}
YAML
kubectl -n resume patch rs rs1 --subresource=status --type=merge -p '{"status":{"replicas":1}}' >/dev/null
scaled() { [[ $(kubectl -n resume get rs rs1 -o jsonpath='{.spec.replicas}') == 0 ]]; }
OWNERS_TEST_PROGRESS_EVERY=1 "$OWNERS" -n resume delete rs/rs1 --scale-first >"$C/sf.out" 2>"$C/sf.err" &
pid=$!
wait_for "the scale-down of rs1" 30 scaled
sleep 4; kill -INT $pid; wait $pid; rc=$?; out=$(cat "$C/sf.out"); err=$(cat "$C/sf.err"); san_check "scale-first interrupted"
is "$rc" 130 "Ctrl-C during --scale-first: exit 130"
# (7) its stderr is a file: the wait said in lines, each second here
is "$(grep -cE '^delete: scaling down replicaset.apps/rs1 in namespace resume: 0 of 1 replica gone; 1 replica left \([0-9]+s so far\)$' <<<"$err")" \
  "$(grep -c '^delete: scaling down' <<<"$err")" "(7) a scale-down in a log: its lines say how many of its replicas are gone and what it waits on"
ok $(( $(grep -c '^delete: scaling down' <<<"$err") >= 2 ? 0 : 1 )) "  at least one a second while nothing changes (here OWNERS_TEST_PROGRESS_EVERY=1): 2 or more"
cmd=$(grep '^to finish: ' <<<"$err" | sed 's/^to finish: owners /"$OWNERS" /'); cmd=${cmd:-false}
like "$cmd" "delete rs/rs1 --scale-first --resume=$(uid -n resume rs rs1)$" "  the printed command names the root's UID"
kubectl -n resume delete rs rs1 --wait=true >/dev/null
run eval "$cmd"
is "$rc" 0 "that command, after someone else deleted the ReplicaSet: exit 0"
like "$err" "^already done" "  and says already done"

# ---- 7: a wait that lasts says so in a log -----------------------------------
kubectl create ns logs >/dev/null
kubectl -n logs create cm top >/dev/null
for k in a b; do mk logs <<YAML
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: $k, finalizers: [example.com/hold], ownerReferences: [$(ref v1 ConfigMap top "$(uid -n logs cm top)" "blockOwnerDeletion: true")]}}
YAML
done
# the 30 s of a silence as a user has them: every line here is a change
"$OWNERS" -n logs delete cm/top --cascade=foreground --timeout=60s >"$C/log.out" 2>"$C/log.err" &
pid=$!
sleep 4; unhold logs cm a; sleep 3; unhold logs cm b
wait $pid; rc=$?; out=$(cat "$C/log.out"); err=$(cat "$C/log.err"); san_check "delete, stderr a file"
is "$rc" 0 "a foreground delete held 7 s, stderr a file: exit 0"
ok $(( $(grep -cE '^delete: foreground cascade: 0 deleted, [0-9]+ left; waiting on ConfigMap/[ab] .*\([0-9]+s so far\)$' <<<"$err") >= 1 ? 0 : 1 )) \
  "  past its first 2 s it says what it waits on, in a line of its own"
is "$(grep '^delete: ' <<<"$err" | sed 's/ ([0-9]*s so far)$//' | uniq -d)" "" \
  "  and says it again only when it changed (no line repeats the one before within 30 s)"
like "$(grep -E '^delete: foreground cascade: 1 deleted' <<<"$err")" "waiting on ConfigMap/[ab] .*\\([0-9]s so far\\)$" \
  "  a dependent gone is a change: said at once (before 10 s, not at the 30 s mark)"
unlike "$err" $'[\r\033]' "  no redrawn line in a log: no \\r, no escape sequence"
kubectl -n logs create cm top2 >/dev/null
mk logs <<YAML
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: c, finalizers: [example.com/hold], ownerReferences: [$(ref v1 ConfigMap top2 "$(uid -n logs cm top2)" "blockOwnerDeletion: true")]}}
YAML
run env OWNERS_TEST_PROGRESS_EVERY=1 "$OWNERS" -n logs delete cm/top2 --cascade=foreground --timeout=6s
is "$rc" 3 "a foreground delete held until --timeout=6s: exit 3"
ok $(( $(grep -cE '^delete: foreground cascade: 0 deleted, [0-9]+ left; waiting on ConfigMap/c \(finalizers: example.com/hold\)' <<<"$err") >= 3 ? 0 : 1 )) \
  "  while nothing changes, a line at least every interval (1 s here): 3 or more in its last 4 s"
unhold logs cm c
run owners -n logs delete cm/gone-already --ignore-not-found
is "$err" "" "a delete over at once says nothing on stderr (no line within the first 2 s)"

# ---- 9: bare --dry-run; --wait=false's count --------------------------------
run owners -n resume delete cm/missing-too --dry-run --ignore-not-found
like "$err" "warning: --dry-run is deprecated and can be replaced with --dry-run=client" "bare --dry-run: kubectl's deprecation warning"
bare=""
for c in tree graph dangling finalizers "finalizers remove" delete gc why; do
  bare+=$(owners $c --help 2>/dev/null | grep -E '^  owners .*--dry-run( |$)')
done
bare+=$(grep -hE '(^|\$ )owners .*--dry-run( |$)' "$E2E_ROOT/README.md" "$E2E_ROOT"/man/*.1)
is "$bare" "" "no example in --help, man pages or README uses the deprecated bare form"

kubectl create ns nowait >/dev/null
kubectl -n nowait create cm top >/dev/null
for k in a b c; do mk nowait <<YAML
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: kid-$k, ownerReferences: [$(ref v1 ConfigMap top "$(uid -n nowait cm top)")]}}
YAML
done
run owners -n nowait delete cm/top --wait=false
is "$rc" 0 "--wait=false: exit 0"
like "$err" "^not waiting \\(--wait=false\\): 1 change sent; 3 other objects of the cascade are still there" \
  "  a root and 3 dependents, the root deleted: 3 others left, not 4"
goes_on=$(grep -oE "\('owners [^']*' goes on" <<<"$err" | sed "s/^('owners /\"\$OWNERS\" /; s/' goes on$//"); goes_on=${goes_on:-false}
like "$goes_on" "delete cm/top --wait=false --resume=[0-9a-f-]+$" "  and names the command that goes on, with the root's UID"
kids_gone() { gone nowait cm kid-a && gone nowait cm kid-b && gone nowait cm kid-c; }
wait_for "the GC to collect the kids" 60 kids_gone
run eval "$goes_on"
is "$rc" 0 "that command, run after the GC finished: exit 0"
like "$err" "^already done" "  already done"

done_testing
