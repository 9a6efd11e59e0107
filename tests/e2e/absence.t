#!/usr/bin/env bash
# No action on an absence the server has not confirmed (issue #43, item 0).
# A scan lists each type at its own moment and a watch of one type lags
# another's: an owner created between two types' lists, or whose watch is
# held back, is missing from what owners sees while its dependent is
# there. The real GC never acts on such an absence (isDangling() reads the
# owner first); neither may owners, in any acting command.
#
# The lag is made, not hoped for: OWNERS_TEST_DELAY_REQUESTS=TEXT=SECONDS
# (cmd/cli/test_hooks.h) sends the requests whose path holds TEXT that much
# later. Each case waits, in owners' own request log (-v=6), until the
# owner's type has been listed (or, for the watch, until the watches run),
# then creates the owner and the dependent naming it, while the
# dependent's type is still held back. Each case checks that the lag
# happened as made (the owner was read from the server: GET .../NAME, a
# read owners makes only for an owner missing from what it listed), that
# the dependent and its reference are still there, and that the real GC,
# judging the same state, does the same.
#
# One cluster with the real GC (--gc=on): its controller-manager is paused
# (SIGSTOP) while owners acts, so that nothing but owners changes anything,
# and the same situations built with kubectl while it runs are the judge.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/delete-lib.sh"
require kubectl:kubectl python3:python3

plan 22
start_cluster C --gc=on
kcm_pid() { cat "$C/kube-controller-manager.pid"; }
NOREF=00000000-0000-4000-8000-0000000000aa

# clusterrole NAME: a ClusterRole (no rules), its UID printed.
clusterrole() {
  kubectl create clusterrole "$1" --verb=get --resource=configmaps >/dev/null && uid clusterrole "$1"
}
# owned NS NAME REFS: a ConfigMap with these ownerReferences (flow YAML list).
owned() {
  mk "$1" <<YAML
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: $2, ownerReferences: $3}}
YAML
}
# refs_of NS NAME: the kinds/names of a ConfigMap's owners, "-" when gone.
refs_of() {
  kubectl -n "$1" get cm "$2" -o jsonpath='{range .metadata.ownerReferences[*]}{.kind}/{.name} {end}' 2>/dev/null ||
    echo -
}
# logged FILE REGEX [COUNT]: FILE (an owners -v=6 log) has COUNT lines matching.
logged() { (( $(grep -cE "$2" "$1" 2>/dev/null) >= ${3:-1} )); }
CR_LIST='/apis/rbac\.authorization\.k8s\.io/v1/clusterroles\?limit=[0-9]+ 200'
CM_LIST='configmaps\?limit=[0-9]+ 200'

for ns in lag-gc lag-watch lag-delete lag-fix judge; do kubectl create ns "$ns" >/dev/null; done
owners gc -n lag-gc --dry-run >/dev/null 2>&1 # discovery cached: the scans start at once

kcm_stop "$C"

# ---- owners gc: an owner created between two types' lists ---------------------
log=$C/gc.log
OWNERS_TEST_DELAY_REQUESTS='configmaps?limit=5' "$OWNERS" gc -n lag-gc -v=6 >"$C/gc.out" 2>"$log" &
pid=$!
wait_for "gc listed clusterroles" 20 logged "$log" "$CR_LIST"
R=$(clusterrole lag-gc-owner)
owned lag-gc c-gc "[$(ref rbac.authorization.k8s.io/v1 ClusterRole lag-gc-owner "$R" "controller: true")]"
lagged=$(logged "$log" "$CM_LIST" && echo no || echo yes)
wait "$pid"; rc=$? out=$(cat "$C/gc.out") err=$(cat "$log"); san_check "gc with lagging lists"
is "$lagged" yes "gc: the ConfigMap came in a list taken after its owner's type was listed without it"
is "$rc" 0 "gc: exit 0"
like "$err" "GET [^ ]*/clusterroles/lag-gc-owner 200" "gc: the owner missing from the lists was read from the server before acting"
is "$(refs_of lag-gc c-gc)" "ClusterRole/lag-gc-owner " "gc: its dependent is neither deleted nor stripped"
unlike "$out" "c-gc" "gc: and nothing is said done to it"

# ---- owners gc --watch: a watch held back ----------------------------------------
log=$C/watch.log
OWNERS_TEST_DELAY_REQUESTS='clusterroles?watch=8' "$OWNERS" gc -n lag-watch --watch -v=7 >"$C/watch.out" 2>"$log" &
pid=$!
wait_for "gc --watch watching" 30 grep -q "gc: watching" "$log"
R=$(clusterrole lag-watch-owner)
owned lag-watch c-watch "[$(ref rbac.authorization.k8s.io/v1 ClusterRole lag-watch-owner "$R")]"
# what the configmaps watch brings is decided while the clusterroles watch is held
wait_for "the new ConfigMap decided" 20 logged "$log" "/clusterroles/lag-watch-owner"
lagged=$(logged "$log" 'GET [^ ]*clusterroles\?watch=1' && echo no || echo yes)
wait_for "the clusterroles watch started" 20 grep -q 'GET [^ ]*clusterroles?watch=1' "$log"
sleep 2
kill -INT "$pid"; wait "$pid"; rc=$? out=$(cat "$C/watch.out") err=$(cat "$log"); san_check "gc --watch with a watch held back"
is "$lagged" yes "gc --watch: the ConfigMap's event came while its owner's watch was held back"
is "$rc" 130 "gc --watch: Ctrl-C ends it (130)"
like "$err" "GET [^ ]*/clusterroles/lag-watch-owner 200" "gc --watch: the owner missing from the watches was read from the server before acting"
is "$(refs_of lag-watch c-watch)" "ClusterRole/lag-watch-owner " "gc --watch: its dependent is neither deleted nor stripped"
unlike "$out" "c-watch" "gc --watch: and nothing is said done to it"

