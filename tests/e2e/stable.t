#!/usr/bin/env bash
# The same answer every time (issue #51): every read command's output is a
# function of the cluster's state alone, never of the order its lists
# arrive in. On random ownership graphs (tests/e2e/gcgraph.py: dangling and
# stale references, unserved apiVersions, cluster-scoped owners of and
# dependents on one missing UID, self-references, cycles, objects in
# deletion), all made within the same seconds so that creation times tie,
# plus deadlocks (ConfigMaps in foreground deletion blocking each other),
# each command is run, in every output format:
#  - live, twice;
#  - live with the scan's objects and lists handed on in shuffled orders
#    (OWNERS_TEST_SHUFFLE, three seeds);
#  - from a snapshot of the same unchanged cluster, plain and shuffled;
# all at one clock (OWNERS_TEST_NOW), and every run must print the same
# bytes and exit the same as the first. The GC is stalled (the apiserver
# adds its finalizers, nothing removes them): the state holds still.
#
# STABLE_SEED=N repeats a run's graphs; STABLE_GRAPHS=N makes more.
. "$(dirname "$0")/lib.sh"
require kubectl:kubectl python3:python3
# this suite compares the runs itself
E2E_SHUFFLE=0

P=$(dirname "$0")/gcgraph.py
SEED=${STABLE_SEED:-$RANDOM}
GRAPHS=${STABLE_GRAPHS:-16}
echo "# graphs: $GRAPHS, seed $SEED (STABLE_SEED=$SEED repeats them)"

start_cluster C --gc=stalled
. "$C/env"

python3 "$P" build --env "$C/env" --batch 1 --graphs "$GRAPHS" --seed "$SEED" >/dev/null
ok $? "random graphs built"
python3 "$P" delete-roots --env "$C/env" --batch 1 --graphs "$GRAPHS" --seed "$SEED" >/dev/null
ok $? "one object of each deleted (background, foreground or orphan): objects in deletion"

