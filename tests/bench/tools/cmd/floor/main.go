// floor downloads a set of list requests as fast as a client can, doing no
// parsing and keeping nothing: the physical floor a scanner is compared to.
// Every path (one per line in -paths) is a list's first page; its later
// pages follow the continue token, which is read from the first bytes of
// each page (the list's metadata comes before its items). All lists run
// at once over HTTP/2, as many in flight as there are lists.
//
//	floor -env DIR/env -paths FILE [-protobuf | -accept A] [-gzip] [-conns N]
//
// With -protobuf the lists are asked for in Kubernetes' protobuf encoding
// (what owners asks for first) and the continue token is read from the
// ListMeta inside the runtime.Unknown envelope.
//
// Prints one JSON line: requests, bytes, seconds.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	tools "owners.test/bench/tools"
)

const metadataAccept = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json"
const protobufAccept = "application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1," + metadataAccept

// Whole objects in protobuf: what owners asks for to read READY/STATUS of
// the built-in kinds that have one.
const wholeAccept = "application/vnd.kubernetes.protobuf, application/json"

var marker = []byte(`"continue":"`)

// field returns the bytes of the first length-delimited field num of a
// protobuf message (nil when absent or malformed): the wire format read by
// hand, just far enough to find a token.
func field(msg []byte, num uint64) []byte {
	varint := func() (uint64, bool) {
		var v uint64
		for shift := uint(0); shift < 64; shift += 7 {
			if len(msg) == 0 {
				return 0, false
			}
			b := msg[0]
			msg = msg[1:]
			v |= uint64(b&0x7f) << shift
			if b < 0x80 {
				return v, true
			}
		}
		return 0, false
	}
	for len(msg) > 0 {
		key, ok := varint()
		if !ok {
			return nil
		}
		switch key & 7 {
		case 0:
			if _, ok := varint(); !ok {
				return nil
			}
		case 1:
			if len(msg) < 8 {
				return nil
			}
			msg = msg[8:]
		case 2:
			n, ok := varint()
			if !ok || n > uint64(len(msg)) {
				return nil
			}
			if key>>3 == num {
				return msg[:n]
			}
			msg = msg[n:]
		case 5:
			if len(msg) < 4 {
				return nil
			}
			msg = msg[4:]
		default:
			return nil
		}
	}
	return nil
}

// protobufPage GETs one page in protobuf and returns the continue token:
// "k8s\0", Unknown{raw=2}, PartialObjectMetadataList{metadata=1},
// ListMeta{continue=3}.
func protobufPage(c *tools.Cluster, path, accept string, nbytes *atomic.Int64) (string, error) {
	req, err := c.Request("GET", path, accept, "", nil)
	if err != nil {
		return "", err
	}
	resp, err := c.Client.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", err
	}
	nbytes.Add(int64(len(body)))
	if resp.StatusCode != 200 {
		return "", fmt.Errorf("GET %s: %s", path, resp.Status)
	}
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/vnd.kubernetes.protobuf") ||
		len(body) < 4 || string(body[:4]) != "k8s\x00" {
		return "", fmt.Errorf("GET %s: not answered in protobuf (%s)", path, resp.Header.Get("Content-Type"))
	}
	return string(field(field(field(body[4:], 2), 1), 3)), nil
}

// page GETs one page, discards the body and returns the continue token.
func page(c *tools.Cluster, path, accept string, nbytes *atomic.Int64) (string, error) {
	req, err := c.Request("GET", path, accept, "", nil)
	if err != nil {
		return "", err
	}
	resp, err := c.Client.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	head := make([]byte, 4096)
	n, err := io.ReadFull(resp.Body, head)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return "", err
	}
	head = head[:n]
	rest, err := io.Copy(io.Discard, resp.Body)
	if err != nil {
		return "", err
	}
	nbytes.Add(int64(n) + rest)
	if resp.StatusCode != 200 {
		return "", fmt.Errorf("GET %s: %s", path, resp.Status)
	}
	// Only the list's metadata, before "items", can hold the token.
	if i := bytes.Index(head, []byte(`"items":`)); i >= 0 {
		head = head[:i]
	}
	i := bytes.Index(head, marker)
	if i < 0 {
		return "", nil
	}
	tok := head[i+len(marker):]
	j := bytes.IndexByte(tok, '"')
	if j < 0 {
		return "", fmt.Errorf("GET %s: continue token past the first 4 KiB", path)
	}
	return string(tok[:j]), nil
}

func main() {
	envFile := flag.String("env", "", "the cluster's env file")
	paths := flag.String("paths", "", "file with one list path per line (first pages)")
	fullPaths := flag.String("full-paths", "", "file of list paths asked for as whole objects in protobuf "+
		"(owners snapshot's status lists), fetched at the same time as -paths")
	accept := flag.String("accept", metadataAccept, "Accept header")
	protobuf := flag.Bool("protobuf", false, "ask for protobuf lists (JSON otherwise)")
	gzip := flag.Bool("gzip", false, "ask for gzip (Accept-Encoding), as Go and curl clients do by default")
	conns := flag.Int("conns", 1, "HTTP/2 connections")
	grow := flag.Bool("grow", true, "later pages of a limit=500 list grow as owners' do without --chunk-size "+
		"(2000, then 5000), so the floor makes the same requests")
	flag.Parse()
	if *envFile == "" || *paths == "" {
		fmt.Fprintln(os.Stderr, "usage: floor -env DIR/env -paths FILE [-protobuf | -accept A] [-gzip] [-conns N]")
		os.Exit(2)
	}
	data, err := os.ReadFile(*paths)
	if err != nil {
		log.Fatal(err)
	}
	c, err := tools.Connect(*envFile, *conns, *gzip)
	if err != nil {
		log.Fatal(err)
	}
	type listPath struct {
		path  string
		whole bool
	}
	var list []listPath
	for _, l := range strings.Split(string(data), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			list = append(list, listPath{l, false})
		}
	}
	if *fullPaths != "" {
		more, err := os.ReadFile(*fullPaths)
		if err != nil {
			log.Fatal(err)
		}
		for _, l := range strings.Split(string(more), "\n") {
			if l = strings.TrimSpace(l); l != "" {
				list = append(list, listPath{l, true})
			}
		}
	}
	var nbytes, nreq atomic.Int64
	var wg sync.WaitGroup
	var once sync.Once
	var firstErr error
	start := time.Now()
	for _, lp := range list {
		wg.Add(1)
		go func(p string, whole bool) {
			defer wg.Done()
			next := p
			limit := 500
			for {
				var tok string
				var err error
				if whole {
					tok, err = protobufPage(c, next, wholeAccept, &nbytes)
				} else if *protobuf {
					tok, err = protobufPage(c, next, protobufAccept, &nbytes)
				} else {
					tok, err = page(c, next, *accept, &nbytes)
				}
				nreq.Add(1)
				if err != nil {
					once.Do(func() { firstErr = err })
					return
				}
				if tok == "" {
					return
				}
				base := p
				if *grow && strings.Contains(p, "limit=500") {
					if limit *= 4; limit > 5000 {
						limit = 5000
					}
					base = strings.Replace(p, "limit=500", fmt.Sprintf("limit=%d", limit), 1)
				}
				next = base + "&continue=" + url.QueryEscape(tok)
			}
		}(lp.path, lp.whole)
	}
	wg.Wait()
	if firstErr != nil {
		log.Fatal(firstErr)
	}
	out, _ := json.Marshal(map[string]any{
		"requests": nreq.Load(), "bytes": nbytes.Load(), "seconds": time.Since(start).Seconds(),
	})
	fmt.Println(string(out))
}
