#!/usr/bin/env bash
# Builds k9s (the peer the scale bench measures ome-top against, SCALE_PEERS=k9s) from the
# Go module proxy, once: the binary is cached at
#   ${XDG_CACHE_HOME:-$HOME/.cache}/ome-top-peers/k9s-$VERSION/k9s
# and printed on stdout. A cache hit takes no time; a cold build downloads k9s's modules and
# compiles them (minutes) in a temporary GOMODCACHE and GOCACHE, removed afterwards, so only
# the binary stays on disk. Never run by `cargo test`.
set -euo pipefail

VERSION=${K9S_VERSION:-v0.50.16}
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/ome-top-peers/k9s-$VERSION"
BIN="$CACHE/k9s"

if [ -x "$BIN" ] && [ -f "$CACHE/.complete" ]; then
  echo "$BIN"
  exit 0
fi
command -v go >/dev/null 2>&1 || {
  echo "benches/scale/k9s.sh: Go is not installed (needed to build k9s $VERSION)" >&2
  exit 1
}

WORK=$(mktemp -d "${TMPDIR:-/tmp}/ome-top-k9s.XXXXXX")
cleanup() {
  # Module files are read-only: `go clean -modcache` removes them.
  GOMODCACHE="$WORK/mod" go clean -modcache >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

mkdir -p "$CACHE"
echo "benches/scale/k9s.sh: building k9s $VERSION from the Go module proxy (minutes)" >&2
env GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-buildvcs=false \
  GOMODCACHE="$WORK/mod" GOCACHE="$WORK/cache" GOBIN="$WORK/bin" \
  go install -trimpath \
  -ldflags "-s -w -X github.com/derailed/k9s/cmd.version=$VERSION" \
  "github.com/derailed/k9s@$VERSION" >&2
mv "$WORK/bin/k9s" "$BIN"
touch "$CACHE/.complete"
echo "$BIN"
