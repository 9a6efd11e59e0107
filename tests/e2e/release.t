#!/usr/bin/env bash
# The release tarballs, tested the way they are used: tests/release builds
# them (static owners for linux/amd64 and linux/arm64, LICENSE, README.md,
# SHA256SUMS and the krew manifest); the binaries need no shared library
# (readelf) and are of their machine; unpacked into a pristine Debian
# minbase root with no package added, the amd64 one runs `version`, `tree`
# and `delete --dry-run=client` against a real cluster, reaching it by
# address and by name (c-ares, the release's resolver, reads /etc/hosts);
# the arm64 one runs under qemu-user against the same cluster (which runs
# natively) and must print what the amd64 one prints: version, tree, graph
# -A, dangling, gc --dry-run=client, a foreground delete (each binary in a
# namespace of its own holding the same objects) and completion. The krew
# manifest follows krew's rules (krew itself is not on the Go module
# proxy) and names both platforms with their tarballs' sha256 and files.
. "$(dirname "$0")/lib.sh"
require readelf:binutils debootstrap:debootstrap chroot:coreutils python3:python3 qemu-aarch64:qemu-user

if [[ $(id -u) != 0 ]]; then
  echo "Bail out! the release test needs root (debootstrap and chroot)"
  exit 1
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/owners-release.XXXXXX")
root=$work/root
trap 'rm -rf "$work"; cleanup_clusters' EXIT

tarballs=$("$E2E_ROOT/tests/release" 2>"$work/release.log")
ok $? "tests/release builds the tarballs"
tarball=$(grep -- '-linux-amd64\.tar\.gz$' <<<"$tarballs")
arm_tarball=$(grep -- '-linux-arm64\.tar\.gz$' <<<"$tarballs")
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
like "$(readelf -h "$bin")" "Machine: +Advanced Micro Devices X86-64" "  readelf -h: machine x86-64"

# linux/arm64: the same tarball, for AArch64
like "$(basename "$arm_tarball")" '^owners-[0-9]+\.[0-9]+\.[0-9]+-linux-arm64\.tar\.gz$' "named owners-VERSION-linux-arm64.tar.gz"
is "$(tar tvzf "$arm_tarball" | sed -E 's|.* [^/]*/||' | grep . | sort | tr '\n' ' ')" \
  "LICENSE README.md kubectl-owners -> owners kubectl_complete-owners -> owners owners " \
  "  it holds owners, its two links to it, LICENSE and README.md"
