#!/usr/bin/env bash
# The relations (#54): who uses what, beside who owns what, on a real
# control plane with the workload and endpoint-slice controllers, one
# object for every relation owners reads (tests/e2e/relations/fixture.yaml):
# tree --related (down and --up), why's users, delete's users outside the
# cascade and --if-unused, dangling --related, unused, and the same answers
# --from a snapshot taken with --related and from a kubectl dump.
. "$(dirname "$0")/lib.sh"
require python3:python3

start_cluster C --gc=stalled --controllers --endpoint-slices
. "$C/env"
here=$(cd "$(dirname "$0")" && pwd)
# absent TEXT REGEX DESCRIPTION: TEXT is an answer (not empty) without
# REGEX; a command that failed and printed nothing is no proof of absence.
absent() {
  local text=$1 re=$2; shift 2
  if [[ -n $text && ! $text =~ $re ]]; then ok 0 "$*"; else ok 1 "$*"; echo "#   '$text'"; echo "#   is empty or matches /$re/"; fi
}
# same A B DESCRIPTION: two answers that are the same, and are answers.
same() {
  local a=$1 b=$2; shift 2
  if [[ -n $a && $a == "$b" ]]; then ok 0 "$*"; else ok 1 "$*"; diff <(printf '%s\n' "$a") <(printf '%s\n' "$b") | head -10 | sed 's/^/#   /'; fi
}

kubectl apply -f "$here/relations/fixture.yaml" >/dev/null
wait_for "web's Pod" 60 bash -c '[[ -n $(kubectl -n shop get pods -l app=web -o name) ]]'
wait_for "db's two claims" 60 bash -c '[[ $(kubectl -n shop get pvc -o name | grep -c pgdata-db-) == 2 ]]'
pod=$(kubectl -n shop get pods -l app=web -o jsonpath='{.items[0].metadata.name}')
rs=$(kubectl -n shop get rs -l app=web -o jsonpath='{.items[0].metadata.name}')
# No kubelet here: bind the Pod to node-1 and give it an address, as a
# kubelet would, so that the endpoint-slice controller routes to it.
printf '{"apiVersion":"v1","kind":"Binding","metadata":{"name":"%s"},"target":{"apiVersion":"v1","kind":"Node","name":"node-1"}}' "$pod" |
  kubectl create --raw "/api/v1/namespaces/shop/pods/$pod/binding" -f - >/dev/null
kubectl -n shop patch pod "$pod" --subresource=status --type=merge \
  -p '{"status":{"podIP":"10.1.2.3","podIPs":[{"ip":"10.1.2.3"}]}}' >/dev/null
wait_for "Service web's endpoint" 60 bash -c \
  '[[ -n $(kubectl -n shop get endpointslices -l kubernetes.io/service-name=web -o jsonpath="{.items[*].endpoints[*].targetRef.name}") ]]'

# ---- tree --related: what each row uses ------------------------------------
run owners -n shop tree deployment/web --related
ok $rc "tree deployment/web --related exits 0"
like "$out" "NAME +READY +STATUS +AGE +RELATION" "a RELATION column"
like "$out" "Pod/$pod.*"$'\n'".*ConfigMap/app .*mounts spec\.volumes\[0\]\.configMap; reads env from spec\.initContainers\[0\]\.env\[0\]\.valueFrom\.configMapKeyRef; reads all env from spec\.containers\[0\]\.envFrom\[0\]\.configMapRef" \
  "the Pod's every use of ConfigMap app on one row: volume, an init container's env, envFrom"
like "$out" "ConfigMap/projected .*mounts \(projected\) spec\.volumes\[2\]\.projected\.sources\[0\]\.configMap" "a projected source"
like "$out" "PersistentVolumeClaim/data .*claims spec\.volumes\[1\]\.persistentVolumeClaim" "the claim it mounts"
like "$out" "Secret/pull .*pulls images with spec\.imagePullSecrets\[0\]" "the Secret it pulls with"
like "$out" "ServiceAccount/web .*runs as spec\.serviceAccountName" "its ServiceAccount"
like "$out" "PriorityClass/high .*has priority spec\.priorityClassName" "its PriorityClass"
like "$out" "RuntimeClass/fast .*runs with spec\.runtimeClassName" "its RuntimeClass"
like "$out" "Node/node-1 .*runs on spec\.nodeName" "the Node it runs on"
like "$out" "ConfigMap/extra .*reads env from spec\.containers\[0\]\.env\[0\]\.valueFrom\.configMapKeyRef, optional +missing" \
  "an optional ConfigMap that is missing: said missing, and optional"
