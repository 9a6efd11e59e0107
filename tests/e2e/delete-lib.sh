# tests/e2e/delete-lib.sh — helpers shared by delete.t and delete-kill.t
# (sourced after lib.sh; not a suite itself).

# uid ARGS...: the UID of one object (kubectl get ARGS).
uid() { kubectl get "$@" -o jsonpath='{.metadata.uid}'; }

# ref APIVERSION KIND NAME UID [EXTRA]: one ownerReference in flow YAML.
ref() { echo "{apiVersion: $1, kind: $2, name: $3, uid: $4${5:+, $5}}"; }

# mk NS: applies the YAML on stdin in namespace NS (quietly, no validation:
# kubectl's client-side validation costs seconds per hundred objects).
mk() { kubectl -n "$1" create --validate=false -f - >/dev/null; }

# asan_clean: stderr of the last `run` holds no sanitizer report, and no
# run left one in the suite's report files since (lib.sh, san_sweep).
asan_clean() { # asan_clean DESCRIPTION
  san_sweep
  unlike "$err" "$SAN_REPORT" "$* (no sanitizer report)"
}

# same_text GOT WANT DESCRIPTION: like `is`, but shows a diff on failure.
same_text() {
  local got=$1 want=$2 out; shift 2  # (out: ok must not show an earlier run's)
  if [[ $got == "$want" ]]; then ok 0 "$*"; else
    ok 1 "$*"
    diff <(printf '%s\n' "$want") <(printf '%s\n' "$got") | head -30 | sed 's/^/#   /'
  fi
}

# inventory NS FILE: every object of namespace NS and every cluster-scoped
# object (events aside), as {"Kind.group ns/name": {uid, ownerReferences,
# finalizers, deleting}} JSON in FILE. Read with kubectl, not owners.
inventory() {
  local ns=$1 file=$2 nst cst
  nst=$(kubectl api-resources --verbs=list --namespaced=true -o name | grep -v '^events' | paste -sd,)
  cst=$(kubectl api-resources --verbs=list --namespaced=false -o name | paste -sd,)
  { kubectl get -n "$ns" "$nst" -o json; kubectl get "$cst" -o json; } 2>/dev/null | python3 -c '
import json, sys
dec, text, pos, inv = json.JSONDecoder(), sys.stdin.read(), 0, {}
while True:
    while pos < len(text) and text[pos].isspace(): pos += 1
    if pos >= len(text): break
    doc, pos = dec.raw_decode(text, pos)
    for o in doc["items"]:
        m, av = o["metadata"], o["apiVersion"]
        if "uid" not in m: continue   # componentstatuses are not objects
        group = av.split("/")[0] if "/" in av else ""
        key = "%s%s %s/%s" % (o["kind"], "." + group if group else "", m.get("namespace", ""), m["name"])
        inv[key] = {"uid": m["uid"], "ownerReferences": m.get("ownerReferences", []),
                    "finalizers": m.get("finalizers", []), "deleting": "deletionTimestamp" in m}
json.dump(inv, open(sys.argv[1], "w"), sort_keys=True)
' "$file"
}

# inv_diff BEFORE AFTER: what changed between two inventories, one line per
# object, sorted:
#   gone KEY                   the object (that UID) no longer exists
#   released KEY               its references to gone objects were removed,
#                              the others kept exactly (same order, bytes)
#   dropped-refs KEY NAMES     likewise, but some removed references point to
#                              objects still there (owners NAMES)
#   changed KEY FIELD...       anything else that changed (or a re-created UID)
#   new KEY                    an object that was not there before
#   gc-finalizer KEY           foregroundDeletion/orphan left on an object
inv_diff() {
  python3 - "$1" "$2" <<'PY'
import json, sys
b, a = (json.load(open(f)) for f in sys.argv[1:3])
gone = {v["uid"] for k, v in b.items() if k not in a or a[k]["uid"] != v["uid"]}
out = []
for k, v in b.items():
    if k not in a:
        out.append("gone " + k); continue
    w = a[k]
    if w["uid"] != v["uid"]:
        out.append("changed %s uid" % k); continue
    fields = [f for f in ("ownerReferences", "finalizers", "deleting") if v[f] != w[f]]
    kept = [r for r in v["ownerReferences"] if r in w["ownerReferences"]]
    dropped = [r for r in v["ownerReferences"] if r not in w["ownerReferences"]]
    if fields == ["ownerReferences"] and kept == w["ownerReferences"] and dropped:
        if all(r["uid"] in gone for r in dropped):
            out.append("released " + k)
        else:
            out.append("dropped-refs %s %s" % (k, ",".join(r["name"] for r in dropped)))
    elif fields:
        out.append("changed %s %s" % (k, " ".join(fields)))
for k, w in a.items():
    if k not in b:
        out.append("new " + k)
    if set(w["finalizers"]) & {"foregroundDeletion", "orphan"}:
        out.append("gc-finalizer " + k)
print("\n".join(sorted(out)))
PY
}

