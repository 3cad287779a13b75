#!/usr/bin/env bash
# Sets up the machine, builds, then runs the most complete job that exists today (see README).
set -euo pipefail
cd "$(dirname "$0")/.."
export TURBO_TELEMETRY_DISABLED=1
bash scripts/setup.sh
pnpm turbo run build --output-logs=errors-only
pnpm --silent mocap layout
