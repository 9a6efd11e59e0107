#!/usr/bin/env bash
# Every source of one unchanged cluster answers alike (#52): the cluster
# live, owners snapshot -A, kubectl get -A -o yaml, a real kubectl
# cluster-info dump, a must-gather and a support bundle (tests/e2e/dumps.py
# lays the last two out as their tools do).
#
# 1. owners diff of every pair of sources says "no changes": an object of
#    a type, namespace or list one side does not hold is not seen there,
#    never appeared or went; a reference one side cannot resolve is not a
#    change.
# 2. On each dump, -A answers for a namespace the dump holds as -n does:
#    its per-namespace lists make a type whole there, and the warning
#    says for how many of its namespaces.
# 3. Dumps as they arrive: a must-gather, a bundle and a cluster-info dump
#    packed as .tar.gz, .tgz and .tar answer as their directories do, read
#    in place (nothing unpacked); another archive, or a damaged one, is one
#    error line.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/delete-lib.sh"
require kubectl:kubectl python3:python3 tmux:tmux

start_cluster C --gc=off
W=$(mktemp -d "${TMPDIR:-/tmp}/owners-dumps.XXXXXX")
_clusters+=("$W")
DUMPS=$(dirname "$0")/dumps.py

# ---- the objects: in types every dump holds (cluster-info dump's are
# pods, services, deployments, replicasets, daemonsets, replication
# controllers and events), and in ConfigMaps, which some dumps lack
n=0
for ns in shop web; do
  n=$((n + 1)) # the missing owners' UIDs differ by namespace: one UID is one owner, wherever named
  kubectl create ns $ns >/dev/null
  kubectl -n $ns create deployment api --image=nginx >/dev/null
  D=$(uid -n $ns deployment api)
  mk $ns <<YAML
---
{apiVersion: apps/v1, kind: ReplicaSet, metadata: {name: api-1, labels: {app: api}, ownerReferences: [$(ref apps/v1 Deployment api "$D" "controller: true, blockOwnerDeletion: true")]}, spec: {selector: {matchLabels: {app: api}}, template: {metadata: {labels: {app: api}}, spec: {containers: [{name: c, image: nginx}]}}}}
---
{apiVersion: v1, kind: Service, metadata: {name: orphaned, ownerReferences: [$(ref apps/v1 Deployment gone 00000000-0000-4000-8000-0000000${n}dead)]}, spec: {ports: [{port: 80}]}}
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: lost, ownerReferences: [$(ref v1 ConfigMap ghost 00000000-0000-4000-8000-0000000${n}beef)]}}
YAML
  R=$(uid -n $ns replicaset api-1)
  mk $ns <<YAML
---
{apiVersion: v1, kind: Service, metadata: {name: api, ownerReferences: [$(ref apps/v1 ReplicaSet api-1 "$R")]}, spec: {ports: [{port: 80}]}}
---
{apiVersion: v1, kind: Service, metadata: {name: by-cm, ownerReferences: [$(ref v1 ConfigMap lost "$(uid -n $ns configmap lost)")]}, spec: {ports: [{port: 80}]}}
YAML
  # the GC's word about Service/orphaned, as its controller writes it: why
  # shows it from every dump that holds Events
  kubectl -n $ns create -f - >/dev/null <<YAML
apiVersion: v1
kind: Event
metadata: {name: orphaned.gc, namespace: $ns}
involvedObject: {apiVersion: v1, kind: Service, name: orphaned, namespace: $ns, uid: $(uid -n $ns service orphaned)}
reason: OwnerRefInvalidNamespace
message: "ownerRef [apps/v1/Deployment, namespace: $ns, name: gone, uid: 0] does not exist in namespace \"$ns\""
source: {component: garbage-collector-controller}
type: Warning
YAML
  kubectl -n $ns create service clusterip held --tcp=80 >/dev/null
  kubectl -n $ns patch service held --type=merge -p '{"metadata":{"finalizers":["example.com/hold"]}}' >/dev/null
  kubectl -n $ns delete service held --wait=false >/dev/null
done

# ---- the sources, taken one after the other of the unchanged cluster ----
export OWNERS_TEST_NOW=$(( $(date +%s) + 600 ))
run owners snapshot -A -f "$W/cluster.snap.gz"
is "$rc" 0 "owners snapshot -A"
types=$(kubectl api-resources --verbs=list,delete -o name | paste -sd, -)
kubectl get "$types" -A -o yaml >"$W/kget.yaml" 2>/dev/null
ok $? "kubectl get (every type) -A -o yaml"
kubectl cluster-info dump --all-namespaces --output-directory "$W/cluster-info" >/dev/null 2>&1
ok $? "kubectl cluster-info dump --all-namespaces --output-directory"
python3 "$DUMPS" must-gather "$W/must-gather/quay-io-openshift-must-gather-sha256-0123" "$OWNERS_TEST_NOW"
ok $? "a must-gather"
python3 "$DUMPS" bundle "$W/bundle"
ok $? "a support bundle"
# the dumps' time: their files' (a must-gather's is its timestamp file)
find "$W/kget.yaml" "$W/cluster-info" "$W/bundle" -exec touch -d "@$OWNERS_TEST_NOW" {} +

