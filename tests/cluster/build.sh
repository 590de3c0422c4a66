#!/usr/bin/env bash
# Builds the real Kubernetes test control plane used by ome-top's integration tests:
# etcd, kube-apiserver, kube-controller-manager, kube-scheduler and kwok, from the three
# wrapper Go modules next to this script (see docs in tests/support/cluster.rs).
#
# Idempotent. The output is keyed by a stamp (sha256 of the wrapper go.mod/go.sum files,
# this script and `go version`):
#   ${CARGO_TARGET_DIR:-target}/testcluster/$STAMP/bin   the binaries + kwok stage files
#   ${CARGO_TARGET_DIR:-target}/testcluster/bin          symlink to the current stamp
#   ${XDG_CACHE_HOME:-$HOME/.cache}/ome-top-testcluster/$STAMP/bin
#                                                        a copy reused by fresh clones (CI)
# A cold build takes minutes (docs/performance.md, *Build and test times*); a cache hit takes a second.
# Go's own caches (GOMODCACHE, GOCACHE) stay at their $HOME defaults on purpose: module
# files are read-only and would break `cargo clean` if they lived under target/.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
KUBE_VERSION=v1.36.3
BINARIES=(etcd kube-apiserver kube-controller-manager kube-scheduler kwok)
STAGES=(
  node/fast/node-initialize.yaml
  node/heartbeat-with-lease/node-heartbeat-with-lease.yaml
  pod/fast/pod-ready.yaml
  pod/fast/pod-complete.yaml
  pod/fast/pod-delete.yaml
)

die() {
  echo "tests/cluster/build.sh: $*" >&2
  exit 1
}

if ! command -v go >/dev/null 2>&1; then
  die "Go is not installed. Install Go >= 1.26 to build the test control plane (kube-apiserver, etcd, kube-scheduler, kwok) that \`cargo test\` runs against; see README.md."
fi
export GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-mod=readonly
GO_VERSION=$(go env GOVERSION)
GO_MINOR=$(echo "$GO_VERSION" | sed -n 's/^go1\.\([0-9]*\).*/\1/p')
if [ -z "$GO_MINOR" ] || [ "$GO_MINOR" -lt 26 ]; then
  die "found $GO_VERSION; install Go >= 1.26 to build the test control plane."
fi

STAMP=$(
  cd "$HERE"
  {
    cat kube/go.mod kube/go.sum etcd/go.mod etcd/go.sum kwok/go.mod kwok/go.sum build.sh
    go version
  } | sha256sum | cut -c1-16
)
TARGET=${CARGO_TARGET_DIR:-target}
case "$TARGET" in /*) ;; *) TARGET="$ROOT/$TARGET" ;; esac
OUT="$TARGET/testcluster/$STAMP/bin"
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/ome-top-testcluster/$STAMP/bin"

# A bin dir counts only once it carries the marker written after every file is in place.
complete() { [ -f "$1/.complete" ]; }

link_current() {
  ln -sfn "$STAMP/bin" "$TARGET/testcluster/bin.tmp.$$"
  mv -T "$TARGET/testcluster/bin.tmp.$$" "$TARGET/testcluster/bin"
  echo "test control plane: $TARGET/testcluster/bin -> $OUT"
}

# Copies a finished bin dir atomically (hard links when on one filesystem).
install_copy() {
  local from=$1 to=$2 tmp
  mkdir -p "$(dirname "$to")"
  tmp="$to.tmp.$$"
  rm -rf "$tmp"
  cp -al "$from" "$tmp" 2>/dev/null || cp -a "$from" "$tmp"
  rm -rf "$to"
  mv -T "$tmp" "$to"
}

mkdir -p "$TARGET/testcluster"
if complete "$OUT"; then
  link_current
  exit 0
fi
if complete "$CACHE"; then
  echo "test control plane: reusing $CACHE"
  install_copy "$CACHE" "$OUT"
  link_current
  exit 0
fi

echo "test control plane: building stamp $STAMP with $GO_VERSION (cold: 20-30 min on 2 cores)"
START=$(date +%s)
WORK="$TARGET/testcluster/$STAMP/bin.build.$$"
rm -rf "$WORK"
mkdir -p "$WORK/kwok-stages"
# Go's scratch space (object files before linking) takes GBs; put it on tmpfs when there is
# one, so a nearly full disk fails less often (it did once while building kube-apiserver).
if [ -z "${GOTMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then
  GOTMPDIR=$(mktemp -d /dev/shm/ome-top-gotmp.XXXXXX)
  export GOTMPDIR
  trap 'rm -rf "$WORK" "$GOTMPDIR"' EXIT
else
  trap 'rm -rf "$WORK"' EXIT
fi

(
  cd "$HERE/etcd"
  echo "== etcd"
  go build -trimpath -ldflags "-s -w" -o "$WORK/etcd" go.etcd.io/etcd/server/v3
)
(
  cd "$HERE/kwok"
  echo "== kwok"
  go build -trimpath -ldflags "-s -w" -o "$WORK/kwok" sigs.k8s.io/kwok/cmd/kwok
  KWOK_DIR=$(go list -m -f '{{.Dir}}' sigs.k8s.io/kwok)
  for stage in "${STAGES[@]}"; do
    cp "$KWOK_DIR/kustomize/stage/$stage" "$WORK/kwok-stages/$(basename "$stage")"
  done
  chmod u+w "$WORK"/kwok-stages/*
)
(
  cd "$HERE/kube"
  echo "== kube-apiserver, kube-controller-manager, kube-scheduler"
  MINOR=$(echo "$KUBE_VERSION" | cut -d. -f2)
  go build -trimpath -o "$WORK/" -ldflags "-s -w \
    -X k8s.io/component-base/version.gitVersion=$KUBE_VERSION \
    -X k8s.io/component-base/version.gitMajor=1 \
    -X k8s.io/component-base/version.gitMinor=$MINOR \
    -X k8s.io/component-base/version.gitTreeState=clean \
    -X k8s.io/client-go/pkg/version.gitVersion=$KUBE_VERSION" \
    k8s.io/kubernetes/cmd/kube-apiserver \
    k8s.io/kubernetes/cmd/kube-controller-manager \
    k8s.io/kubernetes/cmd/kube-scheduler
)
for b in "${BINARIES[@]}"; do
  [ -x "$WORK/$b" ] || die "the build did not produce $b"
done
echo "$STAMP built with $GO_VERSION in $(($(date +%s) - START))s" >"$WORK/.complete"

rm -rf "$OUT"
mv -T "$WORK" "$OUT"
install_copy "$OUT" "$CACHE"
link_current
echo "test control plane: built in $(($(date +%s) - START))s"
