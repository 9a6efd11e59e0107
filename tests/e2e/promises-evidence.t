#!/usr/bin/env bash
# What owners prints is what happens (issue #43), items 6, 8 and 9, replayed
# as a new user met them, on one cluster whose controller-manager runs the
# GC, the deployment and replicaset controllers and the namespace
# controller, with leader election as real clusters run it.
#
# 6. A stopped GC after the commonest delete: the controller-manager paused
#    (SIGSTOP), `kubectl delete deploy bgonly` (background); its ReplicaSet's
#    deletion has no due time (an owner that is gone leaves none), so only
#    the controller-manager's leader lease can tell: once it is past its
#    15 s, `gc --dry-run --stalled-after=10s` says the GC appears stopped
#    (text, and -o json gcAppearsStopped) and `why` says on what "will be
#    collected" rests. Before it expires it says the GC runs; with no lease
#    to read (deleted; a user who may not read it) it says there is no
#    evidence either way. Resumed, the real GC collects what was said.
#    Running under a storm of deletes it is never called stopped.
# 8. The backlog names the objects each action changes (-o wide, -o json).
# 9. A namespace in deletion waits on the namespace controller.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/delete-lib.sh"
require kubectl:kubectl python3:python3

plan 41

# jd DOCUMENT EXPR: EXPR over d, the parsed document.
jd() { python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print(eval(sys.argv[2]))' "$1" "$2" 2>/dev/null; }
# item DOCUMENT NAME EXPR: EXPR over o, the owners facts of the item named NAME.
item() {
  python3 -c '
import json, sys
d = json.loads(sys.argv[1])
o = [i["owners"] for i in d["items"] if i["metadata"]["name"] == sys.argv[2]][0]
print(eval(sys.argv[3]))' "$1" "$2" "$3" 2>/dev/null
}
# refs: "name=uid" of a list of REFs, sorted (o[KEY] in item's EXPR).
REFS='" ".join(sorted(r["kind"] + "/" + r["name"] + "=" + r["uid"] + ("@" + r.get("namespace", "-")) for r in o[KEY]))'
refs_expr() { local key="\"$1\""; echo "${REFS//KEY/$key}"; }
# want_refs NS KIND NAME...: the same string read with kubectl.
want_refs() {
  local ns=$1 kind=$2 n; shift 2
  for n in "$@"; do echo "$kind/$n=$(uid -n "$ns" "${kind,,}" "$n")@$ns"; done | sort | paste -sd' '
}
cms() { local ns=$1 n; shift; for n in "$@"; do kubectl -n "$ns" create configmap "$n" >/dev/null; done; }
owned() { # owned NS NAME REF...
  local ns=$1 name=$2 refs; shift 2
  refs=$(IFS=,; echo "$*")
  mk "$ns" <<YAML
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: $name, ownerReferences: [$refs]}}
YAML
}

start_cluster C --gc=on --controllers
kcm_pid() { cat "$C/kube-controller-manager.pid"; }
renewed() { kubectl -n kube-system get lease kube-controller-manager -o jsonpath='{.spec.renewTime}' 2>/dev/null; }

# ---- the controller-manager leads, as on a real cluster
r1=$(renewed)
sleep 3
r2=$(renewed)
[[ -n $r1 && $r1 != "$r2" ]]
ok $? "the controller-manager holds its leader lease and renews it ($r1, then $r2)"

kubectl create ns ci >/dev/null
kubectl -n ci create deployment bgonly --image=example.invalid/none --replicas=2 >/dev/null
wait_for "bgonly's two pods" 60 bash -c '[[ $(kubectl -n ci get pods -o name | wc -l) == 2 ]]'
ok $? "deploy/bgonly: its ReplicaSet and two pods made by the controllers"
rs=$(kubectl -n ci get rs -o jsonpath='{.items[0].metadata.name}')
pods=$(kubectl -n ci get pods -o jsonpath='{.items[*].metadata.name}')

