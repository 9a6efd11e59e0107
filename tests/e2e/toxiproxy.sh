# tests/e2e/toxiproxy.sh — Shopify's toxiproxy between `owners` and the
# local API server, for tests/e2e/faults.t. Source it after lib.sh.
#
# toxiproxy is a TCP proxy with "toxics" (latency, bandwidth, resets,
# black holes, ...) added and removed through an HTTP API while connections
# are open. TLS passes through it untouched: the kubeconfig copy points at
# https://127.0.0.1:PROXYPORT, and 127.0.0.1 is in the apiserver
# certificate's SANs, so verification works as without the proxy.
#
# The server is built once with `go install` at a pinned release into
#   ${OWNERS_TESTENV_CACHE:-$HOME/.cache/owners-testenv}/toxiproxy-$TOXIPROXY_VERSION/toxiproxy-server
# and reused from there (nothing is written into the repository).
#
#   toxiproxy_start UPSTREAM-PORT   start it, with one proxy "api"; sets
#                                   TP_API (its HTTP API) and TP_PORT
#   tp METHOD PATH [JSON]           call its API (fails on an HTTP error)
#   toxic NAME TYPE STREAM ATTRS-JSON [TOXICITY]   add a toxic
#   untoxic NAME                    remove it
#   proxy_enabled true|false        the proxy accepts connections, or not
#   proxy_kubeconfig IN OUT         a copy of IN that goes through the proxy

# The latest release on the Go module proxy when this was written (its
# /@v/list shows only up to v2.5.0; /@v/v2.12.0.info answers, 2025-03-18).
TOXIPROXY_VERSION=v2.12.0

toxiproxy_bin() {
  local dir=${OWNERS_TESTENV_CACHE:-$HOME/.cache/owners-testenv}/toxiproxy-$TOXIPROXY_VERSION
  local bin=$dir/toxiproxy-server
  if [[ ! -x $bin ]]; then
    command -v go >/dev/null || { echo "go is not installed; it is needed once to build $bin" >&2; return 1; }
    mkdir -p "$dir" || return 1
    (
      flock 8
      [[ -x $bin ]] && exit 0
      tmp=$(mktemp -d "$dir/.build.XXXXXX") || exit 1
      trap 'rm -rf "$tmp"' EXIT
      echo "# building toxiproxy $TOXIPROXY_VERSION into $dir" >&2
      GOBIN=$tmp GOFLAGS=-buildvcs=false go install \
        "github.com/Shopify/toxiproxy/v2/cmd/server@$TOXIPROXY_VERSION" >&2 &&
        mv "$tmp/server" "$bin"
    ) 8>"$dir/.lock" || return 1
  fi
  echo "$bin"
}

_tp_pid=
toxiproxy_stop() {
  if [[ -n $_tp_pid ]]; then
    kill "$_tp_pid" 2>/dev/null
    wait "$_tp_pid" 2>/dev/null
    _tp_pid=
  fi
}

toxiproxy_start() {
  local upstream=$1 bin api_port i
  bin=$(toxiproxy_bin) || return 1
  read -r api_port TP_PORT < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*(x.getsockname()[1] for x in s))')
  TP_API=http://127.0.0.1:$api_port
  "$bin" -host 127.0.0.1 -port "$api_port" >"${TP_LOG:-/dev/null}" 2>&1 &
  _tp_pid=$!
  # Up to a minute on a loaded machine; a server that died is said at once
  # (a port taken in the meantime, a broken build), not after the minute.
  for (( i = 0; ; i++ )); do
    curl -sf "$TP_API/version" >/dev/null 2>&1 && break
    if ! kill -0 "$_tp_pid" 2>/dev/null; then
      echo "toxiproxy exited during start-up (log: ${TP_LOG:-none})" >&2; _tp_pid=; return 1
    fi
    (( i < 600 )) || { echo "toxiproxy did not answer on $TP_API within 60s" >&2; toxiproxy_stop; return 1; }
    sleep 0.1
  done
  tp POST /proxies "{\"name\": \"api\", \"listen\": \"127.0.0.1:$TP_PORT\",
    \"upstream\": \"127.0.0.1:$upstream\", \"enabled\": true}" >/dev/null
}

tp() { # tp METHOD PATH [JSON]
  local args=(-sS -f --max-time 5 -X "$1" "$TP_API$2")
  [[ -n ${3-} ]] && args+=(-H 'Content-Type: application/json' -d "$3")
  curl "${args[@]}"
}

toxic() { # toxic NAME TYPE STREAM ATTRIBUTES [TOXICITY]
  tp POST /proxies/api/toxics "{\"name\": \"$1\", \"type\": \"$2\", \"stream\": \"$3\",
    \"toxicity\": ${5:-1}, \"attributes\": $4}" >/dev/null
}
untoxic() { tp DELETE "/proxies/api/toxics/$1" >/dev/null; }
untoxic_all() {
  local t
  for t in $(tp GET /proxies/api/toxics | python3 -c 'import json,sys; print(" ".join(t["name"] for t in json.load(sys.stdin)))'); do
    untoxic "$t"
  done
}
proxy_enabled() { tp POST /proxies/api "{\"enabled\": $1}" >/dev/null; }

proxy_kubeconfig() { # proxy_kubeconfig IN OUT
  sed -E "s#(server: https://127\\.0\\.0\\.1:)[0-9]+#\\1$TP_PORT#" "$1" >"$2"
}
