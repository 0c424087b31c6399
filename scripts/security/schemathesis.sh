#!/usr/bin/env bash
# schemathesis (PyPI) against the gateway's served /api/openapi.json on a running stack, with every
# check and every phase, authenticated as a fresh signed-up user (Authorization: Bearer, so no
# Origin is needed). It fails on any finding; schemathesis.toml configures the rules the document
# cannot state, and lists what it does not say yet. Bounded: the coverage phase sends every case the
# document defines (most of the run), the fuzzing phase SCHEMATHESIS_MAX_EXAMPLES per operation.
#   GATEWAY_URL=http://127.0.0.1:8080 scripts/security/schemathesis.sh
#   SCHEMATHESIS_CHECKS=not_a_server_error SCHEMATHESIS_PHASES=fuzzing scripts/security/schemathesis.sh
# Two runs: the examples, coverage and fuzzing phases (SCHEMATHESIS_PHASES), then the stateful
# phase with its own ids (SCHEMATHESIS_STATEFUL=0 leaves it out).
set -euo pipefail
cd "$(dirname "$0")/../.."
VERSION=4.32.5
VENV=${XDG_CACHE_HOME:-$HOME/.cache}/crafter/schemathesis-$VERSION
BASE=${GATEWAY_URL:-http://127.0.0.1:8080}

if [[ ! -f $VENV/.complete ]]; then
  rm -rf -- "$VENV"
  mkdir -p -- "$(dirname "$VENV")"
  python3 -m venv "$VENV" >/dev/null
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$VERSION" >"$VENV.pip.log" 2>&1 || {
    tail -n 30 "$VENV.pip.log" >&2
    echo "pip install of schemathesis $VERSION failed" >&2
    exit 1
  }
  touch -- "$VENV/.complete"
fi

# A fresh user, a craft of theirs (its id and first step are pinned in schemathesis.toml, so the
# craft routes run on a real craft) and a second craft for DELETE.
set -a
eval "$(node scripts/security/sweep.mjs --base "$BASE" --print-fixtures)"
set +a
TOKEN=$SCHEMATHESIS_TOKEN
[[ -n $TOKEN ]] || { echo "could not sign a user in" >&2; exit 1; }

# Its output goes through a filter that drops pytest-style "==== … ====" banners: CI reads a closing
# "=== N warnings in Ns ===" as a pytest run that executed no test. The per-operation results go to
# test-results/schemathesis*.xml (JUnit), which scripts/ci/test-summary.mjs counts with jest's.
mkdir -p test-results
# The stateful phase runs on its own, with the toml's id pins left out (its links carry the ids
# the run creates; see the pins block there).
STATEFUL_CONFIG=$(mktemp --suffix=.toml)
trap 'rm -f -- "$STATEFUL_CONFIG"' EXIT
sed '/^# pins:begin/,/^# pins:end/d' scripts/security/schemathesis.toml >"$STATEFUL_CONFIG"

# One worker: with two, schemathesis 4.32.5 sometimes crashes inside its coverage phase (a KeyError
# in its own generator cache), which is no finding about the API.
run() {
  local config=$1 phases=$2 report=$3
  shift 3
  "$VENV/bin/schemathesis" --config-file "$config" run "$BASE/api/openapi.json" \
    --url "$BASE" \
    --header "Authorization: Bearer $TOKEN" \
    --checks "${SCHEMATHESIS_CHECKS:-all}" \
    --max-examples "${SCHEMATHESIS_MAX_EXAMPLES:-5}" \
    --workers "${SCHEMATHESIS_WORKERS:-1}" \
    --request-timeout 60 \
    --seed "${SCHEMATHESIS_SEED:-42}" \
    --phases "$phases" \
    --suppress-health-check all \
    --no-color \
    --report junit --report-junit-path "$report" \
    "$@" 2>&1 | sed -E '/^=+ .* =+$/d'
}
status=0
run scripts/security/schemathesis.toml "${SCHEMATHESIS_PHASES:-examples,coverage,fuzzing}" \
  test-results/schemathesis.xml "$@" || status=$?
if [[ ${SCHEMATHESIS_STATEFUL:-1} == 1 ]]; then
  run "$STATEFUL_CONFIG" stateful test-results/schemathesis-stateful.xml "$@" || status=$?
fi
exit "$status"
