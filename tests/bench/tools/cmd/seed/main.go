// seed fills a local test cluster (tests/cluster/up) with realistic
// ownership shapes, fast.
//
//	seed -env DIR/env -objects 10000 [-crds 200] [-uses] [-manifest out.json]
//	seed -env DIR/env -tree 10000 -ns cascade [-manifest out.json]
//	seed -env DIR/env -wide 20000 -ns wide [-manifest out.json]
//	seed -env DIR/env -deep 100 -ns deep [-crds 200] [-manifest out.json]
//	seed -env DIR/env -load objects.ndjson [-manifest out.json]
//
// How: one object of each shape is created through the API (so it has
// what the apiserver adds: defaults, managedFields, generation) and read
// back as a template. Every object is then stamped from its template (new
// name, UID, namespace, labels, owners) and written straight into etcd,
// a hundred per transaction, through etcd's JSON gateway. The apiserver
// reads JSON from etcd like its own protobuf and sees the writes through
// its watch, so the objects are ordinary objects to every client (lists,
// GETs, deletes, the garbage collector), and seeding runs at etcd's speed
// (thousands per second) instead of the apiserver's create path (a few
// hundred per second on two cores). Since we choose the UIDs, owners need
// not exist before their dependents. Namespaces and CRDs go through the
// API (they have controllers of their own in the apiserver).
//
// Cluster shape (-objects N): max(4, N/1000) namespaces bench-0... (bench-0
// holds a tenth of all objects when that is more than an even share), each with
//   - Deployments web-I -> 2 ReplicaSets (an old one scaled to 0, the
//     current one) -> 10 Pods (controller references, blockOwnerDeletion);
//   - Widgets (a custom resource, widgets.bench.owners.test) owning two
//     ConfigMaps and a Secret; each Widget's second ConfigMap is owned by
//     the next Widget too (objects with several owners);
//   - ConfigMaps owned by a Widget that are in deletion, held by a finalizer
//     (bench.owners.test/hold) that nobody removes;
//
// plus -crds filler CRDs (thingNNN.gMM.bench.owners.test, 10 per group, most
// namespaced) so discovery and the scan see a cluster with ~200 CRDs.
//
// Tree shape (-tree N -ns NS): one Deployment "big" -> max(1, N/1000)
// ReplicaSets -> Pods, N objects in all, for cascade benchmarks.
//
// Wide shape (-wide N -ns NS): one Widget "wide" owning N ConfigMaps
// directly (an operator's custom resource owning thousands of objects).
//
// Deep shape (-deep N -ns NS): an ownership chain N objects long, a Widget
// "deep" owning ConfigMap deep-001, which owns deep-002, and so on to
// deep-(N-1), plus the -crds filler CRDs (a chain's depth costs a client
// nothing in requests: it still lists every type once).
//
// Load (-load FILE): the objects of a file as they are (snapgen -ndjson,
// tests/bench/tools/snapgen: the cluster a generated snapshot holds), each
// written into etcd with its own UID, owners and times, after the Widget
// CRD; a Namespace too (kept as written, with the status a live one has).
//
// The manifest (JSON) says what was made: object count, namespaces, the
// Deployment to run `tree` on, and how long seeding took.
package main

import (
	"bytes"
	crand "crypto/rand"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"math/rand"
	"net/http"
	"os"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	tools "owners.test/bench/tools"
)

const (
	group     = "bench.owners.test"
	finalizer = "bench.owners.test/hold"
	podsPerRS = 10
	// Owner UIDs in the templates (any UID will do: owners are not checked).
	ownerUID1 = "0000000a-0000-4000-8000-000000000001"
	ownerUID2 = "0000000a-0000-4000-8000-000000000002"
)

// The namespace the templates are made in (and then deleted with it); a
// new name per run, so a run that died half-way is no obstacle.
var tmplNS = fmt.Sprintf("seed-template-%d", time.Now().UnixNano()%1000000)

type seeder struct {
	c       *tools.Cluster
	etcd    string
	etcdc   *http.Client
	workers int
	verbose bool
	rnd     *rand.Rand
	written atomic.Int64
	viaAPI  bool // tree shape: create through the API (see createViaAPI)
}

