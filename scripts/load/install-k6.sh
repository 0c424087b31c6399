#!/usr/bin/env bash
# Builds k6 from the Go module proxy once, into a per-version cache dir, and prints its path.
# Needs Go (the machine has it). Override the version with K6_VERSION, the cache with CRAFTER_CACHE.
set -euo pipefail
version="${K6_VERSION:-v1.8.1}"
cache="${CRAFTER_CACHE:-$HOME/.cache/crafter}/k6/$version"
if [[ ! -x "$cache/k6" ]]; then
  mkdir -p "$cache"
  echo "building k6 $version into $cache (first use only, takes a few minutes)" >&2
  GOBIN="$cache" GOFLAGS=-mod=mod CGO_ENABLED=0 go install "go.k6.io/k6@$version" >&2
fi
echo "$cache/k6"