like "$out" "ReplicaSet/$rs.*"$'\n'"(.*"$'\n'")*.*ConfigMap/app .*mounts spec\.template\.spec\.volumes\[0\]\.configMap" \
  "the ReplicaSet's template uses it too"
run owners -n shop tree deployment/web
absent "$out" "RELATION|ConfigMap/app" "without --related: ownership alone, as before"

run owners -n shop tree statefulset/db --related
like "$out" "PersistentVolumeClaim/pgdata-db-0 .*claims \(template\) spec\.volumeClaimTemplates\[0\]" "a StatefulSet's claim template: ordinal 0's claim"
like "$out" "PersistentVolumeClaim/pgdata-db-1 .*claims \(template\) spec\.volumeClaimTemplates\[0\]" "  and ordinal 1's"

run owners -n shop tree service/web --related
like "$out" "Service/web.*"$'\n'".*EndpointSlice/web-.*"$'\n'".*Pod/$pod .*routes to endpoints\[0\]\.targetRef" \
  "a Service routes to its Pod through its EndpointSlice (what the cluster routes)"
run owners -n shop tree service/empty --related
is "$(grep -c . <<<"$out")" 2 "a Service with an empty selector selects no Pod: header and its own row"

run owners tree pv/pv-data --related
like "$out" "PersistentVolume/pv-data.*"$'\n'".*shop +├── PersistentVolumeClaim/data .*is bound to spec\.claimRef" \
  "a volume's claim, found in the claim's namespace (the volume has none)"
like "$out" "StorageClass/manual .*is of class spec\.storageClassName" "its StorageClass"
run owners tree pv/pv-data --up --related
like "$out" "shop +[├└]── PersistentVolumeClaim/data .*is bound to spec\.volumeName" "--up: the claim bound to it uses it"
like "$out" "VolumeAttachment/va-1 .*attaches spec\.source\.persistentVolumeName" "  and the VolumeAttachment"

# ---- --up: who uses an object, and their owners ---------------------------
run owners -n shop tree configmap/app --up --related
ok $rc "tree configmap/app --up --related exits 0"
like "$out" "├── Deployment/web .*mounts spec\.template\.spec\.volumes\[0\]\.configMap" "the Deployment whose template names it"
like "$out" "Pod/$pod .*mounts spec\.volumes\[0\]\.configMap.*"$'\n'".*└── ReplicaSet/$rs.*"$'\n'".*└── Deployment/web" \
  "the Pod that mounts it, then its owners up to the root: ReplicaSet, Deployment"
run owners -n shop tree secret/creds --up --related
like "$out" "Deployment/idle .*mounts spec\.template\.spec\.volumes\[0\]\.secret" "a Deployment scaled to 0 uses the Secret its template mounts"
like "$out" "ReplicaSet/idle-.*mounts" "  and so does its ReplicaSet (a rollback brings it back)"
like "$out" "CronJob/nightly .*reads env from spec\.jobTemplate\.spec\.template\.spec\.containers\[0\]\.env\[0\]\.valueFrom\.secretKeyRef" \
  "a CronJob between runs uses the Secret its job template reads"
