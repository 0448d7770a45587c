#!/usr/bin/env bash
# Installs what the end-to-end tier needs, without internet beyond the package registries:
# Debian's Chromium (for Playwright), ripgrep and the Kerberos headers (code-server's native modules), and
# code-server 4.100.3 (VS Code 1.100.3) from npm into a cache folder outside the project's dependencies, with its
# native modules built here instead of downloaded, each the way its package expects (argon2 through node-pre-gyp's
# build from source; the rest with node-gyp). Idempotent: a finished install is left as it is; an unfinished one is
# removed and installed again from nothing, so no earlier run's leftovers decide the outcome.
# Usage: scripts/e2e-setup.sh            (cache: $SPINLAB_E2E_CACHE or ~/.cache/spinlab-e2e)
set -euo pipefail

CACHE="${SPINLAB_E2E_CACHE:-$HOME/.cache/spinlab-e2e}"
VERSION=4.100.3
STAMP="$CACHE/code-server-$VERSION.ok"

need_apt=()
command -v chromium >/dev/null || need_apt+=(chromium)
command -v rg >/dev/null || need_apt+=(ripgrep)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need_apt+=(libkrb5-dev)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "e2e-setup: apt-get install ${need_apt[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq || true
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}"
fi

ENTRY="$CACHE/node_modules/code-server/out/node/entry.js"
if [ -f "$STAMP" ] && [ ! -f "$ENTRY" ]; then
  echo "e2e-setup: $STAMP is there but code-server is not ($ENTRY): installing again"
  rm -f "$STAMP"
fi
if [ -f "$STAMP" ]; then
  echo "e2e-setup: code-server $VERSION already installed in $CACHE"
  exit 0
fi

# Anything here without the stamp is an earlier run that did not finish: start from nothing.
if [ -d "$CACHE" ]; then
  rm -rf "$CACHE/node_modules" "$CACHE/package.json" "$CACHE/package-lock.json"
fi
mkdir -p "$CACHE"
cd "$CACHE"
[ -f package.json ] || echo '{"name":"spinlab-e2e-cache","private":true}' > package.json
echo "e2e-setup: npm install code-server@$VERSION (scripts off; ~320 MB)"
npm install --no-audit --no-fund --ignore-scripts "code-server@$VERSION"

GYP="$(dirname "$(command -v npm)")/../lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js"
[ -f "$GYP" ] || GYP="$(npm root -g)/npm/node_modules/node-gyp/bin/node-gyp.js"
# Node's headers come from the local install (no download): npm's nodedir, else the prefix node runs from.
NODEDIR="$(npm config get nodedir 2>/dev/null | tail -n 1 || true)"
if [ -z "$NODEDIR" ] || [ "$NODEDIR" = "undefined" ] || [ ! -f "$NODEDIR/include/node/node.h" ]; then
  NODEDIR="$(cd "$(dirname "$(readlink -f "$(command -v node)")")/.." && pwd)"
fi
[ -f "$NODEDIR/include/node/node.h" ] || { echo "e2e-setup: Node's headers are not under $NODEDIR/include/node (install nodejs headers)" >&2; exit 1; }
node_gyp() { node "$GYP" rebuild --jobs=2 --nodedir="$NODEDIR" >/dev/null; }

# argon2's binding.gyp takes its module name and path from node-pre-gyp: build it through node-pre-gyp, from source
# (its prebuilt download is not reachable here), with the same headers.
echo "e2e-setup: argon2 (node-pre-gyp, from source)"
(cd node_modules/argon2 && node ../@mapbox/node-pre-gyp/bin/node-pre-gyp install --fallback-to-build \
  --build-from-source --nodedir="$NODEDIR" >/dev/null)
ls node_modules/argon2/lib/binding/napi-v*/argon2.node >/dev/null 2>&1 \
  || { echo "e2e-setup: argon2's binding was not built" >&2; exit 1; }

VS="$CACHE/node_modules/code-server/lib/vscode"
echo "e2e-setup: VS Code's own modules"
(cd "$VS" && npm install --no-audit --no-fund --omit=dev --ignore-scripts >/dev/null)
for m in kerberos @parcel/watcher @vscode/spdlog native-watchdog node-pty @vscode/deviceid; do
  if [ -d "$VS/node_modules/$m" ]; then
    echo "e2e-setup: node-gyp rebuild $m"
    (cd "$VS/node_modules/$m" && node_gyp)
  fi
done
mkdir -p "$VS/node_modules/@vscode/ripgrep/bin"
ln -sf "$(command -v rg)" "$VS/node_modules/@vscode/ripgrep/bin/rg"
[ -e "$VS/node_modules.asar" ] || ln -s node_modules "$VS/node_modules.asar"
echo "e2e-setup: built-in extensions' modules"
(cd "$VS/extensions" && npm install --no-audit --no-fund --omit=dev --ignore-scripts >/dev/null)

touch "$STAMP"
echo "e2e-setup: done ($CACHE)"
