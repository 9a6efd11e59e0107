// Command testenv is the local control plane used by the owners test suite.
//
// It is one multi-call binary that runs the real Kubernetes and etcd code
// paths, chosen by its first argument, so the three servers share a single
// build and a single cache entry:
//
//	testenv etcd [etcd flags]
//	testenv kube-apiserver [kube-apiserver flags]
//	testenv kube-controller-manager [kube-controller-manager flags]
//	testenv version
package main

import (
	"fmt"
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
	"k8s.io/component-base/cli"
	apiserver "k8s.io/kubernetes/cmd/kube-apiserver/app"
	controllermanager "k8s.io/kubernetes/cmd/kube-controller-manager/app"
)

// Versions are recorded here so `testenv version` can prove what was built;
// keep them equal to go.mod.
const (
	kubernetesVersion = "v1.36.3"
	etcdVersion       = "v3.6.8"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: testenv etcd|kube-apiserver|kube-controller-manager|version [flags]")
		os.Exit(2)
	}
	which := os.Args[1]
	args := os.Args[2:]
	switch which {
	case "etcd":
		// etcdmain parses os.Args itself and expects the program name first.
		etcdmain.Main(append([]string{"etcd"}, args...))
	case "kube-apiserver":
		cmd := apiserver.NewAPIServerCommand()
		cmd.SetArgs(args)
		os.Exit(cli.Run(cmd))
	case "kube-controller-manager":
		cmd := controllermanager.NewControllerManagerCommand()
		cmd.SetArgs(args)
		os.Exit(cli.Run(cmd))
	case "version":
		fmt.Printf("kubernetes %s\netcd %s\n", kubernetesVersion, etcdVersion)
	default:
		fmt.Fprintf(os.Stderr, "testenv: unknown server %q\n", which)
		os.Exit(2)
	}
}
