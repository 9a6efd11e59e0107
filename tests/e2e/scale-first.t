#!/usr/bin/env bash
# tests/e2e/scale-first.t — owners delete --scale-first against a real control
# plane: etcd, kube-apiserver and kube-controller-manager with the garbage
# collector and the workload controllers, one cluster for the whole suite.
# There is no scheduler and no kubelet: the test plays the kubelet (pods made
# Running and Ready through the status subresource, which an OrderedReady
# StatefulSet needs before it scales up or down) and the controller of a
# custom resource with a scale subresource, and records what happens with
# watches started before owners runs.
#
#   1. a StatefulSet of 3 with a volumeClaimTemplate: its pods go in reverse
#      ordinal order, one at a time, before it is deleted; its claims stay
#   2. a Deployment rolled out twice (3 ReplicaSets): paused no later than
#      scaled to 0, no ReplicaSet created during the teardown (not even when
#      its pod template changes meanwhile), all gone
#   3. a custom resource whose CRD has subresources.scale: its /scale is
#      patched, its controller waited for, then it is deleted; with no
#      controller, a timeout names the generation not observed
#   4. plans: --dry-run=client shows the scale steps first, --dry-run=server
#      changes nothing, --cascade=orphan is refused (exit 2)
#   5. kill -9 mid-way (after owners paused a Deployment), then the same
#      command finishes: nothing paused or scaled twice, nothing outside the
#      cascade touched, a Deployment the user paused left paused
#   6. a Job (parallelism 0), a DaemonSet (a note: it cannot be scaled)
#   7. timeouts (exit 3): a StatefulSet's pod held by a finalizer (the pod and
#      the finalizer named), a Deployment's (resumed: owners unpauses it)
#
#   OWNERS=build-asan/owners tests/e2e/scale-first.t
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/delete-lib.sh"
require python3:python3

plan 78   # (the same checks run every time: another count means checks lost or doubled)
SECONDS=0
helpers=()   # background watches, kubelets, controllers: ended at exit
trap 'for p in "${helpers[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; cleanup_clusters' EXIT
start_cluster C --gc=on --controllers
. "$C/env"
export SERVER ADMIN_TOKEN CA_FILE

# ---- the test's hands on the cluster ------------------------------------------
KW=$C/kw.py
cat >"$KW" <<'PY'
# kw.py MODE ARGS: the cluster's other actors for scale-first.t, straight
# on the API with the admin token (SERVER, ADMIN_TOKEN, CA_FILE).
#   watch PATH FILE     every watch event of the collection PATH, one JSON
#                       line each, after a line "LISTED names..." (the watch
#                       starts where that list ended: nothing is missed)
#   kubelet NS          every pod of NS made Running and Ready (status)
#   controller PATH     every object of PATH gets status.replicas =
#                       spec.replicas and status.observedGeneration =
#                       metadata.generation (a scale subresource's controller)
#   show FILE FIELD...  the events of a watch FILE, one line each: TYPE NAME
#                       and each FIELD (a path like spec/replicas, ~1 for a
#                       '/' in a key), '-' where absent
import http.client, json, os, ssl, sys, time

def conn():
    host, port = os.environ["SERVER"].split("//", 1)[1].rsplit(":", 1)
    ctx = ssl.create_default_context(cafile=os.environ["CA_FILE"])
    return http.client.HTTPSConnection(host, int(port), context=ctx, timeout=600)

AUTH = {"Authorization": "Bearer " + os.environ.get("ADMIN_TOKEN", "")}

def request(method, path, body=None):
    try:
        c = conn()
        h = dict(AUTH)
        if body is not None:
            h["Content-Type"] = "application/merge-patch+json"
            body = json.dumps(body)
        c.request(method, path, body=body, headers=h)
        r = c.getresponse()
        data = r.read()
        c.close()
        return r.status, data
    except OSError:
        return 0, b""

def events(path, on_list):
    """on_list(items) after each list, then each watch event, for ever."""
    while True:
        st, data = request("GET", path)
        if st != 200:
            time.sleep(0.2)
            continue
        lst = json.loads(data)
        on_list(lst["items"])
        try:
            c = conn()
            c.request("GET", "%s?watch=1&resourceVersion=%s" % (path, lst["metadata"]["resourceVersion"]), headers=AUTH)
            r = c.getresponse()
            while r.status == 200:
                line = r.readline()
                if not line:
                    break
                ev = json.loads(line)
                if ev["type"] == "ERROR":
                    break
                yield ev
            c.close()
        except OSError:
            time.sleep(0.2)

