#!/usr/bin/env bash
# owners gc (issue #36): the garbage collector's whole job from the client,
# checked against the real one.
#
# Two clusters: OFF (--gc=stalled: the apiserver adds the GC's finalizers,
# no collector runs) and ON (--gc=on: kube-controller-manager runs the
# garbage collector).
#
# 1. The differential: batches of random ownership graphs
#    (tests/e2e/gcgraph.py: chains, diamonds, cycles, self-references,
#    several owners blocking and not, cluster-scoped owners, stale UIDs,
#    absent names, unserved apiVersions, cluster-scoped objects naming
#    namespaced owners, owners in the other namespace, foreign and GC
#    finalizers) built alike in both, ON's controller-manager paused
#    meanwhile. Then ON's GC runs and `owners gc -A` runs on OFF, and each
#    graph's settled state must be identical; then one object of each graph
#    is deleted with `kubectl delete --cascade=background|foreground|orphan`
#    in both and the comparison is made again. In the last batch `owners
#    gc` is killed (-9) at a random moment first and run again.
#    The real GC is not deterministic (its workers race); a graph that
#    differs is run again by it (see compare below), and owners' end state
#    must be one the real GC reaches. Those graphs are counted and named;
#    any other difference fails.
#    The same once more with `owners gc --watch` running on OFF while the
#    graphs are built and their roots deleted (live), and `owners gc -A`
#    racing the real GC in ON; it idles, and Ctrl-C ends it with 130.
#    GCDIFF_BATCHES (default 1, plus the live one), GCDIFF_GRAPHS (30) and
#    GCDIFF_SEED size it.
# 2. A stopped GC, for real: ON's controller-manager paused (SIGSTOP), an
#    unavailable APIService registered, a backlog of every kind built;
#    `owners gc -A --dry-run` shows it and says the GC appears stopped;
#    `owners gc -A` does it (keeping what the unavailable group could own);
#    the controller-manager resumes and changes nothing further. The
#    healthy GC under a storm of deletes is not called stopped.
# 3. The command's edges: no arguments, --exit-code, -n's scope, a
#    read-only user.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/delete-lib.sh"
require kubectl:kubectl python3:python3

