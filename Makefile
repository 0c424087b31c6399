# Crafter — the two commands are `make start` and `make test` (see README.md).
SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

NPM_STAMP := node_modules/.install-stamp

# Node.js 24 LTS runs everything: the `node` devDependency (from the npm registry alone) installs
# its binary into node_modules/.bin, first on the PATH of every recipe, so services, scripts, jest
# and npm itself run on it whatever Node the machine has. The first `npm install` bootstraps it.
export PATH := $(CURDIR)/node_modules/.bin:$(PATH)

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-18s %s\n", $$1, $$2}'

# Not `npm ci`: registries that serve only this platform's optional binaries (as here) leave the
# other platforms' out of the lockfile, and `npm ci` then refuses it. `npm install` keeps the lock.
$(NPM_STAMP): package-lock.json package.json
	npm install --no-audit --no-fund --loglevel=error
	@touch $(NPM_STAMP)

install: $(NPM_STAMP) ## Install npm dependencies when package.json or the lockfile changed

infra: ## Start FerretDB, Kafka, Redis, Mailpit and MinIO (building them on first use)
	scripts/infra/infra up

infra-down: ## Stop the infrastructure servers
	scripts/infra/infra down

proto: install ## Regenerate proto/gen and the gateway's generated routes (services/gateway/src/routes/gen) from the protos, then the web's API types
	cd proto && npx buf generate
	node scripts/openapi.mjs

openapi: install ## Regenerate the API types (packages/client/src/gen, read by the web too) from the gateway's route registry; run after changing a route
	node scripts/openapi.mjs

openapi-check: install ## Fail when the generated API types differ from the gateway's routes (run 'make openapi' and commit)
	node scripts/openapi.mjs --check

proto-check: install ## buf lint, buf breaking against the previous commit, and fail when proto/gen or the generated routes are stale
	cd proto && npx buf lint && npx buf generate
	scripts/ci/buf-breaking.sh
	@git diff --exit-code --stat -- proto/gen services/gateway/src/routes/gen || (echo "proto/gen or routes/gen is stale: run 'make proto' and commit" && exit 1)
	@test -z "$$(git status --porcelain -- proto/gen services/gateway/src/routes/gen)" || (echo "proto/gen or routes/gen has untracked files: run 'make proto' and commit" && exit 1)

# Only files git tracks (deleted ones left out): an untracked scratch file must not fail the check.
lint: install ## Biome lint and format check of the tracked files
	{ git ls-files -z; git ls-files -z --deleted; } | sort -z | uniq -z -u | \
		xargs -0 -r npx biome check --no-errors-on-unmatched --files-ignore-unknown=true

css-check: install ## Fail on a stylesheet that does not parse (unbalanced braces, unclosed strings, `//` comments)
	node scripts/ci/css-check.mjs

cycles: install ## Import cycles across services/*, packages/* and web/src, and imports running up the web's layers (dependency-cruiser)
	npm run --silent cycles

typecheck: install ## TypeScript, strict
	npx tsc -p tsconfig.json
	npx tsc -p web/tsconfig.json

manifest-check: install ## Fail when the chart, stack, kit topology, Grafana or configs disagree with services/manifest.yaml
	node scripts/manifest.mjs check

deploy-check: ## Dockerfiles (hadolint), Helm chart (lint, template, kubeconform), offline; tools cached
	scripts/ci/deploy-check.sh

check: lint css-check typecheck cycles proto-check openapi-check manifest-check deploy-check ## Every static check CI runs

build: install ## Bundle the services and build the dashboard; fails when its first load is over 200 KB gzipped
	npm run build
	node scripts/bundle-report.mjs --budget 200

start: install infra build ## Start everything (infra, services, gateway + dashboard) and print the URL
	node scripts/stack.mjs up --profile dev

stop: ## Stop the services and the infrastructure
	node scripts/stack.mjs down --profile dev
	scripts/infra/infra down

status: ## Show what is running
	scripts/infra/infra status
	node scripts/stack.mjs status --profile dev

test-unit: install ## Unit tests (no servers)
	npm run test:unit

test-stack: ## Integration and end-to-end tests against a test stack on the real servers
	scripts/test-stack.sh

test: install infra check build ## Run every test, installing and starting what it needs
	rm -rf test-results
	$(MAKE) test-unit test-stack
	node scripts/ci/test-summary.mjs

load-smoke: install infra build ## A few seconds of each k6 scenario against a fresh test stack (part of test-stack)
	scripts/test-stack.sh load-smoke

load: install infra build ## The long k6 runs (deploy/k6; VUS, DURATION… override) against a fresh test stack
	scripts/test-stack.sh load

bench: install infra build ## Performance baseline: gateway reads beside hello-world ceilings, RPC, Kafka; a 20,000-email campaign at one and two replicas; 10,000-row contact imports
	scripts/test-stack.sh bench

bench-crafts: install infra build ## Step completions through the gateway with the offline engine
	scripts/test-stack.sh bench-crafts

faults: install infra build ## The fault suite under k6 load at two replicas (Kafka stopped, Redis restarted, kill -9s) and its effects table; FAULTS_RUNS=20 for more
	scripts/test-stack.sh faults

profile: install infra build ## CPU profiles of the gateway and account under load, top self-time frames
	scripts/bench/profile.sh

.PHONY: help install infra infra-down proto proto-check openapi openapi-check manifest-check cycles lint typecheck deploy-check check build start stop status test-unit test-stack test \
	load-smoke load bench bench-crafts faults profile
