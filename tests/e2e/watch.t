#!/usr/bin/env bash
# tests/e2e/watch.t — owners tree --watch and --until against a real
# control plane with the garbage collector and the workload controllers
# (there is no kubelet: the test marks pods Ready itself, as a kubelet
# would, through the status subresource).
#
#   OWNERS=build/owners tests/e2e/watch.t
source "$(dirname "$0")/lib.sh"
require tmux:tmux python3:python3 go:golang ss:iproute2
. "$(dirname "$0")/toxiproxy.sh"

plan 55   # (the same checks run every time: another count means checks lost or doubled)
start_cluster C --gc=on --controllers
kubectl create namespace w >/dev/null
NS=(-n w)
tmp=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; wait 2>/dev/null; tmux -L "owners-watch-$$" kill-server 2>/dev/null; toxiproxy_stop; rm -rf "$tmp"; cleanup_clusters' EXIT

# Plays the kubelet for every pod of the namespace: Running and Ready.
ready_pods() {
  local p
  for p in $(kubectl get pods -n w -o name 2>/dev/null); do
    kubectl patch -n w "$p" --subresource=status --type=merge \
      -p '{"status":{"phase":"Running","conditions":[{"type":"Ready","status":"True"}]}}' >/dev/null 2>&1
  done
}

count() { grep -cE "$2" "$1" 2>/dev/null || true; }

# ---- a rollout, as lines --------------------------------------------------
kubectl create deployment web "${NS[@]}" --image=nginx:1 --replicas=3 >/dev/null
wait_for "3 pods" 60 bash -c '[[ $(kubectl get pods -n w -o name | wc -l) == 3 ]]'
"$OWNERS" tree deployment/web "${NS[@]}" -w >"$tmp/rollout" 2>"$tmp/rollout.err" &
watcher=$!
wait_for "the first tree" 30 grep -q 'Deployment/web' "$tmp/rollout"
kubectl scale deployment web "${NS[@]}" --replicas=10 >/dev/null
wait_for "10 pods in the watch" 60 bash -c "(( \$(grep -c 'Pod/web-' '$tmp/rollout') >= 10 ))"
ok $? "scale 3 to 10: seven pods are ADDED lines after the three of the first tree"
is "$(count "$tmp/rollout" '^ADDED +w +.*Pod/web-')" 7 "exactly seven ADDED pod lines"
like "$(grep -E '^MODIFIED +w +Deployment/web ' "$tmp/rollout" | tail -1)" '/10 ' "the Deployment's line says 10 replicas wanted"
kubectl set image deployment/web "${NS[@]}" nginx=nginx:2 >/dev/null
wait_for "a new ReplicaSet" 60 grep -qE '^ADDED +w +.*ReplicaSet/web-' "$tmp/rollout"
ok $? "a new image: the new ReplicaSet appears"
ready_pods
wait_for "pods of the old ReplicaSet go" 60 grep -qE '^DELETED +w +.*Pod/web-' "$tmp/rollout"
ok $? "the old ReplicaSet drains: its pods are DELETED lines"
kill -TERM "$watcher"; wait "$watcher"
is $? 143 "SIGTERM ends the watch as a signal does"
unlike "$(cat "$tmp/rollout.err")" 'error' "no error while watching"

# ---- --until=ready ---------------------------------------------------------
kubectl create deployment api "${NS[@]}" --image=nginx --replicas=2 >/dev/null
"$OWNERS" tree deployment/api "${NS[@]}" --until=ready --timeout=120s >"$tmp/ready" 2>"$tmp/ready.err" &
waiter=$!
for _ in $(seq 1 60); do
  kill -0 "$waiter" 2>/dev/null || break
  ready_pods
  sleep 1
done
wait "$waiter"
is $? 0 "--until=ready exits 0 once the kubelet (played here) makes the pods Ready"
like "$(cat "$tmp/ready.err")" 'every object of the tree is ready' "and says so"
run kubectl rollout status deployment/api -n w --timeout=5s
is "$rc" 0 "kubectl rollout status agrees the rollout is done"

