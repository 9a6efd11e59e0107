#!/usr/bin/env bash
# A deadlock is called a deadlock (issue #43, item 5): ConfigMaps that
# block each other (each a dependent of the next, blockOwnerDeletion: true),
# all deleted with kubectl --cascade=foreground, wait forever: the real
# GC's processDeletingDependentsItem waits on each, and its cycle breaker
# acts only on objects not yet in deletion. Replayed as a user meets it,
# with the real garbage collector running (tests/cluster/up --gc=on): it is
# paused (SIGSTOP) only while kubectl deletes a cycle's members, so that
# all of them are in deletion before the GC looks (as it raced in the
# random graphs of the finding), then runs again and stays stuck.
#  - why, finalizers, gc --dry-run (text and -o json) name the deadlock,
#    its members and the command that ends it;
#  - owners delete --cascade=foreground --timeout=60s exits 3 within
#    seconds, saying deadlock, not at --timeout;
#  - the printed command, run, ends it: with the real GC (everything gone),
#    and with the GC stopped (the rest is then plain waiting, which
#    `owners gc` finishes);
#  - cycles with an exit are not called a deadlock (a reference that does
#    not block; a member not yet in deletion), and the real GC ends them.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/delete-lib.sh"
require kubectl:kubectl python3:python3

plan 33

