#!/usr/bin/env bash
# owners snapshot and --from (issue #45): live equals snapshot. On one real
# control plane (GC off, a broken APIService, a user who may not list
# secrets), a snapshot is taken, then every read command in every output
# format runs live and --from the snapshot at the same fixed "now"
# (OWNERS_TEST_NOW): the output and the exit code must be byte-identical.
# Then: a namespaced snapshot; gzip; the commands that change the cluster
# refuse --from (exit 2, nothing changed); damaged and foreign input is a
# one-line error naming the file, exit 1.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/delete-lib.sh"
require kubectl:kubectl python3:python3 jq:jq

start_cluster C --gc=off --broken-apiservice
W=$(mktemp -d "${TMPDIR:-/tmp}/owners-snapshot.XXXXXX")
_clusters+=("$W")

# ---- the objects: ownership of every kind the commands tell apart --------
N=snap
kubectl create ns "$N" >/dev/null
kubectl -n "$N" create deployment web --image=nginx >/dev/null
D=$(uid -n "$N" deployment web)
mk "$N" <<YAML
---
{apiVersion: apps/v1, kind: ReplicaSet, metadata: {name: web-1, labels: {app: web, tier: front}, ownerReferences: [$(ref apps/v1 Deployment web "$D" "controller: true, blockOwnerDeletion: true")]}, spec: {selector: {matchLabels: {app: web}}, template: {metadata: {labels: {app: web}}, spec: {containers: [{name: c, image: nginx}]}}}}
YAML
R=$(uid -n "$N" replicaset web-1)
mk "$N" <<YAML
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: cfg, labels: {app: web}, ownerReferences: [$(ref apps/v1 ReplicaSet web-1 "$R" "controller: true")]}}
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: lost, ownerReferences: [$(ref v1 ConfigMap ghost 00000000-0000-4000-8000-00000000dead)]}}
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: never, ownerReferences: [$(ref example.com/v1 Nope x 00000000-0000-4000-8000-00000000beef)]}}
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: blind, ownerReferences: [$(ref metrics.k8s.io/v1beta1 PodMetrics p 00000000-0000-4000-8000-0000000000b1)]}}
YAML
kubectl -n "$N" create secret generic sec >/dev/null
S=$(uid -n "$N" secret sec)
mk "$N" <<YAML
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: by-secret, ownerReferences: [$(ref v1 Secret sec "$S")]}}
YAML
kubectl -n "$N" create configmap held >/dev/null
kubectl -n "$N" patch configmap held --type=merge -p '{"metadata":{"finalizers":["example.com/hold"]}}' >/dev/null
kubectl -n "$N" delete configmap held --wait=false >/dev/null
kubectl create ns doomed >/dev/null
kubectl -n doomed create configmap left >/dev/null
kubectl patch ns doomed --type=merge -p '{"metadata":{"finalizers":["example.com/hold"]}}' >/dev/null
kubectl delete ns doomed --wait=false >/dev/null
# the GC's word about configmap/lost, as its own controller writes it: why
# shows it live, and from every file that holds Events (#52)
kubectl -n "$N" create -f - >/dev/null <<YAML
apiVersion: v1
kind: Event
metadata: {name: lost.gc, namespace: $N}
involvedObject: {apiVersion: v1, kind: ConfigMap, name: lost, namespace: $N, uid: $(uid -n "$N" configmap lost)}
reason: OwnerRefInvalidNamespace
message: "ownerRef [v1/ConfigMap, namespace: $N, name: ghost, uid: 0] does not exist in namespace \"$N\""
source: {component: garbage-collector-controller}
type: Warning
count: 1
firstTimestamp: "2026-01-01T00:00:00Z"
lastTimestamp: "2026-01-01T00:00:00Z"
YAML
# a user who may read everything but secrets (a 403 on one type)
kubectl create clusterrolebinding snapper-view --clusterrole=view --user=snapper >/dev/null

export OWNERS_TEST_NOW=$(( $(date +%s) + 600 ))
SNAP=$W/all.snap
SNAPZ=$W/all.snap.gz
SNAPJ=$W/all.json
NSSNAP=$W/ns.snap
AS=$W/as.snap

