#!/usr/bin/env bash
# Local observability for Crafter without Docker: an OpenTelemetry Collector (OTLP in on :4317/:4318,
# Prometheus exporter on :8889, traces to a JSON-lines file and the debug exporter) and Prometheus
# (:9090, scraping the collector, with deploy/prometheus/alerts.yml). See deploy/README.md.
#   scripts/observe.sh install|up|status|down|env
# Where Docker is present, `docker compose -f deploy/compose.yaml --profile observe up -d` also
# gives Grafana with the dashboards of deploy/grafana.
set -euo pipefail

readonly BUILDER_VERSION=v0.155.0
readonly OTLP_HTTP_PORT=${OBSERVE_OTLP_HTTP_PORT:-4318}
readonly OTLP_GRPC_PORT=${OBSERVE_OTLP_GRPC_PORT:-4317}
readonly PROM_EXPORTER_PORT=${OBSERVE_PROM_EXPORTER_PORT:-8889}
readonly PROMETHEUS_PORT=${OBSERVE_PROMETHEUS_PORT:-9090}

SCRIPT_DIR=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)
readonly REPO_ROOT="$SCRIPT_DIR/.."
readonly DATA_DIR="$REPO_ROOT/.data/observe"
readonly CACHE_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/crafter"
readonly COLLECTOR_BIN="$CACHE_DIR/bin/otelcol-crafter-$BUILDER_VERSION"
readonly BUILDER_BIN="$CACHE_DIR/bin/ocb-$BUILDER_VERSION"

say() { printf 'observe: %s\n' "$*"; }
die() {
  printf 'observe: error: %s\n' "$*" >&2
  exit 1
}

install_collector() {
  if [[ -x $COLLECTOR_BIN ]]; then
    say "collector ok ($COLLECTOR_BIN)"
    return
  fi
  command -v go >/dev/null || die "Go is needed to build the collector"
  mkdir -p "$CACHE_DIR/bin" "$CACHE_DIR/logs" "$CACHE_DIR/src/otelcol-crafter"
  if [[ ! -x $BUILDER_BIN ]]; then
    say "installing the collector builder $BUILDER_VERSION"
    GOBIN="$CACHE_DIR/bin" go install "go.opentelemetry.io/collector/cmd/builder@$BUILDER_VERSION"
    mv -f "$CACHE_DIR/bin/builder" "$BUILDER_BIN"
  fi
  say "building the collector (several minutes the first time; log: $CACHE_DIR/logs/otelcol-build.log)"
  local work="$CACHE_DIR/src/otelcol-crafter"
  sed "s#output_path: .*#output_path: $work#" "$REPO_ROOT/deploy/otel-collector/builder.yaml" >"$work/builder.yaml"
  # The builder's own `go mod tidy` fails here: a test of fileexporter imports a module the proxy
  # does not serve. So: generate the sources, tidy with -e (tests are not built), then go build.
  (
    cd "$work"
    "$BUILDER_BIN" --config builder.yaml --skip-get-modules --skip-compilation
    go mod tidy -e
    CGO_ENABLED=0 nice -n 10 go build -trimpath -ldflags "-s -w" -o otelcol-crafter .
  ) >"$CACHE_DIR/logs/otelcol-build.log" 2>&1 || {
    tail -n 30 "$CACHE_DIR/logs/otelcol-build.log" >&2
    die "collector build failed"
  }
  mv -f "$work/otelcol-crafter" "$COLLECTOR_BIN"
  say "collector built: $COLLECTOR_BIN"
}

install_prometheus() {
  if command -v prometheus >/dev/null && command -v promtool >/dev/null; then
    say "prometheus ok ($(command -v prometheus))"
    return
  fi
  local sudo=()
  ((EUID == 0)) || sudo=(sudo)
  "${sudo[@]}" apt-get install -y --no-install-recommends prometheus >/dev/null
  # The Debian package starts a system service on :9090; ours runs per checkout instead.
  "${sudo[@]}" systemctl disable --now prometheus >/dev/null 2>&1 || true
}

pid_alive() { [[ -f $1 ]] && kill -0 "$(cat "$1")" 2>/dev/null; }

wait_http() {
  local url=$1 name=$2
  for _ in $(seq 1 120); do
    curl -fsS -o /dev/null "$url" 2>/dev/null && return 0
    sleep 0.25
  done
  die "$name did not answer $url (log: $DATA_DIR/$name.log)"
}

up() {
  install_collector
  install_prometheus
  mkdir -p "$DATA_DIR/prometheus"
  if ! pid_alive "$DATA_DIR/collector.pid"; then
    OTLP_HTTP_PORT=$OTLP_HTTP_PORT OTLP_GRPC_PORT=$OTLP_GRPC_PORT PROM_EXPORTER_PORT=$PROM_EXPORTER_PORT \
      TRACES_FILE="$DATA_DIR/traces.jsonl" METRICS_FILE="$DATA_DIR/metrics.jsonl" \
      nohup "$COLLECTOR_BIN" --config "$REPO_ROOT/deploy/otel-collector/config.yaml" \
      >"$DATA_DIR/collector.log" 2>&1 &
    echo $! >"$DATA_DIR/collector.pid"
  fi
  wait_http "http://127.0.0.1:13133/" collector
  if ! pid_alive "$DATA_DIR/prometheus.pid"; then
    sed "s#otel-collector:8889#127.0.0.1:$PROM_EXPORTER_PORT#; s#/etc/prometheus/alerts.yml#$REPO_ROOT/deploy/prometheus/alerts.yml#" \
      "$REPO_ROOT/deploy/prometheus/prometheus.yml" >"$DATA_DIR/prometheus.yml"
    nohup prometheus --config.file="$DATA_DIR/prometheus.yml" --storage.tsdb.path="$DATA_DIR/prometheus" \
      --web.listen-address="127.0.0.1:$PROMETHEUS_PORT" >"$DATA_DIR/prometheus.log" 2>&1 &
    echo $! >"$DATA_DIR/prometheus.pid"
  fi
  wait_http "http://127.0.0.1:$PROMETHEUS_PORT/-/ready" prometheus
  say "collector: OTLP http://127.0.0.1:$OTLP_HTTP_PORT (grpc :$OTLP_GRPC_PORT), metrics http://127.0.0.1:$PROM_EXPORTER_PORT/metrics"
  say "prometheus: http://127.0.0.1:$PROMETHEUS_PORT"
  say "traces: $DATA_DIR/traces.jsonl"
  print_env
}

down() {
  for name in prometheus collector; do
    if pid_alive "$DATA_DIR/$name.pid"; then
      kill "$(cat "$DATA_DIR/$name.pid")"
      say "$name stopped"
    fi
    rm -f "$DATA_DIR/$name.pid"
  done
}

status() {
  for name in collector prometheus; do
    if pid_alive "$DATA_DIR/$name.pid"; then say "$name running ($(cat "$DATA_DIR/$name.pid"))"; else say "$name stopped"; fi
  done
}

print_env() {
  echo "export OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:$OTLP_HTTP_PORT"
}

case "${1:-status}" in
install)
  install_collector
  install_prometheus
  ;;
up) up ;;
down) down ;;
status) status ;;
env) print_env ;;
*) die "usage: scripts/observe.sh install|up|status|down|env" ;;
esac
