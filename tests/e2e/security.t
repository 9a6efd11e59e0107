#!/usr/bin/env bash
# Credentials and TLS, against a real control plane:
#  - TLS is verified unless the kubeconfig or a flag says otherwise: no CA,
#    a wrong CA or a wrong server name fail with one line, exit 1, and no
#    token ever reaches a server that failed verification;
#  - every command, at every -v level 0..10, as the token user, the
#    client-certificate user and an exec-plugin user: no token, no private
#    key, no plugin output in anything owners prints;
#  - exec credential plugins: argv passed literally (spaces and shell
#    metacharacters in the path and the arguments), environment set in the
#    child only, output size-limited, exit status and signals checked;
#  - nothing secret is written to disk; the discovery cache is private.
. "$(dirname "$0")/lib.sh"
require openssl:openssl python3:python3

plan 75   # (the same checks run every time: another count means checks lost or doubled)
start_cluster C --gc=stalled
. "$C/env"
. "$(dirname "$0")/fixtures.sh"

# Everything owners may write goes under $C: its TMPDIR and its caches.
export TMPDIR=$C/tmp
mkdir -p "$TMPDIR" "$C/bin"
export XDG_CACHE_HOME=$C/xdg-cache

# ---- identities ---------------------------------------------------------------
# admin: a bearer token in the kubeconfig; cert: a client certificate and
# key inline; exec: no credential in the kubeconfig at all, a plugin prints
# it (the admin token: what it prints must never show either).
exec_context exec "$C/bin/plugin.sh" default
KEY_DATA=$(base64 -w0 <"$CLIENT_KEY")
# Pieces of each secret: a leak need not be whole.
secrets=("$ADMIN_TOKEN" "${ADMIN_TOKEN:0:12}" "${ADMIN_TOKEN: -12}" "$VIEWER_TOKEN"
         "PRIVATE KEY" "${KEY_DATA:0:24}" "${KEY_DATA:40:24}" "$(sed -n 2p "$CLIENT_KEY" | cut -c1-24)")
leaks() { # leaks FILE-OR-DIR...: prints which secret is found where
  local s
  for s in "${secrets[@]}"; do grep -rlF -e "$s" "$@" 2>/dev/null | sed "s|^|'${s:0:6}...' in |"; done
}

printf 'x%sy\n' "${KEY_DATA:40:24}" >"$C/planted"
like "$(leaks "$C/planted")" "planted" "the leak check finds a planted piece of the key (it can fail)"
rm -f "$C/planted"

# ---- TLS ------------------------------------------------------------------------------
# A kubeconfig written from scratch: JSON is YAML, and nothing needs quoting.
kubeconfig_json() { # kubeconfig_json OUT CLUSTER-JSON USER-JSON
  printf '{"apiVersion": "v1", "kind": "Config", "current-context": "c",
  "clusters": [{"name": "c", "cluster": %s}],
  "users": [{"name": "u", "user": %s}],
  "contexts": [{"name": "c", "context": {"cluster": "c", "user": "u", "namespace": "default"}}]}\n' "$2" "$3" >"$1"
}
one_line() { [[ $(printf '%s\n' "$err" | wc -l) == 1 && -z $out ]]; }
TOKEN_USER="{\"token\": \"$ADMIN_TOKEN\"}"
kubectl create configmap tls-probe >/dev/null

run owners tree cm/tls-probe
ok $rc "verified TLS with the kubeconfig's CA: works"

kubeconfig_json "$C/kc-noca" "{\"server\": \"$SERVER\"}" "$TOKEN_USER"
run owners --kubeconfig "$C/kc-noca" tree cm/tls-probe
is "$rc" 1 "no CA in the kubeconfig: still verified (against the system CAs), exit 1"
like "$err" "^error: .*TLS verification of $SERVER failed: SSL certificate problem" "no CA: says TLS verification failed"
one_line; ok $? "no CA: one line"

openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj /CN=127.0.0.1 \
  -addext "subjectAltName=IP:127.0.0.1" -keyout "$C/other.key" -out "$C/other.crt" -days 1 2>/dev/null
run owners --certificate-authority "$C/other.crt" tree cm/tls-probe
is "$rc" 1 "--certificate-authority with another CA: exit 1"
like "$err" "^error: .*TLS verification of $SERVER failed: SSL certificate problem" "wrong CA: says TLS verification failed"
one_line; ok $? "wrong CA: one line"

