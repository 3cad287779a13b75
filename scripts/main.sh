#!/usr/bin/env bash
# Sets up the machine, builds, then runs the demo on the bundled wolf (see README): Blender prep ->
# rig -> reference frame through its Turbo task graph, then `mocap demo`: a rendered known clip
# captured (read, refine, fit, apply, showcase) and scored against the joints Blender posed.
set -euo pipefail
cd "$(dirname "$0")/.."
export TURBO_TELEMETRY_DISABLED=1
bash scripts/setup.sh
pnpm turbo run build --output-logs=errors-only
creature=creatures/wolf
# prep -> rig -> ref through the creature's Turbo task graph (cached per creature).
pnpm turbo run ref --filter @mocap-creature/wolf --output-logs=new-only
# 60 frames (2 s at 30 fps) keep a fresh machine within 6 minutes, set-up included (docs/benchmarks.md).
pnpm --silent mocap demo --creature "$creature" --frames 60 --seed 1
