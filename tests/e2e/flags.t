#!/usr/bin/env bash
# kubectl's flags and words (issue #26): --dry-run[=client|server|none],
# --cascade alone and its deprecated booleans, --all-finalizers, invalid
# values that list the valid ones, --no-headers / --show-labels / -L, the
# API group in -o wide, and owners version with the server's version.
. "$(dirname "$0")/lib.sh"
require python3:python3

plan 121   # (every check below runs whatever happens: a different count is checks lost)
start_cluster C --gc=stalled
. "$C/env"

uid() { kubectl get "$@" -o jsonpath='{.metadata.uid}'; }
refs() { kubectl get "$@" -o jsonpath='{.metadata.ownerReferences[*].uid}'; }
# a ConfigMap NAME owned by ConfigMap OWNER (its UID read now)
child() {
  printf '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"%s","ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"%s","uid":"%s"}]}}' \
    "$1" "$2" "$(uid cm "$2")" | kubectl create -f - >/dev/null
}
exists() { kubectl get "$@" >/dev/null 2>&1; }

# ---- invalid values name the valid ones --------------------------------
run owners delete cm/x --cascade=bogus
is "$rc" 2 "--cascade=bogus: usage error"
is "$err" "error: invalid value 'bogus' for --cascade: want background, foreground or orphan" \
  "--cascade=bogus lists the valid values"
run owners delete cm/x --dry-run=maybe
is "$err" "error: invalid value 'maybe' for --dry-run: want none, client or server" \
  "--dry-run=maybe lists the valid values"
run owners tree cm/x -o bogus
like "$err" "invalid value 'bogus' for -o: want tree, wide, json, yaml, dot, name, jsonpath= or custom-columns=" "-o bogus lists the formats"
run owners tree cm/x --color=sometimes
like "$err" "want auto, always or never" "--color lists its values"
run owners dangling --dry-run=
is "$rc" 2 "--dry-run= (empty) is a usage error"

# ---- did you mean (issue #38) ---------------------------------------------
run owners trree deployment/x
is "$rc:$err" "2:error: unknown command 'trree' (see 'owners --help'); did you mean 'tree'?" \
  "a mistyped command: the one meant is suggested"
run owners tree deploymnet/x
is "$rc:$err" "2:error: the server doesn't have a resource type 'deploymnet'; did you mean 'deployment'?" \
  "a mistyped type: the one meant is suggested"
run owners tree zzzz/x
is "$rc:$err" "2:error: the server doesn't have a resource type 'zzzz'" "nothing close: no suggestion"

# ---- durations: Go's grammar, as kubectl's --timeout (issue #38) ---------
for v in 1m30s 1h2m3.5s 500ms 1000000h 0 1.5h; do
  run owners tree cm/none --until=gone --timeout="$v"
  is "$rc" 0 "--timeout=$v is a duration kubectl takes (the tree is gone at once)"
done
for v in 5 0x10 1e9s nan inf 1d 5sec -1s ''; do
  run owners tree cm/none --until=gone --timeout="$v"
  is "$rc" 2 "--timeout='$v' is refused as a usage error"
  like "$err" "invalid value '$v' for --timeout: .*(want a duration with its unit \\(ns, us, ms, s, m, h\\), e\\.g\\. 30s, 1m30s|must not be negative)" \
    "and the valid forms are named"
done
run owners graph --request-timeout=30
is "$rc" 0 "--request-timeout takes whole seconds, as kubectl's does"
run owners graph --request-timeout=30x
is "$rc" 2 "but not any other word"

# ---- delete --dry-run ------------------------------------------------------
kubectl create cm d1 >/dev/null; child d1-kid d1
run owners delete cm/d1 --dry-run=server -v=8
is "$rc" 0 "delete --dry-run=server exits 0"
body=$(printf '%s\n' "$err" | grep -A8 '^DELETE [^ ]*/configmaps/d1$' | grep '^Request Body:')
like "$body" '"kind":"DeleteOptions".*"dryRun":\["All"\]' "the root's DELETE went to the apiserver with dryRun: [All]"
like "$err" "DELETE [^ ]*/configmaps/d1 200 OK" "and the apiserver accepted it"
like "$out" 'configmap "d1" deleted \(server dry run\)' "and says it was a server dry run"
ok "$(exists cm d1; echo $?)" "--dry-run=server: the root is still there"
ok "$(exists cm d1-kid; echo $?)" "--dry-run=server: its dependent is still there"