func (s *seeder) do(method, path, ctype, body string) (int, []byte, error) {
	var b []byte
	if body != "" {
		b = []byte(body)
	}
	req, err := s.c.Request(method, path, "", ctype, b)
	if err != nil {
		return 0, nil, err
	}
	resp, err := s.c.Client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	return resp.StatusCode, data, err
}

func (s *seeder) must(method, path, ctype, body string) []byte {
	code, data, err := s.do(method, path, ctype, body)
	if err != nil || code/100 != 2 {
		log.Fatalf("%s %s: %d %v %s", method, path, code, err, strings.TrimSpace(string(data)))
	}
	return data
}

// create POSTs objects through the API, in parallel.
func (s *seeder) create(path string, bodies []string) {
	var wg sync.WaitGroup
	sem := make(chan struct{}, s.workers)
	for _, b := range bodies {
		wg.Add(1)
		sem <- struct{}{}
		go func(b string) {
			defer wg.Done()
			defer func() { <-sem }()
			s.must("POST", path, "application/json", b)
		}(b)
	}
	wg.Wait()
}

func (s *seeder) waitServed(path string) {
	deadline := time.Now().Add(120 * time.Second)
	for time.Now().Before(deadline) {
		code, _, err := s.do("GET", path, "", "")
		if err == nil && code == 200 {
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
	log.Fatalf("%s is not served after 120s", path)
}

// ---- templates -------------------------------------------------------------

func ownersJSON(n int, kind, apiVersion string) string {
	refs := []string{}
	for i := 1; i <= n; i++ {
		refs = append(refs, fmt.Sprintf(`{"apiVersion":%q,"kind":%q,"name":"zzowner%d","uid":"0000000a-0000-4000-8000-00000000000%d","controller":%t,"blockOwnerDeletion":true}`,
			apiVersion, kind, i, i, i == 1))
	}
	return "[" + strings.Join(refs, ",") + "]"
}

const plainPodSpec = `{"containers":[{"name":"web","image":"registry.example/web:1.4.2",` +
	`"ports":[{"containerPort":8080,"protocol":"TCP"}],"resources":{"requests":{"cpu":"10m","memory":"16Mi"}}}],` +
	`"terminationGracePeriodSeconds":30}`

// With -uses, each app's Pods (and its Deployment's and ReplicaSets'
// templates) mount a ConfigMap and a Secret named after the app and read
// the ConfigMap into their environment: what owners' relations read.
const usesPodSpec = `{"containers":[{"name":"web","image":"registry.example/web:1.4.2",` +
	`"ports":[{"containerPort":8080,"protocol":"TCP"}],"resources":{"requests":{"cpu":"10m","memory":"16Mi"}},` +
	`"envFrom":[{"configMapRef":{"name":"zzapp"}}]}],` +
	`"volumes":[{"name":"config","configMap":{"name":"zzapp"}},{"name":"secret","secret":{"secretName":"zzapp"}}],` +
	`"terminationGracePeriodSeconds":30}`

var podSpec = plainPodSpec

// A template: an object as the apiserver stored it, with placeholders
// (zz... names, the owner UIDs above, its own UID) to stamp copies from.
type template struct {
	json string // compact, without resourceVersion
	uid  string
	body string // the create request it was made from (API mode stamps these)
	path string // its collection, in the template namespace
}

type shape struct {
	name, path, body string
	// how to finish it after the create (the held ConfigMap is deleted)
	deleteAfter bool
}

var rvField = regexp.MustCompile(`"resourceVersion":"[0-9]+",?`)

// templates makes the named shapes' templates (all of them when none is named).
func (s *seeder) templates(only ...string) map[string]template {
	s.must("POST", "/api/v1/namespaces", "application/json", fmt.Sprintf(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":%q}}`, tmplNS))
	ns := "/namespaces/" + tmplNS
	shapes := []shape{
		{"deployment", "/apis/apps/v1" + ns + "/deployments", fmt.Sprintf(
			`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"zzdeploy","labels":{"app":"zzapp"}},`+
				`"spec":{"replicas":10,"selector":{"matchLabels":{"app":"zzapp"}},"template":{"metadata":{"labels":{"app":"zzapp"}},"spec":%s}}}`, podSpec), false},
		{"replicaset", "/apis/apps/v1" + ns + "/replicasets", fmt.Sprintf(
			`{"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{"name":"zzrs","labels":{"app":"zzapp","pod-template-hash":"zzhash"},`+
				`"annotations":{"deployment.kubernetes.io/revision":"2"},"ownerReferences":%s},`+
				`"spec":{"replicas":10,"selector":{"matchLabels":{"app":"zzapp","pod-template-hash":"zzhash"}},`+
				`"template":{"metadata":{"labels":{"app":"zzapp","pod-template-hash":"zzhash"}},"spec":%s}}}`,
			ownersJSON(1, "Deployment", "apps/v1"), podSpec), false},
		{"pod", "/api/v1" + ns + "/pods", fmt.Sprintf(
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"zzpod","labels":{"app":"zzapp","pod-template-hash":"zzhash"},"ownerReferences":%s},"spec":%s}`,
			ownersJSON(1, "ReplicaSet", "apps/v1"), podSpec), false},
		{"widget", "/apis/" + group + "/v1" + ns + "/widgets",
			`{"apiVersion":"bench.owners.test/v1","kind":"Widget","metadata":{"name":"zzwidget"},"spec":{"size":3,"color":"teal"}}`, false},
		{"configmap", "/api/v1" + ns + "/configmaps", fmt.Sprintf(
			`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"zzcm","ownerReferences":%s},"data":{"config.yaml":"replicas: 3\nlog: info\n"}}`,
			ownersJSON(1, "Widget", group+"/v1")), false},
		{"configmap2", "/api/v1" + ns + "/configmaps", fmt.Sprintf(
			`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"zzcm2","ownerReferences":%s},"data":{"config.yaml":"replicas: 3\nlog: info\n"}}`,
			ownersJSON(2, "Widget", group+"/v1")), false},
		{"secret", "/api/v1" + ns + "/secrets", fmt.Sprintf(
			`{"apiVersion":"v1","kind":"Secret","metadata":{"name":"zzsecret","ownerReferences":%s},"type":"Opaque","data":{"token":"c2VjcmV0LXZhbHVl"}}`,
			ownersJSON(1, "Widget", group+"/v1")), false},
		{"chain", "/api/v1" + ns + "/configmaps", fmt.Sprintf(
			`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"zzchain","ownerReferences":%s},"data":{"config.yaml":"replicas: 3\nlog: info\n"}}`,
			ownersJSON(1, "ConfigMap", "v1")), false},
		{"appconfig", "/api/v1" + ns + "/configmaps",
			`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"zzapp"},"data":{"config.yaml":"replicas: 3\nlog: info\n"}}`, false},
		{"appsecret", "/api/v1" + ns + "/secrets",
			`{"apiVersion":"v1","kind":"Secret","metadata":{"name":"zzapp"},"type":"Opaque","data":{"token":"c2VjcmV0LXZhbHVl"}}`, false},
		{"held", "/api/v1" + ns + "/configmaps", fmt.Sprintf(
			`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"zzheld","finalizers":[%q],"ownerReferences":%s},"data":{"config.yaml":"replicas: 3\nlog: info\n"}}`,
			finalizer, ownersJSON(1, "Widget", group+"/v1")), true},
	}
	out := map[string]template{}
	for _, sh := range shapes {
		if len(only) > 0 && !contains(only, sh.name) {
			continue
		}
		// The answers are the templates: POST's (or, for the one in
		// deletion, DELETE's) is the object as stored. No GET after: with
		// the GC on, the template's made-up owners make it go at once.
		data := s.must("POST", sh.path, "application/json", sh.body)
		name := nameOf(sh.body)
		if sh.deleteAfter {
			data = s.must("DELETE", sh.path+"/"+name, "", "")
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, data); err != nil {
			log.Fatal(err)
		}
		var m struct {
			Metadata struct{ UID string } `json:"metadata"`
		}
		json.Unmarshal(data, &m)
		out[sh.name] = template{json: rvField.ReplaceAllString(compact.String(), ""), uid: m.Metadata.UID,
			body: sh.body, path: sh.path}
		// Gone again (or going: the GC may be first; 404 is fine): the
		// template objects are not part of the data.
		if sh.deleteAfter {
			s.do("PATCH", sh.path+"/"+name, "application/merge-patch+json", `{"metadata":{"finalizers":null}}`)
		} else {
			s.do("DELETE", sh.path+"/"+name, "", "")
		}
	}
	// The namespace goes too (no namespace controller needed: it is empty).
	s.must("DELETE", "/api/v1/namespaces/"+tmplNS, "", "")
	s.must("PUT", "/api/v1/namespaces/"+tmplNS+"/finalize", "application/json",
		fmt.Sprintf(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":%q},"spec":{"finalizers":[]}}`, tmplNS))
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func nameOf(body string) string {
	i := strings.Index(body, `"metadata":{"name":"`)
	rest := body[i+len(`"metadata":{"name":"`):]
	return rest[:strings.IndexByte(rest, '"')]
}

