#!/usr/bin/env python3
"""tests/e2e/inventory.py — what a command did to the cluster, checked
against what it promised.

  inventory.py snap OUT            list every type that can be listed and
                                   deleted (not through owners: with the
                                   API server's own JSON, SERVER, ADMIN_TOKEN
                                   and CA_FILE from the environment; the
                                   type list is kept in $INVENTORY_PATHS when
                                   set), write the inventory to OUT
  inventory.py fixtures NS...      create the namespaces and the objects of
                                   fixtures.sh in each (FIXTURE_PARTS: which
                                   of read fix fin delete, default all)
  inventory.py diff BEFORE AFTER   what changed, one line per object
  inventory.py check BEFORE AFTER MODE PROMISE...
                                   compare two inventories; prints one line
                                   per violation, exits 1 when there is one

An inventory holds, per UID: "namespace/Kind/name", resourceVersion, the
owner UIDs of its ownerReferences, its finalizers and whether it is being
deleted. Objects are named "NS/Kind/name" in promises (cluster-scoped: "-/Kind/name").

PROMISE words (several may be given; nothing promised: nothing may change):
  gone=ID              the object is deleted (a cascade member)
  unref=ID:OWNER       the reference of ID to OWNER (an ID or a UID) is
                       removed, ID stays
  unfin=ID:FINALIZER   that finalizer is removed (the object goes when it was
                       the last one of an object in deletion)

MODE complete (the command said it succeeded): every promise is kept exactly
and every other object is unchanged (same UID, same resourceVersion).
MODE partial (the command failed): every object is unchanged, or in its
promised end state, or, for a cascade member, holding only the finalizers
it had plus foregroundDeletion/orphan, in deletion or about to be (the
crash-safe cascade marks an object before deleting it: interrupted in
between, running the command again finishes it). Never anything else: no
object outside the promise is touched, none is created.
"""
import json
import os
import re
import ssl
import sys
import urllib.request
from concurrent.futures import ThreadPoolExecutor

SSL = None

GC_FINALIZERS = {"foregroundDeletion", "orphan"}
UID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


def api_get(path):
    req = urllib.request.Request(os.environ["SERVER"] + path, headers={
        "Authorization": "Bearer " + os.environ["ADMIN_TOKEN"], "Accept": "application/json"})
    with urllib.request.urlopen(req, context=SSL, timeout=30) as r:
        return json.load(r)


def list_paths():
    """Every type that can be listed and deleted (preferred versions),
    except Events and Leases, which change on their own."""
    groups = [("", "/api/v1")] + [
        (g["name"], "/apis/" + g["preferredVersion"]["groupVersion"])
        for g in api_get("/apis")["groups"]]
    paths = []
    with ThreadPoolExecutor(8) as ex:
        for (group, base), doc in zip(groups, ex.map(api_get, (b for _, b in groups))):
            for r in doc["resources"]:
                if "/" in r["name"] or not {"list", "delete"} <= set(r.get("verbs", [])):
                    continue
                if r["name"] == "events" or (group, r["name"]) == ("coordination.k8s.io", "leases"):
                    continue
                paths.append("%s/%s" % (base, r["name"]))
    return paths


def snap(out):
    """The inventory, read straight from the API server (SERVER,
    ADMIN_TOKEN, CA_FILE in the environment): every list at once."""
    global SSL
    SSL = ssl.create_default_context(cafile=os.environ["CA_FILE"])
    paths_file = os.environ.get("INVENTORY_PATHS")
    if paths_file and os.path.exists(paths_file):
        paths = json.load(open(paths_file))
    else:
        paths = list_paths()
        if paths_file:
            json.dump(paths, open(paths_file, "w"))
    items = []
    with ThreadPoolExecutor(16) as ex:
        for doc in ex.map(api_get, paths):
            kind = doc["kind"][:-len("List")]
            for o in doc["items"]:
                o.setdefault("kind", kind)
                items.append(o)
    inv = {}
    for o in items:
        m = o["metadata"]
        ident = "%s/%s/%s" % (m.get("namespace") or "-", o["kind"], m["name"])
        inv[m["uid"]] = {
            "id": ident,
            "rv": m.get("resourceVersion"),
            "refs": sorted(r["uid"] for r in m.get("ownerReferences") or []),
            "fin": sorted(m.get("finalizers") or []),
            "del": bool(m.get("deletionTimestamp")),
        }
    with open(out, "w") as f:
        json.dump(inv, f, indent=0, sort_keys=True)


