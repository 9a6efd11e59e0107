#!/usr/bin/env bash
# Shell completion as a person meets it: bash, zsh and fish, each started
# in a real terminal (tmux), the installed scripts loaded, a command line
# typed and TAB pressed; the screen is read back. Types and object names
# come from a real control plane; `kubectl owners <TAB>` goes through
# kubectl's own plugin completion and the installed kubectl_complete-owners.
. "$(dirname "$0")/lib.sh"
require tmux:tmux zsh:zsh fish:fish
# kubectl's bash completion is built on the bash-completion package, as a
# kubectl user's bash is.
[[ -f /usr/share/bash-completion/bash_completion ]] ||
  { echo "Bail out! completion.t needs /usr/share/bash-completion/bash_completion (apt-get install bash-completion)"; exit 1; }

start_cluster C --gc=stalled
kubectl create namespace shop >/dev/null
kubectl -n shop create configmap alpha >/dev/null
kubectl -n shop create configmap beta >/dev/null
kubectl -n shop create deployment web --image=nginx >/dev/null

# What the README says to do: install, then load each shell's script.
prefix=$C/prefix
cmake --install "$(dirname "$OWNERS")" --prefix "$prefix" >/dev/null
ok $? "cmake --install: owners, kubectl-owners and kubectl_complete-owners"
[[ -x $prefix/bin/kubectl_complete-owners && -e $prefix/bin/kubectl-owners ]]
ok $? "kubectl_complete-owners is installed beside the plugin"
# The binary under test (sanitizer build in CI) replaces the installed one.
ln -sf "$OWNERS" "$prefix/bin/owners"

# ---- the engine, as kubectl asks it --------------------------------------
run env PATH="$prefix/bin:$PATH" kubectl __complete owners -n shop tree configmaps/al
like "$out" $'^configmaps/alpha\n:4' "kubectl's plugin completion gets the names from kubectl_complete-owners"
run env PATH="$prefix/bin:$PATH" kubectl __complete owners tree configm
like "$out" $'^configmaps/\n:6' "  and types, with no space after them (directive 6)"

# ---- messages name the program as the user runs it ----------------------
run env PATH="$prefix/bin:$PATH" kubectl owners tree --help
like "$out" $'Usage:\n  kubectl owners tree TYPE' "kubectl owners --help: usage as typed"
like "$out" $'\n  kubectl owners tree deployment/web\n' "  and its examples"
unlike "$out" "kubectl kubectl" "  never twice"
run env PATH="$prefix/bin:$PATH" kubectl owners dangling -l app=x
like "$err" "e.g. 'kubectl owners dangling pods -l app=web'" "kubectl owners: an error's hint names kubectl owners"
run owners dangling -l app=x
like "$err" "e.g. 'owners dangling pods -l app=web'" "owners: the same hint names owners"

HOME_DIR=$C/home
mkdir -p "$HOME_DIR"
shell_env=(env -i "HOME=$HOME_DIR" "PATH=$prefix/bin:$PATH" "KUBECONFIG=$KUBECONFIG"
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
line_now() { tmux_ capture-pane -p -t "$1" | grep '^tab> ' | tail -1 | sed 's/ *$//'; }

# tab SHELL TEXT: types TEXT, presses TAB, waits for the line to change,
# and prints the line; then cancels it for the next one.
tab() {
  local s=$1 text=$2 line i
  tmux_ send-keys -t "$s" -l "$text"
  for (( i = 0; i < 50; i++ )); do
    [[ $(line_now "$s") == "tab> $text" ]] && break
    sleep 0.1
  done
  tmux_ send-keys -t "$s" Tab
  for (( i = 0; i < 100; i++ )); do
    line=$(line_now "$s")
    [[ -n $line && $line != "tab> $text" ]] && break
    sleep 0.1
  done
  printf '%s\n' "$line"
  tmux_ send-keys -t "$s" C-c
  sleep 0.3
  tmux_ send-keys -t "$s" C-l
  sleep 0.3
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

for sh in bash zsh fish; do
  ready "$sh"; ok $? "[$sh] started in a terminal, the completion loaded"
  sleep 1
  is "$(tab "$sh" "owners tr")" "tab> owners tree" "[$sh] the command"
  is "$(tab "$sh" "owners tree configm")" "tab> owners tree configmaps/" "[$sh] a type, from the cluster, ready for its name"
  is "$(tab "$sh" "owners -n shop tree configmaps/alp")" "tab> owners -n shop tree configmaps/alpha" \
    "[$sh] an object name (TYPE/NAME), in the namespace of -n"
  is "$(tab "$sh" "owners -n shop tree configmap alp")" "tab> owners -n shop tree configmap alpha" \
    "[$sh] TYPE NAME: names of the type typed before, not types again"
  is "$(tab "$sh" "owners -n shop delete deployments/w")" "tab> owners -n shop delete deployments/web" "[$sh] delete: names"
  is "$(tab "$sh" "owners -n shop dangling configmaps/be")" "tab> owners -n shop dangling configmaps/beta" "[$sh] dangling: names"
  is "$(tab "$sh" "owners finalizers rem")" "tab> owners finalizers remove" "[$sh] finalizers: remove"
  is "$(tab "$sh" "owners -n shop finalizers remove configmaps/alp")" "tab> owners -n shop finalizers remove configmaps/alpha" \
    "[$sh] finalizers remove: names"
  is "$(tab "$sh" "owners tree -o js")" "tab> owners tree -o json" "[$sh] a flag's values"
  is "$(tab "$sh" "owners dangling --exit-c")" "tab> owners dangling --exit-code" "[$sh] a command's own flag"
  is "$(tab "$sh" "owners -n sho")" "tab> owners -n shop" "[$sh] namespaces, from the cluster"
  is "$(tab "$sh" "owners graph --context vie")" "tab> owners graph --context viewer" "[$sh] contexts, from the kubeconfig"
  is "$(tab "$sh" "owners completion fi")" "tab> owners completion fish" "[$sh] completion: the shells"
  is "$(tab "$sh" "owners help fin")" "tab> owners help finalizers" "[$sh] help: the commands"
  is "$(tab "$sh" "owners version -o ya")" "tab> owners version -o yaml" "[$sh] version: its formats"
  is "$(tab "$sh" "kubectl owners -n shop tree configmaps/alp")" "tab> kubectl owners -n shop tree configmaps/alpha" \
    "[$sh] kubectl owners <TAB>, through kubectl's plugin completion"
done

done_testing