SOURCES=(live "$W/cluster.snap.gz" "$W/kget.yaml" "$W/cluster-info" "$W/must-gather" "$W/bundle")
name_of() { [[ $1 == live ]] && echo live || basename "$1"; }

# ---- 1. every pair: no change ---------------------------------------------
for (( i = 0; i < ${#SOURCES[@]}; i++ )); do
  for (( j = 0; j < ${#SOURCES[@]}; j++ )); do
    (( i == j )) && continue
    a=${SOURCES[i]} b=${SOURCES[j]}
    [[ $a == live ]] && continue # live is the after side only: diff BEFORE --live
    if [[ $b == live ]]; then args=("$a" --live); else args=("$a" "$b"); fi
    run owners diff "${args[@]}" -A --exit-code
    what="diff $(name_of "$a") $(name_of "$b") -A"
    is "$rc" 0 "$what: no change (exit 0 with --exit-code)"
    like "$err" "no changes in ownership in any namespace between " "$what: says so, and where it looked"
    unlike "$out" "appeared|went|dangling" "$what: nothing appeared, went or went dangling"
    run owners diff "${args[@]}" -A -o json
    seen=$(python3 -c 'import json,sys; d=json.load(sys.stdin); m=d["metadata"]; print(len(d["items"]), m.get("notSeenBefore", 0) + m.get("notSeenAfter", 0))' <<<"$out")
    like "$seen" "^0 " "$what -o json: no item ($seen: items, not seen on one side)"
  done
done

# what could not be compared is said per kind: a cluster-info dump holds no
# ConfigMaps, kubectl get all of them
run owners diff "$W/cluster-info" "$W/kget.yaml" -A
like "$err" "warning: [0-9]+ objects of $W/kget.yaml not compared: $W/cluster-info did not list their type where they live \\(([A-Za-z0-9.]+ [0-9]+, )*ConfigMap [0-9]+" \
  "diff cluster-info kget.yaml: the objects not compared, per kind"
run owners diff "$W/cluster-info" "$W/kget.yaml" -A -o json
cms=$(kubectl get configmaps -A --no-headers | wc -l)
is "$(python3 -c 'import json,sys; d=json.load(sys.stdin); print([u["notSeenBefore"] for u in d["metadata"]["notCompared"] if u["kind"] == "ConfigMap" and u["group"] == ""])' <<<"$out")" \
  "[$cms]" "... and in the document: every ConfigMap of the cluster ($cms) not seen before"

# ---- 2. -A against -n on each dump -----------------------------------------
items_in() { # items_in NS: the JSON document's items of namespace NS, as one line each
  python3 -c '
import json, sys
d = json.load(sys.stdin)
for i in d.get("items", []):
    if i["metadata"].get("namespace") == sys.argv[1]:
        print(json.dumps(i, sort_keys=True))' "$1"
}
for src in "${SOURCES[@]:1}"; do
  d=$(name_of "$src")
  for c in "dangling" "finalizers" "graph"; do
    run owners $c -n shop --from "$src" -o json
    narrow=$(items_in shop <<<"$out")
    run owners $c -A --from "$src" -o json
    wide=$(items_in shop <<<"$out")
    [[ -n $narrow ]]
    ok $? "$d: $c -n shop answers something ($(wc -l <<<"$narrow") items)"
    same_text "$wide" "$narrow" "$d: $c -A answers for namespace shop as -n shop does"
  done
  run owners dangling -A --from "$src" -o wide
  like "$out" "shop +Service/orphaned +Deployment/gone .* absent " "$d: -A: an owner absent from a type held per namespace is absent"
  # why: the namespace, where the dump holds Namespaces, and the GC's events
  run owners -n shop why service/orphaned --from "$src"
  like "$out" "OwnerRefInvalidNamespace" "$d: why shows the GC's event the dump holds"
  if [[ $d != cluster-info ]]; then # (kubectl cluster-info dump writes no Namespaces)
    live=$(owners why namespace/shop 2>/dev/null | head -3)
    run owners why ns/shop --from "$src"
    is "$rc|$(head -3 <<<"$out")" "0|$live" "$d: why ns/shop as live"
  fi
done
run owners dangling -A --from "$W/bundle"
like "$err" "cannot list 'configmaps' in every namespace: the snapshot \\($W/bundle, a support bundle\\) holds it for [0-9]+ of [0-9]+ namespaces" \
  "a bundle's per-namespace lists: held for N of M namespaces, said"
# ---- 3. archives -------------------------------------------------------------
# as people pack them: the dump's directory inside (must-gather.local.N/,
# support-bundle-DATE/), so the timestamp file is one level down
tar -C "$W" -czf "$W/must-gather.tar.gz" must-gather
tar -C "$W" -czf "$W/bundle.tgz" bundle
tar -C "$W" -cf "$W/cluster-info.tar" cluster-info
for pair in "must-gather.tar.gz must-gather" "bundle.tgz bundle" "cluster-info.tar cluster-info"; do
  a=${pair% *} d=${pair#* }
  for c in "dangling -A -o wide" "finalizers -A" "graph -A -o json" "tree -n shop deployment/api"; do
    # shellcheck disable=SC2086
    want=$(owners $c --from "$W/$d" 2>/dev/null; echo "exit $?")
    # shellcheck disable=SC2086
    got=$(owners $c --from "$W/$a" 2>/dev/null; echo "exit $?")
    # (the document's warnings name the file read: the archive's name)
    same_text "${got//"$W/$a"/"$W/$d"}" "$want" "$a: answers as its directory does: $c"
  done
  run owners diff "$W/$a" "$W/$d" -A --exit-code
  is "$rc" 0 "diff $a $d -A: no change"
  run owners dangling -A --from "$W/$a"
  like "$err" "$W/$a is a (must-gather|support bundle|kubectl cluster-info dump)," "$a: read as the dump it holds"
done
run owners finalizers -A --from "$W/must-gather.tar.gz"
like "$err" "answered as of $(date -u -d "@$OWNERS_TEST_NOW" +%Y-%m-%dT%H:%M:%SZ), from the must-gather's timestamp file" \
  "a must-gather's archive: the time its gathering started, from the timestamp file beside its image directory"
python3 -c 'import shutil,sys; shutil.make_archive(sys.argv[1], "zip", sys.argv[2])' "$W/bundle" "$W/bundle"
run owners graph -A --from "$W/bundle.zip"
is "$rc|$(wc -l <<<"$err")" "1|1" "a zip: exit 1, one line"
like "$err" "^error: $W/bundle.zip: a zip archive: owners reads a dump as a directory, or as a .tar, .tar.gz or .tgz archive" \
  "... saying what it is and what is read"
head -c $(( $(stat -c %s "$W/bundle.tgz") / 2 )) "$W/bundle.tgz" >"$W/cut.tgz"
run owners graph -A --from "$W/cut.tgz"
is "$rc|$(wc -l <<<"$err")" "1|1" "an archive cut short: exit 1, one line"
like "$err" "^error: $W/cut.tgz: damaged archive: " "... naming the file and the damage"

# ---- a dump's reading, said as it goes ------------------------------------------
# (on stderr, after 2 s in a log and 1 s on a terminal: the quiet start is
# taken away here, OWNERS_TEST_PROGRESS_QUIET=0, so that the check does not
# hang on the machine's speed)
run env OWNERS_TEST_PROGRESS_QUIET=0 "$OWNERS" graph -A --from "$W/bundle.tgz"
like "$err" "(^|"$'\n'")owners: reading $W/bundle.tgz \\([0-9.]+ MB\\): 100% \\([0-9]+s so far\\)"$'\n' \
  "the reading of a dump, said in a log as it goes (to 100%)"
run owners graph -A --from "$W/bundle.tgz"
unlike "$err" "reading " "... and nothing of it when it was quick"
tmux_out=$(tmux -L owners-dumps new-session -d -x 200 -y 20 \
  "OWNERS_TEST_PROGRESS_QUIET=0 $OWNERS graph -A --from $W/kget.yaml >/dev/null; tmux -L owners-dumps wait-for -S done" \; \
  set-option remain-on-exit on 2>&1; tmux -L owners-dumps wait-for done; tmux -L owners-dumps capture-pane -p -J)
tmux -L owners-dumps kill-server 2>/dev/null
like "$tmux_out" "^warning: " "on a terminal: the redrawn line taken away before the first warning"
unlike "$tmux_out" "reading " "... none of it left on the screen"

run owners tree -A services --from "$W/must-gather"
is "$rc" 0 "tree -A services from a must-gather: the services it holds (exit 0)"
like "$out" "shop +Service/api" "... shop's among them"

done_testing