def field(o, path):
    for k in path.split("/"):
        if not isinstance(o, dict) or k.replace("~1", "/") not in o:
            return "-"
        o = o[k.replace("~1", "/")]
    return json.dumps(o).strip('"')

mode = sys.argv[1]
if mode == "watch":
    out, listed = open(sys.argv[3], "a", buffering=1), []
    def on_list(items):
        if not listed:
            out.write("LISTED %s\n" % " ".join(o["metadata"]["name"] for o in items))
            listed.append(1)
    for ev in events(sys.argv[2], on_list):
        out.write(json.dumps(ev) + "\n")
elif mode == "kubelet":
    ns = sys.argv[2]
    def ready(o):
        m, s = o["metadata"], o.get("status", {})
        if "deletionTimestamp" in m or (s.get("phase") == "Running" and any(
                c["type"] == "Ready" and c["status"] == "True" for c in s.get("conditions", []))):
            return
        now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        request("PATCH", "/api/v1/namespaces/%s/pods/%s/status" % (ns, m["name"]), {"status": {
            "phase": "Running", "conditions": [{"type": t, "status": "True", "lastTransitionTime": now}
                                               for t in ("Ready", "ContainersReady")]}})
    for ev in events("/api/v1/namespaces/%s/pods" % ns, lambda items: [ready(o) for o in items]):
        if ev["type"] in ("ADDED", "MODIFIED"):
            ready(ev["object"])
elif mode == "controller":
    path = sys.argv[2]
    def sync(o):
        want = {"replicas": o.get("spec", {}).get("replicas", 0), "observedGeneration": o["metadata"]["generation"]}
        if any(o.get("status", {}).get(k) != v for k, v in want.items()):
            request("PATCH", "%s/%s/status" % (path, o["metadata"]["name"]), {"status": want})
    for ev in events(path, lambda items: [sync(o) for o in items]):
        if ev["type"] in ("ADDED", "MODIFIED"):
            sync(ev["object"])
elif mode == "show":
    for line in open(sys.argv[2]):
        if line.startswith("LISTED"):
            continue
        ev = json.loads(line)
        print(" ".join([ev["type"], ev["object"]["metadata"]["name"]] + [field(ev["object"], f) for f in sys.argv[3:]]))
PY
kw() { python3 "$KW" "$@"; }
kubelet() { python3 "$KW" kubelet "$1" & helpers+=($!); }            # kubelet NS
controller() { python3 "$KW" controller "$1" & helpers+=($!); }      # controller PATH
# watch_start FILE PATH: a watch of PATH into FILE, returns once it is listening.
watch_start() {
  python3 "$KW" watch "$2" "$1" & helpers+=($!)
  wait_for "the watch of $2" 30 grep -q '^LISTED' "$1"
}
# seen_deleted FILE N: waits until the watch in FILE has seen N deletions
# (the objects are gone: their events are on their way).
seen_deleted() {
  wait_for "$2 deletions in $1" 30 bash -c "(( \$(grep -c '\"type\": \"DELETED\"' '$1') >= $2 ))"
}

# owners_bg LOG ARGS...: owners in the background, stdout and stderr in
# LOG.out and LOG.err; owners_wait LOG PID: waits for it, like `run` for it.
owners_bg() { local log=$1; shift; "$OWNERS" "$@" >"$log.out" 2>"$log.err" & bgpid=$!; }
owners_wait() {
  wait "$2"; rc=$?
  out=$(cat "$1.out"); err=$(cat "$1.err")
  san_check "owners in the background ($1)"
}

# mutating TEXT: the writes a -v=6 (or -v=8) log shows answered, "METHOD
# PATH STATUS" (the access reviews aside).
mutating() {
  grep -E '^(PATCH|PUT|POST|DELETE) https://[^ ]+ [0-9]{3} ' <<<"$1" | grep -v selfsubjectaccessreviews |
    awk '{print $1, $2, $3}' | sed -E 's#https://[^/]+##'
}