GRAPHS=${GCDIFF_GRAPHS:-30}
BATCHES=${GCDIFF_BATCHES:-1}
SEED=${GCDIFF_SEED:-$RANDOM}
P=$(dirname "$0")/gcgraph.py
# jf JSON EXPR: a Python expression over the document d.
jf() { python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print(eval(sys.argv[2]))' "$1" "$2" 2>/dev/null; }

start_cluster OFF --gc=stalled
start_cluster ON --gc=on
unset KUBECONFIG
on() { KUBECONFIG=$ON/kubeconfig XDG_CACHE_HOME=$ON/cache "$@"; }
off() { KUBECONFIG=$OFF/kubeconfig XDG_CACHE_HOME=$OFF/cache "$@"; }
kcm_pid() { cat "$ON/kube-controller-manager.pid"; }

# restart_kcm: ON's controller-manager stopped and started again with the
# same command line (a GC that starts over: it lists everything anew).
restart_kcm() {
  local pid args=()
  pid=$(kcm_pid)
  mapfile -d '' args </proc/"$pid"/cmdline
  kill -TERM "$pid"
  while kill -0 "$pid" 2>/dev/null; do sleep 0.2; done
  # its leader lease is not released on exit: the new one would wait up
  # to 15 s for it to expire (a restart where etcd is kept)
  on kubectl -n kube-system delete lease kube-controller-manager >/dev/null 2>&1
  setsid nohup "${args[@]}" >>"$ON/logs/kube-controller-manager.log" 2>&1 </dev/null &
  echo $! >"$ON/kube-controller-manager.pid"
}

# compare B PHASE WHAT: every graph of batch B identical in both clusters
# once ON's GC has settled. The real GC is not deterministic: its workers
# take the queued items in any order, and where two items interfere (an
# orphan release and the deletion of the same dependent; a cluster-scoped
# object seen before or after its namespaced owner, which decides whether
# the GC's absentOwnerCache calls that owner gone) one graph can end in
# different states; so does the order the graph was built in (the GC
# handles a dependent as soon as the reference that makes it garbage
# arrives: with its owner still solid it strips the dangling references,
# with its owner collected first it deletes it as it is), a history
# owners, which sees only the built graph, cannot know. A graph that
# differs is therefore built again in ON (up to 3 times, fresh names, the
# same objects created and referenced in reverse, shuffled, then the
# given order; in phase 2 the same object deleted with the same policy)
# and left to its GC: owners' end state must be one the real GC reaches. What still differs is looked at
# once more after ON's controller-manager restarted (a running GC never
# revisits an object it gave up on). One difference is let through, named
# and counted: a cluster-scoped object with a namespaced owner that a
# namespaced object names as its owner, which the GC judges in that
# namespace when it saw the dependent first (gcgraph.py identity_race).
# Anything else fails.
identical=0 raced=0 raced_identity=0 restarted=0 differ=0 apart=0
graphs_of() { grep '^not ok' "$1" | awk '{print $4}' | sed 's/.*x//' | tr '\n' ' '; }
# A graph whose phase 1 the real GC reached only in a rerun (other names,
# another build order), in a race, or once restarted has another start in
# the GC's own cluster than in OFF: its phase 2 cannot be judged there
# (the reruns of phase 2 rebuild it, and may start apart again). Such
# graphs are named and counted (APART), never passed as identical.
compare() {
  local b=$1 phase=$2 what=$3 left try nb
  [[ $phase == 1 ]] && : >"$ON/apart-$b"
  python3 "$P" settle --env "$ON/env" --batch "$b" || true
  python3 "$P" compare --on "$ON/env" --off "$OFF/env" --batch "$b" --graphs "$GRAPHS" \
    --phase "$phase" --seed "$SEED" --apart "$(cat "$ON/apart-$b" 2>/dev/null)" >"$ON/compare.txt"
  grep 'RACE' "$ON/compare.txt" | sed 's/^ok /#   the GC raced: /'
  grep 'APART' "$ON/compare.txt" | sed 's/^ok /#   /'
  raced_identity=$(( raced_identity + $(grep -c 'RACE' "$ON/compare.txt") ))
  apart=$(( apart + $(grep -c 'APART' "$ON/compare.txt") ))
  identical=$(( identical + $(grep '^ok' "$ON/compare.txt" | grep -vc 'RACE\|APART') ))
  (( phase == 1 )) && grep 'RACE' "$ON/compare.txt" | awk '{print $3}' | sed 's/.*x//' >>"$ON/apart-$b"
  left=$(graphs_of "$ON/compare.txt")
  local orders=(reverse shuffle given)
  for (( try = 1; try <= 3 && ${#left} > 0; try++ )); do
    nb=${b}r${try}p${phase}
    echo "# batch $b phase $phase: graph(s) $left differ; the real GC runs them again, built in ${orders[try - 1]} order ($try)"
    kcm_stop "$ON"
    python3 "$P" build --env "$ON/env" --batch "$nb" --from-batch "$b" --graphs "$GRAPHS" --only "$left" --seed "$SEED" \
      --order "${orders[try - 1]}"
    kill -CONT "$(kcm_pid)"
    python3 "$P" settle --env "$ON/env" --batch "$nb" || true
    if (( phase == 2 )); then
      python3 "$P" delete-roots --env "$ON/env" --batch "$nb" --graphs "$GRAPHS" --only "$left" \
        --seed "$SEED" --replay "$OFF/roots-$b.json" >/dev/null
      python3 "$P" settle --env "$ON/env" --batch "$nb" || true
    fi
    python3 "$P" compare --on "$ON/env" --off "$OFF/env" --batch "$b" --on-batch "$nb" --graphs "$GRAPHS" \
      --only "$left" --phase "$phase" >"$ON/compare2.txt"
    raced=$(( raced + $(grep -c '^ok' "$ON/compare2.txt") ))
    grep '^ok' "$ON/compare2.txt" | sed "s/^ok /#   the real GC reached owners' state on run $((try + 1)): /"
    (( phase == 1 )) && grep '^ok' "$ON/compare2.txt" | awk '{print $3}' | sed 's/.*x//' >>"$ON/apart-$b"
    cp "$ON/compare2.txt" "$ON/compare.txt"
    left=$(graphs_of "$ON/compare2.txt")
  done
  if (( ${#left} )); then
    echo "# batch $b phase $phase: graph(s) $left still differ; restarting the GC"
    restart_kcm
    python3 "$P" settle --env "$ON/env" --batch "$b" --quiet 10 || true
    python3 "$P" compare --on "$ON/env" --off "$OFF/env" --batch "$b" --graphs "$GRAPHS" --only "$left" \
      --phase "$phase" >"$ON/compare.txt"
    restarted=$(( restarted + $(grep -c '^ok' "$ON/compare.txt") ))
    grep '^ok' "$ON/compare.txt" | sed 's/^ok /#   identical once the GC restarted: /'
    (( phase == 1 )) && grep '^ok' "$ON/compare.txt" | awk '{print $3}' | sed 's/.*x//' >>"$ON/apart-$b"
    left=$(graphs_of "$ON/compare.txt")
    grep -v '^ok' "$ON/compare.txt"
  fi
  differ=$(( differ + $(wc -w <<<"$left") ))
  ok "$(wc -w <<<"$left")" "batch $b phase $phase: $what: every graph ends in a state the real GC reaches (${left:-none} differ)"
}

# build B: batch B's graphs in both clusters, ON's GC paused meanwhile
# (and a running `owners gc --watch`, $wpid: both then start from the
# same whole graph, not from what each saw half built)
wpid=
build() {
  kcm_stop "$ON" $wpid
  python3 "$P" build --env "$ON/env" --batch "$1" --graphs "$GRAPHS" --seed "$SEED" &&
    python3 "$P" build --env "$OFF/env" --batch "$1" --graphs "$GRAPHS" --seed "$SEED"
  ok $? "batch $1: $GRAPHS graphs built alike in both clusters"
  kill -CONT "$(kcm_pid)" $wpid
}
delete_roots() {
  python3 "$P" delete-roots --env "$ON/env" --batch "$1" --graphs "$GRAPHS" --seed "$SEED" >/dev/null &&
    python3 "$P" delete-roots --env "$OFF/env" --batch "$1" --graphs "$GRAPHS" --seed "$SEED" \
      --record "$OFF/roots-$1.json" >/dev/null
  ok $? "batch $1: one object of each graph deleted with kubectl, the same in both"
}

echo "# differential: $BATCHES batch(es) of $GRAPHS graphs, seed $SEED (GCDIFF_SEED=$SEED repeats it)"
for (( b = 1; b <= BATCHES; b++ )); do
  build "$b"
  for phase in 1 2; do
    (( phase == 2 )) && delete_roots "$b"
    if (( b == 1 && phase == 1 )); then
      # the random graphs on a file (#45): every read of them from a
      # snapshot answers as live does, byte for byte, at one fixed "now"
      export OWNERS_TEST_NOW=$(( $(date +%s) + 60 ))
      run off owners snapshot -A -f "$OFF/gcdiff.snap.gz"
      is "$rc" 0 "batch $b: owners snapshot -A of the random graphs (exit 0)"
      for c in "graph -A -o json" "dangling -A -o wide" "gc -A --dry-run=client -o json" "finalizers -A"; do
        # shellcheck disable=SC2086
        live=$(off owners $c 2>&1; echo "exit $?")
        # shellcheck disable=SC2086
        snapped=$(off owners $c --from "$OFF/gcdiff.snap.gz" 2>&1; echo "exit $?")
        is "$snapped" "$live" "batch $b: the random graphs from a snapshot answer as live: $c"
      done
      unset OWNERS_TEST_NOW
      # dangling --fix does what the GC would and nothing more: whatever it
      # changes first, owners gc then must still end where the real GC
      # does (a reference the GC never removes, an object it keeps, once
      # taken by --fix, cannot be put back, and the compare fails)
      run off owners dangling -A --fix
      is "$rc" 0 "batch $b: owners dangling -A --fix first (exit 0)"
      echo "# dangling --fix: $(grep -c . <<<"$out") rows; ${err##*$'\n'}" | head -1
      asan_clean "batch $b: owners dangling -A --fix"
    fi
    if (( b == BATCHES && phase == 1 )); then
      # killed at a random moment of its work, then run again
      # (not through off(): $! must be owners itself, not a subshell)
      KUBECONFIG=$OFF/kubeconfig XDG_CACHE_HOME=$OFF/cache "$OWNERS" gc -A >/dev/null 2>&1 &
      sleep "0.$(( RANDOM % 3 ))$(( RANDOM % 10 ))"
      kill -9 $! 2>/dev/null; wait $! 2>/dev/null
      echo "# batch $b: owners gc killed with -9 after a moment ($(grep -c . <<<"$(off kubectl get cm -A -l gcdiff -o name)") objects of the batches left), run again"
    fi
    run off owners gc -A
    is "$rc" 0 "batch $b phase $phase: owners gc -A converges (exit 0)"
    echo "# ${err##*$'\n'gc: }" | head -1
    asan_clean "batch $b phase $phase: owners gc -A"
    compare "$b" "$phase" "owners gc -A"
  done
done

# --watch: the same, live. owners gc --watch runs on OFF (paused while
# the graphs are built, as ON's GC is), then the roots are deleted while
# both run; both clusters settle on their own.
b=$(( BATCHES + 1 ))
KUBECONFIG=$OFF/kubeconfig XDG_CACHE_HOME=$OFF/cache "$OWNERS" gc -A --watch >"$OFF/watch.out" 2>"$OFF/watch.err" &
wpid=$!
wait_for "owners gc --watch to start watching" 60 grep -q "watching" "$OFF/watch.err"
ok $? "gc --watch: converged, then watching"
build "$b"
# ... and in ON, owners gc runs beside the real GC as it resumes: both race
# under preconditions, and the end state must still be the GC's
run on owners gc -A
is "$rc" 0 "owners gc -A beside the running GC: exit 0 (its 404s and conflicts are normal)"
python3 "$P" settle --env "$OFF/env" --batch "$b" || true
compare "$b" 1 "gc --watch, live"
delete_roots "$b"
python3 "$P" settle --env "$OFF/env" --batch "$b" || true
compare "$b" 2 "gc --watch, live"
# idle: it waits on its watches, it does not poll
t0=$(awk '{print $14 + $15}' /proc/$wpid/stat); sleep 5; t1=$(awk '{print $14 + $15}' /proc/$wpid/stat)
ok "$(( t1 - t0 > 25 ))" "gc --watch idle: $(( t1 - t0 )) CPU ticks in 5 s (at most 25, 5%)"
kill -0 $wpid 2>/dev/null
ok $? "gc --watch still running"
kill -INT $wpid; wait $wpid; rc=$?
is "$rc" 130 "gc --watch: Ctrl-C ends it as the shell expects (130)"
err=$(cat "$OFF/watch.err")
asan_clean "gc --watch"
like "$err" "stopped watching: [0-9]+ changes in all" "and it says what it did"
# owners delete against the real GC (#51): a batch brought to the GC's
# fixpoint in both clusters, then one object of each graph deleted, in ON
# with kubectl (its GC does the rest), in OFF with owners delete -A alone
# (the client-side cascade, no owners gc after it; -A: the root's
# dependents sought in every namespace, as the GC's graph holds them, the
# graphs naming owners in the other namespace): self-references,
# foreground cycles and deadlocks among them. owners delete exits 0, or 3
# at a deadlock it names once everything around it is done, as the GC
# leaves it. (half the graphs of the other batches: CI's time)
b=$(( BATCHES + 2 )) wpid= graphs_all=$GRAPHS GRAPHS=${GCDIFF_DELETE_GRAPHS:-15}
build "$b"
run off owners gc -A
is "$rc" 0 "delete batch: owners gc -A brings OFF to the GC's fixpoint first"
compare "$b" 1 "owners gc -A, before the deletes"
python3 "$P" delete-roots --env "$ON/env" --batch "$b" --graphs "$GRAPHS" --seed "$SEED" >/dev/null &&
  off python3 "$P" delete-roots --env "$OFF/env" --batch "$b" --graphs "$GRAPHS" --seed "$SEED" \
    --record "$OFF/roots-$b.json" --owners "$OWNERS" >"$OFF/delete-roots.out"
ok $? "delete batch: one object of each graph deleted, with kubectl in ON, with owners delete -A in OFF (each exit 0 or 3)"
grep -v 'exit 0)$' "$OFF/delete-roots.out" | head -5
compare "$b" 2 "owners delete -A"
GRAPHS=$graphs_all

echo "# differential: $identical graph states identical at once, $raced in a rerun of the racing GC, $restarted once it restarted, $raced_identity differing only where the GC's identity race applies, $apart not judged in phase 2 (phase 1 started apart); $differ differ"

# ------------------------------------ a root named from another namespace (#51)
# The GC links dependents to owners by UID, across namespaces: a ConfigMap
# in another namespace naming the root (an invalid reference, which the GC
# leaves alone while the object is being deleted) is released by an orphan
# cascade, and holds a foreground root while it blocks. owners delete sees
# it with -A only; without, it leaves it as it is.
xns() { # xns CLUSTER-FN A B: root r in A, its dependent in A, one in B held in deletion
  local r
  "$1" kubectl create ns "$2" >/dev/null; "$1" kubectl create ns "$3" >/dev/null
  "$1" kubectl -n "$2" create configmap r >/dev/null
  r=$("$1" uid -n "$2" cm r)
  "$1" mk "$2" <<YAML
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: same, ownerReferences: [$(ref v1 ConfigMap r "$r")]}}
YAML
  "$1" mk "$3" <<YAML
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: far, finalizers: [example.com/hold], ownerReferences: [$(ref v1 ConfigMap r "$r" "blockOwnerDeletion: true")]}}
YAML
  "$1" kubectl -n "$3" delete configmap far --wait=false >/dev/null
}
state() { # state CLUSTER-FN A B: each object, its deletion and references
  local ns
  for ns in "$2" "$3"; do
    "$1" kubectl -n "$ns" get cm -o jsonpath='{range .items[?(@.metadata.name!="kube-root-ca.crt")]}{.metadata.name} deleting={.metadata.deletionTimestamp} fin={.metadata.finalizers} refs={.metadata.ownerReferences[*].name}{"\n"}{end}' |
      sed -E "s/^/$ns: /; s/deleting=[^ ]+/deleting=yes/"
  done
}
settled() { # settled CLUSTER-FN A B: the state unchanged for 3 s (at most 60 s)
  local last= now i
  for (( i = 0; i < 120; i++ )); do
    now=$(state "$@")
    [[ $now == "$last" ]] && (( i >= 6 )) && return 0
    [[ $now != "$last" ]] && { last=$now; i=0; }
    sleep 0.5
  done
}
for policy in orphan foreground; do
  xns on "xo-$policy-a" "xo-$policy-b"
  sleep 2 # the GC has seen them (it strips nothing of an object in deletion)
  on kubectl -n "xo-$policy-a" delete configmap r --cascade=$policy --wait=false >/dev/null
  settled on "xo-$policy-a" "xo-$policy-b"
  want=$(state on "xo-$policy-a" "xo-$policy-b" | sed "s/xo-$policy-/N-/")
  xns off "xn-$policy-a" "xn-$policy-b"
  run off owners -n "xn-$policy-a" delete cm/r --cascade=$policy --timeout=5s
  got=$(state off "xn-$policy-a" "xn-$policy-b" | sed "s/xn-$policy-/N-/")
  like "$got" "N-b: far deleting=yes fin=\[\"example.com/hold\"\] refs=r" \
    "[$policy] without -A: the dependent in the other namespace is not seen, and left as it is (exit $rc)"
  xns off "xa-$policy-a" "xa-$policy-b"
  run off owners -n "xa-$policy-a" delete cm/r --cascade=$policy --timeout=5s -A
  is "$rc" "$([[ $policy == orphan ]] && echo 0 || echo 3)" \
    "[$policy] with -A: exit $([[ $policy == orphan ]] && echo "0, done" || echo "3: the root waits on it, as with the GC")"
  got=$(state off "xa-$policy-a" "xa-$policy-b" | sed "s/xa-$policy-/N-/")
  same_text "$got" "$want" "[$policy] with -A: the state the real GC leaves"
  waited=$want # (the foreground root's wait, checked below)
  [[ $policy == foreground ]] || continue
  # the command it printed to finish, run as printed once the finalizer
  # holding the wait is gone (its controller did its work), in both
  # clusters: the state the GC then reaches; and run again, done already
  resume=$(grep -A1 'run this to finish it:' <<<"$err" | tail -n 1 | sed 's/^ *//')
  like "$resume" "^owners -n xa-$policy-a delete cm/r --cascade=foreground --timeout=5s -A --resume=[0-9a-f-]+$" \
    "[$policy] with -A: the command printed to finish keeps -A"
  for c in on off; do
    n=$([[ $c == on ]] && echo xo || echo xa)
    "$c" kubectl -n "$n-$policy-b" patch configmap far --type=merge -p '{"metadata":{"finalizers":null}}' >/dev/null
  done
  settled on "xo-$policy-a" "xo-$policy-b"
  want=$(state on "xo-$policy-a" "xo-$policy-b" | sed "s/xo-$policy-/N-/")
  run off eval "$resume"
  is "$rc" 0 "[$policy] the printed command, run as printed once the hold is gone: exit 0"
  same_text "$(state off "xa-$policy-a" "xa-$policy-b" | sed "s/xa-$policy-/N-/")" "$want" \
    "[$policy] ... and the state the real GC reaches then"
  run off eval "$resume"
  is "$rc" 0 "[$policy] run again, the work done: exit 0"
done
[[ $waited == *"N-b: far deleting=yes fin=[\"example.com/hold\"] refs=r"* && $waited == *"N-a: r deleting=yes"* ]]
ok $? "the GC's foreground root waits on the dependent in the other namespace (the case is real: $(tr '\n' ';' <<<"$waited"))"

# --------------------------------------------------------------- the command's edges
run off owners gc extra
is "$rc" 2 "an argument is a usage error"
like "$err" "takes no arguments" "saying so"

off kubectl create ns edge-a >/dev/null; off kubectl create ns edge-b >/dev/null
for ns in edge-a edge-b; do
  off kubectl -n $ns create configmap owner >/dev/null
  u=$(off uid -n $ns cm owner)
  off mk $ns <<YAML
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: dep, ownerReferences: [$(ref v1 ConfigMap owner "$u")]}}
YAML
  off kubectl -n $ns delete configmap owner >/dev/null
done
run off owners -n edge-a gc --dry-run=client --exit-code
is "$rc" 1 "--dry-run --exit-code: 1 with a backlog"
like "$out" "ConfigMap/dep +attemptToDeleteItem +delete \(Background\)" "the row says what the GC would do"
unlike "$out" "edge-b" "-n: nothing of another namespace"
like "$err" "1 deletion" "the summary line"
run off owners -n edge-a gc --dry-run -o json
is "$(jf "$out" 'd["items"][0]["owners"]["handler"] + " " + d["items"][0]["owners"]["action"] + " " + d["items"][0]["owners"]["propagationPolicy"]')" \
  "attemptToDeleteItem delete Background" "-o json: the item in the GC's terms"
is "$(jf "$out" 'd["metadata"]["summary"]["deletions"]')" 1 "-o json: the summary"
is "$(jf "$out" 'list(d["items"][0]), d["items"][0]["metadata"]["namespace"]')" \
  "(['apiVersion', 'kind', 'metadata', 'owners'], 'edge-a')" "-o json: each item the object, Kubernetes-shaped"
run off owners -n edge-a gc --dry-run -o name
is "$rc:$out" "0:configmap/dep" "-o name: the backlog's objects, as kubectl delete takes them"
run off owners -n edge-a gc --dry-run -o jsonpath='{.items[*].metadata.name}:{.items[*].owners.action}'
is "$rc:$out" "0:dep:delete" "-o jsonpath over the document, as kubectl get users script it"
run off owners -n edge-a gc --dry-run=client -o jsonpath='{.items[*].object.name}' --allow-missing-template-keys=false
like "$rc:$err" "^1:error: error executing jsonpath .*: object is not found" "  a field no item has, --allow-missing-template-keys=false: exit 1"

# a read-only user: the backlog, then one clear error and nothing changed
run off owners --context viewer -n edge-a gc --dry-run
is "$rc" 0 "a read-only user sees the backlog"
like "$out" "ConfigMap/dep" "with the object"
run off owners --context viewer -n edge-a gc
is "$rc" 4 "a read-only user acting: exit 4"
like "$err" "cannot delete configmap/dep: forbidden: no delete permission on configmaps in namespace 'edge-a' \(asked before any change\)" "one clear error"
like "$err" "nothing was deleted or changed" "saying nothing changed"
ok "$(off gone edge-a cm dep; echo $((!$?)))" "the object is still there"

run off owners -n edge-a gc
is "$rc" 0 "-n: the namespace's backlog done"
ok "$(off gone edge-a cm dep; echo $?)" "its garbage collected"
ok "$(off gone edge-b cm dep; echo $((!$?)))" "another namespace's left alone"
run off owners -n edge-a gc --dry-run --exit-code
is "$rc" 0 "--exit-code: 0 once nothing is due"
run off owners -n edge-b gc --dry-run=server
is "$rc" 0 "--dry-run=server: exit 0"
like "$out" 'configmap "dep" deleted \(Background\) in namespace edge-b \(server dry run\)' "  the server accepted the DELETE"
ok "$(off gone edge-b cm dep; echo $((!$?)))" "  and nothing changed"
run off owners -n edge-b gc --dry-run=server --exit-code
is "$rc" 1 "--dry-run=server --exit-code: 1, the work is still due"
run off owners -n edge-a gc --exit-code
is "$rc" 0 "--exit-code after the work is done: 0"
run off owners -n edge-b gc --timeout=1ms
is "$rc" 3 "--timeout passed with work left: exit 3"
like "$err" "timed out after .*configmap/dep in namespace edge-b: delete \(Background\)" "  naming what is left"
ok "$(off gone edge-b cm dep; echo $((!$?)))" "  and nothing was done past the deadline"

# ------------------------------------------------------------ a stopped GC, for real
kcm_stop "$ON"
S=stopped
on kubectl create ns $S >/dev/null
on kubectl apply -f - >/dev/null <<YAML
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata: {name: v1beta1.metrics.k8s.io}
spec:
  group: metrics.k8s.io
  version: v1beta1
  groupPriorityMinimum: 100
  versionPriority: 100
  insecureSkipTLSVerify: true
  service: {name: no-such-service, namespace: kube-system}
YAML
owned_cm() { # NAME REFS...
  local name=$1 refs; shift
  refs=$(IFS=,; echo "$*")
  on mk $S <<YAML
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: $name, ownerReferences: [$refs]}}
YAML
}
on kubectl -n $S create configmap bg-root >/dev/null
on kubectl -n $S create configmap fg-root >/dev/null
on kubectl -n $S create configmap or-root >/dev/null
on kubectl -n $S create configmap cyc-a >/dev/null
on kubectl -n $S create configmap manual >/dev/null
on mk $S <<YAML
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: held, finalizers: [example.com/hold]}}
YAML
bg=$(on uid -n $S cm bg-root) fg=$(on uid -n $S cm fg-root) or=$(on uid -n $S cm or-root)
ca=$(on uid -n $S cm cyc-a) held=$(on uid -n $S cm held)
for i in 1 2 3; do owned_cm bg-dep$i "$(ref v1 ConfigMap bg-root "$bg")"; done
for i in 1 2; do owned_cm fg-dep$i "$(ref v1 ConfigMap fg-root "$fg" "blockOwnerDeletion: true")"; done
for i in 1 2; do owned_cm or-dep$i "$(ref v1 ConfigMap or-root "$or")"; done
owned_cm cyc-b "$(ref v1 ConfigMap cyc-a "$ca" "blockOwnerDeletion: true")"
on kubectl -n $S patch cm cyc-a --type=merge -p "{\"metadata\":{\"ownerReferences\":[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"name\":\"cyc-b\",\"uid\":\"$(on uid -n $S cm cyc-b)\",\"blockOwnerDeletion\":true}]}}" >/dev/null
owned_cm held-dep "$(ref v1 ConfigMap held "$held")"
owned_cm manual-dep "$(ref v1 ConfigMap manual "$(on uid -n $S cm manual)")"
owned_cm metrics-dep "$(ref metrics.k8s.io/v1beta1 PodMetrics p 00000000-0000-4000-8000-0000000000b1)"
owned_cm metrics-and-gone "$(ref metrics.k8s.io/v1beta1 PodMetrics p 00000000-0000-4000-8000-0000000000b2)" \
  "$(ref v1 ConfigMap ghost 00000000-0000-4000-8000-0000000000b3)"
