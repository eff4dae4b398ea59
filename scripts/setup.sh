# Shared set-up for scripts/lab and scripts/test (sourced, not run).
# Creates .venv with Python 3.11, installs the package (building the JupyterLab
# extension with jlpm) and, when asked, the Node.js test peers. Re-running is cheap:
# each step is skipped while its inputs are unchanged.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
cd "$ROOT"

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

find_python() {
  for candidate in python3.11 python3 python; do
    if command -v "$candidate" >/dev/null 2>&1 &&
       "$candidate" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' 2>/dev/null; then
      command -v "$candidate"; return 0
    fi
  done
  echo "Python 3.11 is required (python3.11 not found on PATH)." >&2
  return 1
}

# jlpm is yarn 3: it takes the registry from npm's configuration, never from a file here.
if command -v npm >/dev/null 2>&1; then
  YARN_NPM_REGISTRY_SERVER="$(npm config get registry 2>/dev/null | sed 's#/*$##')"
  export YARN_NPM_REGISTRY_SERVER
else
  echo "Node.js 20 (with npm) is required to build the JupyterLab extension." >&2
  exit 1
fi

stamp_of() { cat "$@" 2>/dev/null | sha256sum | cut -c1-16; }

setup_python() {
  local extra="$1"
  if [ ! -x "$VENV/bin/python" ]; then
    say "Creating .venv ($(find_python))"
    "$(find_python)" -m venv "$VENV"
    "$VENV/bin/python" -m pip install --quiet --upgrade pip
  fi
  local want have
  want="$extra:$(stamp_of pyproject.toml labext/package.json labext/yarn.lock)"
  have="$(cat "$VENV/.jupyter-mcp-lab-installed" 2>/dev/null || true)"
  if [ "$want" != "$have" ] || [ ! -f jupyter_mcp_lab/labextension/package.json ]; then
    say "Installing jupyter-mcp-lab[$extra] into .venv (builds the JupyterLab extension)"
    # (This machine's pip configuration names index folders that may be absent: skip that noise.)
    local built=yes
    [ -f jupyter_mcp_lab/labextension/package.json ] && built=no  # the builder skips an existing build
    "$VENV/bin/python" -m pip install --quiet -e ".[$extra]" 2> >(grep -v "is ignored: it is neither a file nor a directory" >&2)
    echo "$want" > "$VENV/.jupyter-mcp-lab-installed"
    if [ "$built" = yes ]; then echo "$(labext_sources_stamp)" > "$VENV/.jupyter-mcp-lab-labext"; fi
  fi
  export PATH="$VENV/bin:$PATH"
  link_labextension
}

labext_sources_stamp() { find labext/src labext/style labext/schema -type f 2>/dev/null | sort | xargs cat 2>/dev/null | sha256sum | cut -c1-16; }

# An editable install copies the built extension into the venv once; link it instead, so a
# rebuild (below) is what JupyterLab serves, as `jupyter labextension develop` would do.
link_labextension() {
  local dest="$VENV/share/jupyter/labextensions/jupyter-mcp-lab"
  if [ -f jupyter_mcp_lab/labextension/package.json ] && [ ! -L "$dest" ]; then
    rm -rf "$dest"
    mkdir -p "$(dirname "$dest")"
    ln -s "$PWD/jupyter_mcp_lab/labextension" "$dest"
  fi
  cp -f labext/install.json jupyter_mcp_lab/labextension/install.json 2>/dev/null || true
}

# Rebuild the prebuilt extension when its sources changed since the last build.
build_labext_if_changed() {
  local want have
  want="$(labext_sources_stamp)"
  have="$(cat "$VENV/.jupyter-mcp-lab-labext" 2>/dev/null || true)"
  if [ "$want" != "$have" ]; then
    say "Rebuilding the JupyterLab extension (its sources changed)"
    (cd labext && jlpm build:prod)
    echo "$want" > "$VENV/.jupyter-mcp-lab-labext"
    link_labextension
  fi
}

setup_node_peers() {
  local want have
  want="$(stamp_of tests/js/package.json tests/js/package-lock.json)"
  have="$(cat tests/js/node_modules/.jupyter-mcp-lab-installed 2>/dev/null || true)"
  if [ "$want" != "$have" ]; then
    say "Installing the Node.js test peers (TypeScript MCP SDK, conformance suite, JupyterHub's proxy)"
    (cd tests/js && npm ci --no-audit --no-fund --loglevel=error)
    echo "$want" > tests/js/node_modules/.jupyter-mcp-lab-installed
  fi
}

setup_labext_dev() {
  if [ ! -d labext/node_modules ]; then
    say "Installing the JupyterLab extension's dev dependencies"
    (cd labext && jlpm install)
  fi
}

# Browser tests drive Debian's Chromium (never a downloaded browser build).
setup_chromium() {
  if [ -x /usr/bin/chromium ]; then return 0; fi
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    say "Installing Chromium from Debian for the browser tests"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver) >/dev/null ||
      echo "Could not install chromium: browser tests will be skipped." >&2
  else
    echo "No /usr/bin/chromium (install Debian's chromium): browser tests will be skipped." >&2
  fi
}
