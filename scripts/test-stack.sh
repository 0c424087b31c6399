#!/usr/bin/env bash
# Starts a test stack (own ports and namespace, beside any dev stack) on the servers of
# scripts/infra, runs suites against it, and stops it.
#   scripts/test-stack.sh [suite…]   suites: integration e2e load-smoke sweep schemathesis ai-provider
#                                    faults-short (the default: all seven), load (k6 long runs), bench,
#                                    bench-crafts (scripts/bench), faults (`make faults`; FAULTS_RUNS
#                                    runs); sweep and schemathesis: scripts/security; faults: scripts/faults
set -euo pipefail
cd "$(dirname "$0")/.."
suites=("$@")
# faults-short comes last: it kills replicas, stops Kafka and restarts Redis, which must not disturb
# another suite (it leaves every server running).
if [[ ${#suites[@]} -eq 0 ]]; then suites=(integration e2e load-smoke sweep schemathesis ai-provider faults-short); fi

# ai-provider.int.test.ts needs the workflows service pointed at the fake OpenAI-compatible server
# the test runs, which every other suite must not be: it runs last, on a restarted workflows service.
AI_PROVIDER_TEST=services/gateway/test/ai-provider.int.test.ts
# media-providers.int.test.ts likewise needs the media service pointed at its fake OpenAI Images,
# OpenAI speech and Unsplash server (one port).
MEDIA_PROVIDER_TEST=services/gateway/test/media-providers.int.test.ts
# media-gemini-image.int.test.ts: the media service restarted once more with a Gemini image model as its image provider
# (one image provider per process), pointed at its fake Generative Language API server.
GEMINI_IMAGE_PROVIDER_TEST=services/gateway/test/media-gemini-image.int.test.ts
# lead-assistant-provider.int.test.ts likewise needs contacts pointed at the fake OpenAI-compatible server.
LEAD_ASSISTANT_PROVIDER_TEST=services/contacts/test/lead-assistant-provider.int.test.ts
media_provider_env() {
  local fake=http://127.0.0.1:$((28398 + ${STACK_PORT_OFFSET:-0}))
  export IMAGE_PROVIDER=openai IMAGE_API_KEY=test IMAGE_BASE_URL=$fake/v1
  export SPEECH_PROVIDER=openai SPEECH_API_KEY=test-speech SPEECH_BASE_URL=$fake/v1
  export UNSPLASH_ACCESS_KEY=test-unsplash UNSPLASH_API_URL=$fake
}
gemini_image_provider_env() {
  export IMAGE_PROVIDER=google IMAGE_API_KEY=test-google IMAGE_BASE_URL=http://127.0.0.1:$((28397 + ${STACK_PORT_OFFSET:-0}))/v1beta
}
ai_provider_env() {
  local port=$((28399 + ${STACK_PORT_OFFSET:-0}))
  export AI_PROVIDER=offline AI_BASE_URL=http://127.0.0.1:$port/v1 AI_TIMEOUT_MS=3000 AI_MAX_RETRIES=1
  export AI_WORKFLOW_MODELS='{"BlogWriter":"openai-compatible:fake-blog","Assistant":"openai-compatible:fake-chat","ImagePromptWriter":"openai-compatible:fake-prompts"}'
}
# The lead assistant's model (contacts only: workflows reads AI_MODEL as its default model).
lead_assistant_env() {
  ai_provider_env && export AI_MODEL=fake-lead
}

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
    integration) npm run test:integration -- --testPathIgnorePatterns "(ai-provider|media-providers|media-gemini-image|lead-assistant-provider)\.int" ;;
    ai-provider)
      # `up` starts every stopped component: one restart per environment.
      node scripts/stack.mjs down workflows --profile test
      node scripts/stack.mjs down media --profile test
      (ai_provider_env && media_provider_env && node scripts/stack.mjs up --profile test >/dev/null)
      node scripts/stack.mjs down contacts --profile test
      (lead_assistant_env && node scripts/stack.mjs up --profile test >/dev/null)
      npm run test:integration -- "$AI_PROVIDER_TEST" "$MEDIA_PROVIDER_TEST" "$LEAD_ASSISTANT_PROVIDER_TEST"
      node scripts/stack.mjs down media --profile test
      (gemini_image_provider_env && node scripts/stack.mjs up --profile test >/dev/null)
      npm run test:integration -- "$GEMINI_IMAGE_PROVIDER_TEST"
      ;;
    e2e)
      # The two-tab TooManyRunningActions step needs the first tab's stream to still be running when
      # the second asks; on a quiet machine the short post streams out at the default 12 ms a chunk
      # before the second request lands. A slower offline stream for this suite only.
      node scripts/stack.mjs down workflows --profile test
      (export OFFLINE_STREAM_DELAY_MS=40 && node scripts/stack.mjs up --profile test >/dev/null)
      npm run test:e2e
      node scripts/stack.mjs down workflows --profile test
      node scripts/stack.mjs up --profile test >/dev/null
      ;;
    load-smoke) scripts/load/run.sh smoke ;;
    sweep) node scripts/security/sweep.mjs ;;
    schemathesis) scripts/security/schemathesis.sh ;;
    load) scripts/load/run.sh full ;;
    bench) node scripts/bench/run.mjs bench && node scripts/bench/run.mjs email && node scripts/bench/run.mjs imports ;;
    bench-crafts) node scripts/bench/run.mjs crafts ;;
    # Both add a second replica of every service to the stack (`down` in the trap stops them too).
    faults) node scripts/faults/faults.mjs --runs "${FAULTS_RUNS:-1}" ;;
    faults-short) node scripts/faults/faults.mjs --short ;;
    *) echo "unknown suite $suite" >&2 && exit 2 ;;
  esac
done
