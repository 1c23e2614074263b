#!/usr/bin/env bash
# Builds the Containerfile's image where base images cannot be pulled: a Debian trixie root file system
# from Debian's archive (mmdebstrap, with Node, bubblewrap, ripgrep, git), imported as the base, then
# `podman build` on it. Needs root (or podman's rootless setup), podman and mmdebstrap
# (apt-get install podman mmdebstrap uidmap) and a built dist/ (npm run build:prod). Then, where podman can
# run containers, it runs `sextant --version` in the image. Not part of `npm test`: the first time it
# downloads ~100 MB from Debian's archive and takes minutes (the base is kept and reused).
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in podman mmdebstrap; do
  command -v "$tool" >/dev/null || { echo "container-image: $tool is missing (apt-get install $tool)" >&2; exit 2; }
done
test -f dist/cli.js || { echo 'container-image: build first (npm run build:prod)' >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The base once (it only changes with Debian's archive): SEXTANT_REBUILD_BASE=1 makes it again. The hooks do
# what the Containerfile's RUN step does for a registry's base (PREPARED=yes), so the build runs no container.
if [ -n "${SEXTANT_REBUILD_BASE:-}" ] || ! podman image exists localhost/sextant-base:trixie; then
  mmdebstrap --variant=minbase --include=nodejs,bubblewrap,ripgrep,git,ca-certificates,passwd \
    --customize-hook='chroot "$1" useradd --create-home --uid 1000 sextant' \
    --customize-hook='mkdir -p "$1/workspace" && chroot "$1" chown sextant /workspace' \
    --customize-hook='ln -s /opt/sextant/dist/cli.js "$1/usr/local/bin/sextant"' \
    --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*' \
    trixie "$work/rootfs.tar" http://deb.debian.org/debian
  podman import "$work/rootfs.tar" localhost/sextant-base:trixie
fi
podman build --build-arg BASE=localhost/sextant-base:trixie --build-arg PREPARED=yes \
  -t localhost/sextant:dev -f Containerfile .
echo "container-image: built localhost/sextant:dev ($(podman image inspect --format '{{.Size}}' localhost/sextant:dev) bytes)"
# Then run it: as podman runs by default, else with runc and resource limits the host lets a container set.
# On the firecracker sandboxes this was made on, crun refuses twice — setrlimit(RLIMIT_NOFILE/NPROC) "Operation
# not permitted" (podman's default limits are above the host's), and with limits the host allows, "cgroups in
# hybrid mode not supported" — while runc (apt-get install runc) with those limits runs the image.
limits=(--ulimit "nofile=$(ulimit -Sn):$(ulimit -Hn)" --ulimit "nproc=4096:4096")
if podman run --rm localhost/sextant:dev --version; then
  echo 'container-image: the image runs'
elif command -v runc >/dev/null && podman --runtime runc run --rm "${limits[@]}" localhost/sextant:dev --version; then
  echo "container-image: the image runs with: podman --runtime runc run ${limits[*]}"
else
  echo 'container-image: podman could not run the image here (see above); the build itself succeeded' >&2
fi
