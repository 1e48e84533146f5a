#!/usr/bin/env bash
# Mutation testing: runs gremlins on each package named (default: the
# packages whose mutation score docs/testing.md records) with the package's
# own tests, and prints the efficacy per package (killed / viable). Not
# part of .ci/run: one package takes from seconds (seal) to many minutes
# (gitdiag) on 2 cores.
#
# gremlins is taken from PATH, else installed with go install at the
# version below.
set -euo pipefail
cd "$(dirname "$0")/.."

version=v0.5.0
if ! command -v gremlins >/dev/null; then
  echo "installing gremlins $version..." >&2
  GOFLAGS= go install "github.com/go-gremlins/gremlins/cmd/gremlins@$version"
  PATH="$(go env GOPATH)/bin:$PATH"
fi

packages=("$@")
if [ ${#packages[@]} -eq 0 ]; then
  packages=(./jsondepth ./seal ./sanitize ./state)
fi
for pkg in "${packages[@]}"; do
  out=$(gremlins unleash --workers 1 --timeout-coefficient 5 "$pkg" 2>&1)
  echo "$out" | grep -E 'LIVED|NOT COVERED' || true
  printf '%-12s %s\n' "$pkg" "$(echo "$out" | grep -E '^Test efficacy' || echo 'no result')"
done
