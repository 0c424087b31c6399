#!/usr/bin/env bash
# Runs the k6 scenarios of deploy/k6 against a running stack; exits non-zero when any threshold breaks.
#   scripts/load/run.sh smoke [scenario…]   seconds per scenario, 2 VUs (CI, inside `make test`)
#   scripts/load/run.sh full  [scenario…]   the long runs (`make load`); VUS and DURATION override
# The stack's address comes from BASE_URL, else GATEWAY_URL (as scripts/test-stack.sh exports it).
set -euo pipefail
cd "$(dirname "$0")/../.."

mode="${1:-smoke}"
shift || true
scenarios=("$@")
if [[ ${#scenarios[@]} -eq 0 ]]; then
  scenarios=(signup-storm signin-storm dashboard-reads crafting refresh-storm lead-form-burst api-key-reads campaign-sends contact-imports)
fi

k6="$(scripts/load/install-k6.sh)"
export BASE_URL="${BASE_URL:-${GATEWAY_URL:-http://127.0.0.1:28080}}"
export RUN_ID="${RUN_ID:-$(date +%s)}"
export K6_NO_USAGE_REPORT=true

case "$mode" in
  # The smoke run proves each scenario works with no failed request; its latency budgets are wide
  # (P95_SCALE) because CI shares the machine. The full runs hold the scenarios' own budgets.
  smoke) defaults=(VUS=2 DURATION=5s THINK_S=0.1 P95_SCALE=10) ;;
  full) defaults=(VUS=20 DURATION=2m THINK_S=0.5 P95_SCALE=1) ;;
  *) echo "usage: $0 smoke|full [scenario…]" >&2 && exit 2 ;;
esac

mkdir -p .data/load
failed=()
for scenario in "${scenarios[@]}"; do
  args=()
  for pair in "${defaults[@]}"; do
    name="${pair%%=*}"
    # An exported VUS, DURATION… wins over the mode's default.
    args+=(-e "$name=${!name:-${pair#*=}}")
  done
  echo "== k6 $mode: $scenario against $BASE_URL"
  if ! "$k6" run --quiet "${args[@]}" --summary-export ".data/load/$scenario.$mode.json" "deploy/k6/$scenario.js"; then
    failed+=("$scenario")
  fi
done
if [[ ${#failed[@]} -gt 0 ]]; then
  echo "k6 $mode: thresholds broken in: ${failed[*]}" >&2
  exit 1
fi
echo "k6 $mode: every scenario within its thresholds"
