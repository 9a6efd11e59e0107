#!/usr/bin/env bash
# Shell completion as a person meets it: bash, zsh and fish, each started
# in a real terminal (tmux), the installed scripts loaded, a command line
# typed and TAB pressed; the screen is read back. Types and object names
# come from a real control plane; `kubectl owners <TAB>` goes through
# kubectl's own plugin completion and the installed kubectl_complete-owners
# (a link to owners, which answers as the completion engine by that name).
. "$(dirname "$0")/lib.sh"
require tmux:tmux zsh:zsh fish:fish
# kubectl's bash completion is built on the bash-completion package, as a
# kubectl user's bash is.
[[ -f /usr/share/bash-completion/bash_completion ]] ||
  { echo "Bail out! completion.t needs /usr/share/bash-completion/bash_completion (apt-get install bash-completion)"; exit 1; }

plan 121   # (the same checks run every time: another count means checks lost or doubled)
start_cluster C --gc=stalled
kubectl create namespace shop >/dev/null
kubectl -n shop create configmap alpha >/dev/null
kubectl -n shop create configmap beta >/dev/null
kubectl -n shop create deployment web --image=nginx >/dev/null

# What the README says to do: install, then load each shell's script.
prefix=$C/prefix
cmake --install "$(dirname "$OWNERS")" --prefix "$prefix" >/dev/null
ok $? "cmake --install: owners, kubectl-owners and kubectl_complete-owners"
[[ $(readlink "$prefix/bin/kubectl_complete-owners") == owners && $(readlink "$prefix/bin/kubectl-owners") == owners ]]
ok $? "kubectl_complete-owners is a link to owners beside the plugin link"
# The binary under test (sanitizer build in CI) replaces the installed one.
ln -sf "$OWNERS" "$prefix/bin/owners"

# ---- the engine, as kubectl asks it --------------------------------------
run env PATH="$prefix/bin:$PATH" kubectl __complete owners -n shop tree configmaps/al
like "$out" $'^configmaps/alpha\n:4' "kubectl's plugin completion gets the names from kubectl_complete-owners"
run env PATH="$prefix/bin:$PATH" kubectl __complete owners tree configm
like "$out" $'^configmaps/\n:6' "  and types, with no space after them (directive 6)"
run env PATH="$prefix/bin:$PATH" kubectl __complete owners --con
is "$out" $'--context\tthe kubeconfig context to use\n:4' "  and flags before the command, with their descriptions"
# --from: names from the snapshot, with no cluster to ask (#52)
"$OWNERS" snapshot -n shop -f "$C/shop.snap" 2>/dev/null
kubectl -n shop create configmap gamma >/dev/null
run env KUBECONFIG=/nonexistent "$OWNERS" __complete tree --from "$C/shop.snap" -n shop configmaps/
is "$out" $'configmaps/alpha\nconfigmaps/beta\n:4' "--from: completion reads the snapshot (its names, not the cluster's), no cluster needed"

# krew installs only the plugin link (kubectl-owners) in its bin directory:
# the helper linked beside it answers, with no 'owners' on PATH.
mkdir -p "$C/krew/bin"
ln -s "$OWNERS" "$C/krew/bin/kubectl-owners"
ln -s kubectl-owners "$C/krew/bin/kubectl_complete-owners"
run env PATH="$C/krew/bin:$PATH" kubectl __complete owners -n shop delete deployment ""
is "$out" $'web\n:4' "a krew layout: the helper linked to kubectl-owners answers (TYPE NAME)"

# ---- messages name the program as the user runs it ----------------------
run env PATH="$prefix/bin:$PATH" kubectl owners tree --help
like "$out" $'Usage:\n  kubectl owners tree TYPE' "kubectl owners --help: usage as typed"
like "$out" $'\n  kubectl owners tree deployment/web\n' "  and its examples"
unlike "$out" "kubectl kubectl" "  never twice"
run env PATH="$prefix/bin:$PATH" kubectl owners dangling -l app=x
like "$err" "e.g. 'kubectl owners dangling pods -l app=web'" "kubectl owners: an error's hint names kubectl owners"
run owners dangling -l app=x
like "$err" "e.g. 'owners dangling pods -l app=web'" "owners: the same hint names owners"
run env PATH="$prefix/bin:$PATH" kubectl owners nope
is "$err" "error: unknown command 'nope' (see 'kubectl owners --help')" "kubectl owners: an unknown command's error"
run env PATH="$prefix/bin:$PATH" kubectl owners --help
like "$out" $'\n  kubectl owners COMMAND ' "kubectl owners --help: the main usage line"
like "$out" "Run 'kubectl owners help COMMAND' or 'kubectl owners COMMAND --help'" "  and its closing hint"
# a remedy printed under kubectl, run as printed: it ends the wait, and run
# again once that is done (the object gone), it says so and exits 0
kubectl -n shop create configmap held >/dev/null
kubectl -n shop patch configmap held --type=merge -p '{"metadata":{"finalizers":["example.com/hold"]}}' >/dev/null
kubectl -n shop delete configmap held --wait=false >/dev/null
run env PATH="$prefix/bin:$PATH" kubectl owners -n shop finalizers configmap/held
remedy=$(grep -oE 'if so: kubectl owners finalizers remove .*' <<<"$out" | sed 's/^if so: //')
like "$remedy" "^kubectl owners finalizers remove configmap/held -n shop --finalizer example\.com/hold --uid=$(kubectl -n shop get configmap held -o jsonpath='{.metadata.uid}')$" \
  "kubectl owners finalizers: the remedy names kubectl owners, the object and its UID"
