#!/usr/bin/env bash
# owners with faults on the wire: Shopify's toxiproxy between owners and a
# real API server (TLS passes through it), and every command run under
# latency, a bandwidth limit, connections cut after a few kilobytes,
# connections reset again and again, a black hole (requests time out), a
# proxy that is down, and the same faults striking in the middle of a
# destructive command; then against an API server that answers 429 (tiny
# --max-requests-inflight).
#
# What is asserted, every time: the command ends either with exactly the
# right result, or with a non-zero exit and one clear "error:" line; and the
# cluster's full inventory (every object: UID, resourceVersion, owner
# references, finalizers, deletion) taken before and after shows nothing
# deleted or changed that the command did not promise (inventory.py). A
# command that failed half-way is run again without the fault and must then
# finish the job.
. "$(dirname "$0")/lib.sh"
require go:golang python3:python3
# reads here race the faults injected: their bytes are not compared under a
# shuffled scan (lib.sh), which every other suite does
E2E_SHUFFLE=0
. "$(dirname "$0")/toxiproxy.sh"

start_cluster C --gc=stalled
. "$C/env"
trap 'toxiproxy_stop; cleanup_clusters' EXIT
if ! TP_LOG=$C/toxiproxy.log toxiproxy_start "$PORT"; then
  echo "Bail out! cannot build or start toxiproxy $TOXIPROXY_VERSION"
  exit 1
fi
PK=$C/kubeconfig.proxy
proxy_kubeconfig "$KUBECONFIG" "$PK"

. "$(dirname "$0")/fixtures.sh"
SCENARIOS=(latency bandwidth cut reset blackhole down midrun-lists midrun-access midrun-writes)
make_fixtures "${SCENARIOS[@]}"
ok $? "fixtures: one namespace per scenario (${SCENARIOS[*]})"

# Owners through the proxy; each scenario has its own discovery cache, so
# its first command also discovers the API through the fault.
RT=3s
via_proxy() { owners --kubeconfig "$PK" --cache-dir "$C/cache-$ns" --request-timeout "$RT" -n "$ns" "$@"; }
direct() { owners --request-timeout 10s -n "$ns" "$@"; }

# Outcomes, for the summary at the end: "scenario command outcome"
OUTCOMES=$C/outcomes
: >"$OUTCOMES"
outcome() { echo "$scenario $1 $2" >>"$OUTCOMES"; }

# clear_error: a non-zero exit, explained on stderr: it ends with an
# "error:" line (or, for `dangling --fix`, its summary line, the reasons
# being in its table), and holds nothing but such lines, warnings and the
# log lines of a wait that lasted over 2 s when stderr is no terminal
# ("delete: background cascade: ... (3s so far)", cmd/terminal/progress_log.h: a
# fault can make a wait last) -- no sanitizer report, no stray output.
clear_error() {
  (( rc != 0 )) || return 1
  [[ $(tail -n 1 <<<"$err") =~ ^(error:|fixed:) ]] || return 1
  ! grep -vE '^(error|warning|fixed): |^owners: test hook: holding a ' <<<"$err" | grep -qvE '^(delete|gc): .* \([0-9]+s so far\)$'
}

# same_shape JSON BASELINE: JSON is one document with the kind and the
# top-level fields of BASELINE (normalized).
same_shape() {
  python3 -c '
import json, sys
got, want = json.loads(sys.argv[1]), json.loads(sys.argv[2])
assert isinstance(got, dict) and isinstance(want, dict), (type(got), type(want))
assert got.get("kind") == want.get("kind") and sorted(got) == sorted(want), (got.get("kind"), sorted(got), sorted(want))
' "$1" "$2"
}