run owners delete cm/d1 --dry-run -v=6
is "$rc" 0 "delete --dry-run (alone) exits 0"
like "$err" "warning: --dry-run is deprecated and can be replaced with --dry-run=client" "bare --dry-run: kubectl's deprecation warning"
like "$out" "background cascade \(dry run, nothing changed\)" "bare --dry-run is client: the plan"
unlike "$err" "DELETE |PATCH " "bare --dry-run: no DELETE or PATCH sent"
run owners delete cm/d1 --dry-run=true
like "$err" "--dry-run=true is deprecated \(boolean value\) and can be replaced with --dry-run=client" "--dry-run=true: the boolean's warning"
like "$out" "dry run, nothing changed" "--dry-run=true is client"
ok "$(exists cm d1; echo $?)" "client dry runs left the root"

run owners delete cm/d1 --dry-run=none
is "$rc" 0 "--dry-run=none exits 0"
ok "$(! exists cm d1; echo $?)" "--dry-run=none deletes the root"
ok "$(! exists cm d1-kid; echo $?)" "and its dependent (background cascade)"

# ---- --cascade alone and the deprecated booleans ---------------------------
kubectl create cm c1 >/dev/null; child c1-kid c1
run owners delete cm/c1 --cascade=false
is "$rc" 0 "--cascade=false exits 0"
like "$err" "warning: --cascade=false is deprecated \(boolean value\) and can be replaced with --cascade=orphan" \
  "--cascade=false: kubectl's deprecation warning"
ok "$(! exists cm c1; echo $?)" "--cascade=false deletes the owner"
ok "$(exists cm c1-kid; echo $?)" "--cascade=false orphans the dependent: still there"
is "$(refs cm c1-kid)" "" "--cascade=false: the orphan's reference is removed"

kubectl create cm c2 >/dev/null; child c2-kid c2
run owners delete cm/c2 --cascade
is "$rc" 0 "--cascade alone exits 0"
is "$err" "" "--cascade alone: no warning (kubectl's bare form is background)"
ok "$(! exists cm c2-kid; echo $?)" "--cascade alone is background: the dependent goes"

kubectl create cm c3 >/dev/null; child c3-kid c3
run owners delete cm/c3 --cascade=true
like "$err" "--cascade=true is deprecated \(boolean value\) and can be replaced with --cascade=background" "--cascade=true warns"
ok "$(! exists cm c3-kid; echo $?)" "--cascade=true is background"

# ---- dangling --dry-run ---------------------------------------------------
# dang keeps a live owner (its dangling reference is patched out); dang2
# has none left (it is collected, as the GC would)
kubectl create configmap dang-owner >/dev/null
printf '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"dang","ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"gone","uid":"00000000-0000-0000-0000-000000000001"},{"apiVersion":"v1","kind":"ConfigMap","name":"dang-owner","uid":"%s"}]}}' "$(kubectl get cm dang-owner -o jsonpath='{.metadata.uid}')" |
  kubectl create -f - >/dev/null
printf '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"dang2","ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"gone","uid":"00000000-0000-0000-0000-000000000001"}]}}' |
  kubectl create -f - >/dev/null
