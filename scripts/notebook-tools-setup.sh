#!/usr/bin/env bash
# Makes sure the notebook checkers the integration tier uses are installed: nbformat (Jupyter's validator) and
# nbconvert (renders a notebook to HTML), from PyPI. Idempotent: nothing happens when both import.
set -euo pipefail
if python3 -c 'import nbformat, nbconvert' >/dev/null 2>&1 && command -v jupyter >/dev/null 2>&1; then
  exit 0
fi
echo "notebook-tools-setup: pip install nbformat nbconvert"
python3 -m pip install --quiet --disable-pip-version-check nbformat nbconvert
