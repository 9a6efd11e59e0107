#!/usr/bin/env bash
# owners under valgrind's memcheck against a real control plane: every
# command (reads, every output format, dangling --fix, finalizers remove,
# delete in each cascade mode, dry runs), the three kinds of credentials,
# the error paths (usage, not found, unreachable, wrong CA, 401, 403, a
# malformed kubeconfig, a plugin that fails) and network faults (a
# connection cut mid-response, a proxy that is down), each checked for: no
# memcheck error (invalid read or write, use of uninitialised memory, bad
# free), no definite leak, no file descriptor left open.
#
# memcheck needs a binary without AddressSanitizer: OWNERS_VALGRIND, else
# build/owners (the RelWithDebInfo build tests/run makes).
. "$(dirname "$0")/lib.sh"

if ! command -v valgrind >/dev/null; then
  echo "Bail out! valgrind is not installed (apt-get install valgrind)"
  exit 1
fi
VG_OWNERS=${OWNERS_VALGRIND:-$E2E_ROOT/build/owners}
if [[ ! -x $VG_OWNERS ]]; then
  echo "Bail out! no binary to run under valgrind: build $VG_OWNERS (cmake -S . -B build) or set OWNERS_VALGRIND"
  exit 1
fi
if grep -q libasan <<<"$(ldd "$VG_OWNERS")"; then
  echo "Bail out! $VG_OWNERS is built with AddressSanitizer; valgrind needs a plain build"
  exit 1
fi

start_cluster C --gc=stalled
. "$C/env"
. "$(dirname "$0")/fixtures.sh"
. "$(dirname "$0")/toxiproxy.sh"
trap 'toxiproxy_stop; cleanup_clusters' EXIT
export XDG_CACHE_HOME=$C/cache
mkdir -p "$C/vg"

make_fixtures vg vg-dry
ok $? "fixtures"
kubectl create namespace vg-term >/dev/null && kubectl delete namespace vg-term --wait=false >/dev/null
# delete --scale-first (no workload controller here): vgweb has no status
# and goes at once; vgstuck reports 2 replicas that nobody takes down, so
# it is paused, scaled, waited for, timed out (its pods looked for) and
# resumed
kubectl -n vg create deployment vgweb --image=example.com/x --replicas=2 >/dev/null
kubectl -n vg create deployment vgstuck --image=example.com/x --replicas=2 >/dev/null
kubectl -n vg patch deployment vgstuck --subresource=status --type=merge \
  -p '{"status":{"replicas":2,"observedGeneration":1}}' >/dev/null
ok $? "scale-first fixtures: two Deployments, one reporting replicas no controller removes"
exec_context exec "$C/bin/plugin.sh" vg
printf 'apiVersion: v1\nclusters: [\n' >"$C/broken.yaml"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj /CN=other \
  -keyout "$C/other.key" -out "$C/other.crt" -days 1 2>/dev/null
cat >"$C/bin/failing-plugin.sh" <<'SH'
#!/bin/sh
echo 'not json'; exit 1
SH
chmod +x "$C/bin/failing-plugin.sh"
kubectl config set-credentials failing-user --exec-api-version=client.authentication.k8s.io/v1 \
  --exec-command="$C/bin/failing-plugin.sh" --exec-interactive-mode=Never >/dev/null
kubectl config set-context failing --cluster=owners-test --user=failing-user >/dev/null
TP_LOG=$C/toxiproxy.log toxiproxy_start "$PORT" || { echo "Bail out! cannot start toxiproxy"; exit 1; }
proxy_kubeconfig "$KUBECONFIG" "$C/kubeconfig.proxy"

