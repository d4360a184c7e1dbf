# Source this file (bash): installs PostgreSQL from Debian's packages when missing, starts a
# throw-away cluster on 127.0.0.1 in a temp dir, creates a database, and exports
#   HALLUCHECK_TEST_PG_URL=postgresql+psycopg://postgres@127.0.0.1:<port>/hallucheck_test
# Stop it with `hallucheck_pg_stop` (also safe to leave to a trap: `trap hallucheck_pg_stop EXIT`).
# Needs root (apt-get; the server itself runs as the `postgres` user).

hallucheck_pg_setup() {
  local bin port dir
  if ! ls -d /usr/lib/postgresql/*/bin >/dev/null 2>&1; then
    echo "setup-postgres: installing postgresql from Debian" >&2
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 || return 1
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2 || return 1
  fi
  bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  dir=$(mktemp -d /tmp/hallucheck-pg.XXXXXX)
  chown postgres:postgres "$dir" && chmod 700 "$dir"
  runuser -u postgres -- "$bin/initdb" -D "$dir/data" -A trust -U postgres -E UTF8 --no-locale >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; return 1; }
  runuser -u postgres -- "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=on" start >&2 \
    || { cat "$dir/server.log" >&2; return 1; }
  runuser -u postgres -- "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres hallucheck_test || return 1
  export HALLUCHECK_TEST_PG_DIR="$dir"
  export HALLUCHECK_TEST_PG_BIN="$bin"
  export HALLUCHECK_TEST_PG_URL="postgresql+psycopg://postgres@127.0.0.1:$port/hallucheck_test"
  echo "setup-postgres: PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port ($dir)" >&2
}

hallucheck_pg_stop() {
  if [ -n "${HALLUCHECK_TEST_PG_DIR:-}" ] && [ -d "$HALLUCHECK_TEST_PG_DIR/data" ]; then
    runuser -u postgres -- "$HALLUCHECK_TEST_PG_BIN/pg_ctl" -D "$HALLUCHECK_TEST_PG_DIR/data" -m fast -w stop >/dev/null 2>&1
    rm -rf "$HALLUCHECK_TEST_PG_DIR"
    unset HALLUCHECK_TEST_PG_DIR HALLUCHECK_TEST_PG_URL
  fi
}

hallucheck_pg_setup
