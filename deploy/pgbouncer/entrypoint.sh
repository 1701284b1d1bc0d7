#!/bin/sh
# Writes PgBouncer's configuration from the environment, then runs it (compose.yaml).
# Transaction pooling in front of PostgreSQL, two databases:
#   caserne       every write and every read that must see it (DATABASE_URL)
#   caserne_read  the public reads (DATABASE_READ_URL): its server connections are
#                 read-only; READ_HOST names a streaming replica to take them off the
#                 primary (the same server by default).
# tests/store/test_behind_pgbouncer.py runs Caserne behind the same pool mode and databases.
set -eu
: "${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD}"
primary="${PRIMARY_HOST:-postgres}"
replica="${READ_HOST:-$primary}"
server="port=5432 dbname=caserne user=caserne password=${POSTGRES_PASSWORD}"
umask 077
mkdir -p /tmp/pgbouncer
printf '"caserne" "%s"\n' "$POSTGRES_PASSWORD" > /tmp/pgbouncer/userlist.txt
cat > /tmp/pgbouncer/pgbouncer.ini <<INI
[databases]
caserne = host=${primary} ${server}
caserne_read = host=${replica} ${server} connect_query='SET default_transaction_read_only = on'

[pgbouncer]
listen_addr = 0.0.0.0
listen_port = 6432
unix_socket_dir =
auth_type = scram-sha-256
auth_file = /tmp/pgbouncer/userlist.txt
pool_mode = transaction
; Clients: 2 app processes x 2 databases x (DATABASE_POOL_SIZE + DATABASE_MAX_OVERFLOW).
max_client_conn = 400
; Server connections per database: keep 2 x this under PostgreSQL's max_connections.
default_pool_size = ${DEFAULT_POOL_SIZE:-20}
INI
exec pgbouncer /tmp/pgbouncer/pgbouncer.ini