run owners -n shop tree secret/tls --up --related
like "$out" "Ingress/web .*serves TLS with spec\.tls\[0\]" "an Ingress's TLS Secret"
run owners -n shop tree service/web --up --related
like "$out" "Ingress/web .*routes to spec\.rules\[0\]\.http\.paths\[0\]\.backend\.service" "an Ingress's backend Service"
run owners -n shop tree service/hook --up --related
like "$out" "ValidatingWebhookConfiguration/hook .*calls webhooks\[0\]\.clientConfig\.service" "a webhook's Service"
run owners tree ingressclass/nginx --related
like "$out" "ConfigMap/ingress-params .*is configured by spec\.parameters" "an IngressClass's parameters"
run owners -n shop tree role/reader --up --related
like "$out" "RoleBinding/reader .*binds roleRef" "a binding of a Role"
run owners tree clusterrole/cr-viewer --up --related
like "$out" "ClusterRoleBinding/cr-viewer .*binds roleRef" "a binding of a ClusterRole"
run owners -n shop tree serviceaccount/web --up --related
like "$out" "RoleBinding/reader .*grants to subjects\[0\]" "a binding's ServiceAccount subject"
like "$out" "Secret/web-token .*is a token of metadata\.annotations" "a token Secret's ServiceAccount"
run owners -n shop tree serviceaccount/lonely --up --related
like "$out" "ClusterRoleBinding/cr-viewer .*grants to subjects\[1\]" "a binding's User subject that is a ServiceAccount by its username"
run owners -n shop tree serviceaccount/web --related
like "$out" "Secret/pull .*pulls images with imagePullSecrets\[0\]" "a ServiceAccount's imagePullSecrets"
run owners -n shop tree deployment/web --up --related
like "$out" "HorizontalPodAutoscaler/web .*scales spec\.scaleTargetRef" "an HPA's target"
run owners -n shop tree pod/"$pod" --up --related
like "$out" "PodDisruptionBudget/web .*selects spec\.selector" "a PDB selects the Pod"
like "$out" "NetworkPolicy/all .*selects spec\.podSelector" "a NetworkPolicy's empty podSelector selects every Pod"
run owners -n shop tree configmap/template-only --up --related
like "$out" "PodTemplate/tmpl .*mounts template\.spec\.volumes\[0\]\.configMap" "a PodTemplate"

# documents carry each edge's relation, path and optional flag
run owners -n shop tree deployment/web --related -o json
printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
rows = [i for i in d["items"] if i["owners"].get("relations")]
extra = [r for i in rows for r in i["owners"]["relations"] if r["used"]["name"] == "extra"]
assert extra and all(r["optional"] and r["state"] == "missing" and r["relation"] == "env" for r in extra), extra
app = [r for i in rows for r in i["owners"]["relations"] if r["used"]["name"] == "app" and r["user"]["kind"] == "Pod"]
assert {r["relation"] for r in app} == {"mounts", "env", "envFrom"}, app
assert all(r["path"].startswith("spec.") for r in app), app
'
ok $? "-o json: each row's relations with key, path, optional and state"

# ---- why: its users, and what it uses that is not there --------------------
run owners -n shop why configmap/app
like "$rc:$out" "^0:kept: ConfigMap/app" "why configmap/app exits 0, its verdict first"
like "$out" "Used by: [0-9]+ \(a delete of it breaks them\)" "why says how many uses a delete breaks"
like "$out" "Pod/$pod mounts spec\.volumes\[0\]\.configMap" "  naming the Pod and its field"
run owners -n shop why deployment/web
like "$out" "Uses, not there:"$'\n'"  ConfigMap/extra \(missing\): reads env from .*optional" "why: what it uses that is missing, optional said"
run owners -n shop why rolebinding/ghost
like "$out" "Role/missing-role \(missing\): binds roleRef" "why: a binding to a missing Role"
run owners -n shop why configmap/orphan-config -o json
printf '%s' "$out" | python3 -c '
import json, sys
f = json.load(sys.stdin)["items"][0]["owners"]
assert f["usedBy"] == [] and f["usersUnseen"] == [], f
'
ok $? "why -o json: usedBy [] and usersUnseen [] for what nothing uses"

