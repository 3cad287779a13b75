#!/usr/bin/env bash
# Installs everything the project needs on a Debian machine with Node 20 and root:
# Debian packages (blender, ffmpeg, python3-numpy; chromium for the viewer's browser test; redis-server
# for the job queue's tests, which start their own on 127.0.0.1) when missing,
# pnpm 10, and the workspace.
set -euo pipefail
cd "$(dirname "$0")/.."
export TURBO_TELEMETRY_DISABLED=1

PNPM_VERSION=10.34.8
APT_PACKAGES=(blender ffmpeg python3-numpy chromium redis-server)

log() { printf '[setup] %s\n' "$*"; }

missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  log "apt-get install ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# pnpm: corepack first; this machine's registry mirror serves no signatures, so fall back to npm.
if ! pnpm --version 2>/dev/null | grep -q "^${PNPM_VERSION%%.*}\."; then
  if corepack enable pnpm >/dev/null 2>&1 && corepack prepare "pnpm@${PNPM_VERSION}" --activate >/dev/null 2>&1; then
    log "pnpm from corepack"
  else
    corepack disable pnpm >/dev/null 2>&1 || true
    log "corepack could not prepare pnpm; installing pnpm@${PNPM_VERSION} with npm"
    npm install -g --silent "pnpm@${PNPM_VERSION}"
  fi
fi
log "pnpm $(pnpm --version), node $(node --version), $(blender --version 2>/dev/null | head -n 1)"

if [ -f pnpm-lock.yaml ]; then
  pnpm install --frozen-lockfile --reporter=append-only
else
  pnpm install --reporter=append-only
fi
