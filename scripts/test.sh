#!/usr/bin/env bash
# Sets up the machine (scripts/setup.sh), then builds, type-checks, lints and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
export TURBO_TELEMETRY_DISABLED=1
bash scripts/setup.sh
pnpm lint
pnpm turbo run build check-types test --output-logs=new-only --concurrency=2
node scripts/test-summary.mjs