run owners snapshot -A -f "$SNAP"
is "$rc" 0 "snapshot -A exits 0"
like "$err" "snapshot: [0-9]+ objects of [0-9]+ types in [0-9.]+s, [0-9]+ bytes written to $SNAP" "it says what it wrote"
run owners snapshot -A -f "$SNAPZ"
is "$rc" 0 "snapshot -A to a .gz exits 0"
is "$(head -c2 "$SNAPZ" | od -An -tx1 | tr -d ' ')" "1f8b" "a name ending in .gz is gzip"
is "$(head -c8 "$SNAP" | od -An -tx1 | tr -d ' ')" "894f574e0d0a1a0a" "the default format is 2 (binary frames)"
run owners snapshot -A -f "$SNAPJ"
is "$rc" 0 "snapshot -A to a .json exits 0"
is "$(head -c 60 "$SNAPJ")" '{"apiVersion":"owners.dev/v1","kind":"Snapshot","format":1,"' "a name ending in .json is format 1 (JSON)"
# (discovery, JSON in both, is most of a small cluster's snapshot: at 100k
# objects format 2 is under half of format 1, tests/bench/REPORT.md)
ok $(( $(stat -c %s "$SNAP") < $(stat -c %s "$SNAPJ") ? 0 : 1 )) \
  "format 2 is smaller than format 1 ($(stat -c %s "$SNAP") vs $(stat -c %s "$SNAPJ") bytes)"
run owners snapshot -n "$N" --format json -f "$W/forced.snap"
is "$(head -c 15 "$W/forced.snap")" '{"apiVersion":"' "--format=json writes JSON whatever the name"
python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{\"apiVersion\":\"owners")]' "$W/forced.snap"
is "$?" 0 "... whose records parse as JSON"
# the example --help shows, run as printed: a .json snapshot is jq's
out=$(cd "$W" && owners snapshot -n "$N" -f shop.json 2>/dev/null && jq . shop.json)
is "$?" 0 "owners snapshot -n $N -f shop.json && jq . shop.json: exit 0"
like "$out" '"kind": "Snapshot"' "... jq reads its records"
like "$out" '"kind": "ConfigMapList"' "... and its lists"
run owners snapshot -n "$N" --format binary -f "$W/forced.json"
is "$(head -c4 "$W/forced.json" | od -An -tx1 | tr -d ' ')" "894f574e" "--format=binary writes frames whatever the name"
run owners snapshot -n "$N" --format yaml -f "$W/x"
is "$rc" 2 "--format=yaml: a usage error"
run owners snapshot -n "$N" -f "$NSSNAP"
is "$rc" 0 "snapshot -n exits 0"
run owners --as snapper snapshot -A -f "$AS"
is "$rc" 0 "snapshot as a user who may not list secrets exits 0"
like "$err" "cannot list [0-9]+ types .*forbidden" "... and says what it could not list"

# the pipes --help shows: to stdout through gzip, and straight into --from -
owners snapshot -n "$N" -f - 2>/dev/null | gzip > "$W/piped.snap.gz"
is "${PIPESTATUS[0]}" 0 "owners snapshot -n $N -f - | gzip > FILE: exit 0"
run owners -n "$N" tree deployment/web --from "$W/piped.snap.gz"
is "$out" "$(owners -n "$N" tree deployment/web 2>/dev/null)" "... and FILE answers as live"
out=$(owners snapshot -n "$N" -f - 2>/dev/null | owners -n "$N" tree deployment/web --from - 2>/dev/null)
is "$out" "$(owners -n "$N" tree deployment/web 2>/dev/null)" "owners snapshot -f - | owners tree --from -: as live"
err=$(head -c 20000 "$SNAP" | owners graph -A --from - 2>&1 >/dev/null)
like "$err" "^error: standard input: (byte [0-9]+: )?cut short" "--from - cut short: the error names standard input, not the copy owners read"
unlike "$err" "/tmp|owners-stdin" "... and no temporary file"