kubectl create deployment stuck "${NS[@]}" --image=nginx >/dev/null
run owners tree deployment/stuck "${NS[@]}" --until=ready --timeout=3s
is "$rc" 3 "pods never Ready: --until=ready times out with exit 3"
like "$err" 'timed out after [0-9]+s waiting for the tree to be ready: ' "naming the first object not ready"
# issue #38: the Deployment waits for its ReplicaSet, which waits for its pod:
# the one at the bottom is named, with why (no kubelet here: Pending)
like "$err" '\(pod/stuck-[a-z0-9-]+ is not ready: [A-Za-z]+' \
  "the deepest object not ready is named (the pod, not the Deployment), with why"
unlike "$err" 'deployment.apps/stuck is not ready' "  not the root that only waits for it"

run owners tree deployment/never-was "${NS[@]}" --until=gone --timeout=10s
is "$rc" 0 "--until=gone of an object that is not there: done at once"

# ---- a foreground cascade under watch, as JSON ------------------------------
"$OWNERS" tree deployment/web "${NS[@]}" --until=gone --timeout=120s -o json >"$tmp/gone.json" 2>"$tmp/gone.err" &
waiter=$!
wait_for "the first document" 30 grep -q '"OwnersTree"' "$tmp/gone.json"
"$OWNERS" delete deployment/web "${NS[@]}" --cascade=foreground >"$tmp/delete.out" 2>&1 &
deleter=$!
wait "$waiter"
is $? 0 "--until=gone exits 0 when the last object of a foreground cascade (owners delete beside it) goes"
wait "$deleter"
is $? 0 "and owners delete --cascade=foreground finished too"
run python3 - "$tmp/gone.json" <<'EOF'
import json, sys
text = open(sys.argv[1]).read()
dec, i, docs = json.JSONDecoder(), 0, []
while True:
    while i < len(text) and text[i].isspace():
        i += 1
    if i >= len(text):
        break
    d, i = dec.raw_decode(text, i)
    docs.append(d)
assert docs[0]["kind"] == "OwnersTree", docs[0]["kind"]
first = {}
def walk(items):
    for it in items:
        first[it["kind"] + "/" + it["metadata"]["name"]] = True
        walk(it["owners"].get("dependents", []))
walk(docs[0]["items"])
gone = [d["object"]["kind"] + "/" + d["object"]["metadata"]["name"] for d in docs[1:]
        if d["kind"] == "OwnersTreeEvent" and d["type"] == "DELETED" and d["apiVersion"] == "owners.dev/v1"]
assert all("dependents" not in d["object"]["owners"] for d in docs[1:]), "an event's object has no nested items"
missing = [k for k in first if k not in gone]
assert not missing, "no DELETED event for %s" % missing
pods = [i for i, k in enumerate(gone) if k.startswith("Pod/")]
deploy = gone.index("Deployment/web")
assert all(p < deploy for p in pods), "the Deployment went before its pods: %s" % gone
print(len(first), "objects,", len(docs) - 1, "events")
EOF
is "$rc" 0 "-o json: the OwnersTree, then a DELETED event for every object, pods before their Deployment (the GC's order): $out"
[[ $rc == 0 ]] || echo "# $err"

# ---- watches: the types that can hold the tree, no more ------------------
kubectl create deployment few "${NS[@]}" --image=nginx >/dev/null
"$OWNERS" tree deployment/few "${NS[@]}" -w -v=6 >/dev/null 2>"$tmp/v6" &
watcher=$!
wait_for "the watches" 30 grep -q 'watch=1' "$tmp/v6"
sleep 2
kill -INT "$watcher"; wait "$watcher"
watches=$(grep -E '^.*GET .*watch=1' "$tmp/v6" | grep -c 'namespaces/w/')
clusterwide=$(grep -E '^.*GET .*watch=1' "$tmp/v6" | grep -vc 'namespaces/w/')
# The types that can hold the tree of a namespaced root are the namespaced
# types it listed in w (a cluster-scoped object cannot depend on it): each
# of them watched once, from where its list left off, and nothing else.
python3 - "$tmp/v6" <<'PY2'
import re, sys
lists, watches = [], []
for line in open(sys.argv[1]):
    m = re.search(r'GET https?://[^/ ]+(/[^? ]*)\?(\S*)', line)
    if not m:
        continue
    path, query = m.groups()
    (watches if re.search(r'(^|&)watch=1', query) else lists).append(path)
