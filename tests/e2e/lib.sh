# tests/e2e/lib.sh — a small TAP library for end-to-end tests of the
# `owners` binary against a real local control plane (tests/cluster/up).
#
# Every check prints "ok N - what" or "not ok N - what" plus the evidence;
# done_testing prints the plan and exits non-zero when anything failed.

set -uo pipefail

E2E_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OWNERS=${OWNERS:-$E2E_ROOT/build/owners}
_n=0 _failed=0 _planned= _done=0
_clusters=()

# ---- sanitizers --------------------------------------------------------------
# The suites run the Asan build (ASan + LSan + UBSan). A report must never
# read as one of owners' own exit codes (0-4, 130): every sanitizer exits
# OWNERS_SAN_EXIT (86) instead of its default 1 (an ordinary error), halts
# at the first report, and ASan and LSan write it to a file of this suite's
# own (log_path) instead of stderr, so that a report from an owners run in
# the background, in a terminal (tmux, script) or with its stderr thrown
# away is still seen. (UBSan's stays on stderr: gcc links it as a library
# of its own, whose report file the log_path of either cannot move; it
# still exits 86.) `run` fails any run that exits 86 or leaves a report (its
# text appended to $err); every `run` and done_testing fail once for each
# report any other run left ("not ok", counted). tests/run exports the
# same exit code and halting.
OWNERS_SAN_EXIT=86
_san_dir=$(mktemp -d "${TMPDIR:-/tmp}/owners-san.XXXXXX")
_san_seen=0
# _san_opt VAR KEY=VALUE...: adds each KEY=VALUE to the options in VAR,
# unless they set KEY already.
_san_opt() {
  local var=$1 kv cur; shift
  cur=${!var:-}
  for kv in "$@"; do
    [[ :$cur: == *":${kv%%=*}="* ]] || cur=${cur:+$cur:}$kv
  done
  export "$var=$cur"
}
_san_opt ASAN_OPTIONS detect_leaks=1 abort_on_error=0 halt_on_error=1 "exitcode=$OWNERS_SAN_EXIT" "log_path=$_san_dir/report"
_san_opt UBSAN_OPTIONS print_stacktrace=1 halt_on_error=1 "exitcode=$OWNERS_SAN_EXIT" "log_path=$_san_dir/report"
[[ -f $E2E_ROOT/tests/unit/lsan.supp ]] && _san_opt LSAN_OPTIONS "suppressions=$E2E_ROOT/tests/unit/lsan.supp"
# SAN_ENV: the same, as NAME=VALUE words for `env -i` (a clean environment
# must keep them).
SAN_ENV=("ASAN_OPTIONS=$ASAN_OPTIONS" "UBSAN_OPTIONS=$UBSAN_OPTIONS" ${LSAN_OPTIONS:+"LSAN_OPTIONS=$LSAN_OPTIONS"})
SAN_REPORT='ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error:|AddressSanitizer:DEADLYSIGNAL|SUMMARY: (Address|Leak|UndefinedBehavior)Sanitizer'

# san_sweep [QUIET]: one failed check for each sanitizer report left since the
# last sweep (its text in the diagnostics, and appended to $err); returns 1
# if there was one.
san_sweep() {
  local f found=0 text
  for f in "$_san_dir"/report.*; do
    [[ -e $f ]] || continue
    text=$(cat "$f")
    mv "$f" "$_san_dir/seen.$((++_san_seen))"
    found=1
    err=${err:-}${err:+$'\n'}$text
    _n=$((_n + 1)) _failed=$((_failed + 1))
    echo "not ok $_n - a sanitizer report from an owners run (${f##*/report.}: pid)"
    printf '%s\n' "$text" | head -40 | sed 's/^/#   /'
  done
  return $((found))
}