# The runs: "NAME|EXPECTED-EXIT|ARGS..." (ARGS split on blanks). Most run
# in namespace vg; the destructive ones there for real.
runs=(
  "tree|0|-n vg tree cm/app"
  "tree-wide|0|-n vg tree cm/app -o wide"
  "tree-json|0|-n vg tree cm/app -o json"
  "tree-yaml|0|-n vg tree cm/app -o yaml"
  "tree-dot|0|-n vg tree cm/app -o dot"
  "tree-name|0|-n vg tree cm/app -o name"
  "tree-up|0|-n vg tree cm/app-g1 --up"
  "graph|0|-n vg graph"
  "graph-A-json|0|graph -A -o json"
  "graph-dot|0|-n vg graph -o dot"
  "dangling|0|-n vg dangling -o wide"
  "dangling-json|0|-n vg dangling -o json"
  "finalizers|0|-n vg finalizers"
  "finalizers-json|0|-n vg finalizers -o json"
  "fix-dry-run|0|-n vg-dry dangling --fix --dry-run=server"
  "gc-dry-run|0|-n vg-dry gc --dry-run=client -o json"
  "gc-dry-server|0|-n vg-dry gc --dry-run=server"
  "fin-dry-run|0|-n vg-dry finalizers remove cm/stuck --all-finalizers --dry-run=server"
  "delete-dry-client|0|-n vg-dry delete cm/fg --cascade=foreground --dry-run=client"
  "delete-dry-server|0|-n vg-dry delete cm/bg --dry-run=server"
  "dangling-fix|0|-n vg dangling --fix"
  "fin-remove|0|-n vg finalizers remove cm/stuck --finalizer example.com/hold"
  "fin-remove-partial|0|-n vg finalizers remove cm/stuck2 --finalizer example.com/a"
  "fin-remove-ns|0|finalizers remove namespace/vg-term --finalizer kubernetes"
  "delete-background|0|-n vg delete cm/bg"
  "delete-foreground|0|-n vg delete cm/fg --cascade=foreground"
  "delete-orphan|0|-n vg delete cm/or --cascade=orphan -o name"
  "delete-scale-dry|0|-n vg delete deploy/vgweb deploy/vgstuck --scale-first --dry-run=client"
  "delete-scale-first|0|-n vg delete deploy/vgweb --scale-first"
  "delete-scale-timeout|3|-n vg delete deploy/vgstuck --scale-first --timeout=3s"
  "gc|0|-n vg gc"
  "cert-user|0|--context cert -n vg tree cm/app -v=9"
  "exec-user|0|--context exec tree cm/app -v=8"
  "viewer-forbidden|0|--context viewer -n vg-dry tree cm/app"
  "unknown-type|2|tree frobnicator/x"
  "not-found|1|tree cm/nope"
  "usage|2|tree --depth nope"
  "unreachable|1|--server https://127.0.0.1:1 --request-timeout 2s tree cm/app"
  "wrong-ca|1|--certificate-authority $C/other.crt tree cm/app"
  "bad-token|1|--token not-a-valid-token tree cm/app"
  "forbidden|1|--as nobody-at-all tree cm/app"
  "malformed-kubeconfig|1|--kubeconfig $C/broken.yaml tree cm/app"
  "failing-plugin|1|--context failing tree cm/app"
  "conn-cut|0|--kubeconfig $C/kubeconfig.proxy --cache-dir $C/cache-cut -n vg-dry graph -o json"
  "proxy-down|1|--kubeconfig $C/kubeconfig.proxy --cache-dir $C/cache-down -n vg-dry tree cm/app"
)
vg_run() { # vg_run NAME ARGS...: one run under memcheck, its exit code in $C/vg/NAME.rc
  local name=$1; shift
  # (a plugin's child is not owners: nothing of it is reported between its
  # fork and its exec)
  valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite --track-fds=yes \
    --child-silent-after-fork=yes \
    --log-file="$C/vg/$name.log" "$VG_OWNERS" "$@" >"$C/vg/$name.out" 2>"$C/vg/$name.err"
  echo $? >"$C/vg/$name.rc"
}

