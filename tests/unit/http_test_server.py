#!/usr/bin/env python3
"""A test fixture for tests/unit/test_http.c: a tiny HTTP(S) server that
exercises the HTTP client's own transport mechanics (retries, Retry-After,
timeouts, streaming, concurrency, TLS). It is not an API server and knows
nothing about Kubernetes beyond the shape of a Status error body.

Started by the test as `http_test_server.py [--cert C --key K [--client-ca CA]]`;
it listens on a free port of 127.0.0.1, prints that port on its first line
of stdout, and serves until killed.

Endpoints (query parameters in brackets):
  /echo                 200, JSON: method, path, headers (lowercased names,
                        lists), body, client certificate CN
  /status/CODE [key, times, retry_after]
                        CODE with a Status body for the first `times` hits of
                        `key` (all of them without `times`), then 200
  /slow [ms, key, times]
                        sleeps (for the first `times` hits of key only, when
                        given), then 200; tracks concurrency per key
  /hits [key]           {"hits": N, "peak": P} for key
  /stream [chunks, delay_ms, key, times]
                        200, chunked, one line per chunk, flushed with delays
                        (for the first `times` hits of key only, when given)
  /reset [key, times]   the first `times` hits close the connection with a
                        TCP reset instead of answering, then 200
  /big [status, size]   `size` bytes of "x" with `status`
  /auth [token, key]    200 when "Authorization: Bearer TOKEN", else 401
"""
import argparse
import json
import os
import socket
import ssl
import struct
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

LOCK = threading.Lock()
HITS = {}
ACTIVE = {}
PEAK = {}


def hit(key):
    with LOCK:
        HITS[key] = HITS.get(key, 0) + 1
        return HITS[key]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "owners-test"

    def log_message(self, *args):
        pass

    def setup(self):
        # The handshake happens here, in the connection's thread, so one
        # slow or failing client cannot stall the accept loop.
        if isinstance(self.request, ssl.SSLSocket):
            self.request.do_handshake()
        super().setup()

    def send_body(self, status, body, ctype="application/json", headers=()):
        if isinstance(body, str):
            body = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def status_body(self, code, message):
        return json.dumps({"kind": "Status", "apiVersion": "v1", "status": "Failure",
                           "message": message, "code": code})

    def handle_any(self):
        u = urlsplit(self.path)
        q = {k: v[-1] for k, v in parse_qs(u.query).items()}
        n = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(n) if n else b""
        key = q.get("key", u.path)
        parts = u.path.strip("/").split("/")

        if parts[0] == "echo":
            headers = {}
            for k, v in self.headers.items():
                headers.setdefault(k.lower(), []).append(v)
            cn = None
            if isinstance(self.request, ssl.SSLSocket):
                peer = self.request.getpeercert()
                if peer:
                    for rdn in peer.get("subject", ()):
                        for k, v in rdn:
                            if k == "commonName":
                                cn = v
            self.send_body(200, json.dumps({"method": self.command, "path": self.path,
                                            "headers": headers,
                                            "body": body.decode("utf-8", "replace"),
                                            "client_cn": cn}))
        elif parts[0] == "status":
            code = int(parts[1])
            n = hit(key)
            times = int(q.get("times", "-1"))
            if times < 0 or n <= times:
                hdrs = [("Retry-After", q["retry_after"])] if "retry_after" in q else []
                self.send_body(code, self.status_body(code, "injected %d" % code), headers=hdrs)
            else:
                self.send_body(200, json.dumps({"ok": True, "hits": n}))
        elif parts[0] == "slow":
            n = hit(key)
            with LOCK:
                ACTIVE[key] = ACTIVE.get(key, 0) + 1
                PEAK[key] = max(PEAK.get(key, 0), ACTIVE[key])
            try:
                if "times" not in q or n <= int(q["times"]):
                    time.sleep(int(q.get("ms", "100")) / 1000.0)
            finally:
                with LOCK:
                    ACTIVE[key] -= 1
            try:
                self.send_body(200, json.dumps({"ok": True}))
            except OSError:
                pass  # the client gave up (timeout test)
        elif parts[0] == "hits":
            with LOCK:
                self.send_body(200, json.dumps({"hits": HITS.get(key, 0),
                                                "peak": PEAK.get(key, 0)}))
        elif parts[0] == "stream":
            chunks = int(q.get("chunks", "5"))
            delay = int(q.get("delay_ms", "20")) / 1000.0
            if "times" in q and hit(key) > int(q["times"]):
                delay = 0
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for i in range(chunks):
                data = ("chunk-%d\n" % i).encode()
                self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
                self.wfile.flush()
                time.sleep(delay)
            self.wfile.write(b"0\r\n\r\n")
        elif parts[0] == "reset":
            n = hit(key)
            if n <= int(q.get("times", "1")):
                # SO_LINGER 0: close() sends RST, as a crashed peer would.
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                           struct.pack("ii", 1, 0))
                self.close_connection = True
                # close() would wait for the makefile() objects; closing
                # the descriptor itself resets the connection right now.
                os.close(self.connection.detach())
                return
            self.send_body(200, json.dumps({"ok": True, "hits": n}))
        elif parts[0] == "big":
            size = int(q.get("size", "1024"))
            self.send_body(int(q.get("status", "200")), b"x" * size, ctype="text/plain")
        elif parts[0] == "auth":
            hit(key)
            if self.headers.get("Authorization") == "Bearer " + q.get("token", "good"):
                self.send_body(200, json.dumps({"ok": True}))
            else:
                self.send_body(401, self.status_body(401, "Unauthorized"))
        else:
            self.send_body(404, self.status_body(404, "no such test endpoint"))

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = handle_any


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256

    def handle_error(self, request, client_address):
        pass  # failed TLS handshakes and resets are what some tests want


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cert")
    ap.add_argument("--key")
    ap.add_argument("--client-ca")
    a = ap.parse_args()
    srv = Server(("127.0.0.1", 0), Handler)
    if a.cert:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(a.cert, a.key)
        if a.client_ca:
            ctx.verify_mode = ssl.CERT_REQUIRED
            ctx.load_verify_locations(a.client_ca)
        srv.socket = ctx.wrap_socket(srv.socket, server_side=True,
                                     do_handshake_on_connect=False)
    print(srv.server_address[1], flush=True)
    try:
        srv.serve_forever(poll_interval=0.05)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