run env PATH="$prefix/bin:$PATH" bash -c "${remedy:-false}"
ok $rc "  run as printed: exit 0"
is "$(kubectl -n shop get configmap held -o name 2>/dev/null)" "" "  the ConfigMap is gone"
run env PATH="$prefix/bin:$PATH" bash -c "${remedy:-false}"
is "$rc" 0 "  run again once done elsewhere: exit 0 (the object with that UID is gone)"

HOME_DIR=$C/home
mkdir -p "$HOME_DIR"
shell_env=(env -i "${SAN_ENV[@]}" "HOME=$HOME_DIR" "PATH=$prefix/bin:$PATH" "KUBECONFIG=$KUBECONFIG"
           "XDG_CACHE_HOME=$XDG_CACHE_HOME" "XDG_DATA_HOME=$HOME_DIR/data" "XDG_CONFIG_HOME=$HOME_DIR/config"
           "TERM=xterm-256color" "LANG=C.UTF-8")
sock=$C/tmux.sock
tmux_() { tmux -S "$sock" "$@"; }
trap 'tmux_ kill-server 2>/dev/null; cleanup_clusters' EXIT

# start SHELL COMMAND...: a session named SHELL, its prompt "tab> "
start() {
  local name=$1; shift
  tmux_ new-session -d -s "$name" -x 220 -y 50 "${shell_env[@]}" "$@"
}

# The command line the prompt shows now (the last line starting "tab> ").
line_now() { tmux_ capture-pane -p -t "$1" | grep '^tab>' | tail -1 | sed 's/ *$//'; }

# tab SHELL TEXT: types TEXT, presses TAB, waits for the line to change,
# and prints the line; then cancels it and waits for an empty prompt, so
# that nothing of one check reaches the next. (The screen's lines lose
# their trailing blanks: TEXT ending in a space is compared without it.)
tab() {
  local s=$1 text=$2 shown line i
  shown=$(sed 's/ *$//' <<<"tab> $text")
  tmux_ send-keys -t "$s" -l "$text"
  for (( i = 0; i < 50; i++ )); do
    [[ $(line_now "$s") == "$shown" ]] && break
    sleep 0.1
  done
  tmux_ send-keys -t "$s" Tab
  for (( i = 0; i < 100; i++ )); do
    line=$(line_now "$s")
    [[ -n $line && $line != "$shown" ]] && break
    sleep 0.1
  done
  sleep 0.2 # a shell may still be writing (zsh's and fish's lists)
  line=$(line_now "$s")
  printf '%s\n' "$line"
  for (( i = 0; i < 50; i++ )); do
    tmux_ send-keys -t "$s" C-c
    sleep 0.2
    tmux_ send-keys -t "$s" C-l
    sleep 0.2
    [[ $(line_now "$s") == "tab>" ]] && return 0
  done
  echo "# $s: the prompt did not come back empty" >&2
}

ready() { # ready SHELL: the prompt is there
  local i
  for (( i = 0; i < 100; i++ )); do
    tmux_ capture-pane -p -t "$1" | grep -q '^tab>' && return 0
    sleep 0.1
  done
  return 1
}

start bash bash --norc --noprofile
tmux_ send-keys -t bash -l "PS1='tab> '; source /usr/share/bash-completion/bash_completion; source '$E2E_ROOT/completions/owners.bash'; source <(kubectl completion bash); clear"
tmux_ send-keys -t bash Enter
start zsh zsh -f
tmux_ send-keys -t zsh -l "PROMPT='tab> '; autoload -Uz compinit; compinit -u; source '$E2E_ROOT/completions/_owners'; source <(kubectl completion zsh); clear"
tmux_ send-keys -t zsh Enter
start fish fish --no-config --private
tmux_ send-keys -t fish -l "function fish_prompt; echo -n 'tab> '; end; source '$E2E_ROOT/completions/owners.fish'; kubectl completion fish | source; clear"
tmux_ send-keys -t fish Enter