# bodies TEXT URL-REGEX: "URL BODY" for every write of a -v=8 log to a URL
# matching URL-REGEX.
bodies() {
  awk -v re="$2" '/^(PATCH|PUT|POST|DELETE) https:\/\/[^ ]+$/ { url = $2; want = (url ~ re) }
                  want && /^Request Body: / { print url, substr($0, 15); want = 0 }' <<<"$1"
}

# workloads NS: every Deployment, StatefulSet, ReplicaSet and Pod of NS, with
# its UID, spec.replicas, spec.paused and the pause mark owners sets.
workloads() {
  kubectl -n "$1" get deployments,statefulsets,replicasets,pods -o jsonpath='{range .items[*]}{.kind}/{.metadata.name} {.metadata.uid} replicas={.spec.replicas} paused={.spec.paused} mark={.metadata.annotations.owners\.dev/paused-for-delete}{"\n"}{end}' | sort
}

# down_then_deleted FILE: from a watch of one workload, "down" where it first
# reads spec.replicas 0, status.replicas 0 and its generation observed, and
# "deleted" where it is first seen deleting or gone.
down_then_deleted() {
  kw show "$1" spec/replicas status/replicas status/observedGeneration metadata/generation metadata/deletionTimestamp |
    awk '!d && $3 == 0 && $4 == 0 && $5 == $6 { print "down"; d = 1 }
         !g && ($1 == "DELETED" || $7 != "-") { print "deleted"; g = 1 }' | paste -sd' '
}

# sts_yaml NAME REPLICAS [CLAIMS [OWNERREF]]: a StatefulSet (OrderedReady, the
# default), with a volumeClaimTemplate "data" when CLAIMS is not empty.
sts_yaml() {
  cat <<YAML
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: $1${4:+, ownerReferences: [$4]}}
spec:
  replicas: $2
  serviceName: $1
  selector: {matchLabels: {app: $1}}
  template:
    metadata: {labels: {app: $1}}
    spec: {containers: [{name: c, image: nginx}]}
YAML
  if [[ -n ${3:-} ]]; then
    cat <<YAML
  volumeClaimTemplates:
  - metadata: {name: data}
    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
YAML
  fi
}

# dep_yaml NAME REPLICAS [OWNERREF]: a Deployment.
dep_yaml() {
  cat <<YAML
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: $1${3:+, ownerReferences: [$3]}}
spec:
  replicas: $2
  selector: {matchLabels: {app: $1}}
  template:
    metadata: {labels: {app: $1}}
    spec: {containers: [{name: c, image: nginx}]}
YAML
}

ready_count() { kubectl -n "$1" get "$2" "$3" -o jsonpath='{.status.readyReplicas}' 2>/dev/null; }

# ---- every namespace made at once, then waited for ---------------------------
for ns in sts dep cr cr2 app jobs hold; do kubectl create ns $ns >/dev/null; done
kubectl apply -f - >/dev/null <<'YAML'
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: pools.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: pools, singular: pool, kind: Pool}
  versions:
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
    subresources:
      status: {}
      scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas}
YAML
kubelet sts; kubelet app; kubelet hold
sts_yaml db 3 claims | mk sts
kubectl -n dep create deployment web --image=nginx:1 --replicas=3 >/dev/null
kubectl -n app create cm app >/dev/null
kubectl -n app create cm keep >/dev/null
app_ref=$(ref v1 ConfigMap app "$(uid -n app cm app)")
{ sts_yaml db 3 "" "$app_ref"; dep_yaml web 2 "$app_ref"; dep_yaml frozen 1 "$app_ref"; dep_yaml bystander 1; } | mk app
mk jobs <<'YAML'
---
apiVersion: batch/v1
kind: Job
metadata: {name: j}
spec:
  parallelism: 2
  completions: 4
  template:
    spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: ds}
spec:
  selector: {matchLabels: {app: ds}}
  template:
    metadata: {labels: {app: ds}}
    spec: {containers: [{name: c, image: nginx}]}
