#!/usr/bin/env bash
# Packs one release build: ome-top-<tag>-<target>.tar.gz with both binaries (`ome-top` and the
# kubectl plugin `kubectl-ome_top`) and the README at the top level, and its `.sha256` (the
# digest alone, as the krew manifest takes it).
#
#   .github/scripts/package.sh TAG TARGET BIN_DIR OUT_DIR
#
# BIN_DIR holds the built binaries (target/<target>/release in the release workflow). Run by
# .github/workflows/release.yml and, on stand-in binaries, by tests/cli/release.rs.
set -euo pipefail
tag=$1 target=$2 bin_dir=$3 out_dir=$4
here=$(cd "$(dirname "$0")/../.." && pwd)
name="ome-top-${tag}-${target}"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
cp "$bin_dir/ome-top" "$bin_dir/kubectl-ome_top" "$here/README.md" "$stage/"
mkdir -p "$out_dir"
tar -czf "$out_dir/$name.tar.gz" -C "$stage" ome-top kubectl-ome_top README.md
if command -v sha256sum >/dev/null; then
  sha256sum "$out_dir/$name.tar.gz" | cut -d' ' -f1 > "$out_dir/$name.tar.gz.sha256"
else
  shasum -a 256 "$out_dir/$name.tar.gz" | cut -d' ' -f1 > "$out_dir/$name.tar.gz.sha256"
fi
echo "$out_dir/$name.tar.gz"