cleanup_clusters() {
  local d
  for d in "${_clusters[@]}"; do
    "$E2E_ROOT/tests/cluster/down" --dir "$d" >/dev/null 2>&1 || true
    rm -rf "$d" "$d.up.log"
  done
  rm -rf "$_san_dir"
  # (every suite's EXIT trap ends here) a suite that stops before
  # done_testing, whatever its exit code, has not run its checks
  if (( ! _done )); then
    echo "# $(basename "$0") ended after $_n checks, before done_testing"
    exit 1
  fi
}
trap cleanup_clusters EXIT

# require COMMAND:PACKAGE...: a suite names the tools it runs; a missing one
# stops it at once with the Debian package to install (.ci/run installs all
# of them), rather than skipping checks or failing somewhere inside.
require() {
  local spec missing=()
  for spec in "$@"; do
    command -v "${spec%%:*}" >/dev/null 2>&1 || missing+=("${spec%%:*} (apt-get install ${spec#*:})")
  done
  if (( ${#missing[@]} )); then
    echo "Bail out! $(basename "$0") needs what is not installed: ${missing[*]}"
    exit 1
  fi
}

# debian_root DIR: a pristine minimal Debian 12 in DIR (debootstrap
# --variant=minbase, made once and cached as a tarball, about a minute).
debian_root() {
  local dir=$1 cache=${OWNERS_TESTENV_CACHE:-$HOME/.cache/owners-testenv} fresh
  local tarball=$cache/debian-bookworm-minbase.tar
  if [[ ! -f $tarball ]]; then
    mkdir -p "$cache"
    fresh=$(mktemp -d "${TMPDIR:-/tmp}/owners-debootstrap.XXXXXX")
    if ! debootstrap --variant=minbase bookworm "$fresh" http://deb.debian.org/debian >"$fresh.log" 2>&1; then
      echo "Bail out! debootstrap failed"; tail -5 "$fresh.log"; rm -rf "$fresh" "$fresh.log"; exit 1
    fi
    tar -C "$fresh" -cf "$tarball.tmp" . && mv "$tarball.tmp" "$tarball"
    rm -rf "$fresh" "$fresh.log"
  fi
  mkdir -p "$dir" && tar -C "$dir" -xf "$tarball"
}

# start_cluster VAR [up flags...]: starts a cluster, sets VAR to its dir,
# and exports KUBECONFIG for kubectl and owners alike.
start_cluster() {
  local var=$1; shift
  local d
  d=$(mktemp -d "${TMPDIR:-/tmp}/owners-e2e.XXXXXX")
  _clusters+=("$d")
  # One retry: on a loaded 2-core machine a start-up can fail for reasons
  # that have nothing to do with the test (it is reported, not hidden).
  if ! "$E2E_ROOT/tests/cluster/up" --dir "$d" "$@" >"$d.up.log" 2>&1; then
    echo "# cluster start-up failed once ($*), retrying:"
    sed 's/^/#   /' "$d.up.log" | tail -8
    "$E2E_ROOT/tests/cluster/down" --dir "$d" >/dev/null 2>&1
    if ! "$E2E_ROOT/tests/cluster/up" --dir "$d" "$@" >"$d.up.log" 2>&1; then
      echo "Bail out! cannot start a cluster ($*):"
      sed 's/^/# /' "$d.up.log"
      exit 1
    fi
  fi
  rm -f "$d.up.log"
  printf -v "$var" '%s' "$d"
  export KUBECONFIG=$d/kubeconfig
  # Each cluster gets its own discovery cache so runs never see each other.
  export XDG_CACHE_HOME=$d/cache
}

# gadget_crds: two kinds named Gadget in two groups (gadgets.a.example.com,
# gadgets.b.example.com): an ambiguous type name, rows told apart by group.
gadget_crds() {
  local g
  for g in a b; do
    kubectl apply -f - >/dev/null <<YAML
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.$g.example.com}
spec:
  group: $g.example.com
  scope: Namespaced
  names: {plural: gadgets, singular: gadget, kind: Gadget}
  versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}]
YAML
  done
}