// ---- stamping --------------------------------------------------------------

type stamp struct {
	kind   string // template
	res    string // resource as etcd names it: pods, bench.owners.test/widgets
	key    string // etcd key under /registry/
	ns     string
	name   string
	uid    string
	app    string
	hash   string
	owners [2]string // names
	oUIDs  [2]string
}

// newUID is random for real (crypto/rand): two runs against one cluster
// must never make the same UID (the garbage collector keys everything by it).
func (s *seeder) newUID() string {
	b := make([]byte, 16)
	if _, err := crand.Read(b); err != nil {
		log.Fatal(err)
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

func render(t template, o *stamp) []byte {
	placeholder := map[string]string{
		"deployment": "zzdeploy", "replicaset": "zzrs", "pod": "zzpod", "widget": "zzwidget",
		"configmap": "zzcm", "configmap2": "zzcm2", "secret": "zzsecret", "held": "zzheld", "chain": "zzchain",
		"appconfig": "zzapp", "appsecret": "zzapp",
	}[o.kind]
	pairs := []string{}
	if t.uid != "" {
		pairs = append(pairs, t.uid, o.uid)
	}
	r := strings.NewReplacer(append(pairs,
		`"`+placeholder+`"`, `"`+o.name+`"`,
		`"namespace":"`+tmplNS+`"`, `"namespace":"`+o.ns+`"`,
		`"zzapp"`, `"`+o.app+`"`,
		`"zzhash"`, `"`+o.hash+`"`,
		`"zzowner1"`, `"`+o.owners[0]+`"`,
		`"zzowner2"`, `"`+o.owners[1]+`"`,
		ownerUID1, o.oUIDs[0],
		ownerUID2, o.oUIDs[1],
	)...)
	return []byte(r.Replace(t.json))
}

// put writes the stamped objects into etcd, 100 per transaction.
func (s *seeder) put(tmpl map[string]template, objs []*stamp) {
	kvs := make([]etcdKV, 0, len(objs))
	for _, o := range objs {
		kvs = append(kvs, etcdKV{"/registry/" + o.key, render(tmpl[o.kind], o)})
	}
	s.putKVs(kvs)
}

// An object as etcd holds it: its key, and its JSON (the apiserver reads
// JSON from etcd as well as its own protobuf).
type etcdKV struct {
	key   string
	value []byte
}

// putKVs writes the objects into etcd, a hundred per transaction, eight
// transactions in flight.
func (s *seeder) putKVs(kvs []etcdKV) {
	const batch = 100
	var wg sync.WaitGroup
	sem := make(chan struct{}, 8)
	for i := 0; i < len(kvs); i += batch {
		end := i + batch
		if end > len(kvs) {
			end = len(kvs)
		}
		wg.Add(1)
		sem <- struct{}{}
		go func(part []etcdKV) {
			defer wg.Done()
			defer func() { <-sem }()
			type put struct {
				Key   string `json:"key"`
				Value string `json:"value"`
			}
			type op struct {
				RequestPut put `json:"requestPut"`
			}
			ops := make([]op, 0, len(part))
			for _, kv := range part {
				ops = append(ops, op{put{
					base64.StdEncoding.EncodeToString([]byte(kv.key)),
					base64.StdEncoding.EncodeToString(kv.value),
				}})
			}
			body, _ := json.Marshal(map[string]any{"success": ops})
			resp, err := s.etcdc.Post(s.etcd+"/v3/kv/txn", "application/json", bytes.NewReader(body))
			if err != nil {
				log.Fatalf("etcd txn: %v", err)
			}
			data, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 || !bytes.Contains(data, []byte(`"succeeded":true`)) {
				log.Fatalf("etcd txn: %s: %s", resp.Status, data)
			}
			s.written.Add(int64(len(part)))
		}(kvs[i:end])
	}
	wg.Wait()
}

// ---- shapes ----------------------------------------------------------------

type manifest struct {
	Objects       int64          `json:"objects"`
	Namespaces    []string       `json:"namespaces"`
	TreeNS        string         `json:"tree_namespace"`
	TreeNSObjects int            `json:"tree_namespace_objects"`
	TreeRoot      string         `json:"tree_root"`
	TreeObjects   int            `json:"tree_objects"`
	CRDs          int            `json:"crds"`
	InDeletion    int            `json:"in_deletion"`
	MultiOwner    int            `json:"multi_owner"`
	Seconds       float64        `json:"seconds"`
	ObjectsPerS   float64        `json:"objects_per_second"`
	Counts        map[string]int `json:"counts"`
}

func crdBody(plural, kind, grp string, namespaced bool) string {
	scope := "Cluster"
	if namespaced {
		scope = "Namespaced"
	}
	return fmt.Sprintf(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"%s.%s"},`+
		`"spec":{"group":%q,"scope":%q,"names":{"plural":%q,"singular":%q,"kind":%q,"listKind":"%sList"},`+
		`"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}]}}`,
		plural, grp, grp, scope, plural, strings.ToLower(kind), kind, kind)
}

func (s *seeder) crds(n int, m *manifest) {
	bodies := []string{crdBody("widgets", "Widget", group, true)}
	for i := 0; i < n; i++ {
		grp := fmt.Sprintf("g%02d.%s", i/10, group)
		kind := fmt.Sprintf("Thing%03d", i)
		bodies = append(bodies, crdBody(strings.ToLower(kind)+"s", kind, grp, i%5 != 0))
	}
	s.create("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", bodies)
	m.CRDs = len(bodies)
	s.waitServed("/apis/" + group + "/v1/widgets?limit=1")
	if n > 0 {
		s.waitServed(fmt.Sprintf("/apis/g%02d.%s/v1/thing%03ds?limit=1", (n-1)/10, group, n-1))
	}
}

func (s *seeder) namespaces(names []string) {
	bodies := []string{}
	for _, ns := range names {
		bodies = append(bodies, fmt.Sprintf(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":%q,"labels":{"owners.test/bench":"true"}}}`, ns))
	}
	s.create("/api/v1/namespaces", bodies)
}

const letters = "bcdfghjklmnpqrstvwxz2456789"

func (s *seeder) hash(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = letters[s.rnd.Intn(len(letters))]
	}
	return string(b)
}

// podSuffix is unique per i (five base-27 digits of a permutation of i).
func podSuffix(i int) string {
	v := (i*7919 + 104729) % (27 * 27 * 27 * 27 * 27)
	b := make([]byte, 5)
	for k := range b {
		b[k] = letters[v%27]
		v /= 27
	}
	return string(b)
}

type builder struct {
	s    *seeder
	objs []*stamp
}

func (b *builder) add(kind, resource, ns, name string) *stamp {
	o := &stamp{kind: kind, res: resource, key: resource + "/" + ns + "/" + name, ns: ns, name: name, uid: b.s.newUID()}
	b.objs = append(b.objs, o)
	return o
}

func (o *stamp) ownedBy(i int, owner *stamp) *stamp {
	o.owners[i], o.oUIDs[i] = owner.name, owner.uid
	return o
}

// deployment adds a Deployment, its ReplicaSets (the last one current) and
// the current one's pods; returns how many objects.
func (b *builder) deployment(ns, name string, sets, pods int) int {
	d := b.add("deployment", "deployments", ns, name)
	d.app = name
	var rs []*stamp
	for i := 0; i < sets; i++ {
		h := b.s.hash(10)
		r := b.add("replicaset", "replicasets", ns, name+"-"+h).ownedBy(0, d)
		r.app, r.hash = name, h
		rs = append(rs, r)
	}
	for p := 0; p < pods; p++ {
		r := rs[len(rs)-1]
		if sets > 2 {
			r = rs[p%sets] // the tree shape: pods spread over every set
		}
		o := b.add("pod", "pods", ns, r.name+"-"+podSuffix(p)).ownedBy(0, r)
		o.app, o.hash = name, r.hash
	}
	return 1 + sets + pods
}

// plan says how a namespace of about budget objects is made up.
type plan struct{ widgets, held, deploys, extraPods int }

func planFor(budget int) plan {
	p := plan{widgets: budget / 20, held: budget / 100}
	if p.widgets < 1 {
		p.widgets = 1
	}
	if p.held < 1 {
		p.held = 1
	}
	rest := budget - 4*p.widgets - p.held
	p.deploys = rest / (3 + podsPerRS)
	if p.deploys < 1 {
		p.deploys = 1
	}
	p.extraPods = rest - p.deploys*(3+podsPerRS)
	if p.extraPods < 0 {
		p.extraPods = 0
	}
	return p
}

func (s *seeder) cluster(total, nCRDs int, m *manifest) {
	nns := total / 1000
	if nns < 4 {
		nns = 4
	}
	for i := 0; i < nns; i++ {
		m.Namespaces = append(m.Namespaces, fmt.Sprintf("bench-%d", i))
	}
	// One namespace holds a tenth of everything when that is more than an
	// even share (a big application namespace, like kubectl-tree's issue
	// #16 with 9,000 objects); the others share the rest evenly. Each
	// namespace is an object too.
	big := total / nns
	if total/10 > big {
		big = total / 10
	}
	budgets := make([]int, nns)
	budgets[0] = big - 1
	for i := 1; i < nns; i++ {
		budgets[i] = (total-big)/(nns-1) - 1
	}

	s.crds(nCRDs, m)
	s.namespaces(m.Namespaces)
	tmpl := s.templates()
	b := &builder{s: s}
	for n, ns := range m.Namespaces {
		p := planFor(budgets[n])
		for d := 0; d < p.deploys; d++ {
			pods := podsPerRS
			if d == p.deploys-1 {
				pods += p.extraPods
			}
			b.deployment(ns, fmt.Sprintf("web-%d", d), 2, pods)
			if podSpec == usesPodSpec {
				name := fmt.Sprintf("web-%d", d)
				b.add("appconfig", "configmaps", ns, name).app = name
				b.add("appsecret", "secrets", ns, name).app = name
			}
		}
		var ws []*stamp
		for w := 0; w < p.widgets; w++ {
			ws = append(ws, b.add("widget", group+"/widgets", ns, fmt.Sprintf("widget-%d", w)))
		}
		for i, w := range ws {
			b.add("configmap", "configmaps", ns, w.name+"-config").ownedBy(0, w)
			if len(ws) > 1 {
				b.add("configmap2", "configmaps", ns, w.name+"-shared").ownedBy(0, w).ownedBy(1, ws[(i+1)%len(ws)])
				m.MultiOwner++
			} else {
				b.add("configmap", "configmaps", ns, w.name+"-shared").ownedBy(0, w)
			}
			b.add("secret", "secrets", ns, w.name+"-token").ownedBy(0, w)
		}
		for h := 0; h < p.held; h++ {
			b.add("held", "configmaps", ns, fmt.Sprintf("held-%d", h)).ownedBy(0, ws[h%len(ws)])
			m.InDeletion++
		}
		if n == 0 {
			m.TreeNS = ns
			m.TreeNSObjects = budgets[0] + 1
			m.TreeRoot = "deployment/web-0"
			m.TreeObjects = 3 + podsPerRS
			if p.deploys == 1 {
				m.TreeObjects += p.extraPods
			}
		}
	}
	s.put(tmpl, b.objs)
	m.Counts = count(b.objs)
}

// createViaAPI makes the stamped objects with POSTs instead, owners first
// (the server assigns UIDs: each level waits for the one above). Slower,
// but the objects are exactly what a controller would have made; the real
// garbage collector's benchmark uses it (its graph is built from watch
// events, and direct writes to etcd in transactions of a hundred left it
// with dependents it never collected).
func (s *seeder) createViaAPI(tmpl map[string]template, objs []*stamp) {
	uids := map[string]string{} // stamped UID -> the server's
	levels := map[string]int{"deployment": 0, "widget": 0, "replicaset": 1, "configmap": 1, "configmap2": 1,
		"secret": 1, "held": 1, "pod": 2}
	for level := 0; level <= 2; level++ {
		var wg sync.WaitGroup
		var mu sync.Mutex
		sem := make(chan struct{}, s.workers)
		for _, o := range objs {
			if levels[o.kind] != level {
				continue
			}
			mu.Lock() // the level's POSTs are writing uids meanwhile
			for k := range o.oUIDs {
				if u, ok := uids[o.oUIDs[k]]; ok {
					o.oUIDs[k] = u
				}
			}
			mu.Unlock()
			t := tmpl[o.kind]
			path := strings.Replace(t.path, "/namespaces/"+tmplNS+"/", "/namespaces/"+o.ns+"/", 1)
			body := string(render(template{json: t.body}, o))
			wg.Add(1)
			sem <- struct{}{}
			go func(o *stamp, path, body string) {
				defer wg.Done()
				defer func() { <-sem }()
				data := s.must("POST", path, "application/json", body)
				var m struct {
					Metadata struct{ UID string } `json:"metadata"`
				}
				json.Unmarshal(data, &m)
				mu.Lock()
				uids[o.uid] = m.Metadata.UID
				mu.Unlock()
				s.written.Add(1)
			}(o, path, body)
		}
		wg.Wait()
	}
}

func (s *seeder) tree(total int, ns string, m *manifest) {
	m.Namespaces = []string{ns}
	s.namespaces(m.Namespaces)
	tmpl := s.templates("deployment", "replicaset", "pod")
	sets := total / 1000
	if sets < 1 {
		sets = 1
	}
	b := &builder{s: s}
	b.deployment(ns, "big", sets, total-1-sets)
	if s.viaAPI {
		s.createViaAPI(tmpl, b.objs)
	} else {
		s.put(tmpl, b.objs)
	}
	m.TreeNS = ns
	m.TreeNSObjects = len(b.objs) + 1
	m.TreeRoot = "deployment/big"
	m.TreeObjects = len(b.objs)
	m.Counts = count(b.objs)
}

func (s *seeder) wide(total int, ns string, m *manifest) {
	s.crds(0, m)
	m.Namespaces = []string{ns}
	s.namespaces(m.Namespaces)
	tmpl := s.templates("widget", "configmap")
	b := &builder{s: s}
	w := b.add("widget", group+"/widgets", ns, "wide")
	for i := 0; i < total; i++ {
		b.add("configmap", "configmaps", ns, fmt.Sprintf("wide-%05d", i)).ownedBy(0, w)
	}
	s.put(tmpl, b.objs)
	m.TreeNS = ns
	m.TreeNSObjects = len(b.objs) + 1
	m.TreeRoot = "widgets." + group + "/wide"
	m.TreeObjects = len(b.objs)
	m.Counts = count(b.objs)
}

func (s *seeder) deep(depth, nCRDs int, ns string, m *manifest) {
	s.crds(nCRDs, m)
	m.Namespaces = []string{ns}
	s.namespaces(m.Namespaces)
	tmpl := s.templates("widget", "configmap", "chain")
	b := &builder{s: s}
	prev := b.add("widget", group+"/widgets", ns, "deep")
	for i := 1; i < depth; i++ {
		kind := "chain"
		if i == 1 {
			kind = "configmap" // owned by the Widget
		}
		prev = b.add(kind, "configmaps", ns, fmt.Sprintf("deep-%03d", i)).ownedBy(0, prev)
	}
	s.put(tmpl, b.objs)
	m.TreeNS = ns
	m.TreeNSObjects = len(b.objs) + 1
	m.TreeRoot = "widgets." + group + "/deep"
	m.TreeObjects = len(b.objs)
	m.Counts = count(b.objs)
}

func count(objs []*stamp) map[string]int {
	c := map[string]int{}
	for _, o := range objs {
		c[o.res]++
	}
	return c
}

// settle waits until the apiserver serves every written object (its watch
// cache follows etcd a moment behind).
func (s *seeder) settle(counts map[string]int) {
	paths := map[string]string{
		"deployments": "/apis/apps/v1/deployments", "replicasets": "/apis/apps/v1/replicasets",
		"pods": "/api/v1/pods", "configmaps": "/api/v1/configmaps", "secrets": "/api/v1/secrets",
		group + "/widgets": "/apis/" + group + "/v1/widgets",
	}
	deadline := time.Now().Add(120 * time.Second)
	for res, want := range counts {
		for {
			data := s.must("GET", paths[res]+"?limit=1", "", "")
			var l struct {
				Metadata struct{ RemainingItemCount *int } `json:"metadata"`
				Items    []json.RawMessage                 `json:"items"`
			}
			json.Unmarshal(data, &l)
			got := len(l.Items)
			if l.Metadata.RemainingItemCount != nil {
				got += *l.Metadata.RemainingItemCount
			}
			if got >= want {
				break
			}
			if time.Now().After(deadline) {
				log.Fatalf("the apiserver serves %d %s, %d were written", got, res, want)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
}

func main() {
	envFile := flag.String("env", "", "the cluster's env file (tests/cluster/up --dir DIR writes DIR/env)")
	objects := flag.Int("objects", 0, "cluster shape: about this many objects")
	crds := flag.Int("crds", 200, "cluster shape: filler CRDs besides widgets.bench.owners.test")
	tree := flag.Int("tree", 0, "tree shape: one Deployment tree of this many objects")
	ns := flag.String("ns", "cascade", "tree shape: its namespace")
	workers := flag.Int("workers", 32, "API requests in flight (CRDs, namespaces)")
	out := flag.String("manifest", "", "write what was made here (JSON)")
	verbose := flag.Bool("v", false, "log each step's time")
	wide := flag.Int("wide", 0, "wide shape: one Widget owning this many ConfigMaps")
	deep := flag.Int("deep", 0, "deep shape: an ownership chain this many objects long (a Widget, then ConfigMaps)")
	viaAPI := flag.Bool("api", false, "tree shape: create the objects through the API (slower; what the real GC's benchmark uses)")
	seed := flag.Int64("seed", 1, "random seed for names (UIDs are always fresh)")
	load := flag.String("load", "", "the objects of this file (snapgen -ndjson: one JSON object a line) as they are: their UIDs, owners and times")
	uses := flag.Bool("uses", false, "cluster shape: every app's Pods and templates mount a ConfigMap and a Secret of its name, and read the ConfigMap into their environment")
	flag.Parse()
	if *uses {
		podSpec = usesPodSpec
	}
	shapes := 0
	for _, n := range []int{*objects, *tree, *wide, *deep} {
		if n > 0 {
			shapes++
		}
	}
	if *load != "" {
		shapes++
	}
	if *envFile == "" || shapes != 1 {
		fmt.Fprintln(os.Stderr, "usage: seed -env DIR/env (-objects N [-crds N] | -tree N [-ns NS] | -wide N [-ns NS] | -deep N [-ns NS] [-crds N] | -load FILE) [-manifest FILE]")
		os.Exit(2)
	}
	env, err := tools.LoadEnv(*envFile)
	if err != nil {
		log.Fatal(err)
	}
	c, err := tools.Connect(*envFile, 2, false)
	if err != nil {
		log.Fatal(err)
	}
	s := &seeder{c: c, workers: *workers, verbose: *verbose, rnd: rand.New(rand.NewSource(*seed)), viaAPI: *viaAPI,
		etcd:  "http://127.0.0.1:" + env["ETCD_PORT"],
		etcdc: &http.Client{Timeout: 60 * time.Second}}
	m := &manifest{}
	start := time.Now()
	if *load != "" {
		s.load(*load, m)
	} else if *tree > 0 {
		s.tree(*tree, *ns, m)
	} else if *wide > 0 {
		s.wide(*wide, *ns, m)
	} else if *deep > 0 {
		s.deep(*deep, *crds, *ns, m)
	} else {
		s.cluster(*objects, *crds, m)
	}
	s.settle(m.Counts)
	m.Seconds = time.Since(start).Seconds()
	m.Objects = s.written.Load() + int64(len(m.Namespaces)) + int64(m.CRDs)
	m.ObjectsPerS = float64(m.Objects) / m.Seconds
	log.Printf("seed: %d objects in %.1fs (%.0f/s; %d stamped from templates)", m.Objects, m.Seconds, m.ObjectsPerS, s.written.Load())
	if *out != "" {
		data, _ := json.MarshalIndent(m, "", "  ")
		if err := os.WriteFile(*out, append(data, '\n'), 0o644); err != nil {
			log.Fatal(err)
		}
	}
}