YAML
{ sts_yaml held 2; dep_yaml hd 1; } | mk hold
wait_for "pools served" 30 kubectl get pools -A
controller /apis/example.com/v1/namespaces/cr/pools
printf -- '---\n{apiVersion: example.com/v1, kind: Pool, metadata: {name: p}, spec: {replicas: 3}}\n' | mk cr
# q: a Pool whose controller is not running (its status set once, by hand)
printf -- '---\n{apiVersion: example.com/v1, kind: Pool, metadata: {name: q}, spec: {replicas: 2}}\n' | mk cr2
kubectl -n cr2 patch pool q --subresource=status --type=merge -p '{"status":{"replicas":2,"observedGeneration":1}}' >/dev/null

# web in dep: rolled out twice (a new image each time) with no kubelet: no pod
# is ever Ready, the rollouts stay under way with pods in more than one
# ReplicaSet. One pod holds a finalizer, for the teardown to wait on.
wait_for "web's first ReplicaSet" 60 bash -c '[[ $(kubectl -n dep get rs -o name | wc -l) == 1 ]]'
kubectl -n dep set image deployment/web nginx=nginx:2 >/dev/null
wait_for "web's second ReplicaSet" 60 bash -c '[[ $(kubectl -n dep get rs -o name | wc -l) == 2 ]]'
kubectl -n dep set image deployment/web nginx=nginx:3 >/dev/null
wait_for "web's third ReplicaSet" 60 bash -c '[[ $(kubectl -n dep get rs -o name | wc -l) == 3 ]]'
wait_for "web's controller done with the third template" 60 bash -c \
  '[[ $(kubectl -n dep get deploy web -o jsonpath="{.metadata.generation}/{.status.observedGeneration}") == 3/3 ]]'
webpod=$(kubectl -n dep get pods -l app=web -o jsonpath='{.items[0].metadata.name}')
kubectl -n dep patch pod "$webpod" --type=merge -p '{"metadata":{"finalizers":["example.com/hold"]}}' >/dev/null
is "$(kubectl -n dep get rs -o name | wc -l):$(kubectl -n dep get deploy web -o jsonpath='{.status.observedGeneration}') $(meta dep pod "$webpod" '{.metadata.finalizers}')" \
  '3:3 ["example.com/hold"]' "setup: Deployment web rolled out twice: 3 ReplicaSets; its pod $webpod holds example.com/hold"

wait_for "3 pods of db ready" 60 bash -c '[[ $(kubectl -n sts get sts db -o jsonpath="{.status.readyReplicas}") == 3 ]]'
claims=$(kubectl -n sts get pvc -o jsonpath='{range .items[*]}{.metadata.name} {.metadata.uid} {.metadata.ownerReferences}{"\n"}{end}')
is "$(ready_count sts sts db) $(awk '{print $1}' <<<"$claims" | paste -sd' ')" "3 data-db-0 data-db-1 data-db-2" \
  "setup: StatefulSet db: 3 pods Ready (played kubelet), 3 claims"

wait_for "pool p seen by its controller" 30 bash -c '[[ $(kubectl -n cr get pool p --subresource=scale -o jsonpath="{.status.replicas}") == 3 ]]'
is "$(kubectl -n cr get pool p --subresource=scale -o jsonpath='{.spec.replicas}/{.status.replicas}')" 3/3 \
  "setup: Pool p served with a scale subresource: 3 replicas wanted, 3 had"

wait_for "app's workloads ready" 60 bash -c '[[ $(kubectl -n app get sts db -o jsonpath="{.status.readyReplicas}") == 3 &&
  $(kubectl -n app get deploy web -o jsonpath="{.status.readyReplicas}") == 2 &&
  $(kubectl -n app get deploy frozen -o jsonpath="{.status.readyReplicas}") == 1 &&
  $(kubectl -n app get deploy bystander -o jsonpath="{.status.readyReplicas}") == 1 ]]'
kubectl -n app rollout pause deployment/frozen >/dev/null   # paused by its user, not by owners
is "$(ready_count app sts db)/$(ready_count app deploy web)/$(ready_count app deploy frozen)/$(ready_count app deploy bystander) $(meta app deploy frozen '{.spec.paused}')" \
  "3/2/1/1 true" "setup: app owns db (3), web (2), frozen (1, paused by its user); bystander (1) outside, all Ready"

