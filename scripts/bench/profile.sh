#!/usr/bin/env bash
# Profiles the test stack under load: restarts it with `node --cpu-prof`, drives the gateway's
# authenticated reads with autocannon (scripts/bench, the "http" rows), stops it so the profiles are
# written, and prints the top self-time frames of the gateway and account.
#   scripts/bench/profile.sh   (STACK_PORT_OFFSET / CRAFTER_NAMESPACE as for the test stack)
set -euo pipefail
cd "$(dirname "$0")/../.."
out=".data/prof/$(date +%Y%m%dT%H%M%S)"
mkdir -p "$out"
node scripts/stack.mjs down --profile test >/dev/null
STACK_NODE_ARGS="--cpu-prof --cpu-prof-dir=$PWD/$out" node scripts/stack.mjs up --profile test >/dev/null
set -a; source .data/infra.env; source .data/stack/test/stack.env; set +a
BENCH_DURATION_S="${BENCH_DURATION_S:-15}" node scripts/bench/run.mjs bench http
declare -A pids
for service in gateway account; do pids[$service]=$(cat ".data/stack/test/$service.pid"); done
node scripts/stack.mjs down --profile test >/dev/null
# Each process writes CPU.<date>.<time>.<pid>.<tid>.<seq>.cpuprofile as it exits.
for service in gateway account; do
  file=$(ls "$out"/CPU.*."${pids[$service]}".*.cpuprofile 2>/dev/null | head -1 || true)
  if [[ -n "$file" ]]; then
    mv "$file" "$out/$service.cpuprofile"
    echo "== $service"
    node scripts/bench/profile-summary.mjs "$out/$service.cpuprofile" --top "${TOP:-25}"
  fi
done
echo "profiles in $out (open them in Chrome DevTools › Performance)"