# same FILE ARGS...: the command live and --from FILE, byte for byte.
same() {
  local file=$1; shift
  local live live_rc snap snap_rc
  run owners "$@"; live="$out"$'\n--stderr--\n'"$err"; live_rc=$rc
  run owners "$@" --from "$file"; snap="$out"$'\n--stderr--\n'"$err"; snap_rc=$rc
  if [[ $live == "$snap" && $live_rc == "$snap_rc" ]]; then
    ok 0 "live = --from $(basename "$file"): $*"
  else
    ok 1 "live = --from $(basename "$file"): $*"
    echo "#   exit live $live_rc, snapshot $snap_rc"
    diff <(printf '%s\n' "$live") <(printf '%s\n' "$snap") | head -12 | sed 's/^/#   /'
  fi
}

for f in "$SNAP" "$SNAPZ" "$SNAPJ"; do
  for o in "" "-o wide" "-o json" "-o yaml" "-o name" "-o dot" "-o jsonpath={.items[*].metadata.name}"; do
    # shellcheck disable=SC2086
    same "$f" tree -n "$N" deployment/web $o
  done
done
for o in "" "-o wide" "-o json" "-o yaml" "--show-labels" "-L app"; do
  # shellcheck disable=SC2086
  same "$SNAP" tree -n "$N" configmaps $o
done
same "$SNAP" tree -n "$N" configmap/cfg --up
same "$SNAP" tree -n "$N" -l app=web replicasets
same "$SNAP" tree namespace/doomed
for o in "" "-o json" "-o dot"; do
  # shellcheck disable=SC2086
  same "$SNAP" graph -A $o
  # shellcheck disable=SC2086
  same "$SNAPJ" graph -A $o
  # shellcheck disable=SC2086
  same "$SNAP" graph -n "$N" $o
done
for o in "" "-o wide" "-o json"; do
  # shellcheck disable=SC2086
  same "$SNAP" dangling -A $o
  # shellcheck disable=SC2086
  same "$SNAP" finalizers -A $o
  # shellcheck disable=SC2086
  same "$SNAP" gc -A --dry-run=client $o
done
same "$SNAP" dangling -n "$N"
for obj in configmap/cfg configmap/lost configmap/never configmap/blind configmap/held deployment/web; do
  same "$SNAP" why -n "$N" "$obj"
  same "$SNAP" why -n "$N" "$obj" -o json
done
same "$SNAP" why namespace/doomed
# the namespaced snapshot answers in its namespace as live does
for c in "tree deployment/web" "graph" "finalizers"; do
  # shellcheck disable=SC2086
  same "$NSSNAP" -n "$N" $c
done
# dangling and gc look for owners in other namespaces too, live: a
# namespaced snapshot did not collect those, and says so
run owners -n "$N" dangling --from "$NSSNAP"
like "$err" "cannot list 'configmaps' in every namespace: the snapshot \\($NSSNAP, taken in namespace '$N'\\) holds it for 1 of 1 namespaces" \
  "an -n snapshot: dangling names the other namespaces' lists it does not hold"
live_out=$(owners -n "$N" dangling 2>/dev/null)
is "$out" "$live_out" "... and answers as live for what it holds"
# what a user could not list is not seen, from the snapshot as live
same "$AS" --as snapper graph -A
same "$AS" --as snapper dangling -n "$N"
same "$AS" --as snapper why -n "$N" configmap/by-secret

# an -n snapshot asked about everything: what it did not collect is named
run owners graph -A --from "$NSSNAP"
like "$err" "cannot list '[a-z.]+' in every namespace: the snapshot \\($NSSNAP, taken in namespace '$N'\\) holds it for 1 of 1 namespaces" \
  "an -n snapshot read with -A names what it does not hold, and for which namespaces it holds it"
run owners graph -A --from "$NSSNAP" -o json
is "$(python3 -c 'import json,sys; d=json.load(sys.stdin); print(sorted({i["metadata"].get("namespace", "") for i in d["items"] if i["owners"].get("found", True)} - {""}))' <<<"$out")" \
  "['$N']" "... and answers for that namespace under -A (#52)"

