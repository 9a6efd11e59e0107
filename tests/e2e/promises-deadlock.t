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

plan 56

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
# remedy STDERR: the one command delete prints to end a deadlock and finish
remedy() { sed -n '/^to end the deadlock and finish the cascade, run:$/{n;s/^  //p;}' <<<"$1"; }
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
like "$err" "error: deadlock: configmap/a, configmap/b are all in foreground deletion, each blocked by another of them: the garbage collector never ends it" "pair: delete says deadlock and the members"
cmd=$(remedy "$err")
like "$cmd" "^owners finalizers remove configmap/a -n dl-pair --finalizer foregroundDeletion; owners delete -n dl-pair cm/a --cascade=foreground --timeout=60s --resume=[-0-9a-f]+$" \
  "pair: one remedy: the command that ends the deadlock, then the one that finishes the cascade"
is "$(grep -c 'run:\|run this' <<<"$err")" 1 "pair: no second remedy ('run this to finish it' is part of the one)"
# the command as printed, run as a person would
run eval "$cmd"
is "$rc" 0 "pair: the printed command runs ($cmd)"
wait_for "the pair to go" 30 gone dl-pair
ok $? "pair: the printed command ends it: both are gone"

# ---- --wait=false: one look after its deletes (#51) ----------------------------
ring dl-nowait a b
fg_delete dl-nowait a b
run owners delete -n dl-nowait cm/a --cascade=foreground --wait=false
is "$rc" 3 "--wait=false: one look after its deletes finds the deadlock: exit 3"
like "$err" "error: deadlock: configmap/a, configmap/b are all in foreground deletion" "--wait=false: the deadlock named"
is "$(grep -c 'run:' <<<"$err")" 1 "--wait=false: one remedy"
cmd=$(remedy "$err")
run eval "$cmd"
is "$rc" 0 "--wait=false: the remedy runs as printed ($cmd)"
wait_for "the pair to go" 30 gone dl-nowait
ok $? "--wait=false: and the pair is gone"

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
run owners finalizers -n dl-three
is "$(grep -c 'to end it, run:' <<<"$out")" 3 "three: finalizers says each entry's remedy once, not once per nested member"
start=$SECONDS
run owners delete -n dl-three cm/x --cascade=foreground --timeout=60s
took=$((SECONDS - start))
ok $(( rc == 3 && took < 15 ? 0 : 1 )) "three: owners delete exits 3 at once (${took}s)"
cmd=$(remedy "$err")
kcm_stop "$C"
run eval "$cmd"
is "$rc" 0 "three, GC stopped: the printed command runs ($cmd)"
is "$(left dl-three)" "" "three, GC stopped: the remedy's own delete --resume finishes what the GC would: all gone"
run owners gc -n dl-three
is "$rc" 0 "three, GC stopped: owners gc finds nothing left to do"
kill -CONT "$(kcm_pid)"

# ---- a deadlock does not stop the cascade around it (#51) ---------------------
# c1 names itself as a blocking owner, c2 is c1's blocking dependent, c3 is
# c2's, not blocking. A foreground delete of c1: the real GC deletes c2 and
# c3 and leaves c1 in deletion forever. owners does the same, then names
# the deadlock and exits 3, with one remedy that works.
self_chain() { # NS GC-ON: the three ConfigMaps
  local ns=$1 u1 u2
  kubectl create ns "$ns" >/dev/null
  kubectl -n "$ns" create configmap c1 >/dev/null
  u1=$(uid -n "$ns" cm c1)
  kubectl -n "$ns" patch cm c1 --type=merge -p "{\"metadata\":{\"ownerReferences\":[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"name\":\"c1\",\"uid\":\"$u1\",\"blockOwnerDeletion\":true}]}}" >/dev/null
  printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c2, ownerReferences: [{apiVersion: v1, kind: ConfigMap, name: c1, uid: %s, blockOwnerDeletion: true}]}\n' "$u1" |
    kubectl -n "$ns" apply -f - >/dev/null
  u2=$(uid -n "$ns" cm c2)
  printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c3, ownerReferences: [{apiVersion: v1, kind: ConfigMap, name: c2, uid: %s}]}\n' "$u2" |
    kubectl -n "$ns" apply -f - >/dev/null
}
self_chain dl-self-gc
kubectl -n dl-self-gc delete cm c1 --cascade=foreground --wait=false >/dev/null
wait_for "the real GC to take c2 and c3" 30 bash -c "[[ \$(kubectl -n dl-self-gc get cm -o name | grep -v kube-root-ca) == configmap/c1 ]]"
is "$(left dl-self-gc)" "configmap/c1 " "self-chain, the real GC: c2 and c3 deleted, c1 left in deletion"
self_chain dl-self
kcm_stop "$C"
start=$SECONDS
run owners delete -n dl-self cm/c1 --cascade=foreground --timeout=60s
took=$((SECONDS - start))
ok $(( rc == 3 && took < 15 ? 0 : 1 )) "self-chain, GC stopped: owners delete exits 3 at once (${took}s)"
is "$(left dl-self)" "configmap/c1 " "self-chain: owners deleted c2 and c3 first, as the GC does; c1 left"
like "$err" "error: deadlock: configmap/c1 blocks its own foreground deletion: the garbage collector never ends it" "self-chain: the deadlock named"
unlike "$err" "delete next" "self-chain: nothing left undone around it"
is "$(grep -c 'run:\|run this' <<<"$err")" 1 "self-chain: one remedy"
cmd=$(remedy "$err")
run eval "$cmd"
is "$rc" 0 "self-chain: the remedy runs as printed ($cmd)"
is "$(left dl-self)" "" "self-chain: and everything is gone"
# the same remedy, run once the work was finished (here, by its own first
# run): the removal finds the member gone, and the resume says it is done
run eval "$cmd"
is "$rc|$(tail -n 1 <<<"$err")" "0|already done: nothing is left of the cascade this command was finishing (UID $(sed 's/.*--resume=//' <<<"$cmd")): the garbage collector or someone else finished it" \
  "self-chain: the remedy run again after the work is done: exit 0, already done"
