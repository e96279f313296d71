#!/usr/bin/env bash
# Build the stack's images (`make images`): the application, PostgreSQL, Redis and Prometheus
# (the optional metrics profile), all on one Debian bookworm base.
# Needs root on a machine without Docker (it installs and starts it).
#
#   BASE=opinion-crawler/debian:bookworm (default): the base is made here from Debian's
#       packages with debootstrap and `docker import`: no image registry is needed.
#   BASE=debian:bookworm-slim (or python:3.11-slim): the usual public image, pulled.
#
# Layers are cached: a second run with unchanged dependencies takes seconds. CA certificates
# this machine trusts locally (/usr/local/share/ca-certificates/*.crt, e.g. a TLS-inspecting
# proxy's) are trusted by the builds too, so pip reaches PyPI through such a proxy.
set -euo pipefail
cd "$(dirname "$0")/.."

BASE=${BASE:-opinion-crawler/debian:bookworm}
LOCAL_BASE=opinion-crawler/debian:bookworm
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
LABEL=org.opencontainers.image.vendor=opinion-crawler
rootfs=
cleanup() {
    rm -f deploy/ca/*.crt
    if [ -n "$rootfs" ]; then
        umount "$rootfs/proc" 2>/dev/null || true
        rm -rf --one-file-system "$rootfs"
    fi
}
trap cleanup EXIT
export DOCKER_BUILDKIT=0  # the classic builder: the same on Debian's docker.io 20.10 and newer

need_packages=()
# The daemon too: a machine may have a Docker client alone (a static `docker` in /usr/local/bin).
{ command -v docker && command -v dockerd; } >/dev/null || need_packages+=(docker.io)
# A Compose of the system's (var/compose-v2, `make compose-v2`, is one checkout's, for shells that
# export DOCKER_CONFIG): Debian's docker-compose when there is none.
command -v docker-compose >/dev/null || env -u DOCKER_CONFIG docker compose version >/dev/null 2>&1 \
    || need_packages+=(docker-compose)
[ "$BASE" != "$LOCAL_BASE" ] || command -v debootstrap >/dev/null \
    || [ -x /usr/sbin/debootstrap ] || need_packages+=(debootstrap)
if [ ${#need_packages[@]} -gt 0 ]; then
    echo "installing ${need_packages[*]} (apt)"
    DEBIAN_FRONTEND=noninteractive apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need_packages[@]}"
fi

if ! docker info >/dev/null 2>&1; then
    echo "starting dockerd (log: /var/log/dockerd.log)"
    # In its own session, with none of this shell's open files: a lock a caller holds on an
    # inherited descriptor (a test's flock) would otherwise be held as long as the daemon runs.
    (
        for fd in /proc/$BASHPID/fd/*; do
            fd=${fd##*/}
            [ "$fd" -gt 2 ] && eval "exec $fd>&-"
        done
        exec setsid dockerd >/var/log/dockerd.log 2>&1 < /dev/null
    ) &
    for _ in $(seq 60); do docker info >/dev/null 2>&1 && break; sleep 1; done
    docker info >/dev/null 2>&1 || { echo "dockerd did not start: /var/log/dockerd.log" >&2; exit 1; }
fi

if [ "$BASE" = "$LOCAL_BASE" ] && ! docker image inspect "$LOCAL_BASE" >/dev/null 2>&1; then
    echo "building $LOCAL_BASE with debootstrap (once; a few minutes)"
    rootfs=$(mktemp -d)
    [ -d "$rootfs" ] && [ "$rootfs" != / ] || exit 1
    PATH=$PATH:/usr/sbin debootstrap --variant=minbase bookworm "$rootfs" "$MIRROR"
    cat > "$rootfs/etc/apt/sources.list" <<EOF
deb $MIRROR bookworm main
deb $MIRROR bookworm-updates main
deb ${MIRROR%/debian}/debian-security bookworm-security main
EOF
    # As Debian's own container images: no package cache, documentation or translations.
    printf '%s\n' \
        'DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/*.bin || true"; };' \
        'APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/*.bin || true"; };' \
        'Dir::Cache::pkgcache ""; Dir::Cache::srcpkgcache "";' \
        > "$rootfs/etc/apt/apt.conf.d/docker-clean"
    printf '%s\n' 'path-exclude /usr/share/doc/*' 'path-include /usr/share/doc/*/copyright' \
        'path-exclude /usr/share/man/*' 'path-exclude /usr/share/info/*' \
        'path-exclude /usr/share/locale/*' > "$rootfs/etc/dpkg/dpkg.cfg.d/docker-slim"
    find "$rootfs/usr/share/doc" -mindepth 2 ! -name copyright ! -type d -delete
    rm -rf "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* "$rootfs"/usr/share/locale/*
    # The security and point-release updates, once here rather than in every image.
    mount -t proc proc "$rootfs/proc"
    chroot "$rootfs" sh -c 'apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get upgrade -y -q'
    umount "$rootfs/proc"
    rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
    tar -C "$rootfs" -c . | docker import --change 'CMD ["bash"]' \
        --change "LABEL $LABEL" - "$LOCAL_BASE"
fi

cp /usr/local/share/ca-certificates/*.crt deploy/ca/ 2>/dev/null || true

build() {  # build NAME DOCKERFILE
    docker build --build-arg "BASE=$BASE" --label "$LABEL" -t "opinion-crawler/$1" -f "$2" .
}
build app:latest Dockerfile
build postgres:15 deploy/postgres/Dockerfile
build redis:7 deploy/redis/Dockerfile
build prometheus:2 deploy/prometheus/Dockerfile
# Images a rebuild replaced (and their layers) go; the cache of the current ones stays.
docker image prune -f --filter "label=$LABEL" >/dev/null
