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

work=$(mktemp -d "${TMPDIR:-/tmp}/owners-pkg.XXXXXX")
root=$work/root
cleanup_pkg() {
  umount "$root/proc" 2>/dev/null
  rm -rf "$work"
  cleanup_clusters
}
trap cleanup_pkg EXIT

debian_root "$root"
ok $? "a clean Debian root"
chroot "$root" sh -c 'command -v owners || dpkg -s libyaml-0-2 >/dev/null 2>&1 || dpkg -s libyajl2 >/dev/null 2>&1'
is "$?" 1 "the clean root has neither owners nor its libraries"

build=$work/build
cmake -S "$E2E_ROOT" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build "$build" -j 2 >/dev/null &&
  (cd "$build" && cpack -G DEB >/dev/null)
deb=$(ls "$build"/owners_*_amd64.deb 2>/dev/null | head -1)
[[ -f $deb ]]; ok $? "cpack builds a Debian package"
is "$(dpkg-deb -f "$deb" Package)" owners "package name"
like "$(dpkg-deb -f "$deb" Depends)" "libcurl4.*libprotobuf-c1.*libyajl2.*libyaml-0-2" "it declares its library dependencies"
like "$(dpkg-deb -f "$deb" Recommends)" "libarchive13" "and recommends libarchive, which it loads to read a dump archive"

cp "$deb" "$root/tmp/owners.deb"
mount -t proc proc "$root/proc"
run chroot "$root" dpkg -i /tmp/owners.deb
ok $((rc == 0 ? 1 : 0)) "dpkg -i alone refuses: the dependencies are missing"
like "$err" "depends on (libcurl4|libprotobuf-c1|libyajl2|libyaml-0-2)" "and says which"
run chroot "$root" sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get -f install -y -qq'
ok $rc "apt-get -f install brings exactly the declared dependencies"
run chroot "$root" dpkg -s owners
like "$out" "Status: install ok installed" "the package is installed"

run chroot "$root" owners version --client
ok $rc "owners version runs in the clean root"
like "$out" "^owners [0-9]+\.[0-9]+\.[0-9]+ \(commit [0-9a-f]+" "it prints the version and commit"
like "$out" "libcurl .*yajl 2\.[0-9]+\.[0-9]+.*libyaml .*protobuf-c " "and the library versions"
[[ -L $root/usr/bin/kubectl-owners && -f $root/usr/share/man/man1/owners-delete.1 &&
   -f $root/usr/share/bash-completion/completions/owners ]]
ok $? "the kubectl plugin link, man pages and completions are installed"
[[ $(readlink "$root/usr/bin/kubectl_complete-owners") == owners ]]
ok $? "kubectl_complete-owners (kubectl owners <TAB>) is a link to owners"

start_cluster C
kubectl create configmap in-package >/dev/null
cp "$C/kubeconfig" "$root/tmp/kubeconfig"
run chroot "$root" env HOME=/root owners --kubeconfig /tmp/kubeconfig tree configmap/in-package
ok $rc "the installed owners talks to a real cluster"
like "$out" "ConfigMap/in-package" "and prints the tree"
run chroot "$root" env HOME=/root KUBECONFIG=/tmp/kubeconfig kubectl_complete-owners tree configmaps/in-pa
is "$out" $'configmaps/in-package\n:4' "the installed completion helper answers as kubectl expects"

done_testing
