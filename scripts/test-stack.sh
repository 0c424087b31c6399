#!/usr/bin/env bash
# Starts a test stack (own ports and namespace, beside any dev stack) on the servers of
# scripts/infra, runs suites against it, and stops it.
#   scripts/test-stack.sh [suite…]   suites: integration e2e load-smoke (the default: all three),
#                                    load (k6 long runs), bench, bench-crafts (scripts/bench)
set -euo pipefail
cd "$(dirname "$0")/.."
suites=("$@")
if [[ ${#suites[@]} -eq 0 ]]; then suites=(integration e2e load-smoke); fi

# For the integration suite, telemetry on, exported to a port where
# services/gateway/test/telemetry.int.test.ts listens (exports between its runs are dropped).
# Benchmarks and load runs measure the stack as configured, without that.
if [[ " ${suites[*]} " == *" integration "* ]]; then
  export OTEL_EXPORTER_OTLP_ENDPOINT=${OTEL_EXPORTER_OTLP_ENDPOINT:-http://127.0.0.1:$((24318 + ${STACK_PORT_OFFSET:-0}))}
  export OTEL_METRIC_EXPORT_INTERVAL=${OTEL_METRIC_EXPORT_INTERVAL:-2000}
fi

node scripts/stack.mjs down --profile test >/dev/null
node scripts/stack.mjs up --profile test
trap 'node scripts/stack.mjs down --profile test >/dev/null' EXIT

set -a; source .data/infra.env; source .data/stack/test/stack.env; set +a
for suite in "${suites[@]}"; do
  case "$suite" in
    integration) npm run test:integration ;;
    e2e) npm run test:e2e ;;
    load-smoke) scripts/load/run.sh smoke ;;
    load) scripts/load/run.sh full ;;
    bench) node scripts/bench/run.mjs bench ;;
    bench-crafts) node scripts/bench/run.mjs crafts ;;
    *) echo "unknown suite $suite" >&2 && exit 2 ;;
  esac
done