# ---- owners delete: an owner created between a round's two lists ----------------
# c-del names the root and a ClusterRole that does not exist yet: as
# listed, a member of the cascade (every owner in it or gone). Between the
# lists of the round after the root went, the ClusterRole is made and the
# reference pointed at it: the GC, reading it, finds c-del a live owner
# and only removes the root's reference.
kubectl -n lag-delete create configmap root >/dev/null
P=$(uid -n lag-delete cm root)
owned lag-delete c-del "[$(ref v1 ConfigMap root "$P"), $(ref rbac.authorization.k8s.io/v1 ClusterRole lag-delete-owner "$NOREF")]"
log=$C/delete.log
OWNERS_TEST_DELAY_REQUESTS='configmaps?limit=5' "$OWNERS" -n lag-delete delete cm/root --timeout=60s -v=6 >"$C/delete.out" 2>"$log" &
pid=$!
wait_for "the root deleted" 30 logged "$log" 'DELETE [^ ]*/configmaps/root 200'
wait_for "the next round listed clusterroles" 20 logged "$log" "$CR_LIST" 2
R=$(clusterrole lag-delete-owner)
kubectl -n lag-delete patch cm c-del --type=merge -p "{\"metadata\":{\"ownerReferences\":[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"name\":\"root\",\"uid\":\"$P\"},{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"ClusterRole\",\"name\":\"lag-delete-owner\",\"uid\":\"$R\"}]}}" >/dev/null
lagged=$(logged "$log" "$CM_LIST" 2 && echo no || echo yes)
wait "$pid"; rc=$? out=$(cat "$C/delete.out") err=$(cat "$log"); san_check "delete with lagging lists"
is "$lagged" yes "delete: the reference was set between the round's clusterroles and configmaps lists"
is "$rc" 0 "delete: exit 0"
like "$err" "GET [^ ]*/clusterroles/lag-delete-owner 200" "delete: the owner missing from the lists was read from the server before acting"
is "$(refs_of lag-delete c-del)" "ClusterRole/lag-delete-owner " "delete: the dependent is kept, released from the root only"

# ---- owners dangling --fix ---------------------------------------------------------
log=$C/fix.log
OWNERS_TEST_DELAY_REQUESTS='configmaps?limit=5' "$OWNERS" dangling -n lag-fix --fix -v=6 >"$C/fix.out" 2>"$log" &
pid=$!
wait_for "dangling listed clusterroles" 20 logged "$log" "$CR_LIST"
R=$(clusterrole lag-fix-owner)
owned lag-fix c-fix "[$(ref v1 ConfigMap lag-fix-sibling "$NOREF"), $(ref rbac.authorization.k8s.io/v1 ClusterRole lag-fix-owner "$R")]"
lagged=$(logged "$log" "$CM_LIST" && echo no || echo yes)
wait "$pid"; rc=$? out=$(cat "$C/fix.out") err=$(cat "$log"); san_check "dangling --fix with lagging lists"
is "$lagged" yes "dangling --fix: the reference came in a list taken after its owner's type was listed without it"
like "$err" "GET [^ ]*/clusterroles/lag-fix-owner 200" "dangling --fix: the owner missing from the lists was read from the server"
is "$(refs_of lag-fix c-fix)" "ClusterRole/lag-fix-owner " \
  "dangling --fix: the object is not collected: the live owner's reference kept, the absent one's removed (as the GC strips it)"

# ---- the judge: the real GC on the same situations ------------------------------
kill -CONT "$(kcm_pid)"
R=$(clusterrole judge-owner)
kubectl -n judge create configmap root >/dev/null
P=$(uid -n judge cm root)
owned judge c-alone "[$(ref rbac.authorization.k8s.io/v1 ClusterRole judge-owner "$R" "controller: true")]"
owned judge c-both "[$(ref v1 ConfigMap root "$P"), $(ref rbac.authorization.k8s.io/v1 ClusterRole judge-owner "$R")]"
kubectl -n judge delete cm root >/dev/null
wait_for "the GC released c-both" 60 test "$(refs_of judge c-both)" == "ClusterRole/judge-owner "
is "$(refs_of judge c-both)" "ClusterRole/judge-owner " "the real GC: a dependent of a deleted root with a live ClusterRole owner is kept, released from the root only (as owners delete did)"
sleep 3
is "$(refs_of judge c-alone)" "ClusterRole/judge-owner " "the real GC: a ConfigMap owned by a live ClusterRole is kept (as owners gc did)"
# and, running again, it finds nothing to change in what owners left
sleep 2
is "$(refs_of lag-gc c-gc)|$(refs_of lag-watch c-watch)|$(refs_of lag-delete c-del)" \
  "ClusterRole/lag-gc-owner |ClusterRole/lag-watch-owner |ClusterRole/lag-delete-owner " \
  "the real GC, resumed, keeps what owners kept"

# ---- the hook itself --------------------------------------------------------------
run env OWNERS_TEST_DELAY_REQUESTS=nonsense "$OWNERS" gc -n judge --dry-run=client
is "$rc" 2 "a malformed OWNERS_TEST_DELAY_REQUESTS is a usage error"
like "$err" "want TEXT=SECONDS" "  that says the form"
done_testing