mkdir -p "$work/arm" && tar -C "$work/arm" -xzf "$arm_tarball"
arm_bin=$(ls "$work"/arm/*/owners)
is "$(readelf -d "$arm_bin" 2>&1 | grep -c NEEDED)$(readelf -l "$arm_bin" | grep -c INTERP)" 00 \
  "  static: no shared library needed, no program interpreter (readelf -d, -l)"
like "$(readelf -h "$arm_bin")" "Class: +ELF64.*Machine: +AArch64" "  readelf -h: a 64-bit AArch64 executable"
# Debian's arm64 kernels use 4 KiB pages, Asahi Linux (Apple silicon) 16 KiB
# and some server distributions 64 KiB: segments aligned to 64 KiB load on all.
is "$(readelf -lW "$arm_bin" | awk '$1 == "LOAD" {print $NF}' | sort -u)" 0x10000 \
  "  its segments are 64 KiB aligned (it loads on 4, 16 and 64 KiB page kernels)"
(cd "$(dirname "$tarball")" && sha256sum --quiet -c SHA256SUMS) &&
  is "$(awk '{print $2}' "$(dirname "$tarball")/SHA256SUMS" | tr '\n' ' ')" \
    "$(basename "$tarball") $(basename "$arm_tarball") " "SHA256SUMS: both tarballs' sha256, and they match (sha256sum -c)" ||
  ok 1 "SHA256SUMS: both tarballs' sha256, and they match (sha256sum -c)"

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

# ---- linux/arm64 under qemu-user, against the same cluster --------------
# Each binary from its unpacked tarball in a clean environment with a home
# (and so a discovery cache) of its own; the arm64 one through qemu-aarch64
# (no binfmt: called directly). The same objects twice (fixtures.sh), in
# namespaces amd64 and arm64, for the one command that changes them.
. "$E2E_ROOT/tests/e2e/fixtures.sh"
make_fixtures amd64 arm64
ok $? "the same objects in namespaces amd64 and arm64"
amd_dir=$(dirname "$bin") arm_dir=$(dirname "$arm_bin")
qemu=$(command -v qemu-aarch64)
mkdir -p "$work/home-amd64" "$work/home-arm64"
as_amd64() { local cmd=$1; shift; env -i HOME="$work/home-amd64" PATH=/usr/bin:/bin KUBECONFIG="$C/kubeconfig" "$amd_dir/$cmd" "$@"; }
as_arm64() { local cmd=$1; shift; env -i HOME="$work/home-arm64" PATH=/usr/bin:/bin KUBECONFIG="$C/kubeconfig" "$qemu" "$arm_dir/$cmd" "$@"; }
# Durations (AGE, SINCE, "renewed 2s ago") tick between the two runs: each
# is masked as T, and the padding that follows its width squeezed.
mask_durations() { sed -E 's/(^|[[:space:](])[0-9]+[smhd]([[:space:]]|$)/\1T\2/g; s/[[:space:]]+/ /g'; }
# same_as_amd64 MASK WANT CMD ARGS...: CMD ARGS run by both binaries; the
# amd64 one exits 0 and prints WANT (a regex), and the arm64 one exits and
# prints the same, stdout and stderr (durations masked if MASK is 1).
same_as_amd64() {
  local mask=$1 want=$2 amd arm note=; shift 2
  run as_amd64 "$@"
  amd="rc=$rc"$'\n'"$out"$'\n'"$err"
  like "$amd" "^rc=0"$'\n'".*$want" "amd64: $*"
  run as_arm64 "$@"
  arm="rc=$rc"$'\n'"$out"$'\n'"$err"
  if [[ $mask == 1 ]]; then
    amd=$(mask_durations <<<"$amd") arm=$(mask_durations <<<"$arm") note=" (durations masked)"
  fi
  is "$arm" "$amd" "  arm64 under qemu: the same$note"
}

run as_arm64 owners version --client
ok $rc "the arm64 owners runs under qemu-aarch64"
same_as_amd64 0 "server v[0-9.]+" owners version
# version -o json: its clientVersion.platform on a line, then the rest
platform_and_rest() {
  python3 -c 'import json, sys; v = json.load(sys.stdin)
print(v["clientVersion"].pop("platform")); print(json.dumps(v, sort_keys=True))'
}
run as_arm64 owners version -o json
arm=$(platform_and_rest <<<"$out")
run as_amd64 owners version -o json
amd=$(platform_and_rest <<<"$out")
is "$(head -1 <<<"$arm") $(head -1 <<<"$amd")" "linux/arm64 linux/amd64" "version -o json: each names its platform"
is "$(tail -n +2 <<<"$arm")" "$(tail -n +2 <<<"$amd")" "  and the rest of the document is the same"
same_as_amd64 1 "ConfigMap/app-g1" owners tree cm/app -n amd64
same_as_amd64 0 '"name": "app-g1"' owners tree cm/app -n amd64 -o json
same_as_amd64 0 "dangling references: +4" owners graph -A
same_as_amd64 0 "arm64 +ConfigMap/dang-2" owners dangling -A
same_as_amd64 1 "ConfigMap/stuck2 .*wait \\(finalizers\\)" owners gc --dry-run=client -A
same_as_amd64 0 "complete -F _owners owners kubectl-owners" owners completion bash
same_as_amd64 0 $'configmaps/app\nconfigmaps/app-c1\nconfigmaps/app-g1\n:4' kubectl_complete-owners -n arm64 tree configmaps/ap

# a foreground delete, each in its namespace: the same lines and the same
# end. The requests of one round are in flight together, and each line is
# printed as its answer comes, so the order within a round may differ: the
# lines are compared sorted, and the last (the owner, deleted last) apart.
run as_amd64 owners delete cm/fg --cascade=foreground -n amd64
amd="rc=$rc"$'\n'"$(sort <<<"$out")"$'\n'"$err"$'\n'"last: $(tail -1 <<<"$out")"
like "$amd" '^rc=0.*secret "fg-g1" deleted in namespace amd64.*last: configmap "fg" deleted' \
  "amd64: delete cm/fg --cascade=foreground"
run as_arm64 owners delete cm/fg --cascade=foreground -n arm64
arm="rc=$rc"$'\n'"$(sort <<<"$out")"$'\n'"$err"$'\n'"last: $(tail -1 <<<"$out")"
is "${arm//arm64/NS}" "${amd//amd64/NS}" "  arm64 under qemu: the same lines (namespace aside, sorted) and the same last line"
left() { kubectl -n "$1" get configmaps,secrets,serviceaccounts -o name | grep -v '/kube-root-ca.crt$\|/default$' | sort; }
is "$(left arm64)" "$(left amd64)" "  and leaves the same objects in its namespace"
unlike "$(left arm64)" "/fg(-c1|-c2|-g1)?$" "  the cascade is gone (fg-shared kept: it has another owner)"

python3 - "$E2E_ROOT/dist/owners.krew.yaml" "$tarball" "$arm_tarball" <<'PY'
import hashlib, re, sys, tarfile, yaml
m = yaml.safe_load(open(sys.argv[1])); archives = {"amd64": sys.argv[2], "arm64": sys.argv[3]}
# krew's rules (sigs.k8s.io/krew pkg/index/validation): kind and apiVersion,
# a safe lowercase name, a "v"-prefixed semver, a short description, at least
# one platform with a selector, a URI, a 64-hex sha256, files and a bin among
# the files' targets.
assert m["kind"] == "Plugin" and m["apiVersion"] == "krew.googlecontainertools.github.com/v1alpha2"
assert re.fullmatch(r"[a-z0-9][a-z0-9-]*", m["metadata"]["name"]) and m["metadata"]["name"] != "kubectl"
assert re.fullmatch(r"v\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?", m["spec"]["version"]), m["spec"]["version"]
assert m["spec"]["shortDescription"].strip()
# Here: linux/amd64 and linux/arm64, each with its own tarball.
assert [p["selector"]["matchLabels"] for p in m["spec"]["platforms"]] == \
    [{"os": "linux", "arch": "amd64"}, {"os": "linux", "arch": "arm64"}], m["spec"]["platforms"]
for p in m["spec"]["platforms"]:
    archive = archives[p["selector"]["matchLabels"]["arch"]]
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
ok $? "the krew manifest follows krew's rules and names linux/amd64 and linux/arm64, each tarball's sha256 and files"

done_testing
