#!/usr/bin/env bash
# `npm run cluster [-- up|down|status|kill-node N|restart-node N|kill-api N|restart-api N|wipe]`: a real
# topology on loopback: three MariaDB Galera nodes, Redis, an S3-protocol file store (s3rver), two API nodes
# (DASHBOARD=off) and one dashboard node behind HAProxy. State (datadirs, logs, pids) lives in CLUSTER_DIR (default .cluster/ in the repo).
# The machine's own MariaDB (3306) is left alone: every node has its own config file, datadir and socket.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
DIR="${CLUSTER_DIR:-$ROOT/.cluster}"
mkdir -p "$DIR" && DIR="$(cd "$DIR" && pwd)"
SQL_PORTS=(3311 3312 3313)
GROUP_PORTS=(4571 4572 4573)
SST_PORTS=(4581 4582 4583)
IST_PORTS=(4591 4592 4593)
LB_PORT="${CLUSTER_LB_PORT:-3320}"
API_PORTS=(3331 3332)
DASH_PORT=3333
# The file store every app node shares (API_NODES=2 refuses a local folder).
S3_PORT="${CLUSTER_S3_PORT:-3340}"
S3_BUCKET_NAME=tabula-files
# CLUSTER_DASHBOARD=0 leaves the dashboard node out (no Next build; the cluster suite does this).
WITH_DASHBOARD="${CLUSTER_DASHBOARD:-1}"
META="${CLUSTER_META:-tabula}"
MYSQL_USER="$(id -un)"
[ "$(id -u)" = 0 ] && MYSQL_USER=mysql

log() { echo "cluster: $*" >&2; }
alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }
sql() { mariadb -h127.0.0.1 -P"${SQL_PORTS[$1]}" -uroot -N -B -e "$2" 2>/dev/null; }