on kubectl -n $S delete cm bg-root --cascade=background --wait=false >/dev/null
on kubectl -n $S delete cm fg-root --cascade=foreground --wait=false >/dev/null
on kubectl -n $S delete cm or-root --cascade=orphan --wait=false >/dev/null
on kubectl -n $S delete cm cyc-a --cascade=foreground --wait=false >/dev/null
on kubectl -n $S delete cm held --wait=false >/dev/null
on kubectl -n $S delete cm manual --cascade=orphan --wait=false >/dev/null
sleep 3

# the fix for one object, beside the unavailable group that stalled the GC
run on owners -n $S finalizers remove cm/manual --finalizer orphan
is "$rc" 1 "finalizers remove orphan beside an unavailable group: refused (exit 1)"
like "$err" "ServiceNotFound" "the group's failure in the server's words"
is "$(grep -o ServiceNotFound <<<"$err" | wc -l)" 1 "said once"
like "$err" "--no-dependents-in=metrics.k8s.io" "naming the narrow way through, not --force"
run on owners -n $S finalizers remove cm/manual --finalizer orphan --no-dependents-in=metrics.k8s.io
is "$rc" 0 "--no-dependents-in=metrics.k8s.io: the orphan finalizer taken off"
is "$(on meta $S cm manual-dep '{.metadata.ownerReferences}')" "" "its dependent released first, as the GC's attemptToOrphan does"
ok "$(on gone $S cm manual; echo $?)" "the object is gone"