t0=$SECONDS
pending=()
for r in "${runs[@]}"; do
  IFS='|' read -r name want args <<<"$r"
  case $name in
    conn-cut) toxic cut limit_data downstream '{"bytes": 30000}' ;;
    proxy-down) untoxic_all; proxy_enabled false ;;
  esac
  if [[ $name == delete-* || $name == fin-remove* || $name == dangling-fix || $name == conn-cut ||
        $name == proxy-down ]]; then
    # the destructive ones one after the other, alone with the faults
    # (never a bare `wait`: it would wait for toxiproxy too)
    (( ${#pending[@]} )) && wait "${pending[@]}"
    pending=()
    vg_run "$name" $args
  else
    vg_run "$name" $args &
    pending+=($!)
    if (( ${#pending[@]} >= 2 )); then wait "${pending[@]}"; pending=(); fi
  fi
done
(( ${#pending[@]} )) && wait "${pending[@]}"
echo "# ${#runs[@]} runs under valgrind in $((SECONDS - t0))s"

for r in "${runs[@]}"; do
  IFS='|' read -r name want args <<<"$r"
  log=$C/vg/$name.log
  rc=$(<"$C/vg/$name.rc")
  errors=$(grep -o 'ERROR SUMMARY: [0-9]* errors' "$log" | tail -1)
  lost=$(grep -oE 'definitely lost: [0-9,]+ bytes in [0-9,]+ blocks|All heap blocks were freed' "$log" | tail -1)
  usage=$(grep -oE 'total heap usage: .*' "$log" | tail -1)
  fds=$(grep -oE 'FILE DESCRIPTORS: [0-9]+ open \([0-9]+ std\)' "$log" | tail -1)
  [[ $rc == "$want" && $errors == "ERROR SUMMARY: 0 errors" &&
     ( $lost == "All heap blocks were freed" || $lost == "definitely lost: 0 bytes in 0 blocks" ) ]]
  ok $? "$name (owners $args): exit $rc, $errors, ${lost:-no leak summary}"
  if [[ $rc != "$want" || $errors != "ERROR SUMMARY: 0 errors" ]]; then
    sed 's/^/#   stderr: /' "$C/vg/$name.err" | head -5
    grep -E '^==[0-9]+== +(Invalid|Conditional|Use of|at|by) ' "$log" | head -20 | sed 's/^/#   /'
  fi
  # what owners opened and did not close: every descriptor open at exit but
  # those it inherited (the standard ones, the harness's own)
  opened=$(awk '/Open file descriptor [0-9]+:/ { d = $0; getline; if ($0 !~ /inherited from parent/) { n++; print "#   left open: " d } }
                END { print n + 0 }' "$log")
  [[ -n $fds && $(tail -1 <<<"$opened") == 0 ]]
  ok $? "$name: no file descriptor left open ($fds, $(tail -1 <<<"$opened") of them opened by owners)"
  [[ $(tail -1 <<<"$opened") == 0 ]] || head -n -1 <<<"$opened"
  echo "#   $usage"
done
# the plugin cases failed for the right reason (a plugin that is not found
# exits 1 as well)
like "$(<"$C/vg/failing-plugin.err")" "^error: credential plugin '.*failing-plugin.sh' exited with status 1" \
  "failing-plugin: the plugin ran and its exit status is reported"
like "$(<"$C/vg/exec-user.out")" "ConfigMap/app" "exec-user: the plugin's token was used (the tree is shown)"
# the scale-first runs did what they say
is "$(kubectl -n vg get deploy vgstuck -o jsonpath='{.spec.replicas}/{.spec.paused}/{.metadata.annotations.owners\.dev/paused-for-delete}')" \
  "0//" "delete-scale-timeout: scaled to 0, then resumed (paused no more: owners paused it), its mark removed"
like "$(<"$C/vg/delete-scale-timeout.err")" 'timed out after 3s scaling down deployment.apps "vgstuck".*has not observed generation' \
  "delete-scale-timeout: the timeout names the Deployment and why (no controller observed the change)"
kubectl -n vg get deploy vgweb >/dev/null 2>&1
ok $(( ! $? )) "delete-scale-first: vgweb is gone"

done_testing