# a snapshot of -l: its lists are parts, never read as whole
NV=$(uid -n "$N" configmap never)
mk "$N" <<YAML
---
{apiVersion: v1, kind: ConfigMap, metadata: {name: labelled, labels: {app: web}, ownerReferences: [$(ref v1 ConfigMap never "$NV")]}}
YAML
run owners snapshot -n "$N" -l app=web -f "$W/labels.json"
is "$rc" 0 "snapshot -l exits 0"
run owners graph -n "$N" --from "$W/labels.json" -o json
like "$err" "not in the snapshot \\($W/labels.json, taken in namespace '$N'\\) \\(it holds only objects with labels 'app=web'\\)" \
  "a -l snapshot read without -l: every list named as a part"
is "$(python3 -c 'import json,sys; d=json.load(sys.stdin); print(sorted(i["metadata"]["name"] for i in d["items"] if i["owners"].get("found", True)))' <<<"$out")" \
  "['cfg', 'labelled', 'web', 'web-1']" "... holding the objects with those labels"
like "$out" '"dangling": 0,' "... and an owner it does not hold (ConfigMap/never, unlabelled) is not called absent"
like "$out" '"unknown": 1,' "... but unknown"
kubectl -n "$N" delete configmap labelled >/dev/null

# ---- other tools' dumps of the same cluster --------------------------------
# stdout as live where the dump holds what the answer needs; what it lacks
# (discovery: a kind it does not hold) said, on stderr and in the classes
types=$(kubectl api-resources --verbs=list,delete -o name | paste -sd, -)
kubectl get "$types" -A -o json > "$W/kget.json" 2>/dev/null
touch -d "@$OWNERS_TEST_NOW" "$W/kget.json" # its time: the file's
W_MG=$W/must-gather/quay-io-openshift-must-gather-sha256-0123
# gathering started at "now" and ended ten minutes later: the dump is of
# its start (#52), which the answers below must show
python3 "$(dirname "$0")/dumps.py" must-gather "$W_MG" "$OWNERS_TEST_NOW"
for dump in "$W/kget.json" "$W/must-gather"; do
  d=$(basename "$dump")
  for c in "tree -n $N deployment/web -o wide" "tree -n $N configmaps" "why -n $N configmap/lost" "finalizers -n $N"; do
    # shellcheck disable=SC2086
    live=$(owners $c 2>/dev/null)
    # shellcheck disable=SC2086
    run owners $c --from "$dump"
    # the one difference there must be: an owner of a kind the dump
    # does not hold reads unknown, not unresolvable
    is "$(grep -v 'Nope/x' <<<"$out")" "$(grep -v 'Nope/x' <<<"$live")" "$d: the same answer as live: $c"
  done
  like "$err" "without discovery: owners sees only the [0-9]+ types? of its objects, and a reference to any other kind is unknown \\(not in the snapshot\\)" \
    "$d: it says what a dump lacks"
  run owners -n "$N" why configmap/lost --from "$dump"
  like "$out" "OwnerRefInvalidNamespace" "$d: why shows the GC's event the dump holds (#52)"
  # a kind the dump does not hold is not a failed discovery (#52)
  run owners -n "$N" gc --dry-run=client --from "$dump" -o wide
  like "$out" "ConfigMap/never .*owner example.com/v1 Nope/x is of a kind or in a list the file does not hold" \
    "$d: gc --dry-run: an owner kind the dump lacks said as such"
  unlike "$out" "failed discovery" "$d: ... never as a failed discovery"
  # kubectl's built-in short names, though a dump has no discovery (#52)
  live=$(owners tree -n "$N" configmap/cfg deployment/web 2>/dev/null)
  run owners tree -n "$N" cm/cfg deploy/web --from "$dump"
  is "$rc|$out" "0|$live" "$d: cm/cfg and deploy/web (kubectl's short names) as live"
  run owners -n "$N" dangling --from "$dump" -o wide
  like "$out" "ConfigMap/never +Nope/x .* unknown " "$d: an owner kind the dump does not hold is unknown, never unresolvable"
  like "$out" "ConfigMap/lost +ConfigMap/ghost .* absent " "$d: an owner absent from a type it holds whole is absent"
done