run on owners -n $S gc --dry-run --stalled-after=2s
is "$rc" 0 "stopped GC: the backlog is shown"
like "$out" "ConfigMap/bg-dep1 +attemptToDeleteItem +delete \(Background\)" "dependents of an owner deleted in the background"
like "$out" "ConfigMap/fg-dep1 +attemptToDeleteItem +delete \(Background\)" "a foreground deletion's blocking dependents"
like "$out" "ConfigMap/fg-root +processDeletingDependentsItem +wait \(blocking-dependents\)" "the foreground root waiting on them"
like "$out" "ConfigMap/or-root +attemptToOrphan +release 2 dependents" "the orphan deletion's release"
like "$out" "ConfigMap/cyc-b +attemptToDeleteItem +unblock references" "the cycle breaker"
like "$out" "ConfigMap/held +attemptToDeleteItem +wait \(finalizers\)" "the object with a foreign finalizer waits"
like "$out" "ConfigMap/metrics-and-gone +attemptToDeleteItem +wait \(gives-up\)" "what the unavailable group could own: the GC gives up"
like "$err" "the garbage collector appears not to be running \(oldest pending action: [0-9]+s" "the GC is said to appear stopped"
like "$err" "\`owners gc\` does its work" "naming the way out"
like "$err" "discovery of 'metrics.k8s.io/v1beta1' failed: APIService v1beta1.metrics.k8s.io is not available: ServiceNotFound" \
  "the unavailable group is warned about, in the server's words"

