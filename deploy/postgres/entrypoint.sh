#!/bin/sh
# Create the cluster on the first start (empty volume), then run PostgreSQL in the foreground.
set -eu
: "${POSTGRES_USER:=crawler}" "${POSTGRES_DB:=opinion}"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
    if [ -z "${POSTGRES_PASSWORD:-}" ]; then
        echo "postgres: set POSTGRES_PASSWORD for the first start (it creates the cluster)" >&2
        exit 1
    fi
    password_file=$(mktemp)
    printf '%s\n' "$POSTGRES_PASSWORD" > "$password_file"
    initdb -D "$PGDATA" -U "$POSTGRES_USER" --pwfile="$password_file" -E UTF8 --locale=C.UTF-8 \
        --auth-local=trust --auth-host=scram-sha-256 >/dev/null
    rm -f "$password_file"
    echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
    echo "CREATE DATABASE \"$POSTGRES_DB\" OWNER \"$POSTGRES_USER\";" \
        | postgres --single -D "$PGDATA" postgres >/dev/null
    echo "postgres: created the cluster with database $POSTGRES_DB of $POSTGRES_USER"
fi
exec postgres -D "$PGDATA" -c listen_addresses='*' "$@"