ok() { # ok CONDITION-EXIT-STATUS DESCRIPTION
  local status=$1; shift
  _n=$((_n + 1))
  if [[ $status == 0 ]]; then
    echo "ok $_n - $*"
  else
    _failed=$((_failed + 1))
    echo "not ok $_n - $*"
    if [[ -n ${out+x} ]]; then
      echo "#   exit: ${rc:-?}"
      printf '%s\n' "${out:-}" | head -40 | sed 's/^/#   stdout: /'
      printf '%s\n' "${err:-}" | head -20 | sed 's/^/#   stderr: /'
    fi
  fi
}

# run CMD...: runs a command, keeping stdout in $out, stderr in $err and
# the exit code in $rc.
# A run that ends with the sanitizers' exit code, or prints a sanitizer
# report, or leaves one in the suite's report files, is a failed check of
# its own (whatever the caller then expects of $rc).
run() {
  local ef
  ef=$(mktemp)
  out=$("$@" 2>"$ef")
  rc=$?
  err=$(cat "$ef")
  rm -f "$ef"
  san_check "$*"
}

# san_check WHAT: the check `run` makes, for a run made some other way
# (rc, out and err set by the caller).
san_check() {
  local swept=0
  san_sweep || swept=1
  if (( ! swept )) && [[ ${rc:-} == "$OWNERS_SAN_EXIT" || ${err:-} =~ $SAN_REPORT ]]; then
    ok 1 "no sanitizer report, exit $rc is not the sanitizers' $OWNERS_SAN_EXIT: $1"
  fi
}

# owners ARGS...: the binary under test. A read command (shuffle_reads)
# is run a second time with its scan's objects and lists handed on in a
# shuffled order (OWNERS_TEST_SHUFFLE, seeds 1, 2 and 3 in turn), both at
# one clock (OWNERS_TEST_NOW); its stdout and exit code must be the same
# bytes. What the caller gets is the first run's. A difference is checked
# once more with an unshuffled run: when that one differs too, the cluster
# changed between the runs, and the pair is run again (three times at
# most) rather than blamed. E2E_SHUFFLE=0 turns it off (a suite whose
# reads race faults or a clock of their own).
# Runs often happen in $(...), a subshell: the tallies live in files.
_shuffle_dir=$(mktemp -d "${TMPDIR:-/tmp}/owners-shuffle.XXXXXX")
owners() {
  if [[ ${E2E_SHUFFLE:-1} == 0 ]] || ! shuffle_reads "$@"; then
    "$OWNERS" "$@"
    return
  fi
  local d rc rc_b rc_c rc_first now try same=0 seed
  d=$(mktemp -d)
  now=${OWNERS_TEST_NOW:-$(date +%s)}
  seed=$(( $(cat "$_shuffle_dir/runs" 2>/dev/null | wc -l) % 3 + 1 ))
  OWNERS_TEST_NOW=$now "$OWNERS" "$@" >"$d/a" 2>"$d/a.err"; rc=$?
  cp "$d/a" "$d/first"; rc_first=$rc
  # an error (exit 1: a server that does not answer, a bad flag) is no
  # answer to compare, and a second run would double the wait it measures
  (( rc == 1 )) && same=1
  for try in 1 2 3; do
    (( same )) && break
    OWNERS_TEST_NOW=$now OWNERS_TEST_SHUFFLE=$seed "$OWNERS" "$@" >"$d/b" 2>/dev/null; rc_b=$?
    if [[ $rc_b == "$rc" ]] && cmp -s "$d/a" "$d/b"; then same=1; break; fi
    OWNERS_TEST_NOW=$now "$OWNERS" "$@" >"$d/c" 2>/dev/null; rc_c=$?
    if [[ $rc_c == "$rc" ]] && cmp -s "$d/a" "$d/c"; then same=2; break; fi # the order, not the cluster
    cp "$d/c" "$d/a"; rc=$rc_c                                            # the cluster changed: again
  done
  (( rc_first == 1 )) || echo "$seed owners $*" >>"$_shuffle_dir/runs"
  if (( same == 2 )); then
    { echo "owners $* (OWNERS_TEST_SHUFFLE=$seed; exit $rc, then $rc_b):"; diff "$d/a" "$d/b" | head -20 | sed 's/^/  /'; } \
      >>"$_shuffle_dir/failed"
  elif (( same == 0 )); then
    echo "owners $*" >>"$_shuffle_dir/unsettled"
  fi
  # the first run's answer, as if run alone
  cat "$d/first"
  cat "$d/a.err" >&2
  rm -rf "$d"
  return "$rc_first"
}

