#!/usr/bin/env bash
# Checks that the README's commands are true on a machine that never saw the project: clones this repository's
# committed HEAD into a temporary folder, with HOME pointing at a new empty folder (no npm cache, no ~/.spinlab, no
# e2e cache), then runs, exactly as the README shows them:
#   npm ci
#   npx spinlab --help
#   npx spinlab scenarios
#   npx spinlab sim --port PORT --password '...'      (started, seen listening, stopped)
#   npm run demo
# Usage: scripts/fresh-clone-check.sh [REPO]   (default: this checkout). Leaves nothing behind.
set -euo pipefail
REPO="$(cd "${1:-$(dirname "$0")/..}" && pwd)"
WORK="$(mktemp -d /tmp/spinlab-fresh.XXXXXX)"
SIM_PID=""
cleanup() {
  [ -n "$SIM_PID" ] && kill -- "-$SIM_PID" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT
step() { echo; echo "--- fresh clone: $*"; }
timed() { local t0=$SECONDS; "$@"; echo "    ($(( SECONDS - t0 )) s)"; }

export HOME="$WORK/home"
mkdir -p "$HOME"
unset SPINLAB_E2E_CACHE SPINLAB_STATE_DIR SPINLAB_CONNECTION SPINLAB_PASSWORD
step "git clone $REPO (HOME=$HOME)"
git clone --quiet "$REPO" "$WORK/repo"
cd "$WORK/repo"

step "npm ci"
timed npm ci --no-audit --no-fund

step "npx spinlab --help"
npx spinlab --help | tee "$WORK/help.txt"
grep -q "Usage: spinlab" "$WORK/help.txt" || { echo "fresh clone: spinlab --help printed no usage" >&2; exit 1; }

step "npx spinlab scenarios"
npx spinlab scenarios | tee "$WORK/scenarios.txt"
grep -q "disk-insert" "$WORK/scenarios.txt" || { echo "fresh clone: spinlab scenarios does not list disk-insert" >&2; exit 1; }

# The README's simulator line, on a free port (14330 may be taken on a shared machine).
PORT="$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
step "npx spinlab sim --port $PORT --password 'Str0ng!Passw0rd'"
# In a session of its own (setsid), so that stopping it stops npx's child, the simulator itself, too.
setsid npx spinlab sim --port "$PORT" --password 'Str0ng!Passw0rd' > "$WORK/sim.log" 2>&1 &
SIM_PID=$!
for _ in $(seq 1 100); do
  if node -e "require('net').connect($PORT,'127.0.0.1').on('connect',()=>process.exit(0)).on('error',()=>process.exit(1))"; then break; fi
  kill -0 "$SIM_PID" 2>/dev/null || { cat "$WORK/sim.log"; echo "fresh clone: spinlab sim exited" >&2; exit 1; }
  sleep 0.2
done
node -e "require('net').connect($PORT,'127.0.0.1').on('connect',()=>process.exit(0)).on('error',()=>process.exit(1))" \
  || { cat "$WORK/sim.log"; echo "fresh clone: spinlab sim is not listening on $PORT" >&2; exit 1; }
cat "$WORK/sim.log"
kill -- "-$SIM_PID"; wait "$SIM_PID" 2>/dev/null || true; SIM_PID=""
# Nothing of it may be left listening.
if node -e "require('net').connect($PORT,'127.0.0.1').on('connect',()=>process.exit(0)).on('error',()=>process.exit(1))"; then
  echo "fresh clone: the simulator on port $PORT is still running after it was stopped" >&2; exit 1
fi

step "npm run demo"
timed npm run demo
ls spinlab-results/*/experiment.json >/dev/null 2>&1 || { echo "fresh clone: the demo wrote no experiment.json" >&2; exit 1; }
echo
echo "fresh clone: the README's commands work on a fresh clone with an empty HOME"