listed = {p for p in lists if "/namespaces/w/" in p}
twice = sorted({p for p in watches if watches.count(p) > 1})
unlisted = sorted(set(watches) - listed)
unwatched = sorted(listed - set(watches))
tree = [t for t in ("/deployments", "/replicasets", "/pods") if not any(p.endswith(t) for p in watches)]
print("# %d watches, %d namespaced types listed" % (len(watches), len(listed)))
for what, v in (("watched twice", twice), ("watched, never listed", unlisted),
                ("listed, never watched", unwatched), ("the tree's own types not watched", tree)):
    if v:
        print("#   %s: %s" % (what, " ".join(v)))
sys.exit(1 if twice or unlisted or unwatched or tree else 0)
PY2
ok $? "one watch per namespaced type that can hold the tree, each type listed in w watched exactly once ($watches watches)"
is "$clusterwide" 0 "no cluster-wide watch for the dependents of a namespaced root"

# ---- roots by selector, a type alone, owners (--up) -----------------------
C_PORT=$(sed -n 's/^PORT=//p' "$C/env")
"$OWNERS" tree deployments "${NS[@]}" -l tier=front -w -v=6 >"$tmp/sel" 2>"$tmp/sel.err" &
watcher=$!
# (the Deployment must come after the list, as an event: wait for the watch)
wait_for "the watch on deployments" 30 grep -qE 'GET [^ ]*/namespaces/w/deployments\?[^ ]*watch=1' "$tmp/sel.err"
ok $? "-l: the watch on deployments started"
kubectl create deployment front "${NS[@]}" --image=nginx >/dev/null
kubectl label deployment front "${NS[@]}" tier=front >/dev/null
wait_for "the new root" 30 grep -qE '^ADDED +w +Deployment/front ' "$tmp/sel"
ok $? "-l: a Deployment that comes to match the selector appears as a root"
wait_for "its ReplicaSet" 30 grep -qE '^ADDED +w +.*ReplicaSet/front-' "$tmp/sel"
ok $? "with its dependents"
conns=$(ss -tnpH state established "( dport = :$C_PORT )" 2>/dev/null | grep -c "pid=$watcher,")
(( conns >= 1 && conns <= 2 ))
ok $? "every watch and list on one HTTP/2 connection (or two): $conns"
kubectl label deployment front "${NS[@]}" tier- >/dev/null
wait_for "the root to go" 30 grep -qE '^DELETED +w +Deployment/front ' "$tmp/sel"
ok $? "and goes when it no longer matches"
kill -INT "$watcher"; wait "$watcher"
unlike "$(grep -vE '^I|^(GET|POST|PATCH|PUT|DELETE) ' "$tmp/sel.err")" 'error' "no error"

kubectl create configmap up-owner "${NS[@]}" >/dev/null
kubectl create configmap up-dependent "${NS[@]}" >/dev/null
"$OWNERS" tree configmap/up-dependent "${NS[@]}" --up -w >"$tmp/up" 2>"$tmp/up.err" &
watcher=$!
wait_for "the first tree" 30 grep -q 'ConfigMap/up-dependent' "$tmp/up"
owner_uid=$(kubectl get configmap up-owner -n w -o jsonpath='{.metadata.uid}')
kubectl patch configmap up-dependent -n w --type=merge \
  -p "{\"metadata\":{\"ownerReferences\":[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"name\":\"up-owner\",\"uid\":\"$owner_uid\"}]}}" >/dev/null
wait_for "the new owner" 30 grep -qE '^ADDED +w +.*ConfigMap/up-owner' "$tmp/up"
ok $? "--up: an owner reference added shows its owner"
kill -INT "$watcher"; wait "$watcher"

# ---- a user who may list a type but not watch it ---------------------------
kubectl apply -f - >/dev/null <<'EOF'
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: list-not-watch, namespace: w}
rules:
- apiGroups: ["*"]
  resources: ["*"]
  verbs: ["get", "list"]
