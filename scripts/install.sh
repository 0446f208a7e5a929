#!/usr/bin/env bash
# Puts `svc` on the PATH. Works from an unpacked release archive (install.sh at its root: the
# files are copied to PREFIX/lib/svc) and from a checkout (scripts/install.sh: PREFIX/bin/svc
# links to the checkout's ./svc, which needs a JDK 25 and Maven).
#   install.sh [--prefix DIR]     default DIR: ~/.local (the command goes to DIR/bin/svc)
set -euo pipefail
prefix="${SVC_PREFIX:-$HOME/.local}"
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) [ $# -ge 2 ] || { echo "install.sh: --prefix needs a directory" >&2; exit 2; }
      prefix=$2; shift 2 ;;
    --prefix=*) prefix=${1#--prefix=}; shift ;;
    -h | --help) sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install.sh: unknown argument $1 (usage: install.sh [--prefix DIR])" >&2; exit 2 ;;
  esac
done
here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
mkdir -p "$prefix/bin"
prefix=$(cd "$prefix" && pwd)
bin="$prefix/bin"
if [ -x "$here/runtime/bin/java" ] && [ -f "$here/lib/svc.jar" ]; then
  target="$prefix/lib/svc"
  staging="$prefix/lib/.svc-install-$$"
  rm -rf "$staging"
  mkdir -p "$prefix/lib"
  cp -R "$here" "$staging"
  rm -rf "$target.previous"
  if [ -e "$target" ]; then mv "$target" "$target.previous"; fi
  mv "$staging" "$target"
  rm -rf "$target.previous"
  ln -sfn "$target/svc" "$bin/svc"
  echo "svc: installed $("$bin/svc" --version 2>/dev/null || echo svc) into $target"
elif [ -x "$here/../svc" ] && [ -f "$here/../pom.xml" ]; then
  checkout=$(cd "$here/.." && pwd)
  ln -sfn "$checkout/svc" "$bin/svc"
  echo "svc: linked $bin/svc to the checkout's launcher $checkout/svc (it needs a JDK 25 and Maven)"
else
  echo "install.sh: run it from an unpacked release archive or from scripts/ in a checkout" >&2
  exit 1
fi
echo "svc: the command is $bin/svc"
case ":${PATH:-}:" in
  *":$bin:"*) echo "svc: $bin is on your PATH; run: svc --version" ;;
  *)
    echo "svc: NOTE: $bin is not on your PATH. Add it, e.g. in ~/.bashrc or ~/.profile:"
    echo "  export PATH=\"$bin:\$PATH\""
    ;;
esac