# shuffle_reads ARGS...: whether owners ARGS only reads (tree, graph,
# dangling, finalizers, why, diff, unused, gc --dry-run=client), takes nothing
# on standard input and does not wait or watch.
shuffle_reads() {
  local a cmd= dry=0
  for a in "$@"; do
    case $a in
      -) return 1 ;;
      -w|--watch|--watch=*|--until|--until=*|--fix|--fix-*|remove|-f|--filename|--filename=*) return 1 ;;
      --dry-run=client|--dry-run) dry=1 ;;
    esac
    [[ -z $cmd && $a =~ ^(tree|graph|dangling|finalizers|why|diff|unused|gc|delete|snapshot|completion|__complete|version|help)$ ]] && cmd=$a
  done
  case $cmd in
    tree|graph|dangling|finalizers|why|diff|unused) return 0 ;;
    gc) (( dry )) ;;
    *) return 1 ;;
  esac
}

is() { # is GOT WANT DESCRIPTION
  local got=$1 want=$2; shift 2
  if [[ $got == "$want" ]]; then ok 0 "$*"; else ok 1 "$*"; echo "#   got:  '$got'"; echo "#   want: '$want'"; fi
}

like() { # like TEXT REGEX DESCRIPTION
  local text=$1 re=$2; shift 2
  if [[ $text =~ $re ]]; then ok 0 "$*"; else ok 1 "$*"; echo "#   '$text'"; echo "#   does not match /$re/"; fi
}

unlike() {
  local text=$1 re=$2; shift 2
  if [[ $text =~ $re ]]; then ok 1 "$*"; echo "#   '$text'"; echo "#   matches /$re/"; else ok 0 "$*"; fi
}

# wait_for DESCRIPTION SECONDS CMD...: polls until CMD succeeds.
wait_for() {
  local what=$1 secs=$2; shift 2
  local end=$((SECONDS + secs))
  while ! "$@" >/dev/null 2>&1; do
    if (( SECONDS >= end )); then
      echo "# timed out after ${secs}s waiting for: $what"
      return 1
    fi
    sleep 0.5
  done
}

# kcm_stop DIR [PID...]: pauses cluster DIR's kube-controller-manager with
# SIGSTOP (and the other PIDs given with it), just after it renewed its
# leader lease. It runs leader election as real ones do (tests/cluster/up):
# one paused in the middle of a renewal (a few milliseconds every 2 s) finds
# the renewal's deadline passed when it resumes, gives up the lease and
# exits, as a real one would, and the GC with it. Right after a renewal the
# next is ~2 s away; the lease is read every 0.1 s for a change (at most
# 5 s; at once without a lease).
kcm_stop() {
  local dir=$1 before now end=$((SECONDS + 5)); shift
  lease() { KUBECONFIG=$dir/kubeconfig kubectl -n kube-system get lease kube-controller-manager \
    -o jsonpath='{.spec.renewTime}' 2>/dev/null; }
  before=$(lease)
  while [[ -n $before ]] && (( SECONDS < end )); do
    now=$(lease)
    [[ -n $now && $now != "$before" ]] && break
    sleep 0.1
  done
  kill -STOP "$(cat "$dir/kube-controller-manager.pid")" "$@"
}