# ---- dangling --related ------------------------------------------------------
run owners -n shop dangling --related
ok $rc "dangling --related exits 0"
like "$out" "RoleBinding/ghost +Role/missing-role +missing +the binding grants nothing" "a binding to a missing Role, and what it breaks"
like "$out" "Ingress/broken +Service/missing-svc +missing +its traffic has no backend" "an Ingress to a missing Service"
like "$out" "HorizontalPodAutoscaler/ghost +Deployment/gone +missing +the autoscaler scales nothing" "an HPA to a missing target"
like "$out" "Secret/ghost-token +ServiceAccount/ghost-sa +missing +the token authenticates as nothing" "a token of a missing ServiceAccount"
absent "$out" "extra" "an optional ConfigMap that is missing breaks nothing: not listed"
absent "$out" "lonely|StorageClass/manual" "a bound claim's class and a binding's subjects are not dangling"
run owners -n shop dangling --related --exit-code -o name
is "$rc:$(tr '\n' ' ' <<<"$out")" "1:horizontalpodautoscaler.autoscaling/ghost ingress.networking.k8s.io/broken rolebinding.rbac.authorization.k8s.io/ghost secret/ghost-token " \
  "--exit-code: 1 when anything is listed; -o name: each object once"
run owners -n shop dangling --related --fix
like "$rc:$err" "^2:error: --related lists what does not resolve: there is nothing to fix" "--related with --fix: a usage error (nothing to fix)"

# ---- unused -------------------------------------------------------------------
run owners unused -A
ok $rc "unused -A exits 0"
for want in "ConfigMap/orphan-config" "Secret/orphan-secret" "Secret/ghost-token .*a token of ServiceAccount ghost-sa, which does not exist" \
            "ServiceAccount/lonely .*no Pod or template runs as it" "Role/unused-role .*no binding binds it" \
            "ClusterRole/cr-orphan" "PersistentVolume/pv-old .*Released: its claim shop/gone-claim is gone" \
            "PersistentVolume/pv-free .*Available: no claim is bound to it" "PersistentVolumeClaim/spare" \
            "StorageClass/idle-class" "PriorityClass/idle-priority" "IngressClass/idle-ic" \
            "Service/empty .*no endpoints, and no selector"; do
  like "$out" "$want" "unused lists ${want%% *}"
done
absent "$out" "Service/hook" "a Service a webhook calls is not unused, endpoints or not"
for used in "ConfigMap/app " "ConfigMap/projected" "ConfigMap/template-only" "ConfigMap/ingress-params" "Secret/creds" "Secret/tls" \
            "Secret/pull" "Secret/web-token" "ServiceAccount/web" "ServiceAccount/default" "Role/reader" "ClusterRole/cr-viewer" \
            "PersistentVolume/pv-data" "PersistentVolumeClaim/data" "PersistentVolumeClaim/pgdata" "StorageClass/manual" \
            "StorageClass/default-class" "PriorityClass/high" "IngressClass/nginx" "Service/web" "kube-root-ca.crt" "system:"; do
  absent "$out" "$used" "unused does not list ${used% }"
done
run owners -n shop unused configmaps -o name
is "$out" "configmap/orphan-config" "-o name: the unused ones alone, to pipe"
run owners -n shop unused deployments
like "$rc:$err" "^2:error: deployments are not a kind unused looks at" "unused of a kind that is not used by others: a usage error"

# ---- delete: users outside the cascade, --if-unused ------------------------
run owners -n shop delete configmap/app --dry-run=client
is "$rc:$out" "0:background cascade (dry run, nothing changed):"$'\n'"shop/configmap/app  delete (root)" \
  "delete --dry-run=client of a used ConfigMap: the plan on stdout, exit 0"
like "$err" "warning: [0-9]+ live objects outside the cascade use what it deletes" "the plan says live objects outside the cascade use it"
like "$err" "Pod/$pod in shop \(owned by Deployment/web\) mounts ConfigMap/app: spec\.volumes\[0\]\.configMap" \
  "  each named, with its owner and its field"
