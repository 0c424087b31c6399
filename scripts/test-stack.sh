#!/usr/bin/env bash
# Starts a test stack (own ports and namespace, beside any dev stack) on the servers of
# scripts/infra, runs the integration and end-to-end tests against it, and stops it.
set -euo pipefail
cd "$(dirname "$0")/.."

# Telemetry on, exported to a port where services/gateway/test/telemetry.int.test.ts listens (and
# nothing else: exports between its runs are dropped).
export OTEL_EXPORTER_OTLP_ENDPOINT=${OTEL_EXPORTER_OTLP_ENDPOINT:-http://127.0.0.1:$((24318 + ${STACK_PORT_OFFSET:-0}))}
export OTEL_METRIC_EXPORT_INTERVAL=${OTEL_METRIC_EXPORT_INTERVAL:-2000}

node scripts/stack.mjs down --profile test >/dev/null
node scripts/stack.mjs up --profile test
trap 'node scripts/stack.mjs down --profile test >/dev/null' EXIT

set -a; source .data/infra.env; source .data/stack/test/stack.env; set +a
npm run test:integration
npm run test:e2e