# a must-gather as oc adm inspect writes a namespace: the Namespace alone
# in namespaces/NS/NS.yaml, not a list of them. The object is there: why
# answers about it (#52), as it does live
mkdir -p "$W/mg-ns/quay-io-x/namespaces/$N/core"
kubectl get namespace "$N" -o yaml >"$W/mg-ns/quay-io-x/namespaces/$N/$N.yaml"
kubectl -n "$N" get configmaps -o yaml >"$W/mg-ns/quay-io-x/namespaces/$N/core/configmaps.yaml"
live=$(owners why "namespace/$N" 2>/dev/null | head -3)
run owners why "ns/$N" --from "$W/mg-ns"
is "$rc|$(head -3 <<<"$out")" "0|$live" "why ns/$N from a must-gather holding the Namespace alone: as live"

# --from-time (#52): a dump copied (cp: new file times) answers for the
# time asked for, and says which time it is and where it came from
cp "$W/kget.json" "$W/kget-copied.json"
live=$(owners finalizers -n "$N" 2>/dev/null)
run owners finalizers -n "$N" --from "$W/kget-copied.json"
[[ $out != "$live" && $err == *"answered as of "*", from the newest modification time of the files read (--from-time sets another)"* ]]
ok $? "a copied dump: its files' new time gives other ages, and it says where its time came from"
run owners finalizers -n "$N" --from "$W/kget-copied.json" --from-time "$(date -u -d "@$OWNERS_TEST_NOW" +%Y-%m-%dT%H:%M:%SZ)"
is "$rc|$out" "0|$live" "--from-time: the copy answers as live did at that time"
like "$err" "answered as of $(date -u -d "@$OWNERS_TEST_NOW" +%Y-%m-%dT%H:%M:%SZ), from --from-time" "... and says so"
run owners finalizers -n "$N" --from "$W/kget-copied.json" --from-time yesterday
is "$rc" 2 "--from-time that is not RFC 3339: a usage error"
run owners finalizers -n "$N" --from-time 2026-01-01T00:00:00Z
is "$rc" 2 "--from-time without --from: a usage error"
run owners finalizers -n "$N" --from "$W/must-gather"
like "$err" "answered as of $(date -u -d "@$OWNERS_TEST_NOW" +%Y-%m-%dT%H:%M:%SZ), from the must-gather's timestamp file \\(when gathering started\\)" \
  "a must-gather: the time its gathering started, said"

# manifests and single objects: what can be placed is shown, the rest said
cat > "$W/mixed.yaml" <<YAML
apiVersion: v1
kind: ConfigMap
metadata: {name: a, namespace: x, uid: 11111111-1111-4111-8111-111111111111}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: b, namespace: x}
YAML
run owners graph -n x --from "$W/mixed.yaml"
is "$rc" 0 "a file of single objects: a view (exit 0)"
like "$out" "objects: +1" "... of the object with a uid"
like "$err" "1 object without a uid \\(manifests, not objects read from a cluster\\) and 0 listed twice passed over" \
  "... the one without said as passed over"
like "$err" "cannot list 'configmaps' in namespace 'x': not in the snapshot \\($W/mixed.yaml, a kubectl List\\)" \
  "... and its type not claimed whole"

# ---- a list request lost on its connection (#52) ---------------------------
# A request the server never received waited, silent, until the server
# closed the idle connection 90 s later. OWNERS_TEST_UNANSWERED loses the
# first attempt of the configmaps list (counted as sent, never handed to the
# connection; one page: TEXT configmaps?limit=500) and sets the answer
# deadline to 2 s: the snapshot gives it up,
# sends it again on a new connection, says so on stderr with the time it
# took, and keeps the wait in the file, which every reader of it says again.
OWNERS_TEST_UNANSWERED='configmaps?limit=500=2' run owners snapshot -n "$N" -f "$W/lost.snap"
is "$rc" 0 "a list whose first request is lost: the snapshot exits 0"
like "$err" "got no answer in 2 s; retrying" "... said once when it is given up"
like "$err" "listing 'configmaps' in namespace '$N' waited out a timeout: 1 request went unanswered for 2\\.[0-9] s and was sent again; the list took [0-9.]+ s" \
  "... and, when the list ends, which list waited and how long it took"