- apiGroups: ["", "apps"]
  resources: ["pods", "deployments", "replicasets"]
  verbs: ["watch"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: list-not-watch, namespace: w}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: list-not-watch}
subjects:
- {apiGroup: rbac.authorization.k8s.io, kind: User, name: list-only}
EOF
"$OWNERS" tree deployment/few "${NS[@]}" --as list-only -w >"$tmp/poll" 2>"$tmp/poll.err" &
watcher=$!
wait_for "the first tree" 30 grep -q 'Deployment/few' "$tmp/poll"
uid=$(kubectl get deployment few -n w -o jsonpath='{.metadata.uid}')
kubectl apply -f - >/dev/null <<EOF
apiVersion: v1
kind: ConfigMap
metadata:
  name: few-settings
  namespace: w
  ownerReferences: [{apiVersion: apps/v1, kind: Deployment, name: few, uid: $uid}]
EOF
wait_for "the ConfigMap by polling" 30 grep -qE '^ADDED +w +.*ConfigMap/few-settings' "$tmp/poll"
ok $? "a type it may list but not watch: a new dependent of it still shows (listed every 10 s)"
kill -INT "$watcher"; wait "$watcher"
is "$(grep -c "cannot watch 'configmaps' in namespace 'w': forbidden; listing it every 10 s instead" "$tmp/poll.err")" 1 \
  "said once, in the warning format"