wait_for "the Job's 2 pods" 60 bash -c '[[ $(kubectl -n jobs get job j -o jsonpath="{.status.active}") == 2 ]]'
is "$(kubectl -n jobs get job j -o jsonpath='{.spec.parallelism} {.status.active}')" "2 2" "setup: Job j runs 2 pods at once"

wait_for "held and hd ready" 60 bash -c '[[ $(kubectl -n hold get sts held -o jsonpath="{.status.readyReplicas}") == 2 &&
  $(kubectl -n hold get deploy hd -o jsonpath="{.status.readyReplicas}") == 1 ]]'
hdpod=$(kubectl -n hold get pods -l app=hd -o jsonpath='{.items[0].metadata.name}')
for p in held-0 "$hdpod"; do
  kubectl -n hold patch pod "$p" --type=merge -p '{"metadata":{"finalizers":["example.com/hold"]}}' >/dev/null
done
is "$(meta hold pod held-0 '{.metadata.finalizers}') $(meta hold pod "$hdpod" '{.metadata.finalizers}')" \
  '["example.com/hold"] ["example.com/hold"]' "setup: held-0 (of StatefulSet held) and $hdpod (of Deployment hd) hold example.com/hold"
echo "# setup took ${SECONDS}s"

# ---- 7 (started first, they take their time): timeouts --------------------------
owners_bg "$C/held" -n hold delete statefulset/held --scale-first --timeout=10s; held_pid=$bgpid
owners_bg "$C/hd" -n hold delete deployment/hd --scale-first --timeout=5s; hd_pid=$bgpid
owners_bg "$C/q" -n cr2 delete pool/q --scale-first --timeout=3s; q_pid=$bgpid

# ---- 1: a StatefulSet goes in reverse ordinal order ---------------------------
watch_start "$C/sts-pods.ev" /api/v1/namespaces/sts/pods
watch_start "$C/sts.ev" /apis/apps/v1/namespaces/sts/statefulsets
run owners -n sts delete statefulset/db --scale-first -v=6
ok $rc "[sts] delete statefulset/db --scale-first: exit 0"
like "$out" '^statefulset\.apps "db" scaled to 0 in namespace sts \(3 replicas gone in [0-9]+s\)' \
  "[sts] says first that it scaled db to 0 and how many replicas went"
same_text "$(mutating "$err")" "$(printf '%s\n' 'PATCH /apis/apps/v1/namespaces/sts/statefulsets/db/scale 200' 'DELETE /apis/apps/v1/namespaces/sts/statefulsets/db 200')" \
  "[sts] its writes: the patch of db's scale subresource, then the delete"
seen_deleted "$C/sts-pods.ev" 3; seen_deleted "$C/sts.ev" 1
is "$(kw show "$C/sts-pods.ev" | awk '$1 == "DELETED" {print $2}' | paste -sd' ')" "db-2 db-1 db-0" \
  "[sts] the pods went in reverse ordinal order: db-2, db-1, db-0"
is "$(kw show "$C/sts-pods.ev" metadata/deletionTimestamp | awk '
  ($1 == "DELETED" || $3 != "-") && !going[$2]++ { printf "going %s, ", $2 }
  $1 == "DELETED" { printf "gone %s, ", $2 }')" "going db-2, gone db-2, going db-1, gone db-1, going db-0, gone db-0, " \
  "[sts] one at a time: each pod's deletion began only once the one before it was gone"
is "$(down_then_deleted "$C/sts.ev")" "down deleted" \
  "[sts] the StatefulSet read 0 replicas, observed by its controller, before it was deleted"
is "$(kubectl -n sts get statefulsets,pods,controllerrevisions -o name)" "" "[sts] the StatefulSet, its pods and its revisions are gone"
is "$(kubectl -n sts get pvc -o jsonpath='{range .items[*]}{.metadata.name} {.metadata.uid} {.metadata.ownerReferences}{"\n"}{end}')" "$claims" \
  "[sts] its claims data-db-0..2 (no owner, default retention) are kept, the same objects"
asan_clean "[sts]"

