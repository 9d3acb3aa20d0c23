#!/bin/sh
# Creates Temporal's two PostgreSQL databases and brings their schemas up to date; every step
# is a no-op on a database that is already set up, so the stack restarts on its volume.
set -eu

: "${SQL_HOST:?SQL_HOST names the PostgreSQL host}"
SCHEMA=/etc/temporal/schema/postgresql/v12

until nc -z "$SQL_HOST" "${SQL_PORT:-5432}"; do
  echo "waiting for PostgreSQL at $SQL_HOST:${SQL_PORT:-5432}"
  sleep 1
done

for db in temporal temporal_visibility; do
  dir=temporal
  [ "$db" = temporal_visibility ] && dir=visibility
  temporal-sql-tool --db "$db" create
  temporal-sql-tool --db "$db" setup-schema -v 0.0
  temporal-sql-tool --db "$db" update-schema -d "$SCHEMA/$dir/versioned"
done
echo "Temporal schemas ready"