# reads: the five read commands under the current fault; they must change
# nothing, and print what they print without the fault (or warn about what
# they could not read, or fail with one clear line).
declare -A BASELINE
baseline() {
  local r
  local fails=0
  for r in "${READS[@]}"; do
    BASELINE[$ns/$r]=$(direct $r | normalize) || fails=$((fails + 1))
  done
  ok $fails "[$scenario] the read commands answer without the fault (the baseline)"
}
reads() {
  local r before=$C/inv.$ns.r0 after=$C/inv.$ns.r1
  snap "$before"
  for r in "${READS[@]}"; do
    run via_proxy $r
    if (( rc == 0 )) && [[ $(normalize <<<"$out") == "${BASELINE[$ns/$r]}" ]]; then
      ok 0 "[$scenario] $r: the same answer as without the fault"
      outcome "${r%% *}" right
    elif (( rc == 0 )) && [[ $err == *"warning: cannot "* ]]; then
      # what it did print is still its answer: one JSON document of the
      # baseline's kind, with the baseline's fields
      same_shape "$out" "${BASELINE[$ns/$r]}"
      ok $? "[$scenario] $r: exit 0, warns about what it could not read, and prints its answer (JSON of the baseline's shape)"
      outcome "${r%% *}" warned
    else
      clear_error && [[ -z $out ]]
      ok $? "[$scenario] $r: fails with one clear error line and prints nothing"
      outcome "${r%% *}" error
    fi
  done
  snap "$after"
  run python3 "$INV" check "$before" "$after" complete
  ok $rc "[$scenario] the read commands changed nothing in the cluster"
}

# act ACT: one destructive command under the current fault (plus, with
# MIDRUN set, a command run in the background while it runs), judged.
act() {
  local a=$1 before=$C/inv.$ns.$1.0 after=$C/inv.$ns.$1.1 p
  p=$(promise "$a" "$ns")
  snap "$before"
  if [[ -n ${MIDRUN-} ]]; then
    # The phase is chosen, not timed: the requests whose path holds
    # MIDRUN_ON are held by the request-delay hook, which says so on
    # stderr; the fault strikes the moment it does, and only then is the
    # held request let go (OWNERS_TEST_DELAY_RELEASE: the file appears), so
    # it goes out into the fault however loaded the machine. The strike is
    # noted (counted in MIDRUN_STRUCK, checked at the end: the command must
    # still have been running). The hold's 120 s are a bound, never reached.
    local errf=$C/act.err ended cmd t0=$SECONDS release=$C/act.release
    rm -f "$C/strike" "$C/act.rc" "$release"
    : >"$errf"
    ( OWNERS_TEST_DELAY_REQUESTS="$MIDRUN_ON=120" OWNERS_TEST_DELAY_RELEASE=$release \
        via_proxy $(act_args "$a") >"$C/act.out" 2>"$errf"
      echo $? >"$C/act.rc" ) &
    cmd=$!
    while ! grep -q '^owners: test hook: holding a ' "$errf" && kill -0 $cmd 2>/dev/null && (( SECONDS - t0 < 120 )); do
      sleep 0.05
    done
    if grep -q '^owners: test hook: holding a ' "$errf"; then
      eval "$MIDRUN" && date +%s.%N >"$C/strike"
    fi
    touch "$release"
    wait $cmd
    ended=$(date +%s.%N)
    out=$(<"$C/act.out") err=$(<"$errf") rc=$(<"$C/act.rc")
    san_check "$(act_args "$a") (mid-run fault)"
    if [[ -s $C/strike ]] && python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) < float(sys.argv[2]) else 1)' "$(<"$C/strike")" "$ended"; then
      MIDRUN_STRUCK=$((MIDRUN_STRUCK + 1))
      echo "# $scenario: the fault struck while the command held $(grep -m1 '^owners: test hook: holding a ' "$errf" | sed 's/.*request for [0-9]* ms: //; s/ (OWNERS.*//')"
    elif grep -q '^owners: test hook: holding a ' "$errf"; then
      echo "# $scenario: the fault could not be installed: $MIDRUN"
    else
      echo "# $scenario: no request of the command held ($MIDRUN_ON): the phase never came (exit $rc):"
      head -n 5 <<<"$err" | sed 's/^/#   /'
    fi
  else
    run via_proxy $(act_args "$a")
  fi
  snap "$after"
  local what="[$scenario] $(act_args "$a")"
  if (( rc == 0 )) && [[ $err != *"warning: "* ]]; then
    run python3 "$INV" check "$before" "$after" complete $p
    ok $rc "$what: exit 0 and exactly what it promised, nothing else"
    outcome "$a" right
    return
  fi
  local first_rc=$rc first_err=$err
  if (( rc != 0 )); then
    clear_error
    ok $? "$what: exit $rc, with a clear error"
    outcome "$a" "error"
  else
    # exit 0 is success, warning or not: a destructive command that says
    # so must have done the whole job
    run python3 "$INV" check "$before" "$after" complete $p
    ok $rc "$what: exit 0 with a warning, and still exactly what it promised ($(grep -m1 'warning: ' <<<"$first_err"))"
    outcome "$a" warned
  fi
  run python3 "$INV" check "$before" "$after" partial $p
  ok $rc "$what: no wrong deletion or change (exit $first_rc)"
  if python3 "$INV" check "$before" "$after" complete $p >/dev/null; then
    echo "# $what: it had finished before it failed: $first_err"
    return
  fi
  if ! python3 "$INV" check "$before" "$after" complete >/dev/null; then
    echo "# $what: interrupted half-way ($(head -1 <<<"$first_err"))"
    python3 "$INV" diff "$before" "$after" | sed 's/^/#   done before it failed: /'
    outcome "$a" half-way
  fi
  # Again, without the fault: it must finish what it started.
  local extra=
  [[ $a == bg || $a == fg || $a == or ]] && extra=--ignore-not-found
  [[ $a == fin* ]] && ! kubectl get -n "$ns" cm "$([[ $a == fin1 ]] && echo stuck || echo stuck2)" >/dev/null 2>&1 &&
    extra=skip
  if [[ $extra != skip ]]; then
    run direct $(act_args "$a") $extra
  fi
  snap "$after.again"
  run python3 "$INV" check "$before" "$after.again" complete $p
  ok $rc "$what: run again without the fault, it finishes the job"
}