# Deadlocks: rings of ConfigMaps, each owned by the next with
# blockOwnerDeletion, all in foreground deletion; names that tie in every
# key but the namespace, so the members' and breakers' order is tested.
ring() {
  local ns=$1 names=() i n owner u
  shift
  names=("$@")
  kubectl create ns "$ns" >/dev/null
  for n in "${names[@]}"; do kubectl -n "$ns" create configmap "$n" >/dev/null; done
  for i in "${!names[@]}"; do
    n=${names[$i]} owner=${names[$(( (i + 1) % ${#names[@]} ))]}
    u=$(kubectl -n "$ns" get cm "$owner" -o jsonpath='{.metadata.uid}')
    kubectl -n "$ns" patch cm "$n" --type=merge -p "{\"metadata\":{\"ownerReferences\":[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"name\":\"$owner\",\"uid\":\"$u\",\"blockOwnerDeletion\":true}]}}" >/dev/null
  done
  kubectl -n "$ns" delete cm "${names[@]}" --cascade=foreground --wait=false >/dev/null
}
ring st-ring2 a b && ring st-ring3 a b c && ring st-ring2b a b
ok $? "three deadlocked rings in foreground deletion"
# a namespace in deletion that cannot empty: objects held by a finalizer
# (no namespace controller runs: it stays Terminating with them)
kubectl create ns st-doomed >/dev/null
for n in z1 a1 m1 b1 c1 y1; do
  kubectl -n st-doomed create configmap "$n" >/dev/null
  kubectl -n st-doomed patch configmap "$n" --type=merge -p '{"metadata":{"finalizers":["example.com/hold"]}}' >/dev/null
done
kubectl -n st-doomed delete configmap z1 a1 m1 b1 c1 y1 --wait=false >/dev/null
kubectl delete ns st-doomed --wait=false >/dev/null
ok $? "a namespace in deletion, six objects stuck in it"

export OWNERS_TEST_NOW=$(( $(date +%s) + 60 ))
SNAP=$C/state.snap
run "$OWNERS" snapshot -A -f "$SNAP"
ok $rc "a snapshot of the unchanged cluster"

# same ARGS...: ARGS run live twice, under three shuffles, from the
# snapshot and from it shuffled: every run the bytes (stdout and stderr)
# and exit of the first. FULL=0: live again, one shuffle (its seed
# turning), the snapshot. LIVE_ONLY=1: live again and one shuffle. A snapshot's answer says where it came from on
# stderr: only stdout is compared with it.
n_runs=0
same() {
  local first first_err rc0 got got_err rcx s how diffs=() e=$C/same.err
  first=$("$OWNERS" "$@" 2>"$e"); rc0=$?; first_err=$(<"$e")
  local variants=(live 1 2 3 from from-1)
  [[ ${FULL:-1} == 0 ]] && variants=(live $(( n_runs % 3 + 1 )) from)
  # a command that acts (delete's --dry-run=client plan) refuses --from
  [[ ${LIVE_ONLY:-0} == 1 ]] && variants=(live $(( n_runs % 3 + 1 )))
  for s in "${variants[@]}"; do
    case $s in
      live) got=$("$OWNERS" "$@" 2>"$e"); rcx=$? ;;
      from) got=$("$OWNERS" "$@" --from "$SNAP" 2>"$e"); rcx=$? ;;
      from-1) got=$(OWNERS_TEST_SHUFFLE=1 "$OWNERS" "$@" --from "$SNAP" 2>"$e"); rcx=$? ;;
      *) got=$(OWNERS_TEST_SHUFFLE=$s "$OWNERS" "$@" 2>"$e"); rcx=$? ;;
    esac
    got_err=$(<"$e")
    [[ $s == from* ]] && got_err=$first_err
    n_runs=$((n_runs + 1))
    if [[ $got != "$first" || $rcx != "$rc0" || $got_err != "$first_err" ]]; then
      diffs+=("$s")
      echo "# owners $* [$s]: exit $rc0 then $rcx"
      diff <(printf '%s\n' "$first" "$first_err") <(printf '%s\n' "$got" "$got_err") | head -8 | sed 's/^/#   /'
    fi
  done
  how=${diffs[*]}
  ok ${#diffs[@]} "owners $*: the same bytes every run${how:+ (not: $how)}"
}

# ---- every namespace at once, every format ------------------------------------
for o in "" "-o wide" "-o json" "-o yaml" "-o name"; do
  same dangling -A $o
  same gc --dry-run=client -A $o
done
for o in "" "-o json" "-o yaml" "-o name"; do same finalizers -A $o; done
for o in "" "-o json" "-o yaml" "-o dot"; do same graph -A $o; done

# ---- one namespace (the look-up of owners across namespaces too) ----------------
for ns in gd1x0-a gd1x1-b gd1x2-a st-ring3; do
  for o in "" "-o json"; do
    FULL=0 same graph -n "$ns" $o
    FULL=0 same dangling -n "$ns" $o
    FULL=0 same finalizers -n "$ns" $o
    FULL=0 same gc --dry-run=client -n "$ns" $o
  done
done

# ---- objects: trees both ways, and why --------------------------------------------
objects=$( { kubectl get cm -A --no-headers -o custom-columns=NS:.metadata.namespace,N:.metadata.name |
             grep -E '^(gd1x[0-1]-|st-ring3)' ; } | awk '{print $1 " configmap/" $2}')
roles=$(kubectl get clusterroles -o name | grep '/gd1x[0-3]-' | head -4)
while read -r ns obj; do
  [[ -n $obj ]] || continue
  FULL=0 same tree -n "$ns" "$obj"
  FULL=0 same tree -n "$ns" "$obj" -o json
  FULL=0 same tree -n "$ns" "$obj" --up -o wide
  FULL=0 same why -n "$ns" "$obj"
  FULL=0 same why -n "$ns" "$obj" -o json
done <<<"$objects"
for obj in $roles; do
  FULL=0 same tree "$obj" -o wide
  FULL=0 same why "$obj"
done
# many roots at once (a TYPE), and what the plan of a delete says
for ns in gd1x0-a gd1x1-b st-ring3; do
  FULL=0 same tree -n "$ns" configmaps
  FULL=0 same tree -n "$ns" configmaps -o json
  LIVE_ONLY=1 same delete -n "$ns" configmaps --all --dry-run=client
  LIVE_ONLY=1 same delete -n "$ns" configmaps --all --dry-run=client -o name
done
FULL=0 same tree clusterroles -o wide
# a namespace stuck in deletion with objects stuck in it
FULL=0 same finalizers namespace/st-doomed
FULL=0 same finalizers namespace/st-doomed -o json
FULL=0 same why namespace/st-doomed
FULL=0 same tree -n st-ring2 configmap/a -o dot
FULL=0 same tree -n st-ring2 configmap/a -o yaml
FULL=0 same why -n st-ring2 configmap/a -o yaml
FULL=0 same why -n st-ring2 configmap/a -o name
FULL=0 same tree -n gd1x0-a $(kubectl -n gd1x0-a get cm -o name | head -3) -o name

echo "# $n_runs runs compared"
done_testing
