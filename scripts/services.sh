#!/usr/bin/env bash
# Makes sure the servers the integration tests talk to are up on loopback: PostgreSQL (5432),
# MariaDB (3306, for the mysql connector) and Redis (6379). Starts any that is installed but
# stopped, waits until it accepts connections, and fails with a clear message otherwise.
set -uo pipefail

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

wait_for() { # name port seconds
  local i
  for ((i = 0; i < $3 * 5; i++)); do
    port_open "$2" && return 0
    sleep 0.2
  done
  return 1
}

ensure() { # name port binary start-command...
  local name="$1" port="$2" binary="$3"
  shift 3
  if port_open "$port"; then
    echo "services: $name is up on 127.0.0.1:$port"
    return 0
  fi
  if ! command -v "$binary" >/dev/null 2>&1 && [ ! -x "$binary" ]; then
    echo "services: $name is not running on 127.0.0.1:$port and is not installed ($binary not found)." >&2
    echo "          The integration tests need it; install it (Debian: see CONTRIBUTING.md) and retry." >&2
    return 1
  fi
  echo "services: starting $name ..."
  if ! "$@" >/tmp/svc-services-"$name".log 2>&1; then
    echo "services: could not start $name; its output:" >&2
    cat /tmp/svc-services-"$name".log >&2
    return 1
  fi
  if ! wait_for "$name" "$port" 30; then
    echo "services: $name did not accept connections on 127.0.0.1:$port within 30 s" >&2
    return 1
  fi
  echo "services: $name is up on 127.0.0.1:$port"
}

start_postgres() {
  local version
  version=$(ls /etc/postgresql 2>/dev/null | sort -V | tail -1)
  [ -n "$version" ] || { echo "no cluster under /etc/postgresql" >&2; return 1; }
  pg_ctlcluster --skip-systemctl-redirect "$version" main start
}

start_redis() {
  mkdir -p /var/lib/redis /var/log/redis
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log
}

start_mariadb() {
  start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd
}

status=0
ensure postgresql 5432 pg_ctlcluster start_postgres || status=1
ensure mariadb 3306 /usr/sbin/mariadbd start_mariadb || status=1
ensure redis 6379 redis-server start_redis || status=1
exit $status