# toxics_are NAME...: the proxy holds exactly these toxics: a fault that
# never installed would turn its scenario into a run without a fault,
# every answer "the same as without the fault".
toxics_are() {
  local want got
  want=$(printf '%s\n' "$@" | sort | paste -sd' ')
  got=$(tp GET /proxies/api/toxics | python3 -c 'import json,sys; print(" ".join(sorted(t["name"] for t in json.load(sys.stdin))))')
  is "$got" "$want" "[$scenario] the fault is in place (toxics: $want)"
}

_lap=$SECONDS
lap() { echo "# ($scenario took $((SECONDS - _lap))s)"; _lap=$SECONDS; }

scenario_run() { # scenario_run: reads and every destructive command in namespace $ns
  local a
  baseline
  reads
  for a in "${ACTS[@]}"; do act "$a"; done
  lap
}

# ---- latency, bandwidth ---------------------------------------------------------
scenario=latency ns=latency
toxic lat-down latency downstream '{"latency": 200, "jitter": 100}'
toxic lat-up latency upstream '{"latency": 50, "jitter": 20}'
toxics_are lat-down lat-up
scenario_run
untoxic_all

scenario=bandwidth ns=bandwidth
toxic bw-down bandwidth downstream '{"rate": 48}'
toxic bw-up bandwidth upstream '{"rate": 16}'
toxics_are bw-down bw-up
scenario_run
untoxic_all

# ---- connections cut after a few kilobytes -----------------------------------------
# Each connection dies (FIN) after 24 kB from the server: responses are cut
# mid-body, mid-TLS-record, so requests are retried on new connections.
scenario=cut ns=cut
toxic cut limit_data downstream '{"bytes": 24000}'
toxics_are cut
scenario_run
untoxic_all

# ---- connections reset, again and again ------------------------------------------
# For 150 ms out of every 500 ms, any data from the server resets the
# connection (RST): a request in flight is lost at any point, its
# connection with it.
scenario=reset ns=reset
# (each install and removal is logged, an error with it: the flapping is
# checked, not assumed)
flap() {
  while :; do
    if toxic rst reset_peer downstream '{"timeout": 0}'; then echo on; else echo "failed to install"; fi
    sleep 0.15
    if untoxic rst; then echo off; else echo "failed to remove"; fi
    sleep 0.35
  done
}
toxic lat latency downstream '{"latency": 60, "jitter": 30}'
toxics_are lat
flap >"$C/flap.log" 2>&1 & flap_pid=$!
scenario_run
kill -0 $flap_pid 2>/dev/null
ok $? "[reset] the resets flapped all along (still flapping at the end)"
kill $flap_pid; wait $flap_pid 2>/dev/null
flaps=$(grep -c '^on$' "$C/flap.log")
(( flaps >= 10 )) && ! grep -qvE '^(on|off)$' "$C/flap.log"
ok $? "[reset] the reset toxic went in $flaps times (at least 10), every install and removal answered $(grep -vE '^(on|off)$' "$C/flap.log" | sort | uniq -c | head -3 | paste -sd' ')"
untoxic_all