run owners dangling configmap/dang --dry-run=client -v=6
is "$rc" 0 "dangling --dry-run=client exits 0"
like "$out" "would remove" "dangling --dry-run=client says what it would remove"
unlike "$err" "PATCH " "dangling --dry-run=client sends no PATCH"
like "$err" "GET [^ ]*/configmaps/dang" "but reads the object again to decide"
is "$(refs cm dang)" "00000000-0000-0000-0000-000000000001 $(kubectl get cm dang-owner -o jsonpath='{.metadata.uid}')" "the reference is still there"
run owners dangling configmap/dang2 --dry-run=server -v=6
like "$out" "would delete the object" "dangling --dry-run=server on an object with no owner left: it would be collected"
like "$err" "DELETE [^ ]*/configmaps/dang2" "  the server is asked with the DELETE (dryRun in its body)"
ok "$(kubectl get cm dang2 >/dev/null 2>&1; echo $?)" "  and the object is still there"
run owners dangling configmap/dang --dry-run=server -v=6
like "$err" "PATCH [^ ]*/configmaps/dang\?[^ ]*dryRun=All" "dangling --dry-run=server: the PATCH carries dryRun=All"
is "$(refs cm dang)" "00000000-0000-0000-0000-000000000001 $(kubectl get cm dang-owner -o jsonpath='{.metadata.uid}')" "and the reference is still there"
run owners dangling configmap/dang --dry-run=none
unlike "$out" "would remove" "dangling --dry-run=none alone reports and fixes nothing"
is "$(refs cm dang)" "00000000-0000-0000-0000-000000000001 $(kubectl get cm dang-owner -o jsonpath='{.metadata.uid}')" "--dry-run=none without --fix changes nothing"
run owners dangling configmap/dang --fix --dry-run=none
is "$(refs cm dang)" "$(kubectl get cm dang-owner -o jsonpath='{.metadata.uid}')" "--fix --dry-run=none removes the dangling reference"

# ---- finalizers remove: --all-finalizers, --all refused, --dry-run ----------
kubectl create cm held >/dev/null
kubectl patch cm held --type=merge -p '{"metadata":{"finalizers":["example.com/hold"]}}' >/dev/null
kubectl delete cm held --wait=false >/dev/null
run owners finalizers remove cm/held --all
is "$rc" 2 "finalizers remove --all: usage error"
like "$err" "--all means every object in kubectl; to take every finalizer off use --all-finalizers" \
  "--all is refused, naming --all-finalizers"
# remove is a subcommand with a table of its own
run owners finalizers --force
is "$rc" 2 "finalizers --force: usage error"
is "$err" "error: --force is a flag of 'owners finalizers remove'" "  naming the subcommand the flag belongs to"
run owners finalizers remove cm/held --all-finalizers -l app=x
is "$rc" 2 "finalizers remove -l: usage error (remove takes objects by name)"
like "$err" "unknown shorthand flag: 'l'" "  -l is not among remove's flags"
run owners finalizers remove cm/held --all-finalizers -o jsonpath='{.items}'
is "$rc" 2 "finalizers remove -o jsonpath: refused (text, json or yaml)"
run owners finalizers remove --help
like "$out" "^finalizers remove: " "finalizers remove --help is the subcommand's"
like "$out" "--all-finalizers" "  with its flags"
unlike "$out" "--selector" "  and not the list's"
run owners delete cm held --all
is "$rc" 2 "delete TYPE NAME --all: usage error"
like "$err" "--all takes every object of a type" "  --all takes a type alone"
run owners -n default finalizers --request-timeout 30s remove cm/held --all-finalizers --dry-run -v=6
is "$rc" 0 "--all-finalizers --dry-run exits 0 (remove found after flags with values)"
unlike "$err" "PATCH " "finalizers remove --dry-run (client) sends no PATCH"
is "$(kubectl get cm held -o jsonpath='{.metadata.finalizers[*]}')" "example.com/hold" "the finalizer is still there"
run owners finalizers remove cm/held --all-finalizers --dry-run=server -v=6
like "$err" "PATCH [^ ]*/configmaps/held\?[^ ]*dryRun=All" "--dry-run=server: the PATCH carries dryRun=All"
is "$(kubectl get cm held -o jsonpath='{.metadata.finalizers[*]}')" "example.com/hold" "still there after the server dry run"
run owners finalizers remove cm/held --all-finalizers
is "$rc" 0 "--all-finalizers removes it"
ok "$(! exists cm held; echo $?)" "the object is gone"