# while_paused PID CMD...: the owners run PID is in its test hook's pause
# (OWNERS_TEST_PAUSE_BEFORE_*, seen on its stderr): stops it (SIGSTOP), runs
# CMD, and lets it go on (SIGCONT). CMD then lands inside the pause however
# long it takes on a loaded machine: the pause needs to last only as long
# as noticing it, not as long as CMD. Returns CMD's status.
while_paused() {
  local pid=$1 st; shift
  kill -STOP "$pid" || { echo "# while_paused: no process $pid to stop"; return 1; }
  "$@"; st=$?
  kill -CONT "$pid"
  return $st
}

# exec_context CONTEXT PLUGIN NAMESPACE: a context whose user has no
# credential in the kubeconfig; an exec plugin (written to PLUGIN, an
# absolute path) prints the admin token as an ExecCredential
# (client.authentication.k8s.io/v1). The kubeconfig is edited directly, not
# with kubectl config: the kubectl found may follow the server's version,
# and before 1.30 it cannot set interactiveMode, which v1 requires.
exec_context() {
  local ctx=$1 plugin=$2 ns=$3
  mkdir -p "$(dirname "$plugin")" || return 1
  cat >"$plugin" <<SH
#!/bin/sh
printf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"%s"}}' "$ADMIN_TOKEN"
SH
  chmod +x "$plugin" && python3 - "$KUBECONFIG" "$ctx" "$plugin" "$ns" <<'PY'
import sys, yaml
path, ctx, plugin, ns = sys.argv[1:]
k = yaml.safe_load(open(path))
user = ctx + "-user"
k["users"] = [u for u in k.get("users") or [] if u["name"] != user] + [{"name": user, "user": {"exec": {
    "apiVersion": "client.authentication.k8s.io/v1", "command": plugin, "interactiveMode": "Never"}}}]
k["contexts"] = [c for c in k.get("contexts") or [] if c["name"] != ctx] + [{"name": ctx, "context": {
    "cluster": "owners-test", "user": user, "namespace": ns}}]
yaml.safe_dump(k, open(path, "w"), default_flow_style=False)
PY
}

# plan N: the suite makes exactly N checks, said first (TAP's plan ahead):
# done_testing fails when another number ran (checks skipped or lost).
plan() {
  _planned=$1
  echo "1..$_planned"
}

# shuffle_verdict: the shuffled reads' one check, made by done_testing
# (outside any plan: it is counted on its own). Every read that printed
# other bytes under a shuffle fails it; the count of reads compared, and
# of those the cluster kept changing under, is said.
shuffle_verdict() {
  local runs unsettled
  runs=$(cat "$_shuffle_dir/runs" 2>/dev/null | wc -l)
  unsettled=$(cat "$_shuffle_dir/unsettled" 2>/dev/null | wc -l)
  (( runs )) || return 0
  echo "# shuffle: $runs reads run again under OWNERS_TEST_SHUFFLE (seeds 1-3); $unsettled not compared (the cluster changed under them)"
  if [[ -s $_shuffle_dir/failed ]]; then
    echo "not ok - every read prints the same bytes whatever order its lists arrive in"
    sed 's/^/# /' "$_shuffle_dir/failed"
    _shuffle_failed=1
  fi
  rm -rf "$_shuffle_dir"
}

done_testing() {
  san_sweep
  shuffle_verdict
  _done=1
  if (( _n == 0 )); then
    echo "not ok 1 - the suite made no check at all"
    _n=1 _failed=1
  fi
  if [[ -n $_planned ]]; then
    if (( _n != _planned )); then
      echo "# planned $_planned checks, ran $_n"
      _failed=$((_failed + 1))
    fi
  else
    echo "1..$_n"
  fi
  if (( _failed )); then
    echo "# $_failed of $_n checks failed"
    exit 1
  fi
  if (( ${_shuffle_failed:-0} )); then
    echo "# reads printed other bytes under a shuffled scan (above)"
    exit 1
  fi
}