run on owners -n $S gc
is "$rc" 4 "stopped GC: done, exit 4 (a group could not be seen)"
for o in bg-dep1 bg-dep2 bg-dep3 fg-dep1 fg-dep2 fg-root or-root cyc-a cyc-b; do
  ok "$(on gone $S cm $o; echo $?)" "stopped GC: $o collected"
done
for o in or-dep1 or-dep2; do
  ok "$(on gone $S cm $o; echo $((!$?)))" "stopped GC: $o orphaned, kept"
  is "$(on meta $S cm $o '{.metadata.ownerReferences}')" "" "stopped GC: $o released"
done
ok "$(on gone $S cm held-dep; echo $((!$?)))" "stopped GC: a dependent of an owner held by a foreign finalizer is kept"
is "$(on meta $S cm held '{.metadata.finalizers[*]}')" "example.com/hold" "stopped GC: the foreign finalizer is not touched"
ok "$(on gone $S cm metrics-dep; echo $((!$?)))" "stopped GC: an object the unavailable group owns is kept"
ok "$(on gone $S cm metrics-and-gone; echo $((!$?)))" "stopped GC: also when another owner is gone"
like "$err" "left waiting" "what is left is named"
like "$err" "ConfigMap/held|configmap/held" "the held object among it"

before=$(on kubectl -n $S get cm -o jsonpath='{range .items[*]}{.metadata.name} {.metadata.deletionTimestamp} {.metadata.finalizers} {.metadata.ownerReferences}{"\n"}{end}')
kill -CONT "$(kcm_pid)"
on kubectl delete apiservice v1beta1.metrics.k8s.io >/dev/null
sleep 35 # the GC re-reads its resources every 30 s
after=$(on kubectl -n $S get cm -o jsonpath='{range .items[*]}{.metadata.name} {.metadata.deletionTimestamp} {.metadata.finalizers} {.metadata.ownerReferences}{"\n"}{end}')
same_text "$after" "$before" "stopped GC: once resumed, the real GC changes nothing further"

# a healthy GC under a storm of deletes is not called stopped
on kubectl create ns storm >/dev/null
on kubectl -n storm create configmap root >/dev/null
r=$(on uid -n storm cm root)
for i in $(seq 1 60); do
  echo "---"; echo "{apiVersion: v1, kind: ConfigMap, metadata: {name: d$i, ownerReferences: [$(ref v1 ConfigMap root "$r" "blockOwnerDeletion: true")]}}"
done | on mk storm
on kubectl -n storm delete cm root --cascade=foreground --wait=false >/dev/null
run on owners -A gc --dry-run
unlike "$err" "appears not to be running" "a healthy GC at work is not called stopped"

done_testing