unlike "$err" "(pods|replicasets|secrets)'.* waited out" "... no other list waited"
lost_graph=$(owners graph -n "$N" -o json --from "$W/lost.snap" 2>/dev/null | jq 'del(.warnings)')
is "$lost_graph" "$(owners graph -n "$N" -o json --from "$NSSNAP" 2>/dev/null | jq 'del(.warnings)')" \
  "... the snapshot holds what one taken without the loss holds"
like "$(owners graph -n "$N" --from "$W/lost.snap" 2>&1 >/dev/null)" \
  "listing 'configmaps' in namespace '$N' waited out a timeout" "... and its readers say the wait again"
OWNERS_TEST_UNANSWERED='configmaps?limit=500=2' "$OWNERS" snapshot -n "$N" --request-timeout=1m -f "$W/patient.snap" </dev/null 2>/dev/null &
patient=$!
sleep 4
ok $(kill -0 "$patient" 2>/dev/null; echo $?) "with --request-timeout the user's limit is the only one: still waiting after 4 s"
kill "$patient" 2>/dev/null; wait "$patient" 2>/dev/null

# ---- commands that change the cluster refuse --from ----------------------
before=$(kubectl get cm,deploy,rs -A -o name | sort | md5sum)
for c in "delete -n $N deployment/web" "gc -A" "gc -A --dry-run=server" "dangling -A --fix" \
         "finalizers remove -n $N configmap/held --finalizer example.com/hold" "tree -n $N deployment/web --watch"; do
  # shellcheck disable=SC2086
  run owners $c --from "$SNAP"
  is "$rc" 2 "refused with --from: $c (exit 2)"
  like "$err" "^error: owners .*--from reads a snapshot" "... saying why: $c"
done
is "$(kubectl get cm,deploy,rs -A -o name | sort | md5sum)" "$before" "nothing was changed"

# ---- a generated snapshot reads as the cluster it describes (#55) ---------
# snapgen (tests/bench/tools/snapgen) writes a synthetic cluster straight
# to a snapshot, the bench's 1M and 10M rows, and the same objects one a
# line; seed -load puts those into this cluster's etcd as they are (UIDs,
# owners, times). graph -A -o json live and --from the generated file must
# hold the same items: those of its namespaces, dangling references and
# objects in deletion among them.
snapgen=$(dirname "$OWNERS")/snapgen
# (with Go's own build cache: the cluster's XDG_CACHE_HOME would make it
# build its standard library again, half a minute)
(cd "$E2E_ROOT/tests/bench/tools" && env -u XDG_CACHE_HOME go build -o "$W/seed" ./cmd/seed)
ok $? "the bench's seed tool builds"
"$snapgen" -objects 1000 -seed 7 -o "$W/gen.snap" -ndjson "$W/gen.ndjson" 2>/dev/null
ok $? "snapgen writes a cluster of 1,000 objects"
"$W/seed" -env "$C/env" -load "$W/gen.ndjson" >"$W/load.log" 2>&1
ok $? "seed -load puts its objects into the cluster" || sed 's/^/#   /' "$W/load.log" | tail -5
# (the Widget CRD it made is served at once, and in discovery a moment
# later; the suite's discovery cache predates it: the live side reads its own)
wait_for "widgets in discovery" 30 bash -c 'kubectl get --raw /apis | grep -q \"bench.owners.test\"'
generated() { # the items of the generated namespaces, in one order
  python3 -c '
import json, sys
d = json.load(sys.stdin)
mine = lambda i: i["metadata"].get("namespace", "").startswith("bench-") or (
    i["kind"] == "Namespace" and i["metadata"]["name"].startswith("bench-"))
items = sorted((i for i in d["items"] if mine(i)),
               key=lambda i: (i["kind"], i["metadata"].get("namespace", ""), i["metadata"]["name"]))
print(json.dumps(items, indent=1, sort_keys=True))'
}
gen_from=$("$OWNERS" graph -A -o json --from "$W/gen.snap" 2>/dev/null | generated)
gen_live=$("$OWNERS" --cache-dir "$W/fresh-cache" graph -A -o json 2>/dev/null | generated)
(( $(grep -c '"uid"' <<<"$gen_from") >= 1000 )); ok $? "the generated snapshot holds its objects ($(grep -c '"uid"' <<<"$gen_from") UIDs)"
like "$gen_from" '"deletionTimestamp"' "  objects in deletion among them"
like "$gen_from" '"found": false' "  and owners that are not there"
is "$gen_live" "$gen_from" "graph -A -o json: the generated snapshot answers as the cluster loaded from it"