kubeconfig_json "$C/kc-otherca" "{\"server\": \"$SERVER\", \"certificate-authority-data\": \"$(base64 -w0 <"$C/other.crt")\"}" "$TOKEN_USER"
run owners --kubeconfig "$C/kc-otherca" tree cm/tls-probe
is "$rc" 1 "certificate-authority-data of another CA: exit 1"

kubeconfig_json "$C/kc-insecure" "{\"server\": \"$SERVER\", \"insecure-skip-tls-verify\": true}" "$TOKEN_USER"
run owners --kubeconfig "$C/kc-insecure" tree cm/tls-probe
ok $rc "insecure-skip-tls-verify: true in the kubeconfig turns verification off"
run owners --kubeconfig "$C/kc-noca" --insecure-skip-tls-verify tree cm/tls-probe
ok $rc "--insecure-skip-tls-verify turns it off"

run owners --tls-server-name wrong.invalid tree cm/tls-probe
is "$rc" 1 "--tls-server-name not in the certificate: exit 1"
like "$err" "^error: .*TLS verification of $SERVER failed: .*wrong.invalid" "wrong server name: a verification error naming it"
run owners --tls-server-name localhost tree cm/tls-probe
ok $rc "--tls-server-name localhost (in the certificate's SANs): works"
kubeconfig_json "$C/kc-sni" "{\"server\": \"$SERVER\", \"certificate-authority\": \"$CA_FILE\", \"tls-server-name\": \"kubernetes.default\"}" "$TOKEN_USER"
run owners --kubeconfig "$C/kc-sni" tree cm/tls-probe
ok $rc "tls-server-name in the kubeconfig: works"