# inv_get FILE KEY FIELD: one field of one object of an inventory, as JSON.
inv_get() {
  python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1])).get(sys.argv[2], {}).get(sys.argv[3])))' "$@"
}

# cm_uids NS: "name uid" of every ConfigMap in NS.
cm_uids() {
  kubectl -n "$1" get cm -o jsonpath='{range .items[*]}{.metadata.name} {.metadata.uid}{"\n"}{end}'
}

# big_tree NS P [A B]: ConfigMap P-root owning A (30) ConfigMaps P-a-I, each
# owning B (10) ConfigMaps P-b-I-J: 1 + A + A*B objects, made level by level
# (a reference needs its owner's UID). References alternate blockOwnerDeletion
# true/false so both kinds are exercised.
big_tree() {
  local ns=$1 p=$2 na=${3:-30} nb=${4:-10} i j ru
  local -A u
  printf -- '---\n{apiVersion: v1, kind: ConfigMap, metadata: {name: %s-root}}\n' "$p" | mk "$ns"
  ru=$(uid -n "$ns" cm "$p-root")
  for ((i = 1; i <= na; i++)); do
    echo "---"
    echo "{apiVersion: v1, kind: ConfigMap, metadata: {name: $p-a-$i, ownerReferences: [$(ref v1 ConfigMap "$p-root" "$ru" "blockOwnerDeletion: $( ((i % 2)) && echo true || echo false)")]}}"
  done | mk "$ns"
  while read -r n id; do u[$n]=$id; done < <(cm_uids "$ns")
  for ((i = 1; i <= na; i++)); do
    for ((j = 1; j <= nb; j++)); do
      echo "---"
      echo "{apiVersion: v1, kind: ConfigMap, metadata: {name: $p-b-$i-$j, ownerReferences: [$(ref v1 ConfigMap "$p-a-$i" "${u[$p-a-$i]}" "blockOwnerDeletion: $( ((j % 2)) && echo true || echo false)")]}}"
    done
  done | mk "$ns"
}

# stop_cluster DIR: stops a cluster started by start_cluster before the end
# of the script (the machine runs at most two at a time).
stop_cluster() { "$E2E_ROOT/tests/cluster/down" --dir "$1" >/dev/null 2>&1 || true; }

# meta NS KIND NAME JSONPATH: one field of one object ('' when absent/gone).
meta() { kubectl -n "$1" get "$2" "$3" -o jsonpath="$4" 2>/dev/null; }

# gone NS KIND NAME: true when the object no longer exists.
gone() { ! kubectl -n "$1" get "$2" "$3" >/dev/null 2>&1; }

# unhold NS KIND NAME: removes every finalizer (our example.com/hold).
unhold() { kubectl -n "$1" patch "$2" "$3" --type=merge -p '{"metadata":{"finalizers":null}}' >/dev/null 2>&1; }

# wait_log FILE REGEX SECONDS: polls a log file until a line matches.
wait_log() {
  local end=$((SECONDS + $3))
  until grep -Eq -- "$2" "$1" 2>/dev/null; do
    (( SECONDS < end )) || return 1
    sleep 0.01
  done
}

# norm_state NS: the objects of NS as sorted lines "Kind name <- owners
# [finalizers] deleting", generated names normalised (web-RS, web-RS-POD)
# and owners by kind/name and flags, so two clusters can be compared.
norm_state() {
  local nst
  nst=$(kubectl api-resources --verbs=list --namespaced=true -o name | grep -v '^events' | paste -sd,)
  kubectl get -n "$1" "$nst" -o json 2>/dev/null | python3 -c '
import json, re, sys
def norm(n):
    n = re.sub(r"^web-[a-z0-9]{8,10}-[a-z0-9]{5}$", "web-RS-POD", n)
    return re.sub(r"^web-[a-z0-9]{8,10}$", "web-RS", n)
lines = []
for o in json.load(sys.stdin)["items"]:
    m = o["metadata"]
    refs = ",".join("%s/%s%s%s" % (r["kind"], norm(r["name"]), "+controller" if r.get("controller") else "",
                                    "+block" if r.get("blockOwnerDeletion") else "")
                    for r in m.get("ownerReferences", []))
    lines.append("%s %s <- [%s] fin=%s%s" % (o["kind"], norm(m["name"]), refs, ",".join(m.get("finalizers", [])),
                                              " deleting" if "deletionTimestamp" in m else ""))
print("\n".join(sorted(lines)))
'
}