# ---- bad input: one line naming the file, exit 1 -------------------------
bad() { # bad FILE WHAT REGEX
  run owners graph -A --from "$1"
  is "$rc" 1 "$2: exit 1"
  like "$err" "^error: $3" "$2: the error names the file and the place"
  is "$(printf '%s\n' "$err" | wc -l)" 1 "$2: one line"
}
for f in "$SNAP" "$SNAPJ"; do
  x=${f##*.}
  # format 2 names the byte its frame begins at, format 1 the line
  if [[ $x == snap ]]; then where="byte [0-9]+"; else where="line [0-9]+"; fi
  size=$(stat -c %s "$f")
  head -c $((size / 2)) "$f" > "$W/cut.$x"
  bad "$W/cut.$x" "truncated ($x)" "$W/cut.$x: (cut short|$where)"
  head -c $((size - 40)) "$f" > "$W/noend.$x"
  bad "$W/noend.$x" "cut before its End ($x)" "$W/noend.$x: (cut short|$where)"
  python3 - "$f" "$W/corrupt.$x" <<'PY'
import sys
d = bytearray(open(sys.argv[1], 'rb').read())
i = len(d) // 3
d[i:i + 16] = b'}}}]]]{{{"x":::,'
open(sys.argv[2], 'wb').write(bytes(d))
PY
  bad "$W/corrupt.$x" "corrupt ($x)" "$W/corrupt.$x: $where"
  python3 - "$f" "$W/v3.$x" <<'PY'
import struct, sys, zlib
d = bytearray(open(sys.argv[1], 'rb').read())
i = d.index(b'"format":', 0, 4096) + len(b'"format":')
d[i:i + 1] = b'3'
if d[:4] == b'\x89OWN':  # format 2: the header's frame sealed again (kind, length, CRC32)
    n = struct.unpack_from('<I', d, 9)[0]
    struct.pack_into('<I', d, 13, zlib.crc32(bytes(d[17:17 + n])))
open(sys.argv[2], 'wb').write(bytes(d))
PY
  bad "$W/v3.$x" "a newer format ($x)" "$W/v3.$x: $where: snapshot format 3; this owners reads format 2 and older: a newer owners wrote it"
done
head -c $(( $(stat -c %s "$SNAPZ") / 2 )) "$SNAPZ" > "$W/cut.snap.gz"
bad "$W/cut.snap.gz" "truncated gzip" "$W/cut.snap.gz: "
# one byte of the compressed stream flipped: the gzip's own damage, said
# as such, the file named once (zlib names it by its descriptor)
python3 - "$SNAPZ" "$W/flipped.snap.gz" <<'PY'
import sys
d = bytearray(open(sys.argv[1], 'rb').read())
d[len(d) // 2] ^= 0xff
open(sys.argv[2], 'wb').write(bytes(d))
PY
bad "$W/flipped.snap.gz" "one byte of a .gz flipped" "$W/flipped.snap.gz: (damaged gzip data \\([a-z ]+\\)|byte [0-9]+: .*)$"
unlike "$err" "<fd:" "... never zlib's name for it"
printf 'hello: world\n' > "$W/other.yaml"
bad "$W/other.yaml" "not a snapshot" "$W/other.yaml: "
mkdir -p "$W/unrelated/sub"
printf 'hello: world\n' > "$W/unrelated/a.yaml"
printf -- '- 1\n- 2\n' > "$W/unrelated/sub/b.yml"
printf '{"x": [1, 2]}\n' > "$W/unrelated/c.json"
bad "$W/unrelated" "a directory of unrelated YAML and JSON" "$W/unrelated: "
: > "$W/empty.json"
bad "$W/empty.json" "empty" "$W/empty.json: "
bad "$W/missing.json" "missing" "$W/missing.json: No such file"
truncate -s 2G "$W/big.json"
bad "$W/big.json" "a 2 GB file of zeros" "$W/big.json: "
rm -f "$W/big.json"

done_testing