# ---- 6. paused, after the commonest delete
kcm_stop "$C"
stopped_at=$SECONDS
kubectl -n ci delete deploy bgonly >/dev/null
run owners -n ci gc --dry-run=client --stalled-after=10s -o json
is "$(jd "$out" 'd["metadata"]["summary"]["gcEvidence"]["state"]'):$(jd "$out" 'd["metadata"]["summary"]["gcAppearsStopped"]')" \
  "running:False" "6: just paused, the lease still holds: the GC is said to run, not stopped"
like "$(jd "$out" 'd["metadata"]["summary"]["gcEvidence"]["reason"]')" "leader lease was renewed [0-9]+s ago$" \
  "   ... on the evidence of the lease, named"

# the backlog of item 8 and 9, made meanwhile in namespace bl (the GC is paused)
kubectl create ns bl >/dev/null
cms bl or-root fg-root solid
or=$(uid -n bl cm or-root) fg=$(uid -n bl cm fg-root) solid=$(uid -n bl cm solid)
for i in 1 2; do owned bl "or-dep$i" "$(ref v1 ConfigMap or-root "$or")"; done
for i in 1 2; do owned bl "fg-dep$i" "$(ref v1 ConfigMap fg-root "$fg" "blockOwnerDeletion: true")"; done
owned bl keep "$(ref v1 ConfigMap fg-root "$fg")"
owned bl strip-me "$(ref v1 ConfigMap solid "$solid")" "$(ref v1 ConfigMap ghost 00000000-0000-4000-8000-00000000dead)"
owned bl lost "$(ref v1 ConfigMap ghost2 00000000-0000-4000-8000-00000000beef)"
owned bl lost-child "$(ref v1 ConfigMap lost "$(uid -n bl cm lost)")"
kubectl -n bl delete cm or-root --cascade=orphan --wait=false >/dev/null
kubectl -n bl delete cm fg-root --cascade=foreground --wait=false >/dev/null
kubectl create ns doomed >/dev/null
cms doomed inside
kubectl delete ns doomed --wait=false >/dev/null

# the lease expires 15 s after its last renewal, at most 2 s before the pause
(( SECONDS - stopped_at < 18 )) && sleep $(( 18 - (SECONDS - stopped_at) ))
run owners -n ci gc --dry-run=client --stalled-after=10s -o json
is "$(jd "$out" 'd["metadata"]["summary"]["oldestDue"]')" "None" \
  "6: the ReplicaSet of a deployment deleted in the background has no due time (the owner left none)"
is "$(jd "$out" 'd["metadata"]["summary"]["gcAppearsStopped"]')" "True" \
  "6: paused 18 s, -o json: gcAppearsStopped true, from the lease alone"
like "$(jd "$out" 'd["metadata"]["summary"]["gcEvidence"]["state"]'): $(jd "$out" 'd["metadata"]["summary"]["gcEvidence"]["reason"]')" \
  "^appears-stopped: the controller-manager's leader lease was last renewed [0-9a-z]+ ago, past its 15s$" \
  "   gcEvidence: appears-stopped, the lease last renewed past its 15 s"
is "$(item "$out" "$rs" "$(refs_expr thenCollected)")" "$(for p in $pods; do echo "Pod/$p=$(uid -n ci pod "$p")@ci"; done | sort | paste -sd' ')" \
  "8: the ReplicaSet's delete names what goes after it: its two pods (thenCollected)"
run owners -n ci gc --dry-run=client --stalled-after=10s
like "$err" "the garbage collector appears not to be running \(the controller-manager's leader lease was last renewed [0-9]+s ago, past its 15s\): \`owners gc\` does its work" \
  "6: text: the GC appears stopped, said with the lease"
like "$out" "ReplicaSet/$rs +attemptToDeleteItem +delete \(Background\) +- " "   the ReplicaSet's deletion is in the backlog, due since an unknown time"
run owners -n ci why "rs/$rs"
like "$out" "^will be collected: ReplicaSet/$rs" "6: why: will be collected"
like "$out" "rests on: the cluster's garbage collector running, and it appears not to be: the controller-manager's leader lease was last renewed [0-9a-z]+ ago, past its 15s \\(\`owners gc -n ci\` does its work\\)"$'\n' \
  "   with its caveat: on what it rests, and that it appears not to hold"
