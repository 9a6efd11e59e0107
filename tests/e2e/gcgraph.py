#!/usr/bin/env python3
"""Random ownership graphs for the differential test of `owners gc` against
the cluster's own garbage collector (tests/e2e/gc.t).

  gcgraph.py build   --env ENV --batch B --graphs N --seed S [--from-batch B0] [--only "G..."]
                     [--order given|reverse|shuffle]
  gcgraph.py settle  --env ENV --batch B [--quiet SECONDS] [--limit SECONDS]
  gcgraph.py compare --on ENV --off ENV --batch B --graphs N --phase P [--on-batch B1] [--only "G..."]
  gcgraph.py delete-roots --env ENV --batch B --graphs N --seed S [--only "G..."]
                     [--record FILE | --replay FILE] [--owners BIN]

ENV is a cluster's env file (tests/cluster/up writes it). A graph lives in
two namespaces (gd<B>x<G>-a, -b) and in cluster-scoped ClusterRoles named
gd<B>x<G>-NAME, all labelled gcdiff=<B>x<G>. Objects are created bare,
then their ownerReferences are set, so every kind of reference can be
made: to an object of the graph (blocking or not, controller or not), to
one that is not there, to a real name with another UID, to an owner in the
other namespace, to an apiVersion no server serves, from a cluster-scoped
object to a namespaced owner, to the object itself, in cycles; some
objects carry a finalizer nobody removes, some the GC's own orphan or
foregroundDeletion while alive (the GC's delete then takes that policy).
Everything random is drawn from the seed, so both clusters get the same
graphs, down to the UIDs that point nowhere.

A snapshot is every object of a batch with what the GC can change about
it: in deletion or not, its finalizers, its references (an object's UID
written as the object's name, as UIDs differ between clusters).
"""
import argparse
import json
import os
import random
import ssl
import subprocess
import sys
import time
import http.client
import urllib.parse
import uuid

GONE_API = "gone.gcdiff.example.com/v1"
HOLD = "example.com/hold"


