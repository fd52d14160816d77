#!/usr/bin/env bash
# Builds the release artefact: the self-contained `assay` binary (scripts/build-assay.sh), checked
# (scripts/check-self-contained.sh), stripped of its symbol table, with its SHA-256 checksum:
#
#   scripts/release.sh      → dist/assay-VERSION-linux-ARCH and dist/assay-VERSION-linux-ARCH.sha256
#
# VERSION is AssayTool.version (what `assay --version` prints); tag the commit `VERSION` and add the
# CHANGELOG.md section of that version before publishing. Verify a download with
# `sha256sum -c assay-VERSION-linux-ARCH.sha256`.
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(sed -n 's/.*public static let version = "\(.*\)".*/\1/p' Sources/AssayCLI/Commands/AssayTool.swift)
[ -n "$version" ] || { echo "release.sh: no version in AssayTool.swift" >&2; exit 2; }
grep -q "^## $version" CHANGELOG.md || { echo "release.sh: CHANGELOG.md has no section for $version" >&2; exit 2; }
binary=$(scripts/build-assay.sh)
name="assay-$version-linux-$(uname -m)"
mkdir -p dist
rm -f "dist/$name" "dist/$name.sha256"
cp "$binary" "dist/$name.partial"
strip "dist/$name.partial"
scripts/check-self-contained.sh "dist/$name.partial" >&2
[ "$("./dist/$name.partial" --version)" = "$version" ] || { echo "release.sh: --version is not $version" >&2; exit 2; }
mv "dist/$name.partial" "dist/$name"
(cd dist && sha256sum "$name" >"$name.sha256")
echo "dist/$name"
echo "dist/$name.sha256"