# The checks: what is typed, the line TAB must make of it, what it shows.
cases=(
  'owners tr' 'owners tree'
    'the command'
  'owners tree configm' 'owners tree configmaps/'
    'a type, from the cluster, ready for its name'
  'owners tree dep' 'owners tree deployments/'
    'tree dep<TAB>: deployments/'
  'owners -n shop tree deployments/' 'owners -n shop tree deployments/web'
    'tree deployments/<TAB>: the only name'
  'owners -n shop tree configmaps/alp' 'owners -n shop tree configmaps/alpha'
    'an object name (TYPE/NAME), in the namespace of -n'
  'owners -n shop tree configmap alp' 'owners -n shop tree configmap alpha'
    'TYPE NAME: names of the type typed before, not types again'
  'owners -n shop delete deployments/w' 'owners -n shop delete deployments/web'
    'delete: names'
  'owners -n shop delete deployment ' 'owners -n shop delete deployment web'
    'TYPE <TAB> (a new, empty word): names'
  'owners -n shop finalizers configmaps/be' 'owners -n shop finalizers configmaps/beta'
    'finalizers: names'
  'owners -n shop tree --up configmap be' 'owners -n shop tree --up configmap beta'
    'TYPE NAME after a flag'
  'owners -n shop dangling configmaps/be' 'owners -n shop dangling configmaps/beta'
    'dangling: names'
  'owners finalizers rem' 'owners finalizers remove'
    'finalizers: remove'
  'owners -n shop finalizers remove configmaps/alp' 'owners -n shop finalizers remove configmaps/alpha'
    'finalizers remove: names'
  'owners tree -o js' 'owners tree -o json'
    'a flag'\''s values'
  'owners dangling --exit-c' 'owners dangling --exit-code'
    'a command'\''s own flag'
  'owners -n sho' 'owners -n shop'
    'namespaces, from the cluster'
  'owners tree --namespace=sho' 'owners tree --namespace=shop'
    '--flag=VALUE in one word'
  'owners graph --all-n' 'owners graph --all-namespaces'
    'graph: its flags'
  'owners graph -o do' 'owners graph -o dot'
    'graph: its formats'
  'owners delete --cascade=fo' 'owners delete --cascade=foreground'
    'delete: --cascade'\''s modes'
  'owners --con' 'owners --context'
    'a global flag before the command'
  'owners graph --context vie' 'owners graph --context viewer'
    'contexts, from the kubeconfig'
  'owners completion fi' 'owners completion fish'
    'completion: the shells'
  'owners help fin' 'owners help finalizers'
    'help: the commands'
  'owners version -o ya' 'owners version -o yaml'
    'version: its formats'
  'kubectl owners -n shop tree configmaps/alp' 'kubectl owners -n shop tree configmaps/alpha'
    'kubectl owners <TAB>, through kubectl'\''s plugin completion'
  'kubectl owners fin' 'kubectl owners finalizers'
    'kubectl owners: the commands'
  'kubectl owners tree dep' 'kubectl owners tree deployments/'
    'kubectl owners: types'
  'kubectl owners -n shop delete deployment ' 'kubectl owners -n shop delete deployment web'
    'kubectl owners: TYPE NAME'
  'kubectl owners finalizers rem' 'kubectl owners finalizers remove'
    'kubectl owners: finalizers remove'
  'kubectl owners -n sho' 'kubectl owners -n shop'
    'kubectl owners: namespaces'
  'kubectl owners tree --context vie' 'kubectl owners tree --context viewer'
    'kubectl owners: contexts'
  'kubectl owners dangling -o ya' 'kubectl owners dangling -o yaml'
    'kubectl owners: -o values'
)

# Each shell types every case in its own terminal, the three at once (the
# screen's lines land in a file per shell); the checks read them after.
for sh in bash zsh fish; do
  ready "$sh"; ok $? "[$sh] started in a terminal, the completion loaded"
done
sleep 1
for sh in bash zsh fish; do
  (
    for (( i = 0; i < ${#cases[@]}; i += 3 )); do
      tab "$sh" "${cases[i]}"
    done >"$C/$sh.lines"
  ) &
done
wait
for sh in bash zsh fish; do
  mapfile -t got <"$C/$sh.lines"
  for (( i = 0; i < ${#cases[@]}; i += 3 )); do
    is "${got[i / 3]-}" "tab> ${cases[i + 1]}" "[$sh] ${cases[i + 2]}"
  done
done

done_testing
