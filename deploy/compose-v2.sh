#!/usr/bin/env bash
# Compose v2 (`docker compose`) without an image registry or a download site (`make compose-v2`):
# Debian trixie's `docker-compose` package (the Go CLI plugin), fetched by apt from a list of
# trixie's packages kept apart from the system's, unpacked into var/compose-v2/cli-plugins.
# Nothing of the system changes (bookworm's docker-compose 1.29 stays as it is); a shell uses it
# with
#
#   export DOCKER_CONFIG=$PWD/var/compose-v2   # then `docker compose version` says v2
#
# Needs apt and dpkg, not Docker (`make images` installs Docker). Run again, it keeps
# the installed plugin.
set -euo pipefail
cd "$(dirname "$0")/.."

DIR=var/compose-v2
PLUGIN=$DIR/cli-plugins/docker-compose
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

if [ -x "$PLUGIN" ] && "$PLUGIN" version >/dev/null 2>&1; then
    exit 0
fi

apt_dir=$(mktemp -d)
trap 'rm -rf "$apt_dir"' EXIT
mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache"
cat > "$apt_dir/sources.list" <<EOF
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $MIRROR trixie main
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] ${MIRROR%/debian}/debian-security trixie-security main
EOF
apt_options=(-q -o "Dir::Etc::SourceList=$apt_dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
             -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache"
             -o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache= -o Dir::State::status=/dev/null
             -o APT::Sandbox::User=root)
apt-get "${apt_options[@]}" update
(cd "$apt_dir" && apt-get "${apt_options[@]}" download docker-compose)
mkdir -p "$apt_dir/root" "$DIR/cli-plugins"
dpkg-deb -x "$apt_dir"/docker-compose_*.deb "$apt_dir/root"
install -m 755 "$apt_dir/root/usr/libexec/docker/cli-plugins/docker-compose" "$PLUGIN"
"$PLUGIN" version  # the plugin runs alone too, as `docker-compose`