# ---- the terminal view ------------------------------------------------------
kubectl create deployment tty "${NS[@]}" --image=nginx --replicas=1 >/dev/null
wait_for "its pod" 60 bash -c '[[ $(kubectl get pods -n w -l app=tty -o name | wc -l) == 1 ]]'
T=(tmux -L "owners-watch-$$") # a server of its own: two runs at once do not share one
"${T[@]}" new-session -d -s v -x 110 -y 30 "env -i ${SAN_ENV[*]@Q} PATH=$PATH HOME=$tmp HISTFILE=/dev/null TERM=xterm-256color KUBECONFIG=$KUBECONFIG XDG_CACHE_HOME=$XDG_CACHE_HOME bash --norc --noprofile"
sleep 0.5
"${T[@]}" send-keys -t v "PS1='$ '; echo BEFORE-THE-WATCH" Enter
sleep 0.5
"${T[@]}" send-keys -t v "$OWNERS tree deployment/tty -n w -w" Enter
screen() { "${T[@]}" capture-pane -p -t v; }
wait_for "the view" 30 bash -c "$(declare -f screen); T=(${T[*]}); screen | grep -qE '^owners tree deployment/tty .*watching [0-9]+ types'"
ok $? "the view is drawn, its title first"
unlike "$(screen)" 'BEFORE-THE-WATCH' "on its own screen (the alternate screen)"
like "$(screen)" '└── ReplicaSet/tty-' "with the tree"
kubectl scale deployment tty -n w --replicas=3 >/dev/null
wait_for "added rows" 30 bash -c "$(declare -f screen); T=(${T[*]}); screen | grep -qE '^\+ +w +.*Pod/tty-'"
ok $? "new pods are drawn in place, marked +"
wait_for "the marks fade" 20 bash -c "$(declare -f screen); T=(${T[*]}); ! screen | grep -qE '^\+ '"
ok $? "and the mark fades"
"${T[@]}" resize-window -t v -x 50 -y 5
wait_for "the view redrawn for 5 rows" 30 bash -c "$(declare -f screen); T=(${T[*]}); screen | grep -q 'more rows'"
ok $? "a shorter window: the last line says rows are below"
# capture-pane -J joins the lines the terminal wrapped: a line owners did
# not cut to 50 columns comes back wider (without -J it never could)
widest=$("${T[@]}" capture-pane -p -J -t v | python3 -c 'import sys; print(max(len(l.rstrip("\n")) for l in sys.stdin))')
(( widest <= 50 ))
ok $? "a narrower window: every line is cut to its width ($widest columns, joined as wrapped)"
"${T[@]}" resize-window -t v -x 110 -y 30
"${T[@]}" send-keys -t v C-c
wait_for "the shell's screen back" 10 bash -c "$(declare -f screen); T=(${T[*]}); screen | grep -q 'BEFORE-THE-WATCH'"
"${T[@]}" send-keys -t v 'echo EXIT=$?' Enter
wait_for "the shell" 10 bash -c "$(declare -f screen); T=(${T[*]}); screen | grep -q 'EXIT=[0-9]'"
like "$(screen)" 'EXIT=130' "Ctrl-C ends it as Ctrl-C ends a program (130)"
like "$(screen)" 'BEFORE-THE-WATCH' "and the terminal shows what it showed before"
unlike "$(screen)" 'watching [0-9]+ types' "without a trace of the view"
like "$(screen)" 'Deployment/tty .*
.*ReplicaSet/tty-' "but with the last tree, printed on the normal screen so that it stays"
! screen | grep -qE '^[+~] '
ok $? "  without the view's marks"
# Echo back on: an interactive bash puts back the terminal modes of a job
# that a signal ended, whatever the job did; a non-interactive one does
# not, so owners runs under a bash script (its INT trapped, so it goes on
# to stty), and stty's answer is printed on a line of its own.
cat >"$tmp/echo-probe" <<'SH'
trap : INT
"$@"
stty -a | tr ' ' '\n' | grep -xE -e '-?echo' | sed 's/^/ECHO-STATE:/'
SH
"${T[@]}" send-keys -t v "clear; bash $tmp/echo-probe $OWNERS tree deployment/tty -n w -w" Enter
wait_for "the view, again" 30 bash -c "$(declare -f screen); T=(${T[*]}); screen | grep -qE '^owners tree deployment/tty .*watching [0-9]+ types'"
"${T[@]}" send-keys -t v C-c
wait_for "stty's answer" 10 bash -c "$(declare -f screen); T=(${T[*]}); screen | grep -qxE 'ECHO-STATE:-?echo'"
is "$(screen | grep -xE 'ECHO-STATE:-?echo')" "ECHO-STATE:echo" "echo is back on (owners put it back itself)"
# A root deleted with its whole tree: the view says so, and so does what stays.
kubectl create deployment gone "${NS[@]}" --image=nginx --replicas=1 >/dev/null
wait_for "its pod" 60 bash -c '[[ $(kubectl get pods -n w -l app=gone -o name | wc -l) == 1 ]]'
"${T[@]}" send-keys -t v "clear; $OWNERS tree deployment/gone -n w -w" Enter
wait_for "the view of deployment/gone" 30 bash -c "$(declare -f screen); T=(${T[*]}); screen | grep -q 'ReplicaSet/gone-'"
kubectl delete deployment gone -n w --wait=false >/dev/null
wait_for "the deletion in the view" 60 bash -c "$(declare -f screen); T=(${T[*]}); screen | grep -q 'deployment.apps/gone was deleted'"
ok $? "a root deleted with its tree: the view says 'deployment.apps/gone was deleted'"
unlike "$(screen)" 'nothing to show yet' "  not that there is nothing to show yet"
"${T[@]}" send-keys -t v C-c
sleep 1
"${T[@]}" send-keys -t v 'echo EXIT=$?' Enter
wait_for "the shell" 10 bash -c "$(declare -f screen); T=(${T[*]}); screen | grep -q 'EXIT=[0-9]'"
screen | grep -q '^deployment.apps/gone was deleted'
ok $? "and after Ctrl-C, so does the normal screen"

# ---- faults: a broken connection, 410 Gone, the apiserver restarted -------
# Another cluster: watches served by etcd itself (no watch cache) and
# compacted every 5 s, so a watch resumed from a resourceVersion older
# than the compaction is answered 410 Gone, as after a long outage.
"$E2E_ROOT/tests/cluster/down" --dir "$C" >/dev/null 2>&1
OWNERS_APISERVER_EXTRA_FLAGS="--watch-cache=false --etcd-compaction-interval=5s" start_cluster D --gc=stalled
. "$D/env"
if ! TP_LOG=$D/toxiproxy.log toxiproxy_start "$PORT"; then
  echo "Bail out! cannot build or start toxiproxy $TOXIPROXY_VERSION"
  exit 1
