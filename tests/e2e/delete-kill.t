#!/usr/bin/env bash
# owners delete is crash-safe: a cascade of 331 objects (a ConfigMap root
# owning 30 ConfigMaps owning 10 each) is killed with SIGKILL at several
# points, in each cascade mode, then run again to completion; the full
# inventory of the namespace and of the cluster-scoped objects is compared
# before and after: exactly the cascade is gone (orphan: released),
# everything else is identical (name, uid, ownerReferences, finalizers), and
# no foregroundDeletion/orphan finalizer is left anywhere. After each kill,
# nothing outside the cascade may have been touched.
#
# Kill points: KILL_POINTS (default 20) per cascade mode and GC mode, each
# after a random number of mutating requests (from the -v=6 request log) or
# at a random time; KILL_SEED reproduces a run.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/delete-lib.sh"

seed=${KILL_SEED:-$$}
RANDOM=$seed
echo "# KILL_SEED=$seed"

# mutations FILE: how many PATCH/DELETE requests a -v=6 log shows done.
mutations() { local n; n=$(grep -cE '^(PATCH|DELETE) ' "$1" 2>/dev/null); echo "${n:-0}"; }

# kill_at NS MODE POINT: starts the cascade and SIGKILLs it at POINT:
# "req:N" (once N mutating requests are done) or "t:SECONDS".
kill_at() {
  local ns=$1 mode=$2 point=$3 log=$C/kill.log pid end st
  rm -f "$log"  # (the last run's log must not count for this one)
  # rate-limited (100 requests a second, one at a time) so that the kill
  # lands while it works: unthrottled, its hundreds of requests in
  # parallel were all done before the log showed the first few, and the
  # kills struck runs that had finished
  "$OWNERS" -n "$ns" --qps 100 --burst 1 delete cm/k-root --cascade="$mode" --ignore-not-found -v=6 >/dev/null 2>"$log" &
  pid=$!
  case $point in
    req:*)
      end=$((SECONDS + 60))
      while (( $(mutations "$log") < ${point#req:} )) && kill -0 $pid 2>/dev/null && (( SECONDS < end )); do
        sleep 0.005
      done ;;
    t:*) sleep "${point#t:}" ;;
  esac
  kill -9 $pid 2>/dev/null
  # (kill succeeds on a run that has exited and is not yet reaped: its
  # status says whether the kill ended it)
  wait $pid 2>/dev/null; st=$?
  if (( st == 137 && $(mutations "$log") > 0 )); then
    struck=$((struck + 1))
    # (what is left is in the inventory the caller takes next)
    echo "#   killed at $point after $(mutations "$log") mutating requests"
  elif (( st == 137 )); then
    echo "#   killed at $point before its first mutating request (not counted as mid-run)"
  else
    echo "#   at $point the run had already finished, exit $st ($(mutations "$log") mutating requests; not counted as mid-run)"
    rc=$st err=$(cat "$log"); san_check "a run that finished before its kill at $point"
  fi
}

# outside_touched BEFORE AFTER NS: the changes that are not the cascade's
# (objects k-*, and shared losing its reference to k-a-1).
outside_touched() {
  inv_diff "$1" "$2" | grep -vE "^(gone|changed|released|dropped-refs|gc-finalizer) ConfigMap $3/k-" |
    grep -vE "^(released ConfigMap $3/shared|dropped-refs ConfigMap $3/shared k-a-1)$"
}

rand_time_long() { echo "1.$((RANDOM % 5))"; }         # 1.0 .. 1.4 s

kill_scenario() { # kill_scenario GC MODE POINT...
  local gc=$1 mode=$2 ns=kill-$2 p ku a1 want; shift 2
  kubectl create ns "$ns" >/dev/null
  big_tree "$ns" k 30 10
  kubectl -n "$ns" create cm keep >/dev/null
  ku=$(uid -n "$ns" cm keep); a1=$(uid -n "$ns" cm k-a-1)
  mk "$ns" <<YAML
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: shared, ownerReferences: [$(ref v1 ConfigMap keep "$ku" "controller: true, blockOwnerDeletion: true"), $(ref v1 ConfigMap k-a-1 "$a1" "controller: false, blockOwnerDeletion: true")]}}
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: keep-child, finalizers: [example.com/keep], ownerReferences: [$(ref v1 ConfigMap keep "$ku" "blockOwnerDeletion: false")]}}
YAML
  is "$(kubectl -n "$ns" get cm --no-headers | wc -l)" 334 "[$gc/$mode] 331 objects in the cascade, 3 outside"
  inventory "$ns" "$C/$ns.before"
  struck=0
  for p in "$@"; do
    kill_at "$ns" "$mode" "$p"
    inventory "$ns" "$C/$ns.mid"
    same_text "$(outside_touched "$C/$ns.before" "$C/$ns.mid" "$ns")" "" "[$gc/$mode] killed at $p: nothing outside the cascade touched"
  done
  # a kill after the run ended, or before it changed anything, tests no
  # crash point: at least a third of them must strike mid-run (a quarter
  # are timed kills, which may land before the first change). With the
  # cluster's GC on, the GC finishes the cascade on its own once a killed
  # run has deleted or orphaned the root, so the later kills find little or
  # nothing left: there the first kill (req:1, see below) must strike.
  local least=$(( ($# + 2) / 3 ))
  [[ $gc == on ]] && least=1
  (( struck >= least ))
  ok $? "[$gc/$mode] $struck of $# kills struck mid-run, after a change and before the end (at least $least)"
  run owners -n "$ns" delete cm/k-root --cascade="$mode" --ignore-not-found --timeout=2m
  ok $rc "[$gc/$mode] run again after the kills: it resumes and finishes (exit 0)"
  asan_clean "[$gc/$mode] resumed run"
  inventory "$ns" "$C/$ns.after"
  if [[ $mode == orphan ]]; then
    want=$( { echo "gone ConfigMap $ns/k-root"; for i in $(seq 30); do echo "released ConfigMap $ns/k-a-$i"; done; } | sort)
  else
    want=$( { echo "gone ConfigMap $ns/k-root"; echo "released ConfigMap $ns/shared"
              for i in $(seq 30); do echo "gone ConfigMap $ns/k-a-$i"
                for j in $(seq 10); do echo "gone ConfigMap $ns/k-b-$i-$j"; done; done; } | sort)
  fi
  same_text "$(inv_diff "$C/$ns.before" "$C/$ns.after")" "$want" \
    "[$gc/$mode] full inventory: exactly the cascade is $([[ $mode == orphan ]] && echo released || echo gone), everything else identical, no GC finalizer left"
  kubectl -n "$ns" patch cm keep-child --type=merge -p '{"metadata":{"finalizers":null}}' >/dev/null
}

# KILL_POINTS random kill points per cascade mode and GC mode (default 20):
# mostly "after N more mutating requests" (small N, so the kills land all
# along the cascade), sometimes "after a random time".
points=${KILL_POINTS:-20}
rand_points() { # rand_points MAX_REQ [MAX_CENTISECONDS]: $points kill points
  local i max=${2:-99}
  for ((i = 0; i < points; i++)); do
    if (( RANDOM % 4 == 0 )); then printf 't:0.%02d\n' $((5 + RANDOM % (max - 4))); else echo "req:$((1 + RANDOM % $1))"; fi
  done
}

SECONDS=0
for gc in off stalled on; do
  start_cluster C --gc=$gc
  . "$C/env"
  # (with the GC on, a first kill after the first change, before the GC
  # can take over the rest)
  first=; [[ $gc == on ]] && first=req:1
  # shellcheck disable=SC2046
  kill_scenario $gc background $first $(rand_points 25)
  # shellcheck disable=SC2046
  kill_scenario $gc foreground $first $(rand_points 25)
  # an orphan cascade is ~32 writes: kill after one or two of them, and
  # time kills within the run's start (a kill at 0.95 s, when a loaded
  # machine starts it late, once took 27 of the 32 at once and left too
  # little for the later kills to strike)
  # shellcheck disable=SC2046
  kill_scenario $gc orphan $first $(rand_points 2 40)
  stop_cluster "$C"
done
echo "# delete-kill.t ran in ${SECONDS}s"
done_testing
