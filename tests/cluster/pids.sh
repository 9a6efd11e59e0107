# tests/cluster/pids.sh — which processes are a cluster's servers; sourced by
# ./up and ./down, which set $dir (absolute) first.
#
# A pid file alone proves nothing: the pid may have been recycled, or belong
# to another cluster's server. A process is this DIR's only when its command
# line runs the testenv binary with the flag that names its own path in DIR
# (etcd --data-dir, apiserver --cert-dir, controller-manager --kubeconfig).
#
# A server is started as `setsid nohup testenv NAME FLAGS...` from a forked
# copy of the calling shell. Until both wrappers have exec'd (slow on a loaded
# machine), its command line is the shell's, then `setsid nohup testenv ...`,
# and only then `testenv ...`. The middle stage is already this DIR's (it runs
# our binary with our flags and becomes the server by exec, keeping its pid),
# so it is signalled and waited for like the server; the first stage is a
# child of the launching shell, which waits it out (see settle_child).

# pid_state PID: prints "server" (the testenv process itself), "launching"
# (wrappers in front of testenv, not yet exec'd), or nothing (not this DIR's).
pid_state() {
  local pid=$1 arg dir_ok=0 exe_at=-1 i=0 in_prefix=1
  [[ $pid =~ ^[0-9]+$ && -r /proc/$pid/cmdline ]] || return 0
  while IFS= read -r -d '' arg; do
    # The programs in front of the flags: a wrapper chain ending in testenv.
    if (( in_prefix )); then
      if [[ $arg == -* ]]; then in_prefix=0
      elif (( exe_at < 0 )) && [[ $arg == */testenv || $arg == testenv ]]; then exe_at=$i
      fi
    fi
    case $arg in
      --data-dir="$dir/etcd"|--cert-dir="$dir/pki"|--kubeconfig="$dir/controller-manager.kubeconfig") dir_ok=1 ;;
    esac
    i=$(( i + 1 ))
  done </proc/"$pid"/cmdline 2>/dev/null
  (( dir_ok && exe_at >= 0 )) || return 0
  if (( exe_at == 0 )); then echo server; else echo launching; fi
}

# is_ours PID: the server of this DIR, or that server still being exec'd.
is_ours() { [[ -n $(pid_state "$1") ]]; }

# is_server PID: the testenv process itself, past every wrapper.
is_server() { [[ $(pid_state "$1") == server ]]; }

# signal SIG PID: the whole process group when PID leads one (the server
# does, once setsid has run), otherwise just PID.
signal() {
  local pgid
  pgid=$(ps -o pgid= -p "$2" 2>/dev/null | tr -d ' ') || true
  if [[ $pgid == "$2" ]]; then kill "-$1" -- "-$2" 2>/dev/null || true
  else kill "-$1" "$2" 2>/dev/null || true; fi
}

# settle_child PID [SECONDS]: wait, at most SECONDS (default 60), while PID
# is a live child of this shell that has not yet become the server (still
# the forked shell or a wrapper). Returns 0 once it is the server or gone,
# 1 when it is still on its way at the deadline.
settle_child() {
  local pid=$1 limit=${2:-60} ppid
  local deadline=$(( SECONDS + limit ))
  while :; do
    is_server "$pid" && return 0
    ppid=$(awk '/^PPid:/ { print $2 }' /proc/"$pid"/status 2>/dev/null) || return 0
    # Gone, a zombie of ours, or no longer our child: nothing to wait for.
    [[ $ppid == "$BASHPID" ]] || return 0
    grep -q '^State:[[:space:]]*Z' /proc/"$pid"/status 2>/dev/null && return 0
    (( SECONDS < deadline )) || return 1
    sleep 0.05
  done
}