# ---- tables: --no-headers, -L, --show-labels --------------------------------
kubectl create cm lab >/dev/null
kubectl label cm lab app=web tier=front >/dev/null
printf '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"lab-kid","labels":{"app":"api","app.kubernetes.io/part-of":"shop"},"ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"lab","uid":"%s"}]}}' \
  "$(uid cm lab)" | kubectl create -f - >/dev/null
run owners tree cm/lab --no-headers
is "$(printf '%s\n' "$out" | wc -l)" 2 "--no-headers: two rows and no header"
unlike "$out" "NAMESPACE" "--no-headers: no header line"
for fmt in protobuf json; do
  [[ $fmt == json ]] && export OWNERS_LIST_FORMAT=json
  run owners tree cm/lab -L app -L tier,app.kubernetes.io/part-of
  like "$out" "^NAMESPACE +NAME +READY +STATUS +AGE +APP +TIER +PART-OF"$'\n' "-L: APP, TIER and PART-OF columns, upper-cased, last segment ($fmt)"
  like "$out" "ConfigMap/lab +- +- +[0-9]+s +web +front"$'\n' "-L: the root's values ($fmt)"
  like "$out" "ConfigMap/lab-kid +- +- +[0-9]+s +api +shop$" "-L: an absent label is empty ($fmt)"
  unset OWNERS_LIST_FORMAT
done
run owners tree cm/lab --show-labels
like "$out" "AGE +LABELS"$'\n' "--show-labels adds LABELS"
like "$out" "ConfigMap/lab .* app=web,tier=front"$'\n' "--show-labels: k=v sorted"
run owners dangling -A --no-headers
unlike "$out" "NAMESPACE" "dangling --no-headers: no header line"

# ---- two kinds of one name in two groups ----------------------------------
gadget_crds
kubectl create cm gowner >/dev/null
wait_for "gadgets served" 30 bash -c 'kubectl get gadgets.a.example.com && kubectl get gadgets.b.example.com'
for g in a b; do
  printf '{"apiVersion":"%s.example.com/v1","kind":"Gadget","metadata":{"name":"g1","ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"gowner","uid":"%s"}]}}' \
    "$g" "$(uid cm gowner)" | kubectl create -f - >/dev/null
done
# (a cache of its own: the discovery cached above predates the CRDs)
run owners tree cm/gowner -o wide --cache-dir "$C/cache-gadgets"
like "$out" "Gadget.a.example.com/g1" "-o wide: the Gadget of group a.example.com"
like "$out" "Gadget.b.example.com/g1" "-o wide: the Gadget of group b.example.com"
like "$out" "ConfigMap/gowner" "-o wide: a core kind keeps Kind/name"

# ---- version ----------------------------------------------------------------
run owners version -o json
is "$rc" 0 "version -o json exits 0"
want=$(kubectl version -o json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["serverVersion"]["gitVersion"])')
got=$(printf '%s' "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["serverVersion"]["gitVersion"])')
is "$got" "$want" "version -o json: serverVersion.gitVersion is kubectl's"
like "$out" '"clientVersion": \{' "version -o json: clientVersion"
like "$out" '"protobuf-c": "' "version -o json: the libraries"
run owners version -o yaml
like "$out" "serverVersion:"$'\n'"  major: \"1\"" "version -o yaml: the same document in YAML"
run owners version
like "$out" "^owners [0-9.]+ \(commit " "version: the client first"
like "$out" "server $want"$'$' "version: the server's version last"
run owners version --server https://127.0.0.1:1 --request-timeout 5s
is "$rc" 1 "version against an unreachable server exits 1, as kubectl version"
like "$out" "^owners [0-9.]+ " "and still prints the client's version"
is "$(printf '%s\n' "$err" | wc -l)" 1 "with one line on stderr"
like "$err" "^warning: cannot get the server version: " "a warning saying why"
run owners --version
is "$rc" 0 "owners --version exits 0"
like "$out" "^owners [0-9.]+ \(commit [^)]+\)"$'\n'"libcurl " "owners --version: the client's version and libraries"
unlike "$out" "server " "owners --version does not ask the server"

done_testing
