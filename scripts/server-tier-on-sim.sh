#!/usr/bin/env bash
# Runs the real-server tier (npm run test:server) against the built-in simulator, once per SQL Server version given
# (default: 13 = 2016 and 17 = 2025), as the README shows: the tier itself is tested here, where no SQL Server runs.
# Usage: scripts/server-tier-on-sim.sh [VERSION ...]      (after npm ci; stops every simulator it started)
set -euo pipefail
cd "$(dirname "$0")/.."
PW='Sim-Server-Tier-1'
SIM_PID=""
trap '[ -n "$SIM_PID" ] && kill "$SIM_PID" 2>/dev/null || true' EXIT
port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
for v in "${@:-13 17}"; do
  for version in $v; do
    P="$(port)"
    echo "server tier: against spinlab sim --version $version on port $P"
    node bin/spinlab.js sim --port "$P" --password "$PW" --version "$version" > "/tmp/spinlab-server-tier-sim-$version.log" 2>&1 &
    SIM_PID=$!
    for _ in $(seq 1 100); do
      node -e "require('net').connect($P,'127.0.0.1').on('connect',()=>process.exit(0)).on('error',()=>process.exit(1))" && break
      kill -0 "$SIM_PID" 2>/dev/null || { cat "/tmp/spinlab-server-tier-sim-$version.log"; exit 1; }
      sleep 0.2
    done
    SPINLAB_TEST_SERVER="Server=127.0.0.1,$P;User ID=sa;Encrypt=false" SPINLAB_TEST_PASSWORD="$PW" \
      node scripts/mochaTier.js out/test/server 600000
    kill "$SIM_PID"; wait "$SIM_PID" 2>/dev/null || true; SIM_PID=""
  done
done
