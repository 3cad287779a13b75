#!/usr/bin/env bash
# Sets up the machine, builds, then runs the most complete job that exists today on the bundled
# wolf (see README): Blender prep -> rig -> reference frame through its Turbo task graph, then the synthetic exam of the fit.
set -euo pipefail
cd "$(dirname "$0")/.."
export TURBO_TELEMETRY_DISABLED=1
bash scripts/setup.sh
pnpm turbo run build --output-logs=errors-only
creature=creatures/wolf
pnpm --silent mocap layout --creature "$creature"
# prep -> rig -> ref through the creature's Turbo task graph (cached per creature).
pnpm turbo run ref --filter @mocap-creature/wolf --output-logs=new-only
pnpm --silent mocap exam --synthetic --creature "$creature" --frames 120 --noise-px 2 --outliers 0.05 --seed 1