kcm_pid() { cat "$C/kube-controller-manager.pid"; }
# jq_ DOC EXPR: a Python expression over the JSON document d.
jq_() { python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print(eval(sys.argv[2]))' "$1" "$2" 2>/dev/null; }

# ring NS NAME... [-- NONBLOCKING]: ConfigMaps each owned by the next
# (the last by the first) with blockOwnerDeletion: true, except the
# reference of NONBLOCKING, which does not block. Made bare, references
# patched in after (UIDs are needed).
ring() {
  local ns=$1 free= names=() i n owner u
  shift
  while (( $# )); do
    if [[ $1 == -- ]]; then free=$2; break; fi
    names+=("$1"); shift
  done
  kubectl create ns "$ns" >/dev/null
  for n in "${names[@]}"; do kubectl -n "$ns" create configmap "$n" >/dev/null; done
  for i in "${!names[@]}"; do
    n=${names[$i]} owner=${names[$(( (i + 1) % ${#names[@]} ))]}
    u=$(uid -n "$ns" cm "$owner")
    kubectl -n "$ns" patch cm "$n" --type=merge -p "{\"metadata\":{\"ownerReferences\":[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"name\":\"$owner\",\"uid\":\"$u\",\"blockOwnerDeletion\":$([[ $n == "$free" ]] && echo false || echo true)}]}}" >/dev/null
  done
}
# fg_delete NS NAME...: kubectl delete --cascade=foreground, the GC paused meanwhile.
fg_delete() {
  local ns=$1; shift
  kcm_stop "$C"
  kubectl -n "$ns" delete cm "$@" --cascade=foreground --wait=false >/dev/null
  kill -CONT "$(kcm_pid)"
}
left() { kubectl -n "$1" get cm -o name 2>/dev/null | grep -v kube-root-ca | sort | tr '\n' ' '; }
gone() { [[ -z $(left "$1") ]]; }

start_cluster C --gc=on

# ---- two ConfigMaps blocking each other -------------------------------------
ring dl-pair a b
fg_delete dl-pair a b
sleep 5
is "$(left dl-pair)" "configmap/a configmap/b " "pair: the real GC leaves both in foreground deletion (5 s after)"

run owners why -n dl-pair cm/a
is "$rc" 0 "pair: why answers"
like "$out" "^deadlock: ConfigMap/a in namespace dl-pair: in foreground deletion, each of configmap/a, configmap/b blocked by another of them" "pair: why's verdict is deadlock, with the members"
like "$out" "to end it, run: owners finalizers remove configmap/a -n dl-pair --finalizer foregroundDeletion" "pair: why gives the command that ends it"
run owners why -n dl-pair cm/b -o json
is "$(jq_ "$out" 'd["items"][0]["owners"]["verdict"]')" deadlock "pair: why -o json: verdict deadlock"
is "$(jq_ "$out" '" ".join(m["name"] for m in d["items"][0]["owners"]["deadlock"]["members"])')" "a b" "pair: why -o json: the members"
is "$(jq_ "$out" 'd["items"][0]["owners"]["deadlock"]["command"]')" "owners finalizers remove configmap/a -n dl-pair --finalizer foregroundDeletion" "pair: why -o json: the command"

run owners finalizers -n dl-pair
like "$out" "foregroundDeletion: a deadlock: the dependent that blocks owner deletion waits on this object in turn" "pair: finalizers explains the deadlock"
like "$out" "to end it, run: owners finalizers remove configmap/a -n dl-pair --finalizer foregroundDeletion" "pair: finalizers gives the command"
unlike "$out" "stuck \(explained above\)"$'\n'"[^ ]" "pair: not left at 'stuck (explained above)' alone"
run owners finalizers -n dl-pair -o json
is "$(jq_ "$out" '[f["reason"] for i in d["items"] for f in i["owners"]["finalizers"]]')" "['deadlock', 'deadlock']" "pair: finalizers -o json: reason deadlock on both"

run owners gc -n dl-pair --dry-run=client
like "$out" "ConfigMap/a +processDeletingDependentsItem +wait \(deadlock\) .*deadlock: configmap/a, configmap/b are all in foreground deletion" "pair: gc --dry-run's backlog row says deadlock"
like "$err" "2 waiting \(2 in a deadlock" "pair: gc --dry-run's summary counts them"
run owners gc -n dl-pair --dry-run=client -o json
is "$(jq_ "$out" '[i["owners"]["waitsOn"] for i in d["items"]]')" "['deadlock', 'deadlock']" "pair: gc -o json: waitsOn deadlock"
is "$(jq_ "$out" 'd["items"][0]["owners"]["deadlock"]["command"]')" "owners finalizers remove configmap/a -n dl-pair --finalizer foregroundDeletion" "pair: gc -o json: the command"
is "$(jq_ "$out" 'd["metadata"]["summary"]["deadlocked"]')" 2 "pair: gc -o json: summary.deadlocked"

start=$SECONDS
run owners delete -n dl-pair cm/a --cascade=foreground --timeout=60s
took=$((SECONDS - start))
is "$rc" 3 "pair: owners delete exits 3"
ok $(( took < 15 ? 0 : 1 )) "pair: at once, not at --timeout (${took}s)"
like "$err" "error: deadlock: configmap/a, configmap/b .*to end it, run: owners finalizers remove configmap/a -n dl-pair --finalizer foregroundDeletion" "pair: delete says deadlock, the members and the command"
cmd=$(sed -n 's/.*to end it, run: \(owners finalizers remove .*\)$/\1/p' <<<"$err" | head -1)
# the command as printed, run as a person would
run eval "$cmd"
is "$rc" 0 "pair: the printed command runs ($cmd)"
wait_for "the pair to go" 30 gone dl-pair
ok $? "pair: the printed command ends it: the real GC takes the other one, both are gone"

# ---- cycles with an exit: waiting, not deadlock -------------------------------
# (the GC stays paused while they are looked at: running, it ends them at once)
ring dl-exit a b -- b
ring dl-live a b
kcm_stop "$C"
kubectl -n dl-exit delete cm a b --cascade=foreground --wait=false >/dev/null
kubectl -n dl-live delete cm a --cascade=foreground --wait=false >/dev/null
run owners why -n dl-exit cm/b
like "$out" "^waiting: ConfigMap/b" "exit (b does not block a): why says waiting, not deadlock"
run owners gc -n dl-exit --dry-run=client
unlike "$out$err" "deadlock" "exit: gc --dry-run names no deadlock"
run owners why -n dl-live cm/a
like "$out" "^waiting: ConfigMap/a" "live member (b not in deletion, the GC's cycle breaker applies): why says waiting"
run owners gc -n dl-live --dry-run=client
like "$out" "ConfigMap/b .*unblock references" "live member: gc --dry-run shows the cycle breaker, no deadlock"
kill -CONT "$(kcm_pid)"
wait_for "the cycles with an exit to go" 30 gone dl-exit && wait_for "" 30 gone dl-live
ok $? "cycles with an exit: the real GC ends them (all gone)"

# ---- three, ended with the GC stopped ----------------------------------------
ring dl-three x y z
fg_delete dl-three x y z
sleep 3
is "$(left dl-three)" "configmap/x configmap/y configmap/z " "three: the real GC leaves all three"
run owners why -n dl-three cm/y -o json
is "$(jq_ "$out" '" ".join(m["name"] for m in d["items"][0]["owners"]["deadlock"]["members"])')" "x y z" "three: why names the three members"
start=$SECONDS
run owners delete -n dl-three cm/x --cascade=foreground --timeout=60s
took=$((SECONDS - start))
ok $(( rc == 3 && took < 15 ? 0 : 1 )) "three: owners delete exits 3 at once (${took}s)"
cmd=$(sed -n 's/.*to end it, run: \(owners finalizers remove .*\)$/\1/p' <<<"$err" | head -1)
kcm_stop "$C"
run eval "$cmd"
is "$rc" 0 "three, GC stopped: the printed command runs ($cmd)"
run owners why -n dl-three cm/y
like "$out" "^waiting: ConfigMap/y" "three, GC stopped: what is left is no deadlock any more, only waiting on the GC"
run owners gc -n dl-three
is "$rc" 0 "three, GC stopped: owners gc does the GC's work"
is "$(left dl-three)" "" "three, GC stopped: all gone"
kill -CONT "$(kcm_pid)"
done_testing