run owners -n shop delete configmap/app --if-unused
is "$rc" 5 "delete --if-unused of a used ConfigMap: refused, exit 5"
like "$err" "error: --if-unused: nothing was deleted \(it is in use\)" "  said in one line"
kubectl -n shop get configmap app >/dev/null 2>&1
ok $? "  and the ConfigMap is still there"
run owners -n shop delete configmap/solo --if-unused
is "$rc" 5 "delete --if-unused of the ConfigMap a bare Pod mounts: refused"
kubectl -n shop delete pod solo --wait=true >/dev/null
run owners -n shop delete configmap/solo --if-unused
is "$rc" 0 "once its user is gone, delete --if-unused goes ahead"
kubectl -n shop get configmap solo >/dev/null 2>&1
ok $((! $?)) "  and the ConfigMap is gone"
run owners -n shop delete configmap/orphan-config --if-unused --dry-run=client
is "$rc:$err" "0:" "--if-unused of what nothing uses: nothing said, exit 0"
run owners -n shop delete deployment/web --dry-run=client
like "$err" "EndpointSlice/web-.* \(owned by Service/web\) routes to Pod/$pod" "deleting a Deployment: the Service that routes to its Pod is named"
absent "$err" "ReplicaSet/$rs .*mounts" "  not what the cascade deletes with it"

# unseen users: a viewer may not list Secrets, nor the cluster's classes
run owners --context viewer -n shop unused configmaps
like "$out" "ConfigMap/orphan-config .*unknown +its users cannot all be seen: .*ingressclasses\.networking\.k8s\.io \(forbidden\)" \
  "a viewer: unknown, never unused, naming the types it could not read"
run owners --context viewer -n shop delete configmap/orphan-config --if-unused --dry-run=client
is "$rc" 5 "--if-unused when users cannot all be seen: refused (an unknown is never unused)"

# ---- offline: a snapshot (relations by default), and a kubectl dump ------
now=$(date +%s)
snap=$C/rel.snap
# taken at the clock the live answers are given at, so that AGE is the same
OWNERS_TEST_NOW=$now run owners snapshot -A -f "$snap"
ok $rc "snapshot -A exits 0 (relations recorded by default)"
for c in "-n shop tree configmap/app --up --related" "-n shop tree deployment/web --related" "unused -A" \
         "-n shop dangling --related" "-n shop why configmap/app"; do
  a=$(OWNERS_TEST_NOW=$now "$OWNERS" $c 2>/dev/null)
  b=$(OWNERS_TEST_NOW=$now "$OWNERS" --from "$snap" $c 2>/dev/null)
  same "$b" "$a" "--from a snapshot answers as live: $c"
done
run owners snapshot -n shop --related=false -f "$C/plain.snap"
run owners --from "$C/plain.snap" -n shop unused
like "$rc:$err" "^[12]:error: .*holds no relations: it was taken with --related=false" "a snapshot without relations says so, and answers nothing"
run owners --from "$C/plain.snap" -n shop why configmap/app
like "$rc:$out" "^0:kept: ConfigMap/app.*"$'\n'"Used by: not recorded \(the snapshot was taken with --related=false\)" \
  "  why answers the rest, and says its users were not recorded"
types=$(kubectl api-resources --verbs=list -o name | grep -v '^events' | paste -sd,)
kubectl get "$types" -A -o json >"$C/dump.json" 2>/dev/null
for c in "-n shop dangling --related" "unused -A"; do
  a=$(OWNERS_TEST_NOW=$now "$OWNERS" $c 2>/dev/null | sed 's/  *[0-9][0-9smhd]* *unused/ unused/')
  b=$(OWNERS_TEST_NOW=$now "$OWNERS" --from "$C/dump.json" $c 2>/dev/null | sed 's/  *[0-9][0-9smhd]* *unused/ unused/')
  same "$b" "$a" "--from a kubectl dump (whole objects) answers as live: $c"
done

# ---- the set -o name prints, piped where unused's page says --------------
piped() { "$OWNERS" -n shop unused configmaps -o name | xargs -r "$OWNERS" -n shop delete --if-unused; }
out=$(piped 2>&1); rc=$?
is "$rc" 0 "unused -o name | xargs -r owners delete --if-unused: exit 0"
like "$out" "configmap \"orphan-config\" deleted" "  it deletes what nothing uses"
kubectl -n shop get configmap orphan-config >/dev/null 2>&1
ok $((! $?)) "  and it is gone"
kubectl -n shop get configmap app >/dev/null 2>&1
ok $? "  and what is used stays"
out=$(piped 2>"$C/piped.err"); rc=$?
is "$rc:$out:$(cat "$C/piped.err")" "0::nothing unused among the given objects" \
  "run again once done: nothing deleted, exit 0, unused says so on stderr"

done_testing
