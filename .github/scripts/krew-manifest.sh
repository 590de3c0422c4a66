#!/usr/bin/env bash
# Fills deploy/krew/ome-top.yaml for one release and prints it: `{{ .TagName }}` becomes the
# tag, `{{ .Repository }}` the GitHub owner/name, and each `{{ .Sha256 TARGET }}` the digest
# in DIST_DIR/ome-top-<tag>-TARGET.tar.gz.sha256 (written by package.sh). Fails when a digest
# is missing or a placeholder is left. The result has no comments.
#
#   .github/scripts/krew-manifest.sh TAG REPOSITORY DIST_DIR > ome-top.yaml
set -euo pipefail
tag=$1 repository=$2 dist=$3
here=$(cd "$(dirname "$0")/../.." && pwd)
# The template's comments (which name the placeholders) are left out.
text=$(grep -v '^#' "$here/deploy/krew/ome-top.yaml")
for target in $(grep -o '{{ .Sha256 [a-z0-9_-]* }}' <<<"$text" | awk '{print $3}' | sort -u); do
  file="$dist/ome-top-${tag}-${target}.tar.gz.sha256"
  [[ -s $file ]] || { echo "krew-manifest: no digest for $target ($file)" >&2; exit 1; }
  text=${text//"{{ .Sha256 $target }}"/$(tr -d ' \n' < "$file")}
done
text=${text//"{{ .TagName }}"/$tag}
text=${text//"{{ .Repository }}"/$repository}
if grep -q '{{' <<<"$text"; then
  echo "krew-manifest: a placeholder is left" >&2
  exit 1
fi
printf '%s\n' "$text"
