#!/usr/bin/env bash
# A PostgreSQL server for the tests: prints its admin URL (a database in
# which the user may create schemas; each test makes a schema of its own).
#
#   url=$(scripts/postgres.sh)   # run: prints the URL on stdout
#   . scripts/postgres.sh        # sourced: exports WAKEFUL_TEST_POSTGRES
#   scripts/postgres.sh stop     # stops the throwaway cluster, if running
#
# Where the server comes from, first that works:
#   1. WAKEFUL_TEST_POSTGRES, when set (it must answer: no fallback, so a
#      typo is never hidden by another server);
#   2. the server on 127.0.0.1:5432 (user postgres, database test, trust
#      auth), unless WAKEFUL_TEST_POSTGRES_NO_DEFAULT=1;
#   3. a throwaway cluster in target/pg-test-cluster on a free loopback port,
#      made with initdb (installing Debian's postgresql first when the
#      binaries are missing and we are root). A later call reuses it.
# With none of these it fails, saying how to get a server: the PostgreSQL
# pass of the tests is never skipped silently.

wakeful_test_postgres() (
    set -euo pipefail
    local repo cluster
    repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
    cluster="$repo/target/pg-test-cluster"

    say() { echo "postgres.sh: $*" >&2; }

    give_up() {
        say "$1"
        cat >&2 <<'EOF'
postgres.sh: the tests need a PostgreSQL server. Either
  - point them at one: export WAKEFUL_TEST_POSTGRES=postgres://USER@HOST:PORT/DATABASE
    (USER may create schemas in DATABASE; each test makes and drops its own), or
  - install PostgreSQL (Debian/Ubuntu: apt-get install postgresql) so that this
    script can start a throwaway cluster in target/pg-test-cluster.
EOF
        exit 1
    }

    # The directory holding initdb, pg_ctl and psql: on PATH, else the
    # newest of Debian's versioned directories (its PATH has wrappers only).
    pg_bindir() {
        local d
        if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
            dirname "$(readlink -f "$(command -v initdb)")"
            return
        fi
        d=$(printf '%s\n' /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
        [[ -n $d && -x $d/initdb ]] && echo "$d"
    }

    # A client program (psql, pg_isready): the server's own, else PATH's.
    client() {
        local bin
        bin=$(pg_bindir || true)
        if [[ -n $bin && -x $bin/$1 ]]; then
            echo "$bin/$1"
        elif command -v "$1" >/dev/null 2>&1; then
            command -v "$1"
        fi
    }

    # Whether `url` takes a real connection: psql when there is one, else
    # pg_isready (which only sees that the server accepts connections; the
    # tests then fail on connect if the user or database is wrong).
    answers() {
        local url=$1 psql isready
        psql=$(client psql)
        if [[ -n $psql ]]; then
            "$psql" -X -q -t -A -c 'SELECT 1' "$url" >/dev/null 2>&1
            return
        fi
        isready=$(client pg_isready)
        if [[ -n $isready ]]; then
            "$isready" -q -d "$url" >/dev/null 2>&1
            return
        fi
        # No client at all: a TCP probe of host:port, nothing more.
        local hostport=${url#*://}
        hostport=${hostport#*@}
        hostport=${hostport%%/*}
        local host=${hostport%:*} port=${hostport##*:}
        [[ $host == "$port" ]] && port=5432
        (exec 3<>"/dev/tcp/$host/$port") 2>/dev/null
    }

    # Prints `base`/test when that database answers, making it first when
    # only the server's `postgres` database does (and psql is there to).
    test_db_at() {
        local base=$1 psql
        if answers "$base/test"; then
            echo "$base/test"
            return
        fi
        psql=$(client psql)
        [[ -n $psql ]] && answers "$base/postgres" || return 1
        "$psql" -X -q -c 'CREATE DATABASE test' "$base/postgres" >/dev/null || return 1
        echo "$base/test"
    }

    # The unprivileged user that owns the throwaway cluster: initdb and the
    # server refuse to run as root.
    cluster_user() {
        if [[ $(id -u) -ne 0 ]]; then
            id -un
        elif id postgres >/dev/null 2>&1; then
            echo postgres
        else
            echo nobody
        fi
    }

    as_owner() {
        local user
        user=$(cluster_user)
        if [[ $(id -u) -ne 0 ]]; then
            "$@"
        elif command -v runuser >/dev/null 2>&1; then
            runuser -u "$user" -- "$@"
        else
            su -s /bin/sh "$user" -c "$(printf '%q ' "$@")"
        fi
    }

    free_port() {
        local port
        for _ in $(seq 1 50); do
            port=$((20000 + RANDOM % 20000))
            if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
                echo "$port"
                return
            fi
        done
        give_up "found no free loopback port for a throwaway cluster"
    }

    start_cluster() {
        local bin user port
        bin=$(pg_bindir || true)
        if [[ -z $bin ]]; then
            if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
                say "no PostgreSQL binaries; installing Debian's postgresql"
                apt-get update >&2
                DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql >&2
                bin=$(pg_bindir || true)
            fi
            [[ -n $bin ]] || give_up "no server answered, and initdb/pg_ctl were not found (nor under /usr/lib/postgresql/*/bin)"
        fi
        user=$(cluster_user)

        # Reuse the cluster an earlier call started.
        if [[ -f $cluster/port ]] && as_owner "$bin/pg_ctl" status -D "$cluster/data" >/dev/null 2>&1; then
            if test_db_at "postgres://postgres@127.0.0.1:$(cat "$cluster/port")"; then
                return
            fi
        fi

        if [[ ! -f $cluster/data/PG_VERSION ]]; then
            say "creating a throwaway cluster in $cluster (owned by $user)"
            rm -rf "$cluster"
            mkdir -p "$cluster/data"
            chown -R "$user" "$cluster"
            chmod 700 "$cluster/data"
            as_owner "$bin/initdb" -D "$cluster/data" -U postgres --auth=trust \
                --encoding=UTF8 --no-locale >"$cluster/initdb.log" 2>&1 ||
                { cat "$cluster/initdb.log" >&2; give_up "initdb failed"; }
            # Loopback TCP only (no Unix socket, so no socket directory to
            # own), and no waiting on the disk: the cluster is thrown away.
            cat >>"$cluster/data/postgresql.conf" <<'EOF'
listen_addresses = '127.0.0.1'
unix_socket_directories = ''
fsync = off
synchronous_commit = off
full_page_writes = off
max_connections = 300
EOF
        fi

        [[ $(id -u) -ne 0 ]] || chown -R "$user" "$cluster"
        # An unclean stop (the machine restarted) leaves a stale pid file
        # that pg_ctl handles; another port is taken if ours was taken.
        for _ in 1 2 3; do
            port=$(free_port)
            if as_owner "$bin/pg_ctl" start -w -t 60 -D "$cluster/data" \
                -l "$cluster/server.log" -o "-p $port" >/dev/null 2>&1; then
                echo "$port" >"$cluster/port"
                say "started a throwaway cluster on 127.0.0.1:$port (scripts/postgres.sh stop stops it)"
                test_db_at "postgres://postgres@127.0.0.1:$port" && return
                give_up "the throwaway cluster on 127.0.0.1:$port started but database test could not be made"
            fi
        done
        tail -n 20 "$cluster/server.log" >&2 || true
        give_up "the throwaway cluster in $cluster did not start"
    }

    if [[ ${1:-} == stop ]]; then
        local bin
        bin=$(pg_bindir || true)
        if [[ -n $bin && -f $cluster/data/PG_VERSION ]] &&
            as_owner "$bin/pg_ctl" status -D "$cluster/data" >/dev/null 2>&1; then
            as_owner "$bin/pg_ctl" stop -m fast -D "$cluster/data" >&2
        else
            say "no throwaway cluster is running"
        fi
        return 0
    fi

    if [[ -n ${WAKEFUL_TEST_POSTGRES:-} ]]; then
        answers "$WAKEFUL_TEST_POSTGRES" ||
            give_up "WAKEFUL_TEST_POSTGRES=$WAKEFUL_TEST_POSTGRES does not answer"
        echo "$WAKEFUL_TEST_POSTGRES"
        return
    fi

    if [[ ${WAKEFUL_TEST_POSTGRES_NO_DEFAULT:-} != 1 ]]; then
        test_db_at postgres://postgres@127.0.0.1:5432 && return
    fi

    start_cluster
)

if [[ ${BASH_SOURCE[0]} != "$0" ]]; then
    # Sourced: export the URL, or fail the caller's `set -e`.
    WAKEFUL_TEST_POSTGRES=$(wakeful_test_postgres) && export WAKEFUL_TEST_POSTGRES
else
    wakeful_test_postgres "$@"
fi