# ---- 2: a Deployment with three ReplicaSets: paused, then scaled ----------------
watch_start "$C/dep-rs.ev" /apis/apps/v1/namespaces/dep/replicasets
watch_start "$C/dep.ev" /apis/apps/v1/namespaces/dep/deployments
# the teardown waits on the pod held by its finalizer: meanwhile web's pod
# template changes (a rollout asked for); paused, web starts no ReplicaSet
owners_bg "$C/dep" -n dep delete deployment/web --scale-first -v=6 --timeout=60s
dep_pid=$bgpid
wait_for "web scaled to 0" 60 bash -c '[[ $(kubectl -n dep get deploy web -o jsonpath="{.spec.replicas}") == 0 ]]'
kubectl -n dep set image deployment/web nginx=nginx:4 >/dev/null; st=$?
wait_for "the new template seen by web's controller" 30 bash -c \
  '[[ $(kubectl -n dep get deploy web -o jsonpath="{.metadata.generation}") == $(kubectl -n dep get deploy web -o jsonpath="{.status.observedGeneration}") ]]'
kill -0 $dep_pid 2>/dev/null; alive=$?
is "$st $alive $(meta dep deploy web '{.spec.template.spec.containers[0].image}')" "0 0 nginx:4" \
  "[deployment] while owners waits on the held pod, web gets a new pod template (seen by its controller)"
unhold dep pod "$webpod"
owners_wait "$C/dep" $dep_pid
ok $rc "[deployment] delete deployment/web --scale-first: exit 0 once the held pod is gone"
like "$out" $'^deployment\\.apps "web" paused in namespace dep\ndeployment\\.apps "web" scaled to 0 in namespace dep \\([0-9]+ replicas gone in [0-9]+s\\)' \
  "[deployment] says it paused web, then scaled it to 0"
unlike "$(mutating "$err")" 'PATCH [^ ]*/replicasets/' "[deployment] the ReplicaSets are not patched: they follow their Deployment down"
seen_deleted "$C/dep.ev" 1; seen_deleted "$C/dep-rs.ev" 3
is "$(kw show "$C/dep.ev" spec/replicas spec/paused 'metadata/annotations/owners.dev~1paused-for-delete' |
      awk '$3 == 0 { print "replicas=" $3, "paused=" $4, "mark=" $5; exit }')" "replicas=0 paused=true mark=true" \
  "[deployment] the watch of web: paused (and marked by owners) no later than its spec.replicas went to 0"
is "$(kw show "$C/dep-rs.ev" | awk '{n[$1]++} END {printf "%d added, %d deleted", n["ADDED"], n["DELETED"]}')" "0 added, 3 deleted" \
  "[deployment] no ReplicaSet created during the teardown (the watch saw the three go)"
is "$(kubectl -n dep get deployments,replicasets,pods -o name)" "" "[deployment] the Deployment, its ReplicaSets and pods are gone"
asan_clean "[deployment]"

# ---- 3: a custom resource with a scale subresource -------------------------------
watch_start "$C/cr.ev" /apis/example.com/v1/namespaces/cr/pools
run owners -n cr delete pool/p --scale-first -v=6
ok $rc "[custom] delete pool/p --scale-first: exit 0"
like "$err" $'(^|\n)PATCH https://[^ ]+/apis/example\\.com/v1/namespaces/cr/pools/p/scale 200 ' \
  "[custom] the patch went to the CRD's scale subresource, pools/p/scale"
like "$out" '^pool\.example\.com "p" scaled to 0 in namespace cr' "[custom] says it scaled p to 0"
seen_deleted "$C/cr.ev" 1
is "$(down_then_deleted "$C/cr.ev")" "down deleted" \
  "[custom] p read 0 replicas, its generation observed by its (played) controller, before it was deleted"
gone cr pool p; ok $? "[custom] p is gone"
asan_clean "[custom]"

# ---- 4: plans; orphan refused -----------------------------------------------------
before=$(workloads app)
inventory app "$C/app.before"
run owners -n app delete cm/app --scale-first --dry-run=client
ok $rc "[plan] --dry-run=client: exit 0"
like "$out" $'^scale first, top-down[^\n]*\n(  [^\n]*\n)+[a-z]+ cascade \\(dry run' \
  "[plan] the scale steps come first, then the cascade's plan"
