package main

import (
	"bufio"
	"encoding/json"
	"log"
	"os"
	"strings"
)

// etcdResource is the resource part of an object's etcd key: the core and
// apps kinds under their plural alone, a custom resource under its group
// too (how the apiserver names its keys).
func etcdResource(apiVersion, kind string) string {
	plural := strings.ToLower(kind) + "s"
	group := ""
	if i := strings.Index(apiVersion, "/"); i >= 0 {
		group = apiVersion[:i]
	}
	switch group {
	case "", "apps", "batch", "rbac.authorization.k8s.io", "policy":
		return plural
	}
	return group + "/" + plural
}

func (s *seeder) load(path string, m *manifest) {
	s.crds(0, m)
	f, err := os.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	in := bufio.NewScanner(f)
	in.Buffer(make([]byte, 1<<20), 1<<26)
	var kvs []etcdKV
	counts := map[string]int{}
	for in.Scan() {
		line := append([]byte(nil), in.Bytes()...)
		var o struct {
			APIVersion string `json:"apiVersion"`
			Kind       string `json:"kind"`
			Metadata   struct {
				Name      string `json:"name"`
				Namespace string `json:"namespace"`
			} `json:"metadata"`
		}
		if err := json.Unmarshal(line, &o); err != nil {
			log.Fatalf("%s: %v", path, err)
		}
		res := etcdResource(o.APIVersion, o.Kind)
		key := "/registry/" + res + "/" + o.Metadata.Name
		if o.Metadata.Namespace != "" {
			key = "/registry/" + res + "/" + o.Metadata.Namespace + "/" + o.Metadata.Name
		}
		if o.Kind == "Namespace" {
			// what a live Namespace has beside its metadata
			line = append(line[:len(line)-1], []byte(`,"spec":{"finalizers":["kubernetes"]},"status":{"phase":"Active"}}`)...)
		}
		kvs = append(kvs, etcdKV{key, line})
		counts[res]++
	}
	if err := in.Err(); err != nil {
		log.Fatal(err)
	}
	s.putKVs(kvs)
	delete(counts, "namespaces") // (not listed by settle: the apiserver has its own)
	m.Counts = counts
}