like "$err" "the garbage collector appears not to be running" "   and the warning on stderr"
run owners -n ci why "rs/$rs" -o json
is "$(jd "$out" 'd["items"][0]["owners"]["gcEvidence"]["state"]')" "appears-stopped" "6: why -o json: gcEvidence appears-stopped"

# ---- 8. the backlog names the objects
run owners -n bl gc --dry-run=client -o json
is "$(item "$out" or-root "$(refs_expr releases)")" "$(want_refs bl ConfigMap or-dep1 or-dep2)" \
  "8: -o json: the orphan deletion's release names the two dependents (releases, with their UIDs)"
is "$(item "$out" or-root 'o["count"]')" 2 "   as many as its count"
is "$(item "$out" fg-root "$(refs_expr blockedBy)")" "$(want_refs bl ConfigMap fg-dep1 fg-dep2)" \
  "8: the foreground deletion's wait names its blocking dependents (blockedBy), not the one that does not block"
is "$(item "$out" strip-me "$(refs_expr removesReferencesTo)")" "ConfigMap/ghost=00000000-0000-4000-8000-00000000dead@bl" \
  "8: the reference removal names the owner whose reference comes off (removesReferencesTo), not the solid one"
is "$(item "$out" lost "$(refs_expr thenCollected)")" "$(want_refs bl ConfigMap lost-child)" \
  "8: a deletion names what the GC collects after it (thenCollected)"
is "$(item "$out" fg-dep1 "$(refs_expr thenCollected)")" "" "   and nothing where nothing goes after it"
is "$(item "$out" or-root 'sorted(o["releases"][0].keys())')" "['apiVersion', 'kind', 'name', 'namespace', 'uid']" \
  "8: each REF has the shape of owners' documents"
run owners -n bl gc --dry-run=client -o yaml
like "$out" $'releases:\n *- kind: ConfigMap\n *apiVersion: v1\n *namespace: bl\n *name: or-dep1\n' "8: -o yaml: the same lists"
run owners -n bl gc --dry-run=client -o wide
like "$out" "^NAMESPACE +OBJECT +HANDLER +ACTION +OBJECTS +SINCE +WHY" "8: -o wide: an OBJECTS column"
like "$out" "ConfigMap/or-root +attemptToOrphan +release 2 dependents +ConfigMap/or-dep1, ConfigMap/or-dep2 " \
  "   the release: the two dependents, named"
like "$out" "ConfigMap/fg-root +processDeletingDependentsItem +wait \(blocking-dependents\) +ConfigMap/fg-dep1, ConfigMap/fg-dep2 " \
  "   the wait: the blocking dependents, named"
like "$out" "ConfigMap/strip-me +attemptToDeleteItem +remove 1 reference +ConfigMap/ghost " "   the reference removal: the owner"
like "$out" "ConfigMap/lost +attemptToDeleteItem +delete \(Background\) +then ConfigMap/lost-child " "   the deletion: what goes after it"
run owners -n bl gc --dry-run=client
unlike "$out" "OBJECTS" "8: the default table stays as it was (no OBJECTS)"

# ---- 9. a namespace in deletion
run owners -A gc --dry-run=client
like "$out" "Namespace/doomed +attemptToDeleteItem +wait \(finalizers\) +[0-9a-z]+ +in deletion; waits on the namespace controller to empty it and remove spec.finalizers kubernetes"$'\n' \
  "9: a namespace in deletion waits on the namespace controller, its spec.finalizers named"
unlike "$out" "finalizers: "$'\n' "   no empty list of finalizers"

# ---- 6. no evidence either way
run owners -n ci why "rs/$rs" --context viewer
like "$out" "rests on: the cluster's garbage collector running, which cannot be seen from here: the controller-manager's leader lease \\(kube-system/kube-controller-manager\\) cannot be read: forbidden"$'\n' \
  "6: a user who may not read the lease: will be collected rests on the GC running, which cannot be seen"