fi
proxy_kubeconfig "$KUBECONFIG" "$D/kubeconfig.proxy"
kubectl create namespace f >/dev/null
kubectl create configmap root -n f >/dev/null
ROOT_UID=$(kubectl get configmap root -n f -o jsonpath='{.metadata.uid}')
dependent() { # dependent NAME: a ConfigMap owned by root
  kubectl apply -f - >/dev/null <<EOF
apiVersion: v1
kind: ConfigMap
metadata:
  name: $1
  namespace: f
  ownerReferences: [{apiVersion: v1, kind: ConfigMap, name: root, uid: $ROOT_UID}]
EOF
}
dependent first
"$OWNERS" --kubeconfig "$D/kubeconfig.proxy" tree configmap/root -n f -w -v=6 >"$tmp/f" 2>"$tmp/f.err" &
watcher=$!
wait_for "the first tree" 30 grep -q 'ConfigMap/first' "$tmp/f"
wait_for "its watches" 30 grep -q 'watch=1.*(watching)' "$tmp/f.err"

proxy_enabled false
sleep 1
dependent during-the-cut
proxy_enabled true
wait_for "the dependent made while cut off" 60 grep -qE '^ADDED +f +.*ConfigMap/during-the-cut' "$tmp/f"
ok $? "a killed connection: the watches resume from where they were (a dependent made meanwhile shows)"
is "$(grep -c 'warning: lost the connection to the server' "$tmp/f.err")" 1 "said once for every watch it broke"

cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
proxy_enabled false
cpu_before=$(cpu_ticks "$watcher")
dependent past-compaction
kubectl delete configmap first -n f >/dev/null
for i in $(seq 1 20); do kubectl label configmap root -n f --overwrite churn=$i >/dev/null; done
sleep 12   # two compaction intervals: the last resourceVersion seen is compacted away
cpu_after=$(cpu_ticks "$watcher")
(( cpu_after - cpu_before < 200 ))
ok $? "cut off, it waits out its backoff asleep: $(( cpu_after - cpu_before )) ticks of CPU in 12 s"
proxy_enabled true
wait_for "the relist" 90 grep -qE '^ADDED +f +.*ConfigMap/past-compaction' "$tmp/f"
ok $? "410 Gone: the type is listed again, and what was made meanwhile shows"
grep -q 'ConfigMap/first' <(grep -E '^DELETED' "$tmp/f")
ok $? "and what was deleted meanwhile goes"
(( $(grep -cE 'GET .*/namespaces/f/configmaps\?limit=' "$tmp/f.err") >= 2 ))
ok $? "by a new list of the type, not a resumed watch (-v=6: its list twice)"

# The apiserver restarted mid-watch: stopped, started again as it was.
apiserver_pid=$(cat "$D/kube-apiserver.pid")
mapfile -t apiserver_argv < <(tr '\0' '\n' </proc/"$apiserver_pid"/cmdline)
like "${apiserver_argv[*]:0:2}" '/testenv kube-apiserver$' "the apiserver found by its pid file ($apiserver_pid)"
kill -TERM "$apiserver_pid"
while kill -0 "$apiserver_pid" 2>/dev/null; do sleep 0.2; done
setsid nohup "${apiserver_argv[@]}" >>"$D/logs/kube-apiserver.log" 2>&1 </dev/null 9>&- &
echo $! >"$D/kube-apiserver.pid"
wait_for "the apiserver back" 90 kubectl get --raw /readyz
dependent after-restart
wait_for "the dependent made after the restart" 90 grep -qE '^ADDED +f +.*ConfigMap/after-restart' "$tmp/f"
ok $? "the apiserver restarted: the watches come back by themselves"
kill -INT "$watcher"; wait "$watcher"
is $? 130 "Ctrl-C (SIGINT) ends it"
unlike "$(grep -E '^error' "$tmp/f.err")" . "no error through it all"
toxiproxy_stop

done_testing
