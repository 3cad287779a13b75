#!/usr/bin/env bash
# Sets up the machine (scripts/setup.sh), then lints (biome, knip), builds, type-checks and runs every
# test, then the packed libraries' checks: a dry-run publish and the consumer test (README examples
# in a fresh TypeScript project outside the workspace).
set -euo pipefail
cd "$(dirname "$0")/.."
export TURBO_TELEMETRY_DISABLED=1
bash scripts/setup.sh
pnpm lint
pnpm turbo run build check-types test --output-logs=new-only --concurrency=2
node scripts/test-summary.mjs
pnpm -r publish --dry-run --no-git-checks
node scripts/consumer-test/index.mjs
