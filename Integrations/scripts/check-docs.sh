#!/usr/bin/env bash
# Builds the DocC catalogs of the HTTP adapters (AssayHummingbird, AssayVapor) and fails on any
# warning, with the core's scripts/check-docs.sh: from the symbol graphs of the modules the
# Integrations build made, so that after `swift build` nothing is compiled again. The build is looked
# for in INTEGRATIONS_SCRATCH_PATH (.build by default; CI shares the core's).
#
#   Integrations/scripts/check-docs.sh
set -euo pipefail
cd "$(dirname "$0")/.."
exec ../scripts/check-docs.sh --package Integrations --scratch-path "$(mkdir -p "${INTEGRATIONS_SCRATCH_PATH:-.build}" \
    && cd "${INTEGRATIONS_SCRATCH_PATH:-.build}" && pwd)" AssayHummingbird AssayVapor AssayOpenAPI
