#!/usr/bin/env bash
# The Debian package: built with CPack, installed with dpkg -i on a clean
# Debian root (debootstrap minbase, no build dependencies in it), its
# declared dependencies pulled in by apt, and the installed binary run
# from inside that root against a real control plane. Needs root (chroot).
. "$(dirname "$0")/lib.sh"
require debootstrap:debootstrap chroot:coreutils cpack:cmake dpkg-deb:dpkg python3:python3

if [[ $(id -u) != 0 ]]; then
  echo "Bail out! the package test needs root (debootstrap and chroot)"
  exit 1
fi

cache=${OWNERS_TESTENV_CACHE:-$HOME/.cache/owners-testenv}
rootfs_tar=$cache/debian-bookworm-minbase.tar
work=$(mktemp -d "${TMPDIR:-/tmp}/owners-pkg.XXXXXX")
root=$work/root
cleanup_pkg() {
  umount "$root/proc" 2>/dev/null
  rm -rf "$work"
  cleanup_clusters
}
trap cleanup_pkg EXIT

# A pristine minimal Debian, made once and cached (about a minute).
if [[ ! -f $rootfs_tar ]]; then
  mkdir -p "$cache"
  debootstrap --variant=minbase bookworm "$work/fresh" http://deb.debian.org/debian >"$work/debootstrap.log" 2>&1 ||
    { echo "Bail out! debootstrap failed"; tail -5 "$work/debootstrap.log"; exit 1; }
  tar -C "$work/fresh" -cf "$rootfs_tar.tmp" . && mv "$rootfs_tar.tmp" "$rootfs_tar"
  rm -rf "$work/fresh"
fi
mkdir -p "$root" && tar -C "$root" -xf "$rootfs_tar"
ok $? "a clean Debian root"
chroot "$root" sh -c 'command -v owners || dpkg -s libyajl2 >/dev/null 2>&1'
is "$?" 1 "the clean root has neither owners nor its libraries"

build=$work/build
cmake -S "$E2E_ROOT" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build "$build" -j 2 >/dev/null &&
  (cd "$build" && cpack -G DEB >/dev/null)
deb=$(ls "$build"/owners_*_amd64.deb 2>/dev/null | head -1)
[[ -f $deb ]]; ok $? "cpack builds a Debian package"
is "$(dpkg-deb -f "$deb" Package)" owners "package name"
like "$(dpkg-deb -f "$deb" Depends)" "libcurl4.*libyajl2.*libyaml-0-2" "it declares its library dependencies"

(cd "$build" && cpack -G TGZ >/dev/null && cmake --build . --target krew-manifest >/dev/null)
ok $? "cpack builds the tarball and the krew manifest"
python3 - "$build/owners.krew.yaml" "$build"/owners-*-Linux.tar.gz <<'PY2'
import hashlib, sys, tarfile, yaml
m = yaml.safe_load(open(sys.argv[1])); archive = sys.argv[2]
assert m["kind"] == "Plugin" and m["apiVersion"] == "krew.googlecontainertools.github.com/v1alpha2"
p = m["spec"]["platforms"][0]
assert p["selector"]["matchLabels"] == {"os": "linux", "arch": "amd64"}
assert p["sha256"] == hashlib.sha256(open(archive, "rb").read()).hexdigest(), "sha256 of the tarball"
names = tarfile.open(archive).getnames()
for f in p["files"]:
    assert any(n == f["from"] or n.startswith(f["from"] + "/") for n in names), f["from"]
assert p["bin"] == "owners"
PY2
ok $? "the krew manifest names the tarball's sha256 and files that exist in it"

cp "$deb" "$root/tmp/owners.deb"
mount -t proc proc "$root/proc"
run chroot "$root" dpkg -i /tmp/owners.deb
ok $((rc == 0 ? 1 : 0)) "dpkg -i alone refuses: the dependencies are missing"
like "$err" "depends on libyajl2" "and says which"
run chroot "$root" sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get -f install -y -qq'
ok $rc "apt-get -f install brings exactly the declared dependencies"
run chroot "$root" dpkg -s owners
like "$out" "Status: install ok installed" "the package is installed"

run chroot "$root" owners version
ok $rc "owners version runs in the clean root"
like "$out" "^owners [0-9]+\.[0-9]+\.[0-9]+ \(commit [0-9a-f]+" "it prints the version and commit"
like "$out" "libcurl .*yajl .*libyaml" "and the library versions"
[[ -L $root/usr/bin/kubectl-owners && -f $root/usr/share/man/man1/owners-delete.1 &&
   -f $root/usr/share/bash-completion/completions/owners ]]
ok $? "the kubectl plugin link, man pages and completions are installed"

start_cluster C
kubectl create configmap in-package >/dev/null
cp "$C/kubeconfig" "$root/tmp/kubeconfig"
run chroot "$root" env HOME=/root owners --kubeconfig /tmp/kubeconfig tree configmap/in-package
ok $rc "the installed owners talks to a real cluster"
like "$out" "ConfigMap/in-package" "and prints the tree"

done_testing
