#!/usr/bin/env bash
# `buf breaking`: fails when proto/ breaks wire or source compatibility (buf.yaml's FILE rules) with
# the previous commit (make check). Run from the repository root; in a fresh full clone of main,
# HEAD~1 is main's previous commit. BUF_AGAINST=<ref> compares with another ref (e.g. origin/main).
# Skips, saying why, where there is nothing to compare with: a shallow or one-commit clone, or a
# previous commit without proto/buf.yaml.
set -euo pipefail
cd -- "$(dirname -- "${BASH_SOURCE[0]}")/../.."
ref=${BUF_AGAINST:-HEAD~1}
if ! git rev-parse --verify --quiet "$ref^{commit}" >/dev/null; then
  echo "buf breaking: skipped, no commit $ref to compare with (shallow or first commit)"
  exit 0
fi
if ! git cat-file -e "$ref:proto/buf.yaml" 2>/dev/null; then
  echo "buf breaking: skipped, $ref has no proto/buf.yaml"
  exit 0
fi
npx buf breaking proto --against ".git#ref=$ref,subdir=proto"
echo "buf breaking: proto/ is compatible with $ref ($(git rev-parse --short "$ref"))"