# ---- a black hole, and a proxy that is down ---------------------------------------------
# Nothing comes back: every request times out (--request-timeout 3s) and is
# retried; the commands must give up with one line and change nothing. They
# run side by side (none may change anything), to keep the suite short.
parallel_all() { # every command at once, each judged on its own
  local r a i=0 pids=() names=()
  baseline
  snap "$C/inv.$ns.p0"
  for r in "${READS[@]}"; do names+=("$r"); done
  for a in "${ACTS[@]}"; do names+=("$(act_args "$a")"); done
  for r in "${names[@]}"; do
    ( via_proxy $r >"$C/p.$ns.$i.out" 2>"$C/p.$ns.$i.err"; echo $? >"$C/p.$ns.$i.rc" ) &
    pids+=($!)
    i=$((i + 1))
  done
  wait "${pids[@]}"
  snap "$C/inv.$ns.p1"
  for (( i = 0; i < ${#names[@]}; i++ )); do
    out=$(<"$C/p.$ns.$i.out") err=$(<"$C/p.$ns.$i.err") rc=$(<"$C/p.$ns.$i.rc")
    clear_error && [[ -z $out || $rc == 4 ]]
    ok $? "[$scenario] ${names[i]}: exit $rc: $(tail -n 1 <<<"$err")"
    outcome "${names[i]%% *}" error
  done
  run python3 "$INV" check "$C/inv.$ns.p0" "$C/inv.$ns.p1" complete
  ok $rc "[$scenario] nothing in the cluster changed"
  lap
}

scenario=blackhole ns=blackhole
toxic hole timeout downstream '{"timeout": 0}'
toxics_are hole
t0=$SECONDS
RT=1s parallel_all
echo "# black hole: all commands gave up within $((SECONDS - t0))s (--request-timeout 1s)"
untoxic_all

scenario=down ns=down
proxy_enabled false
[[ $(tp GET /proxies/api | python3 -c 'import json,sys; print(json.load(sys.stdin)["enabled"])') == False ]]
ok $? "[down] the proxy is down (enabled: false)"
parallel_all
run via_proxy tree cm/app
like "$err" "^error: cannot reach https://127\.0\.0\.1:$TP_PORT: Connection refused$" "[down] the error names the server and the reason"
proxy_enabled true

# ---- the fault strikes in the middle of a destructive command -------------------------------
# A black hole, the proxy going down, or a reset storm strikes in a phase
# chosen on purpose with the request-delay hook (act: the fault comes the
# moment a request of that phase is held, and the request goes out into
# it), each phase in a namespace of its own fixtures: during
# the lists (the namespace's ConfigMaps list), after them (the permission
# checks asked before the first write), and during the writes (the
# requests for the object it changes first). The finalizer removals have
# one phase: their reads and writes of the object. Whatever was done must
# be a prefix of the promise, and a second run must finish it.
# No latency before the strike: what comes before the phase must not fail
# on its own (a loaded machine and a 1 s timeout once ended a command
# before its phase came); 2 s keeps the black hole's give-up short.
RT=2s
scenario=midrun
is "$(tp GET /proxies/api/toxics)" "[]" "[midrun] no toxic before the strikes"
i=0 MIDRUN_STRUCK=0 MIDRUN_RUNS=0
phases_of() { # phases_of ACT: "name=TEXT" per phase
  case $1 in
    fix) echo "lists=configmaps?limit access=selfsubjectaccessreviews writes=configmaps/dang-" ;;
    fin1) echo "writes=configmaps/stuck" ;;
    fin2) echo "writes=configmaps/stuck2" ;;
    *) echo "lists=configmaps?limit access=selfsubjectaccessreviews writes=configmaps/$1" ;;
  esac
}
for a in "${ACTS[@]}"; do
  for phase in $(phases_of "$a"); do
    case $((i % 3)) in
      0) MIDRUN="toxic hole timeout downstream '{\"timeout\": 0}'" f=black-hole ;;
      1) MIDRUN="proxy_enabled false" f=proxy-down ;;
      2) MIDRUN="toxic rst reset_peer downstream '{\"timeout\": 0}'" f=resets ;;
    esac
    MIDRUN_ON=${phase#*=} ns=midrun-${phase%%=*}
    scenario="midrun $f during ${phase%%=*}"
    act "$a"
    proxy_enabled true
    untoxic hole 2>/dev/null; untoxic rst 2>/dev/null
    # the next command starts once requests pass again (a proxy just
    # re-enabled can drop the first connections: that command would fail
    # before the phase its fault is for)
    wait_for "the proxy to pass requests again" 20 kubectl --kubeconfig "$PK" get --raw /version --request-timeout=2s
    i=$((i + 1)) MIDRUN_RUNS=$((MIDRUN_RUNS + 1))
  done
done
unset MIDRUN MIDRUN_ON
# The phase is made, not hoped for: every fault struck while its command
# held a request of its phase.
(( MIDRUN_STRUCK == MIDRUN_RUNS ))
ok $? "[midrun] the fault struck in the phase chosen in $MIDRUN_STRUCK of $MIDRUN_RUNS commands (all)"
untoxic_all
scenario=midrun lap
RT=3s
toxiproxy_stop
"$E2E_ROOT/tests/cluster/down" --dir "$C" >/dev/null 2>&1 # done with it: free the CPU

# ---- an API server that answers 429 -------------------------------------------------------
# Priority and Fairness off and one request in flight at a time (one
# mutating): the classic max-in-flight filter answers 429 with Retry-After
# to everything beyond. system:masters is exempt from it, so the
# client-certificate user (cluster-admin, not a master) runs the commands.
OWNERS_APISERVER_EXTRA_FLAGS="--enable-priority-and-fairness=false --max-requests-inflight=1 --max-mutating-requests-inflight=1" \
  start_cluster B --gc=stalled
. "$B/env"
scenario=429 ns=throttled
make_fixtures "$ns"
ok $? "[429] fixtures"
via_proxy() { owners --context cert --cache-dir "$B/cache-$ns" --request-timeout 10s -n "$ns" -v=6 "$@"; }
direct() { owners --request-timeout 10s -n "$ns" "$@"; }
saw_429=0 honoured=1
count_429() {
  local n
  n=$(grep -c ' 429 Too Many Requests' <<<"$err")
  saw_429=$((saw_429 + n))
  # "retrying in N ms": Retry-After is 1 s, so never sooner than that
  if grep -E ' 429 Too Many Requests.*retrying in [0-9]+ ms' <<<"$err" |
     grep -qvE 'retrying in (1[0-9]{3}|[2-9][0-9]{3}) ms'; then honoured=0; fi
}
baseline
snap "$B/inv.r0"
for r in "${READS[@]}"; do
  run via_proxy $r
  count_429
  is "$rc:$(normalize <<<"$out")" "0:${BASELINE[$ns/$r]}" "[429] $r: exit 0, the same answer as an unthrottled server"
  unlike "$err" "warning:" "[429] $r: no type given up on"
  outcome "${r%% *}" right
done
snap "$B/inv.r1"
run python3 "$INV" check "$B/inv.r0" "$B/inv.r1" complete
ok $rc "[429] the read commands changed nothing"
for a in "${ACTS[@]}"; do
  before=$B/inv.$a.0 after=$B/inv.$a.1
  snap "$before"
  run via_proxy $(act_args "$a")
  count_429
  snap "$after"
  is "$rc" 0 "[429] $(act_args "$a"): exit 0"
  unlike "$err" "(warning|error):" "[429] $(act_args "$a"): nothing given up on"
  run python3 "$INV" check "$before" "$after" complete $(promise "$a" "$ns")
  ok $rc "[429] $(act_args "$a"): exactly what it promised, nothing else"
  outcome "$a" right
done
(( saw_429 > 20 ))
ok $? "[429] the server did answer 429 ($saw_429 times in -v=6 logs)"
ok $((1 - honoured)) "[429] every 429 was retried after Retry-After (1 s) or later"
lap

# ---- summary -------------------------------------------------------------------------
echo "# outcomes per scenario (right: exactly the promised result; warned: exit 0 with a"
echo "# warning about what could not be read; error: one clear error, nothing wrong done;"
echo "# half-way: failed after doing part of it, finished by a second run):"
python3 - "$OUTCOMES" <<'EOF' | sed 's/^/#   /'
import collections, sys
rows = collections.OrderedDict()
for line in open(sys.argv[1]):
    scen, rest = line.rsplit(" ", 2)[0], line.rsplit(" ", 2)[1:]
    cmd, what = rest
    rows.setdefault(scen, collections.Counter())[what.strip()] += 1
for scen, c in rows.items():
    print("%-34s %s" % (scen, ", ".join("%s %d" % kv for kv in sorted(c.items()))))
EOF

done_testing