run owners -n ci why "rs/$rs" --context viewer -o json
is "$(jd "$out" 'd["items"][0]["owners"]["gcEvidence"]["state"]')" "unknown" "   -o json: gcEvidence unknown"
kubectl -n kube-system delete lease kube-controller-manager >/dev/null
run owners -n ci gc --dry-run=client --stalled-after=10s -o json
is "$(jd "$out" 'd["metadata"]["summary"]["gcEvidence"]["state"]'):$(jd "$out" 'd["metadata"]["summary"]["gcAppearsStopped"]')" "unknown:False" \
  "6: no lease (no leader election): no evidence either way, and not called stopped"
run owners -n ci why "rs/$rs"
like "$out" "rests on: the cluster's garbage collector running, which cannot be seen from here: the controller-manager's leader lease \(kube-system/kube-controller-manager\) does not exist" \
  "   why says what its verdict rests on"

# ---- resumed: the real GC does what was said
kill -CONT "$(kcm_pid)"
wait_for "the ReplicaSet and its pods collected" 60 bash -c "[[ -z \$(kubectl -n ci get rs,pods -o name) ]]"
ok $? "6: resumed, the real GC collects the ReplicaSet and its pods, as said"
wait_for "a new lease" 30 bash -c "[[ -n \$(kubectl -n kube-system get lease kube-controller-manager -o jsonpath='{.spec.renewTime}') ]]"
ok $? "   and the controller-manager leads again (its lease made anew)"

# ---- 6. a storm of deletes: a busy GC is never called stopped
# 1500 dependents of 5 owners, made by 8 clients at once, then the owners
# deleted (background): the GC deletes them while owners gc looks, every
# second, with the threshold that found the pause above.
kubectl create ns storm >/dev/null
. "$C/env"
python3 - "$SERVER" "$ADMIN_TOKEN" "$CA_FILE" <<'PY'
import json, ssl, sys, urllib.request
from concurrent.futures import ThreadPoolExecutor
server, token, ca = sys.argv[1:]
ctx = ssl.create_default_context(cafile=ca)
def post(body):
    req = urllib.request.Request(server + "/api/v1/namespaces/storm/configmaps", data=json.dumps(body).encode(),
                                 headers={"Authorization": "Bearer " + token, "Content-Type": "application/json"})
    return json.load(urllib.request.urlopen(req, context=ctx, timeout=30))
roots = [post({"metadata": {"name": "root%d" % r}}) for r in range(5)]
def dep(i):
    o = roots[i % 5]["metadata"]
    post({"metadata": {"name": "d%d" % i, "ownerReferences": [
        {"apiVersion": "v1", "kind": "ConfigMap", "name": o["name"], "uid": o["uid"]}]}})
with ThreadPoolExecutor(8) as ex:
    list(ex.map(dep, range(1500)))
PY
ok $? "storm: 1500 dependents of 5 owners made"
kubectl -n storm delete cm root0 root1 root2 root3 root4 --wait=false >/dev/null
storm_start=$SECONDS runs=0 busy=0 said=0
while (( SECONDS - storm_start < 60 )); do
  run owners -n storm gc --dry-run=client --stalled-after=10s -o json
  runs=$((runs + 1))
  # the document is too long for an argument: read on stdin
  read -r stopped state due < <(python3 -c 'import json,sys; s=json.load(sys.stdin)["metadata"]["summary"]
print(s["gcAppearsStopped"], s["gcEvidence"]["state"], s["deletions"])' <<<"$out")
  [[ $stopped == False && $state == running ]] || { said=$((said + 1)); echo "# said: $stopped $state"; }
  (( ${due:-0} > 0 )) || break
  busy=$((busy + 1))
  sleep 1
done
echo "# storm: $busy of $runs looks saw the GC at work, over $((SECONDS - storm_start)) s"
is "$said" 0 "6: the GC at work under the storm: never called stopped, always running by its lease ($runs looks)"
(( busy >= 2 ))
ok $? "   the looks saw it busy (a backlog in $busy of them)"
run owners -n storm gc --dry-run=client -o name
is "$rc:$out" "0:" "   and it finished the storm"
asan_clean "the runs"

done_testing
