#!/usr/bin/env bash
# Installs the command-line tools the test suite drives besides the database servers: the zsh and
# fish shells (shell-completion tests). Debian packages; needs root (CI machines run as root).
set -uo pipefail
missing=()
for tool in zsh fish; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
[ ${#missing[@]} -eq 0 ] && exit 0
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
