// Package tools holds what the benchmark's Go programs share: a plain HTTP/2
// client for the local test apiserver (TLS verified with the cluster's CA,
// bearer token), configured from the env file tests/cluster/up writes.
// Only the standard library: nothing to download, nothing to pin.
package tools

import (
	"bufio"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
)

// Cluster is what a benchmark program needs to talk to the apiserver.
type Cluster struct {
	Server string
	Token  string
	Client *http.Client
}

// LoadEnv reads DIR/env (shell assignments written by tests/cluster/up).
func LoadEnv(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	env := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		// printf %q quoting: plain words, or $'...' / '...' for odd values.
		if uq, err := strconv.Unquote(v); err == nil {
			v = uq
		} else {
			v = strings.Trim(v, "'")
		}
		env[k] = v
	}
	return env, sc.Err()
}

// Connect builds a client for the cluster described by envFile. gzip
// false: responses are not compressed (no Accept-Encoding is sent).
func Connect(envFile string, conns int, gzip bool) (*Cluster, error) {
	env, err := LoadEnv(envFile)
	if err != nil {
		return nil, err
	}
	ca, err := os.ReadFile(env["CA_FILE"])
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(ca) {
		return nil, fmt.Errorf("no certificate in %s", env["CA_FILE"])
	}
	// TLS_SERVER_NAME (optional): the name the certificate is checked
	// against, when SERVER is an address the certificate does not name
	// (the remote profile reaches the apiserver through a proxy on
	// another address), like a kubeconfig's tls-server-name.
	tr := &http.Transport{
		TLSClientConfig:     &tls.Config{RootCAs: pool, ServerName: env["TLS_SERVER_NAME"]},
		ForceAttemptHTTP2:   true,
		MaxIdleConnsPerHost: conns,
		MaxConnsPerHost:     conns,
		DisableCompression:  !gzip,
		IdleConnTimeout:     30 * time.Second,
	}
	return &Cluster{
		Server: env["SERVER"],
		Token:  env["ADMIN_TOKEN"],
		Client: &http.Client{Transport: tr, Timeout: 120 * time.Second},
	}, nil
}

// Request makes an authenticated request to path on the cluster.
func (c *Cluster) Request(method, path, accept, ctype string, body []byte) (*http.Request, error) {
	var r *http.Request
	var err error
	if body != nil {
		r, err = http.NewRequest(method, c.Server+path, strings.NewReader(string(body)))
	} else {
		r, err = http.NewRequest(method, c.Server+path, nil)
	}
	if err != nil {
		return nil, err
	}
	r.Header.Set("Authorization", "Bearer "+c.Token)
	if accept == "" {
		accept = "application/json"
	}
	r.Header.Set("Accept", accept)
	if ctype != "" {
		r.Header.Set("Content-Type", ctype)
	}
	return r, nil
}
