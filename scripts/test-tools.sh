#!/usr/bin/env bash
# Installs the command-line tools the test suite drives besides the database servers:
# - the zsh and fish shells (shell-completion tests) and HAProxy (LoadBalancedInstancesIT, three
#   instances behind a balancer), and Chromium with its driver (DevConsoleIT drives the dev console
#   in a headless browser): Debian packages, needs root (CI runs as root);
# - tree-sitter's PowerShell grammar (npm), which checks the PowerShell completion script:
#   PowerShell itself cannot be installed here (its packages come from GitHub and Microsoft's
#   repositories, which this machine cannot reach);
# - playwright-core (npm), which DevConsoleIT uses to drive Debian's Chromium (never a browser
#   Playwright downloads). The npm packages are kept in $SVC_TEST_TOOLS (default
#   ~/.cache/svc/test-tools), so they are fetched once per machine.
set -uo pipefail
# Debian puts haproxy in /usr/sbin, which is often not on a non-root user's PATH
log="${TMPDIR:-/tmp}/svc-test-tools-$(id -u).log"
has() { command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ]; }
grammar="${SVC_TEST_TOOLS:-$HOME/.cache/svc/test-tools}/powershell-grammar"
playwright="${SVC_TEST_TOOLS:-$HOME/.cache/svc/test-tools}/playwright"
playwright_version=1.65.1
missing=()
for tool in zsh fish haproxy chromium; do
  has "$tool" || missing+=("$tool")
done
has chromedriver || missing+=(chromium-driver)
if [ ${#missing[@]} -gt 0 ] && { [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; }; then
  # a contributor's run without root: say everything that is missing at once, and how to get it
  echo "test-tools: the test suite needs programs that are not installed: ${missing[*]}" >&2
  echo "  install them as root (Debian/Ubuntu):  sudo apt-get install ${missing[*]}" >&2
  echo "  (zsh, fish: shell-completion tests; haproxy: LoadBalancedInstancesIT; chromium," >&2
  echo "  chromium-driver: DevConsoleIT). ./run-tests" >&2
  echo "  installs them itself when run as root, as CI does." >&2
  fetched=()
  [ -d "$grammar/node_modules/tree-sitter-powershell" ] || fetched+=("tree-sitter's PowerShell grammar")
  [ -d "$playwright/node_modules/playwright-core" ] || fetched+=("playwright-core (DevConsoleIT)")
  if [ ${#fetched[@]} -gt 0 ] && ! command -v npm >/dev/null 2>&1; then
    list="${fetched[0]}"
    [ ${#fetched[@]} -gt 1 ] && list="$list and ${fetched[1]}"
    echo "  and Node.js with npm, which fetches $list once" >&2
  fi
  echo "  To run only some tests meanwhile: mvn -B verify -Dtest=… -Dit.test=… (README, Tests)." >&2
  exit 1
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "test-tools: installing ${missing[*]} ..."
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >"$log" 2>&1; then
    apt-get update -q >/dev/null 2>&1
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >"$log" 2>&1 || {
      echo "test-tools: could not install ${missing[*]}:" >&2
      tail -5 "$log" >&2
      exit 1
    }
  fi
fi
if [ ! -d "$grammar/node_modules/tree-sitter-powershell" ]; then
  if ! command -v npm >/dev/null 2>&1; then
    echo "test-tools: npm is needed to fetch tree-sitter's PowerShell grammar (install Node.js)" >&2
    exit 1
  fi
  echo "test-tools: fetching tree-sitter's PowerShell grammar into $grammar ..."
  mkdir -p "$grammar"
  npm install --prefix "$grammar" --no-audit --no-fund --loglevel=error \
    tree-sitter@0.25.1 tree-sitter-powershell@0.26.4 >"$log" 2>&1 || {
    echo "test-tools: could not fetch the PowerShell grammar:" >&2
    tail -5 "$log" >&2
    exit 1
  }
fi
if [ ! -d "$playwright/node_modules/playwright-core" ]; then
  if ! command -v npm >/dev/null 2>&1; then
    echo "test-tools: npm is needed to fetch playwright-core (install Node.js)" >&2
    exit 1
  fi
  echo "test-tools: fetching playwright-core $playwright_version into $playwright ..."
  mkdir -p "$playwright"
  # playwright-core alone downloads no browser: DevConsoleIT drives /usr/bin/chromium
  npm install --prefix "$playwright" --no-audit --no-fund --loglevel=error \
    "playwright-core@$playwright_version" >"$log" 2>&1 || {
    echo "test-tools: could not fetch playwright-core:" >&2
    tail -5 "$log" >&2
    exit 1
  }
fi
exit 0
