#!/usr/bin/env bash
# Installs the command-line tools the test suite drives besides the database servers:
# - the zsh and fish shells (shell-completion tests) and HAProxy (LoadBalancedInstancesIT, three
#   instances behind a balancer): Debian packages, needs root (CI runs as root);
# - tree-sitter's PowerShell grammar (npm), which checks the PowerShell completion script:
#   PowerShell itself cannot be installed here (its packages come from GitHub and Microsoft's
#   repositories, which this machine cannot reach). Kept in $SVC_TEST_TOOLS (default
#   ~/.cache/svc/test-tools), so it is fetched once per machine.
set -uo pipefail
missing=()
for tool in zsh fish haproxy; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "test-tools: ${missing[*]} missing; install them (Debian: apt-get install ${missing[*]})" >&2
    exit 1
  fi
  echo "test-tools: installing ${missing[*]} ..."
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >/tmp/svc-test-tools.log 2>&1; then
    apt-get update -q >/dev/null 2>&1
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >/tmp/svc-test-tools.log 2>&1 || {
      echo "test-tools: could not install ${missing[*]}:" >&2
      tail -5 /tmp/svc-test-tools.log >&2
      exit 1
    }
  fi
fi

grammar="${SVC_TEST_TOOLS:-$HOME/.cache/svc/test-tools}/powershell-grammar"
if [ ! -d "$grammar/node_modules/tree-sitter-powershell" ]; then
  if ! command -v npm >/dev/null 2>&1; then
    echo "test-tools: npm is needed to fetch tree-sitter's PowerShell grammar (install Node.js)" >&2
    exit 1
  fi
  echo "test-tools: fetching tree-sitter's PowerShell grammar into $grammar ..."
  mkdir -p "$grammar"
  npm install --prefix "$grammar" --no-audit --no-fund --silent \
    tree-sitter@0.25.1 tree-sitter-powershell@0.26.4 >/tmp/svc-test-tools.log 2>&1 || {
    echo "test-tools: could not fetch the PowerShell grammar:" >&2
    tail -5 /tmp/svc-test-tools.log >&2
    exit 1
  }
fi
exit 0