like "$out" $'\n  app/statefulset\\.apps/db  scale 3 -> 0' "[plan] db: scale 3 -> 0"
like "$out" $'\n  app/deployment\\.apps/web  pause, scale 2 -> 0' "[plan] web: pause, scale 2 -> 0"
like "$out" $'\n  app/deployment\\.apps/frozen  scale 1 -> 0' "[plan] frozen (paused by its user): scale 1 -> 0, no pause"
run owners -n app delete cm/app --scale-first --dry-run=server
ok $rc "[plan] --dry-run=server: exit 0"
like "$out" 'statefulset\.apps "db" scaled to 0 \(server dry run\)' "[plan] --dry-run=server sends db's scale, said as a dry run"
like "$out" 'deployment\.apps "web" paused \(server dry run\)' "[plan] --dry-run=server sends web's pause, said as a dry run"
asan_clean "[plan] dry runs"
run owners -n app delete cm/app --scale-first --cascade=orphan
is "$rc" 2 "[orphan] --scale-first --cascade=orphan: a usage error, exit 2"
like "$err" 'orphan' "[orphan] says why"
same_text "$(workloads app)" "$before" \
  "[plan] the dry runs and the refused orphan changed nothing: spec.replicas, spec.paused, no mark, every pod the same"
inventory app "$C/app.dry"
same_text "$(inv_diff "$C/app.before" "$C/app.dry")" "" "[plan] ... nor anything else in the namespace"

# ---- 5: kill -9 mid-way, then the same command again ------------------------------
# (app's workloads are scaled one at a time, siblings in no fixed order: the
# kill comes once web is paused, whatever was done before it)
bystander=$(grep -E '/bystander' <<<"$before")
owners_bg "$C/kill" -n app delete cm/app --scale-first -v=8
kill_pid=$bgpid
wait_log "$C/kill.err" '^PATCH [^ ]*/namespaces/app/deployments/web ' 60
kill -9 $kill_pid
wait $kill_pid 2>/dev/null; st=$?
is "$st" 137 "[kill] killed with SIGKILL mid-run, once it had paused web"
is "$(meta app deploy web '{.spec.paused} {.metadata.annotations.owners\.dev/paused-for-delete}')" "true true" \
  "[kill] web is left paused, marked as paused by owners"
is "$(grep -c '^DELETE' "$C/kill.err") $(kubectl -n app get cm/app deploy/web deploy/frozen sts/db -o name | wc -l)" "0 4" \
  "[kill] nothing was deleted before the kill: no DELETE sent, app, web, frozen and db there"
same_text "$(grep -E '/bystander' <<<"$(workloads app)")" "$bystander" "[kill] after the kill the bystander is untouched"
run owners -n app delete cm/app --scale-first -v=8
ok $rc "[kill] the same command again finishes: exit 0"
both=$(cat "$C/kill.err")$'\n'$err
is "$(w=$(mutating "$both"); for x in deployments/frozen deployments/web statefulsets/db; do
        printf '%s %s, ' $x "$(grep -cE "^PATCH /apis/apps/v1/namespaces/app/$x/scale 200\$" <<<"$w")"; done)" \
  "deployments/frozen 1, deployments/web 1, statefulsets/db 1, " \
  "[kill] the killed run and the rerun together scaled each workload to 0 once: what was at 0 was not scaled again"
is "$(bodies "$both" '/deployments/web$' | grep -c '"paused"')" 1 \
  "[kill] ... and paused web once: the rerun did not pause it again, nor resume it"
is "$(bodies "$both" '/deployments/frozen$' | grep -c '"paused"')" 0 \
  "[kill] frozen, paused by its user, is never paused or resumed by owners (only its scale is patched)"
is "$(kubectl -n app get deployments,statefulsets,replicasets,pods,configmaps -o name | grep -vE '/(bystander|keep$|kube-root-ca)')" "" \
  "[kill] the whole cascade is gone: app, web, frozen, db, their ReplicaSets and pods"
same_text "$(grep -E '/bystander' <<<"$(workloads app)")" "$bystander" "[kill] the bystander Deployment, its ReplicaSet and pod: same UIDs, same replicas, not paused"
is "$(uid -n app cm keep)" "$(inv_get "$C/app.before" "ConfigMap app/keep" uid | tr -d '"')" "[kill] the bystander ConfigMap: the same object"
asan_clean "[kill] rerun"