class Api:
    def __init__(self, envfile):
        env = {}
        for line in open(envfile):
            line = line.strip()
            if "=" in line and not line.startswith("#"):
                k, v = line.split("=", 1)
                env[k] = v
        self.env = env
        u = urllib.parse.urlparse(env["SERVER"])
        ctx = ssl.create_default_context(cafile=env["CA_FILE"])
        self.conn = http.client.HTTPSConnection(u.hostname, u.port, context=ctx, timeout=60)
        self.token = env["ADMIN_TOKEN"]

    def req(self, method, path, body=None, ctype="application/json"):
        headers = {"Authorization": "Bearer " + self.token, "Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = ctype
        for attempt in range(5):
            try:
                self.conn.request(method, path, body=data, headers=headers)
                r = self.conn.getresponse()
                raw = r.read()
                break
            except (http.client.HTTPException, OSError):
                self.conn.close()
                time.sleep(0.5)
        else:
            raise SystemExit("gcgraph: %s %s: no answer" % (method, path))
        try:
            doc = json.loads(raw) if raw else {}
        except ValueError:
            doc = {"raw": raw.decode(errors="replace")}
        return r.status, doc

    def must(self, method, path, body=None, ctype="application/json", ok=(200, 201)):
        st, doc = self.req(method, path, body, ctype)
        if st not in ok:
            raise SystemExit("gcgraph: %s %s: %s %s" % (method, path, st, doc.get("message", doc)))
        return doc


def gid(batch, g):
    return "%sx%s" % (batch, g)


def ns_of(batch, g, side):
    return "gd%s-%s" % (gid(batch, g), side)


def path_of(batch, g, obj, name=None):
    if obj["scope"] == "cluster":
        base = "/apis/rbac.authorization.k8s.io/v1/clusterroles"
        return base + ("/" + full_name(batch, g, obj) if name is None else "")
    base = "/api/v1/namespaces/%s/configmaps" % ns_of(batch, g, obj["scope"])
    return base + ("/" + obj["name"] if name is None else "")


def full_name(batch, g, obj):
    return "gd%s-%s" % (gid(batch, g), obj["name"]) if obj["scope"] == "cluster" else obj["name"]


def generate(seed, batch, g):
    """One graph: objects with finalizers and symbolic references."""
    rnd = random.Random("%s/%s/%s" % (seed, batch, g))
    n = rnd.randint(3, 9)
    objs = []
    for i in range(n):
        r = rnd.random()
        scope = "cluster" if r < 0.15 else ("b" if r < 0.3 else "a")
        fins = []
        f = rnd.random()
        if f < 0.08:
            fins.append(HOLD)
        elif f < 0.12:
            fins.append("orphan")
        elif f < 0.16:
            fins.append("foregroundDeletion")
        objs.append({"name": "o%d" % i, "scope": scope, "finalizers": fins, "refs": []})

    def fake_uid(tag):
        return str(uuid.UUID(int=rnd.getrandbits(128), version=4))

    for i, o in enumerate(objs):
        k = rnd.choice([0, 1, 1, 1, 2, 2, 3])
        controller_used = False
        for _ in range(k):
            t = rnd.random()
            block = rnd.random() < 0.5
            controller = not controller_used and rnd.random() < 0.3
            controller_used |= controller
            ref = {"block": block, "controller": controller}
            if t < 0.55:
                tgt = rnd.randrange(n)
                ref.update(to=tgt)                       # an object of the graph (itself too)
            elif t < 0.65:
                ref.update(to=rnd.randrange(n), stale=fake_uid("stale"))  # its name, another UID
            elif t < 0.8:
                ref.update(absent="ghost%d" % rnd.randrange(4), uid=fake_uid("absent"),
                           kind=rnd.choice(["ConfigMap", "ClusterRole"]))
            elif t < 0.9:
                ref.update(unserved="thing%d" % rnd.randrange(3), uid=fake_uid("unserved"))
            else:
                # an owner in the other namespace, by its real name and UID
                others = [j for j, x in enumerate(objs) if x["scope"] not in ("cluster", o["scope"])]
                if not others:
                    continue
                ref.update(to=rnd.choice(others))
            o["refs"].append(ref)
    return objs


def kind_api(obj):
    if obj["scope"] == "cluster":
        return "ClusterRole", "rbac.authorization.k8s.io/v1"
    return "ConfigMap", "v1"


def graph_ids(args):
    """The graphs a command works on: --only's, else 0..--graphs-1."""
    if getattr(args, "only", None):
        return [int(x) for x in args.only.split()]
    return range(args.graphs)


def build(args):
    api = Api(args.env)
    uids = {}
    for g in graph_ids(args):
        # --from-batch: the graphs of another batch, built again under
        # this batch's names (a second chance for a racy GC)
        objs = generate(args.seed, args.from_batch or args.batch, g)
        order = build_order(args, g, len(objs))
        for side in ("a", "b"):
            api.must("POST", "/api/v1/namespaces",
                     {"apiVersion": "v1", "kind": "Namespace",
                      "metadata": {"name": ns_of(args.batch, g, side)}}, ok=(201, 409))
        for o in (objs[i] for i in order):
            kind, av = kind_api(o)
            body = {"apiVersion": av, "kind": kind,
                    "metadata": {"name": full_name(args.batch, g, o),
                                 "labels": {"gcdiff": gid(args.batch, g)},
                                 "finalizers": o["finalizers"]}}
            doc = api.must("POST", path_of(args.batch, g, o, name=False), body)
            o["uid"] = doc["metadata"]["uid"]
            uids[o["uid"]] = key_of(args.batch, g, o)
        for o in (objs[i] for i in order):
            if not o["refs"]:
                continue
            refs = []
            for r in o["refs"]:
                if "to" in r:
                    t = objs[r["to"]]
                    kind, av = kind_api(t)
                    ref = {"apiVersion": av, "kind": kind, "name": full_name(args.batch, g, t),
                           "uid": r.get("stale", t["uid"])}
                elif "absent" in r:
                    kind = r["kind"]
                    av = "v1" if kind == "ConfigMap" else "rbac.authorization.k8s.io/v1"
                    ref = {"apiVersion": av, "kind": kind, "name": r["absent"], "uid": r["uid"]}
                else:
                    ref = {"apiVersion": GONE_API, "kind": "Thing", "name": r["unserved"], "uid": r["uid"]}
                ref["blockOwnerDeletion"] = r["block"]
                ref["controller"] = r["controller"]
                refs.append(ref)
            api.must("PATCH", path_of(args.batch, g, o), {"metadata": {"ownerReferences": refs}},
                     ctype="application/merge-patch+json")
    with open(map_file(args.env, args.batch), "w") as f:
        json.dump(uids, f)


def build_order(args, g, n):
    """The order a graph's objects are created and their references set in.

    The GC's outcome can depend on it: it handles a dependent as soon as
    the reference that makes it garbage arrives, so an object whose
    references are set while its owner is still solid has its dangling
    references stripped, and one whose owner was collected first is
    deleted as it is. owners sees only the built graph, whose history is
    any order; a rerun of the real GC builds the same objects in another
    (reverse, or shuffled from the seed) to reach the other outcomes.
    """
    order = list(range(n))
    if args.order == "reverse":
        order.reverse()
    elif args.order == "shuffle":
        random.Random("%s/%s/%s/order" % (args.seed, args.batch, g)).shuffle(order)
    return order


def map_file(envfile, batch):
    return envfile.rsplit("/", 1)[0] + "/gcdiff-%s.json" % batch


def key_of(batch, g, o):
    return "%s/%s" % (o["scope"] if o["scope"] != "cluster" else "-", o["name"])


def snapshot(api, envfile, batch):
    """{graph id: {key: state}} for every object of the batch."""
    uids = json.load(open(map_file(envfile, batch)))
    out = {}
    items = []
    for path in ("/api/v1/configmaps", "/apis/rbac.authorization.k8s.io/v1/clusterroles"):
        doc = api.must("GET", path + "?labelSelector=gcdiff")
        items += doc.get("items", [])
    for it in items:
        m = it["metadata"]
        g = m["labels"]["gcdiff"]
        if not g.startswith("%sx" % batch):
            continue
        ns = m.get("namespace")
        name = m["name"]
        if ns:
            key = "%s/%s" % (ns.rsplit("-", 1)[1], name)
        else:
            key = "-/%s" % name.split("-", 1)[1]
        refs = []
        for r in m.get("ownerReferences") or []:
            refs.append("%s %s %s uid=%s block=%s controller=%s" % (
                r["apiVersion"], r["kind"], r["name"], uids.get(r["uid"], r["uid"]),
                bool(r.get("blockOwnerDeletion")), bool(r.get("controller"))))
        out.setdefault(g, {})[key] = {
            "deleting": "deletionTimestamp" in m,
            "finalizers": sorted(m.get("finalizers") or []),
            "refs": refs,
        }
    return out


def settle(args):
    """Waits until the batch's objects have not changed for --quiet seconds."""
    api = Api(args.env)
    end = time.time() + args.limit
    last, since = None, time.time()
    while time.time() < end:
        now = snapshot(api, args.env, args.batch)
        if now != last:
            last, since = now, time.time()
        elif time.time() - since >= args.quiet:
            return 0
        time.sleep(0.5)
    print("# settle: the batch still changed after %ss" % args.limit)
    return 1


def identity_race(objs):
    """Keys of the cluster-scoped objects the real GC may judge in a
    namespace: one with a namespaced owner (a reference it should give up
    on) that a namespaced object of the graph names as its owner. When the
    GC sees that dependent first, it makes a node for the owner's UID with
    the dependent's namespace; an item queued under that node is looked at
    with that namespace, so its namespaced owners are looked up there and
    may read solid (kubernetes' garbage collector, graph_builder.go
    addDependentToOwners and attemptToDeleteItem). What it then does to the
    object depends on which informer delivered first; so does the fate of
    the objects that hang from it."""
    out = set()
    for i, o in enumerate(objs):
        if o["scope"] != "cluster":
            continue
        namespaced_owner = any(("to" in r and objs[r["to"]]["scope"] != "cluster") or
                               r.get("kind") == "ConfigMap" for r in o["refs"])
        named = any(x["scope"] != "cluster" and any(r.get("to") == i and "stale" not in r for r in x["refs"])
                    for x in objs)
        if namespaced_owner and named:
            out.add(i)
    # and what hangs from them: their dependents' fate follows theirs
    grew = True
    while grew:
        grew = False
        for j, x in enumerate(objs):
            if j not in out and any(r.get("to") in out and "stale" not in r for r in x["refs"]):
                out.add(j)
                grew = True
    return {("-" if objs[i]["scope"] == "cluster" else objs[i]["scope"]) + "/" + objs[i]["name"] for i in out}


def compare(args):
    on, off = Api(args.on), Api(args.off)
    on_batch = args.on_batch or args.batch
    a, b = snapshot(on, args.on, on_batch), snapshot(off, args.off, args.batch)
    failed = 0
    apart = {int(x) for x in args.apart.split()}
    for g in graph_ids(args):
        k = gid(args.batch, g)
        x, y = a.get(gid(on_batch, g), {}), b.get(k, {})
        if g in apart and x != y and not args.on_batch:
            print("ok graph %s phase %s: not judged: its phase 1 started apart in the GC's cluster (APART)"
                  % (k, args.phase))
            continue
        if x == y:
            print("ok graph %s phase %s: %d objects left, identical" % (k, args.phase, len(x)))
            continue
        differing = {key for key in set(x) | set(y) if x.get(key) != y.get(key)}
        racy = identity_race(generate(args.seed, args.batch, g)) if args.seed else set()
        if differing <= racy:
            print("ok graph %s phase %s: differs only in %s, which the GC judges by which informer delivered "
                  "first (RACE)" % (k, args.phase, " ".join(sorted(differing))))
            continue
        failed += 1
        print("not ok graph %s phase %s: owners gc and the GC differ" % (k, args.phase))
        for key in sorted(set(x) | set(y)):
            if x.get(key) != y.get(key):
                print("#   %s  GC: %s" % (key, json.dumps(x.get(key))))
                print("#   %s  owners: %s" % (key, json.dumps(y.get(key))))
    return 1 if failed else 0


def delete_roots(args):
    """Deletes one object of each graph, as kubectl does, with a random
    policy: the same object and policy in both clusters."""
    api = Api(args.env)
    snap = snapshot(api, args.env, args.batch)
    replay = json.load(open(args.replay)) if args.replay else None
    chosen = {}
    failed = 0
    running = []
    for g in graph_ids(args):
        rnd = random.Random("%s/%s/%s/root" % (args.seed, args.batch, g))
        k = gid(args.batch, g)
        live = sorted(key for key, st in snap.get(k, {}).items() if not st["deleting"])
        policy = rnd.choice(["background", "foreground", "orphan"])
        if replay is not None:
            # the object and policy chosen in the first run, by graph
            if str(g) not in replay:
                continue
            key, policy = replay[str(g)]
            if key not in live:
                continue
        elif not live:
            continue
        else:
            key = rnd.choice(live)
        chosen[g] = (key, policy)
        side, name = key.split("/", 1)
        if side == "-":
            cmd = ["kubectl", "delete", "clusterrole", "gd%s-%s" % (k, name)]
        else:
            cmd = ["kubectl", "-n", ns_of(args.batch, g, side), "delete", "configmap", name]
        env = dict(os.environ, KUBECONFIG=api.env["KUBECONFIG"])
        if args.owners:
            # the client-side cascade instead: owners delete does all of
            # it (it waits, up to a deadlock it names with exit 3, or its
            # timeout on a finalizer nobody removes, exit 3 too). The
            # graphs are apart: all their deletes run at once, so the
            # waits overlap. -A: the root's dependents sought in every
            # namespace, as the GC's graph links them by UID (a graph
            # names owners in its other namespace).
            cmd = [args.owners] + cmd[1:] + ["--cascade=" + policy, "--timeout=60s", "-A"]
            running.append((k, key, policy, subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL,
                                                             stderr=subprocess.DEVNULL)))
        else:
            cmd += ["--cascade=" + policy, "--wait=false"]
            subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, check=True)
            print("# graph %s: %s deleted with --cascade=%s" % (k, key, policy))
    for k, key, policy, proc in running:
        rc = proc.wait()
        if rc not in (0, 3):
            print("# graph %s: owners delete %s --cascade=%s exited %d" % (k, key, policy, rc))
            failed += 1
        print("# graph %s: %s deleted with owners delete --cascade=%s (exit %d)" % (k, key, policy, rc))
    if args.record:
        with open(args.record, "w") as f:
            json.dump(chosen, f)
    return 1 if failed else 0


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build")
    b.add_argument("--env", required=True)
    b.add_argument("--batch", required=True)
    b.add_argument("--graphs", type=int, required=True)
    b.add_argument("--seed", required=True)
    b.add_argument("--from-batch")
    b.add_argument("--only")
    b.add_argument("--order", choices=("given", "reverse", "shuffle"), default="given")
    s = sub.add_parser("settle")
    s.add_argument("--env", required=True)
    s.add_argument("--batch", required=True)
    s.add_argument("--quiet", type=float, default=6)
    s.add_argument("--limit", type=float, default=120)
    c = sub.add_parser("compare")
    c.add_argument("--on", required=True)
    c.add_argument("--off", required=True)
    c.add_argument("--batch", required=True)
    c.add_argument("--graphs", type=int, required=True)
    c.add_argument("--phase", required=True)
    c.add_argument("--on-batch")
    c.add_argument("--seed", help="the graphs' seed: names the objects the GC's identity race can reach")
    c.add_argument("--only")
    c.add_argument("--apart", default="",
                   help="graphs whose phase 1 the real GC reached only in a rerun or a race: its own "
                        "cluster holds another start, so their phase 2 is not judged")
    d = sub.add_parser("delete-roots")
    d.add_argument("--env", required=True)
    d.add_argument("--batch", required=True)
    d.add_argument("--graphs", type=int, required=True)
    d.add_argument("--seed", required=True)
    d.add_argument("--only")
    d.add_argument("--record")
    d.add_argument("--replay")
    d.add_argument("--owners", help="delete with this owners binary (owners delete) instead of kubectl")
    a = p.parse_args()
    fn = {"build": build, "settle": settle, "compare": compare, "delete-roots": delete_roots}[a.cmd]
    return fn(a) or 0


if __name__ == "__main__":
    sys.exit(main())