kill -CONT "$(kcm_pid)"

# Two owners deadlocked in the middle of a larger cascade: root r owns x
# (which owns x1), a and b (blocking); a and b own each other (blocking),
# each owns a leaf that does not block, and both are already in foreground
# deletion (deleted so while the GC was paused) when r is deleted. The real
# GC deletes x, x1 and both leaves, and leaves r, a and b in deletion.
mid_cascade() {
  local ns=$1 r a b
  kubectl create ns "$ns" >/dev/null
  for n in r x x1 a b a-leaf b-leaf; do kubectl -n "$ns" create configmap "$n" >/dev/null; done
  r=$(uid -n "$ns" cm r) a=$(uid -n "$ns" cm a) b=$(uid -n "$ns" cm b)
  own() { kubectl -n "$ns" patch cm "$1" --type=merge -p "{\"metadata\":{\"ownerReferences\":[$2]}}" >/dev/null; }
  ref() { echo "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"name\":\"$1\",\"uid\":\"$2\",\"blockOwnerDeletion\":$3}"; }
  own x "$(ref r "$r" true)"
  own x1 "$(ref x "$(uid -n "$ns" cm x)" false)"
  own a "$(ref r "$r" true),$(ref b "$b" true)"
  own b "$(ref r "$r" true),$(ref a "$a" true)"
  own a-leaf "$(ref a "$a" false)"
  own b-leaf "$(ref b "$b" false)"
  kcm_stop "$C"
  kubectl -n "$ns" delete cm a b --cascade=foreground --wait=false >/dev/null
}
mid_cascade dl-mid-gc
kubectl -n dl-mid-gc delete cm r --cascade=foreground --wait=false >/dev/null
kill -CONT "$(kcm_pid)"
wait_for "the real GC to take what the deadlock does not hold" 30 \
  bash -c "[[ \$(kubectl -n dl-mid-gc get cm -o name | grep -v kube-root-ca | sort | tr '\n' ' ') == 'configmap/a configmap/b configmap/r ' ]]"
is "$(left dl-mid-gc)" "configmap/a configmap/b configmap/r " "mid-cascade, the real GC: x, x1 and the leaves deleted; r, a, b left"
mid_cascade dl-mid
run owners delete -n dl-mid cm/r --cascade=foreground --timeout=60s
is "$rc" 3 "mid-cascade, GC stopped: owners delete exits 3"
is "$(left dl-mid)" "configmap/a configmap/b configmap/r " "mid-cascade: owners deletes what the GC deletes, and leaves what it leaves"
like "$err" "error: deadlock: configmap/a, configmap/b, configmap/r are all in foreground deletion" "mid-cascade: the deadlock named, r waiting on it among its members"
is "$(grep -c 'run:\|run this' <<<"$err")" 1 "mid-cascade: one remedy"
cmd=$(remedy "$err")
run eval "$cmd"
is "$rc" 0 "mid-cascade: the remedy runs as printed ($cmd)"
is "$(left dl-mid)" "" "mid-cascade: and everything is gone"
kill -CONT "$(kcm_pid)"
done_testing