# ---- 6: a Job, a DaemonSet ---------------------------------------------------------
run owners -n jobs delete job/j --scale-first -v=8
ok $rc "[job] delete job/j --scale-first: exit 0"
like "$out" '^job\.batch "j" parallelism set to 0 in namespace jobs \(2 pods gone in [0-9]+s\)' "[job] says it set parallelism 0 and the 2 pods went"
like "$err" $'PATCH https://[^ \n]*/apis/batch/v1/namespaces/jobs/jobs/j\n([^\n]*\n){0,8}Request Body: [^\n]*"resourceVersion":"[0-9]+"[^\n]*"spec":\\{"parallelism":0\\}' \
  "[job] the patch went to the Job itself (no scale subresource): spec.parallelism 0, with the resourceVersion read"
like "$(mutating "$err")" $'^PATCH /apis/batch/v1/namespaces/jobs/jobs/j 200\nDELETE /apis/batch/v1/namespaces/jobs/jobs/j 200' \
  "[job] patched first, deleted after"
is "$(kubectl -n jobs get jobs,pods -o name)" "" "[job] the Job and its pods are gone"
asan_clean "[job]"
run owners -n jobs delete daemonset/ds --scale-first
ok $rc "[daemonset] delete daemonset/ds --scale-first: exit 0"
like "$err" 'daemonset\.apps "ds" in namespace jobs cannot be scaled' "[daemonset] a note says it cannot be scaled"
like "$out" 'daemonset\.apps "ds" deleted in namespace jobs' "[daemonset] ... and it is deleted with the cascade"
gone jobs ds ds; ok $? "[daemonset] it is gone"
asan_clean "[daemonset]"

# ---- 7: the timeouts started at the beginning -----------------------------------
owners_wait "$C/held" $held_pid
is "$rc" 3 "[timeout] a StatefulSet whose pod holds a finalizer: exit 3 at --timeout=10s"
like "$err" 'statefulset\.apps "held" in namespace hold: 1 replica left' "[timeout] names the StatefulSet and what is left"
like "$err" 'pod "held-0" is held by finalizer example\.com/hold' "[timeout] names the pod and its finalizer"
is "$(meta hold sts held '{.spec.replicas} {.metadata.deletionTimestamp}')" "0 " "[timeout] nothing deleted; held stays at 0"
owners_wait "$C/hd" $hd_pid
is "$rc" 3 "[timeout] a Deployment whose pod holds a finalizer: exit 3 at --timeout=5s"
# The wait names the Deployment, or its ReplicaSet when the Deployment's
# status already counted the pod out (status.terminatingReplicas follows
# its ReplicaSet's by one sync of the deployment controller: which one the
# timeout finds waiting is the controllers' timing, not owners')
like "$err" "(deployment\\.apps \"hd\"|replicaset\\.apps \"hd-[a-z0-9]+\").*pod \"$hdpod\" is held by finalizer example\\.com/hold" \
  "[timeout] names the Deployment (or its ReplicaSet), the pod and its finalizer"
like "$(meta hold deploy hd '{.spec.replicas} {.spec.paused} {.metadata.annotations.owners\.dev/paused-for-delete}')" '^0 (false)? $' \
  "[timeout] owners resumed hd, which it had paused (no mark left); it stays at 0"
owners_wait "$C/q" $q_pid
is "$rc" 3 "[timeout] a custom resource whose controller is not running: exit 3 at --timeout=3s"
like "$err" 'pool\.example\.com "q" in namespace cr2: its controller has not observed generation 2' \
  "[timeout] names it and says its controller has not observed the change"
is "$(meta cr2 pool q '{.spec.replicas} {.metadata.deletionTimestamp}')" "0 " "[timeout] q is not deleted, left at 0"
unhold hold pod held-0; unhold hold pod "$hdpod"
run owners -n hold delete statefulset/held deployment/hd --scale-first --timeout=60s
ok $rc "[timeout] the finalizers removed, the same command finishes: exit 0"
is "$(kubectl -n hold get statefulsets,deployments,replicasets,pods -o name)" "" "[timeout] held, hd and their pods are gone"
asan_clean "[timeout] rerun"

echo "# scale-first.t ran in ${SECONDS}s"
done_testing
