#!/usr/bin/env bash
# The release tarball, tested the way it is used: tests/release builds it
# (static owners, LICENSE, README.md, and its krew manifest); the binary
# needs no shared library (readelf); unpacked into a pristine Debian
# minbase root with no package added, it runs `version`, `tree` and
# `delete --dry-run=client` against a real cluster, reaching it by address
# and by name (c-ares, the release's resolver, reads /etc/hosts); the krew
# manifest follows krew's rules (krew itself is not on the Go module proxy)
# and names the tarball's sha256 and files.
. "$(dirname "$0")/lib.sh"
require readelf:binutils debootstrap:debootstrap chroot:coreutils python3:python3

if [[ $(id -u) != 0 ]]; then
  echo "Bail out! the release test needs root (debootstrap and chroot)"
  exit 1
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/owners-release.XXXXXX")
root=$work/root
trap 'rm -rf "$work"; cleanup_clusters' EXIT

tarball=$("$E2E_ROOT/tests/release" 2>"$work/release.log")
ok $? "tests/release builds the tarball"
grep -E "^release: dist/" "$work/release.log" | sed 's/^/# /'
tail -3 "$work/release.log" | grep -q 'release: ' || sed 's/^/#   /' "$work/release.log" | tail -20
like "$(basename "$tarball")" '^owners-[0-9]+\.[0-9]+\.[0-9]+-linux-amd64\.tar\.gz$' "named owners-VERSION-linux-amd64.tar.gz"
is "$(tar tzf "$tarball" | sed 's|^[^/]*/||' | grep . | sort | tr '\n' ' ')" \
  "LICENSE README.md kubectl-owners kubectl_complete-owners owners " \
  "it holds owners, its two kubectl links, LICENSE and README.md"
is "$(tar tvzf "$tarball" | grep -c -- '-owners -> owners$')" 2 "  the links point at owners"
mkdir -p "$work/x" && tar -C "$work/x" -xzf "$tarball"
bin=$(ls "$work"/x/*/owners)
is "$(readelf -d "$bin" 2>&1 | grep -c NEEDED)" 0 "readelf -d: no shared library needed (static)"
like "$(file -b "$bin" 2>/dev/null || readelf -h "$bin")" "statically linked|EXEC|DYN" "an x86-64 executable"

debian_root "$root"
ok $? "a pristine Debian minbase root"
chroot "$root" sh -c 'dpkg -s libcurl4 libyajl2 libyaml-0-2 libprotobuf-c1 ca-certificates >/dev/null 2>&1'
ok $(( $? == 0 ? 1 : 0 )) "it has none of the libraries a dynamic owners would need, nor a CA bundle"
mkdir -p "$root/opt" && tar -C "$root/opt" -xzf "$tarball"
owners_in_root() { chroot "$root" env -i HOME=/root PATH=/usr/bin:/bin "/opt/$(basename "$tarball" .tar.gz)/owners" "$@"; }

run owners_in_root version --client
ok $rc "owners version runs in the pristine root"
like "$out" "^owners [0-9]+\.[0-9]+\.[0-9]+" "and prints its version"
like "$out" "libcurl" "and the libcurl it carries"

start_cluster C --gc=stalled --controllers
. "$C/env"
kubectl create deployment web --image=nginx --replicas=2 >/dev/null
wait_for "2 pods of web" 60 bash -c '[[ $(kubectl get pods -l app=web -o name | wc -l) == 2 ]]'
cp "$C/kubeconfig" "$root/kubeconfig"
run owners_in_root --kubeconfig /kubeconfig tree deployment/web
ok $rc "tree against a real cluster, from the pristine root"
like "$out" "Deployment/web .*"$'\n'".*ReplicaSet/web-" "the Deployment's tree"
is "$(grep -c 'Pod/web-' <<<"$out")" 2 "with both pods"
run owners_in_root --kubeconfig /kubeconfig delete deployment/web --dry-run=client
ok $rc "delete --dry-run=client"
like "$out" "deployment.apps/web  delete" "prints the plan"
[[ $(kubectl get pods -l app=web -o name | wc -l) == 2 ]]; ok $? "and changes nothing"
port=${SERVER##*:}
run owners_in_root --kubeconfig /kubeconfig --server "https://localhost:$port" tree deployment/web
ok $rc "a server by name: localhost resolved from the root's /etc/hosts (c-ares, no glibc NSS)"
run chroot "$root" env -i HOME=/root PATH=/usr/bin:/bin KUBECONFIG=/kubeconfig \
  "/opt/$(basename "$tarball" .tar.gz)/kubectl_complete-owners" tree deployments/w
is "$out" $'deployments/web\n:4' "the tarball's kubectl_complete-owners answers as kubectl expects"

python3 - "$E2E_ROOT/dist/owners.krew.yaml" "$tarball" <<'PY'
import hashlib, re, sys, tarfile, yaml
m = yaml.safe_load(open(sys.argv[1])); archive = sys.argv[2]
# krew's rules (sigs.k8s.io/krew pkg/index/validation): kind and apiVersion,
# a safe lowercase name, a "v"-prefixed semver, a short description, at least
# one platform with a selector, a URI, a 64-hex sha256, files and a bin among
# the files' targets.
assert m["kind"] == "Plugin" and m["apiVersion"] == "krew.googlecontainertools.github.com/v1alpha2"
assert re.fullmatch(r"[a-z0-9][a-z0-9-]*", m["metadata"]["name"]) and m["metadata"]["name"] != "kubectl"
assert re.fullmatch(r"v\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?", m["spec"]["version"]), m["spec"]["version"]
assert m["spec"]["shortDescription"].strip()
assert m["spec"]["platforms"]
for p in m["spec"]["platforms"]:
    assert p["selector"]["matchLabels"] == {"os": "linux", "arch": "amd64"}
    assert p["uri"].endswith("/" + archive.rsplit("/", 1)[1])
    assert re.fullmatch(r"[0-9a-f]{64}", p["sha256"])
    assert p["sha256"] == hashlib.sha256(open(archive, "rb").read()).hexdigest(), "sha256 of the tarball"
    names = tarfile.open(archive).getnames()
    for f in p["files"]:
        assert f["from"] in names, f["from"]
        assert f["to"] and ".." not in f["to"].split("/")
    assert p["bin"] == "owners" and "/" not in p["bin"]
assert "kubectl_complete-owners" in m["spec"]["caveats"], "caveats: the completion helper"
PY
ok $? "the krew manifest follows krew's rules and names the tarball's sha256 and files"

done_testing
