#!/usr/bin/env bash
# Make bench/.venv-diplomacy: the diplomacy package (PyPI 1.1.2, pinned with its
# dependencies in requirements-diplomacy.txt) and, when the project can be
# installed, gamesmaster itself (editable), side by side in one interpreter.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
python="${PYTHON:-python3}"
venv="$here/.venv-diplomacy"
[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$here/requirements-diplomacy.txt"
if [ -f "$root/pyproject.toml" ]; then
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -e "$root"
fi
"$venv/bin/python" -c 'import diplomacy.version as v; print("diplomacy", v.PACKAGE_VERSION)'
"$venv/bin/python" -c 'import gamesmaster; print("gamesmaster", gamesmaster.__file__)' 2>/dev/null || echo "gamesmaster not installed (no pyproject.toml in the parent directory)"