ensure_packages() {
  local missing=()
  [ -x /usr/sbin/mariadbd ] || missing+=(mariadb-server)
  [ -f /usr/lib/galera/libgalera_smm.so ] || missing+=(galera-4)
  command -v rsync >/dev/null || missing+=(rsync)
  command -v haproxy >/dev/null || [ -x /usr/sbin/haproxy ] || missing+=(haproxy)
  command -v redis-server >/dev/null || missing+=(redis-server)
  [ ${#missing[@]} -eq 0 ] && return
  log "installing ${missing[*]}"
  local sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}

node_conf() { # $1 = index 0..2
  local i=$1 n=$(($1 + 1)) d="$DIR/node$(($1 + 1))"
  cat >"$d.cnf" <<EOF
[mariadbd]
datadir=$d/data
socket=$d/mysqld.sock
pid-file=$d/mysqld.pid
log-error=$d/error.log
port=${SQL_PORTS[$i]}
bind-address=127.0.0.1
user=$MYSQL_USER
skip-name-resolve
binlog_format=ROW
default_storage_engine=InnoDB
innodb_autoinc_lock_mode=2
innodb_buffer_pool_size=64M
innodb_log_file_size=48M
performance_schema=OFF
max_connections=200
wsrep_on=ON
wsrep_provider=/usr/lib/galera/libgalera_smm.so
wsrep_cluster_name=tabula_cluster
wsrep_cluster_address=gcomm://127.0.0.1:${GROUP_PORTS[0]},127.0.0.1:${GROUP_PORTS[1]},127.0.0.1:${GROUP_PORTS[2]}
wsrep_node_name=node$n
wsrep_node_address=127.0.0.1:${GROUP_PORTS[$i]}
wsrep_provider_options="gmcast.listen_addr=tcp://127.0.0.1:${GROUP_PORTS[$i]};ist.recv_addr=127.0.0.1:${IST_PORTS[$i]};gcache.size=64M"
wsrep_sst_method=rsync
wsrep_sst_receive_address=127.0.0.1:${SST_PORTS[$i]}
EOF
}

init_node() {
  local d="$DIR/node$(($1 + 1))"
  [ -d "$d/data/mysql" ] && return
  mkdir -p "$d/data"
  node_conf "$1"
  chown -R "$MYSQL_USER" "$d"
  mariadb-install-db --defaults-file="$d.cnf" --auth-root-authentication-method=normal >"$d/install.log" 2>&1
}

wait_synced() { # $1 = index, $2 = seconds, $3 = the server's pid
  local deadline=$((SECONDS + $2))
  while [ $SECONDS -lt $deadline ]; do
    [ "$(sql "$1" "SHOW STATUS LIKE 'wsrep_local_state_comment'" | cut -f2)" = Synced ] && return 0
    kill -0 "$3" 2>/dev/null || { log "node $(($1 + 1)) exited; see $DIR/node$(($1 + 1))/error.log"; return 1; }
    sleep 0.3
  done
  log "node $(($1 + 1)) not Synced within $2 s"; return 1
}

start_node() { # $1 = index, then extra mariadbd flags
  local i=$1; shift
  local d="$DIR/node$((i + 1))"
  alive "$d/mysqld.pid" && return
  node_conf "$i"
  /usr/sbin/mariadbd --defaults-file="$d.cnf" "$@" >>"$d/stdout.log" 2>&1 </dev/null &
  wait_synced "$i" 90 $!
}

# A node killed with -9 rejoins by incremental transfer when started at the position it recovers.
recovered_position() {
  local d="$DIR/node$(($1 + 1))"
  /usr/sbin/mariadbd --defaults-file="$d.cnf" --wsrep-recover --log-error="$d/recover.log" >/dev/null 2>&1 || true
  sed -n 's/.*Recovered position: *\([^ ]*\).*/\1/p' "$d/recover.log" | tail -1
}

restart_node() {
  local i=$(($1 - 1)) d="$DIR/node$1" pos
  alive "$d/mysqld.pid" && { log "node $1 is running"; return; }
  rm -f "$d/recover.log"
  pos="$(recovered_position "$i")"
  log "node $1: restarting at ${pos:-its saved state}"
  if [ -n "$pos" ]; then start_node "$i" --wsrep-start-position="$pos"; else start_node "$i"; fi
}

# The first node found safe to bootstrap (the last one stopped) starts the cluster; a fresh one on first start.
bootstrap_index() {
  local i
  for i in 0 1 2; do
    grep -q '^safe_to_bootstrap: *1' "$DIR/node$((i + 1))/data/grastate.dat" 2>/dev/null && { echo "$i"; return; }
  done
  for i in 0 1 2; do [ -f "$DIR/node$((i + 1))/data/grastate.dat" ] || { echo 0; return; }; done
  # All were killed: the node with the highest recovered seqno goes first.
  local best=0 best_seq=-2 seq
  for i in 0 1 2; do
    seq="$(recovered_position "$i" | sed 's/.*://')"
    [ "${seq:--1}" -gt "$best_seq" ] && { best=$i; best_seq=${seq:--1}; }
  done
  sed -i 's/^safe_to_bootstrap: *0/safe_to_bootstrap: 1/' "$DIR/node$((best + 1))/data/grastate.dat"
  echo "$best"
}

start_galera() {
  local first i
  for i in 0 1 2; do init_node "$i"; done
  first="$(bootstrap_index)"
  log "starting Galera node $((first + 1)) (new cluster)"
  start_node "$first" --wsrep-new-cluster
  sql "$first" "CREATE USER IF NOT EXISTS 'root'@'127.0.0.1' IDENTIFIED BY ''; GRANT ALL ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION;" || true
  for i in 0 1 2; do
    [ "$i" = "$first" ] && continue
    log "starting Galera node $((i + 1))"
    start_node "$i"
  done
}

start_redis() {
  if redis-cli -p 6379 ping >/dev/null 2>&1; then echo "redis://127.0.0.1:6379"; return; fi
  alive "$DIR/redis.pid" || redis-server --port 3390 --bind 127.0.0.1 --save "" --daemonize yes --pidfile "$DIR/redis.pid" --logfile "$DIR/redis.log" >/dev/null
  echo "redis://127.0.0.1:3390"
}

# s3rver over $DIR/s3 on loopback: the cluster's files, kept between `up`s like the Galera datadirs.
start_s3() {
  alive "$DIR/s3.pid" && return
  (cd "$ROOT" && exec node --import tsx scripts/local-s3.ts "$DIR/s3" "$S3_PORT" "$S3_BUCKET_NAME") >>"$DIR/s3.log" 2>&1 </dev/null &
  echo $! >"$DIR/s3.pid"
  local deadline=$((SECONDS + 60))
  until [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$S3_PORT/$S3_BUCKET_NAME")" != 000 ]; do
    [ $SECONDS -lt $deadline ] || { log "the S3 store did not start (see $DIR/s3.log)"; return 1; }
    sleep 0.3
  done
}

# API node n (1, 2) talks to Galera node n; the dashboard node to node 3. All keep files in the one S3 store.
start_app() { # $1 = name, $2 = port, $3 = Galera index, $4 = dashboard on|off
  local name=$1 port=$2
  alive "$DIR/$name.pid" && return
  mkdir -p "$DIR/$name"
  local entry=(--import tsx server.ts)
  [ "$4" = on ] && entry=(bin/start.mjs)
  (cd "$ROOT" && exec env NODE_ENV=production DASHBOARD="$4" HOST=127.0.0.1 PORT="$port" DATA_DIR="$DIR/$name" \
    DATABASE_URL="mysql://root@127.0.0.1:${SQL_PORTS[$3]}/$META" REDIS_URL="$REDIS_URL" TABULA_SECRET="$(cat "$DIR/secret")" \
    NEXTAUTH_URL="http://127.0.0.1:$LB_PORT" NEXTAUTH_SECRET="$(cat "$DIR/secret")" \
    API_NODES=2 S3_BUCKET="$S3_BUCKET_NAME" S3_ENDPOINT="http://127.0.0.1:$S3_PORT" S3_REGION=us-east-1 \
    S3_ACCESS_KEY_ID=S3RVER S3_SECRET_ACCESS_KEY=S3RVER S3_FORCE_PATH_STYLE=1 \
    node "${entry[@]}") >>"$DIR/$name.log" 2>&1 </dev/null &
  echo $! >"$DIR/$name.pid"
}

wait_http() { # $1 = url, $2 = seconds
  local deadline=$((SECONDS + $2))
  until curl -fs -o /dev/null "$1"; do
    [ $SECONDS -lt $deadline ] || { log "$1 not ready within $2 s"; return 1; }
    sleep 0.3
  done
}

haproxy_conf() {
  local default=api
  [ "$WITH_DASHBOARD" = 1 ] && default=dashboard
  cat >"$DIR/haproxy.cfg" <<EOF
global
  maxconn 4096
  pidfile $DIR/haproxy.pid
defaults
  mode http
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  retries 2
  option redispatch
frontend tabula
  bind 127.0.0.1:$LB_PORT
  acl api path_beg /v1/ /api/v1/ /healthz /readyz
  use_backend api if api
  default_backend $default
backend api
  balance roundrobin
  option httpchk GET /readyz
  default-server inter 1s fall 2 rise 2
  server api1 127.0.0.1:${API_PORTS[0]} check
  server api2 127.0.0.1:${API_PORTS[1]} check
EOF
  [ "$WITH_DASHBOARD" = 1 ] && cat >>"$DIR/haproxy.cfg" <<EOF
backend dashboard
  option httpchk GET /readyz
  server dash 127.0.0.1:$DASH_PORT check inter 2s
EOF
  return 0
}

up() {
  ensure_packages
  mkdir -p "$DIR"
  [ -f "$DIR/secret" ] || head -c 32 /dev/urandom | base64 >"$DIR/secret"
  start_galera
  REDIS_URL="$(start_redis)"
  echo "$REDIS_URL" >"$DIR/redis.url"
  start_s3
  # Both API nodes start at once, on two Galera nodes: the migrations lease makes one of them migrate.
  start_app api1 "${API_PORTS[0]}" 0 off
  start_app api2 "${API_PORTS[1]}" 1 off
  [ "$WITH_DASHBOARD" = 1 ] && start_app dashboard "$DASH_PORT" 2 on
  wait_http "http://127.0.0.1:${API_PORTS[0]}/readyz" 60
  wait_http "http://127.0.0.1:${API_PORTS[1]}/readyz" 60
  [ "$WITH_DASHBOARD" = 1 ] && wait_http "http://127.0.0.1:$DASH_PORT/readyz" 300
  haproxy_conf
  alive "$DIR/haproxy.pid" || haproxy -D -f "$DIR/haproxy.cfg"
  wait_http "http://127.0.0.1:$LB_PORT/readyz" 20
  local dash=""; [ "$WITH_DASHBOARD" = 1 ] && dash=", dashboard :$DASH_PORT"
  echo "Tabula cluster ready: http://127.0.0.1:$LB_PORT  (Galera 127.0.0.1:${SQL_PORTS[*]}, API nodes :${API_PORTS[*]}$dash, files in S3 at 127.0.0.1:$S3_PORT)"
}

stop_pid() { # $1 = pid file, $2 = signal
  alive "$1" || return 0
  local pid; pid="$(cat "$1")"
  kill "-${2:-TERM}" "$pid" 2>/dev/null || true
  for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
}

down() {
  stop_pid "$DIR/haproxy.pid"
  for name in api1 api2 dashboard; do stop_pid "$DIR/$name.pid"; done
  stop_pid "$DIR/s3.pid"
  stop_pid "$DIR/redis.pid"
  # Reverse order: the last one stopped is marked safe to bootstrap the next start.
  for n in 3 2 1; do stop_pid "$DIR/node$n/mysqld.pid"; done
  log "stopped (state kept in $DIR; \`wipe\` removes it)"
}

status() {
  local n
  for n in 1 2 3; do
    echo "node$n $(alive "$DIR/node$n/mysqld.pid" && sql $((n - 1)) "SHOW STATUS WHERE Variable_name IN ('wsrep_local_state_comment','wsrep_cluster_size','wsrep_ready')" | tr '\n\t' ' =' || echo down)"
  done
  for n in s3 api1 api2 dashboard haproxy; do echo "$n $(alive "$DIR/$n.pid" && echo up || echo down)"; done
}

cmd="${1:-up}"
case "$cmd" in
  up) up ;;
  down) down ;;
  wipe) down; rm -rf "$DIR"; log "removed $DIR" ;;
  status) status ;;
  kill-node) stop_pid "$DIR/node${2:?node 1-3}/mysqld.pid" KILL; log "node $2 killed" ;;
  restart-node) restart_node "${2:?node 1-3}" ;;
  kill-api) stop_pid "$DIR/api${2:?api node 1-2}.pid" KILL; log "api$2 killed" ;;
  restart-api)
    REDIS_URL="$(cat "$DIR/redis.url")"
    start_s3
    start_app "api$2" "${API_PORTS[$(($2 - 1))]}" $(($2 - 1)) off
    wait_http "http://127.0.0.1:${API_PORTS[$(($2 - 1))]}/readyz" 60 ;;
  *) echo "usage: npm run cluster -- [up|down|status|kill-node N|restart-node N|kill-api N|restart-api N|wipe]" >&2; exit 2 ;;
esac