# A server that is not ours (its certificate is valid for 127.0.0.1, but
# from another CA): the connection must end at the handshake, before any
# request, so our token never reaches it. openssl s_server prints what it
# receives.
read -r mitm_port < <(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
openssl s_server -accept "127.0.0.1:$mitm_port" -cert "$C/other.crt" -key "$C/other.key" -quiet \
  >"$C/mitm.log" 2>&1 </dev/null &
mitm_pid=$!
wait_for "the impostor server" 10 bash -c "echo >/dev/tcp/127.0.0.1/$mitm_port"
run owners --server "https://127.0.0.1:$mitm_port" tree cm/tls-probe
is "$rc" 1 "an impostor server: exit 1"
run owners --server "https://127.0.0.1:$mitm_port" --context cert tree cm/tls-probe
is "$rc" 1 "an impostor server, certificate user: exit 1"
run owners --server "https://127.0.0.1:$mitm_port" --context exec tree cm/tls-probe
is "$rc" 1 "an impostor server, exec user: exit 1"
kill $mitm_pid 2>/dev/null; wait $mitm_pid 2>/dev/null
is "$(leaks "$C/mitm.log")" "" "the impostor received no token"
unlike "$(cat "$C/mitm.log")" "Authorization|GET /" "the impostor received no request at all"

# ---- every command, every -v level, every identity: no secret in the output ---------
IDS=(admin cert exec)
namespaces=()
for id in "${IDS[@]}"; do for v in {0..10}; do namespaces+=("s-$id-$v"); done; done
make_fixtures "${namespaces[@]}"
ok $? "fixtures in ${#namespaces[@]} namespaces"
mkdir -p "$C/logs"
# one identity at one level: the five read commands, then the six
# destructive ones (each for real), all output kept
COMMANDS=("${READS[@]}")
for a in "${ACTS[@]}"; do COMMANDS+=("$(act_args "$a")"); done
one_level() { # one_level ID LEVEL
  local id=$1 v=$2 ns=s-$1-$2 r
  for r in "${COMMANDS[@]}"; do
    "$OWNERS" --context "$id" -n "$ns" -v="$v" $r >>"$C/logs/$id.$v.out" 2>&1
    echo "$? $r" >>"$C/logs/$id.$v.rc"
  done
}
t0=$SECONDS
for id in "${IDS[@]}"; do
  pids=()
  for v in {0..10}; do one_level "$id" "$v" & pids+=($!); done
  wait "${pids[@]}"
done
echo "# ${#IDS[@]} identities x 11 levels x 11 commands in $((SECONDS - t0))s"
for id in "${IDS[@]}"; do
  failed=$(cat "$C/logs/$id".*.rc | grep -vc '^0 ')
  is "$failed" 0 "[$id] every command at every level exits 0 ($(cat "$C/logs/$id".*.rc | wc -l) runs)"
  (( failed )) && grep -v '^0 ' "$C/logs/$id".*.rc | head -5 | sed 's/^/#   /'
  is "$(leaks "$C/logs/$id".*.out)" "" "[$id] no token, no key, no piece of either, at any -v level"
done
# The logs did show what they redact, so the redaction was exercised.
like "$(cat "$C/logs/admin.7.out")" "Authorization: Bearer <redacted>" "[admin] -v=7 shows the header, redacted"
like "$(cat "$C/logs/exec.10.out")" "Authorization: Bearer <redacted>" "[exec] -v=10 shows the plugin's token redacted"
like "$(cat "$C/logs/admin.8.out")" 'Request Body: .*"metadata"' "-v=8 logs request bodies (patches)"
like "$(cat "$C/logs/cert.9.out")" "TLS" "[cert] -v=9 logs libcurl's trace, TLS included"
like "$(cat "$C/logs/admin.6.out")" "DELETE https://" "-v=6 logs each request"
unlike "$(cat "$C/logs/admin.0.out" "$C/logs/admin.5.out")" "GET https://" "-v=0 and -v=5 log no request"
# --token on the command line, and a token file
run owners --kubeconfig "$C/kc-noca" --certificate-authority "$CA_FILE" --token "$ADMIN_TOKEN" -v=10 graph -A
ok $rc "--token on the command line, -v=10: works"
is "$(printf '%s\n%s\n' "$out" "$err" | grep -cF "${ADMIN_TOKEN:0:12}")" 0 "--token is never shown"
printf '%s\n' "$ADMIN_TOKEN" >"$C/token"
kubeconfig_json "$C/kc-tokenfile" "{\"server\": \"$SERVER\", \"certificate-authority\": \"$CA_FILE\"}" "{\"tokenFile\": \"$C/token\"}"
run owners --kubeconfig "$C/kc-tokenfile" -v=10 tree cm/tls-probe
ok $rc "a token file, -v=10: works"
is "$(printf '%s\n%s\n' "$out" "$err" | grep -cF "${ADMIN_TOKEN:0:12}")" 0 "a token file's token is never shown"

# ---- exec plugins ---------------------------------------------------------------------
# A plugin whose path and arguments are full of what a shell would act on:
# spaces, ; | & $( ) ` ' " * and a newline. Run through a shell, it would
# create $C/pwned; run with an argv array, it gets them verbatim.
weird_dir="$C/plug dir;\$(touch $C/pwned)\`touch $C/pwned\`"
mkdir -p "$weird_dir"
weird_plugin="$weird_dir/my plugin & 'x' | \"y\" *.sh"
cat >"$weird_plugin" <<SH
#!/bin/sh
# argv, one per line, NUL-terminated; then the environment it got
for a in "\$0" "\$@"; do printf '%s\\0' "\$a"; done >"$C/plugin.argv"
printf '%s\\0' "\$OWNERS_PLUGIN_VAR" "\$OWNERS_PARENT_VAR" "\$KUBERNETES_EXEC_INFO" >"$C/plugin.env"
printf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"%s"}}' "$ADMIN_TOKEN"
SH
chmod +x "$weird_plugin"
weird_args=("--flag with spaces" "\$(touch $C/pwned)" "a;b|c&d>e<f" "'single'" '"double"' "*" "line
break" "")
weird_var="v a l;\$(touch $C/pwned)|\`x\`"
exec_user() { # exec_user COMMAND ARG...: an exec user JSON, apiVersion v1, env OWNERS_PLUGIN_VAR
  python3 - "$@" <<'EOF'
import json, os, sys
print(json.dumps({"exec": {"apiVersion": "client.authentication.k8s.io/v1", "command": sys.argv[1],
                           "args": sys.argv[2:], "interactiveMode": "Never",
                           "env": [{"name": "OWNERS_PLUGIN_VAR", "value": os.environ.get("PLUGIN_VAR", "")}]}}))
EOF
}
CLUSTER_JSON="{\"server\": \"$SERVER\", \"certificate-authority\": \"$CA_FILE\"}"
kubeconfig_json "$C/kc-weird" "$CLUSTER_JSON" "$(PLUGIN_VAR=$weird_var exec_user "$weird_plugin" "${weird_args[@]}")"

# A spy preloaded into owners: it records every setenv/putenv/unsetenv/
# clearenv the process makes (the plugin's environment must be built for
# the child only, never set in owners itself).
cat >"$C/envspy.c" <<'EOF'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
extern char *program_invocation_short_name;
static void note(const char *what, const char *name);
/* "loaded PROGRAM": the spy is in that process (no line, no spy) */
__attribute__((constructor)) static void loaded(void) { note("loaded", program_invocation_short_name); }
static void note(const char *what, const char *name)
{
	const char *f = getenv("ENV_SPY_LOG");
	int fd;

	if (!f || (fd = open(f, O_WRONLY | O_APPEND | O_CREAT, 0600)) < 0)
		return;
	if (write(fd, what, strlen(what)) < 0 || write(fd, " ", 1) < 0 ||
	    (name && write(fd, name, strcspn(name, "=")) < 0) || write(fd, "\n", 1) < 0)
		;
	close(fd);
}
#define REAL(name, type) ((type)dlsym(RTLD_NEXT, name))
int setenv(const char *n, const char *v, int o) { note("setenv", n); return REAL("setenv", int (*)(const char *, const char *, int))(n, v, o); }
int putenv(char *s) { note("putenv", s); return REAL("putenv", int (*)(char *))(s); }
int unsetenv(const char *n) { note("unsetenv", n); return REAL("unsetenv", int (*)(const char *))(n); }
int clearenv(void) { note("clearenv", NULL); return REAL("clearenv", int (*)(void))(); }
EOF
cc -shared -fPIC -o "$C/envspy.so" "$C/envspy.c" -ldl
ok $? "the environment spy builds"
ENV_SPY_LOG="$C/envspy.control" LD_PRELOAD="$C/envspy.so" python3 -c 'import os; os.environ["SPY_CONTROL"] = "1"'
like "$(cat "$C/envspy.control" 2>/dev/null)" "SPY_CONTROL" "the spy sees a process that sets its own environment (it can fail)"

rm -f "$C/pwned"
run env OWNERS_PARENT_VAR=from-parent ENV_SPY_LOG="$C/envspy.log" LD_PRELOAD="$C/envspy.so" \
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
  "$OWNERS" --kubeconfig "$C/kc-weird" tree cm/tls-probe
ok $rc "a plugin with spaces and shell metacharacters in its path and arguments: works"
[[ ! -e $C/pwned ]]
ok $? "no shell ran: nothing in the path, the arguments or the environment was executed"
mapfile -d '' got_argv <"$C/plugin.argv"
is "${#got_argv[@]}" $(( ${#weird_args[@]} + 1 )) "the plugin got exactly its ${#weird_args[@]} arguments"
is "${got_argv[0]}" "$weird_plugin" "argv[0] is the plugin's path, verbatim"
same=0
for i in "${!weird_args[@]}"; do [[ ${got_argv[i + 1]} == "${weird_args[i]}" ]] || same=1; done
ok $same "every argument arrived verbatim (spaces, quotes, \$( ), a newline, an empty one)"
mapfile -d '' got_env <"$C/plugin.env"
is "${got_env[0]}" "$weird_var" "the kubeconfig's env reached the plugin verbatim"
is "${got_env[1]}" "from-parent" "the plugin inherits owners' environment"
printf '%s' "${got_env[2]}" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["kind"] == "ExecCredential" and d["apiVersion"] == "client.authentication.k8s.io/v1"
assert d["spec"]["interactive"] is False'
ok $? "KUBERNETES_EXEC_INFO is an ExecCredential (v1, interactive false)"
# (a spy that never loaded into owners would see nothing and prove nothing)
grep -qx 'loaded owners' "$C/envspy.log" 2>/dev/null
ok $? "the spy was loaded into owners (and saw it run)"
is "$(grep -v '^loaded ' "$C/envspy.log" 2>/dev/null)" "" "owners never calls setenv/putenv/unsetenv/clearenv: the env is set in the child only"

# A plugin given by a relative name is looked up on PATH, not via a shell.
kubeconfig_json "$C/kc-path" "$CLUSTER_JSON" "$(exec_user plugin.sh)"
run env PATH="$C/bin:$PATH" "$OWNERS" --kubeconfig "$C/kc-path" tree cm/tls-probe
ok $rc "a plugin named without a slash is found on PATH"

bad_plugin() { # bad_plugin NAME SCRIPT-BODY: a kubeconfig $C/kc-NAME using it
  printf '#!/bin/sh\n%s\n' "$2" >"$C/bin/$1"
  chmod +x "$C/bin/$1"
  kubeconfig_json "$C/kc-$1" "$CLUSTER_JSON" "$(exec_user "$C/bin/$1")"
}
CRED="{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\",\"status\":{\"token\":\"$ADMIN_TOKEN\"}}"

# 10 MB of output (a valid credential, then padding): refused, quickly, with
# one line, and the output is not echoed.
bad_plugin big "printf '%s' '$CRED'; yes | head -c 10485760"
t0=$EPOCHREALTIME
run owners --kubeconfig "$C/kc-big" tree cm/tls-probe
is "$rc" 1 "a plugin printing 10 MB: exit 1"
like "$err" "^error: .*(more than|too large|limit)" "10 MB: says the output is too large"
one_line; ok $? "10 MB: one line"
is "$(grep -cF "${ADMIN_TOKEN:0:12}" <<<"$err")" 0 "10 MB: the output is not echoed"
python3 -c "import sys; sys.exit(0 if $EPOCHREALTIME - $t0 < 20 else 1)"
ok $? "10 MB: fails within seconds"

bad_plugin status3 "printf '%s' '$CRED'; exit 3"
run owners --kubeconfig "$C/kc-status3" tree cm/tls-probe
is "$rc" 1 "a plugin that prints a credential but exits 3: exit 1 (the credential is not used)"
like "$err" "^error: .*exited with status 3" "exit status: says it"
one_line; ok $? "exit status: one line"

bad_plugin killed 'kill -9 $$'
run owners --kubeconfig "$C/kc-killed" tree cm/tls-probe
is "$rc" 1 "a plugin killed by a signal: exit 1"
like "$err" "^error: .*(signal|killed)" "signal: says it"

bad_plugin truncated "printf '%s' '${CRED:0:${#CRED}-3}'"
run owners --kubeconfig "$C/kc-truncated" tree cm/tls-probe
is "$rc" 1 "a plugin printing truncated JSON (with the token in it): exit 1"
one_line; ok $? "truncated output: one line"
is "$(grep -cF "${ADMIN_TOKEN:0:12}" <<<"$err")" 0 "truncated output: the token is not echoed in the error"
run owners --kubeconfig "$C/kc-truncated" -v=10 tree cm/tls-probe
is "$(grep -cF "${ADMIN_TOKEN:0:12}" <<<"$out$err")" 0 "truncated output, -v=10: the token is not shown"

bad_plugin wrongversion "printf '%s' '{\"apiVersion\":\"client.authentication.k8s.io/v1beta1\",\"kind\":\"ExecCredential\",\"status\":{\"token\":\"$ADMIN_TOKEN\"}}'"
run owners --kubeconfig "$C/kc-wrongversion" tree cm/tls-probe
is "$rc" 1 "a plugin answering another apiVersion than asked: exit 1"
one_line; ok $? "wrong apiVersion: one line"

bad_plugin notexec "exit 0"
chmod -x "$C/bin/notexec"
run owners --kubeconfig "$C/kc-notexec" tree cm/tls-probe
is "$rc" 1 "a plugin that is not executable: exit 1"
like "$err" "^error: .*notexec" "not executable: names it"

# ---- nothing secret on disk ----------------------------------------------------------
is "$(leaks "$TMPDIR" "$XDG_CACHE_HOME")" "" "no token or key in TMPDIR or the caches"
is "$(find "$TMPDIR" -mindepth 1 | head -3)" "" "owners wrote nothing to TMPDIR (certificates and keys go to libcurl from memory)"

# ---- the discovery cache is private ---------------------------------------------------
cache=$C/fresh-cache/deep
run bash -c "umask 000; exec \"$OWNERS\" --cache-dir \"$cache\" graph"
ok $rc "a run with umask 000 and a new cache directory"
files=$(find "$cache" -type f | wc -l)
(( files > 0 ))
ok $? "the discovery cache was written ($files files)"
is "$(find "$C/fresh-cache" \( -type d ! -perm 0700 \) -o \( -type f ! -perm 0600 \) | head -3)" "" \
  "every cache directory is 0700 and every file 0600, whatever the umask"
rm -rf "$C/xdg2"
run env XDG_CACHE_HOME="$C/xdg2" bash -c "umask 000; exec \"$OWNERS\" graph"
is "$(find "$C/xdg2" \( -type d ! -perm 0700 \) -o \( -type f ! -perm 0600 \) | head -3)" "" \
  "the default cache (\$XDG_CACHE_HOME/owners) too"
is "$(leaks "$C/fresh-cache" "$C/xdg2")" "" "no secret in the discovery cache"

done_testing
