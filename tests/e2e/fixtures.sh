# tests/e2e/fixtures.sh — the objects, commands and promises shared by the
# reliability suites (faults.t, security.t, rbac.t). Source it after lib.sh
# and after `. "$C/env"` (snap reads SERVER, ADMIN_TOKEN, CA_FILE, and keeps
# the type list in $C/inventory.paths).
INV=$E2E_ROOT/tests/e2e/inventory.py
NEVER=00000000-0000-0000-0000-00000000f001 # the absent owner of dang-1, dang-2

# ---- the inventory -----------------------------------------------------------
# Every type that can be listed and deleted, in every namespace, read with
# the admin token straight from the API server (inventory.py). Events and
# Leases change on their own; nothing else does in this cluster (no
# controllers: the GC is stalled), so any other change is the command's.
snap() {
  SERVER=$SERVER ADMIN_TOKEN=$ADMIN_TOKEN CA_FILE=$CA_FILE INVENTORY_PATHS=$C/inventory.paths \
    python3 "$INV" snap "$1"
}

# ---- fixtures: one namespace per scenario -----------------------------------
# app -> app-c1 -> app-g1, app -> app-c2 (Secret)     read by tree/graph
# dang-1 -> never (absent), dang-2 -> never + app     dangling --fix
# stuck [example.com/hold], stuck2 [example.com/a, b] in deletion: finalizers remove
# bg -> bg-c1 -> bg-g1, bg -> bg-c2 (Secret), bg -> bg-shared <- keeper
# fg -> fg-c1 -> fg-g1 (Secret), fg -> fg-c2 (ServiceAccount), fg -> fg-shared <- keeper
# or -> or-c1 -> or-g1, or -> or-c2 (Secret)
# Built for every namespace at once, in parallel, by inventory.py.
make_fixtures() { # make_fixtures NS...
  SERVER=$SERVER ADMIN_TOKEN=$ADMIN_TOKEN CA_FILE=$CA_FILE python3 "$INV" fixtures "$@"
}

# ---- the commands and what each promises --------------------------------------
ACTS=(fix fin1 fin2 bg fg or)
act_args() { # act_args ACT: the owners arguments
  case $1 in
    fix) echo "dangling --fix" ;;
    fin1) echo "finalizers remove cm/stuck --finalizer example.com/hold" ;;
    fin2) echo "finalizers remove cm/stuck2 --finalizer example.com/a" ;;
    bg) echo "delete cm/bg" ;;
    fg) echo "delete cm/fg --cascade=foreground" ;;
    or) echo "delete cm/or --cascade=orphan" ;;
  esac
}
promise() { # promise ACT NS
  local n=$2
  case $1 in
    fix) echo "gone=$n/ConfigMap/dang-1 unref=$n/ConfigMap/dang-2:$NEVER" ;;
    fin1) echo "unfin=$n/ConfigMap/stuck:example.com/hold" ;;
    fin2) echo "unfin=$n/ConfigMap/stuck2:example.com/a" ;;
    bg) echo "gone=$n/ConfigMap/bg gone=$n/ConfigMap/bg-c1 gone=$n/Secret/bg-c2 gone=$n/ConfigMap/bg-g1" \
             "unref=$n/ConfigMap/bg-shared:$n/ConfigMap/bg" ;;
    fg) echo "gone=$n/ConfigMap/fg gone=$n/ConfigMap/fg-c1 gone=$n/ServiceAccount/fg-c2 gone=$n/Secret/fg-g1" \
             "unref=$n/ConfigMap/fg-shared:$n/ConfigMap/fg" ;;
    or) echo "gone=$n/ConfigMap/or unref=$n/ConfigMap/or-c1:$n/ConfigMap/or unref=$n/Secret/or-c2:$n/ConfigMap/or" ;;
  esac
}
READS=("tree cm/app -o json" "tree cm/app-g1 --up -o json" "graph -o json" "dangling -o json" "finalizers -o json")
# JSON output without what changes with the clock
normalize() { python3 -c '
import json, sys
def strip(v):
    if isinstance(v, dict):
        return {k: strip(x) for k, x in v.items() if not k.endswith("Seconds")}
    if isinstance(v, list):
        return [strip(x) for x in v]
    return v
print(json.dumps(strip(json.loads(sys.stdin.read() or "null")), sort_keys=True))'; }

