#!/usr/bin/env bash
# Installs what the real-daemon suite needs: Debian's Chromium (and bubblewrap), and the Glass
# daemon `glass-browser` at the exact version in scripts/glass-browser.version, built with cargo
# into ~/.cargo/bin. Does nothing for a part that is already there at that version. Fails, saying
# why, when a part cannot be installed: the real-daemon suite is never skipped.
#
# The daemon is built with a lighter release profile (opt-level 1, no LTO, 16 codegen units, no
# debug info): it halves the build on two cores, and the daemon spends its time waiting on Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."

version="$(tr -d '[:space:]' < scripts/glass-browser.version)"
export PATH="$HOME/.cargo/bin:$PATH"
as_root() { if [ "$(id -u)" = "0" ]; then "$@"; else sudo "$@"; fi; }

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v bwrap >/dev/null 2>&1 || missing+=(bubblewrap)
if [ "${#missing[@]}" -gt 0 ]; then
  echo "install-daemon: installing ${missing[*]} with apt-get"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
chromium --version

installed="$(glass-browser --version 2>/dev/null || true)"
if [ "$installed" = "glass-browser $version" ]; then
  echo "install-daemon: $installed is installed"
  exit 0
fi
if ! command -v cargo >/dev/null 2>&1; then
  echo "install-daemon: cargo is not on PATH; install Rust (rustup) to build glass-browser $version" >&2
  exit 1
fi
echo "install-daemon: building glass-browser $version with cargo (found: ${installed:-none})"
start=$(date +%s)
CARGO_PROFILE_RELEASE_OPT_LEVEL=1 \
CARGO_PROFILE_RELEASE_LTO=false \
CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
CARGO_PROFILE_RELEASE_DEBUG=0 \
CARGO_PROFILE_RELEASE_INCREMENTAL=false \
  cargo install glass-browser --version "=$version" --locked --force
echo "install-daemon: built glass-browser $version in $(( $(date +%s) - start )) s"
glass-browser --version