def api_call(method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(os.environ["SERVER"] + path, data=data, method=method, headers={
        "Authorization": "Bearer " + os.environ["ADMIN_TOKEN"], "Accept": "application/json",
        "Content-Type": "application/json"})
    with urllib.request.urlopen(req, context=SSL, timeout=30) as r:
        return json.load(r)


PLURAL = {"ConfigMap": "configmaps", "Secret": "secrets", "ServiceAccount": "serviceaccounts"}


def fixtures(namespaces, parts):
    """Creates the test objects in each namespace (see fixtures.sh), all
    namespaces at once, level by level (an owner exists, with its UID,
    before its dependents), then deletes the ones meant to be stuck."""
    global SSL
    SSL = ssl.create_default_context(cafile=os.environ["CA_FILE"])
    never = {"apiVersion": "v1", "kind": "ConfigMap", "name": "never",
             "uid": "00000000-0000-0000-0000-00000000f001"}
    # name: (kind, owners, extra metadata, part)
    objs = {
        "app": ("ConfigMap", [], {}, "read"), "app-c1": ("ConfigMap", ["app"], {}, "read"),
        "app-c2": ("Secret", ["app"], {}, "read"), "app-g1": ("ConfigMap", ["app-c1"], {}, "read"),
        "dang-1": ("ConfigMap", [never], {}, "fix"), "dang-2": ("ConfigMap", [never, "app"], {}, "fix"),
        "stuck": ("ConfigMap", [], {"finalizers": ["example.com/hold"]}, "fin"),
        "stuck2": ("ConfigMap", [], {"finalizers": ["example.com/a", "example.com/b"]}, "fin"),
        "keeper": ("ConfigMap", [], {}, "delete"),
        "bg": ("ConfigMap", [], {}, "delete"), "bg-c1": ("ConfigMap", ["bg"], {}, "delete"),
        "bg-c2": ("Secret", ["bg"], {}, "delete"), "bg-g1": ("ConfigMap", ["bg-c1"], {}, "delete"),
        "bg-shared": ("ConfigMap", ["bg", "keeper"], {}, "delete"),
        "fg": ("ConfigMap", [], {}, "delete"), "fg-c1": ("ConfigMap", ["fg"], {}, "delete"),
        "fg-c2": ("ServiceAccount", ["fg"], {}, "delete"), "fg-g1": ("Secret", ["fg-c1"], {}, "delete"),
        "fg-shared": ("ConfigMap", ["fg", "keeper"], {}, "delete"),
        "or": ("ConfigMap", [], {}, "delete"), "or-c1": ("ConfigMap", ["or"], {}, "delete"),
        "or-c2": ("Secret", ["or"], {}, "delete"), "or-g1": ("ConfigMap", ["or-c1"], {}, "delete"),
    }
    if "fix" in parts:
        parts = parts | {"read"}  # dang-2 is also owned by app
    objs = {n: o for n, o in objs.items() if o[3] in parts}
    uids = {}

    def create(job):
        ns, name = job
        kind, owners, extra, _ = objs[name]
        refs = [o if isinstance(o, dict) else
                {"apiVersion": "v1", "kind": "ConfigMap", "name": o, "uid": uids[(ns, o)],
                 "blockOwnerDeletion": True} for o in owners]
        meta = dict(extra, name=name, namespace=ns)
        if refs:
            meta["ownerReferences"] = refs
        got = api_call("POST", "/api/v1/namespaces/%s/%s" % (ns, PLURAL[kind]),
                       {"apiVersion": "v1", "kind": kind, "metadata": meta})
        return (ns, name), got["metadata"]["uid"]

    with ThreadPoolExecutor(16) as ex:
        list(ex.map(lambda ns: api_call("POST", "/api/v1/namespaces", {
            "apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}}), namespaces))
        left = set(objs)
        while left:
            ready = [n for n in left if all(isinstance(o, dict) or o not in left for o in objs[n][1])]
            for key, uid in ex.map(create, [(ns, n) for ns in namespaces for n in ready]):
                uids[key] = uid
            left -= set(ready)
        stuck = [n for n in ("stuck", "stuck2") if n in objs]
        list(ex.map(lambda job: api_call("DELETE", "/api/v1/namespaces/%s/configmaps/%s" % job),
                    [(ns, n) for ns in namespaces for n in stuck]))


def check(before_file, after_file, mode, words):
    before = json.load(open(before_file))
    after = json.load(open(after_file))
    by_id = {o["id"]: uid for uid, o in before.items()}
    gone, unref, unfin = set(), {}, {}
    bad = []
    for w in words:
        kind, _, arg = w.partition("=")
        if kind == "gone":
            gone.add(arg)
        elif kind == "unref":
            ident, _, owner = arg.partition(":")
            if owner in by_id:
                owner = by_id[owner]
            elif not UID.match(owner):
                bad.append("promise names an unknown owner %s" % owner)
                continue
            unref.setdefault(ident, set()).add(owner)
        elif kind == "unfin":
            ident, _, fin = arg.partition(":")
            unfin.setdefault(ident, set()).add(fin)
        else:
            bad.append("bad promise word %r" % w)
    for ident in gone | set(unref) | set(unfin):
        if ident not in by_id:
            bad.append("promise names %s, which did not exist before" % ident)

    for uid, b in sorted(before.items(), key=lambda kv: kv[1]["id"]):
        ident = b["id"]
        a = after.get(uid)
        unchanged = a is not None and a["rv"] == b["rv"]
        if ident in gone:
            if a is None:
                continue
            if mode == "complete":
                bad.append("%s: promised deleted, still there (%s)" % (ident, state(a)))
            elif not unchanged and not (set(a["fin"]) <= set(b["fin"]) | GC_FINALIZERS
                                        and set(b["refs"]) >= set(a["refs"])):
                bad.append("%s: cascade member in an unexpected state: %s (was %s)"
                           % (ident, state(a), state(b)))
            continue
        if ident in unfin:
            want_fin = sorted(set(b["fin"]) - unfin[ident])
            if a is None:
                if not (b["del"] and not want_fin):
                    bad.append("%s: deleted, but only finalizers %s were to be removed"
                               % (ident, sorted(unfin[ident])))
                continue
            ok_end = (a["fin"] == want_fin and a["refs"] == b["refs"] and a["del"] == b["del"]
                      and not (b["del"] and not want_fin))
            if mode == "complete" and not ok_end:
                bad.append("%s: want finalizers %s, got %s" % (ident, want_fin, state(a)))
            elif mode == "partial" and not (ok_end or unchanged):
                bad.append("%s: finalizers neither as before nor as promised: %s (was %s)"
                           % (ident, state(a), state(b)))
            continue
        if a is None:
            bad.append("%s: DELETED, but it was not part of what the command promised" % ident)
            continue
        if ident in unref:
            want_refs = sorted(set(b["refs"]) - unref[ident])
            same_rest = a["fin"] == b["fin"] and a["del"] == b["del"]
            if mode == "complete" and not (a["refs"] == want_refs and same_rest):
                bad.append("%s: want owner references %s, got %s" % (ident, want_refs, state(a)))
            elif mode == "partial" and not (unchanged or (same_rest and set(want_refs) <= set(a["refs"])
                                                          <= set(b["refs"]))):
                bad.append("%s: references neither as before nor as promised: %s (was %s)"
                           % (ident, state(a), state(b)))
            continue
        if not unchanged:
            bad.append("%s: MODIFIED (not promised): %s, was %s" % (ident, state(a), state(b)))
    for uid, a in after.items():
        if uid not in before:
            bad.append("%s: created during the command" % a["id"])
    for line in bad:
        print(line)
    return 1 if bad else 0


def diff(before_file, after_file):
    before = json.load(open(before_file))
    after = json.load(open(after_file))
    for uid, b in sorted(before.items(), key=lambda kv: kv[1]["id"]):
        a = after.get(uid)
        if a is None:
            print("%s: deleted" % b["id"])
        elif a["rv"] != b["rv"]:
            what = []
            if a["refs"] != b["refs"]:
                what.append("owner references %d -> %d" % (len(b["refs"]), len(a["refs"])))
            if a["fin"] != b["fin"]:
                what.append("finalizers %s -> %s" % (b["fin"], a["fin"]))
            if a["del"] != b["del"]:
                what.append("deletion started")
            print("%s: %s" % (b["id"], ", ".join(what) or "changed"))
    for uid, a in sorted(after.items(), key=lambda kv: kv[1]["id"]):
        if uid not in before:
            print("%s: created" % a["id"])


def state(o):
    return "rv=%s refs=%d finalizers=%s%s" % (o["rv"], len(o["refs"]), o["fin"],
                                              " deleting" if o["del"] else "")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "snap":
        snap(sys.argv[2])
    elif len(sys.argv) == 4 and sys.argv[1] == "diff":
        diff(sys.argv[2], sys.argv[3])
    elif len(sys.argv) >= 3 and sys.argv[1] == "fixtures":
        parts = set(os.environ.get("FIXTURE_PARTS", "read fix fin delete").split())
        fixtures(sys.argv[2:], parts)
    elif len(sys.argv) >= 5 and sys.argv[1] == "check" and sys.argv[4] in ("complete", "partial"):
        sys.exit(check(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]))
    else:
        sys.exit(__doc__)
